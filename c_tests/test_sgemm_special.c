/*
 * test_sgemm_special.c - glblasSgemm special cases of the spec:
 * - alpha == 0: C = beta*C without reading A or B (A, B NULL; and A, B full
 *   of NaN on host and device), for beta in {0, 1, 0.5, -2};
 * - k == 0 (A, B NULL, alpha != 0): C = beta*C;
 * - beta == 0 with C full of NaN / Inf: C is overwritten, never read
 *   (regular product, alpha == 0 and k == 0 paths; host and device C);
 * - m == 0 or n == 0: quick return, C untouched;
 * - in all of these, padding rows m..ldc-1 of C hold a sentinel that must stay
 *   bit-identical (host and device C).
 * Tolerance: ref_sgemm in check.h (here k + 3 roundings with k = 0 or alpha =
 * 0 leave one rounding of beta*c, well inside the bound).
 */
#include "check.h"

typedef struct {
    const char *name;
    int m, n, k;
    float alpha, beta;
    int a_null;     /* pass A = B = NULL */
    int ab_nan;     /* A and B hold NaN everywhere (they must not be read) */
    float c_fill;   /* 0: random C; otherwise every C element (not padding) is this (NaN, Inf) */
} special_t;

static void run_special(rng_t *rng, const special_t *t, int c_dev, int ab_dev)
{
    char label[256];
    int m = t->m, n = t->n, k = t->k;
    int lda = (m > 1 ? m : 1) + 2, ldb = (k > 1 ? k : 1) + 1, ldc = (m > 1 ? m : 1) + 3;
    size_t lenA = (size_t)lda * (size_t)(k > 0 ? k : 1), lenB = (size_t)ldb * (size_t)(n > 0 ? n : 1);
    size_t lenC = (size_t)ldc * (size_t)(n > 0 ? n : 1);
    float *hA = (float *)xmalloc(lenA * sizeof(float)), *hB = (float *)xmalloc(lenB * sizeof(float));
    float *hC = (float *)xmalloc(lenC * sizeof(float)), *C0;
    double *ref = (double *)xmalloc(((size_t)m * (size_t)n + 1) * sizeof(double));
    double *tol = (double *)xmalloc(((size_t)m * (size_t)n + 1) * sizeof(double));
    float *dA = NULL, *dB = NULL, *dC = NULL;
    const float *pA, *pB;
    float *pC;
    int i, j;
    glblasStatus_t st;

    if (t->ab_nan) {
        fill_const(hA, lenA, NAN);
        fill_const(hB, lenB, NAN);
    } else {
        fill_rand(rng, hA, lenA);
        fill_rand(rng, hB, lenB);
    }
    fill_const(hC, lenC, SENTINEL);
    for (j = 0; j < n; ++j)
        for (i = 0; i < m; ++i)
            hC[i + (size_t)j * (size_t)ldc] = t->c_fill != 0.0f ? t->c_fill : rng_float(rng);
    C0 = fdup(hC, lenC);

    snprintf(label, sizeof label, "%s: sgemm(N,N) m=%d n=%d k=%d alpha=%g beta=%g A,B:%s C:%s", t->name, m, n, k,
             (double)t->alpha, (double)t->beta, t->a_null ? "NULL" : (ab_dev ? "dev" : "host"),
             c_dev ? "dev" : "host");

    ref_sgemm(GLBLAS_OP_N, GLBLAS_OP_N, m, n, k, t->alpha, t->a_null ? NULL : hA, lda, t->a_null ? NULL : hB,
              ldb, t->beta, hC, ldc, ref, tol);

    if (t->a_null) {
        pA = NULL;
        pB = NULL;
    } else if (ab_dev) {
        dA = dev_upload(hA, lenA);
        dB = dev_upload(hB, lenB);
        pA = dA;
        pB = dB;
    } else {
        pA = hA;
        pB = hB;
    }
    if (c_dev) {
        dC = dev_upload(hC, lenC);
        pC = dC;
    } else {
        pC = hC;
    }

    st = glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_N, m, n, k, t->alpha, pA, lda, pB, ldb, t->beta, pC, ldc);
    if (succeeded(label, st)) {
        if (dC)
            dev_read(hC, dC, lenC);
        if (m == 0 || n == 0)
            check_bits_equal(label, hC, C0, lenC);
        else
            check_gemm_c(label, hC, C0, lenC, 0, m, n, ldc, ref, tol);
    }
    dev_free(dA);
    dev_free(dB);
    dev_free(dC);
    free(hA);
    free(hB);
    free(hC);
    free(C0);
    free(ref);
    free(tol);
}

int main(void)
{
    const float inf = (float)INFINITY;
    const special_t cases[] = {
        /* alpha == 0: C = beta*C, A and B not read */
        { "alpha=0 A,B NULL beta=0.5", 9, 7, 5, 0.0f, 0.5f, 1, 0, 0.0f },
        { "alpha=0 A,B NULL beta=1", 9, 7, 5, 0.0f, 1.0f, 1, 0, 0.0f },
        { "alpha=0 A,B NULL beta=-2", 1, 1, 1, 0.0f, -2.0f, 1, 0, 0.0f },
        { "alpha=0 A,B NULL beta=0 C=NaN", 9, 7, 5, 0.0f, 0.0f, 1, 0, NAN },
        { "alpha=0 A,B NaN beta=0.5", 9, 7, 5, 0.0f, 0.5f, 0, 1, 0.0f },
        { "alpha=0 A,B NaN beta=0 C=NaN", 13, 6, 4, 0.0f, 0.0f, 0, 1, NAN },
        { "alpha=0 A,B NaN beta=0 C=Inf", 13, 6, 4, 0.0f, 0.0f, 0, 1, inf },
        /* k == 0: C = beta*C, A and B not read */
        { "k=0 A,B NULL beta=0.5", 11, 3, 0, 1.5f, 0.5f, 1, 0, 0.0f },
        { "k=0 A,B NULL beta=1", 11, 3, 0, 1.5f, 1.0f, 1, 0, 0.0f },
        { "k=0 A,B NULL beta=0 C=NaN", 11, 3, 0, 1.5f, 0.0f, 1, 0, NAN },
        { "k=0 A,B NULL beta=0 C=-Inf", 2, 5, 0, -1.0f, 0.0f, 1, 0, -inf },
        /* beta == 0 on the regular path: NaN / Inf in C must not leak */
        { "beta=0 C=NaN", 17, 13, 11, 1.0f, 0.0f, 0, 0, NAN },
        { "beta=0 C=Inf", 17, 13, 11, -0.5f, 0.0f, 0, 0, inf },
        { "beta=0 C=NaN 1x1x1", 1, 1, 1, 2.0f, 0.0f, 0, 0, NAN },
        { "beta=0 C=NaN 64x64x64", 64, 64, 64, 1.0f, 0.0f, 0, 0, NAN },
        /* beta == 1: C += alpha*A*B */
        { "beta=1", 31, 17, 9, 1.0f, 1.0f, 0, 0, 0.0f },
        /* quick returns: C untouched (and with NaN in C, nothing computed) */
        { "m=0", 0, 5, 4, 1.0f, 0.5f, 0, 0, 0.0f },
        { "n=0", 6, 0, 4, 1.0f, 0.5f, 0, 0, 0.0f },
        { "m=0 n=0 k=0", 0, 0, 0, 1.0f, 0.0f, 0, 0, 0.0f },
        { "n=0 beta=0", 6, 0, 4, 1.0f, 0.0f, 0, 0, 0.0f },
    };
    rng_t rng = rng_seed(777);
    size_t c;

    CHECK_OK(glblasInit());

    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        run_special(&rng, &cases[c], 0, 0);
        run_special(&rng, &cases[c], 1, 0);
        if (!cases[c].a_null) {
            run_special(&rng, &cases[c], 1, 1);
            run_special(&rng, &cases[c], 0, 1);
        }
    }

    CHECK_OK(glblasSync());
    return check_finish("test_sgemm_special");
}
