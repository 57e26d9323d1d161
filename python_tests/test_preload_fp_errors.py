"""numpy's floating-point error reports with glblas preloaded and GLBLAS_BACKEND=gl (issue 32,
part 2). numpy reads the CPU's exception flags after dot and matmul: it warns ("invalid value
encountered in matmul") or, under np.errstate(all="raise"), raises FloatingPointError. A CPU BLAS
raises those flags as it computes; glblas raises the ones the GL computation would have.

* numpy_fp_errors.py (the issue's cases: [1, 1]·[-inf, inf], [[1, 1], [1, 1]] @ [[-inf, 0],
  [inf, 0]], dot of 1e200s, and finite data and a carried NaN, which report nothing) reports the
  same under the preload as without it, with pip's numpy 2.x (ILP64 names) and Debian's 1.24
  (CBLAS names; it checks the flags after matmul only), and the trace shows every call answered
  by GL (a double-precision one by the CPU BLAS, reason=no-double, only where the device has no
  doubles);
* numpy's own test_multiarray.py::TestMethods::test_dot_errstate[float64] passes, not skipped,
  under the preload (pip's numpy; run with --noconftest, since numpy's conftest needs hypothesis,
  which this test does not; Debian's numpy 1.24 has no such test).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import glblas
import numpy_fp_errors
from gl_device import driver_env, refusal

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "numpy_fp_errors.py")
LIB = glblas.library_path()
INTERPRETERS = {"pip": sys.executable, "debian": "/usr/bin/python3"}
TIMEOUT_S = 300

# What numpy reports without glblas, for the cases the issue names (the other cases: nothing).
RAISES = {
    "pip": {f"{t}_{case}": f"raise: {what} encountered in {op}"
            for t in ("float64", "float32")
            for case, what, op in (("dot_inf", "invalid value", "dot"),
                                   ("dot_inf_3d", "invalid value", "dot"),
                                   ("matmul_inf", "invalid value", "matmul"),
                                   ("dot_overflow", "overflow", "dot"))},
    "debian": {f"{t}_matmul_inf": "raise: invalid value encountered in matmul"
               for t in ("float64", "float32")},
}


def run(cmd, preload, trace=None):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "LC_ALL": "C.UTF-8", **driver_env()}
    if preload:
        env.update(LD_PRELOAD=LIB, GLBLAS_BACKEND="gl", GLBLAS_TRACE=trace or "1")
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S,
                          cwd=HERE)


def routine(symbol):
    """scipy_cblas_ddot64_, cblas_sgemm -> ddot, sgemm."""
    name = symbol.removeprefix("scipy_").removeprefix("cblas_").rstrip("_")
    return name.removesuffix("64")


def assert_routed_to_gl(line):
    words = line.split()
    sym, route = words[1], line.split(" route=")[1].split(" us=")[0]
    no = refusal(LIB, routine(sym))
    want = f"cpu reason={no}" if no else "gl reason=backend"
    assert route == want, line


def cases_and_trace(stderr):
    """case -> its trace lines, from the markers ("<import>": numpy's sanity check at import
    calls sdot); every other stderr line is an error."""
    traced = {"<import>": []}
    current = "<import>"
    for line in stderr.splitlines():
        if line.startswith(numpy_fp_errors.MARKER):
            current = line[len(numpy_fp_errors.MARKER):]
            traced[current] = []
        elif line.startswith("glblas-trace: "):
            traced[current].append(line)
        elif line.strip():
            raise AssertionError(f"unexpected stderr line: {line}")
    return traced


@pytest.mark.parametrize("interp", list(INTERPRETERS))
def test_numpy_reports_as_without_glblas(interp):
    cmd = [INTERPRETERS[interp], "-I", SCRIPT]
    plain = run(cmd, preload=False)
    assert plain.returncode == 0, plain.stderr
    want = json.loads(plain.stdout)
    for case, report in want.items():
        assert report == RAISES[interp].get(case, "none"), (case, report)

    gl = run(cmd, preload=True)
    assert gl.returncode == 0, gl.stderr
    assert json.loads(gl.stdout) == want, gl.stdout
    traced = cases_and_trace(gl.stderr)
    for line in traced["<import>"]:
        assert_routed_to_gl(line)
    for case, (_, blas) in numpy_fp_errors.cases().items():
        # numpy 1.24 makes no BLAS call for a 3-D dot.
        assert traced[case] or not blas, f"{interp}: no BLAS call for {case}"
        for line in traced[case]:
            assert_routed_to_gl(line)


def test_numpys_own_test_dot_errstate(tmp_path):
    tests = "numpy._core.tests" if np.lib.NumpyVersion(np.__version__) >= "2.0.0" else "numpy.core.tests"
    trace = tmp_path / "trace"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest", "-rs",
           "--pyargs", f"{tests}.test_multiarray", "-k", "test_dot_errstate and float64"]
    p = run(cmd, preload=True, trace=str(trace))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "1 passed" in p.stdout and "skipped" not in p.stdout, p.stdout
    lines = trace.read_text().splitlines()
    assert any(" route=" in ln and routine(ln.split()[1]) == "ddot" for ln in lines), lines
    for line in lines:
        assert_routed_to_gl(line)
