/*
 * test_level1_more.c - glblasSscal, glblasScopy, glblasSswap and glblasSasum.
 *
 * sscal (x := alpha*x):
 * - sizes 1 .. 100003, incx 1, 2, 5; x on the host and on the device, at the
 *   start of its buffer and at an interior (device) address; the buffer holds
 *   random data around / between the strided elements, which must come back
 *   bit-identical;
 * - incx <= 0 and n <= 0 do nothing (x untouched; x may be NULL then);
 * - alpha == 0 multiplies: NaN and Inf become / stay NaN, finite values 0;
 *   NaN and Inf in x with alpha == -2 stay NaN / become -Inf, +Inf;
 * - x NULL with n > 0 and incx > 0: INVALID_VALUE.
 * scopy (y := x) and sswap (x <-> y):
 * - sizes 1 .. 65537, increments positive, negative (element i is
 *   x[(n-1-i)*|inc|]) and zero (scopy: incx = 0 copies x[0] everywhere,
 *   incy = 0 leaves y[0] = x(n-1); sswap likewise per the sequential loop);
 *   x and y on host / device in all 4 combinations, interior pointers;
 * - x == y (the same pointer) and overlapping ranges of one buffer, on the
 *   host and on the device;
 * - every result is compared with the reference sequential loop run on a
 *   host copy (ref_scopy_seq / ref_sswap_seq in check.h): no arithmetic is
 *   involved, so the whole buffers (vectors and the gaps between / around the
 *   strided elements) must match exactly;
 * - special values (-0, +-Inf, NaN) are copied / swapped as they are;
 * - n <= 0 quick return (pointers may be NULL), buffers untouched;
 * - NULL x or y with n > 0: INVALID_VALUE, the other operand untouched.
 * sasum (*result := sum |x_i|):
 * - sizes 1 .. 100003, incx 1, 2, 7; x and result each on host or device
 *   (result at an interior device address whose neighbours must stay
 *   untouched), x and result in one device allocation;
 * - n <= 0 or incx <= 0: *result = 0 (host and device result);
 * - result NULL: INVALID_VALUE; x NULL with n > 0: INVALID_VALUE, *result
 *   untouched.
 * Tolerances: sscal one correctly rounded fp32 product per element,
 * |fl(alpha*x) - alpha*x| <= u*|alpha*x|, checked as BOUND_FACTOR*u*|alpha*x|;
 * sasum BOUND_FACTOR*n*u*sum|x_i| (derived at ref_sasum in check.h).
 */
#include "check.h"

enum { X_DEV = 1, Y_DEV = 2, R_DEV = 4 };

static const char *where_name(int dev) { return dev ? "dev" : "host"; }

/* ------------------------------------------------------------------------ */
/* sscal                                                                      */
/* ------------------------------------------------------------------------ */

static void run_scal(rng_t *rng, int n, float alpha, int incx, int on_dev, size_t off)
{
    char label[200];
    size_t len = off + vspan(n, incx) + 3;
    float *h = (float *)xmalloc(len * sizeof(float));
    float *d = NULL;
    double *v, *e;
    glblasStatus_t st;
    int i;

    fill_rand(rng, h, len);
    shadow_init(h, len, &v, &e);
    /* expected: alpha*x on the strided elements (one fp32 rounding, see the
     * file comment), everything else unchanged (e == 0: bit-identical);
     * incx <= 0 or n <= 0: nothing changes at all */
    if (n > 0 && incx > 0) {
        for (i = 0; i < n; ++i) {
            size_t k = off + (size_t)i * (size_t)incx;
            double p = (double)alpha * v[k];
            v[k] = p;
            e[k] = BOUND_FACTOR * FP32_U * fabs(p);
        }
    }
    snprintf(label, sizeof label, "sscal n=%d alpha=%g incx=%d x:%s%s", n, (double)alpha, incx, where_name(on_dev),
             off ? "+off" : "");
    if (on_dev) {
        d = dev_upload(h, len);
        st = glblasSscal(n, alpha, d + off, incx);
    } else {
        st = glblasSscal(n, alpha, h + off, incx);
    }
    if (succeeded(label, st)) {
        if (d)
            dev_read(h, d, len);
        check_shadow(label, h, v, e, len);
    }
    dev_free(d);
    free(h);
    free(v);
    free(e);
}

/* NaN / Inf in x: the reference sscal multiplies every element, so with
 * alpha == 0 NaN and Inf give NaN (0*Inf), finite values give (signed) 0;
 * with alpha == -2 (exact scaling) NaN stays NaN and Inf flips sign. The
 * expected values are computed by the same fp32 products on the host, which
 * are exact here; values are compared (NaN matches NaN, 0 matches -0), the
 * gaps (incx == 2) bit for bit. */
static void check_scal_special(void)
{
    enum { N = 9, LEN = 2 * N + 1 };
    static const float alphas[] = { 0.0f, -0.0f, -2.0f };
    float vals[N];
    int a, w, inc;

    vals[0] = 1.0f;
    vals[1] = NAN;
    vals[2] = -0.5f;
    vals[3] = (float)INFINITY;
    vals[4] = -(float)INFINITY;
    vals[5] = 0.0f;
    vals[6] = -0.0f;
    vals[7] = 0.75f;
    vals[8] = NAN;
    for (a = 0; a < 3; ++a) {
        for (w = 0; w < 2; ++w) {
            for (inc = 1; inc <= 2; ++inc) {
                float h[LEN], want[LEN];
                float *d = NULL;
                char label[160];
                int i;
                glblasStatus_t st;
                fill_const(h, LEN, SENTINEL);
                for (i = 0; i < N; ++i)
                    h[i * inc] = vals[i];
                memcpy(want, h, sizeof h);
                for (i = 0; i < N; ++i)
                    want[i * inc] = alphas[a] * vals[i];
                snprintf(label, sizeof label, "sscal special values alpha=%g incx=%d x:%s", (double)alphas[a], inc,
                         where_name(w));
                if (w) {
                    d = dev_upload(h, LEN);
                    st = glblasSscal(N, alphas[a], d, inc);
                } else {
                    st = glblasSscal(N, alphas[a], h, inc);
                }
                if (succeeded(label, st)) {
                    if (d)
                        dev_read(h, d, LEN);
                    for (i = 0; i < LEN; ++i) {
                        int ok = isnan(want[i]) ? isnan(h[i]) : h[i] == want[i];
                        if (i % inc != 0 || i >= N * inc) /* a gap: bit-identical */
                            ok = memcmp(&h[i], &want[i], sizeof(float)) == 0;
                        CHECK(ok, "%s: element %d: expected %.9g, got %.9g", label, i, (double)want[i],
                              (double)h[i]);
                    }
                }
                dev_free(d);
            }
        }
    }
}

static void check_scal_noop_and_invalid(rng_t *rng)
{
    enum { N = 23 };
    float h[N], h0[N], got[N];
    float *d;
    int w;

    fill_rand(rng, h, N);
    memcpy(h0, h, sizeof h);
    d = dev_upload(h, N);
    for (w = 0; w < 2; ++w) {
        float *p = w ? d : h;
        char label[120];
        /* n <= 0 or incx <= 0: nothing happens (reference BLAS) */
        CHECK_OK(glblasSscal(0, 2.0f, p, 1));
        CHECK_OK(glblasSscal(-4, 2.0f, p, 1));
        CHECK_OK(glblasSscal(N, 2.0f, p, 0));
        CHECK_OK(glblasSscal(N, 2.0f, p, -1));
        CHECK_OK(glblasSscal(5, 0.5f, p, -3));
        CHECK_OK(glblasSscal(N, 0.0f, p, 0));
        CHECK_OK(glblasSscal(N, NAN, p, -1));
        /* x NULL with n > 0, incx > 0: INVALID_VALUE (p itself untouched) */
        CHECK_INVALID(glblasSscal(N, 2.0f, NULL, 1));
        CHECK_INVALID(glblasSscal(1, 2.0f, NULL, 3));
        if (w)
            dev_read(got, d, N);
        else
            memcpy(got, h, sizeof got);
        snprintf(label, sizeof label, "sscal n<=0 / incx<=0 no-op x:%s", where_name(w));
        check_bits_equal(label, got, h0, N);
    }
    /* x may be NULL when nothing is done */
    CHECK_OK(glblasSscal(0, 2.0f, NULL, 1));
    CHECK_OK(glblasSscal(-1, 2.0f, NULL, 1));
    CHECK_OK(glblasSscal(5, 2.0f, NULL, 0));
    CHECK_OK(glblasSscal(5, 2.0f, NULL, -2));
    dev_free(d);
}

/* ------------------------------------------------------------------------ */
/* scopy / sswap                                                              */
/* ------------------------------------------------------------------------ */

static glblasStatus_t call_copy_swap(int swap, int n, float *x, int incx, float *y, int incy)
{
    return swap ? glblasSswap(n, x, incx, y, incy) : glblasScopy(n, x, incx, y, incy);
}

/* scopy / sswap on two separate buffers (random data around the vectors);
 * `special` puts -0, +-Inf and NaN among the data. */
static void run_copy_swap(rng_t *rng, int swap, int n, int incx, int incy, unsigned where, size_t xoff,
                          size_t yoff, int special)
{
    char label[220], sub[260];
    size_t xlen = xoff + vspan(n, incx) + 3, ylen = yoff + vspan(n, incy) + 3;
    float *hx = (float *)xmalloc(xlen * sizeof(float)), *hy = (float *)xmalloc(ylen * sizeof(float));
    float *wx, *wy, *dx = NULL, *dy = NULL;
    glblasStatus_t st;

    fill_rand(rng, hx, xlen);
    fill_rand(rng, hy, ylen);
    if (special) {
        size_t i;
        static const float specials[4] = { -0.0f, (float)INFINITY, -(float)INFINITY, NAN };
        for (i = 0; i < xlen; i += 2)
            hx[i] = specials[(i / 2) % 4];
        for (i = 1; i < ylen; i += 2)
            hy[i] = specials[(i / 2 + 1) % 4];
    }
    wx = fdup(hx, xlen);
    wy = fdup(hy, ylen);
    if (swap)
        ref_sswap_seq(n, wx + xoff, incx, wy + yoff, incy);
    else
        ref_scopy_seq(n, wx + xoff, incx, wy + yoff, incy);
    snprintf(label, sizeof label, "%s n=%d incx=%d incy=%d x:%s%s y:%s%s%s", swap ? "sswap" : "scopy", n, incx, incy,
             where_name(where & X_DEV), xoff ? "+off" : "", where_name(where & Y_DEV), yoff ? "+off" : "",
             special ? " (-0, Inf, NaN data)" : "");

    if (where & X_DEV)
        dx = dev_upload(hx, xlen);
    if (where & Y_DEV)
        dy = dev_upload(hy, ylen);
    st = call_copy_swap(swap, n, (dx ? dx : hx) + xoff, incx, (dy ? dy : hy) + yoff, incy);
    if (succeeded(label, st)) {
        if (dx)
            dev_read(hx, dx, xlen);
        if (dy)
            dev_read(hy, dy, ylen);
        snprintf(sub, sizeof sub, "%s [x buffer]", label);
        check_floats_same(sub, hx, wx, xlen);
        snprintf(sub, sizeof sub, "%s [y buffer]", label);
        check_floats_same(sub, hy, wy, ylen);
    }
    dev_free(dx);
    dev_free(dy);
    free(hx);
    free(hy);
    free(wx);
    free(wy);
}

/* scopy / sswap within ONE buffer of len floats: x at xoff, y at yoff (equal
 * offsets and increments give x == y; otherwise the ranges may overlap). */
static void run_copy_swap_aliased(rng_t *rng, int swap, int n, size_t len, size_t xoff, int incx, size_t yoff,
                                  int incy, int on_dev)
{
    char label[220];
    float *h = (float *)xmalloc(len * sizeof(float));
    float *want, *d = NULL;
    glblasStatus_t st;

    fill_rand(rng, h, len);
    want = fdup(h, len);
    if (swap)
        ref_sswap_seq(n, want + xoff, incx, want + yoff, incy);
    else
        ref_scopy_seq(n, want + xoff, incx, want + yoff, incy);
    snprintf(label, sizeof label, "%s same buffer (%s) n=%d x=buf+%lu incx=%d y=buf+%lu incy=%d",
             swap ? "sswap" : "scopy", where_name(on_dev), n, (unsigned long)xoff, incx, (unsigned long)yoff, incy);
    if (on_dev) {
        d = dev_upload(h, len);
        st = call_copy_swap(swap, n, d + xoff, incx, d + yoff, incy);
    } else {
        st = call_copy_swap(swap, n, h + xoff, incx, h + yoff, incy);
    }
    if (succeeded(label, st)) {
        if (d)
            dev_read(h, d, len);
        check_floats_same(label, h, want, len);
    }
    dev_free(d);
    free(h);
    free(want);
}

static void check_copy_swap_quick_and_invalid(rng_t *rng)
{
    enum { N = 29 };
    float hx[N], hy[N], x0[N], y0[N], got[N];
    float *dx, *dy;
    int w, swap;

    fill_rand(rng, hx, N);
    fill_rand(rng, hy, N);
    memcpy(x0, hx, sizeof hx);
    memcpy(y0, hy, sizeof hy);
    dx = dev_upload(hx, N);
    dy = dev_upload(hy, N);
    for (swap = 0; swap < 2; ++swap) {
        const char *fn = swap ? "sswap" : "scopy";
        for (w = 0; w < 4; ++w) {
            float *px = (w & X_DEV) ? dx : hx, *py = (w & Y_DEV) ? dy : hy;
            char label[160];
            /* n <= 0: quick return, nothing touched */
            CHECK_OK(call_copy_swap(swap, 0, px, 1, py, 1));
            CHECK_OK(call_copy_swap(swap, -3, px, 1, py, 1));
            CHECK_OK(call_copy_swap(swap, 0, px, -1, py, 0));
            CHECK_OK(call_copy_swap(swap, -1, px, 0, py, 2));
            /* NULL x or y with n > 0: INVALID_VALUE, the other operand untouched */
            CHECK_INVALID(call_copy_swap(swap, N, NULL, 1, py, 1));
            CHECK_INVALID(call_copy_swap(swap, N, px, 1, NULL, 1));
            CHECK_INVALID(call_copy_swap(swap, 3, NULL, -1, py, 2));
            CHECK_INVALID(call_copy_swap(swap, 3, px, 0, NULL, 0));
            if (w & X_DEV)
                dev_read(got, dx, N);
            else
                memcpy(got, hx, sizeof got);
            snprintf(label, sizeof label, "%s n<=0 / NULL operand x:%s y:%s: x", fn, where_name(w & X_DEV),
                     where_name(w & Y_DEV));
            check_bits_equal(label, got, x0, N);
            if (w & Y_DEV)
                dev_read(got, dy, N);
            else
                memcpy(got, hy, sizeof got);
            snprintf(label, sizeof label, "%s n<=0 / NULL operand x:%s y:%s: y", fn, where_name(w & X_DEV),
                     where_name(w & Y_DEV));
            check_bits_equal(label, got, y0, N);
        }
        /* n <= 0: the pointers may be NULL */
        CHECK_OK(call_copy_swap(swap, 0, NULL, 1, NULL, 1));
        CHECK_OK(call_copy_swap(swap, -2, NULL, 1, NULL, 1));
        CHECK_OK(call_copy_swap(swap, 0, hx, 1, NULL, 1));
        CHECK_OK(call_copy_swap(swap, 0, NULL, 1, dy, 1));
        CHECK_INVALID(call_copy_swap(swap, 1, NULL, 1, NULL, 1));
    }
    dev_free(dx);
    dev_free(dy);
}

/* ------------------------------------------------------------------------ */
/* sasum                                                                      */
/* ------------------------------------------------------------------------ */

static void run_asum(rng_t *rng, int n, int incx, unsigned where, size_t xoff)
{
    char label[200], sub[260];
    size_t xlen = xoff + vspan(n, incx) + 2;
    float *hx = (float *)xmalloc(xlen * sizeof(float));
    float *x0, *dx = NULL, *dres = NULL;
    float res = SENTINEL, rbuf[5];
    double exact, tol;
    glblasStatus_t st;

    fill_rand(rng, hx, xlen);
    x0 = fdup(hx, xlen);
    ref_sasum(n, hx + xoff, incx, &exact, &tol);
    snprintf(label, sizeof label, "sasum n=%d incx=%d x:%s%s result:%s", n, incx, where_name(where & X_DEV),
             xoff ? "+off" : "", (where & R_DEV) ? "dev+2" : "host");
    if (where & X_DEV)
        dx = dev_upload(hx, xlen);
    if (where & R_DEV) {
        fill_const(rbuf, 5, SENTINEL);
        dres = dev_upload(rbuf, 5);
    }
    st = glblasSasum(n, (dx ? dx : hx) + xoff, incx, dres ? dres + 2 : &res);
    if (succeeded(label, st)) {
        if (dres) {
            float want[5];
            dev_read(rbuf, dres, 5);
            res = rbuf[2];
            fill_const(want, 5, SENTINEL);
            want[2] = rbuf[2];
            snprintf(sub, sizeof sub, "%s [device result neighbours]", label);
            check_bits_equal(sub, rbuf, want, 5);
        }
        check_close(label, (double)res, exact, tol);
        if (dx)
            dev_read(hx, dx, xlen);
        snprintf(sub, sizeof sub, "%s [x unchanged]", label);
        check_bits_equal(sub, hx, x0, xlen);
    }
    dev_free(dx);
    dev_free(dres);
    free(hx);
    free(x0);
}

/* x and the result in one device allocation: [sentinel, result, sentinel, x...] */
static void run_asum_one_alloc(rng_t *rng, int n, int incx)
{
    char label[160];
    size_t xlen = vspan(n, incx), len = 3 + xlen;
    float *h = (float *)xmalloc(len * sizeof(float));
    float *want = (float *)xmalloc(len * sizeof(float));
    float *d;
    double exact, tol;

    fill_rand(rng, h, len);
    h[0] = h[1] = h[2] = SENTINEL;
    memcpy(want, h, len * sizeof(float));
    ref_sasum(n, h + 3, incx, &exact, &tol);
    snprintf(label, sizeof label, "sasum n=%d incx=%d, x and result in one device allocation", n, incx);
    d = dev_upload(h, len);
    if (succeeded(label, glblasSasum(n, d + 3, incx, d + 1))) {
        char sub[200];
        dev_read(h, d, len);
        check_close(label, (double)h[1], exact, tol);
        want[1] = h[1];
        snprintf(sub, sizeof sub, "%s [rest of the buffer unchanged]", label);
        check_bits_equal(sub, h, want, len);
    }
    dev_free(d);
    free(h);
    free(want);
}

static void check_asum_zero_and_invalid(rng_t *rng)
{
    enum { N = 17 };
    float hx[N], x0[N], res, rbuf[3];
    float *dx, *dres;
    int w, k;
    static const int cases[][2] = { { 0, 1 }, { -2, 1 }, { N, 0 }, { N, -1 }, { 3, -5 }, { -1, 0 } };

    fill_rand(rng, hx, N);
    memcpy(x0, hx, sizeof hx);
    dx = dev_upload(hx, N);
    fill_const(rbuf, 3, SENTINEL);
    dres = dev_upload(rbuf, 3);
    for (w = 0; w < 2; ++w) {
        const float *px = w ? dx : hx;
        /* n <= 0 or incx <= 0: *result = 0 (host result and device result) */
        for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); ++k) {
            int n = cases[k][0], inc = cases[k][1];
            res = SENTINEL;
            if (CHECK_OK(glblasSasum(n, px, inc, &res)))
                CHECK(res == 0.0f, "sasum n=%d incx=%d x:%s: *result expected 0, got %.9g", n, inc, where_name(w),
                      (double)res);
            fill_const(rbuf, 3, SENTINEL);
            dev_write(dres, rbuf, 3);
            if (CHECK_OK(glblasSasum(n, px, inc, dres + 1))) {
                dev_read(rbuf, dres, 3);
                CHECK(rbuf[1] == 0.0f, "sasum n=%d incx=%d x:%s, device result: expected 0, got %.9g", n, inc,
                      where_name(w), (double)rbuf[1]);
                CHECK(rbuf[0] == SENTINEL && rbuf[2] == SENTINEL,
                      "sasum n=%d incx=%d x:%s, device result: neighbours changed (%.9g, %.9g)", n, inc,
                      where_name(w), (double)rbuf[0], (double)rbuf[2]);
            }
        }
        /* result NULL: INVALID_VALUE */
        CHECK_INVALID(glblasSasum(N, px, 1, NULL));
        CHECK_INVALID(glblasSasum(0, px, 1, NULL));
        CHECK_INVALID(glblasSasum(N, px, 0, NULL));
    }
    CHECK_INVALID(glblasSasum(-1, NULL, 1, NULL));
    /* n <= 0: x may be NULL */
    res = SENTINEL;
    CHECK_OK(glblasSasum(0, NULL, 1, &res));
    CHECK(res == 0.0f, "sasum n=0 x=NULL: *result expected 0, got %.9g", (double)res);
    res = SENTINEL;
    CHECK_OK(glblasSasum(-3, NULL, 2, &res));
    CHECK(res == 0.0f, "sasum n=-3 x=NULL: *result expected 0, got %.9g", (double)res);
    /* x NULL with n > 0 (incx > 0): INVALID_VALUE, *result untouched */
    res = SENTINEL;
    CHECK_INVALID(glblasSasum(N, NULL, 1, &res));
    CHECK(res == SENTINEL, "invalid sasum x=NULL: *result must be untouched, got %.9g", (double)res);
    fill_const(rbuf, 3, SENTINEL);
    dev_write(dres, rbuf, 3);
    CHECK_INVALID(glblasSasum(N, NULL, 2, dres + 1));
    dev_read(rbuf, dres, 3);
    CHECK(rbuf[0] == SENTINEL && rbuf[1] == SENTINEL && rbuf[2] == SENTINEL,
          "invalid sasum x=NULL, device result: must be untouched, got %.9g %.9g %.9g", (double)rbuf[0],
          (double)rbuf[1], (double)rbuf[2]);
    /* x unchanged by all of the above */
    dev_read(hx, dx, N);
    check_bits_equal("sasum zero / invalid cases: device x", hx, x0, N);
    dev_free(dx);
    dev_free(dres);
}

int main(void)
{
    static const int scal_sizes[] = { 1, 2, 3, 31, 64, 1000, 4097 };
    static const int scal_incs[] = { 1, 2, 5, 0, -1, -3 };
    static const float alphas[] = { -0.5f, 3.0f, 0.3f, 0.0f, 1.0f };
    static const int cs_sizes[] = { 1, 2, 7, 64, 1000, 4097 };
    static const int cs_incs[][2] = { { 1, 1 }, { 2, 3 }, { -1, 1 }, { 1, -2 }, { -3, -2 },
                                      { 0, 1 }, { 1, 0 }, { 0, 0 }, { -2, 0 }, { 0, -1 } };
    static const int asum_sizes[] = { 1, 2, 3, 7, 31, 64, 257, 1000, 4097 };
    static const int asum_incs[] = { 1, 2, 7, -1, 0 };
    rng_t rng = rng_seed(2718);
    int s, i, w, swap, c = 0;

    CHECK_OK(glblasInit());

    /* ---- sscal ---- */
    for (s = 0; s < (int)(sizeof scal_sizes / sizeof scal_sizes[0]); ++s)
        for (i = 0; i < (int)(sizeof scal_incs / sizeof scal_incs[0]); ++i)
            for (w = 0; w < 2; ++w, ++c)
                run_scal(&rng, scal_sizes[s], alphas[c % 5], scal_incs[i], w, 0);
    for (w = 0; w < 2; ++w) { /* interior pointers */
        run_scal(&rng, 100, -1.25f, 1, w, 7);
        run_scal(&rng, 33, 0.5f, 3, w, 13);
    }
    run_scal(&rng, 100003, 0.75f, 1, 1, 0);
    run_scal(&rng, 65537, -3.5f, 2, 1, 5);
    run_scal(&rng, 65537, 1.5f, 1, 0, 0);
    check_scal_special();
    check_scal_noop_and_invalid(&rng);

    /* ---- scopy / sswap, separate buffers ---- */
    for (swap = 0; swap < 2; ++swap) {
        for (s = 0; s < (int)(sizeof cs_sizes / sizeof cs_sizes[0]); ++s)
            for (i = 0; i < (int)(sizeof cs_incs / sizeof cs_incs[0]); ++i)
                for (w = 0; w < 4; ++w)
                    run_copy_swap(&rng, swap, cs_sizes[s], cs_incs[i][0], cs_incs[i][1], (unsigned)w, 0, 0, 0);
        for (w = 0; w < 4; ++w) {
            /* interior pointers */
            run_copy_swap(&rng, swap, 100, 1, 1, (unsigned)w, 5, 17, 0);
            run_copy_swap(&rng, swap, 33, -2, 3, (unsigned)w, 11, 1, 0);
            /* special values are moved as they are */
            run_copy_swap(&rng, swap, 40, 1, 1, (unsigned)w, 0, 0, 1);
            run_copy_swap(&rng, swap, 20, 2, -1, (unsigned)w, 3, 0, 1);
        }
        run_copy_swap(&rng, swap, 65537, 1, 1, X_DEV | Y_DEV, 0, 0, 0);
        run_copy_swap(&rng, swap, 65537, -1, 2, X_DEV, 3, 0, 0);
    }

    /* ---- scopy / sswap within one buffer (host and device) ---- */
    for (swap = 0; swap < 2; ++swap) {
        for (w = 0; w < 2; ++w) {
            /* x == y, the same pointer */
            run_copy_swap_aliased(&rng, swap, 50, 50, 0, 1, 0, 1, w);
            run_copy_swap_aliased(&rng, swap, 25, 60, 0, 2, 0, 2, w);
            run_copy_swap_aliased(&rng, swap, 30, 30, 0, -1, 0, -1, w);
            run_copy_swap_aliased(&rng, swap, 30, 30, 0, 1, 0, -1, w);  /* reverses, then back (swap) */
            run_copy_swap_aliased(&rng, swap, 31, 31, 0, -1, 0, 1, w);
            run_copy_swap_aliased(&rng, swap, 9, 9, 0, 0, 0, 1, w);     /* x = y[0] for every i */
            run_copy_swap_aliased(&rng, swap, 9, 9, 0, 1, 0, 0, w);     /* y = y[0] for every i */
            run_copy_swap_aliased(&rng, swap, 4096, 4096, 0, 1, 0, 1, w);
            /* overlapping ranges */
            run_copy_swap_aliased(&rng, swap, 40, 41, 0, 1, 1, 1, w);    /* y one ahead of x */
            run_copy_swap_aliased(&rng, swap, 40, 41, 1, 1, 0, 1, w);    /* y one behind x */
            run_copy_swap_aliased(&rng, swap, 20, 45, 0, 2, 3, 1, w);    /* different increments */
            run_copy_swap_aliased(&rng, swap, 20, 45, 2, -1, 0, 2, w);   /* negative incx */
            run_copy_swap_aliased(&rng, swap, 20, 60, 5, -2, 0, -3, w);  /* both negative */
            run_copy_swap_aliased(&rng, swap, 1000, 1500, 0, 1, 500, 1, w);
            run_copy_swap_aliased(&rng, swap, 1000, 1003, 3, 1, 0, 1, w);
            run_copy_swap_aliased(&rng, swap, 1000, 1003, 0, 1, 3, 1, w);
            run_copy_swap_aliased(&rng, swap, 64, 130, 0, 1, 1, 2, w);
            run_copy_swap_aliased(&rng, swap, 64, 130, 1, 2, 0, 1, w);
        }
    }
    check_copy_swap_quick_and_invalid(&rng);

    /* ---- sasum ---- */
    for (s = 0; s < (int)(sizeof asum_sizes / sizeof asum_sizes[0]); ++s)
        for (i = 0; i < (int)(sizeof asum_incs / sizeof asum_incs[0]); ++i)
            for (w = 0; w < 4; ++w)
                run_asum(&rng, asum_sizes[s], asum_incs[i], (unsigned)((w & 1) ? X_DEV : 0) | ((w & 2) ? R_DEV : 0),
                         0);
    for (w = 0; w < 4; ++w) /* interior x */
        run_asum(&rng, 100, 3, (unsigned)((w & 1) ? X_DEV : 0) | ((w & 2) ? R_DEV : 0), 9);
    run_asum(&rng, 100003, 1, X_DEV, 0);
    run_asum(&rng, 100003, 1, X_DEV | R_DEV, 4);
    run_asum(&rng, 65537, 3, 0, 0);
    run_asum_one_alloc(&rng, 1000, 1);
    run_asum_one_alloc(&rng, 77, 2);
    check_asum_zero_and_invalid(&rng);

    CHECK_OK(glblasSync());
    return check_finish("test_level1_more");
}
