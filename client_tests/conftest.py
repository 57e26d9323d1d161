"""The real clients' own test suites, run with glblas preloaded and GL answering: LAPACK's
testers, numpy's and scipy's test modules, ScaLAPACK's testers under MPI. Each runs in processes
of its own, on the GL configuration of this process's environment (scripts/drivers.sh), with
``GLBLAS_BACKEND=gl`` and ``GLBLAS_PROFILE=1``; the profile tables they print at exit show what
GL answered."""

import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIB = os.environ.get("GLBLAS_LIBRARY", str(ROOT / "target" / "release" / "libglblas.so"))
sys.path.insert(0, str(ROOT / "python_tests"))

from gl_device import is_glblas_setting, routine_on_gl  # noqa: E402

LAPACK_DIR = "/usr/lib/x86_64-linux-gnu/lapack"  # liblapack3's liblapack.so.3, liblapack-test's
BLAS_DIR = "/usr/lib/x86_64-linux-gnu/blas"  # the reference libblas.so.3 (libblas3)
PROFILE_ROW = re.compile(r"^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+$")


def plain_env(**extra):
    """This process's environment without glblas: no preload, no glblas setting."""
    env = {k: v for k, v in os.environ.items() if not is_glblas_setting(k) and k != "LD_PRELOAD"}
    env.update(extra)
    return env


def preload_env(**extra):
    """The same with glblas preloaded, GL answering every call it can, each GL result checked
    before it is handed back (GLBLAS_VERIFY: a check that failed would print the warning the
    tests look for, and send the call to the CPU BLAS), and the profile on."""
    return plain_env(LD_PRELOAD=LIB, GLBLAS_BACKEND="gl", GLBLAS_VERIFY="1", GLBLAS_PROFILE="1",
                     **extra)


def profile(text):
    """The profile tables in `text` (one per process), added up: {routine: (calls, gl, cpu,
    quick)}."""
    total = {}
    for line in text.splitlines():
        m = PROFILE_ROW.match(line.strip())
        if m:
            counts = tuple(int(g) for g in m.groups()[1:])
            old = total.get(m.group(1), (0, 0, 0, 0))
            total[m.group(1)] = tuple(a + b for a, b in zip(old, counts))
    return total


def standard_input(name):
    """The lines of one of LAPACK's standard tester inputs."""
    path = os.path.join(LAPACK_DIR, name)
    assert os.path.exists(path), f"{path} missing: the test script installs liblapack-test"
    with open(path) as f:
        return f.read().splitlines()


def with_paths(lines, keep):
    """A linear-equation tester input with only the paths (`GE`, `TR`, ...) `keep` accepts."""
    first = next(i for i, line in enumerate(lines) if line[1:3] == "GE")
    return lines[:first] + [line for line in lines[first:] if keep(line[1:3])]


def mpi_env(env):
    """`env` for mpirun, which Open MPI refuses to run as root unless told it may."""
    if os.getuid() == 0:
        return dict(env, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    return env


def assert_answered(counts, routine):
    """`routine` was called, and every call but the quick returns was answered by GL, or by
    the CPU BLAS where the device cannot run it."""
    calls, gl, cpu, quick = counts.get(routine, (0, 0, 0, 0))
    assert calls > quick, (routine, counts)
    assert (gl if routine_on_gl(LIB, routine) else cpu) == calls - quick, (routine, counts)
