/*
 * test_every_routine_both_precisions.c - every routine of the glblas API, in single and in double
 * precision, from C: the Level 1 routines, gemv, gemm and the Level 3 routines symm, syrk,
 * syr2k, trmm and trsm, each with two of its shapes (sides, triangles, operations, unit
 * diagonals), strided or negative increments and padded leading dimensions.
 *
 * - The reference is computed in long double from inputs of 24 significant bits, whose products
 *   are exact there. A result computed from a depth-d sum is within
 *   BOUND_FACTOR * (d + 2) * u * (sum of the magnitudes of its terms) of it (the classical
 *   gamma bound, plus the roundings of the alpha and beta scalings), u the unit roundoff of the
 *   precision. trsm is checked by its residual, |op(A) X - alpha B| <=
 *   BOUND_FACTOR * (order + 2) * u * (|op(A)| |X| + |alpha B|), the backward error of any
 *   substitution, blocked or not.
 * - What a call must not touch is filled with sentinels and must come back bit for bit: the
 *   padding of leading dimensions and increments, C's other triangle in syrk and syr2k. What it
 *   must not read holds NaN: A's other triangle in symm, trmm and trsm, and A's diagonal where
 *   it is a unit one.
 * - Double precision must succeed where the device has fp64 shaders on the compute pipeline
 *   (glblasGetDeviceInfo) and answer NOT_SUPPORTED elsewhere, its outputs untouched.
 */
#include <float.h>

#include "check.h"

/* An operand of either precision: `dbl` tells which; n elements. */
typedef struct {
    int dbl;
    size_t n;
    void *p;
} buf_t;

static long double get(const buf_t *b, size_t i)
{
    return b->dbl ? (long double)((double *)b->p)[i] : (long double)((float *)b->p)[i];
}

static void put(buf_t *b, size_t i, long double v)
{
    if (b->dbl)
        ((double *)b->p)[i] = (double)v;
    else
        ((float *)b->p)[i] = (float)v;
}

static size_t elem_size(int dbl) { return dbl ? sizeof(double) : sizeof(float); }

static buf_t buf_rand(int dbl, rng_t *r, size_t n)
{
    buf_t b;
    size_t i;
    b.dbl = dbl;
    b.n = n;
    b.p = xmalloc(n * elem_size(dbl));
    for (i = 0; i < n; ++i)
        put(&b, i, rng_float(r));
    return b;
}

static buf_t buf_copy(const buf_t *a)
{
    buf_t b = *a;
    b.p = xmalloc(a->n * elem_size(a->dbl));
    memcpy(b.p, a->p, a->n * elem_size(a->dbl));
    return b;
}

static void buf_free(buf_t *b) { free(b->p); }

/* Whether element i of `got` has the bits of `orig`'s. */
static int same_bits(const buf_t *got, const buf_t *orig, size_t i)
{
    size_t s = elem_size(got->dbl);
    return memcmp((char *)got->p + i * s, (char *)orig->p + i * s, s) == 0;
}

/* 1 where this device computes in double; 0 where it must answer NOT_SUPPORTED. */
static int doubles(void)
{
    glblasDeviceInfo_t info;
    CHECK_OK(glblasGetDeviceInfo(&info));
    return info.fp64 && strcmp(info.pipeline, "compute") == 0;
}

static long double unit_roundoff(int dbl) { return dbl ? DBL_EPSILON / 2.0L : FLT_EPSILON / 2.0L; }

/* The status a call in precision `dbl` must give. */
static glblasStatus_t expected(int dbl)
{
    return !dbl || doubles() ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED;
}

/* Checks element i of `got` against `want`, within `bound`. */
static void check_elem(const char *label, const buf_t *got, size_t i, long double want,
                       long double bound)
{
    long double v = get(got, i), err = fabsl(v - want);
    if (!(err <= bound))
        FAIL("%s: element %lu is %.17Lg, want %.17Lg (bound %.3Lg)", label, (unsigned long)i, v,
             want, bound);
}

/* After a call that gave `st`: on success `check` ran; otherwise every element is untouched. */
static int answered(const char *label, glblasStatus_t st, int dbl, const buf_t *got,
                    const buf_t *orig)
{
    size_t i;
    if (!check_status_at(__FILE__, __LINE__, label, st, expected(dbl)))
        return 0;
    if (st == GLBLAS_STATUS_SUCCESS)
        return 1;
    for (i = 0; i < got->n; ++i)
        if (!same_bits(got, orig, i)) {
            FAIL("%s: refused, but element %lu changed", label, (unsigned long)i);
            return 0;
        }
    return 0;
}

static size_t at(int i, int n, int inc) { return vidx(i, n, inc); }

/* ---- Level 1 ---------------------------------------------------------------------------- */

static void level1(int dbl, rng_t *r)
{
    enum { N = 37 };
    const long double u = unit_roundoff(dbl);
    const char *p = dbl ? "d" : "s";
    char label[64];
    int incx = 2, incy = -3, i;
    buf_t x = buf_rand(dbl, r, vspan(N, incx)), y0 = buf_rand(dbl, r, vspan(N, incy));
    buf_t y = buf_copy(&y0), x1 = buf_copy(&x), res = buf_rand(dbl, r, 1), res0 = buf_copy(&res);
    glblasStatus_t st;
    long double alpha = 0.75L, sum, mag;
    int index, index0 = -7;

    snprintf(label, sizeof label, "%saxpy", p);
    st = dbl ? glblasDaxpy(N, (double)alpha, x.p, incx, y.p, incy)
             : glblasSaxpy(N, (float)alpha, x.p, incx, y.p, incy);
    if (answered(label, st, dbl, &y, &y0))
        for (i = 0; i < N; ++i) {
            long double xi = get(&x, at(i, N, incx)), yi = get(&y0, at(i, N, incy));
            check_elem(label, &y, at(i, N, incy), alpha * xi + yi,
                       BOUND_FACTOR * 2 * u * (fabsl(alpha * xi) + fabsl(yi)));
        }

    snprintf(label, sizeof label, "%sdot", p);
    st = dbl ? glblasDdot(N, x.p, incx, y0.p, incy, res.p)
             : glblasSdot(N, x.p, incx, y0.p, incy, res.p);
    if (answered(label, st, dbl, &res, &res0)) {
        sum = mag = 0;
        for (i = 0; i < N; ++i) {
            long double t = get(&x, at(i, N, incx)) * get(&y0, at(i, N, incy));
            sum += t;
            mag += fabsl(t);
        }
        check_elem(label, &res, 0, sum, BOUND_FACTOR * (N + 2) * u * mag);
    }

    snprintf(label, sizeof label, "%sasum", p);
    memcpy(res.p, res0.p, elem_size(dbl));
    st = dbl ? glblasDasum(N, x.p, incx, res.p) : glblasSasum(N, x.p, incx, res.p);
    if (answered(label, st, dbl, &res, &res0)) {
        sum = 0;
        for (i = 0; i < N; ++i)
            sum += fabsl(get(&x, at(i, N, incx)));
        check_elem(label, &res, 0, sum, BOUND_FACTOR * (N + 2) * u * sum);
    }

    /* The norm's square is a sum of N squares; its root halves the relative error and adds u. */
    snprintf(label, sizeof label, "%snrm2", p);
    memcpy(res.p, res0.p, elem_size(dbl));
    st = dbl ? glblasDnrm2(N, x.p, incx, res.p) : glblasSnrm2(N, x.p, incx, res.p);
    if (answered(label, st, dbl, &res, &res0)) {
        sum = 0;
        for (i = 0; i < N; ++i)
            sum += get(&x, at(i, N, incx)) * get(&x, at(i, N, incx));
        check_elem(label, &res, 0, sqrtl(sum), BOUND_FACTOR * (N + 4) * u * sqrtl(sum));
    }

    snprintf(label, sizeof label, "i%samax", p);
    index = index0;
    st = dbl ? glblasIdamax(N, x.p, incx, &index) : glblasIsamax(N, x.p, incx, &index);
    if (check_status_at(__FILE__, __LINE__, label, st, expected(dbl))) {
        int best = 0;
        for (i = 1; i < N; ++i)
            if (fabsl(get(&x, at(i, N, incx))) > fabsl(get(&x, at(best, N, incx))))
                best = i;
        if (st == GLBLAS_STATUS_SUCCESS ? index != best + 1 : index != index0)
            FAIL("%s: index %d, want %d", label, index, st ? index0 : best + 1);
    }

    snprintf(label, sizeof label, "%sscal", p);
    st = dbl ? glblasDscal(N, -1.5, x1.p, incx) : glblasSscal(N, -1.5f, x1.p, incx);
    if (answered(label, st, dbl, &x1, &x))
        for (i = 0; i < (int)x.n; ++i) {
            int strided = i % incx == 0;
            long double want = strided ? -1.5L * get(&x, (size_t)i) : get(&x, (size_t)i);
            check_elem(label, &x1, (size_t)i, want, strided ? 2 * u * fabsl(want) : 0);
        }

    /* copy and swap move elements: exact, the gaps between them untouched. */
    snprintf(label, sizeof label, "%scopy", p);
    memcpy(y.p, y0.p, y0.n * elem_size(dbl));
    st = dbl ? glblasDcopy(N, x.p, incx, y.p, incy) : glblasScopy(N, x.p, incx, y.p, incy);
    if (answered(label, st, dbl, &y, &y0))
        for (i = 0; i < (int)y.n; ++i) {
            int strided = i % 3 == 0;
            long double want = strided ? get(&x, at(N - 1 - i / 3, N, incx)) : get(&y0, (size_t)i);
            check_elem(label, &y, (size_t)i, want, 0);
        }

    snprintf(label, sizeof label, "%sswap", p);
    memcpy(y.p, y0.p, y0.n * elem_size(dbl));
    memcpy(x1.p, x.p, x.n * elem_size(dbl));
    st = dbl ? glblasDswap(N, x1.p, incx, y.p, incy) : glblasSswap(N, x1.p, incx, y.p, incy);
    if (answered(label, st, dbl, &y, &y0))
        for (i = 0; i < N; ++i) {
            check_elem(label, &x1, at(i, N, incx), get(&y0, at(i, N, incy)), 0);
            check_elem(label, &y, at(i, N, incy), get(&x, at(i, N, incx)), 0);
        }

    buf_free(&x);
    buf_free(&x1);
    buf_free(&y);
    buf_free(&y0);
    buf_free(&res);
    buf_free(&res0);
}

/* ---- matrices ------------------------------------------------------------------------------ */

/* op(X)(i, j) of a column-major X with leading dimension ld. */
static long double op_at(const buf_t *x, int ld, int trans, int i, int j)
{
    return trans ? get(x, (size_t)j + (size_t)i * ld) : get(x, (size_t)i + (size_t)j * ld);
}

/* Checks C (rows×cols, ld) against want/bound (rows×cols, packed), the padding untouched;
 * with `tri` 1 or 2, only the upper (1) or lower (2) triangle is computed and the other must
 * be untouched too. */
static void check_matrix(const char *label, const buf_t *c, const buf_t *c0, int rows, int cols,
                         int ld, const long double *want, const long double *bound, int tri)
{
    int i, j;
    for (j = 0; j < cols; ++j)
        for (i = 0; i < ld; ++i) {
            size_t k = (size_t)i + (size_t)j * ld;
            int computed = i < rows && (tri == 0 || (tri == 1 ? i <= j : i >= j));
            if (computed)
                check_elem(label, c, k, want[i + j * rows], bound[i + j * rows]);
            else if (!same_bits(c, c0, k))
                FAIL("%s: element (%d, %d) outside the result changed", label, i, j);
        }
}

/* Puts NaN in the triangle of the order×order A (ld) that is not `upper`'s, and on its
 * diagonal when `unit`: what the call must not read. */
static void poison(buf_t *a, int order, int ld, int upper, int unit)
{
    int i, j;
    for (j = 0; j < order; ++j)
        for (i = 0; i < order; ++i)
            if ((upper ? i > j : i < j) || (unit && i == j))
                put(a, (size_t)i + (size_t)j * ld, NAN);
}

/* A(i, j) of a symmetric or triangular A stored in its `upper` triangle; 0 outside a
 * triangular one, 1 on a unit diagonal. */
static long double stored(const buf_t *a, int ld, int upper, int i, int j, int symmetric,
                          int unit)
{
    if (i == j && unit)
        return 1;
    if (upper ? i > j : i < j) {
        if (!symmetric)
            return 0;
        return get(a, (size_t)j + (size_t)i * ld);
    }
    return get(a, (size_t)i + (size_t)j * ld);
}

static void gemv(int dbl, rng_t *r, int trans)
{
    enum { M = 7, N = 5, LDA = 9 };
    const long double u = unit_roundoff(dbl), alpha = 1.25L, beta = -0.5L;
    int incx = 2, incy = -1, lx = trans ? M : N, ly = trans ? N : M, i, p;
    buf_t a = buf_rand(dbl, r, LDA * N), x = buf_rand(dbl, r, vspan(lx, incx));
    buf_t y0 = buf_rand(dbl, r, vspan(ly, incy)), y = buf_copy(&y0);
    glblasOperation_t op = trans ? GLBLAS_OP_T : GLBLAS_OP_N;
    char label[64];
    glblasStatus_t st;
    snprintf(label, sizeof label, "%sgemv %s", dbl ? "d" : "s", trans ? "T" : "N");
    st = dbl ? glblasDgemv(op, M, N, (double)alpha, a.p, LDA, x.p, incx, (double)beta, y.p, incy)
             : glblasSgemv(op, M, N, (float)alpha, a.p, LDA, x.p, incx, (float)beta, y.p, incy);
    if (answered(label, st, dbl, &y, &y0))
        for (i = 0; i < ly; ++i) {
            long double s = beta * get(&y0, at(i, ly, incy)), mag = fabsl(s);
            for (p = 0; p < lx; ++p) {
                long double t = alpha * op_at(&a, LDA, trans, i, p) * get(&x, at(p, lx, incx));
                s += t;
                mag += fabsl(t);
            }
            check_elem(label, &y, at(i, ly, incy), s, BOUND_FACTOR * (lx + 2) * u * mag);
        }
    buf_free(&a);
    buf_free(&x);
    buf_free(&y);
    buf_free(&y0);
}

static void gemm(int dbl, rng_t *r, int ta, int tb)
{
    enum { M = 6, N = 5, K = 4, LD = 8 };
    const long double u = unit_roundoff(dbl), alpha = 0.75L, beta = 1.5L;
    long double want[M * N], bound[M * N];
    buf_t a = buf_rand(dbl, r, LD * M), b = buf_rand(dbl, r, LD * N);
    buf_t c0 = buf_rand(dbl, r, LD * N), c = buf_copy(&c0);
    glblasOperation_t opa = ta ? GLBLAS_OP_T : GLBLAS_OP_N, opb = tb ? GLBLAS_OP_C : GLBLAS_OP_N;
    char label[64];
    glblasStatus_t st;
    int i, j, p;
    snprintf(label, sizeof label, "%sgemm %s%s", dbl ? "d" : "s", ta ? "T" : "N", tb ? "C" : "N");
    st = dbl ? glblasDgemm(opa, opb, M, N, K, (double)alpha, a.p, LD, b.p, LD, (double)beta, c.p, LD)
             : glblasSgemm(opa, opb, M, N, K, (float)alpha, a.p, LD, b.p, LD, (float)beta, c.p, LD);
    for (j = 0; j < N; ++j)
        for (i = 0; i < M; ++i) {
            long double s = beta * get(&c0, (size_t)i + (size_t)j * LD), mag = fabsl(s);
            for (p = 0; p < K; ++p) {
                long double t = alpha * op_at(&a, LD, ta, i, p) * op_at(&b, LD, tb, p, j);
                s += t;
                mag += fabsl(t);
            }
            want[i + j * M] = s;
            bound[i + j * M] = BOUND_FACTOR * (K + 2) * u * mag;
        }
    if (answered(label, st, dbl, &c, &c0))
        check_matrix(label, &c, &c0, M, N, LD, want, bound, 0);
    buf_free(&a);
    buf_free(&b);
    buf_free(&c);
    buf_free(&c0);
}

static void symm(int dbl, rng_t *r, int right, int upper)
{
    enum { M = 6, N = 5, LD = 8 };
    const long double u = unit_roundoff(dbl), alpha = -0.75L, beta = 0.5L;
    long double want[M * N], bound[M * N];
    int ka = right ? N : M, i, j, p;
    buf_t a = buf_rand(dbl, r, LD * ka), b = buf_rand(dbl, r, LD * N);
    buf_t c0 = buf_rand(dbl, r, LD * N), c = buf_copy(&c0);
    glblasSideMode_t side = right ? GLBLAS_SIDE_RIGHT : GLBLAS_SIDE_LEFT;
    glblasFillMode_t fill = upper ? GLBLAS_FILL_MODE_UPPER : GLBLAS_FILL_MODE_LOWER;
    char label[64];
    glblasStatus_t st;
    poison(&a, ka, LD, upper, 0);
    snprintf(label, sizeof label, "%ssymm %s%s", dbl ? "d" : "s", right ? "R" : "L", upper ? "U" : "L");
    st = dbl ? glblasDsymm(side, fill, M, N, (double)alpha, a.p, LD, b.p, LD, (double)beta, c.p, LD)
             : glblasSsymm(side, fill, M, N, (float)alpha, a.p, LD, b.p, LD, (float)beta, c.p, LD);
    for (j = 0; j < N; ++j)
        for (i = 0; i < M; ++i) {
            long double s = beta * get(&c0, (size_t)i + (size_t)j * LD), mag = fabsl(s);
            for (p = 0; p < ka; ++p) {
                long double t = right ? get(&b, (size_t)i + (size_t)p * LD) *
                                            stored(&a, LD, upper, p, j, 1, 0)
                                      : stored(&a, LD, upper, i, p, 1, 0) *
                                            get(&b, (size_t)p + (size_t)j * LD);
                s += alpha * t;
                mag += fabsl(alpha * t);
            }
            want[i + j * M] = s;
            bound[i + j * M] = BOUND_FACTOR * (ka + 2) * u * mag;
        }
    if (answered(label, st, dbl, &c, &c0))
        check_matrix(label, &c, &c0, M, N, LD, want, bound, 0);
    buf_free(&a);
    buf_free(&b);
    buf_free(&c);
    buf_free(&c0);
}

/* syrk, or syr2k when `two`. */
static void syrk(int dbl, rng_t *r, int two, int upper, int trans)
{
    enum { N = 6, K = 4, LD = 8 };
    const long double u = unit_roundoff(dbl), alpha = 1.5L, beta = -1.0L;
    long double want[N * N], bound[N * N];
    buf_t a = buf_rand(dbl, r, LD * N), b = buf_rand(dbl, r, LD * N);
    buf_t c0 = buf_rand(dbl, r, LD * N), c = buf_copy(&c0);
    glblasFillMode_t fill = upper ? GLBLAS_FILL_MODE_UPPER : GLBLAS_FILL_MODE_LOWER;
    glblasOperation_t op = trans ? GLBLAS_OP_T : GLBLAS_OP_N;
    char label[64];
    glblasStatus_t st;
    int i, j, p;
    snprintf(label, sizeof label, "%ssyr%sk %s%s", dbl ? "d" : "s", two ? "2" : "", upper ? "U" : "L",
             trans ? "T" : "N");
    if (two)
        st = dbl ? glblasDsyr2k(fill, op, N, K, (double)alpha, a.p, LD, b.p, LD, (double)beta, c.p,
                                LD)
                 : glblasSsyr2k(fill, op, N, K, (float)alpha, a.p, LD, b.p, LD, (float)beta, c.p,
                                LD);
    else
        st = dbl ? glblasDsyrk(fill, op, N, K, (double)alpha, a.p, LD, (double)beta, c.p, LD)
                 : glblasSsyrk(fill, op, N, K, (float)alpha, a.p, LD, (float)beta, c.p, LD);
    /* op(X) is n×k: X itself, or X^T stored k×n. */
    for (j = 0; j < N; ++j)
        for (i = 0; i < N; ++i) {
            long double s = beta * get(&c0, (size_t)i + (size_t)j * LD), mag = fabsl(s);
            for (p = 0; p < K; ++p) {
                long double t = op_at(&a, LD, trans, i, p) *
                                (two ? op_at(&b, LD, trans, j, p) : op_at(&a, LD, trans, j, p));
                if (two)
                    t += op_at(&b, LD, trans, i, p) * op_at(&a, LD, trans, j, p);
                s += alpha * t;
                mag += fabsl(alpha * t);
            }
            want[i + j * N] = s;
            bound[i + j * N] = BOUND_FACTOR * ((two ? 2 : 1) * K + 2) * u * mag;
        }
    if (answered(label, st, dbl, &c, &c0))
        check_matrix(label, &c, &c0, N, N, LD, want, bound, upper ? 1 : 2);
    buf_free(&a);
    buf_free(&b);
    buf_free(&c);
    buf_free(&c0);
}

/* trmm, or trsm when `solve`: B (m×n) and the triangular A, `right`, `upper`, `trans`, `unit`. */
static void triangular(int dbl, rng_t *r, int solve, int right, int upper, int trans, int unit)
{
    enum { M = 6, N = 5, LD = 8 };
    const long double u = unit_roundoff(dbl), alpha = solve ? 2.0L : -1.25L;
    long double want[M * N], bound[M * N];
    int ka = right ? N : M, i, j, p;
    buf_t a = buf_rand(dbl, r, LD * ka), b0 = buf_rand(dbl, r, LD * N), b = buf_copy(&b0);
    glblasSideMode_t side = right ? GLBLAS_SIDE_RIGHT : GLBLAS_SIDE_LEFT;
    glblasFillMode_t fill = upper ? GLBLAS_FILL_MODE_UPPER : GLBLAS_FILL_MODE_LOWER;
    glblasOperation_t op = trans ? GLBLAS_OP_T : GLBLAS_OP_N;
    glblasDiagType_t diag = unit ? GLBLAS_DIAG_UNIT : GLBLAS_DIAG_NON_UNIT;
    char label[64];
    glblasStatus_t st;
    /* A well conditioned triangle: a dominant diagonal, small off-diagonal elements. */
    for (j = 0; j < ka; ++j)
        for (i = 0; i < ka; ++i)
            put(&a, (size_t)i + (size_t)j * LD,
                i == j ? 2 + fabsl(get(&a, (size_t)i + (size_t)j * LD))
                       : get(&a, (size_t)i + (size_t)j * LD) / 4);
    poison(&a, ka, LD, upper, unit);
    snprintf(label, sizeof label, "%str%sm %s%s%s%s", dbl ? "d" : "s", solve ? "s" : "m",
             right ? "R" : "L", upper ? "U" : "L", trans ? "T" : "N", unit ? "U" : "N");
    if (solve)
        st = dbl ? glblasDtrsm(side, fill, op, diag, M, N, (double)alpha, a.p, LD, b.p, LD)
                 : glblasStrsm(side, fill, op, diag, M, N, (float)alpha, a.p, LD, b.p, LD);
    else
        st = dbl ? glblasDtrmm(side, fill, op, diag, M, N, (double)alpha, a.p, LD, b.p, LD)
                 : glblasStrmm(side, fill, op, diag, M, N, (float)alpha, a.p, LD, b.p, LD);
    /* trmm: want = alpha op(A) B or alpha B op(A); trsm: the residual op(A) X - alpha B (or
     * X op(A) - alpha B) is computed from the result and must be 0 within its bound. */
    for (j = 0; j < N; ++j)
        for (i = 0; i < M; ++i) {
            const buf_t *x = solve ? &b : &b0;
            long double s = 0, mag = 0;
            for (p = 0; p < ka; ++p) {
                long double t = right ? get(x, (size_t)i + (size_t)p * LD) *
                                            (trans ? stored(&a, LD, upper, j, p, 0, unit)
                                                   : stored(&a, LD, upper, p, j, 0, unit))
                                      : (trans ? stored(&a, LD, upper, p, i, 0, unit)
                                               : stored(&a, LD, upper, i, p, 0, unit)) *
                                            get(x, (size_t)p + (size_t)j * LD);
                s += t;
                mag += fabsl(t);
            }
            if (solve) {
                long double rhs = alpha * get(&b0, (size_t)i + (size_t)j * LD);
                want[i + j * M] = rhs;
                bound[i + j * M] = BOUND_FACTOR * (ka + 2) * u * (mag + fabsl(rhs));
                /* Stored in place of B's element so that check_matrix compares s with it. */
            } else {
                want[i + j * M] = alpha * s;
                bound[i + j * M] = BOUND_FACTOR * (ka + 2) * u * fabsl(alpha) * mag;
            }
            if (solve && st == GLBLAS_STATUS_SUCCESS) {
                long double err = fabsl(s - want[i + j * M]);
                if (!(err <= bound[i + j * M]))
                    FAIL("%s: residual (%d, %d) is %.3Lg, bound %.3Lg", label, i, j, err,
                         bound[i + j * M]);
            }
        }
    if (answered(label, st, dbl, &b, &b0)) {
        if (solve) {
            /* The residuals are checked above; the padding must be untouched. */
            for (j = 0; j < N; ++j)
                for (i = M; i < LD; ++i)
                    if (!same_bits(&b, &b0, (size_t)i + (size_t)j * LD))
                        FAIL("%s: padding (%d, %d) changed", label, i, j);
        } else {
            check_matrix(label, &b, &b0, M, N, LD, want, bound, 0);
        }
    }
    buf_free(&a);
    buf_free(&b);
    buf_free(&b0);
}

int main(void)
{
    rng_t rng = rng_seed(20261126);
    int dbl;
    CHECK_OK(glblasInit());
    for (dbl = 0; dbl <= 1; ++dbl) {
        level1(dbl, &rng);
        gemv(dbl, &rng, 0);
        gemv(dbl, &rng, 1);
        gemm(dbl, &rng, 1, 0);
        gemm(dbl, &rng, 0, 1);
        symm(dbl, &rng, 0, 1);
        symm(dbl, &rng, 1, 0);
        syrk(dbl, &rng, 0, 1, 0);
        syrk(dbl, &rng, 0, 0, 1);
        syrk(dbl, &rng, 1, 0, 0);
        syrk(dbl, &rng, 1, 1, 1);
        triangular(dbl, &rng, 0, 0, 0, 1, 1);
        triangular(dbl, &rng, 0, 1, 1, 0, 0);
        triangular(dbl, &rng, 1, 0, 1, 0, 0);
        triangular(dbl, &rng, 1, 1, 0, 1, 1);
    }
    CHECK_OK(glblasShutdown());
    return check_finish("test_every_routine_both_precisions");
}
