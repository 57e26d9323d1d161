"""Every command of the README's "Programs users already run" runs as written, with the library
built here for /path/to/libglblas.so, and GL answers what the README says it does: products in
numpy, scipy, R and Octave; LAPACK's calls where the reference LAPACK is loaded, and not where
OpenBLAS's is; every MPI rank's dgemm. LAPACK's tester runs on the part of its standard input
that tests triangular solves (the whole input takes 9 minutes; test_lapack_testers.py runs more
of it)."""

import re
import shutil
import subprocess

import pytest

from conftest import (LAPACK_DIR, LIB, ROOT, assert_answered, mpi_env, plain_env, profile,
                      standard_input, with_paths)

SECTION = "## Programs users already run"


def commands():
    text = (ROOT / "README.md").read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def expected(command):
    """The routines GL must answer, and those that must not reach glblas at all."""
    if command.startswith("LD_PRELOAD") and " python3 " in command:
        return ["dgemm"], []
    if "Rscript" in command:
        if "R_LD_LIBRARY_PATH" in command:
            return ["dgemm", "dtrsm", "dsyrk"], []
        return ["dgemm"], ["dtrsm"]
    if "octave-cli" in command:
        return ["dgemm", "dtrsm"], []
    if "mpirun" in command:
        return ["dgemm"], []
    if "xlintstd" in command:
        return [], []
    raise AssertionError(f"a README command this test does not know: {command}")


def triangular_input(tmp_path):
    """dtest.in with only its DTR line among the paths."""
    path = tmp_path / "dtr.in"
    path.write_text("\n".join(with_paths(standard_input("dtest.in"), lambda p: p == "TR")) + "\n")
    return path


def test_the_section_has_its_recipes():
    programs = [expected(c) for c in commands()]
    assert len(programs) == 6, commands()


@pytest.mark.parametrize("command", commands())
def test_recipe(command, tmp_path):
    gl_routines, absent = expected(command)
    run = command.replace("/path/to/libglblas.so", LIB)
    if "xlintstd" in command:
        run = run.replace(f"{LAPACK_DIR}/dtest.in", str(triangular_input(tmp_path)))
    env = mpi_env(plain_env()) if "mpirun" in command else plain_env()
    for program in ("python3", "Rscript", "octave-cli", "mpirun"):
        if f" {program} " in f" {command} ":
            assert shutil.which(program), f"{program} missing: the test script installs it"
    p = subprocess.run(["bash", "-c", run], env=env, cwd=tmp_path, capture_output=True,
                       text=True, timeout=900)
    out = p.stdout[-3000:] + p.stderr[-3000:]
    assert p.returncode == 0, out
    assert "glblas: warning" not in p.stderr, out
    if "xlintstd" in command:
        assert "All tests for DTR routines passed the threshold" in p.stdout, out
        assert "fail" not in p.stdout.lower(), out
        return
    counts = profile(p.stderr)
    for routine in gl_routines:
        assert_answered(counts, routine)
    for routine in absent:
        assert routine not in counts, (routine, counts)
    if "mpirun" in command:
        assert p.stderr.count("glblas profile:") == 4, out
        assert "240 tests completed and passed residual checks" in p.stdout, out
