"""numpy's and scipy's own tests of what they compute with BLAS, run by pytest from the
installed packages (pip's numpy and scipy, whose wheels call their bundled OpenBLAS through the
``scipy_`` names glblas exports) with glblas preloaded: numpy.linalg, the matmul, dot, vdot and
inner tests of numpy's multiarray module, and scipy.linalg. Every test passes (expected failures
and skips as the packages mark them), and GL answers their gemm calls.

Each suite runs the parts that reach BLAS. Left out are the tests that make no kind of BLAS call
the others do not make (`scripts/client_call_kinds.py` runs a suite whole and names what a
deselection gives up) and that took most of the time. With numpy 2.4.6 and scipy 1.17.1 on
llvmpipe, on 2026-11-28:
- numpy.linalg: its stacked cases (`generalized`) make each case's calls again, once per matrix
  of the stack, and test_openblas_threading makes one product 200 times (for OpenBLAS's threads):
  316 of 344 s, no kind of call lost;
- scipy.linalg: its batched variants (TestBatch) and the longest tests of what it computes with
  BLAS many times over (expm's condition number, fractional powers, gejsv), or without BLAS at
  all (gesdd's segfault check, SVD values, QZ workspaces, orth's memory): 179 of 301 s, two
  kinds of call lost, each of which netlib's testers make (a row-major sgemv transposed, and a
  Fortran ddot of one element)."""

import subprocess
import sys

import pytest

from conftest import preload_env, profile

SUITES = {
    "numpy.linalg": ["--pyargs", "numpy.linalg", "-k",
                     "not generalized and not test_openblas_threading"],
    "numpy-multiarray-products": ["--pyargs", "numpy._core.tests.test_multiarray",
                                  "-k", "matmul or dot or vdot or inner"],
    "scipy.linalg": ["--pyargs", "scipy.linalg", "-k",
                     "not TestBatch and not TestExpmConditionNumber"
                     " and not TestFractionalMatrixPower and not test_gejsv_general"
                     " and not test_svd_gesdd_nofegfault and not TestSVDVals"
                     " and not TestOrdQZWorkspaceSize and not test_orth_memory_efficiency"],
}


@pytest.mark.parametrize("suite", SUITES)
def test_suite_passes_on_gl(suite, tmp_path):
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *SUITES[suite]]
    # From an empty directory, so that no conftest of this repository is collected.
    p = subprocess.run(cmd, env=preload_env(), cwd=tmp_path, capture_output=True, text=True,
                       timeout=1200)
    tail = p.stdout[-4000:] + p.stderr[-4000:]
    assert p.returncode == 0, tail
    assert " passed" in p.stdout and " failed" not in p.stdout, tail
    assert "glblas: warning" not in p.stderr, tail
    counts = profile(p.stderr)
    gemm = [counts.get(r, (0, 0, 0, 0)) for r in ("sgemm", "dgemm")]
    assert sum(gl for _, gl, _, _ in gemm) > 0, counts
