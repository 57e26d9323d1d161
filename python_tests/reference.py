"""Double-precision references and fp32 error bounds for the glblas tests.

All bounds use the unit roundoff eps = 2^-24 of binary32 and the standard a-priori model
fl(a op b) = (a op b)(1 + d), |d| <= eps.  A value that went through at most j roundings is the
exact value of its terms times factors (1 + theta_j), |theta_j| <= gamma_j = j*eps/(1 - j*eps);
we use C_SAFETY * j * eps with a small constant C_SAFETY = 2 that covers gamma_j's denominator and
an implementation that rounds once more (e.g. a separate multiply where a fused one was assumed).
The bounds are independent of the summation order (sequential, blocked or tree reduction).
The inputs are float32 values, so their float64 copies are exact, and float64 products of two of
them are exact; the float64 reference's own error (~1e-16 relative) is negligible next to these.
"""

import numpy as np

from helpers import EPS

C_SAFETY = 2.0


def f32(v):
    """The float32 value the library actually receives for a Python float argument."""
    return float(np.float32(v))


def assert_close(got, ref, bound, what=""):
    # In long double, so that a float64 result is compared without a rounding of its own.
    got = np.asarray(got, dtype=np.longdouble)
    ref = np.asarray(ref, dtype=np.longdouble)
    bound = np.asarray(bound, dtype=np.longdouble)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    assert np.all(np.isfinite(got)), f"{what}: non-finite result at {np.argwhere(~np.isfinite(got))[:5].tolist()}"
    err = np.abs(got - ref)
    bad = err > bound
    if np.any(bad):
        idx = np.argwhere(bad)
        first = tuple(idx[0])
        worst = np.unravel_index(np.argmax(err - bound), err.shape) if err.ndim else ()
        raise AssertionError(
            f"{what}: {int(bad.sum())}/{bad.size} elements outside the error bound; "
            f"first at {first}: got {got[first]!r} ref {ref[first]!r} err {err[first]:.3g} "
            f"bound {bound[first]:.3g}; worst at {tuple(int(i) for i in worst)}: got {got[worst]!r} "
            f"ref {ref[worst]!r} err {err[worst]:.3g} bound {bound[worst]:.3g}")


# ---- saxpy -------------------------------------------------------------------------------------

def saxpy_ref(alpha, x, y):
    """Non-overlapping y = alpha*x + y.  alpha*x_i then + y_i: 2 roundings (1 with an fma), so
    |err_i| <= C_SAFETY * 2 * eps * (|alpha*x_i| + |y_i|)."""
    a = f32(alpha)
    x64 = np.asarray(x, dtype=np.float64)
    y64 = np.asarray(y, dtype=np.float64)
    ref = y64 + a * x64
    bound = C_SAFETY * 2 * EPS * (np.abs(a * x64) + np.abs(y64))
    return ref, bound


def blas_index(i, n, off, inc):
    """Flat index of vector element i (reference BLAS: negative inc starts at the far end)."""
    if inc >= 0:
        return off + i * inc
    return off + (n - 1 - i) * (-inc)


def saxpy_ref_flat(buf, n, alpha, xoff, incx, yoff, incy):
    """Reference saxpy on one flat buffer holding both x and y (possibly overlapping, zero or
    negative increments), simulating the reference BLAS loop i = 0..n-1:
        y[iy(i)] += alpha * x[ix(i)].
    Alongside the float64 values it runs the same recurrence on absolute values (``mag``) and
    counts the roundings each value went through (``cnt``: 2 per step plus the larger count of
    the two operands), giving |err| <= C_SAFETY * cnt * eps * mag elementwise.  For incy == 0
    (all terms accumulated into y[0]) this counts 2n roundings, more than any summation order
    needs (n additions + 1 multiply per term), so a parallel reduction is covered too.
    Returns (ref, bound) as float64 arrays shaped like buf."""
    a = f32(alpha)
    val = np.asarray(buf, dtype=np.float64).copy()
    mag = np.abs(val)
    cnt = np.zeros(val.shape, dtype=np.float64)
    if n > 0 and a != 0.0:
        for i in range(n):
            ix = blas_index(i, n, xoff, incx)
            iy = blas_index(i, n, yoff, incy)
            val[iy] = val[iy] + a * val[ix]
            mag[iy] = mag[iy] + abs(a) * mag[ix]
            cnt[iy] = max(cnt[iy], cnt[ix]) + 2
    return val, C_SAFETY * cnt * EPS * mag


# ---- sdot --------------------------------------------------------------------------------------

def sdot_ref(x, y):
    """sum x_i*y_i: each product rounded once, then n-1 additions in any order, so
    |err| <= gamma_n * sum|x_i*y_i|; bound C_SAFETY * n * eps * sum|x_i*y_i| (the spec's c*n*eps
    with c = 2)."""
    x64 = np.asarray(x, dtype=np.float64)
    y64 = np.asarray(y, dtype=np.float64)
    n = x64.shape[0]
    prod = x64 * y64  # exact: products of two float32 fit in a double
    return float(np.sum(prod)), C_SAFETY * max(n, 1) * EPS * float(np.sum(np.abs(prod)))


# ---- sgemm -------------------------------------------------------------------------------------

def sgemm_ref(alpha, opA, opB, beta, C):
    """alpha*op(A)@op(B) + beta*C in float64 and its elementwise fp32 bound.
    Each dot product of length k: k roundings of the products and additions (gamma_k), one more for
    the alpha scaling and one for adding beta*C, which itself is rounded once; so
        |C - C_ref| <= C_SAFETY * (k + 2) * eps * (|alpha| |A||B| + |beta| |C|)
    (the spec's c*k*eps*(...) with c = 2; the +2 keeps k = 1 and k = 0 honest).
    With beta == 0 the C term is dropped (C must not be read: it may hold NaN)."""
    a = f32(alpha)
    b = f32(beta)
    A64 = np.asarray(opA, dtype=np.float64)
    B64 = np.asarray(opB, dtype=np.float64)
    k = A64.shape[1]
    m, n = A64.shape[0], B64.shape[1]
    if a == 0.0 or k == 0:
        # C = beta*C without reading A or B (they may hold NaN)
        ref = np.zeros((m, n))
        mag = np.zeros((m, n))
    else:
        ref = a * (A64 @ B64)
        mag = abs(a) * (np.abs(A64) @ np.abs(B64))
    if b != 0.0:
        C64 = np.asarray(C, dtype=np.float64)
        ref = ref + b * C64
        mag = mag + abs(b) * np.abs(C64)
    return ref, C_SAFETY * (k + 2) * EPS * mag


# ---- sscal, scopy, sswap, sasum ----------------------------------------------------------------

def sscal_ref(alpha, x):
    """alpha*x_i: a single rounded multiply, |err_i| <= eps*|alpha*x_i|; bound
    C_SAFETY * eps * |alpha*x_i| (the float64 product of two float32 values is exact)."""
    a = f32(alpha)
    ref = a * np.asarray(x, dtype=np.float64)
    return ref, C_SAFETY * EPS * np.abs(ref)


def scopy_ref_flat(buf, n, xoff, incx, yoff, incy):
    """Reference scopy on one flat float32 buffer holding x and y (overlapping, zero or negative
    increments allowed): the sequential loop i = 0..n-1, y(i) = x(i).  A copy rounds nothing, so
    the result is exact: compare bit for bit."""
    out = np.array(buf, dtype=np.float32, copy=True)
    for i in range(max(n, 0)):
        out[blas_index(i, n, yoff, incy)] = out[blas_index(i, n, xoff, incx)]
    return out


def sswap_ref_flat(buf, n, xoff, incx, yoff, incy):
    """Reference sswap on one flat float32 buffer (overlapping, zero or negative increments
    allowed): for i = 0..n-1: tmp = x(i); x(i) = y(i); y(i) = tmp.  Exact (no rounding)."""
    out = np.array(buf, dtype=np.float32, copy=True)
    for i in range(max(n, 0)):
        ix = blas_index(i, n, xoff, incx)
        iy = blas_index(i, n, yoff, incy)
        out[ix], out[iy] = out[iy], out[ix]
    return out


def sasum_ref(x):
    """sum |x_i|: taking |.| is exact, then n-1 additions in any order, so
    |err| <= gamma_{n-1} * sum|x_i|; bound C_SAFETY * n * eps * sum|x_i| (the spec's
    c*n*eps*sum|x_i| with c = 2)."""
    a = np.abs(np.asarray(x, dtype=np.float64))
    s = float(np.sum(a))
    return s, C_SAFETY * max(a.shape[0], 1) * EPS * s


# ---- sgemv -------------------------------------------------------------------------------------

def sgemv_ref(alpha, opA, x, beta, y):
    """alpha*op(A)@x + beta*y in float64 and its elementwise fp32 bound: sgemv is sgemm with a
    single column, so sgemm_ref's bound applies with k = len(x):
        |y - y_ref| <= C_SAFETY * (len(x) + 2) * eps * (|alpha| |A||x| + |beta| |y|)
    (the spec's (lenx+2)*eps*(...) with c = 2).  With beta == 0, y is not used (it may hold NaN:
    pass None); alpha == 0 gives beta*y without reading A or x."""
    x64 = np.asarray(x, dtype=np.float64).reshape(-1, 1)
    y64 = None if y is None else np.asarray(y, dtype=np.float64).reshape(-1, 1)
    ref, bound = sgemm_ref(alpha, opA, x64, beta, y64)
    return ref[:, 0], bound[:, 0]
