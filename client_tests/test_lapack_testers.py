"""LAPACK's own testers (Debian's liblapack-test, the reference LAPACK 3.11 on the reference BLAS)
with glblas preloaded: every test ratio under the tester's threshold, the same tests run and
passed as without glblas, and LAPACK's Level 3 calls answered on GL.

- The linear-equation testers, single and double (xlintsts, xlintstd), on their standard inputs
  with two of the five block sizes (NB = 3 with NX = 0: blocked code on the smallest blocks;
  NB = 20 with NX = 1) and the paths whose routines call Level 3 BLAS in kinds of call the
  others do not make (all but the tridiagonal, packed, triangular band and general band ones),
  which keeps their matrix types, sizes (up to 50) and numbers of right-hand sides; the full
  inputs take 8-9 minutes each on llvmpipe.
- The eigenvalue tester in double (xeigtstd) on the symmetric (sep.in) and nonsymmetric (nep.in)
  inputs as they are, and on the SVD input (svd.in) with the sizes up to 16 and two of its five
  parameter sets (the whole input makes millions of Level 1 and 2 calls: past 10 minutes)."""

import os
import re
import subprocess

import pytest

from conftest import (BLAS_DIR, LAPACK_DIR, assert_answered, plain_env, preload_env, profile,
                      standard_input, with_paths)

SUMMARY = re.compile(r"passed|failed|fail ", re.IGNORECASE)


# The linear-equation paths left out. Those whose routines call no Level 3 BLAS (tridiagonal,
# packed, and triangular band): their hundreds of thousands of Level 1 and 2 calls of tiny vectors
# would take most of the time and test nothing the others do not. And the general band one (GB):
# its LU calls gemm and trsm on the band's small blocks, 38% of xlintstd's time and 32% of
# xlintsts's on llvmpipe (2026-11-28), in no kind of call (routine, operations, sides,
# triangles, signs of increments, scalars 0, 1 and -1, dimensions 0 and 1) that the other paths
# do not make but an axpy of no elements, a quick return.
LEFT_OUT = ("GT", "PT", "PP", "SP", "TP", "TB", "GB")


def linear_input(precision):
    lines = standard_input(f"{precision}test.in")
    assert "Number of values of NB" in lines[7] and "Values of NX" in lines[9], lines[7:10]
    lines[7:10] = ["2   Number of values of NB", "3 20   Values of NB", "0 1   Values of NX"]
    return with_paths(lines, lambda path: path not in LEFT_OUT)


def svd_input():
    lines = standard_input("svd.in")
    ms, ns = lines[2].split(), lines[3].split()
    count = int(lines[1].split()[0])
    keep = [i for i in range(count) if int(ms[i]) <= 16 and int(ns[i]) <= 16]
    lines[1] = f"{len(keep)}   Number of values of M"
    lines[2] = " ".join(ms[i] for i in keep) + "   Values of M"
    lines[3] = " ".join(ns[i] for i in keep) + "   Values of N"
    # The parameter sets (NB, NBMIN, NX, NRHS) are columns of lines 5-8: keep the second and
    # the fifth.
    assert "Number of parameter values" in lines[4], lines[4]
    lines[4] = "2   Number of parameter values"
    for i in range(5, 9):
        values = lines[i].split()
        lines[i] = f"{values[1]} {values[4]}"
    return lines


CASES = {
    "xlintsts": lambda: linear_input("s"),
    "xlintstd": lambda: linear_input("d"),
    "xeigtstd-sep": lambda: standard_input("sep.in"),
    "xeigtstd-nep": lambda: standard_input("nep.in"),
    "xeigtstd-svd": svd_input,
}


def run(tester, lines, env, tmp_path):
    """The tester's summary lines (what passed and failed, with counts), and its stderr."""
    env = dict(env, LD_LIBRARY_PATH=f"{LAPACK_DIR}:{BLAS_DIR}")
    p = subprocess.run([os.path.join(LAPACK_DIR, tester)], input="\n".join(lines) + "\n",
                       env=env, cwd=tmp_path, capture_output=True, text=True, timeout=1500)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return sorted(line.strip() for line in p.stdout.splitlines() if SUMMARY.search(line)), p


@pytest.mark.parametrize("case", CASES)
def test_lapack_tester_passes_on_gl(case, tmp_path):
    tester = case.split("-")[0]
    lines = CASES[case]()
    plain, _ = run(tester, lines, plain_env(), tmp_path)
    assert plain and not any("fail" in s.lower() for s in plain), plain
    gl, p = run(tester, lines, preload_env(), tmp_path)
    assert "glblas: warning" not in p.stderr, p.stderr[-3000:]
    assert gl == plain, "\n".join(["preloaded:", *gl, "", "without glblas:", *plain])
    counts = profile(p.stderr)
    precision = "s" if tester == "xlintsts" else "d"
    level3 = {"xlintsts": ["gemm", "trsm"], "xlintstd": ["gemm", "trsm", "syrk", "trmm"]}
    level3 = level3.get(tester, ["gemm"])
    for routine in (precision + r for r in level3):
        assert_answered(counts, routine)
