// link: -pthread
/*
 * test_threads.c - 8 threads x 30 mixed calls at once, every result checked:
 * sgemm (host operands, device operands, mixed, a device A shared by all
 * threads and allocated by the main thread), sdot (host or device result),
 * saxpy (host, device, mixed), malloc / memcpy / free round trips, sync,
 * device name, status strings. The threads start together (barrier) so the
 * calls really overlap. Tolerances as in check.h.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#endif
#include <pthread.h>

#include "check.h"

enum { NTHREADS = 8, NCALLS = 30, SHARED_ROWS = 24, SHARED_COLS = 24 };

static float g_shared_h[SHARED_ROWS * SHARED_COLS];
static float *g_shared_d; /* read-only device matrix used by every thread */
static pthread_barrier_t g_barrier;

static const glblasOperation_t OPS[3] = { GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C };

/* One sgemm of random small shape; placement bits: 1 A dev, 2 B dev, 4 C dev;
 * shared: A is the shared device matrix (its leading 24 x 24 block). */
static void t_gemm(rng_t *rng, int tid, int call, unsigned where, int shared)
{
    char label[160];
    glblasOperation_t ta = OPS[rng_int(rng, 0, 2)], tb = OPS[rng_int(rng, 0, 2)];
    int m = rng_int(rng, 1, 20), n = rng_int(rng, 1, 20), k = rng_int(rng, 1, 20);
    int rA = op_is_trans(ta) ? k : m, cA = op_is_trans(ta) ? m : k;
    int rB = op_is_trans(tb) ? n : k, cB = op_is_trans(tb) ? k : n;
    int lda = shared ? SHARED_ROWS : rA + rng_int(rng, 0, 2), ldb = rB + rng_int(rng, 0, 2), ldc = m + 1;
    float alpha = rng_float(rng), beta = (call % 3 == 0) ? 0.0f : rng_float(rng);
    size_t lenA = (size_t)lda * (size_t)cA, lenB = (size_t)ldb * (size_t)cB, lenC = (size_t)ldc * (size_t)n;
    float *hA = shared ? g_shared_h : (float *)xmalloc(lenA * sizeof(float));
    float *hB = (float *)xmalloc(lenB * sizeof(float)), *hC = (float *)xmalloc(lenC * sizeof(float)), *C0;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    double *ref = (double *)xmalloc((size_t)m * (size_t)n * sizeof(double));
    double *tol = (double *)xmalloc((size_t)m * (size_t)n * sizeof(double));
    const float *pA;
    glblasStatus_t st;
    int i, j;

    if (!shared)
        fill_rand(rng, hA, lenA);
    fill_rand(rng, hB, lenB);
    fill_const(hC, lenC, SENTINEL);
    for (j = 0; j < n; ++j)
        for (i = 0; i < m; ++i)
            hC[i + (size_t)j * (size_t)ldc] = beta == 0.0f ? NAN : rng_float(rng);
    C0 = fdup(hC, lenC);
    ref_sgemm(ta, tb, m, n, k, alpha, hA, lda, hB, ldb, beta, hC, ldc, ref, tol);
    snprintf(label, sizeof label, "thread %d call %d: sgemm(%s,%s) %dx%dx%d A:%s B:%s C:%s", tid, call, op_name(ta),
             op_name(tb), m, n, k, shared ? "shared dev" : ((where & 1) ? "dev" : "host"), (where & 2) ? "dev" : "host",
             (where & 4) ? "dev" : "host");

    if (shared)
        pA = g_shared_d;
    else if (where & 1)
        pA = dA = dev_upload(hA, lenA);
    else
        pA = hA;
    if (where & 2)
        dB = dev_upload(hB, lenB);
    if (where & 4)
        dC = dev_upload(hC, lenC);
    st = glblasSgemm(ta, tb, m, n, k, alpha, pA, lda, dB ? dB : hB, ldb, beta, dC ? dC : hC, ldc);
    if (succeeded(label, st)) {
        if (dC)
            dev_read(hC, dC, lenC);
        check_gemm_c(label, hC, C0, lenC, 0, m, n, ldc, ref, tol);
    }
    dev_free(dA);
    dev_free(dB);
    dev_free(dC);
    if (!shared)
        free(hA);
    free(hB);
    free(hC);
    free(C0);
    free(ref);
    free(tol);
}

static void t_dot(rng_t *rng, int tid, int call, unsigned where)
{
    char label[120];
    int n = rng_int(rng, 1, 3000), incx = rng_int(rng, -2, 2), incy = rng_int(rng, 1, 2);
    size_t lx = vspan(n, incx), ly = vspan(n, incy);
    float *hx = (float *)xmalloc(lx * sizeof(float)), *hy = (float *)xmalloc(ly * sizeof(float));
    float *dx = NULL, *dy = NULL, *dr = NULL, res = SENTINEL;
    double exact, tol;
    glblasStatus_t st;

    fill_rand(rng, hx, lx);
    fill_rand(rng, hy, ly);
    ref_sdot(n, hx, incx, hy, incy, &exact, &tol);
    snprintf(label, sizeof label, "thread %d call %d: sdot n=%d incx=%d incy=%d x:%s y:%s result:%s", tid, call, n,
             incx, incy, (where & 1) ? "dev" : "host", (where & 2) ? "dev" : "host", (where & 4) ? "dev" : "host");
    if (where & 1)
        dx = dev_upload(hx, lx);
    if (where & 2)
        dy = dev_upload(hy, ly);
    if (where & 4)
        dr = dev_alloc(1);
    st = glblasSdot(n, dx ? dx : hx, incx, dy ? dy : hy, incy, dr ? dr : &res);
    if (succeeded(label, st)) {
        if (dr)
            dev_read(&res, dr, 1);
        check_close(label, (double)res, exact, tol);
    }
    dev_free(dx);
    dev_free(dy);
    dev_free(dr);
    free(hx);
    free(hy);
}

static void t_axpy(rng_t *rng, int tid, int call, unsigned where)
{
    char label[120];
    static const int incys[3] = { 1, 2, -1 };
    int n = rng_int(rng, 1, 3000), incx = rng_int(rng, -2, 2), incy = incys[rng_int(rng, 0, 2)];
    float alpha = rng_float(rng);
    size_t lx = vspan(n, incx), ly = vspan(n, incy);
    float *hx = (float *)xmalloc(lx * sizeof(float)), *hy = (float *)xmalloc(ly * sizeof(float));
    float *dx = NULL, *dy = NULL;
    double *xv, *xe, *yv, *ye;
    glblasStatus_t st;

    fill_rand(rng, hx, lx);
    fill_rand(rng, hy, ly);
    shadow_init(hx, lx, &xv, &xe);
    shadow_init(hy, ly, &yv, &ye);
    ref_saxpy_seq(n, alpha, xv, xe, incx, yv, ye, incy);
    snprintf(label, sizeof label, "thread %d call %d: saxpy n=%d incx=%d incy=%d x:%s y:%s", tid, call, n, incx, incy,
             (where & 1) ? "dev" : "host", (where & 2) ? "dev" : "host");
    if (where & 1)
        dx = dev_upload(hx, lx);
    if (where & 2)
        dy = dev_upload(hy, ly);
    st = glblasSaxpy(n, alpha, dx ? dx : hx, incx, dy ? dy : hy, incy);
    if (succeeded(label, st)) {
        if (dy)
            dev_read(hy, dy, ly);
        check_shadow(label, hy, yv, ye, ly);
    }
    dev_free(dx);
    dev_free(dy);
    free(hx);
    free(hy);
    free(xv);
    free(xe);
    free(yv);
    free(ye);
}

static void t_memory(rng_t *rng, int tid, int call)
{
    char label[100];
    int n = rng_int(rng, 1, 5000);
    float *h = (float *)xmalloc((size_t)n * sizeof(float)), *got = (float *)xmalloc((size_t)n * sizeof(float));
    float *d1 = dev_alloc((size_t)n), *d2 = dev_alloc((size_t)n);
    fill_rand(rng, h, (size_t)n);
    dev_write(d1, h, (size_t)n);
    CHECK_OK(glblasMemcpy(d2, d1, (size_t)n * sizeof(float), glblasMemcpyDeviceToDevice));
    CHECK_OK(glblasSync());
    CHECK_OK(glblasMemcpy(got, d2, (size_t)n * sizeof(float), glblasMemcpyInfer));
    snprintf(label, sizeof label, "thread %d call %d: memcpy round trip of %d floats", tid, call, n);
    check_bits_equal(label, got, h, (size_t)n);
    dev_free(d1);
    dev_free(d2);
    free(h);
    free(got);
}

static void *worker(void *arg)
{
    int tid = (int)(intptr_t)arg, call;
    rng_t rng = rng_seed(1000 + (uint64_t)tid);
    pthread_barrier_wait(&g_barrier);
    for (call = 0; call < NCALLS; ++call) {
        int op = (call + tid) % 7;
        unsigned where = (unsigned)rng_int(&rng, 0, 7);
        switch (op) {
        case 0: t_gemm(&rng, tid, call, 0, 0); break;
        case 1: t_gemm(&rng, tid, call, 7, 0); break;
        case 2: t_gemm(&rng, tid, call, where, call % 2); break;
        case 3: t_dot(&rng, tid, call, where); break;
        case 4: t_axpy(&rng, tid, call, where); break;
        case 5: t_memory(&rng, tid, call); break;
        default: {
            const char *name = glblasGetDeviceName();
            const char *s = glblasGetStatusString(GLBLAS_STATUS_INVALID_VALUE);
            CHECK(name != NULL, "thread %d call %d: glblasGetDeviceName() returned NULL", tid, call);
            CHECK(s != NULL, "thread %d call %d: glblasGetStatusString returned NULL", tid, call);
            CHECK_OK(glblasInit());
            t_dot(&rng, tid, call, 5);
            break;
        }
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t th[NTHREADS];
    rng_t rng = rng_seed(5);
    int i;

    CHECK_OK(glblasInit());
    fill_rand(&rng, g_shared_h, SHARED_ROWS * SHARED_COLS);
    g_shared_d = dev_upload(g_shared_h, SHARED_ROWS * SHARED_COLS);

    if (pthread_barrier_init(&g_barrier, NULL, NTHREADS) != 0)
        FATAL("pthread_barrier_init failed");
    for (i = 0; i < NTHREADS; ++i)
        if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) != 0)
            FATAL("pthread_create %d failed", i);
    for (i = 0; i < NTHREADS; ++i)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&g_barrier);

    /* the shared matrix was only read */
    {
        float got[SHARED_ROWS * SHARED_COLS];
        dev_read(got, g_shared_d, SHARED_ROWS * SHARED_COLS);
        check_bits_equal("shared device matrix after the threads", got, g_shared_h, SHARED_ROWS * SHARED_COLS);
    }
    dev_free(g_shared_d);
    CHECK_OK(glblasSync());
    return check_finish("test_threads");
}
