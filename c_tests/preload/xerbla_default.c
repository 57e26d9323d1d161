/*
 * xerbla_default.c - the library's default error handling, when the program defines no
 * handler (no xerbla_, no cblas_xerbla of its own; the BLAS it links, OpenBLAS, has defaults of
 * both, which glblas must pass over: OpenBLAS's cblas_xerbla exits the process).
 *
 *   gcc -std=c99 -O2 -Wall -Wextra xerbla_default.c -o xerbla_default -lopenblas
 *   LD_PRELOAD=/abs/libglblas.so ./xerbla_default
 *
 * Triggers, in this order (python_tests/test_preload_xerbla.py checks stderr for exactly these
 * reference messages, in this order):
 *   1. sgemm_ with M < 0                    -> " ** On entry to SGEMM parameter number  3 had an illegal value"
 *   2. cblas_sgemm column-major, lda < M    -> "Parameter 9 to routine cblas_sgemm was incorrect"
 *   3. cblas_sgemm row-major, M < 0         -> "Parameter 4 to routine cblas_sgemm was incorrect"
 *      (the handler receives 5, the swapped call's position; the default message prints the
 *      C position)
 *   4. cblas_sgemv column-major, incY = 0   -> "Parameter 12 to routine cblas_sgemv was incorrect"
 * Every error call must return (the reference message is printed, the process goes on) and
 * leave its output untouched.  Then a valid cblas_sgemm is checked against a reference, and
 * "continued" is printed on stdout.  Exit status 0 only if all of this held.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cblas.h>

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc, size_t transa_len, size_t transb_len);

#define NBUF 256
static float A[NBUF], B[NBUF], C[NBUF], C0[NBUF];
static int failures;

static void reset(void)
{
    for (int i = 0; i < NBUF; i++) {
        A[i] = (float)((i * 7 + 3) % 17 - 8) * 0.125f;
        B[i] = (float)((i * 5 + 1) % 13 - 6) * 0.25f;
        C[i] = C0[i] = -999.25f - (float)i;
    }
}

static void untouched(const char *what)
{
    fflush(stderr);
    if (memcmp(C, C0, sizeof C) != 0) {
        printf("FAIL %s: output modified by an erroneous call\n", what);
        failures++;
    }
    fflush(stdout);
}

int main(void)
{
    const int m = 3, n = 4, k = 5;
    const float alpha = 1.5f, beta = 0.5f;

    /* 1. Fortran sgemm_, M < 0 -> info 3 */
    {
        const char ta = 'N', tb = 'N';
        const int bad_m = -1, lda = m, ldb = k, ldc = m;
        reset();
        sgemm_(&ta, &tb, &bad_m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
        untouched("sgemm_ M < 0");
        printf("returned 1\n");
    }
    /* 2. cblas_sgemm column-major, lda < M -> 9 */
    reset();
    cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, m - 1, B, k, beta,
                C, m);
    untouched("cblas_sgemm col lda < M");
    printf("returned 2\n");
    /* 3. cblas_sgemm row-major, M < 0 -> handler 5, message prints the C position 4 */
    reset();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, -1, n, k, alpha, A, k, B, n, beta, C,
                n);
    untouched("cblas_sgemm row M < 0");
    printf("returned 3\n");
    /* 4. cblas_sgemv column-major, incY = 0 -> 12 */
    reset();
    cblas_sgemv(CblasColMajor, CblasNoTrans, m, n, alpha, A, m, B, 1, beta, C, 0);
    untouched("cblas_sgemv incY = 0");
    printf("returned 4\n");

    /* a valid call still computes: row-major C(m x n) = alpha A(m x k) B(k x n) + beta C */
    reset();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, k, B, n, beta, C,
                n);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += (double)A[i * k + p] * (double)B[p * n + j];
            double want = alpha * s + beta * (double)C0[i * n + j];
            double got = C[i * n + j];
            if (!(fabs(got - want) <= 1e-4 * (1.0 + fabs(want)))) {
                printf("FAIL valid cblas_sgemm: C[%d,%d] = %.7g, expected %.7g\n", i, j, got,
                       want);
                failures++;
            }
        }
    }
    for (int t = m * n; t < NBUF; t++) {
        if (memcmp(&C[t], &C0[t], sizeof(float)) != 0) {
            printf("FAIL valid cblas_sgemm: C[%d] outside the result written\n", t);
            failures++;
            break;
        }
    }

    printf("continued\n");
    printf("xerbla_default: %d failures\n", failures);
    return failures ? 1 : 0;
}
