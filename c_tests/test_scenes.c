/*
 * test_scenes.c - long runs of sgemm and saxpy calls on device memory, none of which waits
 * for the device: with the fragment pipeline and small render targets every call is many
 * small draws, so llvmpipe has many scenes in flight and recycles them while its rasterizer
 * threads are still signalling their fences (src/engine/scene_fences.rs). c_tests.rs runs it
 * that way with the threads slowed inside the signal (c_tests/handlers/slow_broadcast.c) and
 * freed memory poisoned, where a fence freed too early hangs or crashes the process.
 * The data are small integers, so every result is exact and compared bit for bit.
 */
#include "check.h"

#define N 64
#define CALLS 100

int main(void)
{
    float *a = (float *)xmalloc(N * N * sizeof(float)), *c = (float *)xmalloc(N * N * sizeof(float));
    float *got = (float *)xmalloc(N * N * sizeof(float));
    rng_t rng = rng_seed(7);
    int i, j, l, call;
    for (i = 0; i < N * N; i++)
        a[i] = (float)rng_int(&rng, -1, 1);
    float *da = dev_upload(a, N * N);
    fill_const(c, N * N, 0.0f);
    float *dc = dev_upload(c, N * N);

    /* C += A*A, CALLS times: C = CALLS * A*A (|entries| <= CALLS * N, exact in fp32). */
    for (call = 0; call < CALLS; call++)
        if (!CHECK_OK(glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_N, N, N, N, 1.0f, da, N, da, N, 1.0f, dc, N)))
            break;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++) {
            double s = 0;
            for (l = 0; l < N; l++)
                s += (double)a[i + l * N] * a[l + j * N];
            c[i + j * N] = (float)(CALLS * s);
        }
    dev_read(got, dc, N * N);
    check_bits_equal("sgemm C after the calls", got, c, N * N);

    /* y += x over the same buffers, CALLS times. */
    float *dy = dev_upload(a, N * N);
    for (call = 0; call < CALLS; call++)
        if (!CHECK_OK(glblasSaxpy(N * N, 1.0f, da, 1, dy, 1)))
            break;
    for (i = 0; i < N * N; i++)
        c[i] = (float)(CALLS + 1) * a[i];
    dev_read(got, dy, N * N);
    check_bits_equal("saxpy y after the calls", got, c, N * N);

    dev_free(da);
    dev_free(dc);
    dev_free(dy);
    free(a);
    free(c);
    free(got);
    return check_finish("test_scenes");
}
