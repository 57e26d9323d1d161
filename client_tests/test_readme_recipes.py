"""Every command of the README's "Programs users already run" and of docs/substitution.md's
"Recipes" runs as written (each once: the doc explains the README's one-liners again), with the
library built here for /path/to/libglblas.so, and GL answers what they say it does: products in
numpy, scipy, R, Octave and a Fortran program; LAPACK's calls where the reference LAPACK is
loaded, and not where OpenBLAS's is; every MPI rank's dgemm. LAPACK's tester runs on the part of
its standard input that tests triangular solves (the whole input takes 9 minutes;
test_lapack_testers.py runs more of it)."""

import re
import shutil
import subprocess

import pytest

from conftest import (LAPACK_DIR, LIB, ROOT, assert_answered, mpi_env, plain_env, profile,
                      standard_input, with_paths)

# Where the recipes are: (file, section) and how many commands each shows.
SECTIONS = {("README.md", "## Programs users already run"): 5,
            ("docs/substitution.md", "## Recipes"): 7}


def section_commands(path, heading):
    """The commands of the ```sh blocks in the section `heading` of `path`."""
    text = (ROOT / path).read_text()
    section = text[text.index(heading + "\n"):]
    end = section.find("\n## ", len(heading))
    section = section if end < 0 else section[:end]
    blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def commands():
    """Every recipe, once, in the order the README and then the doc show them."""
    out = []
    for path, heading in SECTIONS:
        out += [c for c in section_commands(path, heading) if c not in out]
    return out


def name(command):
    """A recipe's test id: its program."""
    for program in ("python3", "octave-cli", "gfortran", "xlintstd", "xdlu"):
        if f" {program} " in f" {command} " or f"/{program} " in f"{command} ":
            return program
    if "Rscript" in command:
        return "Rscript-reference-lapack" if "R_LD_LIBRARY_PATH" in command else "Rscript"
    return command


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
    if "gfortran" in command:
        return ["dgemm"], []
    raise AssertionError(f"a README command this test does not know: {command}")


def triangular_input(tmp_path):
    """dtest.in with only its DTR line among the paths."""
    path = tmp_path / "dtr.in"
    path.write_text("\n".join(with_paths(standard_input("dtest.in"), lambda p: p == "TR")) + "\n")
    return path


def test_the_sections_have_their_recipes():
    for (path, heading), count in SECTIONS.items():
        found = section_commands(path, heading)
        assert len(found) == count, (path, found)
        for command in found:
            expected(command)
    # The doc explains every recipe the README shows.
    readme, doc = (section_commands(path, heading) for path, heading in SECTIONS)
    assert set(readme) <= set(doc), set(readme) - set(doc)
    assert len(commands()) == 7, commands()


@pytest.mark.parametrize("command", commands(), ids=name)
def test_recipe(command, tmp_path):
    gl_routines, absent = expected(command)
    run = command.replace("/path/to/libglblas.so", LIB)
    if "xlintstd" in command:
        run = run.replace(f"{LAPACK_DIR}/dtest.in", str(triangular_input(tmp_path)))
    env = mpi_env(plain_env()) if "mpirun" in command else plain_env()
    for program in ("python3", "Rscript", "octave-cli", "mpirun", "gfortran"):
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
    if "gfortran" in command:
        # The largest difference from gfortran's own matmul: the product's rounding, no more.
        assert float(p.stdout.split()[-1].replace("D", "E")) < 1e-10, out
