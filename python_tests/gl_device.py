"""What the GL device under test can do, asked of the library in a process of its own (so that
the asking creates no context in the test process)."""

import functools
import os
import subprocess
import sys

_PROBE = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
d = ctypes.c_double
p = ctypes.POINTER(d)
lib.glblasDgemm.argtypes = [ctypes.c_int] * 5 + [d, p, ctypes.c_int, p, ctypes.c_int, d, p,
                                                 ctypes.c_int]
a, c = d(2.0), d(0.0)
s = lib.glblasDgemm(0, 0, 1, 1, 1, 1.0, ctypes.byref(a), 1, ctypes.byref(a), 1, 0.0,
                    ctypes.byref(c), 1)
print(s, c.value)
"""


def _succeeds(probe, lib_path):
    """Whether a probe's 1×1 call (2·2 into 0) succeeds, and is right, rather than being
    NOT_SUPPORTED."""
    out = subprocess.run([sys.executable, "-c", probe, lib_path], capture_output=True,
                         text=True, timeout=300, check=True).stdout.split()
    assert out[0] in ("0", "4"), out  # SUCCESS or NOT_SUPPORTED
    if out[0] == "0":
        assert float(out[1]) == 4.0, out
    return out[0] == "0"


@functools.lru_cache(maxsize=None)
def doubles_on_gl(lib_path):
    """Whether the device computes in double: a 1×1×1 glblasDgemm succeeds (and is right), where
    it is NOT_SUPPORTED without the compute pipeline or fp64 shaders."""
    return _succeeds(_PROBE, lib_path)


_COMPLEX_PROBE = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
z = ctypes.c_float * 2
p = ctypes.c_void_p
lib.glblasCgemm.argtypes = [ctypes.c_int] * 5 + [p, p, ctypes.c_int, p, ctypes.c_int, p, p,
                                                 ctypes.c_int]
one, a, c = z(1.0, 0.0), z(2.0, 0.0), z(0.0, 0.0)
zero = z(0.0, 0.0)
s = lib.glblasCgemm(0, 0, 1, 1, 1, one, a, 1, a, 1, zero, c, 1)
print(s, c[0] if c[1] == 0.0 else "nan")
"""


@functools.lru_cache(maxsize=None)
def complex_on_gl(lib_path):
    """Whether the device computes in complex: a 1×1×1 glblasCgemm succeeds (and is right),
    where it is NOT_SUPPORTED without the compute pipeline."""
    return _succeeds(_COMPLEX_PROBE, lib_path)


def refusal(lib_path, routine):
    """The trace's reason for the CPU BLAS answering BLAS routine `routine` (a name such as
    "dtrsm") under GLBLAS_BACKEND=gl because the device cannot compute its type: "no-complex" for
    a complex one without the compute pipeline, "no-double" for a double-precision one without
    doubles; None where the device runs it."""
    # i?amax, and scasum and the like (named for their result's type, then their elements').
    named_twice = ("scasum", "scnrm2", "dzasum", "dznrm2")
    elements = routine[1:] if routine.startswith("i") or routine in named_twice else routine
    double = elements.startswith(("d", "z"))
    complex_ = elements.startswith(("c", "z"))
    if complex_ and not complex_on_gl(lib_path):
        return "no-complex"
    if double and not doubles_on_gl(lib_path):
        return "no-double"
    return None


def routine_on_gl(lib_path, routine):
    """Whether the device answers BLAS routine `routine` on GL (see `refusal`)."""
    return refusal(lib_path, routine) is None


LEVEL3_BEYOND_GEMM = ("symm", "syrk", "syr2k", "trmm", "trsm")


# What scripts/drivers.sh sets to select a GL configuration, and what scripts/test.sh adds to
# it (LP_NUM_THREADS on zink). A test that starts a process with an environment of its own
# passes these on, so that the child runs on the configuration under test (GLES, GL 3.3, zink,
# virgl) rather than on the default device.
# GLBLAS_TUNING too, which scripts/test.sh points away from the user's own tuning table, whose
# crossovers would change the routes the tests expect.
DRIVER_VARS = ("GALLIUM_DRIVER", "LIBGL_ALWAYS_SOFTWARE", "GLBLAS_GL_API",
               "MESA_GL_VERSION_OVERRIDE", "MESA_GLSL_VERSION_OVERRIDE", "MESA_EXTENSION_OVERRIDE",
               "XDG_RUNTIME_DIR", "LP_NUM_THREADS", "GLBLAS_TUNING")


def is_glblas_setting(name):
    """A glblas variable a test must not let through to a child it sets up itself: any
    GLBLAS_* except the configuration's GLBLAS_GL_API and the tests' GLBLAS_TUNING."""
    return name.startswith("GLBLAS_") and name not in DRIVER_VARS


def driver_env():
    """The configuration's variables of this process's environment."""
    return {k: os.environ[k] for k in DRIVER_VARS if k in os.environ}
