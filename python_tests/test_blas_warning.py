"""The one-time 'glblas: warning: GL failed' line is about the device: a BLAS-symbol call that
glblas refuses because of the caller's own operand (a freed device pointer, a host extent past
the end of memory) prints nothing and leaves its output alone; a call GL does not take by design
(beyond the device's limits, or during exit) goes to the CPU BLAS without a word; a real device
failure (an injected launch fault) still warns, and a device reset warns once with its own line.
The trace line of each call says which it was.
Each case runs in its own process, since the warning is printed once per process."""

import os
import subprocess
import sys
import textwrap

import glblas
from gl_device import is_glblas_setting

PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python")

# What the scripts below start with: the library, and cblas_saxpy declared.
PREAMBLE = """
import ctypes, os, sys
import numpy as np
sys.path.insert(0, {python!r})
os.environ["GLBLAS_LIBRARY"] = {lib!r}
from glblas import lib
lib.cblas_saxpy.argtypes = [ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int,
                            ctypes.c_void_p, ctypes.c_int]
lib.cblas_saxpy.restype = None
n = 64
x = np.arange(n, dtype=np.float32)
"""

SCRIPT = PREAMBLE + """y = np.ones(n, np.float32)
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


def run_script(script, **env_vars):
    """Runs `script` in a fresh process with GLBLAS_BACKEND=gl (and `env_vars`); returns its
    warning lines and its GLBLAS_TRACE lines."""
    env = {k: v for k, v in os.environ.items() if not is_glblas_setting(k)}
    env.update(GLBLAS_BACKEND="gl", GLBLAS_TRACE="1", **env_vars)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0 and "done" in proc.stdout, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    return ([l for l in lines if l.startswith("glblas: warning:")],
            [l for l in lines if l.startswith("glblas-trace:")])


def run(freed, **env_vars):
    lib_path = glblas.library_path()
    return run_script(SCRIPT.format(python=PYTHON, lib=lib_path, freed=freed), **env_vars)


def test_refused_device_pointer_prints_no_device_warning():
    warnings, trace = run(freed=True)
    assert warnings == []
    assert len(trace) == 1 and "route=none reason=refused" in trace[0], trace


def test_device_failure_still_warns_once():
    warnings, trace = run(freed=False, GLBLAS_FAULT="launch:1")
    assert len(warnings) == 1 and "GL failed" in warnings[0], warnings
    assert len(trace) == 1 and "route=cpu reason=gl-failed" in trace[0], trace


RESET_SCRIPT = PREAMBLE + """for _ in range(3):
    y = np.ones(n, np.float32)
    lib.cblas_saxpy(n, 2.0, x.ctypes.data, 1, y.ctypes.data, 1)
    assert (y == 2 * x + 1).all(), y
print("done")
"""


def test_device_reset_warns_once_and_later_calls_run_on_a_new_context():
    """Resets at the first and second launches: both calls are answered by the CPU BLAS, one
    warning in all; the third runs on GL again."""
    script = RESET_SCRIPT.format(python=PYTHON, lib=glblas.library_path())
    warnings, trace = run_script(script, GLBLAS_FAULT="reset:1-2")
    assert len(warnings) == 1 and "was reset" in warnings[0], warnings
    routes = [line.split(" route=")[1].split(" us=")[0] for line in trace]
    assert routes == ["cpu reason=device-lost"] * 2 + ["gl reason=backend"], trace


OVERFLOW_SCRIPT = """
import ctypes, os, sys
import numpy as np
sys.path.insert(0, {python!r})
os.environ["GLBLAS_LIBRARY"] = {lib!r}
from glblas import lib
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
    lib_path = glblas.library_path()
    warnings, trace = run_script(OVERFLOW_SCRIPT.format(python=PYTHON, lib=lib_path))
    assert warnings == []
    assert len(trace) == 1 and "route=none reason=refused" in trace[0], trace


# An sgemm whose operands no tiling fits in windows of one element (GLBLAS_LIMIT_WINDOW=1):
# DIMENSION_OVERFLOW from the device's limits.
SGEMM_SCRIPT = """
import ctypes, os, sys
import numpy as np
sys.path.insert(0, {python!r})
os.environ["GLBLAS_LIBRARY"] = {lib!r}
from glblas import lib
f = lib.cblas_sgemm
f.restype = None
f.argtypes = [ctypes.c_int] * 6 + [ctypes.c_float, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                                   ctypes.c_int, ctypes.c_float, ctypes.c_void_p, ctypes.c_int]
n = 8
a = np.arange(n * n, dtype=np.float32).reshape(n, n, order="F")
c = np.full((n, n), 7.0, np.float32, order="F")
want = (a.astype(np.float64) @ a.astype(np.float64)).astype(np.float32)
def sgemm():
    f(102, 111, 111, n, n, n, 1.0, a.ctypes.data, n, a.ctypes.data, n, 0.0, c.ctypes.data, n)
{body}
print("done")
"""


def run_sgemm(body, **env_vars):
    lib_path = glblas.library_path()
    script = SGEMM_SCRIPT.format(python=PYTHON, lib=lib_path, body=textwrap.dedent(body))
    return run_script(script, **env_vars)


def test_call_beyond_the_device_limits_goes_to_the_cpu_blas_without_warning():
    warnings, trace = run_sgemm("sgemm()\nassert (c == want).all(), c",
                                GLBLAS_LIMIT_WINDOW="1")
    assert warnings == []
    assert len(trace) == 1 and "route=cpu reason=too-large" in trace[0], trace


def test_call_beyond_the_device_limits_warns_where_no_cpu_blas_can_answer():
    warnings, trace = run_sgemm("sgemm()\nassert (c == 7).all(), c",
                                GLBLAS_LIMIT_WINDOW="1", GLBLAS_CPU_BLAS="none")
    assert len(warnings) == 1 and "DIMENSION_OVERFLOW" in warnings[0], warnings
    assert len(trace) == 1 and "route=none reason=too-large" in trace[0], trace


def test_call_during_exit_goes_to_the_cpu_blas_without_warning():
    """A C atexit handler registered before glblas's own (which retires GL at exit and so runs
    first) calls sgemm: GL is gone, the CPU BLAS answers, and nothing warns of a failing device.
    The handler reports its result on stdout, since exit() has begun."""
    warnings, trace = run_sgemm("""
        libc = ctypes.CDLL(None)
        @ctypes.CFUNCTYPE(None, ctypes.c_void_p)
        def at_exit(_):
            sgemm()
            print("done" if (c == want).all() else "wrong", flush=True)
        # atexit() itself is not exported by glibc; this is what it calls.
        assert libc.__cxa_atexit(at_exit, None, None) == 0
        sgemm()  # on GL: creates the context after the handler above is registered
        assert (c == want).all(), c
        c[:] = 7
        sys.stdout.flush()
        libc.exit(0)
        """)
    assert warnings == []
    assert [t.split("route=")[1].split(" us=")[0] for t in trace] == [
        "gl reason=backend", "cpu reason=exiting"], trace
