"""glblas as a drop-in BLAS under LD_PRELOAD for numpy, with two numpy builds:

* ``pip``: the interpreter running pytest (``sys.executable``) with its pip numpy (2.x), whose
  bundled OpenBLAS is called through the ILP64 names ``scipy_cblas_*64_``;
* ``debian``: ``/usr/bin/python3`` with Debian's python3-numpy (1.24) from
  /usr/lib/python3/dist-packages, linked to libblas.so.3 and calling plain ``cblas_*`` names.

Each test runs numpy_workload.py (same directory) as a child process, with an explicit
environment, in ``-I`` (isolated) mode so that neither PYTHON* variables nor user site-packages can
swap the numpy under test; the child itself asserts which numpy it imported.  Runs:

* ``ref``:  no LD_PRELOAD (numpy's own BLAS): the reference results;
* ``gl``:   LD_PRELOAD=libglblas.so GLBLAS_BACKEND=gl GLBLAS_TRACE=1;
* ``auto_nogl``: GLBLAS_BACKEND=auto GLBLAS_GL_MIN_FLOPS=0 GLBLAS_TRACE=1 with EGL pointed at a
  vendor file that does not exist, so GL is unavailable and every call falls back to the CPU;
* ``default``: only LD_PRELOAD.

What numpy calls (observed with an LD_PRELOAD logging shim and glblas' own trace; the table is
EXPECTED below): float32 matmul/np.dot of 2-D operands -> sgemm (row-major; transposed views and
Fortran-ordered operands become TransA/TransB = T, sub-matrix views keep their parent's leading
dimension; numpy 2.x copies operands with no unit stride and then calls sgemm, numpy 1.24's matmul
computes those without BLAS while its np.dot copies and calls sgemm; a stack of matrices is one
sgemm per matrix); matrix @ vector and vector @ matrix -> sgemv (C-ordered A @ v is issued as
col-major Trans); 1-D np.dot / np.vdot / np.inner / @ -> sdot (strided views pass incx/incy);
A @ A.T -> ssyrk (row-major, upper triangle; numpy mirrors it into the lower one itself);
numpy's import-time sanity check calls sdot once with n = 2.  float64 operations call dgemm,
dgemv, ddot and dsyrk exactly as float32 ones call sgemm, sgemv, sdot and ssyrk, and complex
products cgemm/zgemm and cgemv/zgemv alike (a conjugated operand is conjugated by numpy into a new
array first), and complex dot and vdot cblas_cdotu_sub and cblas_cdotc_sub (zdotu, zdotc).  Where
the device
cannot run a routine glblas passes it to the CPU BLAS with the reason, even under
GLBLAS_BACKEND=gl: every double-precision call with reason=no-double where there is no compute
pipeline or fp64 (GLES, GL 3.3, virgl).

Numerical checks: every float32 result f(A, B) is a sum of k products; the exact value is f
evaluated on the float64 copies of the (float32) inputs (products of two float32 values are exact
in float64 and the float64 summation error is ~1e-16 relative, negligible here).  Any fp32
evaluation order gives |err| <= gamma_k * (|A|@|B|) with gamma_k = k*eps/(1 - k*eps), eps = 2^-24;
as in reference.sgemm_ref we accept C_SAFETY*(k+2)*eps*(|A|@|B|) elementwise (C_SAFETY = 2 covers
gamma's denominator and an extra rounding of alpha*acc).  |A|@|B| is f evaluated on |inputs|, and k
is f evaluated on all-ones inputs (it counts the terms of each output element).  float64 and complex
results are checked alike against a long-double evaluation (64-bit mantissa: its own error is
2^-11 of the fp64 bound) with eps = 2^-53 (2^-24 for complex64), each part of a complex one a
real sum of 2k products.
"""

import functools
import os
import subprocess
import sys

import numpy as np
import pytest

import numpy_workload as wl
import glblas
from helpers import EPS
from gl_device import refusal
from reference import C_SAFETY, assert_close
from workload_child import child_env, load_results

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "numpy_workload.py")
TIMEOUT_S = 120

DEBIAN_PYTHON = "/usr/bin/python3"
DEBIAN_NUMPY_DIR = "/usr/lib/python3/dist-packages/numpy"

ROUTINES = ("saxpy", "sdot", "sscal", "scopy", "sswap", "sasum", "sgemv", "sgemm", "ssyrk",
            "daxpy", "ddot", "dscal", "dcopy", "dswap", "dasum", "dgemv", "dgemm", "dsyrk",
            "cgemm", "zgemm", "cgemv", "zgemv", "cdotu", "cdotc", "zdotu", "zdotc")
EPS64 = 2.0 ** -53
INTERPRETERS = ("pip", "debian")


def cblas_name(routine):
    """The CBLAS name of a routine: a complex dot returns through an argument (`_sub`)."""
    return routine + ("_sub" if routine[1:] in ("dotu", "dotc") else "")


def symbol(interp, routine):
    name = cblas_name(routine)
    return f"scipy_cblas_{name}64_" if interp == "pip" else f"cblas_{name}"


# Every BLAS-compatible name glblas exports: the only names a trace line may carry.
EXPORTED = frozenset([f"cblas_{cblas_name(r)}" for r in ROUTINES] + [f"{r}_" for r in ROUTINES]
                     + [f"scipy_cblas_{cblas_name(r)}64_" for r in ROUTINES])


# ---- expected BLAS calls per workload case ---------------------------------------------------

def gemm(layout, ta, tb, m, n, k, lda, ldb, ldc, routine="sgemm"):
    # The trace writes a complex scalar as re+imi.
    one, zero = ("1+0i", "0+0i") if routine[0] in "cz" else (1.0, 0.0)
    return (routine, dict(layout=layout, transa=ta, transb=tb, m=m, n=n, k=k, lda=lda, ldb=ldb, ldc=ldc,
                          alpha=one, beta=zero))


def gemv(layout, trans, m, n, lda, incx, incy, routine="sgemv"):
    one, zero = ("1+0i", "0+0i") if routine[0] in "cz" else (1.0, 0.0)
    return (routine, dict(layout=layout, trans=trans, m=m, n=n, lda=lda, incx=incx, incy=incy,
                          alpha=one, beta=zero))


def dot(n, incx, incy, routine="sdot"):
    return (routine, dict(n=n, incx=incx, incy=incy))


def syrk(routine="ssyrk"):
    return (routine, dict(layout="row", uplo="U", trans="N", n=67, k=45, lda=45, ldc=67,
                          alpha=1.0, beta=0.0))


MM_C = [gemm("row", "N", "N", 67, 53, 45, 45, 53, 53)]
STRIDED = [gemm("row", "N", "N", 70, 70, 67, 67, 70, 70)]  # operands copied to contiguous first
DOT_1001 = [dot(1001, 1, 1)]

EXPECTED = {
    "mm_c": MM_C,
    "mm_at_b": [gemm("row", "T", "N", 67, 53, 45, 67, 53, 53)],
    "mm_a_bt": [gemm("row", "N", "T", 67, 53, 45, 45, 45, 53)],
    "mm_at_bt": [gemm("row", "T", "T", 67, 53, 45, 67, 45, 53)],
    "mm_f_f": [gemm("row", "T", "T", 67, 53, 45, 67, 45, 53)],
    "mm_f_c": [gemm("row", "T", "N", 67, 53, 45, 67, 53, 53)],
    "mm_sub_ld": [gemm("row", "N", "N", 67, 53, 45, 201, 139, 53)],
    "mm_strided": {"pip": STRIDED, "debian": []},  # numpy 1.24 matmul: no BLAS without a unit stride
    "dot_2d_strided": STRIDED,
    "dot_2d": MM_C,
    "mv": [gemv("col", "T", 45, 67, 45, 1, 1)],
    "vm": [gemv("row", "T", 67, 45, 45, 1, 1)],
    "mv_t": [gemv("row", "T", 45, 67, 67, 1, 1)],
    "mv_strided_x": [gemv("col", "T", 45, 67, 45, 2, 1)],
    "dot_mv": [gemv("row", "N", 67, 45, 45, 1, 1)],
    "dot_1d": DOT_1001,
    "vdot_1d": DOT_1001,
    "inner_1d": DOT_1001,
    "matmul_1d": DOT_1001,
    "dot_1d_strided": [dot(334, 3, 3)],
    "mm_batched": [gemm("row", "N", "N", 17, 19, 23, 23, 19, 19)] * 3,
    "syrk_a_at": [syrk()],
    "d_mm": [gemm("row", "N", "N", 67, 53, 45, 45, 53, 53, "dgemm")],
    "d_mm_t": [gemm("row", "T", "T", 53, 67, 45, 53, 45, 67, "dgemm")],
    "d_mv": [gemv("col", "T", 45, 67, 45, 1, 1, "dgemv")],
    "d_vm": [gemv("row", "T", 67, 45, 45, 1, 1, "dgemv")],
    "d_mv_t": [gemv("row", "T", 45, 53, 53, 1, 1, "dgemv")],
    "d_mv_strided_x": [gemv("col", "T", 45, 67, 45, 2, 1, "dgemv")],
    "d_dot": [dot(1001, 1, 1, "ddot")],
    "d_dot_strided": [dot(334, 3, 3, "ddot")],
    "d_syrk": [syrk("dsyrk")],
    "c_mm": [gemm("row", "N", "N", 67, 53, 45, 45, 53, 53, "cgemm")],
    "c_mm_t": [gemm("row", "T", "T", 53, 67, 45, 53, 45, 67, "cgemm")],
    # numpy conjugates into a new array, then calls cgemm on its transposed view.
    "c_mm_h": [gemm("row", "T", "T", 53, 67, 45, 53, 45, 67, "cgemm")],
    "c_mm_f": [gemm("row", "T", "N", 67, 53, 45, 67, 53, 53, "cgemm")],
    "c_mv": [gemv("col", "T", 45, 67, 45, 1, 1, "cgemv")],
    "c_mv_t": [gemv("row", "T", 45, 53, 53, 1, 1, "cgemv")],
    # numpy conjugates into a new array, then calls cgemv on its transposed view.
    "c_mv_h": [gemv("row", "T", 45, 53, 53, 1, 1, "cgemv")],
    "c_vm": [gemv("row", "T", 45, 53, 53, 1, 1, "cgemv")],
    "c_mv_strided_x": [gemv("col", "T", 45, 67, 45, 2, 1, "cgemv")],
    "z_mm": [gemm("row", "N", "N", 67, 53, 45, 45, 53, 53, "zgemm")],
    "z_mm_h": [gemm("row", "T", "T", 53, 67, 45, 53, 45, 67, "zgemm")],
    "c_dot": [dot(1001, 1, 1, "cdotu")],
    "c_vdot": [dot(1001, 1, 1, "cdotc")],
    "z_mv": [gemv("col", "T", 45, 67, 45, 1, 1, "zgemv")],
    "z_mv_h": [gemv("row", "T", 45, 53, 53, 1, 1, "zgemv")],
    "z_dot": [dot(1001, 1, 1, "zdotu")],
    "z_vdot": [dot(1001, 1, 1, "zdotc")],
}


def expected_calls(interp, case):
    e = EXPECTED[case]
    return e[interp] if isinstance(e, dict) else e


CASES = wl.cases(np)
F32_CASES = [c for c, (kind, _) in CASES.items() if kind == "f32"]
F64_CASES = [c for c, (kind, _) in CASES.items() if kind == "f64"]
COMPLEX_CASES = [c for c, (kind, _) in CASES.items() if kind in ("c64", "c128")]


def test_expected_table_covers_workload():
    assert set(EXPECTED) == set(F32_CASES + F64_CASES + COMPLEX_CASES)


# ---- running the workload --------------------------------------------------------------------

def interpreter(interp):
    """(executable, directory its numpy must come from, required numpy version or None)."""
    if interp == "pip":
        # the numpy of the interpreter running pytest, i.e. the pip wheel (not Debian's)
        here = os.path.dirname(os.path.realpath(np.__file__))
        assert not here.startswith("/usr/lib/python3/"), f"pytest runs with Debian's numpy ({here})"
        return sys.executable, here, np.__version__
    return DEBIAN_PYTHON, DEBIAN_NUMPY_DIR, None


MODES = {
    "ref": None,
    "gl": {"GLBLAS_BACKEND": "gl", "GLBLAS_TRACE": "1"},
    "auto_nogl": {"GLBLAS_BACKEND": "auto", "GLBLAS_GL_MIN_FLOPS": "0", "GLBLAS_TRACE": "1",
                  "__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"},
    "default": {},
}


class Run:
    def __init__(self, interp, mode, out_dir, proc, cmd, env):
        self.interp, self.mode, self.cmd, self.env = interp, mode, cmd, env
        self.stderr = proc.stderr
        self.what = f"[{interp}/{mode}] " + " ".join(f"{k}={v}" for k, v in env.items()
                                                      if k.startswith(("GLBLAS", "LD_", "__EGL")))
        self.data, self.meta = load_results(self.what, proc, out_dir)
        self.parse_stderr()

    def result(self, case):
        return self.data["out_" + case]

    def parse_stderr(self):
        """Split stderr into trace lines per case ('<prelude>' before the first marker: numpy's
        import), glblas warnings and anything else."""
        self.trace = {"<prelude>": []}
        self.all_trace = []
        self.warnings = []
        self.other = []
        self.cases_seen = []
        current = "<prelude>"
        for line in self.stderr.splitlines():
            if line.startswith(wl.MARKER):
                current = line[len(wl.MARKER):]
                self.cases_seen.append(current)
                self.trace.setdefault(current, [])
            elif line.startswith("glblas-trace: "):
                t = parse_trace(line)
                self.trace[current].append(t)
                self.all_trace.append(t)
            elif line.startswith("glblas: warning:"):
                self.warnings.append(line)
            elif line.strip():
                self.other.append(line)
        assert self.cases_seen == list(CASES) + [wl.END], f"{self.what}: case markers {self.cases_seen}"


def parse_trace(line):
    words = line.split()
    assert len(words) >= 5 and words[0] == "glblas-trace:", f"malformed trace line: {line!r}"
    kv = {}
    for w in words[2:]:
        assert "=" in w, f"malformed trace field {w!r} in {line!r}"
        k, v = w.split("=", 1)
        kv[k] = v
    for k in ("route", "reason", "us"):
        assert k in kv, f"trace line without {k}=: {line!r}"
    assert words[-1].startswith("us="), f"trace line must end with us=: {line!r}"
    float(kv["us"])
    return {"symbol": words[1], "fields": kv, "line": line}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """runs(interp, mode) -> Run, each workload run done once per module."""

    @functools.lru_cache(maxsize=None)
    def get(interp, mode):
        exe, numpy_dir, version = interpreter(interp)
        extra = {}
        if MODES[mode] is not None:
            extra = dict(MODES[mode], LD_PRELOAD=glblas.library_path())
        env = child_env(extra)
        out_dir = tmp_path_factory.mktemp(f"{interp}_{mode}")
        cmd = [exe, "-I", WORKLOAD, str(out_dir), "--expect-numpy-dir", numpy_dir]
        if version:
            cmd += ["--expect-version", version]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
        return Run(interp, mode, str(out_dir), proc, cmd, env)

    return get


# ---- checks ----------------------------------------------------------------------------------

# Per case kind: the result's type, the type its exact value is computed in, and the unit
# roundoff of its precision.
PRECISIONS = {"f32": (np.float32, np.float64, EPS), "f64": (np.float64, np.longdouble, EPS64),
              "c64": (np.complex64, np.clongdouble, EPS), "c128": (np.complex128, np.clongdouble, EPS64)}


@functools.lru_cache(maxsize=None)
def exact_and_bound(case):
    """Exact value (float64 for a float32 case, long double for the others), and the error bound
    of each part: gamma_k|A||B| for a real case; for a complex one, each part is a real sum of 2k
    products (|ar br| + |ai bi| <= |a||b|), so gamma_2k of the product of the moduli."""
    X = wl.make_inputs(np)
    kind = CASES[case][0]
    fn = CASES[case][1]
    dtype, wide, eps = PRECISIONS[kind]
    Xw = {k: v.astype(wide) for k, v in X.items() if v.dtype == dtype}
    exact = np.asarray(fn(Xw), dtype=wide)
    mag = np.abs(np.asarray(fn({k: np.abs(v) for k, v in Xw.items()})))
    k = np.abs(np.asarray(fn({k: np.ones_like(v) for k, v in Xw.items()})))
    terms = 2 * k if kind in ("c64", "c128") else k
    return exact, C_SAFETY * (terms + 2) * eps * mag


def check_results(run, ref):
    """float32, float64 and complex cases within the bound of their precision of the exact
    value, from the same inputs as ref's."""
    for case in F32_CASES + F64_CASES + COMPLEX_CASES:
        got = run.result(case)
        want_dtype = PRECISIONS[CASES[case][0]][0]
        assert got.dtype == want_dtype, f"{run.what} {case}: dtype {got.dtype}"
        exact, bound = exact_and_bound(case)
        assert got.shape == exact.shape, f"{run.what} {case}: shape {got.shape} != {exact.shape}"
        if np.iscomplexobj(exact):
            assert_close(got.real, exact.real, bound, f"{run.what} {case} (real part)")
            assert_close(got.imag, exact.imag, bound, f"{run.what} {case} (imaginary part)")
        else:
            assert_close(got, exact, bound, f"{run.what} {case}")
    # the inputs themselves are identical in every run (same seed, same numpy)
    for k, v in ref.data.items():
        if k.startswith("in_"):
            assert run.data[k].tobytes() == v.tobytes(), f"{run.what}: input {k} differs from the reference run"


def check_trace(run, route, reason):
    """Every trace line names an exported symbol of this numpy's flavour with the given
    route/reason (where GL was asked and the device cannot run the routine: route=cpu with
    reason no-double), and each case made exactly the expected calls."""
    interp = run.interp
    lib = glblas.library_path()
    routine_of = {symbol(interp, r): r for r in ROUTINES}
    for t in run.all_trace:
        assert t["symbol"] in EXPORTED, f"{run.what}: trace names a routine glblas does not export: {t['line']}"
        assert t["symbol"] in routine_of, (
            f"{run.what}: unexpected symbol flavour for {interp} numpy: {t['line']}")
        r = routine_of[t["symbol"]]
        want = (route, reason)
        if route == "gl" and refusal(lib, r):
            want = ("cpu", refusal(lib, r))
        assert (t["fields"]["route"], t["fields"]["reason"]) == want, (
            f"{run.what}: expected route={want[0]} reason={want[1]}: {t['line']}")
    for case in CASES:
        want = [(symbol(interp, r), f) for r, f in expected_calls(interp, case)]
        got = run.trace[case]
        msg = (f"{run.what} case {case}: expected {len(want)} call(s) "
               f"{[s for s, _ in want]}, trace has:\n" + "\n".join(t["line"] for t in got))
        assert len(got) == len(want), msg
        for t, (sym, fields) in zip(got, want):
            assert t["symbol"] == sym, msg
            for key, value in fields.items():
                assert key in t["fields"], f"{msg}\n(missing {key}=)"
                v = t["fields"][key]
                ok = float(v) == value if isinstance(value, float) else v == str(value)
                assert ok, f"{msg}\n({key}={v}, expected {value})"
    # numpy's import does a float32 dot sanity check: only exported names, no other routine
    for t in run.trace["<prelude>"]:
        assert t["symbol"] == symbol(interp, "sdot"), f"{run.what}: unexpected call at import: {t['line']}"
    # the routines numpy uses must all have been intercepted
    seen = {t["symbol"] for t in run.all_trace}
    for r in ("sgemm", "sgemv", "sdot", "ssyrk", "dgemm", "dgemv", "ddot", "dsyrk", "cgemm", "zgemm"):
        assert symbol(interp, r) in seen, f"{run.what}: no trace line for {symbol(interp, r)}"


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_reference_run_imports_expected_numpy(runs, interp):
    """Without LD_PRELOAD: the child imported the intended numpy, its float32 results meet the
    bound (sanity of the bound itself) and nothing about glblas appears."""
    ref = runs(interp, "ref")
    exe, numpy_dir, version = interpreter(interp)
    assert ref.meta["numpy_file"].startswith(os.path.realpath(numpy_dir) + os.sep), ref.meta
    if interp == "pip":
        assert ref.meta["numpy_version"] == version, ref.meta
        assert int(version.split(".")[0]) >= 2, f"expected the pip numpy 2.x, got {version}"
    else:
        assert ref.meta["numpy_version"].startswith("1."), ref.meta
    check_results(ref, ref)
    assert not ref.all_trace and not ref.warnings, ref.stderr


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_gl_backend_intercepts(runs, interp):
    """GLBLAS_BACKEND=gl: float32 sgemm/sgemv/sdot, float64 dgemm/dgemv/ddot and complex
    gemm/gemv/dotu/dotc run in glblas on GL (route=gl reason=backend), results within the bounds
    of their precision."""
    ref, run = runs(interp, "ref"), runs(interp, "gl")
    assert run.meta == ref.meta
    check_results(run, ref)
    check_trace(run, "gl", "backend")
    assert not run.warnings, f"{run.what}: GL should work here, got {run.warnings}"
    assert not run.other, f"{run.what}: unexpected stderr lines:\n" + "\n".join(run.other)


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_auto_without_gl_falls_back_to_cpu(runs, interp):
    """GLBLAS_BACKEND=auto GLBLAS_GL_MIN_FLOPS=0 and no EGL vendor: every call tries GL, which is
    unavailable, and is answered by the CPU BLAS (route=cpu reason=gl-failed) with exactly one
    warning line for the whole process."""
    ref, run = runs(interp, "ref"), runs(interp, "auto_nogl")
    check_results(run, ref)
    check_trace(run, "cpu", "gl-failed")
    assert len(run.warnings) == 1, f"{run.what}: expected exactly one 'glblas: warning:' line, got {run.warnings}"
    assert not [l for l in run.other if "glblas" in l], f"{run.what}: stray glblas output:\n{run.stderr}"


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_cpu_fallback_is_numpys_own_blas(runs, interp):
    """The CPU BLAS behind the fallback is the next definition of the symbol in the process, i.e.
    numpy's own BLAS: forwarding the same call with the same arguments gives bitwise the same
    float32 and float64 results as numpy without glblas."""
    ref, run = runs(interp, "ref"), runs(interp, "auto_nogl")
    for case in F32_CASES + F64_CASES:
        got, want = run.result(case), ref.result(case)
        if got.tobytes() != want.tobytes():
            diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
            raise AssertionError(
                f"{run.what} {case}: the CPU fallback's result differs from numpy's own BLAS "
                f"(max |diff| {diff.max():.3g}, {int(np.count_nonzero(diff))}/{diff.size} elements): "
                f"the fallback did not forward to {symbol(interp, 'sgemm')} of numpy's BLAS?")


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_default_environment_is_silent(runs, interp):
    """Only LD_PRELOAD: results correct, and glblas prints nothing at all."""
    ref, run = runs(interp, "ref"), runs(interp, "default")
    check_results(run, ref)
    assert not run.all_trace and not run.warnings, f"{run.what}: glblas printed:\n{run.stderr}"
    assert not run.other, f"{run.what}: unexpected stderr output:\n" + "\n".join(run.other)
