// link: -lEGL -lGL
/*
 * test_egl_context.c - a program with its OWN EGL context current calls
 * glblas; after every call its context, draw surface, read surface, display
 * and bound API must be current again and its GL state unchanged.
 *
 * The program opens a display on EGL_PLATFORM_SURFACELESS_MESA (falling back
 * to the first EGL device, EGL_PLATFORM_DEVICE_EXT), creates two pbuffer
 * surfaces and an OpenGL 3.3 core context, makes it current with draw = pb1
 * and read = pb2, sets GL state (viewport, clear colour, scissor, an
 * array-buffer binding, pack / unpack alignment) and then calls: glblasInit,
 * glblasGetDeviceName, glblasSgemm (host), glblasMalloc / Memcpy (all kinds),
 * glblasSgemm / Sdot (device result) / Saxpy on device pointers, glblasSync,
 * glblasFree, a failing call (INVALID_VALUE), glblasShutdown and a lazily
 * re-initialising call, each result checked (tolerances from check.h). It
 * repeats with draw == read, and with no context current. Finally the
 * program's context must still render (clear + glReadPixels) and the display
 * must still be usable (eglMakeCurrent release / re-acquire succeeds).
 */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>

#include "check.h"

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_PLATFORM_DEVICE_EXT
#define EGL_PLATFORM_DEVICE_EXT 0x313F
#endif

static EGLDisplay g_dpy = EGL_NO_DISPLAY;
static EGLContext g_ctx = EGL_NO_CONTEXT;
static EGLSurface g_pb1 = EGL_NO_SURFACE, g_pb2 = EGL_NO_SURFACE;
static EGLSurface g_draw, g_read; /* what the program has current now */
static GLuint g_buf;

typedef struct {
    GLint viewport[4];
    GLfloat clear[4];
    GLboolean scissor_on;
    GLint scissor[4];
    GLint array_buffer;
    GLint pack, unpack;
} gl_state_t;

static gl_state_t g_state;

static void get_state(gl_state_t *s)
{
    glGetIntegerv(GL_VIEWPORT, s->viewport);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, s->clear);
    s->scissor_on = glIsEnabled(GL_SCISSOR_TEST);
    glGetIntegerv(GL_SCISSOR_BOX, s->scissor);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &s->array_buffer);
    glGetIntegerv(GL_PACK_ALIGNMENT, &s->pack);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &s->unpack);
}

static EGLDisplay try_display(EGLenum platform, void *native)
{
    EGLDisplay d = eglGetPlatformDisplay(platform, native, NULL);
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY)
        return EGL_NO_DISPLAY;
    if (!eglInitialize(d, &major, &minor))
        return EGL_NO_DISPLAY;
    printf("  EGL %d.%d on platform 0x%x (%s)\n", major, minor, (unsigned)platform, eglQueryString(d, EGL_VENDOR));
    return d;
}

static EGLDisplay open_display(void)
{
    const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLDisplay d = EGL_NO_DISPLAY;
    if (ext && strstr(ext, "EGL_MESA_platform_surfaceless"))
        d = try_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
    if (d == EGL_NO_DISPLAY && ext && strstr(ext, "EGL_EXT_platform_device")) {
        PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devs[8];
        EGLint n = 0, i;
        if (query && query(8, devs, &n))
            for (i = 0; i < n && d == EGL_NO_DISPLAY; ++i)
                d = try_display(EGL_PLATFORM_DEVICE_EXT, devs[i]);
    }
    return d;
}

static void setup_context(void)
{
    static const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                       EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                       EGL_NONE };
    static const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE };
    static const EGLint pb1_attr[] = { EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE };
    static const EGLint pb2_attr[] = { EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE };
    EGLConfig cfg;
    EGLint ncfg = 0;
    PFNGLGENBUFFERSPROC gen_buffers;
    PFNGLBINDBUFFERPROC bind_buffer;

    g_dpy = open_display();
    if (g_dpy == EGL_NO_DISPLAY)
        FATAL("the test could not open an EGL display (surfaceless or device platform), EGL error 0x%x",
              (unsigned)eglGetError());
    if (!eglBindAPI(EGL_OPENGL_API))
        FATAL("eglBindAPI(EGL_OPENGL_API) failed: 0x%x", (unsigned)eglGetError());
    if (!eglChooseConfig(g_dpy, cfg_attr, &cfg, 1, &ncfg) || ncfg < 1)
        FATAL("eglChooseConfig found no pbuffer + OpenGL config: 0x%x", (unsigned)eglGetError());
    g_ctx = eglCreateContext(g_dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (g_ctx == EGL_NO_CONTEXT)
        FATAL("eglCreateContext (OpenGL 3.3 core) failed: 0x%x", (unsigned)eglGetError());
    g_pb1 = eglCreatePbufferSurface(g_dpy, cfg, pb1_attr);
    g_pb2 = eglCreatePbufferSurface(g_dpy, cfg, pb2_attr);
    if (g_pb1 == EGL_NO_SURFACE || g_pb2 == EGL_NO_SURFACE)
        FATAL("eglCreatePbufferSurface failed: 0x%x", (unsigned)eglGetError());
    g_draw = g_pb1;
    g_read = g_pb2;
    if (!eglMakeCurrent(g_dpy, g_draw, g_read, g_ctx))
        FATAL("eglMakeCurrent(own context) failed: 0x%x", (unsigned)eglGetError());
    printf("  own context: %s / %s\n", (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));

    gen_buffers = (PFNGLGENBUFFERSPROC)eglGetProcAddress("glGenBuffers");
    bind_buffer = (PFNGLBINDBUFFERPROC)eglGetProcAddress("glBindBuffer");
    if (!gen_buffers || !bind_buffer)
        FATAL("eglGetProcAddress(glGenBuffers / glBindBuffer) failed");

    glViewport(3, 5, 40, 30);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glEnable(GL_SCISSOR_TEST);
    glScissor(1, 2, 10, 11);
    gen_buffers(1, &g_buf);
    bind_buffer(GL_ARRAY_BUFFER, g_buf);
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
    if (glGetError() != GL_NO_ERROR)
        FATAL("setting up the program's GL state raised a GL error");
    get_state(&g_state);
}

/* After a glblas call: the program's context, surfaces, display, API and GL
 * state must be what they were. */
static void check_ours(const char *after)
{
    EGLContext c = eglGetCurrentContext();
    EGLSurface dr = eglGetCurrentSurface(EGL_DRAW), rd = eglGetCurrentSurface(EGL_READ);
    EGLDisplay d = eglGetCurrentDisplay();
    EGLenum api = eglQueryAPI();
    CHECK(c == g_ctx, "after %s: eglGetCurrentContext() expected the program's context %p, got %p", after,
          (void *)g_ctx, (void *)c);
    CHECK(dr == g_draw, "after %s: eglGetCurrentSurface(EGL_DRAW) expected %p, got %p", after, (void *)g_draw,
          (void *)dr);
    CHECK(rd == g_read, "after %s: eglGetCurrentSurface(EGL_READ) expected %p, got %p", after, (void *)g_read,
          (void *)rd);
    CHECK(d == g_dpy, "after %s: eglGetCurrentDisplay() expected %p, got %p", after, (void *)g_dpy, (void *)d);
    CHECK(api == EGL_OPENGL_API, "after %s: eglQueryAPI() expected EGL_OPENGL_API (0x%x), got 0x%x", after,
          (unsigned)EGL_OPENGL_API, (unsigned)api);
    if (c == g_ctx) {
        gl_state_t s;
        GLenum err;
        get_state(&s);
        CHECK(memcmp(s.viewport, g_state.viewport, sizeof s.viewport) == 0,
              "after %s: GL_VIEWPORT expected (3,5,40,30), got (%d,%d,%d,%d)", after, s.viewport[0], s.viewport[1],
              s.viewport[2], s.viewport[3]);
        CHECK(memcmp(s.clear, g_state.clear, sizeof s.clear) == 0,
              "after %s: GL_COLOR_CLEAR_VALUE expected (0.25,0.5,0.75,1), got (%g,%g,%g,%g)", after,
              (double)s.clear[0], (double)s.clear[1], (double)s.clear[2], (double)s.clear[3]);
        CHECK(s.scissor_on == GL_TRUE, "after %s: GL_SCISSOR_TEST no longer enabled", after);
        CHECK(memcmp(s.scissor, g_state.scissor, sizeof s.scissor) == 0,
              "after %s: GL_SCISSOR_BOX expected (1,2,10,11), got (%d,%d,%d,%d)", after, s.scissor[0], s.scissor[1],
              s.scissor[2], s.scissor[3]);
        CHECK(s.array_buffer == (GLint)g_buf, "after %s: GL_ARRAY_BUFFER_BINDING expected %u, got %d", after,
              (unsigned)g_buf, s.array_buffer);
        CHECK(s.pack == 2, "after %s: GL_PACK_ALIGNMENT expected 2, got %d", after, s.pack);
        CHECK(s.unpack == 8, "after %s: GL_UNPACK_ALIGNMENT expected 8, got %d", after, s.unpack);
        err = glGetError();
        CHECK(err == GL_NO_ERROR, "after %s: glGetError() in the program's context gives 0x%x", after, (unsigned)err);
    }
}

static void make_ours_current(EGLSurface draw, EGLSurface read, const char *why)
{
    if (!eglMakeCurrent(g_dpy, draw, read, g_ctx))
        FAIL("%s: eglMakeCurrent(program's context) failed: 0x%x", why, (unsigned)eglGetError());
    g_draw = draw;
    g_read = read;
}

static void host_gemm(rng_t *rng, const char *what)
{
    enum { M = 13, N = 11, K = 7, LDC = 15 };
    float A[K * M], B[K * N], C[LDC * N], C0[LDC * N];
    double ref[M * N], tol[M * N];
    char label[120];
    fill_rand(rng, A, K * M);
    fill_rand(rng, B, K * N);
    fill_const(C, LDC * N, SENTINEL);
    {
        int i, j;
        for (j = 0; j < N; ++j)
            for (i = 0; i < M; ++i)
                C[i + j * LDC] = rng_float(rng);
    }
    memcpy(C0, C, sizeof C);
    ref_sgemm(GLBLAS_OP_T, GLBLAS_OP_N, M, N, K, 1.25f, A, K, B, K, 0.5f, C0, LDC, ref, tol);
    snprintf(label, sizeof label, "%s: host sgemm(T,N) 13x11x7", what);
    if (CHECK_OK(glblasSgemm(GLBLAS_OP_T, GLBLAS_OP_N, M, N, K, 1.25f, A, K, B, K, 0.5f, C, LDC)))
        check_gemm_c(label, C, C0, LDC * N, 0, M, N, LDC, ref, tol);
}

static void device_work(rng_t *rng, int check_egl)
{
    enum { M = 8, N = 6, K = 5, NV = 257 };
    float A[M * K], B[K * N], C[M * N], C0[M * N], x[NV], y[NV], got[NV], res = 0.0f;
    double ref[M * N], tol[M * N], exact, dtol, *yv, *ye, *xv, *xe;
    float *dA, *dB, *dC, *dx, *dy, *dres;
    void *p = NULL;

#define AFTER(what)                                                                                                \
    do {                                                                                                           \
        if (check_egl)                                                                                             \
            check_ours(what);                                                                                      \
    } while (0)

    fill_rand(rng, A, M * K);
    fill_rand(rng, B, K * N);
    fill_rand(rng, C, M * N);
    fill_rand(rng, x, NV);
    fill_rand(rng, y, NV);
    memcpy(C0, C, sizeof C);

    CHECK_OK(glblasMalloc(&p, sizeof A));
    AFTER("glblasMalloc");
    dA = (float *)p;
    if (!dA)
        FATAL("glblasMalloc failed");
    CHECK_OK(glblasMemcpy(dA, A, sizeof A, glblasMemcpyHostToDevice));
    AFTER("glblasMemcpy HostToDevice");
    dB = dev_upload(B, K * N);
    dC = dev_alloc(M * N);
    CHECK_OK(glblasMemcpy(dC, C, sizeof C, glblasMemcpyInfer));
    AFTER("glblasMemcpy Infer");
    dx = dev_upload(x, NV);
    dy = dev_alloc(NV);
    CHECK_OK(glblasMemcpy(dy, dx, sizeof x, glblasMemcpyDeviceToDevice));
    AFTER("glblasMemcpy DeviceToDevice");
    dev_write(dy, y, NV);
    dres = dev_alloc(1);

    ref_sgemm(GLBLAS_OP_N, GLBLAS_OP_N, M, N, K, -1.0f, A, M, B, K, 2.0f, C0, M, ref, tol);
    CHECK_OK(glblasSgemm(GLBLAS_OP_N, GLBLAS_OP_N, M, N, K, -1.0f, dA, M, dB, K, 2.0f, dC, M));
    AFTER("glblasSgemm (device)");
    CHECK_OK(glblasMemcpy(C, dC, sizeof C, glblasMemcpyDeviceToHost));
    AFTER("glblasMemcpy DeviceToHost");
    check_gemm_c("device sgemm with the program's context current", C, C0, M * N, 0, M, N, M, ref, tol);

    ref_sdot(NV, x, 1, y, 1, &exact, &dtol);
    CHECK_OK(glblasSdot(NV, dx, 1, dy, 1, dres));
    AFTER("glblasSdot (device result)");
    dev_read(&res, dres, 1);
    check_close("device sdot with the program's context current", (double)res, exact, dtol);
    CHECK_OK(glblasSdot(NV, dx, 1, y, 1, &res));
    AFTER("glblasSdot (host result)");
    check_close("mixed sdot with the program's context current", (double)res, exact, dtol);

    shadow_init(x, NV, &xv, &xe);
    shadow_init(y, NV, &yv, &ye);
    ref_saxpy_seq(NV, 0.5f, xv, xe, 1, yv, ye, 1);
    CHECK_OK(glblasSaxpy(NV, 0.5f, dx, 1, dy, 1));
    AFTER("glblasSaxpy (device)");
    CHECK_OK(glblasSync());
    AFTER("glblasSync");
    dev_read(got, dy, NV);
    check_shadow("device saxpy with the program's context current", got, yv, ye, NV);
    free(xv);
    free(xe);
    free(yv);
    free(ye);

    CHECK_INVALID(glblasSgemm((glblasOperation_t)7, GLBLAS_OP_N, M, N, K, 1.0f, dA, M, dB, K, 0.0f, dC, M));
    AFTER("a failing glblasSgemm");
    CHECK_INVALID(glblasFree(dA + 1));
    AFTER("a failing glblasFree");

    CHECK_OK(glblasFree(dA));
    AFTER("glblasFree");
    dev_free(dB);
    dev_free(dC);
    dev_free(dx);
    dev_free(dy);
    dev_free(dres);
#undef AFTER
}

int main(void)
{
    rng_t rng = rng_seed(8);
    const char *name;
    float x[3] = { 1.0f, 2.0f, 3.0f }, res = 0.0f;
    unsigned char px[4] = { 0, 0, 0, 0 };

    setup_context();
    check_ours("setup (sanity)");

    /* the first glblas call initialises the library while our context is current */
    CHECK_OK(glblasInit());
    check_ours("glblasInit");
    name = glblasGetDeviceName();
    check_ours("glblasGetDeviceName");
    CHECK(name != NULL, "glblasGetDeviceName() returned NULL");
    CHECK(glblasGetStatusString(GLBLAS_STATUS_SUCCESS) != NULL, "glblasGetStatusString returned NULL");
    check_ours("glblasGetStatusString");

    host_gemm(&rng, "draw != read");
    check_ours("glblasSgemm (host)");
    device_work(&rng, 1);

    /* shutdown while our context is current, then lazy re-initialisation */
    CHECK_OK(glblasShutdown());
    check_ours("glblasShutdown");
    CHECK_OK(glblasSdot(3, x, 1, x, 1, &res));
    check_ours("glblasSdot re-initialising after glblasShutdown");
    CHECK(res == 14.0f, "sdot after shutdown: expected 14, got %.9g", (double)res);
    host_gemm(&rng, "after shutdown");
    check_ours("glblasSgemm (host) after shutdown");

    /* draw == read */
    make_ours_current(g_pb1, g_pb1, "draw == read");
    host_gemm(&rng, "draw == read");
    check_ours("glblasSgemm (host), draw == read");
    device_work(&rng, 1);

    /* no context current at all: glblas works */
    if (!eglMakeCurrent(g_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        FAIL("releasing the program's context failed: 0x%x", (unsigned)eglGetError());
    host_gemm(&rng, "no context current");
    device_work(&rng, 0);
    CHECK_OK(glblasShutdown());

    /* the program's display and context still work: make current again, render, read back */
    make_ours_current(g_pb1, g_pb1, "re-acquire after glblas calls with no context current");
    check_ours("re-acquiring the program's context");
    glDisable(GL_SCISSOR_TEST);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(20, 20, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(px[0] >= 63 && px[0] <= 64 && px[1] >= 127 && px[1] <= 128 && px[2] >= 191 && px[2] <= 192 &&
              px[3] == 255,
          "the program's context renders wrongly: clear colour read back as (%u,%u,%u,%u), expected ~(64,128,191,255)",
          px[0], px[1], px[2], px[3]);
    CHECK(glGetError() == GL_NO_ERROR, "GL error in the program's context after rendering");
    if (!eglMakeCurrent(g_dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        FAIL("final release of the program's context failed: 0x%x", (unsigned)eglGetError());
    eglDestroySurface(g_dpy, g_pb1);
    eglDestroySurface(g_dpy, g_pb2);
    eglDestroyContext(g_dpy, g_ctx);
    eglTerminate(g_dpy);
    return check_finish("test_egl_context");
}
