"""numpy's and scipy's own tests of what they compute with BLAS, run by pytest from the
installed packages (pip's numpy and scipy, whose wheels call their bundled OpenBLAS through the
``scipy_`` names glblas exports) with glblas preloaded: numpy.linalg, the matmul, dot, vdot and
inner tests of numpy's multiarray module, and scipy.linalg. Every test passes (expected failures
and skips as the packages mark them), and GL answers their gemm calls."""

import subprocess
import sys

import pytest

from conftest import preload_env, profile

SUITES = {
    "numpy.linalg": ["--pyargs", "numpy.linalg"],
    "numpy-multiarray-products": ["--pyargs", "numpy._core.tests.test_multiarray",
                                  "-k", "matmul or dot or vdot or inner"],
    "scipy.linalg": ["--pyargs", "scipy.linalg"],
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
