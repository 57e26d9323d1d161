/*
 * own_context.h - a program's OWN EGL context, as a glblas caller would have
 * one current: for the tests that check glblas leaves it exactly as it was
 * (include after check.h; link with -lEGL -lGL).
 *
 * own_context_create() opens a display of the program's choosing
 * (EGL_PLATFORM_SURFACELESS_MESA, else the first EGL device), makes an
 * OpenGL 4.3 core context (3.3 core where 4.3 is missing: then the
 * shader-storage binding, which 3.3 lacks, is not checked and a note says so)
 * current with draw = one pbuffer and read = another, and sets GL state that
 * differs from every default: a linked program in use, a VAO, distinct draw
 * and read framebuffers (both over one RGBA8 texture, so what is drawn can be
 * read back), texture unit 3 active with a texture bound, array / element /
 * pixel-pack / pixel-unpack / uniform / shader-storage / copy / texture
 * buffer bindings, viewport, scissor box and test, clear colour, pack and
 * unpack alignment and row length. Everything is read back once as the
 * reference.
 *
 * own_check() compares the thread's current EGL context, surfaces, display
 * and bound API, and then every one of those GL values, with the reference.
 * own_render() draws with that state (clear inside the scissor box, one
 * triangle covering the viewport, shaded from the bound texture times a tint
 * that changes every frame), reads the target back through the pack buffer
 * and checks every pixel: drawn colour inside viewport and scissor, clear
 * colour in the rest of the scissor box, background elsewhere. Either fails
 * when a glblas call leaves another context current, or any of the state
 * changed.
 */
#ifndef GLBLAS_C_TESTS_OWN_CONTEXT_H
#define GLBLAS_C_TESTS_OWN_CONTEXT_H

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif
#ifndef EGL_PLATFORM_DEVICE_EXT
#define EGL_PLATFORM_DEVICE_EXT 0x313F
#endif

/* The render target: small enough to check every pixel after every call. */
enum { OWN_W = 24, OWN_H = 20, OWN_PACK_ROW = OWN_W + 2 };
/* viewport x, y, w, h and scissor box; their overlap is where the triangle lands */
static const GLint OWN_VIEWPORT[4] = { 3, 5, 12, 9 };
static const GLint OWN_SCISSOR[4] = { 1, 2, 10, 8 };
static const GLfloat OWN_CLEAR[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
/* the sampled texel, RGBA8 */
static const unsigned char OWN_TEXEL[4] = { 255, 128, 64, 255 };

/* GL entry points beyond GL 1.1, through eglGetProcAddress. */
#define OWN_GL_FUNCS(X)                                                                                       \
    X(PFNGLACTIVETEXTUREPROC, ActiveTexture)                                                                  \
    X(PFNGLATTACHSHADERPROC, AttachShader)                                                                    \
    X(PFNGLBINDBUFFERPROC, BindBuffer)                                                                        \
    X(PFNGLBINDFRAMEBUFFERPROC, BindFramebuffer)                                                              \
    X(PFNGLBINDVERTEXARRAYPROC, BindVertexArray)                                                              \
    X(PFNGLBUFFERDATAPROC, BufferData)                                                                        \
    X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, CheckFramebufferStatus)                                                \
    X(PFNGLCOMPILESHADERPROC, CompileShader)                                                                  \
    X(PFNGLCREATEPROGRAMPROC, CreateProgram)                                                                  \
    X(PFNGLCREATESHADERPROC, CreateShader)                                                                    \
    X(PFNGLDELETEBUFFERSPROC, DeleteBuffers)                                                                  \
    X(PFNGLDELETEFRAMEBUFFERSPROC, DeleteFramebuffers)                                                        \
    X(PFNGLDELETEPROGRAMPROC, DeleteProgram)                                                                  \
    X(PFNGLDELETESHADERPROC, DeleteShader)                                                                    \
    X(PFNGLDELETEVERTEXARRAYSPROC, DeleteVertexArrays)                                                        \
    X(PFNGLFRAMEBUFFERTEXTURE2DPROC, FramebufferTexture2D)                                                    \
    X(PFNGLGENBUFFERSPROC, GenBuffers)                                                                        \
    X(PFNGLGENFRAMEBUFFERSPROC, GenFramebuffers)                                                              \
    X(PFNGLGENVERTEXARRAYSPROC, GenVertexArrays)                                                              \
    X(PFNGLGETBUFFERSUBDATAPROC, GetBufferSubData)                                                            \
    X(PFNGLGETPROGRAMIVPROC, GetProgramiv)                                                                    \
    X(PFNGLGETUNIFORMLOCATIONPROC, GetUniformLocation)                                                        \
    X(PFNGLLINKPROGRAMPROC, LinkProgram)                                                                      \
    X(PFNGLSHADERSOURCEPROC, ShaderSource)                                                                    \
    X(PFNGLUNIFORM1IPROC, Uniform1i)                                                                          \
    X(PFNGLUNIFORM4FPROC, Uniform4f)                                                                          \
    X(PFNGLUSEPROGRAMPROC, UseProgram)

typedef struct {
#define OWN_GL_MEMBER(type, name) type name;
    OWN_GL_FUNCS(OWN_GL_MEMBER)
#undef OWN_GL_MEMBER
} own_gl_t;

/* The GL values compared after every call; `gl43`: exists from GL 4.3 on. */
static const struct {
    const char *name;
    GLenum pname;
    int count, gl43;
} OWN_STATE[] = {
    { "GL_CURRENT_PROGRAM", GL_CURRENT_PROGRAM, 1, 0 },
    { "GL_VERTEX_ARRAY_BINDING", GL_VERTEX_ARRAY_BINDING, 1, 0 },
    { "GL_DRAW_FRAMEBUFFER_BINDING", GL_DRAW_FRAMEBUFFER_BINDING, 1, 0 },
    { "GL_READ_FRAMEBUFFER_BINDING", GL_READ_FRAMEBUFFER_BINDING, 1, 0 },
    { "GL_ACTIVE_TEXTURE", GL_ACTIVE_TEXTURE, 1, 0 },
    { "GL_TEXTURE_BINDING_2D (active unit)", GL_TEXTURE_BINDING_2D, 1, 0 },
    { "GL_ARRAY_BUFFER_BINDING", GL_ARRAY_BUFFER_BINDING, 1, 0 },
    { "GL_ELEMENT_ARRAY_BUFFER_BINDING", GL_ELEMENT_ARRAY_BUFFER_BINDING, 1, 0 },
    { "GL_PIXEL_PACK_BUFFER_BINDING", GL_PIXEL_PACK_BUFFER_BINDING, 1, 0 },
    { "GL_PIXEL_UNPACK_BUFFER_BINDING", GL_PIXEL_UNPACK_BUFFER_BINDING, 1, 0 },
    { "GL_UNIFORM_BUFFER_BINDING", GL_UNIFORM_BUFFER_BINDING, 1, 0 },
    { "GL_COPY_READ_BUFFER_BINDING", GL_COPY_READ_BUFFER_BINDING, 1, 0 },
    { "GL_COPY_WRITE_BUFFER_BINDING", GL_COPY_WRITE_BUFFER_BINDING, 1, 0 },
    { "GL_TEXTURE_BUFFER_BINDING", GL_TEXTURE_BUFFER_BINDING, 1, 0 },
    { "GL_SHADER_STORAGE_BUFFER_BINDING", GL_SHADER_STORAGE_BUFFER_BINDING, 1, 1 },
    { "GL_VIEWPORT", GL_VIEWPORT, 4, 0 },
    { "GL_SCISSOR_TEST", GL_SCISSOR_TEST, 1, 0 },
    { "GL_SCISSOR_BOX", GL_SCISSOR_BOX, 4, 0 },
    { "GL_PACK_ALIGNMENT", GL_PACK_ALIGNMENT, 1, 0 },
    { "GL_UNPACK_ALIGNMENT", GL_UNPACK_ALIGNMENT, 1, 0 },
    { "GL_PACK_ROW_LENGTH", GL_PACK_ROW_LENGTH, 1, 0 },
    { "GL_UNPACK_ROW_LENGTH", GL_UNPACK_ROW_LENGTH, 1, 0 },
};
enum { OWN_NSTATE = sizeof OWN_STATE / sizeof OWN_STATE[0] };

/* Buffers the program keeps bound, one per binding point in OWN_BUFFER_TARGETS. */
static const GLenum OWN_BUFFER_TARGETS[] = {
    GL_ARRAY_BUFFER,        GL_ELEMENT_ARRAY_BUFFER, GL_PIXEL_PACK_BUFFER, GL_PIXEL_UNPACK_BUFFER,
    GL_UNIFORM_BUFFER,      GL_COPY_READ_BUFFER,     GL_COPY_WRITE_BUFFER, GL_TEXTURE_BUFFER,
    GL_SHADER_STORAGE_BUFFER,
};
enum { OWN_NBUFFERS = sizeof OWN_BUFFER_TARGETS / sizeof OWN_BUFFER_TARGETS[0] };

typedef struct {
    EGLDisplay dpy;
    EGLContext ctx;
    EGLSurface pb1, pb2;
    EGLSurface draw, read; /* what the program has current now */
    int gl43;
    own_gl_t gl;
    GLuint program, vs, fs, vao, fbo_draw, fbo_read, target, sampled, buffers[OWN_NBUFFERS];
    GLint tint;
    GLint state[OWN_NSTATE][4];
    GLfloat clear[4];
    unsigned frame;
} own_context_t;

static EGLDisplay own_try_display(EGLenum platform, void *native)
{
    EGLDisplay d = eglGetPlatformDisplay(platform, native, NULL);
    EGLint major = 0, minor = 0;
    if (d == EGL_NO_DISPLAY || !eglInitialize(d, &major, &minor))
        return EGL_NO_DISPLAY;
    return d;
}

static EGLDisplay own_open_display(void)
{
    const char *ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    EGLDisplay d = EGL_NO_DISPLAY;
    if (ext && strstr(ext, "EGL_MESA_platform_surfaceless"))
        d = own_try_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
    if (d == EGL_NO_DISPLAY && ext && strstr(ext, "EGL_EXT_platform_device")) {
        PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        EGLDeviceEXT devs[8];
        EGLint n = 0, i;
        if (query && query(8, devs, &n))
            for (i = 0; i < n && d == EGL_NO_DISPLAY; ++i)
                d = own_try_display(EGL_PLATFORM_DEVICE_EXT, devs[i]);
    }
    return d;
}

static EGLContext own_core_context(EGLDisplay dpy, EGLConfig cfg, EGLint major, EGLint minor)
{
    const EGLint attr[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
                            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    return eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attr);
}

static GLuint own_shader(own_context_t *c, GLenum stage, const char *src)
{
    GLuint s = c->gl.CreateShader(stage);
    c->gl.ShaderSource(s, 1, &src, NULL);
    c->gl.CompileShader(s);
    c->gl.AttachShader(c->program, s);
    return s;
}

/* The program: one triangle covering the viewport (positions from gl_VertexID), each fragment the
 * texel of the texture on the active unit times `tint`. */
static void own_make_program(own_context_t *c)
{
    static const char *vs = "#version 140\n"
                            "void main() {\n"
                            "    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                            "    gl_Position = vec4(p, 0.0, 1.0);\n"
                            "}\n";
    static const char *fs = "#version 140\n"
                            "uniform sampler2D tex;\n"
                            "uniform vec4 tint;\n"
                            "out vec4 colour;\n"
                            "void main() { colour = texelFetch(tex, ivec2(0), 0) * tint; }\n";
    GLint linked = 0;
    c->program = c->gl.CreateProgram();
    c->vs = own_shader(c, GL_VERTEX_SHADER, vs);
    c->fs = own_shader(c, GL_FRAGMENT_SHADER, fs);
    c->gl.LinkProgram(c->program);
    c->gl.GetProgramiv(c->program, GL_LINK_STATUS, &linked);
    if (!linked)
        FATAL("the test's own shader program did not link");
    c->gl.UseProgram(c->program);
    c->gl.Uniform1i(c->gl.GetUniformLocation(c->program, "tex"), 3);
    c->tint = c->gl.GetUniformLocation(c->program, "tint");
}

static GLuint own_texture(GLsizei w, GLsizei h, const void *pixels)
{
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    return t;
}

static GLuint own_framebuffer(own_context_t *c, GLenum binding, GLuint texture)
{
    GLuint f;
    c->gl.GenFramebuffers(1, &f);
    c->gl.BindFramebuffer(binding, f);
    c->gl.FramebufferTexture2D(binding, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    if (c->gl.CheckFramebufferStatus(binding) != GL_FRAMEBUFFER_COMPLETE)
        FATAL("the test's own framebuffer is incomplete");
    return f;
}

/* Sets the GL state described at the top (the context must be current). */
static void own_set_state(own_context_t *c)
{
    static const GLubyte indices[3] = { 0, 1, 2 };
    GLint i;
#define OWN_GL_LOAD(type, name)                                                                               \
    if (!(c->gl.name = (type)eglGetProcAddress("gl" #name)))                                                  \
        FATAL("eglGetProcAddress(gl" #name ") failed");
    OWN_GL_FUNCS(OWN_GL_LOAD)
#undef OWN_GL_LOAD
    own_make_program(c);
    c->gl.GenVertexArrays(1, &c->vao);
    c->gl.BindVertexArray(c->vao);
    c->target = own_texture(OWN_W, OWN_H, NULL);
    c->fbo_read = own_framebuffer(c, GL_READ_FRAMEBUFFER, c->target);
    c->fbo_draw = own_framebuffer(c, GL_DRAW_FRAMEBUFFER, c->target);
    /* background: everything outside the scissor box keeps this */
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    c->gl.ActiveTexture(GL_TEXTURE3);
    c->sampled = own_texture(1, 1, OWN_TEXEL);
    c->gl.GenBuffers(OWN_NBUFFERS, c->buffers);
    for (i = 0; i < OWN_NBUFFERS; ++i) {
        if (OWN_BUFFER_TARGETS[i] == GL_SHADER_STORAGE_BUFFER && !c->gl43)
            continue;
        c->gl.BindBuffer(OWN_BUFFER_TARGETS[i], c->buffers[i]);
        /* the pack buffer receives the read-back (row length OWN_PACK_ROW); the index buffer
         * holds one triangle */
        if (OWN_BUFFER_TARGETS[i] == GL_PIXEL_PACK_BUFFER)
            c->gl.BufferData(GL_PIXEL_PACK_BUFFER, OWN_PACK_ROW * OWN_H * 4, NULL, GL_STREAM_READ);
        else if (OWN_BUFFER_TARGETS[i] == GL_ELEMENT_ARRAY_BUFFER)
            c->gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof indices, indices, GL_STATIC_DRAW);
        else
            c->gl.BufferData(OWN_BUFFER_TARGETS[i], 64, NULL, GL_STATIC_DRAW);
    }
    glViewport(OWN_VIEWPORT[0], OWN_VIEWPORT[1], OWN_VIEWPORT[2], OWN_VIEWPORT[3]);
    glEnable(GL_SCISSOR_TEST);
    glScissor(OWN_SCISSOR[0], OWN_SCISSOR[1], OWN_SCISSOR[2], OWN_SCISSOR[3]);
    glClearColor(OWN_CLEAR[0], OWN_CLEAR[1], OWN_CLEAR[2], OWN_CLEAR[3]);
    glPixelStorei(GL_PACK_ALIGNMENT, 2);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
    glPixelStorei(GL_PACK_ROW_LENGTH, OWN_PACK_ROW);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 7);
    if (glGetError() != GL_NO_ERROR)
        FATAL("setting up the test's own GL state raised a GL error");
}

static void own_read_state(const own_context_t *c, GLint state[OWN_NSTATE][4], GLfloat clear[4])
{
    int i;
    memset(state, 0, sizeof(GLint) * OWN_NSTATE * 4);
    for (i = 0; i < OWN_NSTATE; ++i)
        if (!OWN_STATE[i].gl43 || c->gl43)
            glGetIntegerv(OWN_STATE[i].pname, state[i]);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
}

/* Creates the context on the calling thread and makes it current with its state set. */
static void own_context_create(own_context_t *c)
{
    static const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                       EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                       EGL_NONE };
    static const EGLint pb1_attr[] = { EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE };
    static const EGLint pb2_attr[] = { EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE };
    EGLConfig cfg;
    EGLint ncfg = 0;

    memset(c, 0, sizeof *c);
    c->dpy = own_open_display();
    if (c->dpy == EGL_NO_DISPLAY)
        FATAL("the test could not open an EGL display (surfaceless or device platform), EGL error 0x%x",
              (unsigned)eglGetError());
    if (!eglBindAPI(EGL_OPENGL_API))
        FATAL("eglBindAPI(EGL_OPENGL_API) failed: 0x%x", (unsigned)eglGetError());
    if (!eglChooseConfig(c->dpy, cfg_attr, &cfg, 1, &ncfg) || ncfg < 1)
        FATAL("eglChooseConfig found no pbuffer + OpenGL config: 0x%x", (unsigned)eglGetError());
    c->ctx = own_core_context(c->dpy, cfg, 4, 3);
    c->gl43 = c->ctx != EGL_NO_CONTEXT;
    if (!c->gl43) {
        printf("  note: no OpenGL 4.3 context, GL_SHADER_STORAGE_BUFFER_BINDING is not checked\n");
        c->ctx = own_core_context(c->dpy, cfg, 3, 3);
    }
    /* An ARM board's desktop GL is 3.1 (the profile bit means nothing before 3.2). */
    if (c->ctx == EGL_NO_CONTEXT)
        c->ctx = own_core_context(c->dpy, cfg, 3, 1);
    if (c->ctx == EGL_NO_CONTEXT)
        FATAL("eglCreateContext (OpenGL 4.3, 3.3 core or 3.1) failed: 0x%x", (unsigned)eglGetError());
    c->pb1 = eglCreatePbufferSurface(c->dpy, cfg, pb1_attr);
    c->pb2 = eglCreatePbufferSurface(c->dpy, cfg, pb2_attr);
    if (c->pb1 == EGL_NO_SURFACE || c->pb2 == EGL_NO_SURFACE)
        FATAL("eglCreatePbufferSurface failed: 0x%x", (unsigned)eglGetError());
    c->draw = c->pb1;
    c->read = c->pb2;
    if (!eglMakeCurrent(c->dpy, c->draw, c->read, c->ctx))
        FATAL("eglMakeCurrent(own context) failed: 0x%x", (unsigned)eglGetError());
    own_set_state(c);
    own_read_state(c, c->state, c->clear);
}

/* Makes the program's context current again with `draw` and `read`. */
static void own_make_current(own_context_t *c, EGLSurface draw, EGLSurface read, const char *why)
{
    if (!eglMakeCurrent(c->dpy, draw, read, c->ctx))
        FAIL("%s: eglMakeCurrent(program's context) failed: 0x%x", why, (unsigned)eglGetError());
    c->draw = draw;
    c->read = read;
}

/* After a glblas call: the program's context, surfaces, display, API and GL state are what they
 * were. Returns #failures. */
static int own_check(const own_context_t *c, const char *after)
{
    EGLContext ctx = eglGetCurrentContext();
    EGLSurface dr = eglGetCurrentSurface(EGL_DRAW), rd = eglGetCurrentSurface(EGL_READ);
    EGLDisplay d = eglGetCurrentDisplay();
    EGLenum api = eglQueryAPI();
    int before = check_failures(), i, j;
    CHECK(ctx == c->ctx, "after %s: eglGetCurrentContext() expected the program's context %p, got %p", after,
          (void *)c->ctx, (void *)ctx);
    CHECK(dr == c->draw, "after %s: eglGetCurrentSurface(EGL_DRAW) expected %p, got %p", after, (void *)c->draw,
          (void *)dr);
    CHECK(rd == c->read, "after %s: eglGetCurrentSurface(EGL_READ) expected %p, got %p", after, (void *)c->read,
          (void *)rd);
    CHECK(d == c->dpy, "after %s: eglGetCurrentDisplay() expected %p, got %p", after, (void *)c->dpy, (void *)d);
    CHECK(api == EGL_OPENGL_API, "after %s: eglQueryAPI() expected EGL_OPENGL_API (0x%x), got 0x%x", after,
          (unsigned)EGL_OPENGL_API, (unsigned)api);
    if (ctx == c->ctx) {
        GLint state[OWN_NSTATE][4];
        GLfloat clear[4];
        GLenum err = glGetError();
        CHECK(err == GL_NO_ERROR, "after %s: glGetError() in the program's context gives 0x%x", after, (unsigned)err);
        own_read_state(c, state, clear);
        for (i = 0; i < OWN_NSTATE; ++i)
            for (j = 0; j < OWN_STATE[i].count; ++j)
                CHECK(state[i][j] == c->state[i][j], "after %s: %s[%d] expected %d, got %d", after, OWN_STATE[i].name,
                      j, c->state[i][j], state[i][j]);
        CHECK(memcmp(clear, c->clear, sizeof clear) == 0,
              "after %s: GL_COLOR_CLEAR_VALUE expected (%g,%g,%g,%g), got (%g,%g,%g,%g)", after, (double)c->clear[0],
              (double)c->clear[1], (double)c->clear[2], (double)c->clear[3], (double)clear[0], (double)clear[1],
              (double)clear[2], (double)clear[3]);
    }
    return check_failures() - before;
}

static int own_inside(int x, int y, const GLint box[4])
{
    return x >= box[0] && x < box[0] + box[2] && y >= box[1] && y < box[1] + box[3];
}

/* Renders one frame with the program's state and checks every pixel read back (the context must be
 * current). Returns #failures. */
static int own_render(own_context_t *c, const char *after)
{
    unsigned char px[OWN_PACK_ROW * OWN_H * 4];
    /* a tint per frame, so that a frame that was not drawn cannot pass for one that was */
    float tint = (float)(c->frame++ % 4 + 1) / 4.0f;
    int x, y, k, bad = 0;
    GLenum err;
    c->gl.Uniform4f(c->tint, tint, 1.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_BYTE, (const void *)0);
    glReadPixels(0, 0, OWN_W, OWN_H, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
    c->gl.GetBufferSubData(GL_PIXEL_PACK_BUFFER, 0, sizeof px, px);
    err = glGetError();
    CHECK(err == GL_NO_ERROR, "rendering after %s: GL error 0x%x", after, (unsigned)err);
    for (y = 0; y < OWN_H; ++y)
        for (x = 0; x < OWN_W; ++x) {
            const unsigned char *p = px + ((size_t)y * OWN_PACK_ROW + (size_t)x) * 4;
            double want[4];
            for (k = 0; k < 4; ++k) {
                if (own_inside(x, y, OWN_SCISSOR) && own_inside(x, y, OWN_VIEWPORT))
                    want[k] = OWN_TEXEL[k] * (k == 0 ? tint : 1.0f);
                else if (own_inside(x, y, OWN_SCISSOR))
                    want[k] = 255.0 * OWN_CLEAR[k];
                else
                    want[k] = 0.0;
                /* conversion to 8 bits may round either way */
                if (fabs(p[k] - want[k]) > 1.0 && bad++ < 3)
                    FAIL("rendering after %s: pixel (%d,%d) channel %d expected %.2f, got %u", after, x, y, k, want[k],
                         p[k]);
            }
        }
    if (bad > 3)
        FAIL("rendering after %s: %d channel values wrong in total", after, bad);
    return bad + (err != GL_NO_ERROR);
}

/* A hook for every_routine: the program's context and state are intact and it still renders. */
static void own_after(void *arg, const char *what)
{
    own_context_t *c = (own_context_t *)arg;
    if (own_check(c, what) == 0)
        own_render(c, what);
}

/* Deletes the program's GL objects, releases and destroys its context (and its display with
 * `terminate`). */
static void own_context_destroy(own_context_t *c, int terminate)
{
    if (eglGetCurrentContext() == c->ctx) {
        c->gl.DeleteBuffers(OWN_NBUFFERS, c->buffers);
        c->gl.DeleteFramebuffers(1, &c->fbo_draw);
        c->gl.DeleteFramebuffers(1, &c->fbo_read);
        glDeleteTextures(1, &c->target);
        glDeleteTextures(1, &c->sampled);
        c->gl.DeleteVertexArrays(1, &c->vao);
        c->gl.DeleteShader(c->vs);
        c->gl.DeleteShader(c->fs);
        c->gl.DeleteProgram(c->program);
    }
    if (!eglMakeCurrent(c->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT))
        FAIL("releasing the program's context failed: 0x%x", (unsigned)eglGetError());
    eglDestroySurface(c->dpy, c->pb1);
    eglDestroySurface(c->dpy, c->pb2);
    eglDestroyContext(c->dpy, c->ctx);
    if (terminate)
        eglTerminate(c->dpy);
}

#endif /* GLBLAS_C_TESTS_OWN_CONTEXT_H */
