"""ScaLAPACK over MPI (Debian's scalapack-mpi-test on Open MPI): 4 ranks on this machine, each
preloading glblas (``mpirun -x LD_PRELOAD``), each with a GL context of its own. The PBLAS Level
3 tester (dpb3tst) passes every check it passes without glblas, and every rank's dgemm is
answered on GL where the device computes in double. What the run without glblas passes is the
measure (its verdicts, times and residuals left out). The LU tester (xdlu) runs so as the README's
recipe, in test_readme_recipes.py: its 240 solves pass their residual checks, every rank's dgemm
on GL."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import assert_answered, mpi_env, plain_env, preload_env, profile

TESTS = "/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests"
RANKS = 4
# Each program with the input it reads from its working directory.
PROGRAMS = {"dpb3tst": ("PBLAS/dpb3tst", "PBLAS/PDBLAS3TST.dat")}
# Verdict lines, and the rows of the PBLAS testers' summary table (tests, passed, failed,
# skipped).
VERDICT = re.compile(r"PASSED|FAILED|failed|passed|^\s*\|")
# Times, rates and residuals, which differ from run to run.
DECIMAL = re.compile(r"\s+-?\d+\.\d+(E[+-]?\d+)?")


def mpirun(program, env, tmp_path):
    exe, data = PROGRAMS[program]
    shutil.copy(os.path.join(TESTS, data), tmp_path)
    exports = [a for k in ("LD_PRELOAD", "GLBLAS_BACKEND", "GLBLAS_PROFILE") if k in env
               for a in ("-x", k)]
    # Open MPI's, whichever MPI is the default; more ranks than cores: --oversubscribe.
    cmd = ["mpirun.openmpi", "--oversubscribe", "-np", str(RANKS), *exports,
           os.path.join(TESTS, exe)]
    p = subprocess.run(cmd, env=mpi_env(env), cwd=tmp_path, capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, " ".join(cmd) + "\n" + p.stdout[-3000:] + p.stderr[-3000:]
    verdicts = sorted(DECIMAL.sub("", line).strip() for line in p.stdout.splitlines()
                      if VERDICT.search(line))
    return verdicts, p


@pytest.mark.parametrize("program", PROGRAMS)
def test_scalapack_tester_passes_with_every_rank_on_gl(program, tmp_path):
    assert os.path.isdir(TESTS), f"{TESTS} missing: the test script installs scalapack-mpi-test"
    plain, _ = mpirun(program, plain_env(), tmp_path)
    assert any("PASSED" in v or "passed" in v for v in plain), plain
    gl, p = mpirun(program, preload_env(), tmp_path)
    assert gl == plain, "\n".join(["preloaded:", *gl, "", "without glblas:", *plain])
    assert "glblas: warning" not in p.stderr, p.stderr[-3000:]
    assert p.stderr.count("glblas profile:") == RANKS, p.stderr[-3000:]
    assert_answered(profile(p.stderr), "dgemm")
