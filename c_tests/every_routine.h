/*
 * every_routine.h - one call of each glblas routine (saxpy, sdot, sscal,
 * scopy, sswap, sasum, sgemv, sgemm) on host operands or on device operands,
 * each result checked against the references of check.h (include after it),
 * with a hook run after every glblas call, the malloc / memcpy / free of the
 * device operands included: for tests of what a call leaves behind on the
 * calling thread. Reentrant: threads may run it at once with their own rng.
 */
#ifndef GLBLAS_C_TESTS_EVERY_ROUTINE_H
#define GLBLAS_C_TESTS_EVERY_ROUTINE_H

/* Called after each glblas call with the call's name; NULL: nothing. */
typedef void (*after_fn)(void *arg, const char *what);

typedef struct {
    after_fn after;
    void *arg;
    int dev; /* operands (and sdot / sasum results) in device memory */
} sweep_t;

enum { SWEEP_NV = 257, SWEEP_M = 13, SWEEP_N = 11, SWEEP_K = 7, SWEEP_LD = 15 };

static void sweep_after(const sweep_t *s, const char *call)
{
    char what[160];
    if (!s->after)
        return;
    snprintf(what, sizeof what, "%s (%s operands)", call, s->dev ? "device" : "host");
    s->after(s->arg, what);
}

static void sweep_label(char *label, size_t size, const sweep_t *s, const char *routine)
{
    snprintf(label, size, "%s on %s operands", routine, s->dev ? "device" : "host");
}

/* The operand as the call gets it: `h` itself, or a device copy of its n floats. */
static float *sweep_in(const sweep_t *s, float *h, size_t n)
{
    void *d = NULL;
    if (!s->dev)
        return h;
    CHECK_OK(glblasMalloc(&d, n * sizeof(float)));
    sweep_after(s, "glblasMalloc");
    if (!d)
        FATAL("glblasMalloc(%lu floats) gave NULL", (unsigned long)n);
    CHECK_OK(glblasMemcpy(d, h, n * sizeof(float), glblasMemcpyHostToDevice));
    sweep_after(s, "glblasMemcpy HostToDevice");
    return (float *)d;
}

/* Done with operand `d` (from sweep_in(h)): copied back into `h` when `result`, then freed. */
static void sweep_out(const sweep_t *s, float *h, float *d, size_t n, int result)
{
    if (!s->dev)
        return;
    if (result) {
        CHECK_OK(glblasMemcpy(h, d, n * sizeof(float), glblasMemcpyDeviceToHost));
        sweep_after(s, "glblasMemcpy DeviceToHost");
    }
    CHECK_OK(glblasFree(d));
    sweep_after(s, "glblasFree");
}

static void sweep_saxpy(const sweep_t *s, rng_t *rng)
{
    float x[SWEEP_NV], y[SWEEP_NV], *dx, *dy;
    double *xv, *xe, *yv, *ye;
    char label[80];
    glblasStatus_t st;
    sweep_label(label, sizeof label, s, "saxpy");
    fill_rand(rng, x, SWEEP_NV);
    fill_rand(rng, y, SWEEP_NV);
    shadow_init(x, SWEEP_NV, &xv, &xe);
    shadow_init(y, SWEEP_NV, &yv, &ye);
    ref_saxpy_seq(SWEEP_NV, 0.75f, xv, xe, 1, yv, ye, 1);
    dx = sweep_in(s, x, SWEEP_NV);
    dy = sweep_in(s, y, SWEEP_NV);
    st = glblasSaxpy(SWEEP_NV, 0.75f, dx, 1, dy, 1);
    sweep_after(s, "glblasSaxpy");
    sweep_out(s, x, dx, SWEEP_NV, 0);
    sweep_out(s, y, dy, SWEEP_NV, 1);
    if (succeeded(label, st))
        check_shadow(label, y, yv, ye, SWEEP_NV);
    free(xv);
    free(xe);
    free(yv);
    free(ye);
}

/* sdot (asum == 0) or sasum (asum == 1) of random vectors, the result where the operands are. */
static void sweep_reduce(const sweep_t *s, rng_t *rng, int asum)
{
    float x[SWEEP_NV], y[SWEEP_NV], res = SENTINEL, *dx, *dy = NULL, *dres;
    double exact, tol;
    char label[80];
    glblasStatus_t st;
    sweep_label(label, sizeof label, s, asum ? "sasum" : "sdot");
    fill_rand(rng, x, SWEEP_NV);
    fill_rand(rng, y, SWEEP_NV);
    if (asum)
        ref_sasum(SWEEP_NV, x, 1, &exact, &tol);
    else
        ref_sdot(SWEEP_NV, x, 1, y, 1, &exact, &tol);
    dx = sweep_in(s, x, SWEEP_NV);
    if (!asum)
        dy = sweep_in(s, y, SWEEP_NV);
    dres = sweep_in(s, &res, 1);
    st = asum ? glblasSasum(SWEEP_NV, dx, 1, dres) : glblasSdot(SWEEP_NV, dx, 1, dy, 1, dres);
    sweep_after(s, asum ? "glblasSasum" : "glblasSdot");
    sweep_out(s, x, dx, SWEEP_NV, 0);
    if (!asum)
        sweep_out(s, y, dy, SWEEP_NV, 0);
    sweep_out(s, &res, dres, 1, 1);
    if (succeeded(label, st))
        check_close(label, (double)res, exact, tol);
}

static void sweep_scal(const sweep_t *s, rng_t *rng)
{
    float x[SWEEP_NV], want[SWEEP_NV], *dx;
    char label[80];
    glblasStatus_t st;
    int i;
    sweep_label(label, sizeof label, s, "sscal");
    fill_rand(rng, x, SWEEP_NV);
    for (i = 0; i < SWEEP_NV; ++i)
        want[i] = -0.5f * x[i]; /* exact: a power of two */
    dx = sweep_in(s, x, SWEEP_NV);
    st = glblasSscal(SWEEP_NV, -0.5f, dx, 1);
    sweep_after(s, "glblasSscal");
    sweep_out(s, x, dx, SWEEP_NV, 1);
    if (succeeded(label, st))
        check_floats_same(label, x, want, SWEEP_NV);
}

/* scopy (swap == 0) or sswap (swap == 1): exact results, from the reference loops. */
static void sweep_copy_swap(const sweep_t *s, rng_t *rng, int swap)
{
    float x[SWEEP_NV], y[SWEEP_NV], wx[SWEEP_NV], wy[SWEEP_NV], *dx, *dy;
    char label[80];
    glblasStatus_t st;
    sweep_label(label, sizeof label, s, swap ? "sswap" : "scopy");
    fill_rand(rng, x, SWEEP_NV);
    fill_rand(rng, y, SWEEP_NV);
    memcpy(wx, x, sizeof x);
    memcpy(wy, y, sizeof y);
    if (swap)
        ref_sswap_seq(SWEEP_NV, wx, 1, wy, 1);
    else
        ref_scopy_seq(SWEEP_NV, wx, 1, wy, 1);
    dx = sweep_in(s, x, SWEEP_NV);
    dy = sweep_in(s, y, SWEEP_NV);
    st = swap ? glblasSswap(SWEEP_NV, dx, 1, dy, 1) : glblasScopy(SWEEP_NV, dx, 1, dy, 1);
    sweep_after(s, swap ? "glblasSswap" : "glblasScopy");
    sweep_out(s, x, dx, SWEEP_NV, 1);
    sweep_out(s, y, dy, SWEEP_NV, 1);
    if (succeeded(label, st)) {
        check_floats_same(label, x, wx, SWEEP_NV);
        check_floats_same(label, y, wy, SWEEP_NV);
    }
}

/* y := 1.5 A^T x - 0.5 y, A M x N with lda LD. */
static void sweep_gemv(const sweep_t *s, rng_t *rng)
{
    float A[SWEEP_LD * SWEEP_N], x[SWEEP_M], y[SWEEP_N], y0[SWEEP_N], *dA, *dx, *dy;
    double ref[SWEEP_N], tol[SWEEP_N];
    char label[80];
    glblasStatus_t st;
    sweep_label(label, sizeof label, s, "sgemv(T)");
    fill_rand(rng, A, SWEEP_LD * SWEEP_N);
    fill_rand(rng, x, SWEEP_M);
    fill_rand(rng, y, SWEEP_N);
    memcpy(y0, y, sizeof y);
    ref_sgemv(GLBLAS_OP_T, SWEEP_M, SWEEP_N, 1.5f, A, SWEEP_LD, x, 1, -0.5f, y, 1, ref, tol);
    dA = sweep_in(s, A, SWEEP_LD * SWEEP_N);
    dx = sweep_in(s, x, SWEEP_M);
    dy = sweep_in(s, y, SWEEP_N);
    st = glblasSgemv(GLBLAS_OP_T, SWEEP_M, SWEEP_N, 1.5f, dA, SWEEP_LD, dx, 1, -0.5f, dy, 1);
    sweep_after(s, "glblasSgemv");
    sweep_out(s, A, dA, SWEEP_LD * SWEEP_N, 0);
    sweep_out(s, x, dx, SWEEP_M, 0);
    sweep_out(s, y, dy, SWEEP_N, 1);
    if (succeeded(label, st))
        check_vec_result(label, y, y0, SWEEP_N, 0, SWEEP_N, 1, ref, tol);
}

/* C := 1.25 A^T B + 0.5 C: A K x M, B K x N, C M x N with ldc LD (rows M..LD untouched). */
static void sweep_gemm(const sweep_t *s, rng_t *rng)
{
    float A[SWEEP_K * SWEEP_M], B[SWEEP_K * SWEEP_N], C[SWEEP_LD * SWEEP_N], C0[SWEEP_LD * SWEEP_N], *dA, *dB, *dC;
    double ref[SWEEP_M * SWEEP_N], tol[SWEEP_M * SWEEP_N];
    char label[80];
    glblasStatus_t st;
    sweep_label(label, sizeof label, s, "sgemm(T,N)");
    fill_rand(rng, A, SWEEP_K * SWEEP_M);
    fill_rand(rng, B, SWEEP_K * SWEEP_N);
    fill_rand(rng, C, SWEEP_LD * SWEEP_N);
    memcpy(C0, C, sizeof C);
    ref_sgemm(GLBLAS_OP_T, GLBLAS_OP_N, SWEEP_M, SWEEP_N, SWEEP_K, 1.25f, A, SWEEP_K, B, SWEEP_K, 0.5f, C0, SWEEP_LD,
              ref, tol);
    dA = sweep_in(s, A, SWEEP_K * SWEEP_M);
    dB = sweep_in(s, B, SWEEP_K * SWEEP_N);
    dC = sweep_in(s, C, SWEEP_LD * SWEEP_N);
    st = glblasSgemm(GLBLAS_OP_T, GLBLAS_OP_N, SWEEP_M, SWEEP_N, SWEEP_K, 1.25f, dA, SWEEP_K, dB, SWEEP_K, 0.5f, dC,
                     SWEEP_LD);
    sweep_after(s, "glblasSgemm");
    sweep_out(s, A, dA, SWEEP_K * SWEEP_M, 0);
    sweep_out(s, B, dB, SWEEP_K * SWEEP_N, 0);
    sweep_out(s, C, dC, SWEEP_LD * SWEEP_N, 1);
    if (succeeded(label, st))
        check_gemm_c(label, C, C0, SWEEP_LD * SWEEP_N, 0, SWEEP_M, SWEEP_N, SWEEP_LD, ref, tol);
}

/* Each routine once, on device operands when `dev`, `after` run after every glblas call. */
static void every_routine(rng_t *rng, int dev, after_fn after, void *arg)
{
    sweep_t s;
    s.after = after;
    s.arg = arg;
    s.dev = dev;
    sweep_saxpy(&s, rng);
    sweep_reduce(&s, rng, 0);
    sweep_scal(&s, rng);
    sweep_copy_swap(&s, rng, 0);
    sweep_copy_swap(&s, rng, 1);
    sweep_reduce(&s, rng, 1);
    sweep_gemv(&s, rng);
    sweep_gemm(&s, rng);
}

#endif /* GLBLAS_C_TESTS_EVERY_ROUTINE_H */
