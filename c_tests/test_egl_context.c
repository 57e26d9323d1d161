// link: -lEGL -lGL
/*
 * test_egl_context.c - a program with its OWN EGL context current calls
 * glblas; after every call its context, draw and read surfaces, display and
 * bound API are current again, its GL state (own_context.h: program,
 * framebuffers, active texture unit and its texture, every buffer binding,
 * viewport, scissor, clear colour, pixel store) is unchanged, and it still
 * renders the same frame (every pixel checked).
 *
 * The calls: glblasInit, glblasGetDeviceName, glblasGetStatusString, every
 * single-precision routine on host operands and eight on device operands
 * (every_routine.h, each result checked against the reference BLAS, with the
 * malloc / memcpy / free of its operands),
 * glblasMemcpy Infer and DeviceToDevice, glblasSync, failing calls
 * (INVALID_VALUE from sgemm, free, memcpy), glblasShutdown and a lazily
 * re-initialising call. Then again with draw == read, and with no context
 * current (none is left current). Finally the program's context still renders
 * and its display is still usable.
 */
#include "check.h"
#include "every_routine.h"
#include "own_context.h"

static own_context_t g_own;

static void after(const char *what)
{
    own_after(&g_own, what);
}

/* The calls every_routine does not make: memcpy's other kinds, sync, failing calls. */
static void other_calls(rng_t *rng, after_fn hook, void *arg)
{
    enum { NV = 300 };
    float x[NV], got[NV], *dx, *dy;
    fill_rand(rng, x, NV);
    dx = dev_upload(x, NV);
    dy = dev_alloc(NV);
    hook(arg, "glblasMalloc and glblasMemcpy HostToDevice");
    CHECK_OK(glblasMemcpy(dy, dx, sizeof x, glblasMemcpyDeviceToDevice));
    hook(arg, "glblasMemcpy DeviceToDevice");
    CHECK_OK(glblasSync());
    hook(arg, "glblasSync");
    CHECK_OK(glblasMemcpy(got, dy, sizeof got, glblasMemcpyInfer));
    hook(arg, "glblasMemcpy Infer");
    check_floats_same("device-to-device copy", got, x, NV);
    CHECK_INVALID(glblasSgemm((glblasOperation_t)7, GLBLAS_OP_N, 2, 2, 2, 1.0f, dx, 2, dy, 2, 0.0f, dy, 2));
    hook(arg, "a failing glblasSgemm");
    CHECK_INVALID(glblasFree(dx + 1));
    hook(arg, "a failing glblasFree");
    CHECK_INVALID(glblasMemcpy(got, x, sizeof x, glblasMemcpyInfer));
    hook(arg, "a failing glblasMemcpy");
    dev_free(dx);
    dev_free(dy);
    hook(arg, "glblasFree");
}

static void hook_own(void *arg, const char *what)
{
    own_after((own_context_t *)arg, what);
}

static void hook_none_current(void *arg, const char *what)
{
    (void)arg;
    CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT, "after %s: a context was left current", what);
}

/* Every single-precision routine on host operands; on device operands, each with its malloc,
 * memcpy and free, eight (the hook renders and reads back a frame after every call, a round
 * trip each on virgl). Single precision, whose shaders the earlier tests have compiled: every
 * precision made this program compile about 100 shaders of its own, 218 s on llvmpipe. */
static void all_calls(rng_t *rng, after_fn hook, void *arg)
{
    some_routines(rng, 0, hook, arg, ROUTINE_COUNT, "s");
    some_routines(rng, 1, hook, arg, 8, "s");
    other_calls(rng, hook, arg);
}

int main(void)
{
    rng_t rng = rng_seed(8);
    const char *name;
    float x[3] = { 1.0f, 2.0f, 3.0f }, res = 0.0f;

    own_context_create(&g_own);
    printf("  own context: %s / %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
    if (own_check(&g_own, "setup (sanity)") + own_render(&g_own, "setup (sanity)") != 0)
        FATAL("the test's own context does not render as expected before any glblas call");

    /* the first glblas call initialises the library while our context is current */
    CHECK_OK(glblasInit());
    after("glblasInit");
    name = glblasGetDeviceName();
    after("glblasGetDeviceName");
    CHECK(name != NULL, "glblasGetDeviceName() returned NULL");
    CHECK(glblasGetStatusString(GLBLAS_STATUS_SUCCESS) != NULL, "glblasGetStatusString returned NULL");
    after("glblasGetStatusString");

    all_calls(&rng, hook_own, &g_own);

    /* shutdown while our context is current, then lazy re-initialisation */
    CHECK_OK(glblasShutdown());
    after("glblasShutdown");
    CHECK_OK(glblasSdot(3, x, 1, x, 1, &res));
    after("glblasSdot re-initialising after glblasShutdown");
    CHECK(res == 14.0f, "sdot after shutdown: expected 14, got %.9g", (double)res);

    /* draw == read */
    own_make_current(&g_own, g_own.pb1, g_own.pb1, "draw == read");
    all_calls(&rng, hook_own, &g_own);

    /* no context current at all: glblas works and leaves none current */
    if (!eglMakeCurrent(g_own.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        FAIL("releasing the program's context failed: 0x%x", (unsigned)eglGetError());
    all_calls(&rng, hook_none_current, NULL);
    CHECK_OK(glblasShutdown());
    hook_none_current(NULL, "glblasShutdown");

    /* the program's display and context still work: current again, same state, same frame */
    own_make_current(&g_own, g_own.pb1, g_own.pb2, "re-acquire after glblas calls with no context current");
    after("re-acquiring the program's context");
    own_context_destroy(&g_own, 1);
    return check_finish("test_egl_context");
}
