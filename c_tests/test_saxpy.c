/*
 * test_saxpy.c - glblasSaxpy against the reference sequential loop.
 * - sizes 1 .. 100003, increments positive, negative and zero (incx == 0:
 *   x[0] for every i; incy == 0: every term accumulates into y[0]);
 * - x and y on host/device in all 4 combinations, interior device pointers;
 * - elements of y between the strided ones stay untouched;
 * - alpha == 0 quick return: y untouched even though x holds NaN;
 * - n <= 0 quick return (pointers may be NULL), y untouched;
 * - x == y (the same buffer) and overlapping ranges of one buffer, on the
 *   host and on the device, compared with the sequential loop applied to a
 *   host shadow copy (ref_saxpy_seq in check.h, which also derives the
 *   tolerance).
 */
#include "check.h"

enum { X_DEV = 1, Y_DEV = 2 };

/* saxpy on two separate buffers: x at xoff in a buffer of xlen floats, y at
 * yoff in a buffer of ylen floats; the buffers hold random data around the
 * vectors, which must stay untouched. */
static void run_separate(rng_t *rng, int n, float alpha, int incx, int incy, unsigned where, size_t xoff,
                         size_t yoff)
{
    char label[200];
    size_t xlen = xoff + vspan(n, incx) + 3, ylen = yoff + vspan(n, incy) + 3;
    float *hx = (float *)xmalloc(xlen * sizeof(float)), *hy = (float *)xmalloc(ylen * sizeof(float));
    float *x0, *dx = NULL, *dy = NULL;
    double *xv, *xe, *yv, *ye;
    glblasStatus_t st;

    fill_rand(rng, hx, xlen);
    fill_rand(rng, hy, ylen);
    x0 = fdup(hx, xlen);
    shadow_init(hx, xlen, &xv, &xe);
    shadow_init(hy, ylen, &yv, &ye);
    ref_saxpy_seq(n, alpha, xv + xoff, xe + xoff, incx, yv + yoff, ye + yoff, incy);

    snprintf(label, sizeof label, "saxpy n=%d alpha=%g incx=%d incy=%d x:%s%s y:%s%s", n, (double)alpha, incx,
             incy, (where & X_DEV) ? "dev" : "host", xoff ? "+off" : "", (where & Y_DEV) ? "dev" : "host",
             yoff ? "+off" : "");

    if (where & X_DEV)
        dx = dev_upload(hx, xlen);
    if (where & Y_DEV)
        dy = dev_upload(hy, ylen);
    st = glblasSaxpy(n, alpha, (dx ? dx : hx) + xoff, incx, (dy ? dy : hy) + yoff, incy);
    if (succeeded(label, st)) {
        char sub[260];
        if (dy)
            dev_read(hy, dy, ylen);
        check_shadow(label, hy, yv, ye, ylen);
        if (dx)
            dev_read(hx, dx, xlen);
        snprintf(sub, sizeof sub, "%s [x unchanged]", label);
        check_bits_equal(sub, hx, x0, xlen);
    }
    dev_free(dx);
    dev_free(dy);
    free(hx);
    free(hy);
    free(x0);
    free(xv);
    free(xe);
    free(yv);
    free(ye);
}

/* saxpy within ONE buffer of len floats: x at xoff, y at yoff (equal offsets
 * and increments give x == y; otherwise the ranges may overlap). */
static void run_aliased(rng_t *rng, int n, float alpha, size_t len, size_t xoff, int incx, size_t yoff,
                        int incy, int on_dev)
{
    char label[200];
    float *h = (float *)xmalloc(len * sizeof(float));
    float *d = NULL;
    double *v, *e;
    glblasStatus_t st;

    fill_rand(rng, h, len);
    shadow_init(h, len, &v, &e);
    ref_saxpy_seq(n, alpha, v + xoff, e + xoff, incx, v + yoff, e + yoff, incy);
    snprintf(label, sizeof label, "saxpy same buffer (%s) n=%d alpha=%g x=buf+%lu incx=%d y=buf+%lu incy=%d",
             on_dev ? "dev" : "host", n, (double)alpha, (unsigned long)xoff, incx, (unsigned long)yoff, incy);
    if (on_dev) {
        d = dev_upload(h, len);
        st = glblasSaxpy(n, alpha, d + xoff, incx, d + yoff, incy);
    } else {
        st = glblasSaxpy(n, alpha, h + xoff, incx, h + yoff, incy);
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

static void check_untouched_quick_return(rng_t *rng)
{
    enum { N = 37 };
    float hx[N], hy[N], y0[N];
    float *dx, *dy;
    int w;

    /* alpha == 0: quick return, y untouched even with NaN / Inf in x */
    fill_const(hx, N, NAN);
    hx[3] = (float)INFINITY;
    fill_rand(rng, hy, N);
    memcpy(y0, hy, sizeof hy);
    dx = dev_upload(hx, N);
    dy = dev_upload(hy, N);
    for (w = 0; w < 4; ++w) {
        char label[120];
        const float *px = (w & X_DEV) ? dx : hx;
        float *py = (w & Y_DEV) ? dy : hy;
        float got[N];
        snprintf(label, sizeof label, "saxpy alpha=0 (x NaN) x:%s y:%s: y", (w & X_DEV) ? "dev" : "host",
                 (w & Y_DEV) ? "dev" : "host");
        CHECK_OK(glblasSaxpy(N, 0.0f, px, 1, py, 1));
        CHECK_OK(glblasSaxpy(N, -0.0f, px, -2 + 3 * (w & 1), py, 1)); /* -0.0 == 0 too */
        if (w & Y_DEV)
            dev_read(got, dy, N);
        else
            memcpy(got, hy, sizeof got);
        check_bits_equal(label, got, y0, N);
    }

    /* n <= 0: quick return, y untouched; pointers may be NULL */
    fill_rand(rng, hx, N);
    dev_write(dx, hx, N);
    for (w = 0; w < 4; ++w) {
        char label[120];
        const float *px = (w & X_DEV) ? dx : hx;
        float *py = (w & Y_DEV) ? dy : hy;
        float got[N];
        snprintf(label, sizeof label, "saxpy n<=0 x:%s y:%s: y", (w & X_DEV) ? "dev" : "host",
                 (w & Y_DEV) ? "dev" : "host");
        CHECK_OK(glblasSaxpy(0, 1.0f, px, 1, py, 1));
        CHECK_OK(glblasSaxpy(-5, 1.0f, px, 1, py, 1));
        CHECK_OK(glblasSaxpy(0, 2.0f, px, -1, py, 0));
        if (w & Y_DEV)
            dev_read(got, dy, N);
        else
            memcpy(got, hy, sizeof got);
        check_bits_equal(label, got, y0, N);
    }
    CHECK_OK(glblasSaxpy(0, 1.0f, NULL, 1, NULL, 1));
    CHECK_OK(glblasSaxpy(-1, 1.0f, NULL, 1, NULL, 1));
    CHECK_OK(glblasSaxpy(0, 1.0f, hx, 1, NULL, 1));
    dev_free(dx);
    dev_free(dy);
}

int main(void)
{
    static const int sizes[] = { 1, 2, 3, 7, 31, 64, 1000, 4097 };
    static const int incs[][2] = { { 1, 1 }, { 2, 3 }, { -1, 1 }, { 1, -2 }, { -3, -2 }, { 0, 1 }, { 1, 0 }, { 0, 0 },
                                   { -2, 0 }, { 0, -1 } };
    static const float alphas[] = { 1.0f, -0.5f, 2.25f };
    rng_t rng = rng_seed(4242);
    int s, i, w, c = 0;

    CHECK_OK(glblasInit());

    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s)
        for (i = 0; i < (int)(sizeof incs / sizeof incs[0]); ++i)
            for (w = 0; w < 4; ++w, ++c)
                run_separate(&rng, sizes[s], alphas[c % 3], incs[i][0], incs[i][1], (unsigned)w, 0, 0);

    /* interior pointers (offsets into larger buffers) */
    for (w = 0; w < 4; ++w) {
        run_separate(&rng, 100, -0.5f, 1, 1, (unsigned)w, 5, 17);
        run_separate(&rng, 33, 1.0f, -2, 3, (unsigned)w, 11, 1);
    }

    /* large vectors */
    run_separate(&rng, 100003, 0.75f, 1, 1, X_DEV | Y_DEV, 0, 0);
    run_separate(&rng, 65537, -1.5f, 1, 1, 0, 0, 0);
    run_separate(&rng, 65537, 1.0f, -1, 2, X_DEV | Y_DEV, 3, 0);

    check_untouched_quick_return(&rng);

    /* x == y, the same buffer: y = (1 + alpha) y; with opposite increments
     * the loop reads elements it has already written */
    for (w = 0; w < 2; ++w) {
        run_aliased(&rng, 50, 0.5f, 50, 0, 1, 0, 1, w);
        run_aliased(&rng, 25, -1.5f, 60, 0, 2, 0, 2, w);
        run_aliased(&rng, 30, 0.25f, 30, 0, -1, 0, -1, w);
        run_aliased(&rng, 30, 0.75f, 30, 0, 1, 0, -1, w);
        run_aliased(&rng, 4096, 1.0f, 4096, 0, 1, 0, 1, w);
        run_aliased(&rng, 9, 2.0f, 9, 0, 0, 0, 1, w);  /* x = y[0] for every i */
        run_aliased(&rng, 9, 2.0f, 9, 0, 1, 0, 0, w);  /* y[0] += alpha*y[i] */
    }

    /* overlapping ranges of one buffer */
    for (w = 0; w < 2; ++w) {
        run_aliased(&rng, 40, 0.5f, 41, 0, 1, 1, 1, w);     /* y one ahead of x: a recurrence */
        run_aliased(&rng, 40, 0.5f, 41, 1, 1, 0, 1, w);     /* y one behind x */
        run_aliased(&rng, 20, -0.75f, 45, 0, 2, 3, 1, w);   /* different increments */
        run_aliased(&rng, 20, 1.25f, 45, 2, -1, 0, 2, w);   /* negative incx */
        run_aliased(&rng, 20, 0.5f, 60, 5, -2, 0, -3, w);   /* both negative */
        run_aliased(&rng, 1000, -0.5f, 1500, 0, 1, 500, 1, w);
        run_aliased(&rng, 1000, 0.5f, 1003, 3, 1, 0, 1, w);
        run_aliased(&rng, 64, 1.0f, 130, 0, 1, 1, 2, w);
    }

    CHECK_OK(glblasSync());
    return check_finish("test_saxpy");
}
