/*
 * test_sdot.c - glblasSdot against a double-precision reference.
 * - sizes 1 .. 1000003, increments positive, negative (element i is
 *   x[(n-1-i)*|inc|]) and zero (x[0] for every i);
 * - x, y and result each on host or device (all 8 combinations), interior
 *   device pointers for x and y, result at an interior device address
 *   (neighbours must stay untouched);
 * - x == y (same pointer) and overlapping ranges of one device buffer;
 * - x, y and the result in one device allocation;
 * - n <= 0: SUCCESS and *result = 0 (host and device result), x, y may be
 *   NULL.
 * Tolerance: |result - exact| <= 2 * n * u * sum|x_i*y_i| (ref_sdot in
 * check.h).
 */
#include "check.h"

enum { X_DEV = 1, Y_DEV = 2, R_DEV = 4 };

static void run_dot(rng_t *rng, int n, int incx, int incy, unsigned where, size_t xoff, size_t yoff)
{
    char label[200];
    size_t xlen = xoff + vspan(n, incx) + 2, ylen = yoff + vspan(n, incy) + 2;
    float *hx = (float *)xmalloc(xlen * sizeof(float)), *hy = (float *)xmalloc(ylen * sizeof(float));
    float *x0, *y0, *dx = NULL, *dy = NULL, *dres = NULL;
    float res = SENTINEL, rbuf[5];
    double exact, tol;
    glblasStatus_t st;

    fill_rand(rng, hx, xlen);
    fill_rand(rng, hy, ylen);
    x0 = fdup(hx, xlen);
    y0 = fdup(hy, ylen);
    ref_sdot(n, hx + xoff, incx, hy + yoff, incy, &exact, &tol);
    snprintf(label, sizeof label, "sdot n=%d incx=%d incy=%d x:%s%s y:%s%s result:%s", n, incx, incy,
             (where & X_DEV) ? "dev" : "host", xoff ? "+off" : "", (where & Y_DEV) ? "dev" : "host",
             yoff ? "+off" : "", (where & R_DEV) ? "dev+2" : "host");

    if (where & X_DEV)
        dx = dev_upload(hx, xlen);
    if (where & Y_DEV)
        dy = dev_upload(hy, ylen);
    if (where & R_DEV) {
        fill_const(rbuf, 5, SENTINEL);
        dres = dev_upload(rbuf, 5);
    }
    st = glblasSdot(n, (dx ? dx : hx) + xoff, incx, (dy ? dy : hy) + yoff, incy, dres ? dres + 2 : &res);
    if (succeeded(label, st)) {
        char sub[260];
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
        if (dy)
            dev_read(hy, dy, ylen);
        snprintf(sub, sizeof sub, "%s [x unchanged]", label);
        check_bits_equal(sub, hx, x0, xlen);
        snprintf(sub, sizeof sub, "%s [y unchanged]", label);
        check_bits_equal(sub, hy, y0, ylen);
    }
    dev_free(dx);
    dev_free(dy);
    dev_free(dres);
    free(hx);
    free(hy);
    free(x0);
    free(y0);
}

/* x and y inside one buffer (same pointer or overlapping ranges). */
static void run_dot_aliased(rng_t *rng, int n, size_t len, size_t xoff, int incx, size_t yoff, int incy,
                            int on_dev)
{
    char label[200];
    float *h = (float *)xmalloc(len * sizeof(float));
    float *d = NULL, res = SENTINEL;
    double exact, tol;
    glblasStatus_t st;

    fill_rand(rng, h, len);
    ref_sdot(n, h + xoff, incx, h + yoff, incy, &exact, &tol);
    snprintf(label, sizeof label, "sdot same buffer (%s) n=%d x=buf+%lu incx=%d y=buf+%lu incy=%d",
             on_dev ? "dev" : "host", n, (unsigned long)xoff, incx, (unsigned long)yoff, incy);
    if (on_dev) {
        d = dev_upload(h, len);
        st = glblasSdot(n, d + xoff, incx, d + yoff, incy, &res);
    } else {
        st = glblasSdot(n, h + xoff, incx, h + yoff, incy, &res);
    }
    if (succeeded(label, st))
        check_close(label, (double)res, exact, tol);
    dev_free(d);
    free(h);
}

static void check_n_nonpositive(void)
{
    float hx[4] = { 1.0f, 2.0f, 3.0f, 4.0f }, res, rbuf[3];
    float *d = dev_upload(hx, 4), *dres;
    int w;

    for (w = 0; w < 4; ++w) {
        const float *px = (w & 1) ? d : hx, *py = (w & 2) ? d : hx;
        res = SENTINEL;
        CHECK_OK(glblasSdot(0, px, 1, py, 1, &res));
        CHECK(res == 0.0f, "sdot n=0 (x:%s y:%s): *result expected 0, got %.9g", (w & 1) ? "dev" : "host",
              (w & 2) ? "dev" : "host", (double)res);
        res = SENTINEL;
        CHECK_OK(glblasSdot(-3, px, -1, py, 2, &res));
        CHECK(res == 0.0f, "sdot n=-3: *result expected 0, got %.9g", (double)res);
    }
    res = SENTINEL;
    CHECK_OK(glblasSdot(0, NULL, 1, NULL, 1, &res));
    CHECK(res == 0.0f, "sdot n=0 x=y=NULL: *result expected 0, got %.9g", (double)res);
    res = SENTINEL;
    CHECK_OK(glblasSdot(-1, NULL, 1, NULL, 1, &res));
    CHECK(res == 0.0f, "sdot n=-1 x=y=NULL: *result expected 0, got %.9g", (double)res);

    /* device result: 0 is written to the device */
    fill_const(rbuf, 3, SENTINEL);
    dres = dev_upload(rbuf, 3);
    CHECK_OK(glblasSdot(0, NULL, 1, NULL, 1, dres + 1));
    dev_read(rbuf, dres, 3);
    CHECK(rbuf[1] == 0.0f, "sdot n=0 with device result: device value expected 0, got %.9g", (double)rbuf[1]);
    CHECK(rbuf[0] == SENTINEL && rbuf[2] == SENTINEL,
          "sdot n=0 with device result: neighbours changed (%.9g, %.9g)", (double)rbuf[0], (double)rbuf[2]);
    dev_free(dres);
    dev_free(d);
}

int main(void)
{
    static const int sizes[] = { 1, 2, 3, 7, 31, 64, 257, 1000, 4097 };
    static const int incs[][2] = { { 1, 1 }, { 2, 3 }, { -1, 1 }, { 1, -2 }, { -3, -2 }, { 0, 1 }, { 1, 0 },
                                   { 0, 0 }, { 0, -2 } };
    rng_t rng = rng_seed(99);
    int s, i, w, c = 0;

    CHECK_OK(glblasInit());

    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s)
        for (i = 0; i < (int)(sizeof incs / sizeof incs[0]); ++i, ++c) {
            run_dot(&rng, sizes[s], incs[i][0], incs[i][1], 0, 0, 0);
            run_dot(&rng, sizes[s], incs[i][0], incs[i][1], X_DEV | Y_DEV, 0, 0);
            run_dot(&rng, sizes[s], incs[i][0], incs[i][1], (unsigned)(c % 8), 0, 0);
        }

    /* every placement of x, y, result; interior pointers */
    for (w = 0; w < 8; ++w) {
        run_dot(&rng, 100, 1, 1, (unsigned)w, 0, 0);
        run_dot(&rng, 53, -2, 1, (unsigned)w, 7, 3);
        run_dot(&rng, 1, 1, 1, (unsigned)w, 1, 0);
    }

    /* large vectors (multi-pass reductions) */
    run_dot(&rng, 1000003, 1, 1, X_DEV | Y_DEV | R_DEV, 0, 0);
    run_dot(&rng, 65537, 1, 1, 0, 0, 0);
    run_dot(&rng, 100000, -1, 3, X_DEV | Y_DEV, 2, 5);

    /* x == y and overlapping ranges */
    for (w = 0; w < 2; ++w) {
        run_dot_aliased(&rng, 500, 500, 0, 1, 0, 1, w);
        run_dot_aliased(&rng, 500, 500, 0, 1, 0, -1, w);
        run_dot_aliased(&rng, 200, 401, 0, 2, 1, 2, w);
        run_dot_aliased(&rng, 300, 301, 1, 1, 0, 1, w);
    }

    /* the result in the same device allocation as x and y */
    {
        float h[301], want_rest[301], res;
        float *d;
        double exact, tol;
        fill_rand(&rng, h, 301);
        h[300] = SENTINEL;
        memcpy(want_rest, h, sizeof h);
        ref_sdot(150, h, 1, h + 150, 1, &exact, &tol);
        d = dev_upload(h, 301);
        if (CHECK_OK(glblasSdot(150, d, 1, d + 150, 1, d + 300))) {
            dev_read(h, d, 301);
            res = h[300];
            check_close("sdot with x, y and result in one device allocation", (double)res, exact, tol);
            check_bits_equal("sdot with x, y and result in one device allocation: x and y", h, want_rest, 300);
        }
        dev_free(d);
    }

    check_n_nonpositive();

    CHECK_OK(glblasSync());
    return check_finish("test_sdot");
}
