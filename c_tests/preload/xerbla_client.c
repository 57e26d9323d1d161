/*
 * xerbla_client.c - the error exits of the BLAS-compatible sgemm / sgemv symbols, checked
 * against the reference BLAS (netlib) conventions, with the program's own error handlers.
 *
 * Meant to run with LD_PRELOAD=libglblas.so (python_tests/test_preload_xerbla.py does so):
 *
 *   gcc -std=c99 -O2 -Wall -Wextra -rdynamic xerbla_client.c -o xerbla_client -lopenblas -ldl
 *   LD_PRELOAD=/abs/libglblas.so ./xerbla_client [--ilp64]
 *
 * The program defines (and exports, hence -rdynamic) both reference handlers:
 *   void xerbla_(const char *srname, const int *info, size_t len)          (Fortran symbols)
 *   void cblas_xerbla(int info, const char *rout, const char *form, ...)   (CBLAS, ILP64)
 * Each records the routine name, the parameter number, the value of the library's global
 * RowMajorStrg at that moment (looked up with dlsym) and counts its calls.
 *
 * For every error case of the contract (sgemm_ all 8 positions, sgemv_ all 6, cblas_sgemm
 * column-major all 9 and row-major M,N,K,lda,ldb,ldc,TransA,TransB, cblas_sgemv both layouts)
 * the routine is called with exactly one bad argument, all others valid and the sizes small
 * but non-empty (a real computation would write C / y), then checks:
 *   - exactly one handler call, of the right kind (Fortran vs CBLAS);
 *   - the name: Fortran srname "SGEMM " / "SGEMV " (len 6, compared on its len characters),
 *     CBLAS rout "cblas_sgemm" / "cblas_sgemv" (ILP64: the symbol's own name);
 *   - the parameter number (row-major: positions of the swapped column-major call);
 *   - RowMajorStrg == 1 during the handler call of a row-major call, 0 otherwise;
 *   - every array bit-identical afterwards (outputs hold sentinels, inputs are checked too).
 * Cases with two bad arguments check that the first failing check of the reference order wins.
 * Valid calls between and after the errors must compute correct results without calling a
 * handler.  With --ilp64 the ILP64 symbols scipy_cblas_sgemm64_ / scipy_cblas_sgemv64_ (found
 * with dlsym(RTLD_DEFAULT), absent = failure) get the same treatment with int64 arguments,
 * including negative values whose low 32 bits are a valid positive int (a library truncating
 * to 32 bits would miss the error).
 *
 * stdout: one line "CALL <symbol> error <info>" or "CALL <symbol> ok" just before every BLAS
 * call (the pytest driver matches them one to one against the GLBLAS_TRACE lines), "FAIL ..."
 * lines for every mismatch, then a summary.  Exit status 0 only if nothing mismatched.
 */
#define _GNU_SOURCE 1 /* RTLD_DEFAULT */

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenBLAS's cblas.h declares cblas_xerbla(blasint, char *, char *, ...); the reference CBLAS
 * handler (defined below) takes const strings. Keep the header's declaration out of the way. */
#define cblas_xerbla openblas_header_cblas_xerbla_
#include <cblas.h>
#undef cblas_xerbla

/* ------------------------------------------------------------------------------------------ */
/* prototypes: gfortran ABI (hidden size_t lengths of the character arguments at the end)     */
/* ------------------------------------------------------------------------------------------ */

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc, size_t transa_len, size_t transb_len);
void sgemv_(const char *trans, const int *m, const int *n, const float *alpha, const float *a,
            const int *lda, const float *x, const int *incx, const float *beta, float *y,
            const int *incy, size_t trans_len);

void xerbla_(const char *srname, const int *info, size_t len);
void cblas_xerbla(int info, const char *rout, const char *form, ...);

/* ILP64 CBLAS as numpy's wheel calls them: every int argument int64_t, enums stay int. */
typedef void (*sgemm64_fn)(int layout, int transa, int transb, int64_t m, int64_t n, int64_t k,
                           float alpha, const float *a, int64_t lda, const float *b,
                           int64_t ldb, float beta, float *c, int64_t ldc);
typedef void (*sgemv64_fn)(int layout, int trans, int64_t m, int64_t n, float alpha,
                           const float *a, int64_t lda, const float *x, int64_t incx,
                           float beta, float *y, int64_t incy);

/* ------------------------------------------------------------------------------------------ */
/* the handlers                                                                               */
/* ------------------------------------------------------------------------------------------ */

enum { KIND_NONE = 0, KIND_FORTRAN = 'F', KIND_CBLAS = 'C' };

static struct {
    int count;          /* handler calls since the last reset (both kinds) */
    int kind;           /* kind of the last call */
    char name[64];      /* srname (its len characters) or rout of the last call */
    size_t len;         /* Fortran: the hidden length */
    int info;           /* parameter number of the last call */
    int row_major;      /* RowMajorStrg during the last call, -1 if not exported */
    int form_null;      /* CBLAS: form was NULL */
    char detail[128];   /* CBLAS: form formatted with its arguments (diagnostics only) */
} rec;

static int read_row_major_strg(void)
{
    const int *p = (const int *)dlsym(RTLD_DEFAULT, "RowMajorStrg");
    return p ? *p : -1;
}

void xerbla_(const char *srname, const int *info, size_t len)
{
    rec.count++;
    rec.kind = KIND_FORTRAN;
    rec.len = len;
    memset(rec.name, 0, sizeof rec.name);
    if (srname)
        memcpy(rec.name, srname, len < sizeof rec.name - 1 ? len : sizeof rec.name - 1);
    rec.info = info ? *info : -9999;
    rec.row_major = read_row_major_strg();
}

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    rec.count++;
    rec.kind = KIND_CBLAS;
    rec.len = 0;
    memset(rec.name, 0, sizeof rec.name);
    if (rout)
        strncpy(rec.name, rout, sizeof rec.name - 1);
    rec.info = info;
    rec.row_major = read_row_major_strg();
    rec.form_null = form == NULL;
    rec.detail[0] = '\0';
    if (form) {
        va_list ap;
        va_start(ap, form);
        vsnprintf(rec.detail, sizeof rec.detail, form, ap);
        va_end(ap);
        rec.detail[strcspn(rec.detail, "\n")] = '\0';
    }
}

static void rec_reset(void)
{
    memset(&rec, 0, sizeof rec);
    rec.kind = KIND_NONE;
}

/* ------------------------------------------------------------------------------------------ */
/* failure bookkeeping                                                                        */
/* ------------------------------------------------------------------------------------------ */

#define MAX_FAILS 512
static char *fails[MAX_FAILS];
static int nfails, ncases, nvalid;

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static void fail(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("FAIL %s\n", buf);
    fflush(stdout);
    if (nfails < MAX_FAILS) {
        fails[nfails] = malloc(strlen(buf) + 1);
        if (fails[nfails])
            strcpy(fails[nfails], buf);
    }
    nfails++;
}

static void announce(const char *sym, int info)
{
    if (info > 0)
        printf("CALL %s error %d\n", sym, info);
    else
        printf("CALL %s ok\n", sym);
    fflush(stdout);
}

/* ------------------------------------------------------------------------------------------ */
/* buffers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* Generous sizes: even a library that ignored the bad argument and computed anyway stays in
 * bounds (dimensions used here are <= 6, leading dimensions <= 8). */
#define NBUF 512

static float A[NBUF], B[NBUF], C[NBUF];
static float A0[NBUF], B0[NBUF], C0[NBUF];

static void fill_buffers(void)
{
    for (int i = 0; i < NBUF; i++) {
        /* small exact values for the inputs, distinct sentinels for the output */
        A0[i] = (float)((i * 7 + 3) % 17 - 8) * 0.125f;
        B0[i] = (float)((i * 5 + 1) % 13 - 6) * 0.25f;
        C0[i] = -999.25f - (float)i;
    }
    memcpy(A, A0, sizeof A);
    memcpy(B, B0, sizeof B);
    memcpy(C, C0, sizeof C);
}

static void check_untouched(const char *label)
{
    static const struct { const char *name; const float *got, *want; } arr[] = {
        { "output C/y", C, C0 }, { "input A", A, A0 }, { "input B/x", B, B0 } };
    for (size_t j = 0; j < sizeof arr / sizeof arr[0]; j++) {
        if (memcmp(arr[j].got, arr[j].want, sizeof(float) * NBUF) != 0) {
            int first = 0;
            while (first < NBUF && memcmp(&arr[j].got[first], &arr[j].want[first], sizeof(float)) == 0)
                first++;
            fail("%s: %s modified (first at [%d]: %g, was %g)", label, arr[j].name, first,
                 (double)arr[j].got[first], (double)arr[j].want[first]);
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* expectation check after one erroneous call                                                 */
/* ------------------------------------------------------------------------------------------ */

static void check_error(const char *label, int kind, const char *want_name, int want_info,
                        int want_row_major)
{
    ncases++;
    if (rec.count != 1) {
        fail("%s: handler called %d times, expected exactly once (want %s info %d)", label,
             rec.count, want_name, want_info);
        check_untouched(label);
        return;
    }
    if (rec.kind != kind) {
        fail("%s: %s handler called, expected %s (name '%s' info %d)", label,
             rec.kind == KIND_FORTRAN ? "xerbla_" : "cblas_xerbla",
             kind == KIND_FORTRAN ? "xerbla_" : "cblas_xerbla", rec.name, rec.info);
    }
    if (kind == KIND_FORTRAN) {
        size_t wl = strlen(want_name);
        if (rec.len != wl || memcmp(rec.name, want_name, wl) != 0)
            fail("%s: xerbla_ srname '%s' (len %zu), expected '%s' (len %zu)", label, rec.name,
                 rec.len, want_name, wl);
    } else {
        if (strcmp(rec.name, want_name) != 0)
            fail("%s: cblas_xerbla rout '%s', expected '%s'", label, rec.name, want_name);
        if (rec.form_null)
            fail("%s: cblas_xerbla form is NULL (the reference passes a format string)", label);
    }
    if (rec.info != want_info)
        fail("%s: info %d, expected %d%s%s", label, rec.info, want_info,
             rec.detail[0] ? " detail: " : "", rec.detail);
    if (rec.row_major != want_row_major) {
        if (rec.row_major == -1)
            fail("%s: RowMajorStrg is not exported (dlsym(RTLD_DEFAULT) found nothing)", label);
        else
            fail("%s: RowMajorStrg == %d during the handler call, expected %d", label,
                 rec.row_major, want_row_major);
    }
    check_untouched(label);
}

/* ------------------------------------------------------------------------------------------ */
/* error-case runners                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Base valid sizes: M, N, K all different so that every leading-dimension rule is distinct.
 * Column-major: lda >= M (N) / K (T), ldb >= K (N) / N (T), ldc >= M.
 * Row-major:    lda >= K (N) / M (T), ldb >= N (N) / K (T), ldc >= N. */
enum { GM = 3, GN = 4, GK = 5 };

static void f_gemm(const char *label, char ta, char tb, int m, int n, int k, int lda, int ldb,
                   int ldc, int want)
{
    const float alpha = 1.5f, beta = 0.5f;
    fill_buffers();
    rec_reset();
    announce("sgemm_", want);
    sgemm_(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
    char full[256];
    snprintf(full, sizeof full,
             "sgemm_('%c','%c',m=%d,n=%d,k=%d,lda=%d,ldb=%d,ldc=%d) [%s]", ta, tb, m, n, k,
             lda, ldb, ldc, label);
    check_error(full, KIND_FORTRAN, "SGEMM ", want, 0);
}

static void f_gemv(const char *label, char t, int m, int n, int lda, int incx, int incy,
                   int want)
{
    const float alpha = 1.5f, beta = 0.5f;
    fill_buffers();
    rec_reset();
    announce("sgemv_", want);
    sgemv_(&t, &m, &n, &alpha, A, &lda, B, &incx, &beta, C, &incy, 1);
    char full[256];
    snprintf(full, sizeof full, "sgemv_('%c',m=%d,n=%d,lda=%d,incx=%d,incy=%d) [%s]", t, m, n,
             lda, incx, incy, label);
    check_error(full, KIND_FORTRAN, "SGEMV ", want, 0);
}

static void c_gemm(const char *label, int layout, int ta, int tb, int m, int n, int k, int lda,
                   int ldb, int ldc, int want)
{
    fill_buffers();
    rec_reset();
    announce("cblas_sgemm", want);
    cblas_sgemm((enum CBLAS_ORDER)layout, (enum CBLAS_TRANSPOSE)ta, (enum CBLAS_TRANSPOSE)tb, m,
                n, k, 1.5f, A, lda, B, ldb, 0.5f, C, ldc);
    char full[256];
    snprintf(full, sizeof full,
             "cblas_sgemm(layout=%d,ta=%d,tb=%d,m=%d,n=%d,k=%d,lda=%d,ldb=%d,ldc=%d) [%s]",
             layout, ta, tb, m, n, k, lda, ldb, ldc, label);
    check_error(full, KIND_CBLAS, "cblas_sgemm", want, layout == CblasRowMajor ? 1 : 0);
}

static void c_gemv(const char *label, int layout, int ta, int m, int n, int lda, int incx,
                   int incy, int want)
{
    fill_buffers();
    rec_reset();
    announce("cblas_sgemv", want);
    cblas_sgemv((enum CBLAS_ORDER)layout, (enum CBLAS_TRANSPOSE)ta, m, n, 1.5f, A, lda, B, incx,
                0.5f, C, incy);
    char full[256];
    snprintf(full, sizeof full,
             "cblas_sgemv(layout=%d,ta=%d,m=%d,n=%d,lda=%d,incx=%d,incy=%d) [%s]", layout, ta, m,
             n, lda, incx, incy, label);
    check_error(full, KIND_CBLAS, "cblas_sgemv", want, layout == CblasRowMajor ? 1 : 0);
}

static sgemm64_fn p_sgemm64;
static sgemv64_fn p_sgemv64;

static void c64_gemm(const char *label, int layout, int ta, int tb, int64_t m, int64_t n,
                     int64_t k, int64_t lda, int64_t ldb, int64_t ldc, int want)
{
    fill_buffers();
    rec_reset();
    announce("scipy_cblas_sgemm64_", want);
    p_sgemm64(layout, ta, tb, m, n, k, 1.5f, A, lda, B, ldb, 0.5f, C, ldc);
    char full[320];
    snprintf(full, sizeof full,
             "scipy_cblas_sgemm64_(layout=%d,ta=%d,tb=%d,m=%lld,n=%lld,k=%lld,lda=%lld,ldb=%lld,"
             "ldc=%lld) [%s]",
             layout, ta, tb, (long long)m, (long long)n, (long long)k, (long long)lda,
             (long long)ldb, (long long)ldc, label);
    check_error(full, KIND_CBLAS, "scipy_cblas_sgemm64_", want, layout == CblasRowMajor ? 1 : 0);
}

static void c64_gemv(const char *label, int layout, int ta, int64_t m, int64_t n, int64_t lda,
                     int64_t incx, int64_t incy, int want)
{
    fill_buffers();
    rec_reset();
    announce("scipy_cblas_sgemv64_", want);
    p_sgemv64(layout, ta, m, n, 1.5f, A, lda, B, incx, 0.5f, C, incy);
    char full[320];
    snprintf(full, sizeof full,
             "scipy_cblas_sgemv64_(layout=%d,ta=%d,m=%lld,n=%lld,lda=%lld,incx=%lld,incy=%lld) "
             "[%s]",
             layout, ta, (long long)m, (long long)n, (long long)lda, (long long)incx,
             (long long)incy, label);
    check_error(full, KIND_CBLAS, "scipy_cblas_sgemv64_", want, layout == CblasRowMajor ? 1 : 0);
}

/* ------------------------------------------------------------------------------------------ */
/* valid calls: reference results in double                                                   */
/* ------------------------------------------------------------------------------------------ */

/* element (i, j) of op(X) for a matrix stored with leading dimension ld in the given layout */
static double elem(const float *x, int row_major, int trans, int ld, int i, int j)
{
    int r = trans ? j : i, c = trans ? i : j;
    return row_major ? (double)x[(size_t)r * ld + c] : (double)x[(size_t)c * ld + r];
}

static void compare(const char *label, const float *got, const double *want, int count,
                    const int *idx)
{
    for (int t = 0; t < count; t++) {
        double g = got[idx[t]], w = want[t];
        if (!(fabs(g - w) <= 1e-4 * (1.0 + fabs(w)))) {
            fail("%s: result [%d] = %.7g, expected %.7g", label, idx[t], g, w);
            return;
        }
    }
}

/* After a valid call: the result matches, nothing outside it was written, inputs unchanged. */
static void check_written(const char *label, const char *out, const double *want, int count,
                          const int *idx, const unsigned char *inside)
{
    compare(label, C, want, count, idx);
    for (int t = 0; t < NBUF; t++) {
        if (!inside[t] && memcmp(&C[t], &C0[t], sizeof(float)) != 0) {
            fail("%s: %s[%d] outside the result written (%g, was %g)", label, out, t,
                 (double)C[t], (double)C0[t]);
            break;
        }
    }
    if (memcmp(A, A0, sizeof A) || memcmp(B, B0, sizeof B))
        fail("%s: an input array was modified", label);
}

static void check_no_handler(const char *label)
{
    if (rec.count != 0)
        fail("%s: valid call invoked a handler %d times (last '%s' info %d)", label, rec.count,
             rec.name, rec.info);
}

/* Checks C after a gemm: the m x n block of C (layout, ldc) against the reference, and every
 * element outside it still the sentinel. */
static void check_gemm_result(const char *label, int row_major, int ta, int tb, int m, int n,
                              int k, int lda, int ldb, int ldc, float alpha, float beta)
{
    static double want[NBUF];
    static int idx[NBUF];
    static unsigned char inside[NBUF];
    int count = 0;
    memset(inside, 0, sizeof inside);
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p < k; p++)
                s += elem(A0, row_major, ta, lda, i, p) * elem(B0, row_major, tb, ldb, p, j);
            int at = row_major ? i * ldc + j : j * ldc + i;
            want[count] = alpha * s + beta * (double)C0[at];
            idx[count++] = at;
            inside[at] = 1;
        }
    }
    check_written(label, "C", want, count, idx, inside);
}

/* y (stride incy > 0) after gemv against the reference; elements between strides untouched. */
static void check_gemv_result(const char *label, int row_major, int trans, int m, int n, int lda,
                              int incx, int incy, float alpha, float beta)
{
    static double want[NBUF];
    static int idx[NBUF];
    static unsigned char inside[NBUF];
    int leny = trans ? n : m, lenx = trans ? m : n, count = 0;
    memset(inside, 0, sizeof inside);
    for (int i = 0; i < leny; i++) {
        double s = 0;
        for (int p = 0; p < lenx; p++) {
            int xi = incx > 0 ? p * incx : (lenx - 1 - p) * (-incx);
            s += elem(A0, row_major, trans, lda, i, p) * (double)B0[xi];
        }
        int yi = incy > 0 ? i * incy : (leny - 1 - i) * (-incy);
        want[count] = alpha * s + beta * (double)C0[yi];
        idx[count++] = yi;
        inside[yi] = 1;
    }
    check_written(label, "y", want, count, idx, inside);
}

static void valid_calls(const char *when, int ilp64)
{
    char label[128];
    const float alpha = 1.5f, beta = 0.5f;

    /* Fortran sgemm_: lowercase and 'C' chars are valid; ld at the column-major minimum. */
    {
        char ta = 't', tb = 'n';
        int m = GM, n = GN, k = GK, lda = GK, ldb = GK, ldc = GM;
        fill_buffers();
        rec_reset();
        announce("sgemm_", 0);
        sgemm_(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
        snprintf(label, sizeof label, "valid sgemm_('t','n') %s", when);
        check_no_handler(label);
        check_gemm_result(label, 0, 1, 0, m, n, k, lda, ldb, ldc, alpha, beta);
        nvalid++;
    }
    {
        char ta = 'N', tb = 'C';
        int m = GM, n = GN, k = GK, lda = GM + 1, ldb = GN, ldc = GM + 2;
        fill_buffers();
        rec_reset();
        announce("sgemm_", 0);
        sgemm_(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
        snprintf(label, sizeof label, "valid sgemm_('N','C') %s", when);
        check_no_handler(label);
        check_gemm_result(label, 0, 0, 1, m, n, k, lda, ldb, ldc, alpha, beta);
        nvalid++;
    }
    /* Fortran sgemv_ */
    {
        char t = 'n';
        int m = GM, n = GN, lda = GM, incx = 1, incy = 2;
        fill_buffers();
        rec_reset();
        announce("sgemv_", 0);
        sgemv_(&t, &m, &n, &alpha, A, &lda, B, &incx, &beta, C, &incy, 1);
        snprintf(label, sizeof label, "valid sgemv_('n') %s", when);
        check_no_handler(label);
        check_gemv_result(label, 0, 0, m, n, lda, incx, incy, alpha, beta);
        nvalid++;
    }
    {
        char t = 'T';
        int m = GM, n = GN, lda = GM + 1, incx = -1, incy = 1;
        fill_buffers();
        rec_reset();
        announce("sgemv_", 0);
        sgemv_(&t, &m, &n, &alpha, A, &lda, B, &incx, &beta, C, &incy, 1);
        snprintf(label, sizeof label, "valid sgemv_('T', incx=-1) %s", when);
        check_no_handler(label);
        check_gemv_result(label, 0, 1, m, n, lda, incx, incy, alpha, beta);
        nvalid++;
    }
    /* cblas_sgemm, both layouts, leading dimensions at the layout's own minimum: row-major
     * N,N has lda = K, ldb = N < K and ldc = N, which the column-major rules would not all
     * accept in the same way (a library applying the wrong rule reports an error here). */
    {
        fill_buffers();
        rec_reset();
        announce("cblas_sgemm", 0);
        cblas_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, GM, GN, GK, alpha, A, GM, B, GN,
                    beta, C, GM);
        snprintf(label, sizeof label, "valid cblas_sgemm col N,T %s", when);
        check_no_handler(label);
        check_gemm_result(label, 0, 0, 1, GM, GN, GK, GM, GN, GM, alpha, beta);
        nvalid++;
    }
    {
        fill_buffers();
        rec_reset();
        announce("cblas_sgemm", 0);
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, GM, GN, GK, alpha, A, GK, B, GN,
                    beta, C, GN);
        snprintf(label, sizeof label, "valid cblas_sgemm row N,N %s", when);
        check_no_handler(label);
        check_gemm_result(label, 1, 0, 0, GM, GN, GK, GK, GN, GN, alpha, beta);
        nvalid++;
    }
    {
        fill_buffers();
        rec_reset();
        announce("cblas_sgemm", 0);
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasConjTrans, GM, GN, GK, alpha, A, GM, B, GK,
                    beta, C, GN + 1);
        snprintf(label, sizeof label, "valid cblas_sgemm row T,C %s", when);
        check_no_handler(label);
        check_gemm_result(label, 1, 1, 1, GM, GN, GK, GM, GK, GN + 1, alpha, beta);
        nvalid++;
    }
    /* cblas_sgemv, both layouts; row-major lda = N (> M) */
    {
        fill_buffers();
        rec_reset();
        announce("cblas_sgemv", 0);
        cblas_sgemv(CblasColMajor, CblasTrans, GM, GN, alpha, A, GM, B, 2, beta, C, 1);
        snprintf(label, sizeof label, "valid cblas_sgemv col T %s", when);
        check_no_handler(label);
        check_gemv_result(label, 0, 1, GM, GN, GM, 2, 1, alpha, beta);
        nvalid++;
    }
    {
        fill_buffers();
        rec_reset();
        announce("cblas_sgemv", 0);
        cblas_sgemv(CblasRowMajor, CblasNoTrans, GM, GN, alpha, A, GN, B, 1, beta, C, -2);
        snprintf(label, sizeof label, "valid cblas_sgemv row N incy=-2 %s", when);
        check_no_handler(label);
        check_gemv_result(label, 1, 0, GM, GN, GN, 1, -2, alpha, beta);
        nvalid++;
    }
    if (ilp64) {
        fill_buffers();
        rec_reset();
        announce("scipy_cblas_sgemm64_", 0);
        p_sgemm64(CblasRowMajor, CblasNoTrans, CblasTrans, GM, GN, GK, alpha, A, GK, B, GK, beta,
                  C, GN);
        snprintf(label, sizeof label, "valid scipy_cblas_sgemm64_ row N,T %s", when);
        check_no_handler(label);
        check_gemm_result(label, 1, 0, 1, GM, GN, GK, GK, GK, GN, alpha, beta);
        nvalid++;

        fill_buffers();
        rec_reset();
        announce("scipy_cblas_sgemv64_", 0);
        p_sgemv64(CblasColMajor, CblasNoTrans, GM, GN, alpha, A, GM + 1, B, 1, beta, C, 1);
        snprintf(label, sizeof label, "valid scipy_cblas_sgemv64_ col N %s", when);
        check_no_handler(label);
        check_gemv_result(label, 0, 0, GM, GN, GM + 1, 1, 1, alpha, beta);
        nvalid++;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* the error cases                                                                            */
/* ------------------------------------------------------------------------------------------ */

static void fortran_sgemm_cases(void)
{
    /* valid base: 'N','N', m=3 n=4 k=5, lda>=3, ldb>=5, ldc>=3 */
    f_gemm("TRANSA invalid", 'X', 'N', GM, GN, GK, GM, GK, GM, 1);
    f_gemm("TRANSA blank", ' ', 'N', GM, GN, GK, GM, GK, GM, 1);
    f_gemm("TRANSB invalid", 'N', 'x', GM, GN, GK, GM, GK, GM, 2);
    f_gemm("M < 0", 'N', 'N', -1, GN, GK, GM, GK, GM, 3);
    f_gemm("N < 0", 'N', 'N', GM, -1, GK, GM, GK, GM, 4);
    f_gemm("K < 0", 'N', 'N', GM, GN, -1, GM, GK, GM, 5);
    f_gemm("LDA < M (TRANSA=N)", 'N', 'N', GM, GN, GK, GM - 1, GK, GM, 8);
    f_gemm("LDA < K (TRANSA=T, lda >= M)", 'T', 'N', GM, GN, GK, GM + 1, GK, GM, 8);
    f_gemm("LDA = 0 with M = 0 (error, not quick return)", 'N', 'N', 0, GN, GK, 0, GK, 1, 8);
    f_gemm("LDB < K (TRANSB=N, ldb >= N)", 'N', 'N', GM, GN, GK, GM, GK - 1, GM, 10);
    f_gemm("LDB < N (TRANSB=T)", 'N', 't', GM, GN, GK, GM, GN - 1, GM, 10);
    f_gemm("LDC < M", 'N', 'N', GM, GN, GK, GM, GK, GM - 1, 13);
    f_gemm("LDC = 0 with M = 0", 'N', 'N', 0, GN, GK, 1, GK, 0, 13);
    /* two bad arguments: the first failing check of the reference order wins */
    f_gemm("two bad: TRANSA and M", 'Q', 'N', -1, GN, GK, GM, GK, GM, 1);
    f_gemm("two bad: TRANSB and K", 'N', 'Q', GM, GN, -2, GM, GK, GM, 2);
    f_gemm("two bad: M and N", 'N', 'N', -1, -1, GK, GM, GK, GM, 3);
    f_gemm("two bad: N and LDB", 'N', 'N', GM, -5, GK, GM, 1, GM, 4);
    f_gemm("two bad: LDA and LDC", 'N', 'N', GM, GN, GK, 1, GK, 1, 8);
    f_gemm("two bad: LDB and LDC", 'N', 'N', GM, GN, GK, GM, 1, 1, 10);
}

static void fortran_sgemv_cases(void)
{
    /* valid base: 'N', m=3 n=4, lda>=3, incx, incy != 0 */
    f_gemv("TRANS invalid", 'X', GM, GN, GM, 1, 1, 1);
    f_gemv("M < 0", 'N', -1, GN, GM, 1, 1, 2);
    f_gemv("N < 0", 'N', GM, -1, GM, 1, 1, 3);
    f_gemv("LDA < M", 'N', GM, GN, GM - 1, 1, 1, 6);
    f_gemv("LDA < M (TRANS=T: still M)", 't', GM, GN, GM - 1, 1, 1, 6);
    f_gemv("LDA = 0 with M = 0", 'N', 0, GN, 0, 1, 1, 6);
    f_gemv("INCX = 0", 'N', GM, GN, GM, 0, 1, 8);
    f_gemv("INCY = 0", 'N', GM, GN, GM, 1, 0, 11);
    f_gemv("two bad: TRANS and M", 'z', -1, GN, GM, 1, 1, 1);
    f_gemv("two bad: M and N", 'N', -1, -1, GM, 1, 1, 2);
    f_gemv("two bad: INCX and INCY", 'N', GM, GN, GM, 0, 0, 8);
}

static void cblas_sgemm_cases(void)
{
    const int C_ = CblasColMajor, R_ = CblasRowMajor, N_ = CblasNoTrans, T_ = CblasTrans;
    /* column-major: positions = Fortran + 1 */
    c_gemm("layout invalid", 100, N_, N_, GM, GN, GK, GM, GK, GM, 1);
    c_gemm("layout invalid (0)", 0, N_, N_, GM, GN, GK, GM, GK, GM, 1);
    c_gemm("TransA invalid", C_, 110, N_, GM, GN, GK, GM, GK, GM, 2);
    c_gemm("TransB invalid", C_, N_, 114, GM, GN, GK, GM, GK, GM, 3);
    c_gemm("M < 0", C_, N_, N_, -1, GN, GK, GM, GK, GM, 4);
    c_gemm("N < 0", C_, N_, N_, GM, -1, GK, GM, GK, GM, 5);
    c_gemm("K < 0", C_, N_, N_, GM, GN, -1, GM, GK, GM, 6);
    c_gemm("lda < M (N)", C_, N_, N_, GM, GN, GK, GM - 1, GK, GM, 9);
    c_gemm("lda < K (T)", C_, T_, N_, GM, GN, GK, GK - 1, GK, GM, 9);
    c_gemm("ldb < K (N)", C_, N_, N_, GM, GN, GK, GM, GK - 1, GM, 11);
    c_gemm("ldb < N (T)", C_, N_, T_, GM, GN, GK, GM, GN - 1, GM, 11);
    c_gemm("ldc < M", C_, N_, N_, GM, GN, GK, GM, GK, GM - 1, 14);
    c_gemm("lda = 0 with M = 0", C_, N_, N_, 0, GN, GK, 0, GK, 1, 9);
    /* row-major: positions of the swapped column-major call */
    c_gemm("row: M < 0", R_, N_, N_, -1, GN, GK, GK, GN, GN, 5);
    c_gemm("row: N < 0", R_, N_, N_, GM, -1, GK, GK, GN, GN, 4);
    c_gemm("row: K < 0", R_, N_, N_, GM, GN, -1, GK, GN, GN, 6);
    c_gemm("row: lda < K (N; lda >= M)", R_, N_, N_, GM, GN, GK, GK - 1, GN, GN, 11);
    c_gemm("row: lda < M (T)", R_, T_, N_, GM, GN, GK, GM - 1, GN, GN, 11);
    c_gemm("row: ldb < N (N)", R_, N_, N_, GM, GN, GK, GK, GN - 1, GN, 9);
    c_gemm("row: ldb < K (T; ldb >= N)", R_, N_, T_, GM, GN, GK, GK, GK - 1, GN, 9);
    c_gemm("row: ldc < N (ldc >= M)", R_, N_, N_, GM, GN, GK, GK, GN, GN - 1, 14);
    c_gemm("row: TransA invalid", R_, 0, N_, GM, GN, GK, GK, GN, GN, 2);
    c_gemm("row: TransB invalid", R_, N_, 200, GM, GN, GK, GK, GN, GN, 3);
    /* two bad arguments */
    c_gemm("two bad: layout and TransA", 103, 99, N_, GM, GN, GK, GM, GK, GM, 1);
    c_gemm("two bad: TransA and TransB", C_, 99, 99, GM, GN, GK, GM, GK, GM, 2);
    c_gemm("two bad: TransB and M", C_, N_, 99, -1, GN, GK, GM, GK, GM, 3);
    c_gemm("two bad: M and ldc", C_, N_, N_, -1, GN, GK, GM, GK, 0, 4);
    c_gemm("two bad: lda and ldb", C_, N_, N_, GM, GN, GK, 1, 1, GM, 9);
    c_gemm("row two bad: M and N (N checked first)", R_, N_, N_, -1, -1, GK, GK, GN, GN, 4);
    c_gemm("row two bad: lda and ldb (ldb checked first)", R_, N_, N_, GM, GN, GK, 1, 1, GN, 9);
    c_gemm("row two bad: TransB and M", R_, N_, 99, -1, GN, GK, GK, GN, GN, 3);
    c_gemm("row two bad: K and lda", R_, N_, N_, GM, GN, -1, 0, GN, GN, 6);
}

static void cblas_sgemv_cases(void)
{
    const int C_ = CblasColMajor, R_ = CblasRowMajor, N_ = CblasNoTrans, T_ = CblasTrans;
    /* column-major: layout 1, TransA 2, M 3, N 4, lda 7, incX 9, incY 12 */
    c_gemv("layout invalid", 104, N_, GM, GN, GM, 1, 1, 1);
    c_gemv("TransA invalid", C_, 115, GM, GN, GM, 1, 1, 2);
    c_gemv("M < 0", C_, N_, -1, GN, GM, 1, 1, 3);
    c_gemv("N < 0", C_, N_, GM, -1, GM, 1, 1, 4);
    c_gemv("lda < M", C_, N_, GM, GN, GM - 1, 1, 1, 7);
    c_gemv("lda < M (T)", C_, T_, GM, GN, GM - 1, 1, 1, 7);
    c_gemv("incX = 0", C_, N_, GM, GN, GM, 0, 1, 9);
    c_gemv("incY = 0", C_, N_, GM, GN, GM, 1, 0, 12);
    /* row-major (Fortran sees M and N exchanged): M 4, N 3, lda < max(1,N) 7 */
    c_gemv("row: TransA invalid", R_, 1, GM, GN, GN, 1, 1, 2);
    c_gemv("row: M < 0", R_, N_, -1, GN, GN, 1, 1, 4);
    c_gemv("row: N < 0", R_, N_, GM, -1, GN, 1, 1, 3);
    c_gemv("row: lda < N (lda >= M)", R_, N_, GM, GN, GN - 1, 1, 1, 7);
    c_gemv("row: lda < N (T)", R_, T_, GM, GN, GN - 1, 1, 1, 7);
    c_gemv("row: incX = 0", R_, N_, GM, GN, GN, 0, 1, 9);
    c_gemv("row: incY = 0", R_, T_, GM, GN, GN, 1, 0, 12);
    /* two bad arguments */
    c_gemv("two bad: layout and M", 0, N_, -1, GN, GM, 1, 1, 1);
    c_gemv("two bad: TransA and incX", C_, 0, GM, GN, GM, 0, 1, 2);
    c_gemv("two bad: M and lda", C_, N_, -1, GN, 0, 1, 1, 3);
    c_gemv("two bad: incX and incY", C_, N_, GM, GN, GM, 0, 0, 9);
    c_gemv("row two bad: M and N (N checked first)", R_, N_, -1, -1, GN, 1, 1, 3);
    c_gemv("row two bad: lda and incY", R_, N_, GM, GN, 1, 1, 0, 7);
}

static void ilp64_cases(void)
{
    const int C_ = CblasColMajor, R_ = CblasRowMajor, N_ = CblasNoTrans, T_ = CblasTrans;
    /* negative int64 values whose low 32 bits are a valid positive int */
    const int64_t NEG_LOW3 = -(INT64_C(1) << 32) + 3;  /* low bits: 3 */
    const int64_t NEG_LOW5 = -(INT64_C(1) << 32) + 5;  /* low bits: 5 */
    const int64_t NEG_LOW4 = -(INT64_C(1) << 32) + 4;  /* low bits: 4 */

    c64_gemm("layout invalid", 105, N_, N_, GM, GN, GK, GM, GK, GM, 1);
    c64_gemm("TransA invalid", C_, 7, N_, GM, GN, GK, GM, GK, GM, 2);
    c64_gemm("TransB invalid", C_, N_, 7, GM, GN, GK, GM, GK, GM, 3);
    c64_gemm("M < 0", C_, N_, N_, -1, GN, GK, GM, GK, GM, 4);
    c64_gemm("M < 0, low 32 bits positive", C_, N_, N_, NEG_LOW3, GN, GK, GM, GK, GM, 4);
    c64_gemm("K < 0, low 32 bits positive", C_, N_, N_, GM, GN, NEG_LOW5, GM, GK, GM, 6);
    c64_gemm("lda < M", C_, N_, N_, GM, GN, GK, GM - 1, GK, GM, 9);
    c64_gemm("ldb negative, low 32 bits valid", C_, N_, N_, GM, GN, GK, GM, NEG_LOW5, GM, 11);
    c64_gemm("ldc < M", C_, N_, N_, GM, GN, GK, GM, GK, GM - 1, 14);
    c64_gemm("row: M < 0", R_, N_, N_, -1, GN, GK, GK, GN, GN, 5);
    c64_gemm("row: N < 0, low 32 bits positive", R_, N_, N_, GM, NEG_LOW4, GK, GK, GN, GN, 4);
    c64_gemm("row: lda < K", R_, N_, N_, GM, GN, GK, GK - 1, GN, GN, 11);
    c64_gemm("row: ldb < K (T)", R_, N_, T_, GM, GN, GK, GK, GK - 1, GN, 9);
    c64_gemm("row: ldc < N", R_, N_, N_, GM, GN, GK, GK, GN, GN - 1, 14);
    c64_gemm("row two bad: M and N", R_, N_, N_, -1, -1, GK, GK, GN, GN, 4);

    c64_gemv("layout invalid", 0, N_, GM, GN, GM, 1, 1, 1);
    c64_gemv("TransA invalid", C_, 3, GM, GN, GM, 1, 1, 2);
    c64_gemv("M < 0, low 32 bits positive", C_, N_, NEG_LOW3, GN, GM, 1, 1, 3);
    c64_gemv("N < 0", C_, N_, GM, -1, GM, 1, 1, 4);
    c64_gemv("lda < M", C_, N_, GM, GN, GM - 1, 1, 1, 7);
    c64_gemv("incX = 0", C_, N_, GM, GN, GM, 0, 1, 9);
    c64_gemv("incY = 0", C_, N_, GM, GN, GM, 1, 0, 12);
    c64_gemv("row: M < 0", R_, N_, -1, GN, GN, 1, 1, 4);
    c64_gemv("row: N < 0, low 32 bits positive", R_, N_, GM, NEG_LOW4, GN, 1, 1, 3);
    c64_gemv("row: lda < N", R_, T_, GM, GN, GN - 1, 1, 1, 7);
}

int main(int argc, char **argv)
{
    int ilp64 = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ilp64") == 0) {
            ilp64 = 1;
        } else {
            fprintf(stderr, "usage: %s [--ilp64]\n", argv[0]);
            return 2;
        }
    }
    if (ilp64) {
        void *p1 = dlsym(RTLD_DEFAULT, "scipy_cblas_sgemm64_");
        void *p2 = dlsym(RTLD_DEFAULT, "scipy_cblas_sgemv64_");
        if (!p1)
            fail("--ilp64: dlsym(RTLD_DEFAULT, \"scipy_cblas_sgemm64_\") found nothing");
        if (!p2)
            fail("--ilp64: dlsym(RTLD_DEFAULT, \"scipy_cblas_sgemv64_\") found nothing");
        /* object -> function pointer through memcpy (ISO C has no direct conversion) */
        memcpy(&p_sgemm64, &p1, sizeof p1);
        memcpy(&p_sgemv64, &p2, sizeof p2);
        if (!p1 || !p2)
            ilp64 = 0;
    }

    valid_calls("(before any error)", ilp64);
    fortran_sgemm_cases();
    fortran_sgemv_cases();
    valid_calls("(after Fortran errors)", ilp64);
    cblas_sgemm_cases();
    cblas_sgemv_cases();
    if (ilp64)
        ilp64_cases();
    valid_calls("(after all errors)", ilp64);

    printf("xerbla_client: %d error cases, %d valid calls, %d mismatches\n", ncases, nvalid,
           nfails);
    if (nfails) {
        printf("mismatches:\n");
        for (int i = 0; i < nfails && i < MAX_FAILS; i++)
            printf("  %s\n", fails[i]);
        if (nfails > MAX_FAILS)
            printf("  ... and %d more\n", nfails - MAX_FAILS);
        return 1;
    }
    printf("xerbla_client: OK\n");
    return 0;
}
