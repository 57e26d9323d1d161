"""glblas under LD_PRELOAD for pip's scipy, whose wheel calls its bundled OpenBLAS through LP64
Fortran names with a prefix (``scipy_dgemm_``, ...), and for pip's numpy.linalg, which copies
through the ILP64 Fortran names of numpy's bundled OpenBLAS (``scipy_dcopy_64_``).

scipy_workload.py (same directory) runs in a child process of the interpreter running pytest
(pip's numpy and scipy), in ``-I`` mode with an explicit environment, three times:

* ``ref``: no LD_PRELOAD: scipy's own OpenBLAS;
* ``gl``:  LD_PRELOAD=libglblas.so GLBLAS_BACKEND=gl GLBLAS_TRACE=1: every call glblas receives
  runs on GL (the double-precision ones on the CPU BLAS with reason=no-double where the device
  has no doubles);
* ``cpu``: the same with GLBLAS_BACKEND=cpu: glblas forwards every call to the definition of the
  same name elsewhere in the process, which for ``scipy_*`` names is the wheel's privately loaded
  OpenBLAS (nothing else defines them), so the results are bitwise those of ``ref``.

Each case must reach glblas under the names of its own library: the routines the workload lists
for it, as ``scipy_<routine>_`` (``scipy_<routine>_64_`` for numpy.linalg). Without these exports
the trace has none of them.

Numerical checks on the ``gl`` run, against references computed here (without glblas) in long
double or from known spectra:

* gemm and dot: elementwise |got - exact| <= C_SAFETY (k + 2) eps (|A| |B|), the bound of
  reference.py (k terms per element; eps of the precision computed in);
* trsm, SuperLU's and numpy's solves: LAPACK's residual ratio (DTRT02, DGET02)
  max_j ||b_j - op(A) x_j||_1 / (||op(A)||_1 ||x_j||_1 eps) below LAPACK's threshold, 30;
* idamax: the exact 1-based index;
* ARPACK: the three largest eigenvalues of the 1-D Laplacian, known in closed form, within the
  convergence test ARPACK applies (residual <= tol |theta|, and for a symmetric matrix an
  eigenvalue's error is at most its residual) plus n eps ||A|| of rounding, ten times over;
* VODE: y(t) = exp(M t) y0 for a symmetric M, from its eigendecomposition; VODE keeps each
  step's local error below rtol |y| + atol <= 1e-10 for |y| <= 1, and the decaying system does
  not amplify earlier errors, so the global error stays below 1e-6 for up to 10^4 steps;
* expm of a symmetric matrix of norm about 1, against V exp(L) V^T: exp is then as well
  conditioned as its argument, and both evaluations are within a few n eps of it; 1e-12 relative
  (Frobenius) leaves a margin of about 50.
"""

import functools
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy  # pip's, which scripts/setup.sh installs

import glblas
import scipy_workload as wl
from gl_device import refusal
from helpers import EPS
from quick import QUICK, is_quick
from reference import C_SAFETY
from workload_child import child_env, load_results

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "scipy_workload.py")
TIMEOUT_S = 600
EPS64 = 2.0 ** -53
LAPACK_THRESHOLD = 30.0


CASES = wl.cases()

MODES = {
    "ref": None,
    "gl": {"GLBLAS_BACKEND": "gl", "GLBLAS_TRACE": "1"},
    "cpu": {"GLBLAS_BACKEND": "cpu", "GLBLAS_TRACE": "1"},
}


def symbol(case, routine):
    """The name a case reaches `routine` under: numpy's ILP64 Fortran name for numpy.linalg,
    scipy's LP64 one otherwise."""
    return f"scipy_{routine}_64_" if case.startswith("numpy_") else f"scipy_{routine}_"


class Run:
    def __init__(self, mode, out_dir, proc):
        self.what = f"[{mode}]"
        self.data, self.meta = load_results(self.what, proc, out_dir)
        self.trace = {"<prelude>": []}
        self.other = []
        current = "<prelude>"
        for line in proc.stderr.splitlines():
            if line.startswith(wl.MARKER):
                current = line[len(wl.MARKER):]
                self.trace[current] = []
            elif line.startswith("glblas-trace: "):
                words = line.split()
                fields = dict(w.split("=", 1) for w in words[2:])
                self.trace[current].append((words[1], fields, line))
            elif line.strip():
                self.other.append(line)
        assert list(self.trace) == ["<prelude>", *CASES, wl.END], f"{self.what}: {list(self.trace)}"

    def out(self, case):
        return self.data["out_" + case]

    def inputs(self, case):
        prefix = f"in_{case}_"
        return {k[len(prefix):]: v for k, v in self.data.items() if k.startswith(prefix)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    @functools.lru_cache(maxsize=None)
    def get(mode):
        # One OpenBLAS thread: the runs' CPU results must be bitwise comparable.
        extra = {"OPENBLAS_NUM_THREADS": "1"}
        if MODES[mode] is not None:
            extra.update(MODES[mode], LD_PRELOAD=glblas.library_path())
        env = child_env(extra)
        out_dir = tmp_path_factory.mktemp(mode)
        proc = subprocess.run([sys.executable, "-I", WORKLOAD, str(out_dir)], env=env,
                              capture_output=True, text=True, timeout=TIMEOUT_S)
        return Run(mode, str(out_dir), proc)

    return get


# ---- references ------------------------------------------------------------------------------

def assert_below(value, bound, what):
    assert np.all(value <= bound), f"{what}: {np.max(value):.3g} exceeds the bound {np.max(bound):.3g}"


def check_product(what, got, a, b, eps):
    """got = a @ b, elementwise within the bound of reference.py."""
    wide = np.longdouble
    exact = a.astype(wide) @ b.astype(wide)
    bound = C_SAFETY * (a.shape[-1] + 2) * eps * (np.abs(a).astype(wide) @ np.abs(b).astype(wide))
    assert got.shape == exact.shape, what
    assert_below(np.abs(got - exact), bound, what)


def residual_ratio(op_a, x, b, eps):
    """LAPACK's DTRT02/DGET02 ratio: max over columns of ||b - op(A) x||_1 / (||op(A)||_1 ||x||_1
    eps), in long double."""
    op_a, x, b = (np.asarray(v, dtype=np.longdouble).reshape(v.shape[0], -1) for v in (op_a, x, b))
    r = np.abs(b - op_a @ x).sum(axis=0)
    return np.max(r / (np.abs(op_a).sum(axis=0).max() * np.abs(x).sum(axis=0) * eps))


def sym_exp(s, t=1.0):
    w, v = np.linalg.eigh(s)
    return (v * np.exp(w * t)) @ v.T


def check_case(case, run):
    got, x = run.out(case), run.inputs(case)
    what = f"{run.what} {case}"
    if case.startswith("fblas_") and case.endswith("gemm"):
        check_product(what, got, x["a"], x["b"], EPS if got.dtype == np.float32 else EPS64)
    elif case.startswith("fblas_") and "trsm" in case:
        op_t = x["t"].T if case.endswith("_t") else x["t"]
        eps = EPS if got.dtype == np.float32 else EPS64
        assert_below(residual_ratio(op_t, got, x["b"], eps), LAPACK_THRESHOLD, what)
    elif case == "cython_dgemm":
        check_product(what, got, x["a"], x["b"], EPS64)
    elif case == "cython_ddot":
        check_product(what, got, x["x"], x["y"], EPS64)
    elif case == "cython_idamax":
        assert int(got) == int(np.argmax(np.abs(x["x"]))) + 1, what
    elif case == "arpack_eigsh":
        n = 300
        exact = 2 - 2 * np.cos(np.arange(n - 2, n + 1) * np.pi / (n + 1))
        assert_below(np.abs(got - exact), 10 * (1e-12 * 4 + n * EPS64 * 4), what)
    elif case == "vode_bdf":
        assert_below(np.abs(got - sym_exp(x["m"], 1e-3) @ x["y0"]), 1e-6, what)
    elif case in ("superlu_solve", "numpy_solve"):
        assert_below(residual_ratio(x["a"], got, x["b"], EPS64), LAPACK_THRESHOLD, what)
    elif case == "expm":
        want = sym_exp(x["s"])
        assert_below(np.linalg.norm(got - want) / np.linalg.norm(want), 1e-12, what)
    else:
        raise AssertionError(f"no check for case {case}")


# ---- tests -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", list(MODES))
def test_results_are_right(runs, mode):
    """Every case's result meets its bound, with and without glblas (the bounds' own sanity)."""
    run = runs(mode)
    for case in CASES:
        check_case(case, run)


def test_reference_run_is_pips_scipy_without_glblas(runs):
    ref = runs("ref")
    assert ref.meta["scipy_version"] == scipy.__version__, ref.meta
    assert ref.meta["scipy_file"] == scipy.__file__ and "/usr/lib/python3/" not in scipy.__file__
    assert not any(ref.trace.values()) and not ref.other, ref.other


def check_trace(run, route):
    """Each case reached glblas under its library's names, for every routine it lists, and every
    line shows the expected route: gl (or, for a routine the device cannot run, cpu with
    no-double), or cpu with reason=backend; the reference's quick returns (SuperLU makes some:
    m = 0 updates) are routed nowhere under either, and nothing else is."""
    lib = glblas.library_path()
    for case, (routines, _) in CASES.items():
        lines = run.trace[case]
        names = {name for name, _, _ in lines}
        missing = [symbol(case, r) for r in routines if symbol(case, r) not in names]
        assert not missing, (f"{run.what} {case}: no trace line for {missing}; the trace has:\n"
                             + "\n".join(line for _, _, line in lines[:20]))
        for name, fields, line in lines:
            args = {k: v for k, v in fields.items() if k not in ("route", "reason", "us")}
            if is_quick(name, args):
                assert (fields["route"], fields["reason"]) == QUICK, f"{run.what} {case}: {line}"
                continue
            routine = name.removeprefix("scipy_").removeprefix("cblas_").split("_")[0]
            routine = routine.removesuffix("64")
            want = ("cpu", "backend")
            if route == "gl":
                no = refusal(lib, routine)
                want = ("cpu", no) if no else ("gl", "backend")
            assert (fields["route"], fields["reason"]) == want, f"{run.what} {case}: {line}"


def test_gl_answers_scipys_calls(runs):
    """GLBLAS_BACKEND=gl: scipy's calls (scipy.linalg.blas, cython_blas, ARPACK, VODE, SuperLU,
    expm) and numpy.linalg's copies reach glblas under the wheels' names and run on GL; fblas's
    dgemm arrives with its arguments as scipy passes them."""
    run = runs("gl")
    check_trace(run, "gl")
    assert not run.other, "\n".join(run.other)
    (name, fields, line), = run.trace["fblas_dgemm"]
    assert name == "scipy_dgemm_" and (fields["transa"], fields["transb"]) == ("N", "N"), line
    assert (fields["m"], fields["n"], fields["k"], fields["lda"]) == ("67", "53", "45", "67"), line


def test_cpu_backend_forwards_to_the_wheels_openblas(runs):
    """GLBLAS_BACKEND=cpu: the same calls are forwarded to the definitions of the same names,
    the wheels' own OpenBLAS builds: every result is bitwise that of the run without glblas."""
    ref, run = runs("ref"), runs("cpu")
    check_trace(run, "cpu")
    for case in CASES:
        assert run.out(case).tobytes() == ref.out(case).tobytes(), (
            f"{run.what} {case}: differs from scipy without glblas")
