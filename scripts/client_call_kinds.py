"""What a selection of a real client's test suite gives up: the evidence behind the selections
of client_tests/test_python_suites.py.

    python3 scripts/client_call_kinds.py numpy.linalg "not generalized"

runs the suite (`pytest --pyargs SUITE`) once, whole, with the library built here preloaded, GL
answering every call and the trace on, and prints the share of its time the tests the keyword
expression deselects took, and every kind of BLAS call that only they made. A kind: the exported
symbol, its operation, side, triangle, diagonal and layout, the sign of each increment, alpha
and beta where they are 0, 1 or -1, and each dimension where it is 0 or 1. Run it on the
configuration the suites run on (llvmpipe), with a warm shader cache, or compiles count as time.

The same file is the pytest plugin of that run: it writes each test's id and time into the
trace file, between the trace lines of its calls."""

import collections
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIB = os.environ.get("GLBLAS_LIBRARY", str(ROOT / "target" / "release" / "libglblas.so"))
TEST, TIME = "### test ", "### time "
# The trace's arguments that make a kind, as they are, and those that count by sign or value.
AS_THEY_ARE = ("layout", "transa", "transb", "trans", "side", "uplo", "diag")
SPECIAL_SCALARS = ("0", "1", "-1")

_started = {}


def pytest_runtest_setup(item):
    with open(os.environ["GLBLAS_TRACE"], "a") as f:
        f.write(f"{TEST}{item.nodeid}\n")
    _started[item.nodeid] = time.monotonic()


def pytest_runtest_teardown(item):
    with open(os.environ["GLBLAS_TRACE"], "a") as f:
        f.write(f"{TIME}{time.monotonic() - _started.pop(item.nodeid, time.monotonic()):.3f} "
                f"{item.nodeid}\n")


def kind(line):
    """The kind of call a trace line records."""
    symbol, *args = line.split()[1:]
    out = [symbol]
    for arg in args:
        name, _, value = arg.partition("=")
        if name in AS_THEY_ARE:
            out.append(arg)
        elif name.startswith("inc"):
            out.append(f"{name}{'<0' if value.startswith('-') else '=0' if value == '0' else '>0'}")
        elif name in ("alpha", "beta"):
            value = value.removesuffix("+0i")
            out.append(f"{name}={value if value in SPECIAL_SCALARS else 'x'}")
        elif name in ("m", "n", "k"):
            out.append(f"{name}={value if value in ('0', '1') else 'n'}")
    return " ".join(out)


def read(trace):
    """{kind: ids of the tests that made it}, {test id: seconds}."""
    makers, seconds, test = collections.defaultdict(set), {}, None
    for line in trace.read_text(errors="replace").splitlines():
        if line.startswith(TEST):
            test = line[len(TEST):]
        elif line.startswith(TIME):
            spent, test_id = line[len(TIME):].split(" ", 1)
            seconds[test_id] = float(spent)
        elif line.startswith("glblas-trace:") and test is not None:
            makers[kind(line)].add(test)
    return makers, seconds


def deselected(suite, expression, directory):
    """The ids of the suite's tests that `-k expression` deselects."""
    def ids(*k):
        p = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p",
                            "no:cacheprovider", "--pyargs", suite, *k], cwd=directory,
                           capture_output=True, text=True)
        return {line for line in p.stdout.splitlines() if "::" in line}
    return ids() - ids("-k", expression)


def main(suite, expression):
    with tempfile.TemporaryDirectory() as directory:
        trace = pathlib.Path(directory) / "trace"
        env = dict(os.environ, LD_PRELOAD=LIB, GLBLAS_BACKEND="gl", GLBLAS_TRACE=str(trace),
                   PYTHONPATH=str(ROOT / "scripts"))
        # From an empty directory, so that no conftest of this repository is collected.
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                        "client_call_kinds", "--pyargs", suite], env=env, cwd=directory)
        makers, seconds = read(trace)
        left_out = deselected(suite, expression, directory)
    lost = sorted(k for k, tests in makers.items() if tests <= left_out)
    spent = sum(s for t, s in seconds.items() if t in left_out)
    print(f"{suite}: {len(left_out)} of {len(seconds)} tests deselected by -k {expression!r}, "
          f"{spent:.0f} s of {sum(seconds.values()):.0f} s; {len(makers)} kinds of call, "
          f"{len(lost)} made only by them:")
    for k in lost:
        print(f"  {k}  ({', '.join(sorted(makers[k])[:2])})")


if __name__ == "__main__":
    main(*sys.argv[1:])
