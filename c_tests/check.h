/*
 * check.h - shared helpers for the glblas C tests (header only; every test
 * program is a single translation unit that includes this file once).
 *
 * - failure reporting: CHECK / CHECK_STATUS / FATAL print "FAIL file:line: ..."
 *   on stderr and count failures (thread safe); check_finish() turns the
 *   count into the exit code.
 * - a deterministic random generator (fixed seeds) producing floats in
 *   [-1, 1) with at most 24 significant bits, so every value is exactly
 *   representable in fp32 and every product of two of them is exact in double.
 * - double-precision references for sgemm, sgemv, sdot, sasum and saxpy
 *   together with the fp32 error bounds the results are checked against (see
 *   the comments at each reference for the derivation of the tolerance), and
 *   the sequential loops of scopy / sswap (exact results).
 * - small device-memory helpers (upload / download through glblasMemcpy).
 */
#ifndef GLBLAS_C_TESTS_CHECK_H
#define GLBLAS_C_TESTS_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glblas.h"

/* Unit roundoff of IEEE binary32 with round to nearest: u = 2^-24. */
#define FP32_U (1.0 / 16777216.0)

/* Safety factor c applied to the first-order fp32 error bounds below (the spec
 * asks for results "within a small multiple" of the bound, c = 2). */
#define BOUND_FACTOR 2.0

/* Value written into memory that a call must not touch. */
#define SENTINEL (-999.25f)

#if defined(__GNUC__)
#define CHECK_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CHECK_PRINTF(a, b)
#endif

/* ------------------------------------------------------------------------ */
/* failure reporting                                                          */
/* ------------------------------------------------------------------------ */

static inline int *check_counter_(void)
{
    static int count;
    return &count;
}

static inline void check_count_failure_(void)
{
#if defined(__GNUC__)
    __atomic_add_fetch(check_counter_(), 1, __ATOMIC_SEQ_CST);
#else
    ++*check_counter_();
#endif
}

static inline int check_failures(void)
{
#if defined(__GNUC__)
    return __atomic_load_n(check_counter_(), __ATOMIC_SEQ_CST);
#else
    return *check_counter_();
#endif
}

/* Prints one line (built first, written with one call so that lines from
 * several threads do not interleave) and counts a failure. */
static inline void check_fail_at(const char *file, int line, const char *fmt, ...) CHECK_PRINTF(3, 4);
static inline void check_fail_at(const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    check_count_failure_();
    /* print the first 300 failures; count them all */
    if (check_failures() <= 300)
        fprintf(stderr, "FAIL %s:%d: %s\n", file, line, msg);
    else if (check_failures() == 301)
        fprintf(stderr, "(further failures are counted but not printed)\n");
    fflush(stderr);
}

#define FAIL(...) check_fail_at(__FILE__, __LINE__, __VA_ARGS__)

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond))                                                         \
            check_fail_at(__FILE__, __LINE__, __VA_ARGS__);                  \
    } while (0)

/* A failure after which the program cannot sensibly go on (e.g. no device
 * buffer could be allocated): report and exit nonzero right away. */
#define FATAL(...)                                                           \
    do {                                                                     \
        check_fail_at(__FILE__, __LINE__, __VA_ARGS__);                      \
        fprintf(stderr, "FATAL: giving up after %d failure(s)\n",            \
                check_failures());                                           \
        exit(1);                                                             \
    } while (0)

static inline const char *status_name(glblasStatus_t s)
{
    switch ((int)s) {
    case 0: return "GLBLAS_STATUS_SUCCESS";
    case 1: return "GLBLAS_STATUS_NOT_INITIALIZED";
    case 2: return "GLBLAS_STATUS_ALLOC_FAILED";
    case 3: return "GLBLAS_STATUS_INVALID_VALUE";
    case 4: return "GLBLAS_STATUS_NOT_SUPPORTED";
    case 5: return "GLBLAS_STATUS_EXECUTION_FAILED";
    case 6: return "GLBLAS_STATUS_DIMENSION_OVERFLOW";
    case 7: return "GLBLAS_STATUS_DEVICE_LOST";
    default: return "(unknown status value)";
    }
}

static inline int check_status_at(const char *file, int line, const char *expr,
                                  glblasStatus_t got, glblasStatus_t expected)
{
    if (got == expected)
        return 1;
    check_fail_at(file, line, "%s: expected %s (%d), got %s (%d)", expr,
                  status_name(expected), (int)expected, status_name(got), (int)got);
    return 0;
}

/* Evaluates the call once; returns 1 when it gave the expected status. */
#define CHECK_STATUS(call, expected)                                         \
    check_status_at(__FILE__, __LINE__, #call, (call), (expected))
#define CHECK_OK(call) CHECK_STATUS(call, GLBLAS_STATUS_SUCCESS)
#define CHECK_INVALID(call) CHECK_STATUS(call, GLBLAS_STATUS_INVALID_VALUE)
/* 1 when status `st` of the call described by `label` is SUCCESS; a failure otherwise. */
#define succeeded(label, st)                                                 \
    check_status_at(__FILE__, __LINE__, (label), (st), GLBLAS_STATUS_SUCCESS)

/* Prints the summary line; returns the process exit code. */
static inline int check_finish(const char *program)
{
    int n = check_failures();
    if (n == 0) {
        printf("%s: all checks passed\n", program);
        return 0;
    }
    fprintf(stderr, "%s: %d check(s) FAILED\n", program, n);
    return 1;
}

/* 1 where tests/c_tests.rs has lowered the library's launch limits (its SMALL_LIMITS): there
 * small operands already take the tiled, k-chunked and multi-window paths, and a large one
 * only adds launches (test_sgemm's two largest shapes took 20 s of its 26 on llvmpipe, 171 of
 * 238 on virgl), so a program may leave its largest shapes out, saying so. */
static inline int limits_lowered(void)
{
    const char *v = getenv("GLBLAS_C_TEST_LIMITS_LOWERED");
    return v != NULL && strcmp(v, "1") == 0;
}

/* ------------------------------------------------------------------------ */
/* deterministic random data                                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    uint64_t s;
} rng_t;

static inline rng_t rng_seed(uint64_t seed)
{
    rng_t r;
    r.s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    return r;
}

static inline uint32_t rng_u32(rng_t *r)
{
    r->s = r->s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(r->s >> 32);
}

/* Uniform integer in [lo, hi]. */
static inline int rng_int(rng_t *r, int lo, int hi)
{
    return lo + (int)(rng_u32(r) % (uint32_t)(hi - lo + 1));
}

/* Uniform in [-1, 1) on a grid of 2^-23: exactly representable in fp32. */
static inline float rng_float(rng_t *r)
{
    uint32_t bits = rng_u32(r) >> 8; /* 24 random bits */
    return (float)((double)bits / 8388608.0 - 1.0);
}

static inline void fill_rand(rng_t *r, float *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i)
        p[i] = rng_float(r);
}

static inline void fill_const(float *p, size_t n, float v)
{
    size_t i;
    for (i = 0; i < n; ++i)
        p[i] = v;
}

static inline void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        FATAL("host malloc of %lu bytes failed", (unsigned long)bytes);
    return p;
}

static inline float *fdup(const float *p, size_t n)
{
    float *q = (float *)xmalloc(n * sizeof(float));
    memcpy(q, p, n * sizeof(float));
    return q;
}

/* Bitwise comparison of two float arrays (NaN-safe). Reports the first few
 * differences under `label`; returns the number of differing elements. */
static inline int check_bits_equal(const char *label, const float *got, const float *want, size_t n)
{
    size_t i;
    int bad = 0;
    for (i = 0; i < n; ++i) {
        if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
            if (bad < 5)
                FAIL("%s: element %lu must be untouched: expected %.9g, got %.9g", label,
                     (unsigned long)i, (double)want[i], (double)got[i]);
            ++bad;
        }
    }
    if (bad > 5)
        FAIL("%s: %d elements changed in total", label, bad);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* device memory helpers                                                      */
/* ------------------------------------------------------------------------ */

static inline float *dev_alloc(size_t nfloats)
{
    void *p = NULL;
    glblasStatus_t s = glblasMalloc(&p, nfloats * sizeof(float));
    if (s != GLBLAS_STATUS_SUCCESS || (nfloats > 0 && p == NULL))
        FATAL("glblasMalloc(%lu floats) failed: %s (%d)", (unsigned long)nfloats, status_name(s), (int)s);
    return (float *)p;
}

static inline void dev_write(float *dst, const float *src, size_t nfloats)
{
    glblasStatus_t s = glblasMemcpy(dst, src, nfloats * sizeof(float), glblasMemcpyHostToDevice);
    if (s != GLBLAS_STATUS_SUCCESS)
        FATAL("glblasMemcpy HostToDevice of %lu floats failed: %s (%d)", (unsigned long)nfloats,
              status_name(s), (int)s);
}

static inline void dev_read(float *dst, const float *src, size_t nfloats)
{
    glblasStatus_t s = glblasMemcpy(dst, src, nfloats * sizeof(float), glblasMemcpyDeviceToHost);
    if (s != GLBLAS_STATUS_SUCCESS)
        FATAL("glblasMemcpy DeviceToHost of %lu floats failed: %s (%d)", (unsigned long)nfloats,
              status_name(s), (int)s);
}

static inline float *dev_upload(const float *h, size_t nfloats)
{
    float *d = dev_alloc(nfloats);
    dev_write(d, h, nfloats);
    return d;
}

/* NULL (an operand left on the host) is allowed. */
static inline void dev_free(void *d)
{
    if (!d)
        return;
    glblasStatus_t s = glblasFree(d);
    if (s != GLBLAS_STATUS_SUCCESS)
        FAIL("glblasFree(%p) failed: %s (%d)", d, status_name(s), (int)s);
}

/* ------------------------------------------------------------------------ */
/* vectors with increments                                                    */
/* ------------------------------------------------------------------------ */

/* Offset of element i of an n-vector with increment inc, counted from the
 * lowest address the caller passes (reference BLAS: with inc < 0 the vector
 * is traversed from its far end; inc == 0 uses element 0 every time). */
static inline size_t vidx(int i, int n, int inc)
{
    if (inc >= 0)
        return (size_t)i * (size_t)inc;
    return (size_t)(n - 1 - i) * (size_t)(-(long)inc);
}

/* Number of floats an n-vector with increment inc spans. */
static inline size_t vspan(int n, int inc)
{
    long a = inc < 0 ? -(long)inc : (long)inc;
    return n <= 0 ? 0 : 1 + (size_t)(n - 1) * (size_t)a;
}

/* ------------------------------------------------------------------------ */
/* sdot reference                                                             */
/* ------------------------------------------------------------------------ */

/* Exact (double) dot product of fp32 data and the tolerance of an fp32
 * evaluation. Products of two of our inputs are exact in double and their sum
 * has relative error ~n*2^-53, negligible here. Any summation order in fp32
 * (sequential, blocked, tree) satisfies the classical bound
 *     |fl(x.y) - x.y| <= gamma_n * sum|x_i*y_i|,  gamma_n = n*u/(1-n*u),
 * so the tolerance is BOUND_FACTOR * n * u * sum|x_i*y_i| (the spec's
 * "c * n * eps * sum|x_i*y_i|" with c = 2, eps = 2^-24). */
static inline void ref_sdot(int n, const float *x, int incx, const float *y, int incy, double *exact,
                            double *tol)
{
    double s = 0.0, a = 0.0;
    int i;
    for (i = 0; i < n; ++i) {
        double p = (double)x[vidx(i, n, incx)] * (double)y[vidx(i, n, incy)];
        s += p;
        a += fabs(p);
    }
    *exact = s;
    *tol = n > 0 ? BOUND_FACTOR * (double)n * FP32_U * a : 0.0;
}

static inline int check_close(const char *label, double got, double want, double tol)
{
    double diff = fabs(got - want);
    if (!(diff <= tol)) { /* written so that NaN fails */
        FAIL("%s: expected %.9g (tolerance %.3g), got %.9g (error %.3g)", label, want, tol, got, diff);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* saxpy reference: the sequential loop of the reference BLAS, on a shadow   */
/* ------------------------------------------------------------------------ */

/* The shadow of an fp32 buffer is two double arrays of the same length:
 * v[] the exact value of the reference sequential loop, e[] a running bound
 * on |(what fp32 arithmetic may give) - v|. x and y index into the shadows of
 * the buffers the call gets; they may be the same arrays (x == y, overlapping
 * ranges), in which case every update is seen by later reads exactly as in
 *     for (i = 0; i < n; i++) y[iy(i)] += alpha * x[ix(i)];
 *
 * Error of one step: the computed inputs are x~ = x + dx, y~ = y + dy with
 * |dx| <= ex, |dy| <= ey. fl(y~ + fl(alpha*x~)) differs from y~ + alpha*x~ by
 * at most u*|alpha*x| + u*|y + alpha*x| to first order (one rounding for the
 * product, one for the sum; a fused multiply-add only does better), so
 *     e_y <- e_y + |alpha|*e_x + BOUND_FACTOR*u*(|alpha*x| + |y + alpha*x|).
 * For non-overlapping data (all e = 0 at first) this is the plain saxpy bound
 * 2u(|alpha*x_i| + |y_i + alpha*x_i|) per element; with incy == 0 it is the
 * recursive-summation bound for y0 + alpha*sum(x). Slots never written keep
 * e == 0, so they must come back bit-identical. */
static inline void shadow_init(const float *h, size_t len, double **v, double **e)
{
    size_t i;
    *v = (double *)xmalloc(len * sizeof(double));
    *e = (double *)xmalloc(len * sizeof(double));
    for (i = 0; i < len; ++i) {
        (*v)[i] = (double)h[i];
        (*e)[i] = 0.0;
    }
}

static inline void ref_saxpy_seq(int n, float alpha, const double *xv, const double *xe, int incx,
                                 double *yv, double *ye, int incy)
{
    int i;
    double a = (double)alpha;
    if (n <= 0 || alpha == 0.0f) /* quick return, as the reference BLAS */
        return;
    for (i = 0; i < n; ++i) {
        size_t ix = vidx(i, n, incx), iy = vidx(i, n, incy);
        double xval = xv[ix], xerr = xe[ix]; /* read x before y is written (same slot possible) */
        double prod = a * xval;
        double sum = yv[iy] + prod;
        ye[iy] = ye[iy] + fabs(a) * xerr + BOUND_FACTOR * FP32_U * (fabs(prod) + fabs(sum));
        yv[iy] = sum;
    }
}

/* Checks a whole fp32 buffer against its shadow. Returns #failures. */
static inline int check_shadow(const char *label, const float *got, const double *v, const double *e,
                               size_t len)
{
    size_t i;
    int bad = 0;
    for (i = 0; i < len; ++i) {
        double diff = fabs((double)got[i] - v[i]);
        int ok = e[i] == 0.0 ? ((double)got[i] == v[i]) : (diff <= e[i]);
        if (!ok) {
            if (bad < 5)
                FAIL("%s: element %lu: expected %.9g (tolerance %.3g), got %.9g", label,
                     (unsigned long)i, v[i], e[i], (double)got[i]);
            ++bad;
        }
    }
    if (bad > 5)
        FAIL("%s: %d elements wrong in total", label, bad);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* sgemm reference                                                            */
/* ------------------------------------------------------------------------ */

static inline int op_is_trans(glblasOperation_t op) { return op != GLBLAS_OP_N; }

static inline const char *op_name(glblasOperation_t op)
{
    switch ((int)op) {
    case 0: return "N";
    case 1: return "T";
    case 2: return "C";
    default: return "?";
    }
}

/* op(A)(i, p) for A stored column-major with leading dimension lda. */
static inline double gemm_a(glblasOperation_t ta, const float *A, int lda, int i, int p)
{
    return op_is_trans(ta) ? (double)A[p + (size_t)i * (size_t)lda] : (double)A[i + (size_t)p * (size_t)lda];
}

/* op(B)(p, j). */
static inline double gemm_b(glblasOperation_t tb, const float *B, int ldb, int p, int j)
{
    return op_is_trans(tb) ? (double)B[j + (size_t)p * (size_t)ldb] : (double)B[p + (size_t)j * (size_t)ldb];
}

/* ref[i + j*m] = alpha*op(A)*op(B) + beta*C0 in double (exact for our data up
 * to ~k*2^-53 relative), tol[i + j*m] its fp32 tolerance:
 *
 * an fp32 dot product of length k with fp32 accumulation in any order has
 * error <= gamma_k * sum_p |a_ip||b_pj| (gamma_k ~ k*u); scaling by alpha,
 * the product beta*c and the final addition add at most three more roundings
 * (fewer with fused multiply-adds). First-order bound:
 *     (k + 3) * u * (|alpha| * (|A||B|)_ij + |beta| * |c_ij|)
 * and the tolerance is BOUND_FACTOR times that (the spec's "small multiple of
 * k*eps*|A||B|").
 *
 * With alpha == 0 or k == 0, A and B are not read (may be NULL) and the
 * result is beta*C; with beta == 0, C0 is not read (may hold NaN). */
static inline void ref_sgemm(glblasOperation_t ta, glblasOperation_t tb, int m, int n, int k, float alpha,
                             const float *A, int lda, const float *B, int ldb, float beta, const float *C0,
                             int ldc, double *ref, double *tol)
{
    int i, j, p;
    for (j = 0; j < n; ++j) {
        for (i = 0; i < m; ++i) {
            double s = 0.0, a = 0.0, c = 0.0, r, bound;
            if (alpha != 0.0f) {
                for (p = 0; p < k; ++p) {
                    double t = gemm_a(ta, A, lda, i, p) * gemm_b(tb, B, ldb, p, j);
                    s += t;
                    a += fabs(t);
                }
            }
            if (beta != 0.0f)
                c = (double)beta * (double)C0[i + (size_t)j * (size_t)ldc];
            r = (double)alpha * s + c;
            bound = fabs((double)alpha) * a + fabs(c);
            ref[i + (size_t)j * (size_t)m] = r;
            tol[i + (size_t)j * (size_t)m] = BOUND_FACTOR * (double)(k + 3) * FP32_U * bound;
        }
    }
}

/* Checks a whole C buffer of `len` floats in which the m x n result starts at
 * element `off` with leading dimension ldc: the result elements against
 * ref/tol, every other element (padding rows m..ldc-1, anything around an
 * interior sub-matrix) bit-identical to `orig`. Returns #failures. */
static inline int check_gemm_c(const char *label, const float *got, const float *orig, size_t len, size_t off,
                               int m, int n, int ldc, const double *ref, const double *tol)
{
    size_t idx;
    int bad = 0, bad_pad = 0;
    for (idx = 0; idx < len; ++idx) {
        int inside = 0;
        size_t i = 0, j = 0;
        if (idx >= off) {
            i = (idx - off) % (size_t)ldc;
            j = (idx - off) / (size_t)ldc;
            inside = i < (size_t)m && j < (size_t)n;
        }
        if (inside) {
            double want = ref[i + j * (size_t)m], t = tol[i + j * (size_t)m];
            double diff = fabs((double)got[idx] - want);
            if (!(diff <= t)) {
                if (bad < 5)
                    FAIL("%s: C(%lu,%lu) expected %.9g (tolerance %.3g), got %.9g (error %.3g)", label,
                         (unsigned long)i, (unsigned long)j, want, t, (double)got[idx], diff);
                ++bad;
            }
        } else if (memcmp(&got[idx], &orig[idx], sizeof(float)) != 0) {
            if (bad_pad < 5)
                FAIL("%s: C buffer element %lu (outside the m x n result) must be untouched: expected %.9g, got %.9g",
                     label, (unsigned long)idx, (double)orig[idx], (double)got[idx]);
            ++bad_pad;
        }
    }
    if (bad > 5)
        FAIL("%s: %d result elements wrong in total", label, bad);
    if (bad_pad > 5)
        FAIL("%s: %d elements outside the result changed in total", label, bad_pad);
    return bad + bad_pad;
}

/* ------------------------------------------------------------------------ */
/* sasum reference                                                            */
/* ------------------------------------------------------------------------ */

/* Exact (double) sum of |x_i| of fp32 data (reference BLAS: n <= 0 or
 * incx <= 0 gives 0) and the tolerance of an fp32 evaluation. |x_i| is exact
 * in fp32; the double sum of our inputs (multiples of 2^-23 below 1 in
 * magnitude, far fewer than 2^29 of them) is exact. Summing n non-negative
 * fp32 terms in any order (sequential, blocked, tree) errs by at most
 *     gamma_{n-1} * sum|x_i| <= n * u * sum|x_i|   (first order),
 * and the tolerance is BOUND_FACTOR times that (the spec's
 * "n * eps * sum|x_i| times a small constant"). */
static inline void ref_sasum(int n, const float *x, int incx, double *exact, double *tol)
{
    double s = 0.0;
    int i;
    if (n > 0 && incx > 0)
        for (i = 0; i < n; ++i)
            s += fabs((double)x[(size_t)i * (size_t)incx]);
    *exact = s;
    *tol = (n > 0 && incx > 0) ? BOUND_FACTOR * (double)n * FP32_U * s : 0.0;
}

/* ------------------------------------------------------------------------ */
/* scopy / sswap references: the sequential loops of the reference BLAS     */
/* ------------------------------------------------------------------------ */

/* Run on fp32 host arrays; x and y may point into the same array (x == y,
 * overlapping ranges), in which case every write is seen by later reads as in
 *     for (i = 0; i < n; i++) y[iy(i)] = x[ix(i)];
 *     for (i = 0; i < n; i++) { t = x[ix(i)]; x[ix(i)] = y[iy(i)]; y[iy(i)] = t; }
 * No arithmetic is involved, so the library's result must match exactly
 * (check_floats_same). n <= 0 does nothing. */
static inline void ref_scopy_seq(int n, const float *x, int incx, float *y, int incy)
{
    int i;
    for (i = 0; i < n; ++i)
        y[vidx(i, n, incy)] = x[vidx(i, n, incx)];
}

static inline void ref_sswap_seq(int n, float *x, int incx, float *y, int incy)
{
    int i;
    for (i = 0; i < n; ++i) {
        size_t ix = vidx(i, n, incx), iy = vidx(i, n, incy);
        float t = x[ix];
        x[ix] = y[iy];
        y[iy] = t;
    }
}

/* Exact comparison of two float arrays: every element bit-identical, except
 * that any NaN matches any NaN (payloads are not compared). Reports the first
 * few differences under `label`; returns the number of differing elements. */
static inline int check_floats_same(const char *label, const float *got, const float *want, size_t n)
{
    size_t i;
    int bad = 0;
    for (i = 0; i < n; ++i) {
        int same = (isnan(got[i]) && isnan(want[i])) || memcmp(&got[i], &want[i], sizeof(float)) == 0;
        if (!same) {
            if (bad < 5)
                FAIL("%s: element %lu: expected %.9g, got %.9g", label, (unsigned long)i, (double)want[i],
                     (double)got[i]);
            ++bad;
        }
    }
    if (bad > 5)
        FAIL("%s: %d elements wrong in total", label, bad);
    return bad;
}

/* Checks a buffer of `len` floats holding an n-vector with increment inc
 * (inc != 0) whose lowest-addressed element is at `off`: logical element i
 * (at off + vidx(i, n, inc)) against ref[i] within tol[i] (tol 0: equal
 * value; NaN always fails), every other element bit-identical to `orig`.
 * Returns #failures. */
static inline int check_vec_result(const char *label, const float *got, const float *orig, size_t len, size_t off,
                                   int n, int inc, const double *ref, const double *tol)
{
    size_t idx, step = (size_t)(inc < 0 ? -(long)inc : (long)inc);
    int i, bad = 0, bad_gap = 0;
    for (i = 0; i < n; ++i) {
        size_t k = off + vidx(i, n, inc);
        double diff = fabs((double)got[k] - ref[i]);
        if (!(diff <= tol[i])) {
            if (bad < 5)
                FAIL("%s: element %d (buffer index %lu): expected %.9g (tolerance %.3g), got %.9g (error %.3g)",
                     label, i, (unsigned long)k, ref[i], tol[i], (double)got[k], diff);
            ++bad;
        }
    }
    for (idx = 0; idx < len; ++idx) {
        int member = n > 0 && idx >= off && (idx - off) % step == 0 && (idx - off) / step < (size_t)n;
        if (!member && memcmp(&got[idx], &orig[idx], sizeof(float)) != 0) {
            if (bad_gap < 5)
                FAIL("%s: buffer element %lu (not part of the vector) must be untouched: expected %.9g, got %.9g",
                     label, (unsigned long)idx, (double)orig[idx], (double)got[idx]);
            ++bad_gap;
        }
    }
    if (bad > 5)
        FAIL("%s: %d vector elements wrong in total", label, bad);
    if (bad_gap > 5)
        FAIL("%s: %d elements outside the vector changed in total", label, bad_gap);
    return bad + bad_gap;
}

/* ------------------------------------------------------------------------ */
/* sgemv reference                                                            */
/* ------------------------------------------------------------------------ */

/* y := alpha*op(A)*x + beta*y for A m x n column-major (op(A) = A for trans
 * N: lenx = n, leny = m; A^T for T and C: lenx = m, leny = n). ref[i] is the
 * double result for logical element i of y (i < leny), tol[i] its fp32
 * tolerance:
 *
 * the fp32 dot product of row i of op(A) with x (length lenx, any summation
 * order) errs by at most gamma_lenx * S_i, S_i = sum_l |op(A)_il * x_l|;
 * scaling by alpha (or alpha folded into each product), the product beta*y_i
 * and the final addition add one rounding each, at most
 *     u*|alpha|*S_i + u*|beta*y_i| + u*(|alpha|*S_i + |beta*y_i|),
 * so to first order the error is below
 *     (lenx + 2) * u * (|alpha| * S_i + |beta * y_i|)
 * (fused multiply-adds only do better), and the tolerance is BOUND_FACTOR
 * times that (the spec's "(lenx+2)*eps*(...) times a small constant").
 * Products of two of our inputs are exact in double and the double sums err by
 * ~lenx*2^-53 relative, negligible against this.
 *
 * Reference BLAS rules: alpha == 0 reads neither A nor x (may be NULL);
 * beta == 0 does not read y (may hold NaN) and gives exactly alpha*op(A)*x
 * (so alpha == beta == 0 gives exactly 0: tolerance 0); alpha == 0 with
 * beta == 1 is a quick return: y bit-identical (tolerance 0, ref = y).
 * m == 0 or n == 0 is a quick return too (y untouched); the caller checks
 * that case itself (leny may be > 0 with nothing to compare against). */
static inline void ref_sgemv(glblasOperation_t trans, int m, int n, float alpha, const float *A, int lda,
                             const float *x, int incx, float beta, const float *y, int incy, double *ref,
                             double *tol)
{
    int lenx = op_is_trans(trans) ? m : n, leny = op_is_trans(trans) ? n : m;
    int i, l;
    for (i = 0; i < leny; ++i) {
        double s = 0.0, a = 0.0, c = 0.0;
        if (alpha == 0.0f && beta == 1.0f) {
            ref[i] = (double)y[vidx(i, leny, incy)];
            tol[i] = 0.0;
            continue;
        }
        if (alpha != 0.0f) {
            for (l = 0; l < lenx; ++l) {
                double t = gemm_a(trans, A, lda, i, l) * (double)x[vidx(l, lenx, incx)];
                s += t;
                a += fabs(t);
            }
        }
        if (beta != 0.0f)
            c = (double)beta * (double)y[vidx(i, leny, incy)];
        ref[i] = (double)alpha * s + c;
        tol[i] = BOUND_FACTOR * (double)(lenx + 2) * FP32_U * (fabs((double)alpha) * a + fabs(c));
    }
}

#endif /* GLBLAS_C_TESTS_CHECK_H */
