/* LAPACK's complex double solves and Hermitian eigensolver, for
 * python_tests/test_preload_lapack.py: built against the reference LAPACK (liblapack3) on the
 * reference BLAS (libblas3), whose blocked code (block size 64 for zgetrf and zpotrf, 32 for
 * zgeqrf and zhetrd, from ilaenv) calls zgemm, ztrsm, zherk, ztrmm and zher2k.
 *
 * For each size n it prints one line per computation
 *     <what> z <n> <info> <ratio>
 * with, for the solves (zgesv: LU with partial pivoting; zposv L and U: Cholesky of a Hermitian
 * positive definite matrix; zgels: QR of a square matrix), ratio = ||A x - b||_inf /
 * (||A||_inf ||x||_inf n eps) over the two right-hand sides; for zheev (eigenvalues and vectors,
 * lower triangle), "heev" with ||A Z - Z diag(w)||_1 / (||A||_1 n eps) and "heev-orth" with
 * ||Z^H Z - I||_1 / (n eps), the ratios LAPACK's own tests compare with 30 (eps = 2^-53; sums in
 * long double from the original A and b). Exits 0 when every call returned info 0. */
#include <complex.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRHS 2
#define EPS 0x1p-53

typedef double _Complex z;
typedef long double _Complex zl;

void zgesv_(const int *n, const int *nrhs, z *a, const int *lda, int *ipiv, z *b, const int *ldb,
            int *info);
void zposv_(const char *uplo, const int *n, const int *nrhs, z *a, const int *lda, z *b,
            const int *ldb, int *info, size_t uplo_len);
void zgels_(const char *trans, const int *m, const int *n, const int *nrhs, z *a, const int *lda,
            z *b, const int *ldb, z *work, const int *lwork, int *info, size_t trans_len);
void zheev_(const char *jobz, const char *uplo, const int *n, z *a, const int *lda, double *w,
            z *work, const int *lwork, double *rwork, int *info, size_t jobz_len,
            size_t uplo_len);
void zlarnv_(const int *idist, int *iseed, const int *n, z *x);

static int failures;

static void report(const char *what, int n, int info, double ratio) {
    printf("%s z %d %d %.4f\n", what, n, info, ratio);
    if (info != 0) failures++;
}

/* ||A x - b||_inf / (||A||_inf ||x||_inf n eps) over the columns of x and b. */
static double solve_ratio(int n, const z *a, const z *x, const z *b) {
    long double anorm = 0, worst = 0;
    for (int i = 0; i < n; i++) {
        long double row = 0;
        for (int j = 0; j < n; j++) row += cabsl(a[i + (size_t)j * n]);
        if (row > anorm) anorm = row;
    }
    for (int c = 0; c < NRHS; c++) {
        long double rnorm = 0, xnorm = 0;
        for (int i = 0; i < n; i++) {
            zl r = -(zl)b[i + (size_t)c * n];
            for (int j = 0; j < n; j++) r += (zl)a[i + (size_t)j * n] * x[j + (size_t)c * n];
            if (cabsl(r) > rnorm) rnorm = cabsl(r);
            if (cabsl(x[i + (size_t)c * n]) > xnorm) xnorm = cabsl(x[i + (size_t)c * n]);
        }
        long double q = rnorm / (anorm * xnorm * n * EPS);
        if (q > worst) worst = q;
    }
    return (double)worst;
}

/* The 1-norm (largest column sum of moduli) of the n x n matrix element(i, j). */
#define NORM1(n, element)                                              \
    ({                                                                 \
        long double norm_ = 0;                                         \
        for (int j = 0; j < (n); j++) {                                \
            long double col_ = 0;                                      \
            for (int i = 0; i < (n); i++) col_ += cabsl(element);      \
            if (col_ > norm_) norm_ = col_;                            \
        }                                                              \
        norm_;                                                         \
    })

static void solves(int n, int *iseed) {
    const int two = 2, nn = n * n, nb = n * NRHS, nrhs = NRHS;
    z *a0 = malloc(sizeof(z) * nn), *a = malloc(sizeof(z) * nn);
    z *b0 = malloc(sizeof(z) * nb), *x = malloc(sizeof(z) * nb);
    int *ipiv = malloc(sizeof(int) * n), info;
    zlarnv_(&two, iseed, &nb, b0);
    /* LU: a general matrix, parts uniform in (-1, 1). */
    zlarnv_(&two, iseed, &nn, a0);
    memcpy(a, a0, sizeof(z) * nn);
    memcpy(x, b0, sizeof(z) * nb);
    zgesv_(&n, &nrhs, a, &n, ipiv, x, &n, &info);
    report("gesv", n, info, solve_ratio(n, a0, x, b0));
    /* QR of the same matrix (square: the least-squares solution is the solution). */
    z query;
    int lwork = -1;
    zgels_("N", &n, &n, &nrhs, a, &n, x, &n, &query, &lwork, &info, 1);
    lwork = (int)creal(query);
    z *work = malloc(sizeof(z) * lwork);
    memcpy(a, a0, sizeof(z) * nn);
    memcpy(x, b0, sizeof(z) * nb);
    zgels_("N", &n, &n, &nrhs, a, &n, x, &n, work, &lwork, &info, 1);
    report("gels", n, info, solve_ratio(n, a0, x, b0));
    free(work);
    /* Cholesky: a0 := G G^H / n + I, Hermitian positive definite, G the matrix above. */
    memcpy(a, a0, sizeof(z) * nn);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            zl s = 0;
            for (int k = 0; k < n; k++) s += (zl)a[i + (size_t)k * n] * conjl(a[j + (size_t)k * n]);
            a0[i + (size_t)j * n] = (z)(s / n + (i == j));
        }
    for (int u = 0; u < 2; u++) {
        const char *uplo = u ? "U" : "L";
        memcpy(a, a0, sizeof(z) * nn);
        memcpy(x, b0, sizeof(z) * nb);
        zposv_(uplo, &n, &nrhs, a, &n, x, &n, &info, 1);
        report(u ? "posv-U" : "posv-L", n, info, solve_ratio(n, a0, x, b0));
    }
    /* The Hermitian eigenproblem of the same matrix: A Z = Z diag(w), Z unitary. */
    double *w = malloc(sizeof(double) * n), *rwork = malloc(sizeof(double) * (3 * n));
    lwork = -1;
    zheev_("V", "L", &n, a, &n, w, &query, &lwork, rwork, &info, 1, 1);
    lwork = (int)creal(query);
    work = malloc(sizeof(z) * lwork);
    memcpy(a, a0, sizeof(z) * nn);
    zheev_("V", "L", &n, a, &n, w, work, &lwork, rwork, &info, 1, 1);
    zl *r = malloc(sizeof(zl) * nn), *o = malloc(sizeof(zl) * nn);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            zl s = -(zl)a[i + (size_t)j * n] * w[j], g = -(i == j);
            for (int k = 0; k < n; k++) {
                s += (zl)a0[i + (size_t)k * n] * a[k + (size_t)j * n];
                g += conjl(a[k + (size_t)i * n]) * a[k + (size_t)j * n];
            }
            r[i + (size_t)j * n] = s;
            o[i + (size_t)j * n] = g;
        }
    long double anorm = NORM1(n, a0[i + (size_t)j * n]);
    report("heev", n, info, (double)(NORM1(n, r[i + (size_t)j * n]) / (anorm * n * EPS)));
    report("heev-orth", n, info, (double)(NORM1(n, o[i + (size_t)j * n]) / (n * EPS)));
    free(w), free(rwork), free(work), free(r), free(o);
    free(a0), free(a), free(b0), free(x), free(ipiv);
}

int main(int argc, char **argv) {
    int iseed[4] = {3, 11, 42, 2025};
    for (int i = 1; i < argc; i++) solves(atoi(argv[i]), iseed);
    return failures != 0;
}
