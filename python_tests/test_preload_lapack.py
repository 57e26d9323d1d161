"""LAPACK on glblas: c_tests/preload/lapack_solves.c (and lapack_complex.c, in complex double:
zgesv, zgels, zposv, zheev), built against Debian's reference LAPACK
(liblapack3) on the reference BLAS (libblas3, not the OpenBLAS that is the system default), solves
linear systems by LU (gesv), Cholesky (posv, both triangles) and QR (gels) in single and double
precision at n = 64 (LAPACK's unblocked and recursive paths), 200 and 300 (its blocked paths:
getrf and potrf block by 64, geqrf by 32 from n = 129), run with glblas preloaded and
``GLBLAS_BACKEND=gl``, and once without it.

Every residual ratio ||Ax - b|| / (||A|| ||x|| n eps) is under LAPACK's own test threshold (30)
in both runs, the preloaded one within an order of magnitude of the plain one; the trace shows
LAPACK's calls of gemm, trsm, syrk and trmm (dlarfb's) answered by GL, and where the device cannot
run them (no compute pipeline for the Level 3 routines beyond gemm, no doubles for the d
routines) answered by the CPU BLAS, with that reason."""

import os
import re
import subprocess

import pytest

import glblas
from gl_device import is_glblas_setting, refusal
from quick import QUICK, is_quick

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.normpath(os.path.join(HERE, os.pardir, "c_tests", "preload"))
BLAS_DIR = "/usr/lib/x86_64-linux-gnu/blas"  # the reference libblas.so.3 (libblas3)
LAPACK_DIR = "/usr/lib/x86_64-linux-gnu/lapack"  # the reference liblapack.so.3 (liblapack3)
LIB = glblas.library_path()
SIZES = ("64", "200", "300")
THRESHOLD = 30.0  # LAPACK's testing threshold for these ratios
SOLVES = ("gesv", "gels", "posv-L", "posv-U")
ROUTINES = ("gemm", "trsm", "syrk", "trmm")
TRACE = re.compile(r"^glblas-trace: (\w+) (.*) route=(\S+) reason=(\S+) us=\d+$")


def build(tmp_path_factory, name):
    """c_tests/preload/<name>.c built against the reference LAPACK and BLAS."""
    for lib in (os.path.join(BLAS_DIR, "libblas.so.3"), os.path.join(LAPACK_DIR, "liblapack.so.3")):
        assert os.path.exists(lib), f"{lib} missing: the test script installs libblas3, liblapack3"
    out = tmp_path_factory.mktemp("lapack") / name
    cmd = ["cc", "-O2", "-std=gnu11", "-Wall", "-Werror", "-o", str(out),
           os.path.join(SOURCES, name + ".c"), os.path.join(LAPACK_DIR, "liblapack.so.3"),
           os.path.join(BLAS_DIR, "libblas.so.3"), "-lm"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    assert p.returncode == 0, f"build failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}"
    return str(out)


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory, "lapack_solves")


@pytest.fixture(scope="module")
def complex_program(tmp_path_factory):
    return build(tmp_path_factory, "lapack_complex")


def run(program, trace=None, computations=SOLVES, precisions="sd"):
    """The program's ratios {(computation, precision, n): ratio}, and its stderr."""
    env = {k: v for k, v in os.environ.items()
           if not is_glblas_setting(k) and k != "LD_PRELOAD"}
    env["LD_LIBRARY_PATH"] = f"{BLAS_DIR}:{LAPACK_DIR}"
    if trace:
        env.update(LD_PRELOAD=LIB, GLBLAS_BACKEND="gl", GLBLAS_TRACE=str(trace))
    p = subprocess.run([program, *SIZES], env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    ratios = {}
    for line in p.stdout.splitlines():
        solve, precision, n, info, ratio = line.split()
        assert info == "0", line
        ratios[solve, precision, n] = float(ratio)
    assert set(ratios) == {(s, p, n) for s in computations for p in precisions
                           for n in SIZES}, p.stdout
    return ratios, p.stderr


def routes_of(trace):
    """{symbol: [(route, reason), ...]} of a trace's calls; the reference's quick returns
    (LAPACK makes some: k = 0 updates) are routed nowhere, and nothing else is."""
    routes = {}
    for line in trace.read_text().splitlines():
        m = TRACE.match(line)
        assert m, line
        fields = dict(f.split("=", 1) for f in m.group(2).split())
        assert (m.group(3, 4) == QUICK) == is_quick(m.group(1), fields), line
        if m.group(3, 4) != QUICK:
            routes.setdefault(m.group(1), []).append(m.group(3, 4))
    return routes


def test_lapack_solves_on_gl(program, tmp_path):
    plain, _ = run(program)
    trace = tmp_path / "trace.txt"
    gl, stderr = run(program, trace)
    assert "glblas: warning" not in stderr, stderr
    for key, ratio in gl.items():
        assert plain[key] < THRESHOLD, (key, plain[key])
        assert ratio < THRESHOLD and ratio < 10 * max(plain[key], 0.1), (key, ratio, plain[key])

    routes = routes_of(trace)
    for p in "sd":
        for r in ROUTINES:
            check_routes(routes, p + r)


def check_routes(routes, routine):
    """LAPACK called `routine`, and GL answered every call, or, where the device cannot run
    it, the CPU BLAS with that reason."""
    symbol = routine + "_"
    assert routes.get(symbol), f"LAPACK made no {symbol} call: {sorted(routes)}"
    no = refusal(LIB, routine)
    want = {("cpu", no)} if no else {("gl", "backend")}
    got = set(routes[symbol])
    assert got <= want, (symbol, got)


def test_complex_lapack_on_gl(complex_program, tmp_path):
    """LAPACK in complex double: zgesv, zgels, zposv (both triangles) and zheev (its residual
    and its vectors' orthogonality) at LAPACK's level with glblas preloaded, as without it; its
    zgemm, zherk, ztrmm and ztrsm calls (and zcopy's and zswap's) answered by GL."""
    computations = ("gesv", "gels", "posv-L", "posv-U", "heev", "heev-orth")
    plain, _ = run(complex_program, None, computations, "z")
    trace = tmp_path / "trace.txt"
    gl, stderr = run(complex_program, trace, computations, "z")
    assert "glblas: warning" not in stderr, stderr
    for key, ratio in gl.items():
        assert plain[key] < THRESHOLD, (key, plain[key])
        assert ratio < THRESHOLD and ratio < 10 * max(plain[key], 0.1), (key, ratio, plain[key])
    routes = routes_of(trace)
    for r in ("zgemm", "zherk", "ztrmm", "ztrsm", "zcopy", "zswap"):
        check_routes(routes, r)
