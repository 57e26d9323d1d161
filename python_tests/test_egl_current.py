"""If the calling thread has its own EGL context current, that context and its draw/read surfaces
are current again when a glblas call returns (and with none current, none is left current)."""

import ctypes
import threading
from ctypes import POINTER, byref, c_int, c_uint, c_void_p

import numpy as np

import helpers as g
from reference import assert_close, saxpy_ref, sgemm_ref

EGL_NONE = 0x3038
EGL_SURFACE_TYPE = 0x3033
EGL_PBUFFER_BIT = 0x0001
EGL_RENDERABLE_TYPE = 0x3040
EGL_OPENGL_ES2_BIT = 0x0004
EGL_WIDTH = 0x3057
EGL_HEIGHT = 0x3056
EGL_CONTEXT_CLIENT_VERSION = 0x3098
EGL_OPENGL_ES_API = 0x30A0
EGL_DRAW = 0x3059
EGL_READ = 0x305A
EGL_PLATFORM_SURFACELESS_MESA = 0x31DD
EGL_PLATFORM_DEVICE_EXT = 0x313F


def load_egl():
    egl = ctypes.CDLL("libEGL.so.1")
    sig = {
        "eglGetDisplay": (c_void_p, [c_void_p]),
        "eglGetPlatformDisplay": (c_void_p, [c_uint, c_void_p, c_void_p]),
        "eglInitialize": (c_uint, [c_void_p, POINTER(c_int), POINTER(c_int)]),
        "eglBindAPI": (c_uint, [c_uint]),
        "eglQueryAPI": (c_uint, []),
        "eglChooseConfig": (c_uint, [c_void_p, POINTER(c_int), POINTER(c_void_p), c_int,
                                     POINTER(c_int)]),
        "eglCreatePbufferSurface": (c_void_p, [c_void_p, c_void_p, POINTER(c_int)]),
        "eglCreateContext": (c_void_p, [c_void_p, c_void_p, c_void_p, POINTER(c_int)]),
        "eglMakeCurrent": (c_uint, [c_void_p, c_void_p, c_void_p, c_void_p]),
        "eglGetCurrentContext": (c_void_p, []),
        "eglGetCurrentSurface": (c_void_p, [c_int]),
        "eglGetCurrentDisplay": (c_void_p, []),
        "eglDestroySurface": (c_uint, [c_void_p, c_void_p]),
        "eglDestroyContext": (c_uint, [c_void_p, c_void_p]),
        "eglGetError": (c_int, []),
    }
    for name, (res, args) in sig.items():
        f = getattr(egl, name)
        f.restype, f.argtypes = res, args
    return egl


def attribs(*vals):
    return (c_int * (len(vals) + 1))(*vals, EGL_NONE)


def own_context(egl):
    """A GLES2 context with two distinct pbuffer surfaces (draw, read) on a display of our own
    choosing: the surfaceless platform (Mesa) or the default display."""
    errors = []
    candidates = [lambda: egl.eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, None, None),
                  lambda: egl.eglGetDisplay(None)]
    for get in candidates:
        dpy = get()
        if not dpy:
            errors.append("no display")
            continue
        major, minor = c_int(), c_int()
        if not egl.eglInitialize(dpy, byref(major), byref(minor)):
            errors.append(f"eglInitialize 0x{egl.eglGetError():x}")
            continue
        assert egl.eglBindAPI(EGL_OPENGL_ES_API)
        cfg = c_void_p()
        num = c_int()
        ok = egl.eglChooseConfig(dpy, attribs(EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                              EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT),
                                 byref(cfg), 1, byref(num))
        if not ok or num.value < 1:
            errors.append("no pbuffer GLES2 config")
            continue
        draw = egl.eglCreatePbufferSurface(dpy, cfg, attribs(EGL_WIDTH, 8, EGL_HEIGHT, 8))
        read = egl.eglCreatePbufferSurface(dpy, cfg, attribs(EGL_WIDTH, 4, EGL_HEIGHT, 4))
        ctx = egl.eglCreateContext(dpy, cfg, None, attribs(EGL_CONTEXT_CLIENT_VERSION, 2))
        if not (draw and read and ctx):
            errors.append(f"surface/context creation 0x{egl.eglGetError():x}")
            continue
        return dpy, draw, read, ctx
    raise AssertionError("could not create the test's own EGL context: " + "; ".join(errors))


def current(egl):
    return (egl.eglGetCurrentDisplay(), egl.eglGetCurrentSurface(EGL_DRAW),
            egl.eglGetCurrentSurface(EGL_READ), egl.eglGetCurrentContext())


def glblas_calls(lib, rng):
    """A few calls touching every path (host compute, device memory, sync)."""
    x = rng.standard_normal(50).astype(np.float32)
    y = rng.standard_normal(50).astype(np.float32)
    ref, bound = saxpy_ref(0.5, x, y)
    g.check(lib, g.saxpy(lib, 0.5, x, y))
    assert_close(y, ref, bound, "saxpy under a foreign context")
    yield "saxpy"
    A = np.asfortranarray(rng.standard_normal((9, 7)).astype(np.float32))
    B = np.asfortranarray(rng.standard_normal((7, 5)).astype(np.float32))
    C = np.zeros((9, 5), np.float32, order="F")
    ref, bound = sgemm_ref(1.0, A, B, 0.0, None)
    with g.Mirror(lib, A) as mA:
        g.check(lib, lib.glblasSgemm(0, 0, 9, 5, 7, 1.0, mA.buf.at(), 9, B.ctypes.data, 7, 0.0,
                                     C.ctypes.data, 9))
    assert_close(C, ref, bound, "sgemm under a foreign context")
    yield "sgemm + malloc/memcpy/free"
    g.check(lib, lib.glblasSync())
    yield "sync"
    assert lib.glblasGetDeviceName() is not None
    yield "device name"
    st, r = g.sdot(lib, x, x)
    g.check(lib, st)
    yield "sdot"


def _in_thread(fn):
    box = {}

    def run():
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 - re-raised in the test thread
            box["error"] = e

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]


def test_callers_egl_context_restored(lib, rng):
    egl = load_egl()

    def body():
        dpy, draw, read, ctx = own_context(egl)
        assert egl.eglMakeCurrent(dpy, draw, read, ctx), hex(egl.eglGetError())
        try:
            want = (dpy, draw, read, ctx)
            assert current(egl) == want
            for step in glblas_calls(lib, rng):
                assert current(egl) == want, f"after {step}: current (display, draw, read, " \
                                             f"context) {current(egl)} != the caller's {want}"
                assert egl.eglQueryAPI() == EGL_OPENGL_ES_API, f"bound API changed by {step}"
        finally:
            egl.eglMakeCurrent(dpy, None, None, None)
            egl.eglDestroySurface(dpy, draw)
            egl.eglDestroySurface(dpy, read)
            egl.eglDestroyContext(dpy, ctx)
            # no eglTerminate: the display may be the one glblas itself uses

    _in_thread(body)


def test_no_context_left_current(lib, rng):
    egl = load_egl()

    def body():
        assert not egl.eglGetCurrentContext()
        for step in glblas_calls(lib, rng):
            assert not egl.eglGetCurrentContext(), f"a context was left current after {step}"

    _in_thread(body)
