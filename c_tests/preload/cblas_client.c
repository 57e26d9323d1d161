/*
 * cblas_client.c - an ordinary C program built against the system CBLAS
 * (OpenBLAS's <cblas.h>, linked with -lopenblas), used to prove that
 * libglblas.so works as an LD_PRELOAD substitute for it:
 *
 *   gcc -std=c99 -O2 -Wall -Wextra -Werror cblas_client.c -o cblas_client -lopenblas -lm
 *   ./cblas_client                                   # plain run
 *   LD_PRELOAD=/abs/libglblas.so ./cblas_client      # glblas answers the cblas_* calls
 *
 * It calls every routine of the glblas drop-in contract through its cblas_
 * name (saxpy, sdot, sscal, scopy, sswap, sasum, sgemv, sgemm) on
 * deterministic inputs and prints, on stdout:
 *
 *   call <symbol> <key>=<value> ...   once per BLAS call, before the call; the
 *                                     keys are those of the glblas trace line
 *                                     for that routine, in the same order
 *   val <case-id> <index> <got> <ref> <bound>
 *                                     one per output element: the float result
 *                                     (%.9g, round-trips), the double reference
 *                                     and the fp32 error bound it must meet
 *   FAIL <case-id> ...                for every check that failed
 *   summary checks=<n> failures=<n>   last line
 *
 * and exits 0 iff every check passed.  <index> is the element's offset in its
 * buffer (case ids of sswap carry a .x / .y suffix for the two outputs).
 *
 * Checks.  Every operand lives in a buffer with GUARD floats on each side and
 * NaN in every slot that is not an element the routine may read (the guards,
 * the gaps of strided vectors, the padding rows/columns of lda > needed);
 * outputs pre-filled with NaN where the routine must not read them (beta = 0).
 * After the call, output elements are compared with a double-precision
 * reference, every other slot of every buffer (inputs included) must be
 * bit-for-bit unchanged.
 *
 * Error bounds (u = FLT_EPSILON/2 = 2^-24, the unit roundoff of binary32;
 * the inputs have at most 24 significant bits, so their double copies and the
 * double products of two of them are exact and the double reference's own
 * error is negligible).  With fl(a op b) = (a op b)(1 + d), |d| <= u, a result
 * that went through j roundings is within gamma_j = j*u/(1 - j*u) relative to
 * the sum of the absolute values of its terms, independently of the summation
 * order (sequential, blocked or tree).  We allow C_SAFETY = 2 times j*u (covers
 * gamma_j's denominator and one extra rounding, e.g. no fused multiply-add):
 *   saxpy  y_i + alpha*x_i             2 roundings:  2 * 2u * (|alpha x_i| + |y_i|)
 *   sscal  alpha*x_i                   1 rounding:   2 * u * |alpha x_i|
 *   sdot   sum x_i y_i                 n roundings:  2 * n u * sum|x_i y_i|
 *   sasum  sum |x_i|                   n roundings:  2 * n u * sum|x_i|
 *   sgemm  alpha*sum_l a_il b_lj + beta*c_ij:  k roundings for the dot product,
 *          one for alpha, one for the beta update:
 *                                      2 * (k+2) u * (|alpha| sum_l |a_il b_lj| + |beta c_ij|)
 *          (i.e. the c*k*FLT_EPSILON*sum|a b| form with c ~ 1 plus the two
 *          extra roundings, so k = 1 and k = 0 stay honest)
 *   sgemv  as sgemm with k = the length of x
 *   scopy, sswap                       exact (bound 0)
 * The beta term is dropped when beta == 0 (C/y not read), the alpha term when
 * alpha == 0 or k == 0 (A/B not read); quick returns leave the output
 * bit-for-bit unchanged.
 */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U ((double)FLT_EPSILON / 2.0) /* unit roundoff of binary32: 2^-24 */
#define C_SAFETY 2.0
#define GUARD 4

static int n_checks, n_fail, n_case;

/* ---- deterministic inputs ------------------------------------------------ */

static uint64_t lcg_state = 0x2545F4914F6CDD1DULL;

/* Floats in [-1, 1) with at most 24 significant bits (k / 2^23, |k| < 2^23). */
static float rnd(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    int32_t k = (int32_t)(lcg_state >> 40) - (1 << 23);
    return (float)k / 8388608.0f;
}

/* The NaN written into every slot a routine must neither read nor write. */
static float sentinel(void)
{
    uint32_t bits = 0x7fc0deadu;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static int same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- buffers ----------------------------------------------------------- */

typedef struct {
    size_t len;          /* usable elements (p[0 .. len-1]) */
    float *mem;          /* len + 2*GUARD floats */
    float *p;            /* mem + GUARD: what the routine gets */
    float *orig;         /* copy of mem before the call */
    unsigned char *out;  /* per element of p: 1 = output element checked against ref */
    double *ref, *bnd;   /* per element of p */
} buf_t;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stdout, "FAIL out of memory\n");
        exit(2);
    }
    return p;
}

static buf_t buf_new(size_t len)
{
    buf_t b;
    if (len == 0)
        len = 1;
    b.len = len;
    b.mem = xcalloc(len + 2 * GUARD, sizeof(float));
    b.orig = xcalloc(len + 2 * GUARD, sizeof(float));
    b.out = xcalloc(len, 1);
    b.ref = xcalloc(len, sizeof(double));
    b.bnd = xcalloc(len, sizeof(double));
    b.p = b.mem + GUARD;
    for (size_t i = 0; i < len + 2 * GUARD; i++)
        b.mem[i] = sentinel();
    return b;
}

static void buf_snapshot(buf_t *b)
{
    memcpy(b->orig, b->mem, (b->len + 2 * GUARD) * sizeof(float));
}

static void buf_free(buf_t *b)
{
    free(b->mem);
    free(b->orig);
    free(b->out);
    free(b->ref);
    free(b->bnd);
}

static void check_value(const char *cid, long idx, float got, double ref, double bnd)
{
    n_checks++;
    printf("val %s %ld %.9g %.17g %.6g\n", cid, idx, (double)got, ref, bnd);
    double err = fabs((double)got - ref);
    if (!(err <= bnd)) { /* also catches NaN */
        n_fail++;
        printf("FAIL %s %ld: got %.9g ref %.17g err %.3g bound %.3g\n", cid, idx, (double)got, ref,
               err, bnd);
    }
}

/* Outputs against the reference, everything else (guards, gaps, padding,
 * inputs, outputs of a quick return) bit for bit against the snapshot. */
static void buf_check(const char *cid, const buf_t *b)
{
    for (size_t i = 0; i < b->len + 2 * GUARD; i++) {
        long e = (long)i - GUARD;
        if (e >= 0 && (size_t)e < b->len && b->out[e]) {
            check_value(cid, e, b->p[e], b->ref[e], b->bnd[e]);
        } else {
            n_checks++;
            if (!same_bits(b->mem[i], b->orig[i])) {
                n_fail++;
                printf("FAIL %s: slot %ld (not an output element) modified: %.9g -> %.9g\n", cid, e,
                       (double)b->orig[i], (double)b->mem[i]);
            }
        }
    }
}

static void new_case(char *cid, size_t cap, const char *routine)
{
    snprintf(cid, cap, "%s#%d", routine, ++n_case);
}

/* ---- strided vectors ------------------------------------------------------ */

/* Offset of element i of an n-vector with increment inc (reference BLAS:
 * a negative increment starts at the far end). */
static size_t vpos(int i, int n, int inc)
{
    return inc >= 0 ? (size_t)i * (size_t)inc : (size_t)(n - 1 - i) * (size_t)(-inc);
}

static size_t vlen(int n, int inc)
{
    return n > 0 ? 1 + (size_t)(n - 1) * (size_t)abs(inc) : 1;
}

/* An n-vector with increment inc; elements random, or NaN when nan_fill. */
static buf_t vec_new(int n, int inc, int nan_fill)
{
    buf_t b = buf_new(vlen(n, inc));
    for (int i = 0; i < n; i++)
        b.p[vpos(i, n, inc)] = nan_fill ? NAN : rnd();
    return b;
}

/* ---- matrices ------------------------------------------------------------- */

/* A rows x cols matrix stored in layout with leading dimension ld. */
typedef struct {
    int col;     /* 1: column-major, 0: row-major */
    int rows, cols, ld;
    buf_t b;
} mat_t;

static size_t mpos(const mat_t *m, int r, int c)
{
    return m->col ? (size_t)r + (size_t)c * (size_t)m->ld : (size_t)r * (size_t)m->ld + (size_t)c;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

static mat_t mat_new(int col, int rows, int cols, int ld_extra, int nan_fill)
{
    mat_t m;
    m.col = col;
    m.rows = rows;
    m.cols = cols;
    m.ld = imax(1, col ? rows : cols) + ld_extra;
    m.b = buf_new(col ? (size_t)m.ld * (size_t)cols : (size_t)rows * (size_t)m.ld);
    for (int c = 0; c < cols; c++)
        for (int r = 0; r < rows; r++)
            m.b.p[mpos(&m, r, c)] = nan_fill ? NAN : rnd();
    return m;
}

static char op_letter(enum CBLAS_TRANSPOSE t)
{
    return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : 'C';
}

static const char *layout_name(enum CBLAS_ORDER o)
{
    return o == CblasRowMajor ? "row" : "col";
}

/* ---- level 1 -------------------------------------------------------------- */

static void t_saxpy(int n, float alpha, int incx, int incy)
{
    char cid[64];
    new_case(cid, sizeof cid, "saxpy");
    buf_t x = vec_new(n, incx, 0), y = vec_new(n, incy, 0);
    if (n > 0 && alpha != 0.0f) {
        for (int i = 0; i < n; i++) {
            size_t px = vpos(i, n, incx), py = vpos(i, n, incy);
            double ax = (double)alpha * (double)x.p[px], yv = y.p[py];
            y.out[py] = 1;
            y.ref[py] = yv + ax;
            y.bnd[py] = C_SAFETY * 2 * U * (fabs(ax) + fabs(yv));
        }
    }
    buf_snapshot(&x);
    buf_snapshot(&y);
    printf("call cblas_saxpy n=%d alpha=%.9g incx=%d incy=%d\n", n, (double)alpha, incx, incy);
    cblas_saxpy(n, alpha, x.p, incx, y.p, incy);
    buf_check(cid, &x);
    buf_check(cid, &y);
    buf_free(&x);
    buf_free(&y);
}

static void t_sdot(int n, int incx, int incy)
{
    char cid[64];
    new_case(cid, sizeof cid, "sdot");
    buf_t x = vec_new(n, incx, 0), y = vec_new(n, incy, 0);
    double ref = 0.0, mag = 0.0;
    for (int i = 0; i < n; i++) {
        double prod = (double)x.p[vpos(i, n, incx)] * (double)y.p[vpos(i, n, incy)];
        ref += prod;
        mag += fabs(prod);
    }
    buf_snapshot(&x);
    buf_snapshot(&y);
    printf("call cblas_sdot n=%d incx=%d incy=%d\n", n, incx, incy);
    float got = cblas_sdot(n, x.p, incx, y.p, incy);
    check_value(cid, 0, got, ref, C_SAFETY * imax(n, 1) * U * mag);
    buf_check(cid, &x);
    buf_check(cid, &y);
    buf_free(&x);
    buf_free(&y);
}

static void t_sscal(int n, float alpha, int incx)
{
    char cid[64];
    new_case(cid, sizeof cid, "sscal");
    /* incx <= 0: quick return, x untouched (the buffer uses |incx|). */
    buf_t x = vec_new(n, incx, 0);
    if (n > 0 && incx > 0) {
        for (int i = 0; i < n; i++) {
            size_t px = vpos(i, n, incx);
            double r = (double)alpha * (double)x.p[px];
            x.out[px] = 1;
            x.ref[px] = r;
            x.bnd[px] = C_SAFETY * U * fabs(r);
        }
    }
    buf_snapshot(&x);
    printf("call cblas_sscal n=%d alpha=%.9g incx=%d\n", n, (double)alpha, incx);
    cblas_sscal(n, alpha, x.p, incx);
    buf_check(cid, &x);
    buf_free(&x);
}

static void t_scopy(int n, int incx, int incy)
{
    char cid[64];
    new_case(cid, sizeof cid, "scopy");
    buf_t x = vec_new(n, incx, 0), y = vec_new(n, incy, 0);
    for (int i = 0; i < n; i++) {
        size_t py = vpos(i, n, incy);
        y.out[py] = 1;
        y.ref[py] = x.p[vpos(i, n, incx)];
        y.bnd[py] = 0.0;
    }
    buf_snapshot(&x);
    buf_snapshot(&y);
    printf("call cblas_scopy n=%d incx=%d incy=%d\n", n, incx, incy);
    cblas_scopy(n, x.p, incx, y.p, incy);
    buf_check(cid, &x);
    buf_check(cid, &y);
    buf_free(&x);
    buf_free(&y);
}

static void t_sswap(int n, int incx, int incy)
{
    char cid[64], cx[72], cy[72];
    new_case(cid, sizeof cid, "sswap");
    snprintf(cx, sizeof cx, "%s.x", cid);
    snprintf(cy, sizeof cy, "%s.y", cid);
    buf_t x = vec_new(n, incx, 0), y = vec_new(n, incy, 0);
    for (int i = 0; i < n; i++) {
        size_t px = vpos(i, n, incx), py = vpos(i, n, incy);
        x.out[px] = y.out[py] = 1;
        x.ref[px] = y.p[py];
        y.ref[py] = x.p[px];
        x.bnd[px] = y.bnd[py] = 0.0;
    }
    buf_snapshot(&x);
    buf_snapshot(&y);
    printf("call cblas_sswap n=%d incx=%d incy=%d\n", n, incx, incy);
    cblas_sswap(n, x.p, incx, y.p, incy);
    buf_check(cx, &x);
    buf_check(cy, &y);
    buf_free(&x);
    buf_free(&y);
}

static void t_sasum(int n, int incx)
{
    char cid[64];
    new_case(cid, sizeof cid, "sasum");
    buf_t x = vec_new(n, incx, 0);
    double ref = 0.0;
    if (incx > 0) /* incx <= 0: quick return 0 */
        for (int i = 0; i < n; i++)
            ref += fabs((double)x.p[vpos(i, n, incx)]);
    buf_snapshot(&x);
    printf("call cblas_sasum n=%d incx=%d\n", n, incx);
    float got = cblas_sasum(n, x.p, incx);
    check_value(cid, 0, got, ref, C_SAFETY * imax(n, 1) * U * ref);
    buf_check(cid, &x);
    buf_free(&x);
}

/* ---- sgemv ------------------------------------------------------------------ */

/* y = alpha*op(A)*x + beta*y, A m x n stored in layout with lda = minimum + ld_extra.
 * nan_y: y pre-filled with NaN (only with beta == 0); nan_ax: A and x NaN (only
 * with alpha == 0, where they must not be read). */
static void t_sgemv(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE trans, int m, int n, int ld_extra,
                    int incx, int incy, float alpha, float beta, int nan_y, int nan_ax)
{
    char cid[64];
    new_case(cid, sizeof cid, "sgemv");
    mat_t A = mat_new(layout == CblasColMajor, m, n, ld_extra, nan_ax);
    int notrans = trans == CblasNoTrans;
    int lenx = notrans ? n : m, leny = notrans ? m : n;
    buf_t x = vec_new(lenx, incx, nan_ax), y = vec_new(leny, incy, nan_y);
    int quick = m == 0 || n == 0 || (alpha == 0.0f && beta == 1.0f);
    if (!quick) {
        for (int i = 0; i < leny; i++) {
            double s = 0.0, mag = 0.0;
            if (alpha != 0.0f) {
                for (int j = 0; j < lenx; j++) {
                    double a = notrans ? A.b.p[mpos(&A, i, j)] : A.b.p[mpos(&A, j, i)];
                    double p = a * (double)x.p[vpos(j, lenx, incx)];
                    s += p;
                    mag += fabs(p);
                }
            }
            size_t py = vpos(i, leny, incy);
            double r = (double)alpha * s, bnd = fabs((double)alpha) * mag;
            if (beta != 0.0f) {
                double by = (double)beta * (double)y.p[py];
                r += by;
                bnd += fabs(by);
            }
            y.out[py] = 1;
            y.ref[py] = r;
            y.bnd[py] = C_SAFETY * (lenx + 2) * U * bnd;
        }
    }
    buf_snapshot(&A.b);
    buf_snapshot(&x);
    buf_snapshot(&y);
    printf("call cblas_sgemv layout=%s trans=%c m=%d n=%d alpha=%.9g lda=%d incx=%d beta=%.9g "
           "incy=%d\n",
           layout_name(layout), op_letter(trans), m, n, (double)alpha, A.ld, incx, (double)beta,
           incy);
    cblas_sgemv(layout, trans, m, n, alpha, A.b.p, A.ld, x.p, incx, beta, y.p, incy);
    buf_check(cid, &A.b);
    buf_check(cid, &x);
    buf_check(cid, &y);
    buf_free(&A.b);
    buf_free(&x);
    buf_free(&y);
}

/* ---- sgemm ------------------------------------------------------------------ */

/* C = alpha*op(A)*op(B) + beta*C in layout; ld = minimum + extra for each operand.
 * nan_c: C pre-filled with NaN (only with beta == 0); nan_ab: A and B NaN
 * (only with alpha == 0 or k == 0). */
static void t_sgemm(enum CBLAS_ORDER layout, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m,
                    int n, int k, int lda_extra, int ldb_extra, int ldc_extra, float alpha, float beta,
                    int nan_c, int nan_ab)
{
    char cid[64];
    new_case(cid, sizeof cid, "sgemm");
    int col = layout == CblasColMajor, na = ta == CblasNoTrans, nb = tb == CblasNoTrans;
    mat_t A = na ? mat_new(col, m, k, lda_extra, nan_ab) : mat_new(col, k, m, lda_extra, nan_ab);
    mat_t B = nb ? mat_new(col, k, n, ldb_extra, nan_ab) : mat_new(col, n, k, ldb_extra, nan_ab);
    mat_t C = mat_new(col, m, n, ldc_extra, nan_c);
    int quick = m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f);
    if (!quick) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double s = 0.0, mag = 0.0;
                if (alpha != 0.0f) {
                    for (int l = 0; l < k; l++) {
                        double a = na ? A.b.p[mpos(&A, i, l)] : A.b.p[mpos(&A, l, i)];
                        double b = nb ? B.b.p[mpos(&B, l, j)] : B.b.p[mpos(&B, j, l)];
                        s += a * b;
                        mag += fabs(a * b);
                    }
                }
                size_t pc = mpos(&C, i, j);
                double r = (double)alpha * s, bnd = fabs((double)alpha) * mag;
                if (beta != 0.0f) {
                    double bc = (double)beta * (double)C.b.p[pc];
                    r += bc;
                    bnd += fabs(bc);
                }
                C.b.out[pc] = 1;
                C.b.ref[pc] = r;
                C.b.bnd[pc] = C_SAFETY * (k + 2) * U * bnd;
            }
        }
    }
    buf_snapshot(&A.b);
    buf_snapshot(&B.b);
    buf_snapshot(&C.b);
    printf("call cblas_sgemm layout=%s transa=%c transb=%c m=%d n=%d k=%d alpha=%.9g lda=%d ldb=%d "
           "beta=%.9g ldc=%d\n",
           layout_name(layout), op_letter(ta), op_letter(tb), m, n, k, (double)alpha, A.ld, B.ld,
           (double)beta, C.ld);
    cblas_sgemm(layout, ta, tb, m, n, k, alpha, A.b.p, A.ld, B.b.p, B.ld, beta, C.b.p, C.ld);
    buf_check(cid, &A.b);
    buf_check(cid, &B.b);
    buf_check(cid, &C.b);
    buf_free(&A.b);
    buf_free(&B.b);
    buf_free(&C.b);
}

/* ---- the cases -------------------------------------------------------------- */

int main(void)
{
    const enum CBLAS_ORDER layouts[2] = {CblasRowMajor, CblasColMajor};
    const enum CBLAS_TRANSPOSE ops[3] = {CblasNoTrans, CblasTrans, CblasConjTrans};

    /* saxpy: quick returns (n = 0, n < 0, alpha = 0), alpha = 1 / other, unit,
     * non-unit, negative and zero (broadcast x) increments */
    t_saxpy(0, 1.5f, 1, 1);
    t_saxpy(-3, 1.5f, 1, 1);
    t_saxpy(17, 0.0f, 1, 1);
    t_saxpy(17, 1.0f, 1, 1);
    t_saxpy(33, -0.7f, 1, 1);
    t_saxpy(20, 2.5f, 2, 3);
    t_saxpy(15, 1.25f, -2, 1);
    t_saxpy(15, -3.0f, 1, -3);
    t_saxpy(16, 0.5f, -1, -2);
    t_saxpy(9, 0.75f, 0, 1);
    t_saxpy(1000, 0.3f, 1, 1);

    /* sdot */
    t_sdot(0, 1, 1);
    t_sdot(-2, 1, 1);
    t_sdot(1, 1, 1);
    t_sdot(37, 1, 1);
    t_sdot(25, 2, -3);
    t_sdot(19, -1, -1);
    t_sdot(13, -2, 3);
    t_sdot(10, 0, 1);
    t_sdot(1000, 1, 1);

    /* sscal: n = 0 and incx <= 0 are quick returns (x untouched) */
    t_sscal(0, 2.0f, 1);
    t_sscal(12, 2.0f, 0);
    t_sscal(12, 2.0f, -1);
    t_sscal(21, 0.0f, 1);
    t_sscal(21, 1.0f, 1);
    t_sscal(23, -1.75f, 1);
    t_sscal(14, 0.3f, 3);
    t_sscal(1000, -0.6f, 1);

    /* scopy (exact) */
    t_scopy(0, 1, 1);
    t_scopy(1, 1, 1);
    t_scopy(31, 1, 1);
    t_scopy(18, 2, -1);
    t_scopy(18, -3, 2);
    t_scopy(11, -1, -1);
    t_scopy(7, 0, 1);
    t_scopy(1000, 1, 1);

    /* sswap (exact) */
    t_sswap(0, 1, 1);
    t_sswap(1, 1, 1);
    t_sswap(50, 1, 1);
    t_sswap(22, 2, -3);
    t_sswap(22, -1, 1);
    t_sswap(13, -2, -2);
    t_sswap(1000, 1, 1);

    /* sasum: n = 0 and incx <= 0 return 0 */
    t_sasum(0, 1);
    t_sasum(12, 0);
    t_sasum(12, -1);
    t_sasum(1, 1);
    t_sasum(37, 1);
    t_sasum(29, 3);
    t_sasum(1000, 1);

    /* sgemv: both layouts x N/T/C, lda larger than needed, negative increments,
     * beta = other / 1 / 0 (y pre-filled with NaN) */
    for (int l = 0; l < 2; l++) {
        for (int t = 0; t < 3; t++) {
            t_sgemv(layouts[l], ops[t], 37, 29, 3, 1, 1, 0.75f, 0.5f, 0, 0);
            t_sgemv(layouts[l], ops[t], 37, 29, 0, -2, 3, -1.25f, 1.0f, 0, 0);
            t_sgemv(layouts[l], ops[t], 37, 29, 5, 2, -1, 1.0f, 0.0f, 1, 0);
        }
    }
    /* alpha = 0: y = beta*y without reading A or x (NaN there) */
    t_sgemv(CblasColMajor, CblasNoTrans, 13, 7, 1, 1, 1, 0.0f, -1.5f, 0, 1);
    t_sgemv(CblasRowMajor, CblasTrans, 13, 7, 0, 1, -1, 0.0f, 0.0f, 1, 1);
    /* alpha = 0, beta = 1 and m = 0 / n = 0: quick returns, y untouched (even
     * with trans = T, where y has n elements) */
    t_sgemv(CblasColMajor, CblasTrans, 13, 7, 0, 1, 1, 0.0f, 1.0f, 0, 1);
    t_sgemv(CblasColMajor, CblasTrans, 0, 5, 0, 1, 1, 1.0f, 2.0f, 0, 0);
    t_sgemv(CblasRowMajor, CblasNoTrans, 6, 0, 0, 1, 1, 1.0f, 2.0f, 0, 0);
    /* 1 x 1 and a larger one */
    t_sgemv(CblasColMajor, CblasNoTrans, 1, 1, 0, 1, 1, 2.0f, 0.5f, 0, 0);
    t_sgemv(CblasRowMajor, CblasNoTrans, 300, 257, 2, 1, 1, 1.0f, 0.0f, 1, 0);

    /* sgemm: both layouts x all four N/T combinations on m = 37, n = 29, k = 45
     * with padded lda/ldb/ldc, beta = 0 (C pre-filled with NaN) / 1 / other */
    {
        const enum CBLAS_TRANSPOSE nt[2] = {CblasNoTrans, CblasTrans};
        const float betas[4] = {0.0f, 1.0f, -0.6f, 0.5f};
        const float alphas[4] = {0.8f, -1.25f, 1.0f, 2.0f};
        for (int l = 0; l < 2; l++)
            for (int q = 0; q < 4; q++)
                t_sgemm(layouts[l], nt[q / 2], nt[q % 2], 37, 29, 45, 2, 3, 1, alphas[q], betas[q],
                        betas[q] == 0.0f, 0);
    }
    /* ConjTrans (= Trans for real data) */
    t_sgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, 37, 29, 45, 1, 0, 2, 1.1f, 0.3f, 0, 0);
    t_sgemm(CblasRowMajor, CblasTrans, CblasConjTrans, 20, 11, 9, 0, 2, 0, -0.9f, 0.0f, 1, 0);
    /* 1 x 1 x 1 */
    t_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, 0, 0, 0, 1.5f, 0.25f, 0, 0);
    t_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 1, 1, 1, 1, 1, 1, -2.0f, 0.0f, 1, 0);
    /* k = 0: C = beta*C (A and B empty) */
    t_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 7, 5, 0, 0, 0, 1, 2.0f, 0.5f, 0, 0);
    t_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, 6, 9, 0, 0, 0, 0, 1.0f, 0.0f, 1, 0);
    /* alpha = 0: C = beta*C without reading A or B (NaN there) */
    t_sgemm(CblasColMajor, CblasTrans, CblasNoTrans, 13, 11, 17, 1, 2, 3, 0.0f, -1.5f, 0, 1);
    t_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 9, 8, 7, 0, 0, 0, 0.0f, 0.0f, 1, 1);
    /* quick returns: m = 0, n = 0, alpha = 0 with beta = 1: C untouched */
    t_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 0, 5, 3, 0, 0, 0, 1.0f, 2.0f, 0, 0);
    t_sgemm(CblasRowMajor, CblasTrans, CblasTrans, 4, 0, 3, 0, 0, 0, 1.0f, 2.0f, 0, 0);
    t_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, 5, 6, 7, 0, 0, 0, 0.0f, 1.0f, 0, 1);
    /* a larger one (several tiles on a GPU) */
    t_sgemm(CblasColMajor, CblasNoTrans, CblasTrans, 130, 97, 70, 3, 0, 5, 1.0f, 0.0f, 1, 0);
    t_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, 65, 129, 66, 0, 1, 0, 0.5f, 1.0f, 0, 0);

    printf("summary checks=%d failures=%d\n", n_checks, n_fail);
    return n_fail == 0 ? 0 : 1;
}
