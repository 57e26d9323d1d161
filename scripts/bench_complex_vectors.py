"""Complex gemv, vdot (dotc) and axpy beside their real twins through the Python package, on
device-resident operands: the median of 15 timed calls after 3 warm-up calls, in GFLOP/s as
LAPACK counts (a complex multiply-add is 8 flops) and in GB/s of the operands read and written
once. Each result is checked against a long-double numpy evaluation first: no rate is printed
for a wrong one. Run from the repository root after `cargo build --release`:
GLBLAS_LIBRARY=target/release/libglblas.so python3 scripts/bench_complex_vectors.py"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
import glblas  # noqa: E402

rng = np.random.default_rng(1)


def arr(shape, dtype):
    x = rng.uniform(-1, 1, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dtype)


def timed(f):
    for _ in range(3):
        f()
    glblas.sync()
    ts = []
    for _ in range(15):
        t = time.perf_counter()
        f()
        glblas.sync()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts))


n = 2048
for dtype in (np.float32, np.complex64, np.float64, np.complex128):
    c = np.dtype(dtype).kind == "c"
    a, x = arr((n, n), dtype), arr(n, dtype)
    A, X, Y = glblas.to_device(a), glblas.to_device(x), glblas.empty(n, dtype)
    glblas.gemv(A, X, Y)
    ref = a.astype(np.clongdouble) @ x.astype(np.clongdouble)
    bound = 2 * (n + 6) * np.finfo(a.real.dtype).eps * (np.abs(a) @ np.abs(x))
    assert (np.abs(Y.get() - ref) <= bound).all(), dtype
    t = timed(lambda: glblas.gemv(A, X, Y))
    flops = (8 if c else 2) * n * n
    print(f"gemv {np.dtype(dtype).name:10s} n={n}: {t*1e3:7.2f} ms {flops/t/1e9:6.2f} GFLOP/s "
          f"{a.nbytes/t/1e9:6.2f} GB/s")
m = 1 << 22
for dtype in (np.float32, np.complex64, np.float64, np.complex128):
    c = np.dtype(dtype).kind == "c"
    x, y = arr(m, dtype), arr(m, dtype)
    X, Y = glblas.to_device(x), glblas.to_device(y)
    got = glblas.vdot(X, Y)
    ref = np.vdot(x.astype(np.clongdouble), y.astype(np.clongdouble))
    assert abs(got - ref) <= 4 * m * np.finfo(x.real.dtype).eps * float(np.abs(x) @ np.abs(y))
    t = timed(lambda: glblas.vdot(X, Y))
    print(f"vdot {np.dtype(dtype).name:10s} n=2^22: {t*1e3:7.2f} ms {2*x.nbytes/t/1e9:6.2f} GB/s")
    want = y.astype(np.clongdouble) + 0.5 * x.astype(np.clongdouble)
    glblas.axpy(X, Y, alpha=0.5)
    assert (np.abs(Y.get() - want) <= 4 * np.finfo(x.real.dtype).eps * np.abs(want)).all()
    t = timed(lambda: glblas.axpy(X, Y, alpha=0.5))
    print(f"axpy {np.dtype(dtype).name:10s} n=2^22: {t*1e3:7.2f} ms {3*x.nbytes/t/1e9:6.2f} GB/s")
