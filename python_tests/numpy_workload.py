"""numpy BLAS workload for test_preload_numpy.py, run as a child process (usually with
LD_PRELOAD=libglblas.so) by both the pip interpreter and Debian's /usr/bin/python3.

    python3 -I numpy_workload.py OUT_DIR [--expect-numpy-dir DIR] [--expect-version V]

It builds deterministic inputs (fixed seed), evaluates every case of CASES, and saves
OUT_DIR/results.npz (inputs ``in_<name>`` and results ``out_<case>``) and OUT_DIR/meta.json
(numpy.__file__, numpy.__version__, sys.executable).  Before each case it writes a marker line
``@@case <name>`` to stderr (flushed), and ``@@case <end>`` after the last one, so the caller can
attribute the library's trace lines (also on stderr, fd 2) to the numpy operation that made them.

This file is imported by the test too (for CASES and make_inputs), so it must run under both
numpy 1.24 and numpy 2.x and must not do any work at import time.
"""

import json
import os
import sys

SEED = 20240607
MARKER = "@@case "
END = "<end>"


def make_inputs(np):
    """All operands, generated from one fixed seed.  Real values in [-1, 1) so cancellation is
    present and the elementwise |A|@|B| bound is meaningful."""
    rng = np.random.default_rng(SEED)

    def r32(*shape):
        return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)

    def c(dtype, *shape):
        return (rng.uniform(-1.0, 1.0, size=shape) + 1j * rng.uniform(-1.0, 1.0, size=shape)).astype(dtype)

    X = {
        # float32
        "a": r32(67, 45), "b": r32(45, 53),
        "at": r32(45, 67),           # at.T is 67x45 (a transposed view, C-contiguous base)
        "bt": r32(53, 45),           # bt.T is 45x53
        "big_a": r32(140, 201), "big_b": r32(203, 139),
        "v45": r32(45), "v67": r32(67), "v90": r32(90),
        "x": r32(1001), "y": r32(1001),
        "ba": r32(3, 17, 23), "bb": r32(3, 23, 19),
        # float64 / complex
        "da": rng.uniform(-1, 1, size=(67, 45)), "db": rng.uniform(-1, 1, size=(45, 53)),
        "dv": rng.uniform(-1, 1, size=45), "dx": rng.uniform(-1, 1, size=1001),
        "dy": rng.uniform(-1, 1, size=1001),
        "ca": c(np.complex64, 67, 45), "cb": c(np.complex64, 45, 53), "cv": c(np.complex64, 45),
        "cx": c(np.complex64, 1001), "cy": c(np.complex64, 1001),
        "za": c(np.complex128, 67, 45), "zb": c(np.complex128, 45, 53), "zv": c(np.complex128, 45),
        "zx": c(np.complex128, 1001), "zy": c(np.complex128, 1001),
        # float64 again (drawn last, so that the operands above keep their values)
        "dv67": rng.uniform(-1, 1, size=67), "dv90": rng.uniform(-1, 1, size=90),
    }
    return X


def _cases(np):
    F = np.asfortranarray
    # name -> (kind, function of the input dict).  kind "f32" ("f64", "c64", "c128"): a result
    # of that type that may be computed by glblas (checked against a bound in its precision).
    # Every function is a sum of products of its operands
    # (bilinear), so the caller evaluates it on more precise copies (float64, long double) for
    # the exact value and on |operands| for the bound's |A|@|B|.
    return {
        "mm_c": ("f32", lambda X: X["a"] @ X["b"]),
        "mm_at_b": ("f32", lambda X: X["at"].T @ X["b"]),
        "mm_a_bt": ("f32", lambda X: X["a"] @ X["bt"].T),
        "mm_at_bt": ("f32", lambda X: X["at"].T @ X["bt"].T),
        "mm_f_f": ("f32", lambda X: F(X["a"]) @ F(X["b"])),
        "mm_f_c": ("f32", lambda X: F(X["a"]) @ X["b"]),
        "mm_sub_ld": ("f32", lambda X: X["big_a"][3:70, 5:50] @ X["big_b"][7:52, 2:55]),
        "mm_strided": ("f32", lambda X: X["big_a"][::2, 1::3] @ X["big_b"][1::3, ::2][:67]),
        "dot_2d_strided": ("f32", lambda X: np.dot(X["big_a"][::2, 1::3], X["big_b"][1::3, ::2][:67])),
        "dot_2d": ("f32", lambda X: np.dot(X["a"], X["b"])),
        "mv": ("f32", lambda X: X["a"] @ X["v45"]),
        "vm": ("f32", lambda X: X["v67"] @ X["a"]),
        "mv_t": ("f32", lambda X: X["at"].T @ X["v45"]),
        "mv_strided_x": ("f32", lambda X: X["a"] @ X["v90"][::2]),
        "dot_mv": ("f32", lambda X: np.dot(X["a"], X["v45"])),
        "dot_1d": ("f32", lambda X: np.dot(X["x"], X["y"])),
        "vdot_1d": ("f32", lambda X: np.vdot(X["x"], X["y"])),
        "inner_1d": ("f32", lambda X: np.inner(X["x"], X["y"])),
        "dot_1d_strided": ("f32", lambda X: np.dot(X["x"][::3], X["y"][1::3])),
        "matmul_1d": ("f32", lambda X: X["x"] @ X["y"]),
        "mm_batched": ("f32", lambda X: X["ba"] @ X["bb"]),
        "syrk_a_at": ("f32", lambda X: X["a"] @ X["a"].T),  # numpy calls ssyrk
        "d_mm": ("f64", lambda X: X["da"] @ X["db"]),
        "d_mm_t": ("f64", lambda X: X["db"].T @ X["da"].T),
        "d_mv": ("f64", lambda X: X["da"] @ X["dv"]),
        "d_vm": ("f64", lambda X: X["dv67"] @ X["da"]),
        "d_mv_t": ("f64", lambda X: X["db"].T @ X["dv"]),
        "d_mv_strided_x": ("f64", lambda X: X["da"] @ X["dv90"][::2]),
        "d_dot": ("f64", lambda X: np.dot(X["dx"], X["dy"])),
        "d_dot_strided": ("f64", lambda X: np.dot(X["dx"][::3], X["dy"][1::3])),
        "d_syrk": ("f64", lambda X: X["da"] @ X["da"].T),
        "c_mm": ("c64", lambda X: X["ca"] @ X["cb"]),
        "c_mm_t": ("c64", lambda X: X["cb"].T @ X["ca"].T),
        "c_mm_h": ("c64", lambda X: X["cb"].conj().T @ X["ca"].conj().T),
        "c_mm_f": ("c64", lambda X: F(X["ca"]) @ X["cb"]),
        "c_mv": ("c64", lambda X: X["ca"] @ X["cv"]),
        "c_mv_t": ("c64", lambda X: X["cb"].T @ X["cv"]),
        "c_mv_h": ("c64", lambda X: X["cb"].conj().T @ X["cv"]),
        "c_vm": ("c64", lambda X: X["cv"] @ X["cb"]),
        "c_mv_strided_x": ("c64", lambda X: X["ca"] @ X["cx"][:90:2]),
        "c_dot": ("c64", lambda X: np.dot(X["cx"], X["cy"])),
        "c_vdot": ("c64", lambda X: np.vdot(X["cx"], X["cy"])),
        "z_mm": ("c128", lambda X: X["za"] @ X["zb"]),
        "z_mm_h": ("c128", lambda X: X["zb"].conj().T @ X["za"].conj().T),
        "z_mv": ("c128", lambda X: X["za"] @ X["zv"]),
        "z_mv_h": ("c128", lambda X: X["zb"].conj().T @ X["zv"]),
        "z_dot": ("c128", lambda X: np.dot(X["zx"], X["zy"])),
        "z_vdot": ("c128", lambda X: np.vdot(X["zx"], X["zy"])),
    }


def cases(np):
    return _cases(np)


def main(argv):
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("out_dir")
    p.add_argument("--expect-numpy-dir")
    p.add_argument("--expect-version")
    args = p.parse_args(argv)

    import numpy as np

    meta = {"numpy_file": os.path.realpath(np.__file__), "numpy_version": np.__version__,
            "executable": sys.executable}
    if args.expect_numpy_dir:
        want = os.path.realpath(args.expect_numpy_dir) + os.sep
        assert meta["numpy_file"].startswith(want), f"imported {meta['numpy_file']}, expected numpy under {want}"
    if args.expect_version:
        assert np.__version__ == args.expect_version, f"numpy {np.__version__}, expected {args.expect_version}"

    X = make_inputs(np)
    saved = {"in_" + k: v for k, v in X.items()}
    for name, (_kind, fn) in cases(np).items():
        sys.stderr.write(MARKER + name + "\n")
        sys.stderr.flush()
        saved["out_" + name] = np.asarray(fn(X))
    sys.stderr.write(MARKER + END + "\n")
    sys.stderr.flush()

    np.savez(os.path.join(args.out_dir, "results.npz"), **saved)
    with open(os.path.join(args.out_dir, "meta.json"), "w") as f:
        json.dump(meta, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
