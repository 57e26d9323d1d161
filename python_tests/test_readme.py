"""The README's C and Python examples run as written."""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def blocks(lang):
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```" + lang + r"\n(.*?)```", text, flags=re.S)


def test_python_example(tmp_path):
    (code,) = [b for b in blocks("python") if "import glblas" in b]
    # As after `pip install .`: the package from python/ (on the library conftest names in
    # GLBLAS_LIBRARY), run from elsewhere.
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("[[ 6.  6.]\n [22. 22.]\n [38. 38.]]"), run.stdout


def test_c_example(tmp_path):
    (source,) = [b for b in blocks("c") if "int main" in b]
    (command,) = [b for b in blocks("sh") if b.startswith("cc ")]
    (tmp_path / "example.c").write_text(source)
    # The command is written for the repository root: give it the same view of include/ and target/.
    for name in ("include", "target"):
        os.symlink(ROOT / name, tmp_path / name)
    build = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(tmp_path / "example")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "y[3] = 48, x.y = 360" in run.stdout
