"""The one-time 'glblas: warning: GL failed' line is about the device: a BLAS-symbol call that
glblas refuses because of the caller's own operand (a freed device pointer, a host extent past
the end of memory) prints nothing and leaves its output alone, while a real device failure (an
injected launch fault) still warns.
Each case runs in its own process, since the warning is printed once per process."""

import os
import subprocess
import sys

import glblas_ctypes as g

HERE = os.path.dirname(os.path.abspath(__file__))

SCRIPT = """
import ctypes, sys
import numpy as np
sys.path.insert(0, {here!r})
from glblas_ctypes import load_library
lib = load_library({lib!r})
lib.cblas_saxpy.argtypes = [ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int,
                            ctypes.c_void_p, ctypes.c_int]
lib.cblas_saxpy.restype = None
n = 64
x = np.arange(n, dtype=np.float32)
y = np.ones(n, np.float32)
if {freed!r}:
    p = ctypes.c_void_p()
    assert lib.glblasMalloc(ctypes.byref(p), n * 4) == 0
    assert lib.glblasFree(p) == 0
    lib.cblas_saxpy(n, 2.0, p.value, 1, y.ctypes.data, 1)
    assert (y == 1).all(), y
else:
    lib.cblas_saxpy(n, 2.0, x.ctypes.data, 1, y.ctypes.data, 1)
    assert (y == 2 * x + 1).all(), y
print("done")
"""


def run(freed, **env_vars):
    lib_path = os.path.abspath(g.default_library_path())
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLBLAS_")}
    env.update(GLBLAS_BACKEND="gl", **env_vars)
    script = SCRIPT.format(here=HERE, lib=lib_path, freed=freed)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and "done" in proc.stdout, proc.stderr
    return [l for l in proc.stderr.splitlines() if l.startswith("glblas: warning:")]


def test_refused_device_pointer_prints_no_device_warning():
    assert run(freed=True) == []


def test_device_failure_still_warns_once():
    warnings = run(freed=False, GLBLAS_FAULT="launch:1")
    assert len(warnings) == 1 and "GL failed" in warnings[0], warnings


OVERFLOW_SCRIPT = """
import ctypes, sys
import numpy as np
sys.path.insert(0, {here!r})
from glblas_ctypes import load_library
lib = load_library({lib!r})
f = lib.scipy_cblas_saxpy64_
f.argtypes = [ctypes.c_int64, ctypes.c_float, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
              ctypes.c_int64]
f.restype = None
x = np.ones(8, np.float32)
y = np.ones(8, np.float32)
f(2, 2.0, x.ctypes.data, 1 << 61, y.ctypes.data, 1)
assert (y == 1).all(), y
print("done")
"""


def test_host_extent_past_the_address_space_is_refused_without_warning():
    """x's extent, 2^61 + 1 floats, is more bytes than 64-bit offsets hold: the caller's error.
    Handed to the CPU BLAS it would read far past x (this crashed before); refused, y stays as
    it was and no device warning is printed."""
    lib_path = os.path.abspath(g.default_library_path())
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLBLAS_")}
    env.update(GLBLAS_BACKEND="gl")
    script = OVERFLOW_SCRIPT.format(here=HERE, lib=lib_path)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and "done" in proc.stdout, (proc.returncode, proc.stderr)
    assert [l for l in proc.stderr.splitlines() if l.startswith("glblas: warning:")] == []
