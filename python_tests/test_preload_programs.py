"""libglblas.so as an LD_PRELOAD substitute for the system BLAS, seen from real programs.

Two self-checking client programs (c_tests/preload/) are compiled here:
  - cblas_client.c: a C99 program built against the system CBLAS (OpenBLAS's <cblas.h>,
    -lopenblas) calling cblas_saxpy ... cblas_sgemm;
  - fortran_client.f90: a Fortran program built with -lblas calling saxpy_ ... sgemm_ (sdot and
    sasum as REAL functions, sgemv/sgemm with lower- and upper-case trans characters).
Each prints `call <symbol> <key>=<value> ...` before every BLAS call (the keys of the glblas trace
line for that routine, in its order), then `val <case> <index> <got> <ref> <bound>` for every output
element (float result, double reference, fp32 error bound: see the programs' header comments for
the derivation), `FAIL ...` for each failed check (outputs outside their bound, any other slot of
any buffer modified: guards, gaps, padding, inputs, quick-return outputs) and exits 0 iff all
checks passed.

The tests run each program without the library (the system BLAS answers) and with
LD_PRELOAD=libglblas.so under the documented environment variables, and check: the run succeeds,
its values agree with the plain run's within the fp32 bounds (and with the double reference), the
trace has exactly one line per call with the same symbol and arguments in the same order and the
expected route/reason, the GL-unavailable fallback, the trace file, the silence without
variables, the profile table, and GLBLAS_CPU_BLAS.

Library: the one the glblas package loads (conftest: <repo>/target/release/libglblas.so unless
$GLBLAS_LIBRARY says otherwise). The compilers and BLAS packages are required: a missing one fails the tests.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest

import glblas
from gl_device import is_glblas_setting
from quick import QUICK, is_quick

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_DIR = os.path.normpath(os.path.join(HERE, os.pardir, "c_tests", "preload"))

PROGRAMS = ("c", "fortran")
ROUTINES = ("saxpy", "sdot", "sscal", "scopy", "sswap", "sasum", "sgemv", "sgemm")

# Trace keys per routine (spec "Trace line format"); CBLAS gemv/gemm start with layout.
TRACE_KEYS = {
    "saxpy": ["n", "alpha", "incx", "incy"],
    "sdot": ["n", "incx", "incy"],
    "scopy": ["n", "incx", "incy"],
    "sswap": ["n", "incx", "incy"],
    "sscal": ["n", "alpha", "incx"],
    "sasum": ["n", "incx"],
    "sgemv": ["trans", "m", "n", "alpha", "lda", "incx", "beta", "incy"],
    "sgemm": ["transa", "transb", "m", "n", "k", "alpha", "lda", "ldb", "beta", "ldc"],
}
FLOAT_KEYS = {"alpha", "beta"}
WORD_KEYS = {"layout", "trans", "transa", "transb"}

TRACE_PREFIX = "glblas-trace: "
WARNING_PREFIX = "glblas: warning:"
NO_GL = {"__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"}
RUN_TIMEOUT = 120


def routine_of(symbol):
    """cblas_sgemm / sgemm_ -> sgemm."""
    name = symbol[len("cblas_"):] if symbol.startswith("cblas_") else symbol
    return name[:-1] if name.endswith("_") else name


def expected_keys(program, symbol):
    keys = list(TRACE_KEYS[routine_of(symbol)])
    if program == "c" and routine_of(symbol) in ("sgemv", "sgemm"):
        keys = ["layout"] + keys
    return keys


# ---- building and running ---------------------------------------------------------------------

def _compile(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    assert p.returncode == 0, f"build failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}"


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """Both client programs compiled into a temporary directory: {"c": path, "fortran": path}."""
    for tool in ("gcc", "gfortran"):
        assert shutil.which(tool), f"{tool} not found (the test script installs it)"
    out = str(tmp_path_factory.mktemp("preload_programs"))
    c_exe = os.path.join(out, "cblas_client")
    f_exe = os.path.join(out, "fortran_client")
    _compile(["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror",
              os.path.join(SRC_DIR, "cblas_client.c"), "-o", c_exe, "-lopenblas", "-lm"], out)
    # gfortran writes the module file (client.mod) into the working directory: the build dir
    _compile(["gfortran", "-O2", os.path.join(SRC_DIR, "fortran_client.f90"), "-o", f_exe,
              "-lblas"], out)
    return {"c": c_exe, "fortran": f_exe}


@pytest.fixture(scope="module")
def lib_path():
    return glblas.library_path()


def clean_env():
    """The test process's environment without any glblas setting, preload or EGL override."""
    env = {k: v for k, v in os.environ.items()
           if not is_glblas_setting(k) and k not in ("LD_PRELOAD", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    env["OPENBLAS_NUM_THREADS"] = "1"  # tiny problems: spare the 2 cores the thread pool
    if avx512_cpu():
        # Debian's OpenBLAS 0.3.21 picks its SkylakeX/Cooperlake kernels on AVX-512 machines, and
        # their sgemm reads A and B when alpha == 0 (NaN there gives NaN in C, where the
        # reference leaves beta*C). The clients check the reference corner cases, so their CPU
        # runs use the AVX2 kernels, which follow the reference.
        env["OPENBLAS_CORETYPE"] = "Haswell"
    return env


def avx512_cpu():
    with open("/proc/cpuinfo") as f:
        flags = next((line.split() for line in f if line.startswith("flags")), [])
    return "avx512f" in flags and "avx2" in flags


class Run:
    """One program run: return code, raw streams and the parsed stdout."""

    def __init__(self, exe, env, desc):
        self.desc = desc
        p = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT,
                           cwd=os.path.dirname(exe))
        self.rc = p.returncode
        self.stdout = p.stdout
        self.stderr = p.stderr
        self.calls = []      # [(symbol, [(key, value), ...])]
        self.fails = []
        self.summary = None
        keys, got, ref, bnd = [], [], [], []
        for line in p.stdout.splitlines():
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "call":
                self.calls.append((parts[1], [tuple(t.split("=", 1)) for t in parts[2:]]))
            elif parts[0] == "val":
                keys.append((parts[1], int(parts[2])))
                got.append(float(parts[3]))
                ref.append(float(parts[4]))
                bnd.append(float(parts[5]))
            elif parts[0] == "FAIL":
                self.fails.append(line)
            elif parts[0] == "summary":
                self.summary = line
        self.keys = keys
        # results are float32 printed with 9 significant digits: round-trip them to float32
        self.got = np.array(got, dtype=np.float64).astype(np.float32).astype(np.float64)
        self.ref = np.array(ref)
        self.bnd = np.array(bnd)

    def stderr_lines(self):
        return self.stderr.splitlines()

    def trace_lines(self):
        return [ln for ln in self.stderr_lines() if ln.startswith(TRACE_PREFIX)]

    def explain(self):
        fails = "\n".join(self.fails[:10])
        err = "\n".join(self.stderr_lines()[-15:])
        return (f"[{self.desc}] rc={self.rc} {self.summary}\nfirst FAIL lines:\n{fails}\n"
                f"stderr tail:\n{err}")


def run_program(exe, desc, preload=None, **env_vars):
    env = clean_env()
    if preload:
        env["LD_PRELOAD"] = preload
    env.update(env_vars)
    return Run(exe, env, desc)


@pytest.fixture(scope="module")
def plain(programs):
    """The runs without libglblas: the system BLAS answers every call."""
    return {name: run_program(exe, f"{name} plain") for name, exe in programs.items()}


# ---- checks ---------------------------------------------------------------------------------

def assert_succeeded(run):
    assert run.rc == 0 and not run.fails, run.explain()
    assert run.summary is not None and run.summary.endswith("failures=0"), run.explain()


def assert_matches_plain(run, base):
    """Same calls with the same arguments, same value keys, every value within its fp32 bound of
    the double reference and within twice the bound of the plain run's value (both are within the
    bound of the same reference)."""
    assert_succeeded(run)
    assert [c[0] for c in run.calls] == [c[0] for c in base.calls], f"[{run.desc}] call sequence differs"
    assert run.calls == base.calls, f"[{run.desc}] call arguments differ"
    assert run.keys == base.keys, f"[{run.desc}] printed value set differs from the plain run"
    # inputs are deterministic: reference and bound are printed identically
    np.testing.assert_array_equal(run.ref, base.ref)
    np.testing.assert_array_equal(run.bnd, base.bnd)
    assert np.all(np.isfinite(run.got)), f"[{run.desc}] non-finite results"
    err_ref = np.abs(run.got - run.ref)
    err_plain = np.abs(run.got - base.got)
    bad = np.flatnonzero((err_ref > run.bnd) | (err_plain > 2 * run.bnd))
    if bad.size:
        i = bad[0]
        raise AssertionError(
            f"[{run.desc}] {bad.size} values outside the fp32 bound; first {run.keys[i]}: got "
            f"{run.got[i]!r} plain {base.got[i]!r} ref {run.ref[i]!r} bound {run.bnd[i]!r}")


def parse_trace_line(line):
    """'glblas-trace: <symbol> k=v ... route=R reason=X us=N' -> (symbol, [(k, v)...], route, reason)."""
    assert line.startswith(TRACE_PREFIX), line
    tokens = line[len(TRACE_PREFIX):].split()
    assert len(tokens) >= 4, f"malformed trace line: {line!r}"
    symbol, fields = tokens[0], []
    for t in tokens[1:]:
        assert "=" in t, f"malformed field {t!r} in trace line {line!r}"
        fields.append(tuple(t.split("=", 1)))
    tail = [k for k, _ in fields[-3:]]
    assert tail == ["route", "reason", "us"], f"trace line must end route= reason= us=: {line!r}"
    us = float(fields[-1][1])
    assert us >= 0, line
    return symbol, fields[:-3], fields[-3][1], fields[-2][1]


def same_value(key, traced, called):
    if key in FLOAT_KEYS:
        return np.float32(float(traced)) == np.float32(float(called))
    if key in WORD_KEYS:
        return traced == called
    return int(traced) == int(called)


def check_trace(program, run, lines, routes):
    """Exactly one trace line per call line, same symbol, the routine's keys in the spec's order
    with the called values, and (route, reason) in `routes`, but route=none reason=quick-return
    for exactly the reference's quick returns, whatever the mode. Returns the parsed lines."""
    assert len(lines) == len(run.calls), (
        f"[{run.desc}] {len(lines)} trace lines for {len(run.calls)} calls\n" + "\n".join(lines[:5]))
    parsed = []
    for i, (line, (symbol, args)) in enumerate(zip(lines, run.calls)):
        tsym, fields, route, reason = parse_trace_line(line)
        where = f"[{run.desc}] call {i} ({symbol} {args}): trace {line!r}"
        assert tsym == symbol, where
        keys = expected_keys(program, symbol)
        assert [k for k, _ in args] == keys, f"client printed keys {args} (test bug)"
        assert [k for k, _ in fields] == keys, where
        for (k, v), (_, cv) in zip(fields, args):
            assert same_value(k, v, cv), f"{where}: {k}={v}, called with {cv}"
        expected = {QUICK} if is_quick(symbol, dict(args)) else routes
        assert (route, reason) in expected, (
            f"{where}: route={route} reason={reason}, expected one of {expected}")
        parsed.append((tsym, route, reason))
    return parsed


def call_counts(run):
    counts = {}
    for symbol, _ in run.calls:
        r = routine_of(symbol)
        counts[r] = counts.get(r, 0) + 1
    return counts


# ---- tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("program", PROGRAMS)
def test_plain_run(plain, program):
    """Without the library the system BLAS passes all the client's checks, and every routine of
    the contract is called (sanity of the clients themselves)."""
    run = plain[program]
    assert_succeeded(run)
    assert set(call_counts(run)) == set(ROUTINES), call_counts(run)
    assert len(run.keys) > 1000
    assert np.all(np.abs(run.got - run.ref) <= run.bnd)
    for symbol, args in run.calls:
        expected_prefix = "cblas_" if program == "c" else ""
        assert symbol.startswith(expected_prefix) and routine_of(symbol) in ROUTINES, symbol
        assert [k for k, _ in args] == expected_keys(program, symbol), (symbol, args)


MODES = {
    # id: (environment, accepted (route, reason) pairs)
    "gl": ({"GLBLAS_BACKEND": "gl"}, {("gl", "backend")}),
    "cpu": ({"GLBLAS_BACKEND": "cpu"}, {("cpu", "backend")}),
    # default auto on llvmpipe: everything on the CPU (below threshold or software renderer)
    "auto": ({}, {("cpu", "small"), ("cpu", "software-renderer")}),
    # every call to GL, but for those whose shader the driver is still compiling in the
    # background (zink): the CPU BLAS answers them meanwhile
    "auto-min-flops-0": ({"GLBLAS_GL_MIN_FLOPS": "0"}, {("gl", "large"), ("cpu", "compiling")}),
}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("program", PROGRAMS)
def test_preload_backend(programs, plain, lib_path, program, mode):
    """LD_PRELOAD=libglblas.so with GLBLAS_TRACE=1: same results as the plain run within fp32
    bounds, one trace line per call with the called symbol and arguments, expected route."""
    env, routes = MODES[mode]
    run = run_program(programs[program], f"{program} {mode}", preload=lib_path,
                      GLBLAS_TRACE="1", **env)
    assert_matches_plain(run, plain[program])
    check_trace(program, run, run.trace_lines(), routes)
    assert not any(ln.startswith(WARNING_PREFIX) for ln in run.stderr_lines()), run.explain()


@pytest.mark.parametrize("program", PROGRAMS)
def test_gl_unavailable_falls_back_to_cpu(programs, plain, lib_path, program):
    """No EGL vendor (a machine without a GL driver) and GLBLAS_BACKEND=gl: the CPU BLAS answers
    every call correctly, each traced route=cpu reason=gl-failed, one warning line in total."""
    run = run_program(programs[program], f"{program} no-gl", preload=lib_path,
                      GLBLAS_BACKEND="gl", GLBLAS_TRACE="1", **NO_GL)
    assert_matches_plain(run, plain[program])
    check_trace(program, run, run.trace_lines(), {("cpu", "gl-failed")})
    warnings = [ln for ln in run.stderr_lines() if ln.startswith(WARNING_PREFIX)]
    assert len(warnings) == 1, f"expected exactly one warning line, got {warnings}\n{run.explain()}"


@pytest.mark.parametrize("program", PROGRAMS)
def test_trace_to_file(programs, plain, lib_path, program, tmp_path):
    """GLBLAS_TRACE=<file>: the trace lines are appended to the file (existing content kept) and
    nothing is printed on stderr."""
    trace = tmp_path / "trace.log"
    trace.write_text("existing line\n")
    run = run_program(programs[program], f"{program} trace-file", preload=lib_path,
                      GLBLAS_TRACE=str(trace))
    assert_matches_plain(run, plain[program])
    assert run.stderr == "", f"stderr must be empty with the trace in a file:\n{run.stderr[:2000]}"
    lines = trace.read_text().splitlines()
    assert lines[0] == "existing line", "the trace file must be appended to, not truncated"
    body = lines[1:]
    assert all(ln.startswith(TRACE_PREFIX) for ln in body), body[:5]
    check_trace(program, run, body, MODES["auto"][1])


@pytest.mark.parametrize("program", PROGRAMS)
def test_silent_without_variables(programs, plain, lib_path, program):
    """Preloaded with no glblas variable set: correct results and nothing at all on stderr."""
    run = run_program(programs[program], f"{program} silent", preload=lib_path)
    assert_matches_plain(run, plain[program])
    assert run.stderr == "", f"the library must print nothing:\n{run.stderr[:2000]}"


@pytest.mark.parametrize("program", PROGRAMS)
def test_profile(programs, plain, lib_path, program):
    """GLBLAS_PROFILE=1 (GLBLAS_BACKEND=gl, with the trace on): the table is printed at exit, after
    every trace line, with one row per called routine whose calls equal the program's call lines,
    gl + cpu + quick == calls, and gl and quick equal to the numbers of route=gl and quick-return
    trace lines of that routine."""
    run = run_program(programs[program], f"{program} profile", preload=lib_path,
                      GLBLAS_BACKEND="gl", GLBLAS_PROFILE="1", GLBLAS_TRACE="1")
    assert_matches_plain(run, plain[program])
    parsed = check_trace(program, run, run.trace_lines(), {("gl", "backend")})
    err = run.stderr_lines()
    assert "glblas profile:" in err, f"no profile table on stderr:\n{run.explain()}"
    start = err.index("glblas profile:")
    last_trace = max(i for i, ln in enumerate(err) if ln.startswith(TRACE_PREFIX))
    assert start > last_trace, "the profile must be printed at exit, after the last call"
    header = ["routine", "calls", "gl", "cpu", "quick", "time_ms", "GFLOP/s"]
    assert err[start + 1].split() == header, err[start + 1]
    rows = {}
    for ln in err[start + 2:]:
        parts = ln.split()
        if len(parts) != 7 or parts[0] not in ROUTINES:
            break
        assert parts[0] not in rows, f"duplicate profile row {ln!r}"
        calls, gl, cpu, quick = (int(v) for v in parts[1:5])
        time_ms = float(parts[5])
        assert time_ms >= 0, ln
        rows[parts[0]] = (calls, gl, cpu, quick)
    counts = call_counts(run)
    assert set(rows) == set(counts), f"profile rows {sorted(rows)} vs routines called {sorted(counts)}"
    gl_traced, quick_traced = {}, {}
    for sym, route, reason in parsed:
        if route == "gl":
            gl_traced[routine_of(sym)] = gl_traced.get(routine_of(sym), 0) + 1
        if (route, reason) == QUICK:
            quick_traced[routine_of(sym)] = quick_traced.get(routine_of(sym), 0) + 1
    for r, (calls, gl, cpu, quick) in rows.items():
        assert calls == counts[r], f"{r}: profile calls {calls}, program made {counts[r]}"
        assert gl + cpu + quick == calls, f"{r}: gl {gl} + cpu {cpu} + quick {quick} != calls {calls}"
        assert gl == gl_traced.get(r, 0), f"{r}: profile gl {gl}, route=gl trace lines {gl_traced.get(r, 0)}"
        assert quick == quick_traced.get(r, 0), (
            f"{r}: profile quick {quick}, quick-return trace lines {quick_traced.get(r, 0)}")


def test_cpu_blas_reference_library(programs, plain, lib_path):
    """GLBLAS_BACKEND=cpu with GLBLAS_CPU_BLAS=libblas.so.3 (soname of the system reference BLAS
    interface): the C client still gets correct results, every call routed to the CPU."""
    run = run_program(programs["c"], "c cpu-blas=libblas.so.3", preload=lib_path,
                      GLBLAS_BACKEND="cpu", GLBLAS_CPU_BLAS="libblas.so.3", GLBLAS_TRACE="1")
    assert_matches_plain(run, plain["c"])
    check_trace("c", run, run.trace_lines(), {("cpu", "backend")})
