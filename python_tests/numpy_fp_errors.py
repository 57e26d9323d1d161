"""numpy's floating-point error reports after BLAS calls, for test_preload_fp_errors.py: run as a
child process (with or without LD_PRELOAD=libglblas.so) by the pip interpreter and Debian's
/usr/bin/python3, so it must run under numpy 1.24 and 2.x.

    python3 -I numpy_fp_errors.py

Prints one JSON object: for each case, what numpy reported ("none", "raise: <message>" under
np.errstate(all="raise"), or "warn: <messages>" under the default "warn"). Before each case it
writes ``@@case <name>`` to stderr (flushed), so that the caller can attribute the library's
trace lines (on stderr too) to the case that made them.
"""

import json
import sys
import warnings

import numpy as np

MARKER = "@@case "


def cases():
    """name -> (function, whether numpy calls BLAS for it). Finite data comes first: the
    process's first BLAS calls (context creation, shader compiles on GL) must report nothing."""
    out = {}
    for t in (np.float64, np.float32):
        name = np.dtype(t).name
        big = 1e200 if t == np.float64 else 1e20
        ones, infs = np.array([1, 1], dtype=t), np.array([-np.inf, np.inf], dtype=t)
        rng = np.random.default_rng(7)
        a, b = (rng.uniform(-1, 1, size=(16, 16)).astype(t) for _ in range(2))
        out.update({
            f"{name}_finite_matmul": (lambda a=a, b=b: a @ b, True),
            f"{name}_finite_dot": (lambda a=a: np.dot(a[0], a[1]), True),
            # numpy's test_dot_errstate, both of its paths, and the clearing between them
            f"{name}_dot_inf": (lambda x=ones, y=infs: np.dot(x, y), True),
            f"{name}_dot_clean_after": (lambda x=ones: np.dot(x, x), True),
            f"{name}_dot_inf_3d": (lambda x=ones, y=infs: np.dot(x[np.newaxis, np.newaxis, ...],
                                                                  y[np.newaxis, ..., np.newaxis]),
                                   False),
            f"{name}_matmul_inf": (lambda: np.array([[1, 1], [1, 1]], dtype=t)
                                   @ np.array([[-np.inf, 0], [np.inf, 0]], dtype=t), True),
            f"{name}_dot_overflow": (lambda v=np.full(2, big, dtype=t): np.dot(v, v), True),
            f"{name}_matmul_nan_carried": (lambda: np.array([[np.nan, 1], [1, 1]], dtype=t)
                                           @ np.ones((2, 2), dtype=t), True),
        })
    return out


def report(fn):
    with np.errstate(all="raise"):
        try:
            fn()
        except FloatingPointError as e:
            raised = f"raise: {e}"
        else:
            raised = "none"
    with np.errstate(all="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    warned = sorted({str(w.message) for w in caught})
    if warned and raised == "none":
        return "inconsistent: warned " + "; ".join(warned) + " but raised nothing"
    return raised


def main():
    results = {}
    for name, (fn, _) in cases().items():
        sys.stderr.write(f"{MARKER}{name}\n")
        sys.stderr.flush()
        results[name] = report(fn)
    sys.stderr.write(f"{MARKER}<end>\n")
    sys.stderr.flush()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
