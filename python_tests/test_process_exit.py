"""Process exit never hangs or crashes: a program that leaves device buffers allocated and exits,
with or without glblasShutdown, from the main thread or from another one, or while another
thread is inside a long glblas call. Each case runs in its own Python process under a deadline;
it must exit with status 0 (not a signal, not a hang)."""

import os
import subprocess
import sys
import textwrap

import pytest

import glblas

PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python")

PRELUDE = """
import ctypes, os, sys, threading, time
import numpy as np
sys.path.insert(0, {python!r})
os.environ["GLBLAS_LIBRARY"] = {lib!r}
from glblas import lib
libc = ctypes.CDLL(None)
libc.exit.argtypes = [ctypes.c_int]

def device_buffers(count, floats):
    out = []
    for _ in range(count):
        p = ctypes.c_void_p()
        assert lib.glblasMalloc(ctypes.byref(p), floats * 4) == 0
        out.append(p.value)
    return out

n = 512
a = np.ones((n, n), np.float32)
bufs = device_buffers(4, n * n)
for p in bufs:
    assert lib.glblasMemcpy(p, a.ctypes.data, a.nbytes, 1) == 0

def long_sgemm():
    while True:
        lib.glblasSgemm(0, 0, n, n, n, 1.0, bufs[0], n, bufs[1], n, 0.0, bufs[2], n)
"""

CASES = {
    # Buffers still allocated, plain interpreter exit (atexit handlers, library destructors).
    "no_shutdown": "sys.exit(0)",
    "after_shutdown": "assert lib.glblasShutdown() == 0\nsys.exit(0)",
    # exit() called on another thread while the main thread waits.
    "exit_from_other_thread": """
        t = threading.Thread(target=lambda: libc.exit(0))
        t.start()
        time.sleep(30)
        sys.exit(3)  # exit() above should have ended the process long before
    """,
    # exit() on the main thread while another thread is inside sgemm calls.
    "exit_during_a_call_on_another_thread": """
        threading.Thread(target=long_sgemm, daemon=True).start()
        time.sleep(0.3)
        libc.exit(0)
    """,
    # exit() while three threads make short calls back to back (in and out of GL all the time).
    "exit_during_short_calls_on_three_threads": """
        def short_calls():
            x = np.ones(64, np.float32)
            out = ctypes.c_float()
            while True:
                lib.glblasSdot(64, x.ctypes.data, 1, x.ctypes.data, 1, ctypes.byref(out))
        for _ in range(3):
            threading.Thread(target=short_calls, daemon=True).start()
        time.sleep(0.2)
        libc.exit(0)
    """,
    # The same with a shutdown racing the calls first.
    "shutdown_during_calls_then_exit": """
        threading.Thread(target=long_sgemm, daemon=True).start()
        time.sleep(0.2)
        lib.glblasShutdown()
        time.sleep(0.2)
        libc.exit(0)
    """,
}


def run_case(case):
    lib_path = glblas.library_path()
    script = PRELUDE.format(python=PYTHON, lib=lib_path) + textwrap.dedent(CASES[case])
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, f"{case}: status {proc.returncode}\n{proc.stderr[-2000:]}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_exit_never_hangs_or_crashes(case):
    run_case(case)


# exit() racing calls on other threads crashed in the driver's library destructors (double free,
# segfault) in about 1 run in 15 on a loaded 2-core machine, before exit began to keep calls out
# of GL (engine/exit.rs). The race is timing-dependent, so these cases run again a few times.
@pytest.mark.parametrize("repeat", range(8))
@pytest.mark.parametrize(
    "case", ["exit_during_short_calls_on_three_threads", "shutdown_during_calls_then_exit"]
)
def test_exit_racing_calls_repeatedly(case, repeat):
    run_case(case)
