"""The kernel tests again, in a fresh process whose engine limits are lowered
(GLBLAS_LIMIT_TARGET_SIDE: render-target side, GLBLAS_LIMIT_WINDOW: texels per operand window),
so that the small and odd shapes above take the tiled / chunked paths (several draws per
sgemm, k split into chunks, vectors split into pieces) that only very large operands take
otherwise.  The limits are read when the library initialises, hence the separate process."""

import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent

CONFIGS = {
    "side5-window300": {"GLBLAS_LIMIT_TARGET_SIDE": "5", "GLBLAS_LIMIT_WINDOW": "300"},
    "side16-window97": {"GLBLAS_LIMIT_TARGET_SIDE": "16", "GLBLAS_LIMIT_WINDOW": "97"},
}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_kernels_with_lowered_limits(config):
    env = dict(os.environ, **CONFIGS[config])
    files = [str(HERE / f) for f in ("test_saxpy.py", "test_sdot.py", "test_sgemm.py",
                                     "test_level1_more.py", "test_sgemv.py")]
    # the sgemm shapes from 64 rows up and the longest vectors are left out only to keep the run
    # time down: they pass through the same tiled code many more times (with 5-texel targets a
    # 64×64 C is already 169 draws per chunk of k; the 18 sgemm cases of 64 rows and up took 39
    # s of this run's 51 on llvmpipe, and the run 197 s on zink)
    large = ("300-211-163", "1000003", "120-80-64", "128-97-33", "67-61-71", "64-64-64")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-k", " and ".join(f"not {c}" for c in large), *files],
        cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"with {CONFIGS[config]}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
