/*
 * one_sgemm N: one process that does a single sgemm of N×N host matrices end to end (context,
 * shader compilation, transfers, the product), for the whole-process comparison of issue 14:
 * scripts/gpu/compare.py times this process from outside, beside a PyTorch/cuBLAS process doing
 * the same. Checks 16 sampled elements of C against a double-precision computation within
 * sgemm's error bound, and exits 1 (printing nothing else) on a wrong result or an error. Its
 * data come from the C tests' generator (c_tests/check.h).
 */
#include "check.h"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0;
    if (n <= 0) {
        fprintf(stderr, "usage: one_sgemm N\n");
        return 2;
    }
    size_t nn = (size_t)n * (size_t)n;
    float *a = xmalloc(nn * sizeof *a), *b = xmalloc(nn * sizeof *b), *c = xmalloc(nn * sizeof *c);
    rng_t r = rng_seed(1);
    fill_rand(&r, a, nn);
    fill_rand(&r, b, nn);
    fill_const(c, nn, NAN);
    glblasStatus_t st = glblasInit();
    if (st == GLBLAS_STATUS_SUCCESS)
        st = glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_N, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    if (st != GLBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "one_sgemm: %s\n", glblasGetStatusString(st));
        return 1;
    }
    /* |error| <= gamma_n * (|A||B|)_ij with gamma_n ~ n * 2^-24 (column-major, C = A B). */
    for (int t = 0; t < 16; t++) {
        int i = (int)((unsigned)(t * 7919) % (unsigned)n), j = (int)((unsigned)(t * 104729) % (unsigned)n);
        double ref = 0.0, mag = 0.0;
        for (int l = 0; l < n; l++) {
            double p = (double)a[i + (size_t)l * n] * (double)b[l + (size_t)j * n];
            ref += p;
            mag += fabs(p);
        }
        double got = c[i + (size_t)j * n];
        if (!(fabs(got - ref) <= (n + 2) * FP32_U * mag)) {
            fprintf(stderr, "one_sgemm: C(%d, %d) = %.9g, expected %.9g\n", i, j, got, ref);
            return 1;
        }
    }
    printf("one_sgemm %d ok\n", n);
    glblasShutdown();
    free(a);
    free(b);
    free(c);
    return 0;
}
