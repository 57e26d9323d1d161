"""Error exits of the BLAS-compatible symbols (sgemm_, sgemv_, cblas_sgemm, cblas_sgemv and the
ILP64 scipy_cblas_sgemm64_ / scipy_cblas_sgemv64_) follow the reference BLAS, with libglblas
LD_PRELOADed into a C program linked with OpenBLAS.

The C programs (c_tests/preload/) are compiled once per module; a missing compiler or OpenBLAS
development files fail the tests (they are part of the test environment), they do not skip them.

- xerbla_client defines its own xerbla_ / cblas_xerbla and checks, for every error case of the
  contract, one handler call with the reference name and parameter number, RowMajorStrg during
  the call, untouched arrays, and correct results of valid calls before and after the errors.
  It runs under GLBLAS_BACKEND=gl, cpu and auto; with GLBLAS_TRACE=1 every call it makes has
  exactly one trace line, `route=error reason=param-<info>` for the erroneous ones.
- xerbla_default defines no handler: the library prints the reference messages on stderr,
  returns, and the program goes on.

Library: the one the glblas package loads (conftest: <repo>/target/release/libglblas.so unless
$GLBLAS_LIBRARY says otherwise).
"""

import os
import re
import shutil
import subprocess

import pytest

import glblas
from gl_device import is_glblas_setting

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_DIR = os.path.join(HERE, os.pardir, "c_tests", "preload")

BACKENDS = ["gl", "cpu", "auto"]

# The reference messages xerbla_default must print, in order. The Fortran one is exactly
# " ** On entry to %s parameter number %2d had an illegal value" with the trimmed name; the
# row-major bad M (handler info 5, the swapped call's position) prints the C position 4.
DEFAULT_MESSAGES = [
    " ** On entry to SGEMM parameter number  3 had an illegal value",
    "Parameter 9 to routine cblas_sgemm was incorrect",
    "Parameter 4 to routine cblas_sgemm was incorrect",
    "Parameter 12 to routine cblas_sgemv was incorrect",
]
# The calls xerbla_default makes, as the trace must show them: (symbol, param-N or None).
DEFAULT_CALLS = [
    ("sgemm_", 3),
    ("cblas_sgemm", 9),
    ("cblas_sgemm", 5),
    ("cblas_sgemv", 12),
    ("cblas_sgemm", None),
]

TRACE_RE = re.compile(r"^glblas-trace: (\S+)((?: \S+=\S+)*)$")
WARNING_PREFIX = "glblas: warning:"
TIMEOUT = 300


@pytest.fixture(scope="module")
def lib_path():
    return glblas.library_path()


def _compile(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"compilation failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """Compiles xerbla_client and xerbla_default; returns their paths."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.fail("gcc not found: it is needed to build the preload test programs")
    out = tmp_path_factory.mktemp("preload_xerbla")
    client = str(out / "xerbla_client")
    default = str(out / "xerbla_default")
    src = os.path.abspath(SRC_DIR)
    _compile([gcc, "-std=c99", "-O2", "-Wall", "-Wextra", "-rdynamic",
              os.path.join(src, "xerbla_client.c"), "-o", client, "-lopenblas", "-ldl"], src)
    _compile([gcc, "-std=c99", "-O2", "-Wall", "-Wextra",
              os.path.join(src, "xerbla_default.c"), "-o", default, "-lopenblas", "-lm"], src)
    return {"client": client, "default": default}


def _env(lib, **glblas):
    """The test's environment: no inherited GLBLAS_* settings or preloads, then `glblas`."""
    env = {k: v for k, v in os.environ.items()
           if not is_glblas_setting(k) and k not in ("LD_PRELOAD", "__EGL_VENDOR_LIBRARY_FILENAMES")}
    env["LD_PRELOAD"] = lib
    env.update({k: str(v) for k, v in glblas.items()})
    return env


def _run(argv, env):
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    return proc


def _describe(proc):
    """The run's exit status and output, less the per-call noise (CALL and trace lines)."""
    out = [l for l in proc.stdout.splitlines() if not l.startswith("CALL ")]
    err = [l for l in proc.stderr.splitlines() if not l.startswith("glblas-trace:")]
    ntrace = len(proc.stderr.splitlines()) - len(err)
    return (f"exit status {proc.returncode}\n--- stdout (CALL lines omitted) ---\n"
            + "\n".join(out) + f"\n--- stderr ({ntrace} trace lines omitted) ---\n"
            + "\n".join(err))


def _parse_trace(line):
    """(symbol, {key: value}) of one trace line; fails on a malformed one."""
    m = TRACE_RE.match(line)
    assert m, f"malformed trace line: {line!r}"
    fields = dict(kv.split("=", 1) for kv in m.group(2).split())
    for key in ("route", "reason", "us"):
        assert key in fields, f"trace line without {key}=: {line!r}"
    return m.group(1), fields


def _split_stderr(stderr):
    """(trace lines, warning lines, other non-empty lines) of a run's stderr."""
    traces, warnings, other = [], [], []
    for line in stderr.splitlines():
        if line.startswith("glblas-trace:"):
            traces.append(line)
        elif line.startswith(WARNING_PREFIX):
            warnings.append(line)
        elif line.strip():
            other.append(line)
    return traces, warnings, other


def _client_calls(stdout):
    """The calls xerbla_client announced: [(symbol, info or None)]."""
    calls = []
    for line in stdout.splitlines():
        if not line.startswith("CALL "):
            continue
        parts = line.split()
        if parts[2] == "error":
            calls.append((parts[1], int(parts[3])))
        else:
            assert parts[2] == "ok", line
            calls.append((parts[1], None))
    return calls


def _trace_problems(calls, traces, backend, warnings):
    """One trace line per call, in order: route=error reason=param-<info> for the erroneous
    ones, a computing route for the valid ones."""
    if len(traces) != len(calls):
        return [f"{len(calls)} BLAS calls made but {len(traces)} trace lines:"] + traces
    problems = []
    for i, ((sym, info), line) in enumerate(zip(calls, traces)):
        tsym, f = _parse_trace(line)
        if tsym != sym:
            problems.append(f"call {i}: {sym} traced as {tsym}: {line}")
            continue
        if info is not None:
            if f["route"] != "error" or f["reason"] != f"param-{info}":
                problems.append(f"call {i}: {sym} expected route=error reason=param-{info}: {line}")
        elif f["route"] == "error":
            problems.append(f"call {i}: valid {sym} call traced as an error: {line}")
        elif backend == "cpu":
            # forwarded to the CPU BLAS; where there is none (the ILP64 symbols in a program
            # without an ILP64 BLAS), GL runs it
            if (f["route"], f["reason"]) not in (("cpu", "backend"), ("gl", "no-cpu-blas")):
                problems.append(f"call {i}: GLBLAS_BACKEND=cpu expects route=cpu reason=backend: {line}")
        elif backend == "gl":
            ok = f["route"] == "gl" or ((f["route"], f["reason"]) == ("cpu", "gl-failed") and warnings)
            if not ok:
                problems.append(f"call {i}: GLBLAS_BACKEND=gl expects route=gl: {line}")
        elif f["route"] not in ("gl", "cpu"):
            problems.append(f"call {i}: valid {sym} call not computed: {line}")
    return problems


def _check_trace(calls, traces, backend, warnings):
    problems = _trace_problems(calls, traces, backend, warnings)
    assert not problems, "trace mismatches:\n" + "\n".join(problems)


@pytest.mark.parametrize("backend", BACKENDS)
def test_client_handlers_and_trace(programs, lib_path, backend):
    proc = _run([programs["client"], "--ilp64"],
                _env(lib_path, GLBLAS_BACKEND=backend, GLBLAS_TRACE=1))
    traces, warnings, other = _split_stderr(proc.stderr)
    calls = _client_calls(proc.stdout)
    problems = []
    if proc.returncode != 0 or "xerbla_client: OK" not in proc.stdout:
        problems.append("xerbla_client reported mismatches:\n" + _describe(proc))
    # The program's handlers answered every error: the library printed no message of its own.
    if other:
        problems.append("unexpected stderr output:\n" + "\n".join(other))
    nerr = sum(1 for _, info in calls if info is not None)
    if nerr < 100:
        problems.append(f"only {nerr} error calls announced (the run stopped early?)")
    trace = _trace_problems(calls, traces, backend, warnings)
    if trace:
        problems.append("trace mismatches:\n" + "\n".join(trace))
    assert not problems, "\n\n".join(problems)


def test_client_quiet_by_default(programs, lib_path):
    """Without GLBLAS_* variables the library prints nothing, errors included (the program's
    handlers take them)."""
    proc = _run([programs["client"], "--ilp64"], _env(lib_path))
    assert proc.returncode == 0, _describe(proc)
    assert "xerbla_client: OK" in proc.stdout, _describe(proc)
    lines = [l for l in proc.stderr.splitlines() if l.strip() and not l.startswith(WARNING_PREFIX)]
    assert not lines, "unexpected stderr output:\n" + proc.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_default_messages(programs, lib_path, backend):
    proc = _run([programs["default"]], _env(lib_path, GLBLAS_BACKEND=backend))
    assert proc.returncode == 0, _describe(proc)
    assert "continued" in proc.stdout.splitlines(), _describe(proc)
    assert "FAIL" not in proc.stdout, _describe(proc)
    traces, warnings, other = _split_stderr(proc.stderr)
    assert not traces, _describe(proc)
    assert other == DEFAULT_MESSAGES, (
        "stderr messages differ from the reference ones\nexpected:\n" + "\n".join(DEFAULT_MESSAGES)
        + "\ngot:\n" + "\n".join(other))


def test_default_messages_with_trace(programs, lib_path):
    """The trace shows the handler's parameter numbers (5 for the row-major bad M, whose
    message prints 4); the messages are the same with tracing on."""
    proc = _run([programs["default"]], _env(lib_path, GLBLAS_BACKEND="auto", GLBLAS_TRACE=1))
    assert proc.returncode == 0, _describe(proc)
    assert "continued" in proc.stdout.splitlines(), _describe(proc)
    traces, warnings, other = _split_stderr(proc.stderr)
    assert other == DEFAULT_MESSAGES, _describe(proc)
    _check_trace(DEFAULT_CALLS, traces, "auto", warnings)
