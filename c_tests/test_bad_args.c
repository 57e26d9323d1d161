/*
 * test_bad_args.c - every INVALID_VALUE case of the spec, checking the status
 * AND that every output (host or device) is left untouched:
 * - sgemm: m, n, k negative; bad transa / transb ((glblasOperation_t)7, 3, -1);
 *   lda, ldb, ldc too small (checked against the right dimension for N and
 *   T: e.g. transa == T needs lda >= k even when lda >= m), ld == 0 with
 *   m == 0; NULL A / B (alpha != 0, k > 0) or NULL C;
 * - saxpy / sdot: NULL x or y with n > 0; sdot with result NULL;
 * - glblasMalloc(NULL, ...);
 * - glblasFree of a host pointer (stack and heap), of an interior device
 *   pointer (the allocation stays usable), double free;
 * - glblasMemcpy past the end of a device allocation (dst or src, H2D, D2H,
 *   D2D, Infer, size_t overflow), Infer with two host pointers, every kind
 *   mismatch, unknown kinds (7, -1), NULL dst / src with bytes > 0.
 */
#include "check.h"

#define NC 64 /* floats in the C test buffer */

static float g_hC[NC], g_C0[NC];
static float *g_dC;

/* Resets host C and device C to the same random content. */
static void reset_c(rng_t *rng)
{
    fill_rand(rng, g_C0, NC);
    memcpy(g_hC, g_C0, sizeof g_C0);
    dev_write(g_dC, g_C0, NC);
}

static void check_c_untouched(const char *what)
{
    float got[NC];
    char label[200];
    snprintf(label, sizeof label, "%s: host C", what);
    check_bits_equal(label, g_hC, g_C0, NC);
    dev_read(got, g_dC, NC);
    snprintf(label, sizeof label, "%s: device C", what);
    check_bits_equal(label, got, g_C0, NC);
}

/* Runs one invalid sgemm with host C and with device C (A and B as given,
 * then A and B on the device as well); all must be INVALID_VALUE with both
 * C buffers untouched. */
static void bad_gemm(rng_t *rng, const char *what, glblasOperation_t ta, glblasOperation_t tb, int m, int n, int k,
                     float alpha, const float *A, int lda, const float *B, int ldb, float beta, int ldc, int c_null,
                     const float *dA, const float *dB)
{
    glblasStatus_t s;
    reset_c(rng);
    s = glblasSgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, c_null ? NULL : g_hC, ldc);
    if (s != GLBLAS_STATUS_INVALID_VALUE)
        FAIL("%s (host A,B,C): expected GLBLAS_STATUS_INVALID_VALUE, got %s (%d)", what, status_name(s), (int)s);
    s = glblasSgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, c_null ? NULL : g_dC, ldc);
    if (s != GLBLAS_STATUS_INVALID_VALUE)
        FAIL("%s (host A,B, device C): expected GLBLAS_STATUS_INVALID_VALUE, got %s (%d)", what, status_name(s),
             (int)s);
    s = glblasSgemm(ta, tb, m, n, k, alpha, A ? dA : NULL, lda, B ? dB : NULL, ldb, beta, c_null ? NULL : g_dC,
                    ldc);
    if (s != GLBLAS_STATUS_INVALID_VALUE)
        FAIL("%s (device A,B,C): expected GLBLAS_STATUS_INVALID_VALUE, got %s (%d)", what, status_name(s), (int)s);
    check_c_untouched(what);
}

static void gemm_cases(rng_t *rng)
{
    float hA[NC], hB[NC];
    float *dA, *dB;
    const glblasOperation_t N = GLBLAS_OP_N, T = GLBLAS_OP_T;
    fill_rand(rng, hA, NC);
    fill_rand(rng, hB, NC);
    dA = dev_upload(hA, NC);
    dB = dev_upload(hB, NC);

    /* sanity: the valid call these are derived from succeeds (5x4x3, N,N) */
    reset_c(rng);
    CHECK_OK(glblasSgemm(N, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.0f, g_hC, 5));

    bad_gemm(rng, "sgemm m=-1", N, N, -1, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm n=-1", N, N, 5, -1, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm k=-1", N, N, 5, 4, -1, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm k=-1 alpha=0", N, N, 5, 4, -1, 0.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm m=-7 n=-7 k=-7", N, N, -7, -7, -7, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);

    bad_gemm(rng, "sgemm transa=7", (glblasOperation_t)7, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm transa=3", (glblasOperation_t)3, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm transa=-1", (glblasOperation_t)-1, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm transb=7", N, (glblasOperation_t)7, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm transb=-1", N, (glblasOperation_t)-1, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm transa=7 alpha=0", (glblasOperation_t)7, N, 5, 4, 3, 0.0f, hA, 5, hB, 3, 0.5f, 5, 0, dA,
             dB);
    bad_gemm(rng, "sgemm transb=7 m=0", N, (glblasOperation_t)7, 0, 4, 3, 1.0f, hA, 1, hB, 3, 0.5f, 1, 0, dA, dB);

    /* lda: transa == N needs lda >= max(1,m); transa == T needs lda >= max(1,k) */
    bad_gemm(rng, "sgemm N,N m=5 lda=4", N, N, 5, 4, 3, 1.0f, hA, 4, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm N,N m=6 k=2 lda=5 (>= k, < m)", N, N, 6, 4, 2, 1.0f, hA, 5, hB, 2, 0.5f, 6, 0, dA, dB);
    bad_gemm(rng, "sgemm T,N m=2 k=6 lda=5 (>= m, < k)", T, N, 2, 4, 6, 1.0f, hA, 5, hB, 6, 0.5f, 2, 0, dA, dB);
    bad_gemm(rng, "sgemm C,N m=2 k=6 lda=5 (>= m, < k)", GLBLAS_OP_C, N, 2, 4, 6, 1.0f, hA, 5, hB, 6, 0.5f, 2, 0,
             dA, dB);
    bad_gemm(rng, "sgemm N,N m=5 lda=0", N, N, 5, 4, 3, 1.0f, hA, 0, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm N,N m=5 lda=-5", N, N, 5, 4, 3, 1.0f, hA, -5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm N,N m=5 lda=4 alpha=0 (checked anyway)", N, N, 5, 4, 3, 0.0f, hA, 4, hB, 3, 0.5f, 5, 0,
             dA, dB);
    /* ldb: transb == N needs ldb >= max(1,k); transb == T needs ldb >= max(1,n) */
    bad_gemm(rng, "sgemm N,N k=3 ldb=2", N, N, 5, 4, 3, 1.0f, hA, 5, hB, 2, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm N,N k=6 n=2 ldb=5 (>= n, < k)", N, N, 3, 2, 6, 1.0f, hA, 3, hB, 5, 0.5f, 3, 0, dA, dB);
    bad_gemm(rng, "sgemm N,T n=6 k=2 ldb=5 (>= k, < n)", N, T, 3, 6, 2, 1.0f, hA, 3, hB, 5, 0.5f, 3, 0, dA, dB);
    bad_gemm(rng, "sgemm N,C n=6 k=2 ldb=5 (>= k, < n)", N, GLBLAS_OP_C, 3, 6, 2, 1.0f, hA, 3, hB, 5, 0.5f, 3, 0,
             dA, dB);
    /* ldc >= max(1,m) */
    bad_gemm(rng, "sgemm m=5 ldc=4", N, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 4, 0, dA, dB);
    bad_gemm(rng, "sgemm m=5 ldc=4 beta=0", N, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.0f, 4, 0, dA, dB);
    bad_gemm(rng, "sgemm m=5 ldc=0", N, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 0, 0, dA, dB);
    /* m == 0: lda and ldc must still be >= 1 */
    bad_gemm(rng, "sgemm m=0 lda=0", N, N, 0, 4, 3, 1.0f, hA, 0, hB, 3, 0.5f, 1, 0, dA, dB);
    bad_gemm(rng, "sgemm m=0 ldc=0", N, N, 0, 4, 3, 1.0f, hA, 1, hB, 3, 0.5f, 0, 0, dA, dB);
    /* k == 0, transb == N: ldb must still be >= 1 */
    bad_gemm(rng, "sgemm k=0 ldb=0", N, N, 5, 4, 0, 1.0f, hA, 5, hB, 0, 0.5f, 5, 0, dA, dB);
    /* NULL pointers where they are needed */
    bad_gemm(rng, "sgemm A=NULL (alpha=1, k=3)", N, N, 5, 4, 3, 1.0f, NULL, 5, hB, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm B=NULL (alpha=1, k=3)", N, N, 5, 4, 3, 1.0f, hA, 5, NULL, 3, 0.5f, 5, 0, dA, dB);
    bad_gemm(rng, "sgemm C=NULL", N, N, 5, 4, 3, 1.0f, hA, 5, hB, 3, 0.5f, 5, 1, dA, dB);
    bad_gemm(rng, "sgemm C=NULL alpha=0", N, N, 5, 4, 3, 0.0f, NULL, 5, NULL, 3, 0.5f, 5, 1, dA, dB);

    dev_free(dA);
    dev_free(dB);
}

static void level1_cases(rng_t *rng)
{
    enum { N = 16 };
    float hx[N], hy[N], y0[N], got[N], res, rbuf[2];
    float *dx, *dy, *dres;
    int w;

    fill_rand(rng, hx, N);
    fill_rand(rng, hy, N);
    memcpy(y0, hy, sizeof hy);
    dx = dev_upload(hx, N);
    dy = dev_upload(hy, N);
    fill_const(rbuf, 2, SENTINEL);
    dres = dev_upload(rbuf, 2);

    for (w = 0; w < 2; ++w) {
        const float *px = w ? dx : hx;
        float *py = w ? dy : hy;
        const char *where = w ? "device" : "host";
        /* saxpy: NULL x or y with n > 0 */
        if (!CHECK_INVALID(glblasSaxpy(N, 1.0f, NULL, 1, py, 1)))
            FAIL("  (saxpy x=NULL, y on %s)", where);
        if (!CHECK_INVALID(glblasSaxpy(N, 1.0f, px, 1, NULL, 1)))
            FAIL("  (saxpy y=NULL, x on %s)", where);
        CHECK_INVALID(glblasSaxpy(1, 2.0f, NULL, 1, NULL, 1));
        if (w)
            dev_read(got, dy, N);
        else
            memcpy(got, hy, sizeof got);
        check_bits_equal(w ? "invalid saxpy: device y" : "invalid saxpy: host y", got, y0, N);

        /* sdot: result NULL (any n), NULL x or y with n > 0 */
        if (!CHECK_INVALID(glblasSdot(N, px, 1, py, 1, NULL)))
            FAIL("  (sdot result=NULL, x,y on %s)", where);
        CHECK_INVALID(glblasSdot(0, px, 1, py, 1, NULL));
        CHECK_INVALID(glblasSdot(-1, NULL, 1, NULL, 1, NULL));
        res = SENTINEL;
        if (!CHECK_INVALID(glblasSdot(N, NULL, 1, py, 1, &res)))
            FAIL("  (sdot x=NULL, y on %s)", where);
        CHECK(res == SENTINEL, "invalid sdot x=NULL: *result must be untouched, got %.9g", (double)res);
        res = SENTINEL;
        if (!CHECK_INVALID(glblasSdot(N, px, 1, NULL, 1, &res)))
            FAIL("  (sdot y=NULL, x on %s)", where);
        CHECK(res == SENTINEL, "invalid sdot y=NULL: *result must be untouched, got %.9g", (double)res);
        CHECK_INVALID(glblasSdot(N, NULL, 1, py, 1, dres + 1));
        CHECK_INVALID(glblasSdot(N, px, -1, NULL, 2, dres + 1));
    }
    dev_read(rbuf, dres, 2);
    CHECK(rbuf[0] == SENTINEL && rbuf[1] == SENTINEL,
          "invalid sdot with device result: device result must be untouched, got %.9g %.9g", (double)rbuf[0],
          (double)rbuf[1]);
    dev_free(dx);
    dev_free(dy);
    dev_free(dres);
}

static void free_cases(void)
{
    float stack_buf[8];
    float *heap = (float *)xmalloc(8 * sizeof(float));
    float data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, got[8];
    void *d = NULL;

    CHECK_INVALID(glblasMalloc(NULL, 16));
    CHECK_INVALID(glblasMalloc(NULL, 0));

    CHECK_INVALID(glblasFree(stack_buf));
    CHECK_INVALID(glblasFree(heap));
    free(heap); /* still a valid host allocation after the refused glblasFree */

    if (!CHECK_OK(glblasMalloc(&d, sizeof data)) || !d)
        FATAL("glblasMalloc failed");
    CHECK_OK(glblasMemcpy(d, data, sizeof data, glblasMemcpyHostToDevice));
    /* interior pointers are not allocations */
    CHECK_INVALID(glblasFree((float *)d + 1));
    CHECK_INVALID(glblasFree((char *)d + 1));
    CHECK_INVALID(glblasFree((float *)d + 7));
    /* ... and refusing them must not have freed the allocation */
    memset(got, 0, sizeof got);
    CHECK_OK(glblasMemcpy(got, d, sizeof got, glblasMemcpyDeviceToHost));
    check_bits_equal("allocation after glblasFree(interior pointer)", got, data, 8);
    CHECK_OK(glblasFree(d));
    /* double free (d is no longer an allocation; it is not dereferenced) */
    CHECK_INVALID(glblasFree(d));
    CHECK_INVALID(glblasFree(d));
}

/* Checks that device buffer d (n bytes) still holds `want`. */
static void check_dev_bytes(const char *what, const void *d, const unsigned char *want, size_t n)
{
    unsigned char got[256];
    size_t i;
    if (!CHECK_OK(glblasMemcpy(got, d, n, glblasMemcpyDeviceToHost)))
        return;
    for (i = 0; i < n; ++i)
        if (got[i] != want[i]) {
            FAIL("%s: device byte %lu changed: expected 0x%02x, got 0x%02x", what, (unsigned long)i, want[i],
                 got[i]);
            return;
        }
}

static void check_host_bytes(const char *what, const unsigned char *got, const unsigned char *want, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i)
        if (got[i] != want[i]) {
            FAIL("%s: host byte %lu changed: expected 0x%02x, got 0x%02x", what, (unsigned long)i, want[i], got[i]);
            return;
        }
}

#define BAD_MEMCPY(dst, src, bytes, kind)                                                                         \
    do {                                                                                                          \
        memcpy(h1, h1_0, sizeof h1);                                                                              \
        memcpy(h2, h2_0, sizeof h2);                                                                              \
        CHECK_INVALID(glblasMemcpy((dst), (src), (bytes), (kind)));                                               \
        check_host_bytes(#dst " <- " #src " " #kind ": h1", h1, h1_0, sizeof h1);                                 \
        check_host_bytes(#dst " <- " #src " " #kind ": h2", h2, h2_0, sizeof h2);                                 \
        check_dev_bytes(#dst " <- " #src " " #kind ": d1", d1, d1_0, sizeof d1_0);                                \
        check_dev_bytes(#dst " <- " #src " " #kind ": d2", d2, d2_0, sizeof d2_0);                                \
    } while (0)

static void memcpy_cases(void)
{
    enum { S = 64 };
    unsigned char h1[S], h2[S], h1_0[S], h2_0[S], d1_0[S], d2_0[S];
    unsigned char *d1, *d2;
    void *p1 = NULL, *p2 = NULL;
    size_t i;

    for (i = 0; i < S; ++i) {
        h1_0[i] = (unsigned char)i;
        h2_0[i] = (unsigned char)(200 - i);
        d1_0[i] = (unsigned char)(i * 3 + 1);
        d2_0[i] = (unsigned char)(i * 5 + 2);
    }
    if (!CHECK_OK(glblasMalloc(&p1, S)) || !CHECK_OK(glblasMalloc(&p2, S)) || !p1 || !p2)
        FATAL("glblasMalloc failed");
    d1 = (unsigned char *)p1;
    d2 = (unsigned char *)p2;
    CHECK_OK(glblasMemcpy(d1, d1_0, S, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(d2, d2_0, S, glblasMemcpyHostToDevice));

    /* past the end of a device allocation */
    BAD_MEMCPY(d1, h1, S + 1, glblasMemcpyHostToDevice);
    BAD_MEMCPY(d1 + 60, h1, 5, glblasMemcpyHostToDevice);
    BAD_MEMCPY(d1 + 60, h1, 5, glblasMemcpyInfer);
    BAD_MEMCPY(h1, d1 + 1, S, glblasMemcpyDeviceToHost);
    BAD_MEMCPY(h1, d1 + 63, 2, glblasMemcpyInfer);
    BAD_MEMCPY(d2, d1 + 32, 33, glblasMemcpyDeviceToDevice);
    BAD_MEMCPY(d2 + 32, d1, 33, glblasMemcpyDeviceToDevice);
    BAD_MEMCPY(d2 + 32, d1, 33, glblasMemcpyInfer);
    BAD_MEMCPY(d1, h1, (size_t)-1, glblasMemcpyHostToDevice);          /* would wrap around */
    BAD_MEMCPY(h1, d1 + 8, (size_t)-8, glblasMemcpyDeviceToHost);      /* offset + bytes overflows */
    BAD_MEMCPY(d2 + 1, d1 + 1, (size_t)-1, glblasMemcpyDeviceToDevice);

    /* Infer with no device pointer */
    BAD_MEMCPY(h1, h2, 8, glblasMemcpyInfer);
    BAD_MEMCPY(h1, h2, S, glblasMemcpyInfer);

    /* kind mismatches */
    BAD_MEMCPY(h1, h2, 8, glblasMemcpyHostToDevice);   /* dst host */
    BAD_MEMCPY(d1, d2, 8, glblasMemcpyHostToDevice);   /* src device */
    BAD_MEMCPY(h1, d2, 8, glblasMemcpyHostToDevice);   /* reversed */
    BAD_MEMCPY(h1, h2, 8, glblasMemcpyDeviceToHost);   /* src host */
    BAD_MEMCPY(d1, d2, 8, glblasMemcpyDeviceToHost);   /* dst device */
    BAD_MEMCPY(d1, h2, 8, glblasMemcpyDeviceToHost);   /* reversed */
    BAD_MEMCPY(d1, h2, 8, glblasMemcpyDeviceToDevice); /* src host */
    BAD_MEMCPY(h1, d2, 8, glblasMemcpyDeviceToDevice); /* dst host */
    BAD_MEMCPY(h1, h2, 8, glblasMemcpyDeviceToDevice); /* both host */

    /* unknown kinds */
    BAD_MEMCPY(d1, h2, 8, (glblasMemcpyKind_t)7);
    BAD_MEMCPY(h1, d2, 8, (glblasMemcpyKind_t)4);
    BAD_MEMCPY(d1, d2, 8, (glblasMemcpyKind_t)-1);

    /* NULL with bytes > 0 */
    BAD_MEMCPY(NULL, h2, 8, glblasMemcpyHostToDevice);
    BAD_MEMCPY(NULL, d2, 8, glblasMemcpyDeviceToHost);
    BAD_MEMCPY(NULL, d2, 8, glblasMemcpyInfer);
    BAD_MEMCPY(d1, NULL, 8, glblasMemcpyHostToDevice);
    BAD_MEMCPY(h1, NULL, 8, glblasMemcpyDeviceToHost);
    BAD_MEMCPY(d1, NULL, 8, glblasMemcpyInfer);
    BAD_MEMCPY(NULL, NULL, 8, glblasMemcpyDeviceToDevice);

    /* the allocations are still fine after all this */
    CHECK_OK(glblasMemcpy(d1, h1_0, S, glblasMemcpyHostToDevice));
    CHECK_OK(glblasMemcpy(h1, d1, S, glblasMemcpyDeviceToHost));
    check_host_bytes("valid copy after the invalid ones", h1, h1_0, S);
    CHECK_OK(glblasFree(d1));
    CHECK_OK(glblasFree(d2));
}

int main(void)
{
    rng_t rng = rng_seed(31337);
    CHECK_OK(glblasInit());
    g_dC = dev_alloc(NC);
    gemm_cases(&rng);
    level1_cases(&rng);
    free_cases();
    memcpy_cases();
    dev_free(g_dC);
    return check_finish("test_bad_args");
}
