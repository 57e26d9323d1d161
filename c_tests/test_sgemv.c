/*
 * test_sgemv.c - glblasSgemv (y := alpha*op(A)*x + beta*y) against a
 * double-precision reference (ref_sgemv in check.h, which also derives the
 * tolerance (lenx+2)*u*(|alpha|*|op(A)||x| + |beta*y|) times BOUND_FACTOR).
 *
 * - trans N, T and C for m x n in 1x1, 7x5, 33x65, 129x3 and 300x211, lda
 *   larger than m, all operands on the host and all on the device;
 * - all 8 host/device placements of A, x, y, and A, x, y at disjoint places of
 *   one device allocation;
 * - interior pointers: A as a sub-matrix (row 3, column 10) of a larger
 *   matrix, x and y at offsets into larger buffers (device and host);
 * - lda == m, lda much larger than m;
 * - increments positive and negative (element i is x[(len-1-i)*|inc|]);
 * - padding rows of A, the elements of the x buffer between / around the
 *   strided elements hold NaN, so reading them would show up; the elements of
 *   the y buffer outside the vector hold a sentinel and must come back
 *   bit-identical, and A and x must come back unchanged;
 * - beta == 0: the y elements hold NaN on entry (y must not be read);
 * - alpha == 0: A and x not read (NULL, or full of NaN), y := beta*y (with
 *   beta == 0, y := 0 exactly even though y held NaN);
 * - quick returns, y bit-identical (also NaN in y, A and x NULL): m == 0,
 *   n == 0 (even with beta != 1), alpha == 0 with beta == 1;
 * - INVALID_VALUE with y untouched (host and device y): trans not N/T/C, m < 0,
 *   n < 0, lda < max(1, m) (also with m == 0: the reference BLAS checks the
 *   arguments before the quick return), incx == 0, incy == 0, and, as for
 *   the other functions of the API, NULL A or x (alpha != 0) or NULL y.
 */
#include "check.h"

enum { A_DEV = 1, X_DEV = 2, Y_DEV = 4, ONE_ALLOC = 8 };

static const glblasOperation_t OPS[3] = { GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C };

/* A buffer of len floats holding `outside` everywhere except the n elements
 * of a vector with increment inc starting (lowest address) at off, which get
 * random values (NaN when `vec_nan`). */
static float *make_vector(rng_t *rng, size_t len, size_t off, int n, int inc, float outside, int vec_nan)
{
    float *h = (float *)xmalloc(len * sizeof(float));
    int i;
    fill_const(h, len, outside);
    for (i = 0; i < n; ++i)
        h[off + vidx(i, n, inc)] = vec_nan ? NAN : rng_float(rng);
    return h;
}

static const char *placement(unsigned where, unsigned bit)
{
    return (where & (bit | ONE_ALLOC)) ? "dev" : "host";
}

static void run_gemv(rng_t *rng, glblasOperation_t trans, int m, int n, float alpha, float beta, int pad, int incx,
                     int incy, unsigned where, int interior)
{
    char label[300], sub[340];
    int lenx = op_is_trans(trans) ? m : n, leny = op_is_trans(trans) ? n : m;
    int r0 = interior ? 3 : 0, c0 = interior ? 10 : 0;
    int lda = (m > 1 ? m : 1) + pad + r0;
    size_t aoff = (size_t)r0 + (size_t)c0 * (size_t)lda;
    size_t alen = (size_t)lda * (size_t)(n + c0) + (interior ? 7 : 0);
    size_t xoff = interior ? 5 : 0, yoff = interior ? 9 : 0;
    size_t xlen = xoff + vspan(lenx, incx) + 2, ylen = yoff + vspan(leny, incy) + 2;
    float *hA = (float *)xmalloc(alen * sizeof(float));
    float *hx = make_vector(rng, xlen, xoff, lenx, incx, NAN, 0);
    float *hy = make_vector(rng, ylen, yoff, leny, incy, SENTINEL, beta == 0.0f);
    float *A0, *x0, *y0;
    double *ref = (double *)xmalloc((size_t)leny * sizeof(double));
    double *tol = (double *)xmalloc((size_t)leny * sizeof(double));
    float *dA = NULL, *dx = NULL, *dy = NULL;
    glblasStatus_t st;
    int i, j;

    /* A: NaN everywhere (padding rows, around the interior sub-matrix), random inside */
    fill_const(hA, alen, NAN);
    for (j = 0; j < n; ++j)
        for (i = 0; i < m; ++i)
            hA[aoff + (size_t)i + (size_t)j * (size_t)lda] = rng_float(rng);
    A0 = fdup(hA, alen);
    x0 = fdup(hx, xlen);
    y0 = fdup(hy, ylen);
    ref_sgemv(trans, m, n, alpha, hA + aoff, lda, hx + xoff, incx, beta, hy + yoff, incy, ref, tol);

    snprintf(label, sizeof label,
             "sgemv(%s) m=%d n=%d alpha=%g beta=%g lda=%d incx=%d incy=%d A:%s x:%s y:%s%s%s", op_name(trans), m, n,
             (double)alpha, (double)beta, lda, incx, incy, placement(where, A_DEV), placement(where, X_DEV),
             placement(where, Y_DEV), (where & ONE_ALLOC) ? " (A, x, y in one allocation)" : "",
             interior ? " interior" : "");

    if (where & ONE_ALLOC) {
        /* y, A and x at disjoint places of ONE device allocation */
        dy = dev_alloc(ylen + alen + xlen);
        dA = dy + ylen;
        dx = dA + alen;
        dev_write(dy, hy, ylen);
        dev_write(dA, hA, alen);
        dev_write(dx, hx, xlen);
    } else {
        if (where & A_DEV)
            dA = dev_upload(hA, alen);
        if (where & X_DEV)
            dx = dev_upload(hx, xlen);
        if (where & Y_DEV)
            dy = dev_upload(hy, ylen);
    }

    st = glblasSgemv(trans, m, n, alpha, (dA ? dA : hA) + aoff, lda, (dx ? dx : hx) + xoff, incx, beta,
                     (dy ? dy : hy) + yoff, incy);
    if (succeeded(label, st)) {
        if (dy)
            dev_read(hy, dy, ylen);
        check_vec_result(label, hy, y0, ylen, yoff, leny, incy, ref, tol);
        if (dA)
            dev_read(hA, dA, alen);
        if (dx)
            dev_read(hx, dx, xlen);
        snprintf(sub, sizeof sub, "%s [A unchanged]", label);
        check_bits_equal(sub, hA, A0, alen);
        snprintf(sub, sizeof sub, "%s [x unchanged]", label);
        check_bits_equal(sub, hx, x0, xlen);
    }
    if (where & ONE_ALLOC) {
        dev_free(dy);
    } else {
        dev_free(dA);
        dev_free(dx);
        dev_free(dy);
    }
    free(hA);
    free(hx);
    free(hy);
    free(A0);
    free(x0);
    free(y0);
    free(ref);
    free(tol);
}

/* alpha == 0: A and x are not read (NULL, or NaN-filled on host / device);
 * y := beta*y (beta == 0: exactly 0 although y holds NaN; beta == 1: quick
 * return, y bit-identical even with NaN in it). */
static void check_alpha_zero(rng_t *rng)
{
    enum { M = 13, N = 9, LDA = 15, LEN = 3 * M + 2 };
    static const float betas[] = { 0.0f, 0.5f, -2.0f, 1.0f };
    float *hA = (float *)xmalloc((size_t)LDA * N * sizeof(float));
    float *hx = (float *)xmalloc(3 * M * sizeof(float));
    float *dA, *dx, *dy;
    int t, b, w, src;

    fill_const(hA, (size_t)LDA * N, NAN);
    fill_const(hx, 3 * M, NAN);
    dA = dev_upload(hA, (size_t)LDA * N);
    dx = dev_upload(hx, 3 * M);
    dy = dev_alloc(LEN);
    for (t = 0; t < 3; ++t) {
        glblasOperation_t op = OPS[t];
        int leny = op_is_trans(op) ? N : M, incy = t == 1 ? -2 : 3 - t; /* N: 3, T: -2, C: 1 */
        for (b = 0; b < 4; ++b) {
            float beta = betas[b];
            for (w = 0; w < 2; ++w) {
                for (src = 0; src < 3; ++src) { /* A and x NULL / NaN on host / NaN on device */
                    const float *pA = src == 0 ? NULL : src == 1 ? hA : dA;
                    const float *px = src == 0 ? NULL : src == 1 ? hx : dx;
                    /* y elements NaN when beta is 0 or 1 (0: not read; 1: quick return) */
                    float *hy = make_vector(rng, LEN, 1, leny, incy, SENTINEL, beta == 0.0f || beta == 1.0f);
                    float *y0 = fdup(hy, LEN);
                    double ref[M], tol[M];
                    char label[200];
                    int i;
                    for (i = 0; i < leny; ++i) {
                        /* beta*y is one fp32 product: error <= u*|beta*y|; beta == 1: y itself;
                         * beta == 0: exactly 0 */
                        double yi = (double)y0[1 + vidx(i, leny, incy)];
                        ref[i] = beta == 1.0f ? yi : beta == 0.0f ? 0.0 : (double)beta * yi;
                        tol[i] = (beta == 0.0f || beta == 1.0f) ? 0.0 : BOUND_FACTOR * FP32_U * fabs(ref[i]);
                    }
                    snprintf(label, sizeof label, "sgemv(%s) alpha=0 beta=%g A,x:%s y:%s", op_name(op),
                             (double)beta, src == 0 ? "NULL" : src == 1 ? "host NaN" : "dev NaN",
                             w ? "dev" : "host");
                    if (w)
                        dev_write(dy, hy, LEN);
                    if (succeeded(label, glblasSgemv(op, M, N, 0.0f, pA, LDA, px, 2, beta, (w ? dy : hy) + 1, incy))) {
                        if (w)
                            dev_read(hy, dy, LEN);
                        /* a beta == 1 (quick return) y holds NaN: compare bits */
                        if (beta == 1.0f)
                            check_bits_equal(label, hy, y0, LEN);
                        else
                            check_vec_result(label, hy, y0, LEN, 1, leny, incy, ref, tol);
                    }
                    free(hy);
                    free(y0);
                }
            }
        }
    }
    /* -0.0 == 0 as well */
    {
        float hy[M], y0[M];
        fill_const(hy, M, NAN);
        memcpy(y0, hy, sizeof hy);
        CHECK_OK(glblasSgemv(GLBLAS_OP_N, M, N, -0.0f, NULL, LDA, NULL, 1, 1.0f, hy, 1));
        check_bits_equal("sgemv alpha=-0 beta=1 (quick return, y NaN)", hy, y0, M);
    }
    dev_free(dA);
    dev_free(dx);
    dev_free(dy);
    free(hA);
    free(hx);
}

/* m == 0 or n == 0: quick return, nothing touched, y bit-identical (even with
 * beta != 1 and NaN in y; A and x may be NULL). */
static void check_quick_return_dims(rng_t *rng)
{
    enum { LEN = 40 };
    static const int dims[][3] = { /* m, n, lda */ { 0, 5, 1 }, { 5, 0, 5 }, { 0, 0, 1 }, { 7, 0, 9 }, { 0, 7, 3 } };
    float hy[LEN], y0[LEN], hA[64], hx[LEN];
    float *dy, *dA, *dx;
    int d, t, w;

    fill_rand(rng, hA, 64);
    fill_rand(rng, hx, LEN);
    dA = dev_upload(hA, 64);
    dx = dev_upload(hx, LEN);
    dy = dev_alloc(LEN);
    for (d = 0; d < (int)(sizeof dims / sizeof dims[0]); ++d) {
        for (t = 0; t < 3; ++t) {
            for (w = 0; w < 2; ++w) {
                char label[200];
                int m = dims[d][0], n = dims[d][1], lda = dims[d][2];
                fill_rand(rng, hy, LEN);
                hy[3] = NAN;
                memcpy(y0, hy, sizeof hy);
                if (w)
                    dev_write(dy, hy, LEN);
                snprintf(label, sizeof label, "sgemv(%s) quick return m=%d n=%d lda=%d y:%s", op_name(OPS[t]), m, n,
                         lda, w ? "dev" : "host");
                if (!succeeded(label, glblasSgemv(OPS[t], m, n, 1.5f, w ? dA : hA, lda, w ? dx : hx, 1, 0.5f,
                                                  w ? dy : hy, 1)))
                    continue;
                if (!succeeded(label, glblasSgemv(OPS[t], m, n, -1.0f, NULL, lda, NULL, -2, 0.0f, w ? dy : hy, 3)))
                    continue;
                if (!succeeded(label, glblasSgemv(OPS[t], m, n, 2.0f, w ? dA : hA, lda, hx, 1, 2.0f, w ? dy : hy, -1)))
                    continue;
                if (w)
                    dev_read(hy, dy, LEN);
                check_bits_equal(label, hy, y0, LEN);
            }
        }
    }
    dev_free(dA);
    dev_free(dx);
    dev_free(dy);
}

/* Invalid arguments: INVALID_VALUE and y untouched (host y and device y). */
static void check_invalid(rng_t *rng)
{
    enum { LEN = 64 };
    float hA[LEN * 8], hx[LEN], hy[LEN], y0[LEN];
    float *dA, *dx, *dy;
    int w;

    fill_rand(rng, hA, LEN * 8);
    fill_rand(rng, hx, LEN);
    fill_rand(rng, hy, LEN);
    memcpy(y0, hy, sizeof hy);
    dA = dev_upload(hA, LEN * 8);
    dx = dev_upload(hx, LEN);
    dy = dev_upload(hy, LEN);
    for (w = 0; w < 4; ++w) {
        const float *A = (w & 1) ? dA : hA, *x = (w & 1) ? dx : hx;
        float *y = (w & 2) ? dy : hy, got[LEN];
        char label[120];
        /* bad trans values */
        CHECK_INVALID(glblasSgemv((glblasOperation_t)3, 4, 5, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv((glblasOperation_t)-1, 4, 5, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv((glblasOperation_t)7, 4, 5, 1.0f, A, 4, x, 1, 0.0f, y, 1));
        CHECK_INVALID(glblasSgemv((glblasOperation_t)'N', 4, 5, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        /* negative dimensions */
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, -1, 5, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 4, -1, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_C, -3, -2, 1.0f, A, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, -1, 0, 1.0f, A, 1, x, 1, 0.5f, y, 1));
        /* lda < max(1, m) */
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 1.0f, A, 3, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 4, 5, 1.0f, A, 3, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_C, 8, 2, 1.0f, A, 0, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 1, 5, 1.0f, A, 0, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 1, 5, 1.0f, A, -1, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 0, 5, 1.0f, A, 0, x, 1, 0.5f, y, 1)); /* max(1, 0) = 1 */
        /* zero increments */
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 1.0f, A, 4, x, 0, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 4, 5, 1.0f, A, 4, x, 1, 0.5f, y, 0));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_C, 4, 5, 1.0f, A, 4, x, 0, 0.0f, y, 0));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 0.0f, NULL, 4, NULL, 0, 0.5f, y, 1));
        /* the arguments are checked before the quick returns (reference BLAS) */
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 0, 5, 1.0f, A, 1, x, 0, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 4, 0, 1.0f, A, 4, x, 1, 0.5f, y, 0));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 0.0f, A, 4, x, 0, 1.0f, y, 1));
        CHECK_INVALID(glblasSgemv((glblasOperation_t)5, 0, 0, 1.0f, A, 1, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 6, 0, 0.0f, A, 5, x, 1, 1.0f, y, 1));
        /* NULL operands that are needed */
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 1.0f, NULL, 4, x, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_T, 4, 5, 1.0f, A, 4, NULL, 1, 0.5f, y, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 1.0f, A, 4, x, 1, 0.5f, NULL, 1));
        CHECK_INVALID(glblasSgemv(GLBLAS_OP_N, 4, 5, 0.0f, NULL, 4, NULL, 1, 0.5f, NULL, 1));

        if (w & 2)
            dev_read(got, dy, LEN);
        else
            memcpy(got, hy, sizeof got);
        snprintf(label, sizeof label, "invalid sgemv A,x:%s y:%s: y", (w & 1) ? "dev" : "host",
                 (w & 2) ? "dev" : "host");
        check_bits_equal(label, got, y0, LEN);
    }
    dev_free(dA);
    dev_free(dx);
    dev_free(dy);
}

int main(void)
{
    static const int shapes[][2] = { { 1, 1 }, { 7, 5 }, { 33, 65 }, { 129, 3 }, { 300, 211 } };
    static const int incs[][2] = { { 1, 1 }, { 2, 3 }, { -1, 1 }, { 1, -2 }, { -3, -2 } };
    static const float alphas[] = { 1.0f, -0.75f, 2.5f };
    static const float betas[] = { 0.0f, 0.5f, 1.0f, -1.25f };
    rng_t rng = rng_seed(31337);
    int s, t, w, i, c = 0;

    CHECK_OK(glblasInit());

    /* every trans x every shape, all-host and all-device, lda > m */
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); ++s) {
        for (t = 0; t < 3; ++t, ++c) {
            run_gemv(&rng, OPS[t], shapes[s][0], shapes[s][1], alphas[c % 3], betas[c % 4], 1 + c % 3, 1, 1, 0, 0);
            run_gemv(&rng, OPS[t], shapes[s][0], shapes[s][1], alphas[(c + 1) % 3], betas[(c + 1) % 4], 1 + c % 2,
                     incs[c % 5][0], incs[c % 5][1], A_DEV | X_DEV | Y_DEV, 0);
        }
    }

    /* every host/device placement, and one allocation, every trans */
    for (t = 0; t < 3; ++t)
        for (w = 0; w <= 8; ++w, ++c)
            run_gemv(&rng, OPS[t], 7, 5, alphas[c % 3], betas[c % 4], 2, incs[c % 5][0], incs[c % 5][1],
                     (unsigned)w, 0);
    run_gemv(&rng, GLBLAS_OP_N, 33, 65, 1.0f, 0.5f, 1, 1, 1, ONE_ALLOC, 1);
    run_gemv(&rng, GLBLAS_OP_T, 33, 65, -0.75f, 0.0f, 0, -2, 1, ONE_ALLOC, 1);

    /* increments, every trans (33 x 65: x and y lengths differ between N and T) */
    for (t = 0; t < 3; ++t)
        for (i = 0; i < 5; ++i, ++c)
            run_gemv(&rng, OPS[t], 33, 65, alphas[c % 3], betas[c % 4], 1, incs[i][0], incs[i][1],
                     (c & 1) ? (A_DEV | X_DEV | Y_DEV) : 0, 0);

    /* interior pointers, device and host */
    for (t = 0; t < 3; ++t, ++c) {
        run_gemv(&rng, OPS[t], 7, 5, alphas[c % 3], betas[c % 4], 1, 2, -1, A_DEV | X_DEV | Y_DEV, 1);
        run_gemv(&rng, OPS[t], 33, 65, alphas[c % 3], betas[(c + 1) % 4], 0, -1, 3, A_DEV | X_DEV | Y_DEV, 1);
        run_gemv(&rng, OPS[t], 129, 3, alphas[c % 3], betas[(c + 2) % 4], 2, 1, 1, 0, 1);
        run_gemv(&rng, OPS[t], 17, 13, alphas[c % 3], betas[(c + 3) % 4], 1, 1, 2, (unsigned)(1 + t), 1);
    }

    /* lda == m, and lda much larger than m */
    for (t = 0; t < 3; ++t, ++c) {
        run_gemv(&rng, OPS[t], 19, 23, 1.0f, betas[c % 4], 0, 1, 1, (unsigned)(c % 8), 0);
        run_gemv(&rng, OPS[t], 17, 13, -0.75f, betas[(c + 1) % 4], 500, 1, -1, (unsigned)((c + 3) % 8), 0);
    }

    /* beta == 0 (NaN in y) and beta == 1 with alpha != 0, every trans */
    for (t = 0; t < 3; ++t) {
        run_gemv(&rng, OPS[t], 129, 3, 0.5f, 0.0f, 1, 1, -1, A_DEV | Y_DEV, 0);
        run_gemv(&rng, OPS[t], 3, 129, -1.0f, 1.0f, 0, 1, 1, X_DEV, 0);
    }

    /* thin shapes (m or n == 1) */
    run_gemv(&rng, GLBLAS_OP_N, 1, 300, 1.0f, 0.5f, 0, 1, 1, A_DEV | X_DEV | Y_DEV, 0);
    run_gemv(&rng, GLBLAS_OP_T, 1, 300, 1.0f, 0.0f, 0, 1, 2, A_DEV | X_DEV | Y_DEV, 0);
    run_gemv(&rng, GLBLAS_OP_N, 300, 1, -1.0f, 1.0f, 3, -1, 1, 0, 0);
    run_gemv(&rng, GLBLAS_OP_C, 300, 1, 2.0f, -1.0f, 3, 1, -1, A_DEV | X_DEV | Y_DEV, 0);

    check_alpha_zero(&rng);
    check_quick_return_dims(&rng);
    check_invalid(&rng);

    CHECK_OK(glblasSync());
    return check_finish("test_sgemv");
}
