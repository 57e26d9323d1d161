/* LAPACK's LU, Cholesky and QR solves in single and double precision, for
 * python_tests/test_preload_lapack.py: built against the reference LAPACK (liblapack3) on the
 * reference BLAS (libblas3), whose blocked code (block size 64 for getrf and potrf, 32 for
 * geqrf, from ilaenv) calls gemm, trsm, syrk and trmm.
 *
 * For each precision, size n and solve it prints one line
 *     <solve> <s|d> <n> <info> <ratio>
 * with ratio = ||A x - b||_inf / (||A||_inf ||x||_inf n eps) over the two right-hand sides
 * (eps = 2^-24 or 2^-53, the unit roundoff; the residual summed in long double from the
 * original A and b), the ratio LAPACK's own tests compare with 30. Solves: gesv (LU with partial
 * pivoting), posv L and posv U (Cholesky of an SPD matrix, either triangle), gels (QR of a
 * square matrix, least squares = the solve). Exits 0 when every call returned info 0. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRHS 2

#define DECLARE(T, P)                                                                          \
    void P##gesv_(const int *n, const int *nrhs, T *a, const int *lda, int *ipiv, T *b,        \
                  const int *ldb, int *info);                                                  \
    void P##posv_(const char *uplo, const int *n, const int *nrhs, T *a, const int *lda, T *b, \
                  const int *ldb, int *info, size_t uplo_len);                                 \
    void P##gels_(const char *trans, const int *m, const int *n, const int *nrhs, T *a,        \
                  const int *lda, T *b, const int *ldb, T *work, const int *lwork, int *info,  \
                  size_t trans_len);                                                           \
    void P##larnv_(const int *idist, int *iseed, const int *n, T *x);

DECLARE(float, s)
DECLARE(double, d)

/* ||A x - b||_inf / (||A||_inf ||x||_inf n eps) over the columns of x and b. */
#define RATIO(T)                                                                               \
    static double ratio_##T(int n, const T *a, const T *x, const T *b, double eps) {           \
        long double anorm = 0, worst = 0;                                                      \
        for (int i = 0; i < n; i++) {                                                          \
            long double row = 0;                                                               \
            for (int j = 0; j < n; j++) row += fabsl((long double)a[i + (size_t)j * n]);      \
            if (row > anorm) anorm = row;                                                      \
        }                                                                                      \
        for (int c = 0; c < NRHS; c++) {                                                       \
            long double rnorm = 0, xnorm = 0;                                                  \
            for (int i = 0; i < n; i++) {                                                      \
                long double r = -(long double)b[i + (size_t)c * n];                            \
                for (int j = 0; j < n; j++)                                                    \
                    r += (long double)a[i + (size_t)j * n] * x[j + (size_t)c * n];             \
                if (fabsl(r) > rnorm) rnorm = fabsl(r);                                        \
                if (fabsl((long double)x[i + (size_t)c * n]) > xnorm)                          \
                    xnorm = fabsl((long double)x[i + (size_t)c * n]);                          \
            }                                                                                  \
            long double q = rnorm / (anorm * xnorm * n * eps);                                 \
            if (q > worst) worst = q;                                                          \
        }                                                                                      \
        return (double)worst;                                                                  \
    }

RATIO(float)
RATIO(double)

static int failures;

static void report(const char *solve, char p, int n, int info, double ratio) {
    printf("%s %c %d %d %.4f\n", solve, p, n, info, ratio);
    if (info != 0) failures++;
}

/* Every solve of one size in one precision. */
#define SOLVES(T, P, EPS)                                                                      \
    static void solves_##P(int n, int *iseed) {                                                \
        const int two = 2, nn = n * n, nb = n * NRHS, nrhs = NRHS;                             \
        T *a0 = malloc(sizeof(T) * nn), *a = malloc(sizeof(T) * nn);                           \
        T *b0 = malloc(sizeof(T) * nb), *x = malloc(sizeof(T) * nb);                           \
        int *ipiv = malloc(sizeof(int) * n), info;                                             \
        P##larnv_(&two, iseed, &nb, b0);                                                       \
        /* LU: a general matrix, entries uniform in (-1, 1). */                               \
        P##larnv_(&two, iseed, &nn, a0);                                                       \
        memcpy(a, a0, sizeof(T) * nn);                                                         \
        memcpy(x, b0, sizeof(T) * nb);                                                         \
        P##gesv_(&n, &nrhs, a, &n, ipiv, x, &n, &info);                                        \
        report("gesv", #P[0], n, info, ratio_##T(n, a0, x, b0, EPS));                          \
        /* QR of the same matrix (square: the least-squares solution is the solution). */     \
        T query;                                                                               \
        int lwork = -1;                                                                        \
        P##gels_("N", &n, &n, &nrhs, a, &n, x, &n, &query, &lwork, &info, 1);                  \
        lwork = (int)query;                                                                    \
        T *work = malloc(sizeof(T) * lwork);                                                   \
        memcpy(a, a0, sizeof(T) * nn);                                                         \
        memcpy(x, b0, sizeof(T) * nb);                                                         \
        P##gels_("N", &n, &n, &nrhs, a, &n, x, &n, work, &lwork, &info, 1);                    \
        report("gels", #P[0], n, info, ratio_##T(n, a0, x, b0, EPS));                          \
        free(work);                                                                            \
        /* Cholesky: a0 := G G^T / n + I, symmetric positive definite, G the matrix above. */ \
        memcpy(a, a0, sizeof(T) * nn);                                                         \
        for (int i = 0; i < n; i++)                                                            \
            for (int j = 0; j < n; j++) {                                                      \
                long double s = 0;                                                             \
                for (int k = 0; k < n; k++)                                                    \
                    s += (long double)a[i + (size_t)k * n] * a[j + (size_t)k * n];             \
                a0[i + (size_t)j * n] = (T)(s / n + (i == j));                                 \
            }                                                                                  \
        for (int u = 0; u < 2; u++) {                                                          \
            const char *uplo = u ? "U" : "L";                                                  \
            memcpy(a, a0, sizeof(T) * nn);                                                     \
            memcpy(x, b0, sizeof(T) * nb);                                                     \
            P##posv_(uplo, &n, &nrhs, a, &n, x, &n, &info, 1);                                 \
            report(u ? "posv-U" : "posv-L", #P[0], n, info, ratio_##T(n, a0, x, b0, EPS));     \
        }                                                                                      \
        free(a0), free(a), free(b0), free(x), free(ipiv);                                      \
    }

SOLVES(float, s, 0x1p-24)
SOLVES(double, d, 0x1p-53)

int main(int argc, char **argv) {
    int iseed[4] = {1, 7, 42, 2023};
    for (int i = 1; i < argc; i++) {
        int n = atoi(argv[i]);
        solves_s(n, iseed);
        solves_d(n, iseed);
    }
    return failures != 0;
}
