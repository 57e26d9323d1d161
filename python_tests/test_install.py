"""`pip install .` from a copy of the repository, into a fresh virtual environment, builds the
library and installs a package that works from any directory: the issue's own check, then
`python -m glblas`. It builds the crate from scratch and needs the network (pip fetches the build
backend and numpy), so it runs only with GLBLAS_TEST_INSTALL=1, which scripts/test.sh sets on one
configuration."""

import os
import pathlib
import shutil
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(os.environ.get("GLBLAS_TEST_INSTALL") != "1",
                    reason="builds the crate from scratch: GLBLAS_TEST_INSTALL=1 runs it")
def test_pip_install_into_a_fresh_venv(tmp_path):
    src = tmp_path / "src"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GLBLAS_LIBRARY", "PYTHON", "VIRTUAL_ENV"))}
    env["CARGO_TARGET_DIR"] = str(tmp_path / "target")
    start = time.monotonic()
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(src)], env=env,
                             capture_output=True, text=True, timeout=1800)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    print(f"pip install took {time.monotonic() - start:.0f} s")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    python = str(venv / "bin" / "python")
    run = subprocess.run(
        [python, "-c", "import glblas, numpy as np; print(glblas.matmul(np.ones((2,3),np.float32), "
                       "np.ones((3,2),np.float32))); print(glblas.library_path())"],
        cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["[[3. 3.]", " [3. 3.]]"], run.stdout
    assert lines[2].startswith(str(venv)) and "/site-packages/glblas/libglblas" in lines[2]
    bench = subprocess.run([python, "-m", "glblas", "-n", "64", "--runs", "1"], cwd=elsewhere,
                           env=env, capture_output=True, text=True, timeout=300)
    assert bench.returncode == 0 and "float32  glblas" in bench.stdout, bench.stdout + bench.stderr
