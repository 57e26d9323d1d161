"""Running a workload script (numpy_workload.py, scipy_workload.py) as a child process: its
environment, and its results once it has exited."""

import json
import os

import numpy as np

from gl_device import driver_env


def child_env(extra):
    """A fresh environment: nothing GLBLAS_*, LD_*, PYTHON* or EGL-related leaks in from ours,
    but the GL configuration under test (gl_device.DRIVER_VARS)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp"),
           "LC_ALL": "C.UTF-8", **driver_env()}
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "TMPDIR"):
        if k in os.environ:
            env[k] = os.environ[k]
    env.update(extra)
    return env


def load_results(what, proc, out_dir):
    """(arrays of results.npz, meta.json) of a workload run that must have succeeded."""
    assert proc.returncode == 0, (f"{what}: workload exited with {proc.returncode}\n"
                                  f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-6000:]}")
    with np.load(os.path.join(out_dir, "results.npz")) as z:
        data = {k: z[k] for k in z.files}
    with open(os.path.join(out_dir, "meta.json")) as f:
        return data, json.load(f)
