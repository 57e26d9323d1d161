"""scipy BLAS workload for test_preload_scipy.py, run as a child process (usually with
LD_PRELOAD=libglblas.so) by the pip interpreter with pip's scipy and numpy.

    python3 -I scipy_workload.py OUT_DIR

Each case calls scipy (or numpy.linalg) in a way that reaches its bundled OpenBLAS through a
BLAS routine glblas exports, on deterministic inputs (fixed seed). It saves OUT_DIR/results.npz
(``in_<case>_<name>`` inputs and ``out_<case>`` results) and OUT_DIR/meta.json (scipy's and
numpy's files and versions). Before each case it writes ``@@case <name>`` to stderr (flushed),
and ``@@case <end>`` after the last one, so that the caller can attribute glblas's trace lines
(also on fd 2) to the case that made them.

The test imports this file too (for CASES), so it does no work at import time.
"""

import json
import os
import sys

SEED = 20250321
MARKER = "@@case "
END = "<end>"


def laplacian(n):
    """The 1-D Laplacian tridiag(-1, 2, -1) of order n, whose eigenvalues are known:
    2 - 2 cos(j pi / (n + 1)), j = 1..n."""
    import numpy as np
    return 2 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def triangle(rng, n, dtype, lower):
    """A well-conditioned triangle: random entries in [-1, 1), diagonal n + |random| (diagonally
    dominant, so op(T) and its inverse have norms of order n and 1/n)."""
    import numpy as np
    t = rng.uniform(-1, 1, size=(n, n))
    t = np.tril(t) if lower else np.triu(t)
    t[np.diag_indices(n)] = n + np.abs(rng.uniform(-1, 1, size=n))
    return np.asfortranarray(t, dtype=dtype)


def cases():
    """name -> (the routines the case must reach under scipy's names, or numpy's ILP64 ones for
    numpy.linalg; a function of rng returning (inputs, output))."""
    import numpy as np
    import scipy.integrate
    import scipy.linalg
    import scipy.sparse
    import scipy.sparse.linalg
    from scipy.linalg import blas, cython_blas

    def fblas_gemm(dtype, f):
        def run(rng):
            a = rng.uniform(-1, 1, size=(67, 45)).astype(dtype)
            b = rng.uniform(-1, 1, size=(45, 53)).astype(dtype)
            return {"a": a, "b": b}, f(1.0, a, b)
        return run

    def fblas_trsm(dtype, f, lower, trans):
        def run(rng):
            t = triangle(rng, 60, dtype, lower)
            b = np.asfortranarray(rng.uniform(-1, 1, size=(60, 17)), dtype=dtype)
            x = f(1.0, t, b, lower=int(lower), trans_a=int(trans))
            return {"t": t, "b": b}, x
        return run

    def cython_gemm(rng):
        # cython_blas passes lowercase trans characters ('n', 't').
        a = rng.uniform(-1, 1, size=(31, 29))
        b = rng.uniform(-1, 1, size=(29, 37))
        c = np.zeros((31, 37))
        cython_blas._test_dgemm(1.0, a, b, 0.0, c)
        return {"a": a, "b": b}, c

    def cython_dot(rng):
        x, y = rng.uniform(-1, 1, size=(2, 1001))
        return {"x": x, "y": y}, np.array(cython_blas._test_ddot(x, y))

    def cython_idamax(rng):
        x = rng.uniform(-1, 1, size=333)
        return {"x": x}, np.array(cython_blas._test_idamax(x))

    def arpack(rng):
        # ARPACK's Lanczos process: the three largest eigenvalues of a known spectrum.
        a = scipy.sparse.csr_matrix(laplacian(300))
        v0 = rng.uniform(-1, 1, size=300)
        w = scipy.sparse.linalg.eigsh(a, k=3, which="LA", v0=v0, tol=1e-12,
                                      return_eigenvectors=False)
        return {}, np.sort(w)

    def vode(rng):
        # A stiff linear system y' = M y, BDF with the dense Jacobian: VODE's Newton iteration
        # and its LINPACK LU call dcopy, dscal, daxpy (and the right-hand side numpy's dgemv).
        m = -laplacian(8) * 1e4
        y0 = rng.uniform(-1, 1, size=8)
        r = scipy.integrate.ode(lambda t, y: m @ y, lambda t, y: m)
        r.set_integrator("vode", method="bdf", rtol=1e-10, atol=1e-12, nsteps=10000)
        r.set_initial_value(y0, 0.0)
        y = r.integrate(1e-3)
        assert r.successful()
        return {"m": m, "y0": y0}, y

    def superlu(rng):
        # Dense enough that SuperLU's supernodes call dtrsm, dgemm and dgemv.
        n = 200
        a = rng.uniform(-1, 1, size=(n, n)) + n * np.eye(n)
        b = rng.uniform(-1, 1, size=n)
        return {"a": a, "b": b}, scipy.sparse.linalg.splu(scipy.sparse.csc_matrix(a)).solve(b)

    def expm(rng):
        # n = 200: the Pade evaluation's products are dgemm calls (smaller n are not BLAS).
        s = rng.uniform(-1, 1, size=(200, 200))
        s = (s + s.T) / 200.0
        return {"s": s}, scipy.linalg.expm(s)

    def numpy_solve(rng):
        # numpy.linalg copies its operands in and out with dcopy (float32 ones are solved in
        # float64 too, so numpy 2.x never calls scopy).
        a = rng.uniform(-1, 1, size=(40, 40)) + 40 * np.eye(40)
        b = rng.uniform(-1, 1, size=(40, 7))
        return {"a": a, "b": b}, np.linalg.solve(a, b)

    return {
        # scipy.linalg.blas (_fblas): one call each
        "fblas_dgemm": (["dgemm"], fblas_gemm(np.float64, blas.dgemm)),
        "fblas_sgemm": (["sgemm"], fblas_gemm(np.float32, blas.sgemm)),
        "fblas_dtrsm_upper": (["dtrsm"], fblas_trsm(np.float64, blas.dtrsm, False, False)),
        "fblas_dtrsm_lower_t": (["dtrsm"], fblas_trsm(np.float64, blas.dtrsm, True, True)),
        "fblas_strsm_lower": (["strsm"], fblas_trsm(np.float32, blas.strsm, True, False)),
        # cython_blas, which Cython extensions (scikit-learn's among them) call
        "cython_dgemm": (["dgemm"], cython_gemm),
        "cython_ddot": (["ddot"], cython_dot),
        "cython_idamax": (["idamax"], cython_idamax),
        # ARPACK, VODE, SuperLU, expm and numpy.linalg: many calls each
        "arpack_eigsh": (["dcopy", "dnrm2", "dscal", "dgemv", "daxpy"], arpack),
        "vode_bdf": (["dcopy", "dscal", "daxpy"], vode),
        "superlu_solve": (["dgemv", "dtrsm", "dgemm"], superlu),
        "expm": (["dgemm"], expm),
        "numpy_solve": (["dcopy"], numpy_solve),
    }


def main(argv):
    import numpy as np
    import scipy

    out_dir = argv[1]
    rng = np.random.default_rng(SEED)
    saved = {}
    for name, (_, run) in cases().items():
        sys.stderr.write(MARKER + name + "\n")
        sys.stderr.flush()
        inputs, out = run(rng)
        saved["out_" + name] = np.asarray(out)
        saved.update({f"in_{name}_{k}": np.asarray(v) for k, v in inputs.items()})
    sys.stderr.write(MARKER + END + "\n")
    sys.stderr.flush()
    np.savez(os.path.join(out_dir, "results.npz"), **saved)
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump({"scipy_file": scipy.__file__, "scipy_version": scipy.__version__,
                   "numpy_file": np.__file__, "numpy_version": np.__version__}, f)


if __name__ == "__main__":
    main(sys.argv)
