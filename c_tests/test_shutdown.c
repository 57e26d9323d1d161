/*
 * test_shutdown.c - glblasShutdown and lazy re-initialisation.
 * - work on device pointers, then glblasShutdown: SUCCESS;
 * - the old device pointers are no longer allocations: glblasFree of each
 *   gives INVALID_VALUE (checked before any new allocation could reuse the
 *   address; the pointers are never dereferenced or passed to memcpy);
 * - the next calls re-initialise lazily (no glblasInit): sdot / sgemm /
 *   saxpy on the host, then new device allocations, all correct;
 * - glblasGetDeviceName non-NULL again after re-initialisation;
 * - glblasShutdown twice in a row, and without any call in between: SUCCESS;
 * - explicit glblasInit after shutdown; 5 shutdown / work cycles.
 */
#include "check.h"

/* One small sgemm on the given placement (1 A dev, 2 B dev, 4 C dev). */
static void gemm_once(rng_t *rng, const char *what, unsigned where)
{
    enum { M = 9, N = 7, K = 5 };
    float hA[M * K], hB[K * N], hC[M * N], C0[M * N];
    float *dA = NULL, *dB = NULL, *dC = NULL;
    double ref[M * N], tol[M * N];
    char label[120];
    glblasStatus_t st;

    fill_rand(rng, hA, M * K);
    fill_rand(rng, hB, K * N);
    fill_rand(rng, hC, M * N);
    memcpy(C0, hC, sizeof hC);
    ref_sgemm(GLBLAS_OP_N, GLBLAS_OP_T, M, N, K, 1.5f, hA, M, hB, N, -0.5f, hC, M, ref, tol);
    if (where & 1)
        dA = dev_upload(hA, M * K);
    if (where & 2)
        dB = dev_upload(hB, K * N);
    if (where & 4)
        dC = dev_upload(hC, M * N);
    snprintf(label, sizeof label, "%s: sgemm(N,T) 9x7x5 placement %u", what, where);
    st = glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_T, M, N, K, 1.5f, dA ? dA : hA, M, dB ? dB : hB, N, -0.5f, dC ? dC : hC, M);
    if (succeeded(label, st)) {
        if (dC)
            dev_read(hC, dC, M * N);
        check_gemm_c(label, hC, C0, M * N, 0, M, N, M, ref, tol);
    }
    dev_free(dA);
    dev_free(dB);
    dev_free(dC);
}

static void dot_once(rng_t *rng, const char *what)
{
    enum { N = 333 };
    float x[N], y[N], res = SENTINEL;
    double exact, tol;
    char label[100];
    fill_rand(rng, x, N);
    fill_rand(rng, y, N);
    ref_sdot(N, x, 1, y, 1, &exact, &tol);
    snprintf(label, sizeof label, "%s: sdot host n=%d", what, N);
    if (CHECK_OK(glblasSdot(N, x, 1, y, 1, &res)))
        check_close(label, (double)res, exact, tol);
}

static void axpy_once(rng_t *rng, const char *what)
{
    enum { N = 100 };
    float x[N], y[N];
    double *xv, *xe, *yv, *ye;
    char label[100];
    fill_rand(rng, x, N);
    fill_rand(rng, y, N);
    shadow_init(x, N, &xv, &xe);
    shadow_init(y, N, &yv, &ye);
    ref_saxpy_seq(N, 0.5f, xv, xe, 1, yv, ye, 1);
    snprintf(label, sizeof label, "%s: saxpy host n=%d", what, N);
    if (CHECK_OK(glblasSaxpy(N, 0.5f, x, 1, y, 1)))
        check_shadow(label, y, yv, ye, N);
    free(xv);
    free(xe);
    free(yv);
    free(ye);
}

int main(void)
{
    rng_t rng = rng_seed(2024);
    float h[16], got[16];
    float *dA, *dB, *dC;
    const char *name;
    int cycle;

    /* phase 1: initialised, device work in flight */
    CHECK_OK(glblasInit());
    fill_rand(&rng, h, 16);
    dA = dev_upload(h, 16);
    dB = dev_upload(h, 16);
    dC = dev_alloc(16);
    CHECK_OK(glblasSaxpy(16, 2.0f, dA, 1, dB, 1));
    CHECK_OK(glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_N, 4, 4, 4, 1.0f, dA, 4, dB, 4, 0.0f, dC, 4));
    gemm_once(&rng, "before shutdown", 7);

    /* phase 2: shutdown (dA, dB, dC still allocated: the shutdown frees them) */
    CHECK_OK(glblasShutdown());

    /* old device pointers are no longer allocations; nothing else has run
     * since the shutdown, so no new allocation can have reused them */
    CHECK_INVALID(glblasFree(dA));
    CHECK_INVALID(glblasFree(dB));
    CHECK_INVALID(glblasFree(dC));

    /* phase 3: lazy re-initialisation by ordinary calls */
    dot_once(&rng, "after shutdown");
    axpy_once(&rng, "after shutdown");
    gemm_once(&rng, "after shutdown", 0);
    name = glblasGetDeviceName();
    CHECK(name != NULL, "glblasGetDeviceName() after lazy re-initialisation returned NULL");
    gemm_once(&rng, "after shutdown", 7);
    gemm_once(&rng, "after shutdown", 5);

    /* a new allocation works */
    dA = dev_upload(h, 16);
    memset(got, 0, sizeof got);
    dev_read(got, dA, 16);
    check_bits_equal("new allocation after re-initialisation", got, h, 16);
    dev_free(dA);

    /* phase 4: shutdown twice; the first call after it is a device-pointer call */
    CHECK_OK(glblasShutdown());
    CHECK_OK(glblasShutdown());
    gemm_once(&rng, "after double shutdown", 7);

    /* phase 5: explicit init after shutdown; shutdown with live allocations, repeatedly */
    for (cycle = 0; cycle < 5; ++cycle) {
        char what[60];
        float *d;
        snprintf(what, sizeof what, "cycle %d", cycle);
        CHECK_OK(glblasShutdown());
        if (cycle % 2 == 0)
            CHECK_OK(glblasInit());
        d = dev_upload(h, 16); /* left allocated across the next shutdown */
        gemm_once(&rng, what, (unsigned)cycle % 8);
        dot_once(&rng, what);
        CHECK_OK(glblasShutdown());
        CHECK_INVALID(glblasFree(d));
    }

    /* finally, a shutdown with nothing left to do, then one more round */
    CHECK_OK(glblasShutdown());
    gemm_once(&rng, "final", 3);
    CHECK_OK(glblasShutdown());
    return check_finish("test_shutdown");
}
