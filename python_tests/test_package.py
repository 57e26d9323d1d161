"""The glblas package on numpy arrays and DeviceArrays: every routine against a float64 numpy
reference, over dtypes, memory orders, strided and reversed views, given outputs, and mixes of
host and device arrays; what is copied and what is not; errors and their messages; device
arrays' lifetime (garbage collection, free, shutdown, exit, fork); threads.

Bounds: u is the unit roundoff of the dtype (2^-24, 2^-53); a length-k dot product in any order
is within gamma_k ~ k*u of sum|a_i b_i|, and alpha/beta scalings and the update add one
rounding each, so with the factor 2 of reference.py (gamma's denominator, a separate multiply
where an fma was assumed) gemm is within 2*(k+2)*u*(|alpha||A||B| + |beta||C|) elementwise,
gemv likewise, dot and asum within 2*n*u of their sums of magnitudes, axpy 2*2*u*(|alpha x| +
|y|), scal 2*u*|alpha x|. copy and swap are exact.

float64 runs where the loaded library has the double-precision routine (glblasD...), and
otherwise must raise the TypeError that says it does not; where it has it, a device without
fp64 (GLES) may answer GLBLAS_STATUS_NOT_SUPPORTED, and only there.
"""

import gc
import itertools
import os
import pathlib
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import glblas
from glblas import DeviceArray, GlblasError
from helpers import CountingLib

ROOT = pathlib.Path(__file__).resolve().parent.parent
DTYPES = [np.float32, np.float64]
U = {np.dtype(np.float32): 2.0**-24, np.dtype(np.float64): 2.0**-53}


@pytest.fixture(autouse=True)
def device(lib):
    """The session's library, initialised; every test leaves the allocation count it found."""
    start = glblas.device_info()["allocations"]
    yield
    gc.collect()
    assert glblas.device_info()["allocations"] == start, "a test left device memory allocated"


def precision(routine, dtype, call):
    """Runs call() and returns its result, or None where float64 is rightly refused: by a
    library without glblasD<routine> (a TypeError saying so), or, with the routine, by a device
    without fp64 shaders or the compute pipeline (NOT_SUPPORTED)."""
    if np.dtype(dtype) == np.float64 and not glblas.supports(routine, dtype):
        with pytest.raises(TypeError, match=f"no float64 {routine} .glblasD{routine}."):
            call()
        return None
    try:
        return call()
    except GlblasError as e:
        info = glblas.device_info()
        # Double precision needs fp64 shaders and the compute pipeline (docs/api.md).
        doubles = info["fp64"] and info["pipeline"] == "compute"
        if (e.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED and np.dtype(dtype) == np.float64
                and not doubles):
            return None
        raise


def host(x):
    return x.get() if isinstance(x, DeviceArray) else np.asarray(x)


def close(got, ref, bound, what):
    got = np.asarray(host(got), np.float64)
    assert got.shape == np.shape(ref), (what, got.shape, np.shape(ref))
    err = np.abs(got - ref)
    assert np.all(err <= bound), f"{what}: error {err.max():.3g} > bound {np.max(bound):.3g}"


# ---- operands in every layout ------------------------------------------------------------------

LAYOUTS_1D = ["contiguous", "step3", "reversed", "device", "device_step2", "device_reversed"]
LAYOUTS_2D = ["C", "F", "F_sub", "C_sub", "step", "reversed", "device_C", "device_F",
              "device_T", "device_sub", "device_step"]
# The layouts BLAS cannot describe, which the package must copy (as a whole) for a call.
COPIED = {"step", "reversed", "device_step"}


def place(values, layout):
    """An array equal to ``values`` in ``layout``, with NaN in the memory around it."""
    v = np.asarray(values)
    nan = np.nan
    if v.ndim == 1:
        n = v.shape[0]
        if layout == "contiguous":
            return v.copy()
        if layout == "step3":
            base = np.full(3 * n + 2, nan, v.dtype)
            out = base[1:1 + 3 * n:3]
        elif layout == "reversed":
            base = np.full(2 * n + 2, nan, v.dtype)
            out = base[2 * n:0:-2]
        elif layout == "device":
            return glblas.to_device(v)
        elif layout == "device_step2":
            return glblas.to_device(np.repeat(v, 2))[::2]
        elif layout == "device_reversed":
            return glblas.to_device(v[::-1])[::-1]
        out[...] = v
        return out
    r, c = v.shape
    if layout == "C":
        return v.copy()
    if layout == "F":
        return np.asfortranarray(v)
    if layout in ("F_sub", "C_sub"):
        base = np.full((r + 3, c + 2), nan, v.dtype, order=layout[0])
        out = base[1:1 + r, 2:2 + c]
    elif layout == "step":
        base = np.full((2 * r + 1, 3 * c + 1), nan, v.dtype)
        out = base[1::2, 1::3][:r, :c]
    elif layout == "reversed":
        base = np.full((r, c), nan, v.dtype)
        out = base[::-1, ::-1]
    elif layout == "device_C":
        return glblas.to_device(v)
    elif layout == "device_F":
        return glblas.to_device(np.asfortranarray(v))
    elif layout == "device_T":
        return glblas.to_device(v.T.copy()).T
    elif layout == "device_sub":
        return glblas.to_device(np.pad(v, ((1, 2), (3, 1)), constant_values=nan))[1:1 + r, 3:3 + c]
    elif layout == "device_step":
        return glblas.to_device(np.repeat(np.repeat(v, 2, axis=0), 3, axis=1))[::2, ::3]
    out[...] = v
    return out


def values(rng, shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def unit_roundoff(dtype):
    """A real or complex dtype's unit roundoff (its parts')."""
    return U[np.dtype(np.empty(0, dtype).real.dtype)]


def data(rng, shape, dtype):
    """Normal values of a real dtype, or normal parts of a complex one."""
    v = values(rng, shape, np.float64)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * values(rng, shape, np.float64)
    return v.astype(dtype)


# ---- gemm, matmul ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_a", LAYOUTS_2D)
@pytest.mark.parametrize("layout_c", ["new", "C", "F", "F_sub", "step", "device_C", "device_T",
                                      "device_step"])
def test_gemm(rng, dtype, layout_a, layout_c):
    m, n, k = 13, 7, 11
    trans_a, trans_b = layout_a in ("F", "device_C"), layout_c in ("C", "device_T")
    a = values(rng, (k, m) if trans_a else (m, k), dtype)
    b = values(rng, (n, k) if trans_b else (k, n), dtype)
    c0 = values(rng, (m, n), dtype)
    alpha, beta = (1.5, 0.0) if layout_c == "new" else (-0.75, 2.0)
    layout_b = LAYOUTS_2D[(LAYOUTS_2D.index(layout_a) + 3) % len(LAYOUTS_2D)]
    A, B = place(a, layout_a), place(b, layout_b)
    C = None if layout_c == "new" else place(c0, layout_c)
    got = precision("gemm", dtype, lambda: glblas.gemm(A, B, C, alpha=alpha, beta=beta,
                                                       trans_a=trans_a, trans_b=trans_b))
    if got is None:
        return
    if C is not None:
        assert got is C
    else:
        device = isinstance(A, DeviceArray) or isinstance(B, DeviceArray)
        assert isinstance(got, DeviceArray) == device
    a64, b64, c64 = (x.astype(np.float64) for x in (a, b, c0))
    opa, opb = (a64.T if trans_a else a64), (b64.T if trans_b else b64)
    ref = alpha * opa @ opb + beta * c64
    bound = 2 * (k + 2) * U[np.dtype(dtype)] * (abs(alpha) * np.abs(opa) @ np.abs(opb)
                                                + abs(beta) * np.abs(c64))
    close(got, ref, bound, f"gemm {layout_a} x {layout_b} -> {layout_c}")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_a", LAYOUTS_2D)
@pytest.mark.parametrize("layout_c", ["new", "F", "C", "device_F", "device_T"])
def test_complex_gemm(rng, dtype, layout_a, layout_c):
    """cgemm and zgemm, complex alpha and beta. Each part of an element is a real sum of 2k
    products of parts (|ar br| + |ai bi| <= |a||b|), so within 2*(2k+4)*u of the moduli's
    |alpha||A||B| + |beta||C|. NOT_SUPPORTED without the compute pipeline (and, for
    complex128, fp64)."""
    m, n, k = 13, 7, 11
    trans_a, trans_b = layout_a in ("F", "device_C"), layout_c in ("C", "device_T")
    a, b, c0 = (data(rng, s, dtype) for s in ((k, m) if trans_a else (m, k),
                                                   (n, k) if trans_b else (k, n), (m, n)))
    alpha, beta = (1.5 - 0.5j, 0.0) if layout_c == "new" else (-0.75 + 0.25j, 2.0j)
    layout_b = LAYOUTS_2D[(LAYOUTS_2D.index(layout_a) + 3) % len(LAYOUTS_2D)]
    A, B = place(a, layout_a), place(b, layout_b)
    C = None if layout_c == "new" else place(c0, layout_c)
    info = glblas.device_info()
    able = info["pipeline"] == "compute" and (dtype == np.complex64 or info["fp64"])
    call = lambda: glblas.gemm(A, B, C, alpha=alpha, beta=beta,  # noqa: E731
                               trans_a=trans_a, trans_b=trans_b)
    if not able:
        with pytest.raises(GlblasError) as e:
            call()
        assert e.value.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED
        return
    got = call()
    if C is not None:
        assert got is C
    wide = (x.astype(np.clongdouble) for x in (a, b, c0))
    a_, b_, c_ = wide
    opa, opb = (a_.T if trans_a else a_), (b_.T if trans_b else b_)
    ref = alpha * opa @ opb + beta * c_
    scale = abs(alpha) * np.abs(opa) @ np.abs(opb) + abs(beta) * np.abs(c_)
    bound = (2 * (2 * k + 4) * unit_roundoff(dtype)
             * scale.astype(np.float64))
    g = host(got)
    close(g.real, ref.real.astype(np.float64), bound, f"gemm {layout_a} x {layout_b} -> {layout_c}")
    close(g.imag, ref.imag.astype(np.float64), bound, f"gemm {layout_a} x {layout_b} -> {layout_c}")


def test_complex_scalars_need_complex_arrays():
    f32 = np.ones((2, 2), np.float32)
    with pytest.raises(TypeError, match="gemm: alpha = 1j is complex, but the arrays are real"):
        glblas.gemm(f32, f32, alpha=1j)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shapes", [((5, 4), (4, 3)), ((5, 4), (4,)), ((4,), (4, 3)),
                                    ((4,), (4,)), ((0, 4), (4, 3)), ((5, 0), (0, 3))])
def test_matmul_is_numpys(rng, dtype, shapes):
    a, b = values(rng, shapes[0], dtype), values(rng, shapes[1], dtype)
    got = precision("gemm" if len(shapes[0]) == len(shapes[1]) == 2 else
                    "dot" if len(shapes[0]) == len(shapes[1]) == 1 else "gemv", dtype,
                    lambda: glblas.matmul(a, b))
    if got is None:
        return
    ref = a.astype(np.float64) @ b.astype(np.float64)
    k = shapes[0][-1]
    bound = 2 * (k + 2) * U[np.dtype(dtype)] * (np.abs(a.astype(np.float64)) @ np.abs(b))
    close(got, ref, bound, f"matmul {shapes}")


def test_matmul_out_and_a_chain_on_the_device(rng):
    a, b, x = values(rng, (6, 5), np.float32), values(rng, (5, 6), np.float32), \
        values(rng, 6, np.float32)
    with glblas.to_device(a) as da, glblas.to_device(b) as db, glblas.empty((6, 6)) as dc, \
            glblas.to_device(x) as dx:
        assert glblas.matmul(da, db, out=dc) is dc
        # Each result stays on the device, as the next call's operand.
        y = glblas.matmul(dc, dx)
        z = glblas.matmul(dc, y)
        assert isinstance(y, DeviceArray) and isinstance(z, DeviceArray)
        ab = a.astype(np.float64) @ b
        y_ref = ab @ x
        z_ref = ab @ y_ref
        mag = np.abs(a) @ np.abs(b)
        close(z, z_ref, 2 * 20 * U[np.dtype(np.float32)] * (mag @ mag @ np.abs(x)), "chain")
        y.free()
        z.free()


def test_outputs_overlapping_inputs_are_computed_as_if_apart(rng):
    a = values(rng, (8, 8), np.float32)
    ref = a.astype(np.float64) @ a
    bound = 2 * 10 * U[np.dtype(np.float32)] * (np.abs(a) @ np.abs(a))
    h = a.copy()
    close(glblas.gemm(h, h, c=h), ref, bound, "host c is a and b")
    with glblas.to_device(a) as d:
        close(glblas.gemm(d, d, c=d), ref, bound, "device c is a and b")
    with glblas.to_device(a) as d:
        # y is row 1 of a, x row 0.
        a64 = a.astype(np.float64)
        close(glblas.gemv(d, d[0], y=d[1]), a64 @ a64[0],
              2 * 10 * U[np.dtype(np.float32)] * (np.abs(a64) @ np.abs(a64[0])), "device y in a")


# ---- gemv ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_a", LAYOUTS_2D)
@pytest.mark.parametrize("layout_x", LAYOUTS_1D)
def test_gemv(rng, dtype, layout_a, layout_x):
    m, n = 9, 6
    trans = layout_x in ("step3", "device_reversed")
    a = values(rng, (n, m) if trans else (m, n), dtype)
    x, y0 = values(rng, n, dtype), values(rng, m, dtype)
    layout_y = LAYOUTS_1D[(LAYOUTS_1D.index(layout_x) + 2) % len(LAYOUTS_1D)]
    A, X, Y = place(a, layout_a), place(x, layout_x), place(y0, layout_y)
    got = precision("gemv", dtype, lambda: glblas.gemv(A, X, Y, alpha=0.5, beta=-1.25,
                                                       trans=trans))
    if got is None:
        return
    assert got is Y
    opa = (a.T if trans else a).astype(np.float64)
    ref = 0.5 * opa @ x - 1.25 * y0
    bound = 2 * (n + 2) * U[np.dtype(dtype)] * (0.5 * np.abs(opa) @ np.abs(x) + 1.25 * np.abs(y0))
    close(got, ref, bound, f"gemv {layout_a} {layout_x} -> {layout_y}")


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_a", LAYOUTS_2D)
@pytest.mark.parametrize("layout_x", LAYOUTS_1D)
def test_complex_gemv(rng, dtype, layout_a, layout_x):
    """cgemv and zgemv, complex alpha and beta: each part of an element is a sum of n complex
    products (two real products and a sum each), then alpha's and beta's products are added:
    within 2*(n+6)*u of the moduli's |alpha||A||x| + |beta||y|."""
    m, n = 9, 6
    trans = layout_x in ("step3", "device_reversed")
    a = data(rng, (n, m) if trans else (m, n), dtype)
    x, y0 = data(rng, n, dtype), data(rng, m, dtype)
    layout_y = LAYOUTS_1D[(LAYOUTS_1D.index(layout_x) + 2) % len(LAYOUTS_1D)]
    A, X, Y = place(a, layout_a), place(x, layout_x), place(y0, layout_y)
    alpha, beta = 0.5 - 1.5j, 2.0j
    info = glblas.device_info()
    if info["pipeline"] != "compute" or (dtype == np.complex128 and not info["fp64"]):
        with pytest.raises(GlblasError) as e:
            glblas.gemv(A, X, Y, alpha=alpha, beta=beta, trans=trans)
        assert e.value.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED
        return
    got = glblas.gemv(A, X, Y, alpha=alpha, beta=beta, trans=trans)
    assert got is Y
    a_, x_, y_ = (v.astype(np.clongdouble) for v in (a, x, y0))
    opa = a_.T if trans else a_
    ref = alpha * opa @ x_ + beta * y_
    scale = abs(alpha) * np.abs(opa) @ np.abs(x_) + abs(beta) * np.abs(y_)
    bound = 2 * (n + 6) * unit_roundoff(dtype) * scale.astype(np.float64)
    g = host(got)
    what = f"gemv {layout_a} {layout_x} -> {layout_y}"
    close(g.real, ref.real.astype(np.float64), bound, what)
    close(g.imag, ref.imag.astype(np.float64), bound, what)


def test_gemv_with_an_empty_inner_dimension_scales_y():
    y = np.array([1.0, np.nan, 3.0], np.float32)
    assert np.array_equal(glblas.gemv(np.zeros((3, 0), np.float32), np.zeros(0, np.float32), y,
                                      beta=0.0), np.zeros(3))
    z = np.array([1.0, 2.0, 3.0], np.float32)
    glblas.gemv(np.zeros((0, 3), np.float32), np.zeros(0, np.float32), z, beta=2.0, trans=True)
    assert np.array_equal(z, [2.0, 4.0, 6.0])


# ---- level 1 -----------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_x", LAYOUTS_1D)
@pytest.mark.parametrize("layout_y", LAYOUTS_1D)
def test_level1(rng, dtype, layout_x, layout_y):
    n = 37
    u = U[np.dtype(dtype)]
    x, y = values(rng, n, dtype), values(rng, n, dtype)
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    what = f"{layout_x} {layout_y}"

    X, Y = place(x, layout_x), place(y, layout_y)
    got = precision("axpy", dtype, lambda: glblas.axpy(X, Y, alpha=-2.5))
    if got is not None:
        assert got is Y
        close(Y, y64 - 2.5 * x64, 2 * 2 * u * (2.5 * np.abs(x64) + np.abs(y64)), "axpy " + what)

    X, Y = place(x, layout_x), place(y, layout_y)
    got = precision("dot", dtype, lambda: glblas.dot(X, Y))
    if got is not None:
        assert isinstance(got, float)
        close(got, x64 @ y64, 2 * n * u * (np.abs(x64) @ np.abs(y64)), "dot " + what)

    X = place(x, layout_x)
    got = precision("scal", dtype, lambda: glblas.scal(X, 3.25))
    if got is not None:
        assert got is X
        close(X, 3.25 * x64, 2 * u * 3.25 * np.abs(x64), "scal " + layout_x)

    got = precision("asum", dtype, lambda: glblas.asum(place(x, layout_x)))
    if got is not None:
        close(got, np.abs(x64).sum(), 2 * n * u * np.abs(x64).sum(), "asum " + layout_x)

    X, Y = place(x, layout_x), place(y, layout_y)
    got = precision("copy", dtype, lambda: glblas.copy(X, out=Y))
    if got is not None:
        assert got is Y and np.array_equal(host(Y), x)
        new = glblas.copy(X)
        assert isinstance(new, DeviceArray) == isinstance(X, DeviceArray)
        assert np.array_equal(host(new), x)

    X, Y = place(x, layout_x), place(y, layout_y)
    # swap returns None: "done" tells a call that ran from one that was refused.
    if precision("swap", dtype, lambda: glblas.swap(X, Y) or "done") is not None:
        assert np.array_equal(host(X), y) and np.array_equal(host(Y), x)


@pytest.mark.parametrize("dtype", DTYPES + [np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", LAYOUTS_1D)
def test_nrm2_and_iamax(rng, dtype, layout):
    """nrm2 within (n+2)u of the norm (a sum of n squares, its square root, and the scaling of
    Blue's accumulators, which makes it exact in powers of two), also where the plain squares
    overflow or underflow; iamax: the first largest |x_i| (|re| + |im| for complex x), in the
    array's own order whatever its layout, ties to the first, NaN passed over but at 0."""
    n = 37
    real = np.dtype(dtype).kind == "f"
    u = unit_roundoff(dtype)
    if not real and not complex_here(dtype):
        for call in (glblas.nrm2, glblas.iamax):
            with pytest.raises(GlblasError) as e:
                call(place(values(rng, n, np.float32).astype(dtype), layout))
            assert e.value.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED
        return
    x = data(rng, n, dtype)
    # Beyond the precision's square range both ways: 2^70 (2^600) squares past float32's
    # (float64's) largest, 2^-80 (2^-600) below its smallest.
    big = 70 if u == 2.0**-24 else 600
    for scale in (1.0, 2.0**big, 2.0**-(big + 10)):
        xs = (x * scale).astype(dtype)
        want = np.sqrt(np.sum(np.abs(xs.astype(np.clongdouble)) ** 2))
        got = precision("nrm2", dtype, lambda: glblas.nrm2(place(xs, layout)))
        if got is None:
            return
        assert isinstance(got, float)
        assert abs(got - float(want)) <= (n + 2) * u * float(want), (layout, scale, got, want)

    def key(v):
        return np.abs(v) if real else np.abs(v.real) + np.abs(v.imag)
    assert glblas.iamax(place(x, layout)) == int(np.argmax(key(x)))
    tied = x.copy()
    top = key(tied).max()
    tied[5], tied[20] = 2 * top, -2 * top
    assert glblas.iamax(place(tied, layout)) == 5, layout
    tied[3] = np.nan
    assert glblas.iamax(place(tied, layout)) == 5, layout
    tied[0] = np.nan
    assert glblas.iamax(place(tied, layout)) == 0, layout
    with pytest.raises(ValueError):
        glblas.iamax(np.zeros(0, dtype))


def complex_here(dtype):
    """Whether the device computes in complex ``dtype``: the compute pipeline, and fp64 for
    complex128."""
    info = glblas.device_info()
    return info["pipeline"] == "compute" and (dtype == np.complex64 or info["fp64"])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout_x", LAYOUTS_1D)
@pytest.mark.parametrize("layout_y", ["contiguous", "device_reversed"])
def test_complex_level1(rng, dtype, layout_x, layout_y):
    """axpy, dot (dotu), vdot (dotc), scal with a complex and a real alpha, and asum on complex
    vectors. Bounds per part, in the moduli (each part of a complex product is two real products
    and a sum): axpy gamma_3 (|alpha||x| + |y|), dot and vdot gamma_{n+2} sum |x||y|, scal
    gamma_2 |alpha||x| (a real alpha: one rounding), asum gamma_2n sum (|re| + |im|)."""
    n = 37
    u = unit_roundoff(dtype)
    x, y = data(rng, n, dtype), data(rng, n, dtype)
    xw, yw = x.astype(np.clongdouble), y.astype(np.clongdouble)
    what = f"{np.dtype(dtype).name} {layout_x} {layout_y}"
    alpha = -0.75 + 1.25j
    calls = {
        "axpy": lambda: glblas.axpy(place(x, layout_x), place(y, layout_y), alpha=alpha),
        "dot": lambda: glblas.dot(place(x, layout_x), place(y, layout_y)),
        "vdot": lambda: glblas.vdot(place(x, layout_x), place(y, layout_y)),
        "scal": lambda: glblas.scal(place(x, layout_x), alpha),
        "scal_real": lambda: glblas.scal(place(x, layout_x), -2.5),
        "asum": lambda: glblas.asum(place(x, layout_x)),
    }
    if not complex_here(dtype):
        for name, call in calls.items():
            with pytest.raises(GlblasError) as e:
                call()
            assert e.value.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED, name
        return

    def check(got, want, bound, name):
        g = host(got) if isinstance(got, (DeviceArray, np.ndarray)) else np.asarray(got)
        for part in (np.real, np.imag):
            close(part(g), part(want).astype(np.float64), bound, f"{name} {what}")

    check(calls["axpy"](), yw + alpha * xw,
          2 * 3 * u * (abs(alpha) * np.abs(xw) + np.abs(yw)).astype(np.float64), "axpy")
    dot_bound = 2 * (n + 2) * u * float(np.abs(xw) @ np.abs(yw))
    got = calls["dot"]()
    assert isinstance(got, complex)
    check(got, xw @ yw, dot_bound, "dot")
    check(calls["vdot"](), np.vdot(xw, yw), dot_bound, "vdot")
    check(calls["scal"](), alpha * xw, 2 * 2 * u * abs(alpha) * np.abs(xw).astype(np.float64),
          "scal")
    # Each part scaled alone: one rounding each, so the parts are exactly -2.5 times x's.
    got = host(calls["scal_real"]())
    assert np.array_equal(got.real, (-2.5 * x.real).astype(got.real.dtype)), what
    assert np.array_equal(got.imag, (-2.5 * x.imag).astype(got.imag.dtype)), what
    mags = np.abs(xw.real) + np.abs(xw.imag)
    got = calls["asum"]()
    assert isinstance(got, float)
    close(got, float(mags.sum()), 2 * 2 * n * u * float(mags.sum()), f"asum {what}")


@pytest.mark.parametrize("where", ["host", "device"])
def test_dot_asum_and_nrm2_into_a_given_output(rng, where):
    x = values(rng, 50, np.float32)
    out = np.full((), np.nan, np.float32) if where == "host" else glblas.empty(())
    X = x if where == "host" else glblas.to_device(x)
    n = 50
    u = U[np.dtype(np.float32)]
    x64 = x.astype(np.float64)
    assert glblas.dot(X, X, out=out) is out
    close(out, x64 @ x64, 2 * n * u * (x64 @ x64), "dot out")
    assert glblas.asum(X, out=out) is out
    close(out, np.abs(x64).sum(), 2 * n * u * np.abs(x64).sum(), "asum out")
    assert glblas.nrm2(X, out=out) is out
    norm = np.sqrt(x64 @ x64)
    close(out, norm, (n + 2) * u * norm, "nrm2 out")


# ---- what is copied ------------------------------------------------------------------------------

@pytest.mark.parametrize("layout", LAYOUTS_2D)
def test_only_what_blas_cannot_describe_is_copied(rng, monkeypatch, layout):
    made = []
    stand_in = glblas._blas._Operands._stand_in

    def counting(self, x, *args):
        made.append(x)
        return stand_in(self, x, *args)

    monkeypatch.setattr(glblas._blas._Operands, "_stand_in", counting)
    a = values(rng, (6, 6), np.float32)
    A = place(a, layout)
    c = np.zeros((6, 6), np.float32)
    glblas.gemm(A, np.eye(6, dtype=np.float32), c=c)
    assert np.array_equal(c, a)
    assert [x is A for x in made] == ([True] if layout in COPIED else [])
    made.clear()
    for v in ("contiguous", "step3", "reversed", "device_step2", "device_reversed"):
        x = place(a[0], v)
        glblas.axpy(x, x)
        assert made == [], v


# ---- errors --------------------------------------------------------------------------------------

def test_shape_and_dtype_errors_name_the_argument():
    f32 = np.ones((3, 4), np.float32)
    cases = [
        (lambda: glblas.gemm(f32, f32), ValueError,
         r"gemm: op\(b\) has shape \(3, 4\); it needs 4"),
        (lambda: glblas.gemm(f32, f32.T, c=np.ones((3, 4), np.float32)), ValueError,
         r"gemm: c has shape \(3, 4\); expected \(3, 3\)"),
        (lambda: glblas.gemm(f32, f32.T.astype(np.float64)), TypeError,
         "gemm: b has dtype float64 but a has float32"),
        (lambda: glblas.gemm(f32, f32.T, c=np.ones((3, 3))), TypeError,
         "gemm: c has dtype float64; expected float32"),
        (lambda: glblas.gemm(f32.astype(int), f32), TypeError, "gemm: a has dtype int64"),
        (lambda: glblas.gemm(f32[0], f32), ValueError, "gemm: a has 1 dimensions; expected 2"),
        (lambda: glblas.gemm(f32, f32.T, beta=1.0), ValueError, "gemm: beta is nonzero but no c"),
        (lambda: glblas.gemm(f32, f32.T, c=[[0.0] * 3] * 3), TypeError,
         "gemm: c must be a numpy array or a DeviceArray"),
        (lambda: glblas.gemv(f32, np.ones(3, np.float32)), ValueError,
         r"gemv: x has shape \(3,\); expected \(4,\)"),
        (lambda: glblas.axpy(np.ones(3, np.float32), np.ones(4, np.float32)), ValueError,
         r"axpy: y has shape \(4,\); expected \(3,\) like x"),
        (lambda: glblas.axpy(np.ones(3, np.float32), np.broadcast_to(np.float32(1), (3,))),
         ValueError, "axpy: y is read-only"),
        (lambda: glblas.dot(f32[0], f32[0], out=np.ones(2, np.float32)), ValueError,
         r"dot: out has shape \(2,\); expected one element"),
        (lambda: glblas.matmul(f32, f32), ValueError, "matmul: b has shape"),
        (lambda: glblas.to_device(np.ones(3, np.int32)), TypeError, "to_device.*int32"),
        (lambda: glblas.empty((2, 2, 2)), ValueError, "0, 1 or 2 dimensions"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


def test_status_errors_carry_the_status_and_the_librarys_text():
    x = glblas.empty(4)
    stale = x.T  # a view of the same memory
    x.free()
    x.free()  # a second free does nothing
    with pytest.raises(ValueError, match="freed"):
        glblas.scal(stale, 2.0)
    # A C call the library refuses, through the same check the routines use.
    with pytest.raises(GlblasError) as e:
        glblas.check(glblas.lib.glblasFree(16), "glblasFree")
    assert e.value.status == glblas.GLBLAS_STATUS_INVALID_VALUE
    assert e.value.status_string == glblas.status_string(glblas.GLBLAS_STATUS_INVALID_VALUE)
    assert str(e.value) == "glblasFree: GLBLAS_STATUS_INVALID_VALUE: an argument is invalid"


def run_python(code, env=None):
    """Runs ``code`` in a fresh interpreter that imports glblas (and the test helpers) from the
    repository."""
    paths = [str(ROOT / "python"), str(ROOT / "python_tests")]
    code = f"import sys\nsys.path[:0] = {paths!r}\n" + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})), timeout=120)


def test_a_device_that_cannot_start_raises_with_the_reason():
    run = run_python("""
        import numpy as np, glblas
        ones = np.ones((2, 2), np.float32)
        for call in (lambda: glblas.matmul(ones, ones), glblas.device_name, glblas.device_info,
                     lambda: glblas.empty(3)):
            try:
                call()
                raise SystemExit("no error")
            except glblas.GlblasError as e:
                assert e.status == glblas.GLBLAS_STATUS_NOT_INITIALIZED, e
                print(e)
        """, env={"__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 4, lines
    assert all("no GL context could be created" in line for line in lines), lines
    assert lines[0].startswith("glblasSgemm: GLBLAS_STATUS_NOT_INITIALIZED")
    bench = subprocess.run([sys.executable, "-m", "glblas"], capture_output=True, text=True,
                           cwd=ROOT / "python", timeout=120,
                           env=dict(os.environ, __EGL_VENDOR_LIBRARY_FILENAMES="/nonexistent.json"))
    assert bench.returncode == 1 and "no device" in bench.stderr, bench.stderr


# ---- device arrays -------------------------------------------------------------------------------

def test_device_array_basics(rng):
    a = values(rng, (5, 7), np.float64)
    with glblas.to_device(a) as d:
        assert (d.shape, d.dtype, d.strides, d.ndim, d.size, d.nbytes, len(d)) == \
            ((5, 7), a.dtype, a.strides, 2, 35, a.nbytes, 5)
        assert np.array_equal(d.get(), a)
        for key in [(slice(None), 3), 1, (slice(1, 4), slice(None, None, -2)), (Ellipsis, 0),
                    slice(None, None, -1)]:
            view = d[key]
            assert view.shape == a[key].shape and np.array_equal(view.get(), a[key]), key
        assert np.array_equal(d.T.get(), a.T) and np.array_equal(d.T[2].get(), a.T[2])
        with pytest.raises(IndexError):
            d[1, 2]
        f = glblas.to_device(np.asfortranarray(a))
        assert f.strides == np.asfortranarray(a).strides and np.array_equal(f.get(), a)
        f.free()
    with pytest.raises(ValueError, match="freed"):
        d.get()
    e = glblas.empty((0, 3))
    assert e.get().shape == (0, 3)
    assert repr(glblas.empty(2)) == "DeviceArray(shape=(2,), dtype=float32)"


def count_frees(monkeypatch):
    """The pointers glblasFree is called with from now on."""
    counting = CountingLib()
    monkeypatch.setattr(glblas._device, "lib", counting)
    return counting.freed


def test_device_arrays_are_freed_once_when_collected(monkeypatch):
    freed = count_frees(monkeypatch)
    start = glblas.device_info()["allocations"]
    arrays = [glblas.to_device(np.ones(100, np.float32)) for _ in range(5)]
    view = arrays[0][::2]
    cycle = [glblas.empty((3, 3))]
    cycle.append(cycle)
    assert glblas.device_info()["allocations"] == start + 6
    del arrays, cycle
    gc.collect()
    # The view keeps its array's memory.
    assert glblas.device_info()["allocations"] == start + 1
    assert np.array_equal(view.get(), np.ones(50))
    del view
    gc.collect()
    assert glblas.device_info()["allocations"] == start
    with glblas.empty(8) as d:
        pass
    d.free()
    del d
    gc.collect()
    assert len(freed) == len(set(freed)) == 7


def test_free_waits_for_a_call_in_progress(monkeypatch):
    a = glblas.to_device(np.ones((4, 4), np.float32))
    inside = []
    stand_in = glblas._blas._Operands._stand_in

    def free_meanwhile(self, x, *args):
        # Called with a's memory in use: the free is deferred to the end of the call.
        a.free()
        inside.append(glblas.device_info()["allocations"])
        return stand_in(self, x, *args)

    monkeypatch.setattr(glblas._blas._Operands, "_stand_in", free_meanwhile)
    before = glblas.device_info()["allocations"]
    c = np.zeros((4, 4), np.float32)
    glblas.gemm(a, np.ones((4, 4), np.float32)[::-1], c=c)
    assert np.array_equal(c, np.full((4, 4), 4.0))
    assert inside == [before]  # a was still allocated
    assert glblas.device_info()["allocations"] == before - 1


def test_shutdown_invalidates_device_arrays_without_freeing_them_again(monkeypatch):
    freed = count_frees(monkeypatch)
    d = glblas.to_device(np.ones(4, np.float32))
    glblas.shutdown()
    with pytest.raises(ValueError, match="glblas.shutdown"):
        d.get()
    del d
    gc.collect()
    assert freed == []
    glblas.check(glblas.lib.glblasInit(), "glblasInit")


def test_device_arrays_alive_at_exit_are_freed_before_the_library_exits():
    run = run_python("""
        import atexit, threading, weakref
        import numpy as np, glblas
        # Registered before the first finalizer, so that it runs after them all.
        assert not weakref.finalize._registered_with_atexit
        atexit.register(lambda: print("at exit:", glblas.device_info()["allocations"]))
        kept = [glblas.to_device(np.ones((64, 64), np.float32)) for _ in range(3)]
        cycle = [glblas.empty(5)]
        cycle.append(cycle)
        print("before:", glblas.device_info()["allocations"])

        def calls():
            # Stops at the first refusal once exit has freed its operands.
            while True:
                glblas.matmul(kept[0], kept[1], out=kept[2])

        threading.Thread(target=calls, daemon=True).start()
        """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["before:", "4", "at", "exit:", "0"], run.stdout


def test_fork_child_leaves_the_parents_device_arrays_alone():
    run = run_python("""
        import gc, os
        import numpy as np, glblas
        d = glblas.to_device(np.arange(8, dtype=np.float32))
        start = glblas.device_info()["allocations"]
        pid = os.fork()
        if pid == 0:
            # GL is not available in a fork() child, and the parent's memory is not the child's
            # to free: collecting d there must not call glblasFree.
            from helpers import CountingLib
            glblas._device.lib = counting = CountingLib()
            try:
                glblas.asum(d)
                status = 3
            except glblas.GlblasError as e:
                status = 0 if e.status == glblas.GLBLAS_STATUS_NOT_INITIALIZED else 4
            del d
            gc.collect()
            print("child frees:", counting.freed, flush=True)
            # _exit, as the library's own fork tests leave: on zink a child that runs the exit
            # handlers of a process that used GL crashes in them (also with no package code).
            os._exit(status)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        assert glblas.device_info()["allocations"] == start
        assert glblas.asum(d) == 28.0
        print("parent ok")
        """)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["child frees: []", "parent ok"], run.stdout


# ---- threads, information ----------------------------------------------------------------------

def test_calls_from_several_threads(rng):
    a = [values(rng, (40, 30), np.float32) for _ in range(4)]
    b = values(rng, (30, 20), np.float32)
    shared = glblas.to_device(b)
    errors = []

    def work(i):
        try:
            mine = glblas.to_device(a[i])
            for _ in range(10):
                got = glblas.matmul(mine if i % 2 else a[i], shared).get() if i % 2 else \
                    glblas.matmul(a[i], b)
                ref = a[i].astype(np.float64) @ b
                bound = 2 * 32 * U[np.dtype(np.float32)] * (np.abs(a[i]) @ np.abs(b))
                close(got, ref, bound, f"thread {i}")
            mine.free()
        except Exception as e:  # reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    shared.free()
    assert errors == []


def test_device_info():
    info = glblas.device_info()
    assert set(info) == {"renderer", "version", "gles", "fp64", "pipeline", "allocations"}
    assert info["renderer"] == glblas.device_name()
    # The board's desktop GL (3.1, scripts/drivers.sh's llvmpipe-board) is below glblas's minimum.
    board = os.environ.get("MESA_GL_VERSION_OVERRIDE") == "3.1"
    gles = os.environ.get("GLBLAS_GL_API") == "gles" or board
    assert info["gles"] == gles == info["version"].startswith("OpenGL ES")
    assert info["pipeline"] in ("compute", "fragment")
    if gles:
        # Every GLES context glblas takes (3.1 and later) has compute shaders.
        fragment = os.environ.get("GLBLAS_PIPELINE") == "fragment"
        assert not info["fp64"] and info["pipeline"] == ("fragment" if fragment else "compute")
    elif int(info["version"].split(".")[0]) >= 4:
        assert info["fp64"]


def test_python_m_glblas_prints_the_device_and_a_checked_benchmark():
    run = subprocess.run([sys.executable, "-m", "glblas", "-n", "96", "--runs", "2"],
                         capture_output=True, text=True, cwd=ROOT / "python", timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    info = glblas.device_info()
    for line in (f"glblas on {info['renderer']}", f"pipeline:   {info['pipeline']}",
                 f"fp64:       {'yes' if info['fp64'] else 'no'}"):
        assert line in out, out
    assert "float32  glblas " in out and "GFLOP/s (device arrays)" in out, out


def test_python_m_glblas_warm_compiles_every_shader_into_the_disk_cache(tmp_path):
    """`python -m glblas warm` compiles every program of the library's pipeline into Mesa's disk
    cache (Mesa's own statistics would be driver-specific; the cache's files are not), as many
    as `glblasWarm` counts there. On the fragment pipeline, whose 43 programs compile from an
    empty cache in about 8 s on llvmpipe, where the compute pipeline's 107 took 60-76 s: the
    command is the same, and tests/warm.rs checks on every configuration that glblasWarm leaves
    its pipeline nothing to compile."""
    fragment = dict(os.environ, GLBLAS_PIPELINE="fragment")
    empty = dict(fragment, MESA_SHADER_CACHE_DIR=str(tmp_path), MESA_SHADER_CACHE_DISABLE="false")
    run = subprocess.run([sys.executable, "-m", "glblas", "warm"], capture_output=True,
                         text=True, cwd=ROOT / "python", timeout=600, env=empty)
    assert run.returncode == 0, run.stdout + run.stderr
    count = int(run.stdout.split("glblas: ")[1].split()[0])
    assert f"shader programs compiled on {glblas.device_name()}" in run.stdout, run.stdout
    assert any(p.is_file() for p in tmp_path.rglob("*")), "nothing in the shader cache"
    library = subprocess.run([sys.executable, "-c", "import glblas; print(glblas.warm())"],
                             capture_output=True, text=True, cwd=ROOT / "python", timeout=600,
                             env=fragment)
    assert library.returncode == 0, library.stdout + library.stderr
    assert count == int(library.stdout), (run.stdout, library.stdout)


def test_python_m_glblas_tune_writes_a_table_that_info_then_names(tmp_path):
    """`python -m glblas tune --quick` searches, prints each precision's rates and the table it
    wrote (no progress bar: its output is no terminal); `python -m glblas info` in a later
    process describes the device and reads that table. The search itself: tests/tuning.rs."""
    table = tmp_path / "tuning.txt"
    env = dict(os.environ, GLBLAS_TUNING=str(table))
    tune = subprocess.run([sys.executable, "-m", "glblas", "tune", "--quick"],
                          capture_output=True, text=True, cwd=ROOT / "python", timeout=600,
                          env=env)
    info = subprocess.run([sys.executable, "-m", "glblas", "info"], capture_output=True,
                          text=True, cwd=ROOT / "python", timeout=120, env=env)
    assert info.returncode == 0, info.stdout + info.stderr
    assert f"renderer:      {glblas.device_name()}" in info.stdout, info.stdout
    if glblas.device_info()["pipeline"] == "fragment":
        assert tune.returncode == 1 and "no parameters to tune" in tune.stderr, tune.stderr
        return
    assert tune.returncode == 0, tune.stdout + tune.stderr
    assert "sgemm n = " in tune.stdout and f"table: {table}" in tune.stdout, tune.stdout
    assert "tuning [" not in tune.stderr, tune.stderr
    assert f"tuning:        {table}" in info.stdout, info.stdout
    assert table.read_text().startswith("glblas tuning table 1\n")


def test_auto_routes_by_the_tuned_crossover(tmp_path):
    """Under `auto`, a tuning table's crossovers for this device decide: sgemm to GL from 2·128³
    flops, dgemm never, `reason=tuned` either way, once the first call over the estimate
    (2·512³ flops) has learnt the device; the results right."""
    described = dict(line.split(":", 1) for line in glblas.describe_device().splitlines()
                     if ":" in line and not line.startswith(" "))
    table = tmp_path / "tuning.txt"
    table.write_text("glblas tuning table 1\ndevice\n"
                     f"vendor {described['vendor'].strip()}\n"
                     f"renderer {described['renderer'].strip()}\n"
                     f"crossover single from {2 * 128**3}\ncrossover double never {2 * 512**3}\n")
    run = run_python("""
        import ctypes, numpy as np, glblas
        from ctypes import c_int, c_void_p
        rng = np.random.default_rng(0)
        for name, dtype, n in (("cblas_sgemm", np.float32, 512), ("cblas_sgemm", np.float32, 128),
                               ("cblas_sgemm", np.float32, 127), ("cblas_dgemm", np.float64, 512)):
            real = np.ctypeslib.as_ctypes_type(dtype)
            f = getattr(glblas.lib, name)
            f.argtypes = [c_int] * 6 + [real, c_void_p, c_int, c_void_p, c_int, real, c_void_p,
                                        c_int]
            a, b = (rng.standard_normal((n, n)).astype(dtype, order="F") for _ in range(2))
            c = np.zeros((n, n), dtype, order="F")
            f(102, 111, 111, n, n, n, 1.0, a.ctypes.data, n, b.ctypes.data, n, 0.0,
              c.ctypes.data, n)
            assert np.allclose(c, a @ b, rtol=1e-4, atol=1e-3 * n**0.5), name
        """, env={"GLBLAS_TUNING": str(table), "GLBLAS_TRACE": "1", "GLBLAS_BACKEND": "auto"})
    assert run.returncode == 0, run.stdout + run.stderr
    routes = [(line.split(" route=")[1].split()[0], line.split(" reason=")[1].split()[0])
              for line in run.stderr.splitlines() if line.startswith("glblas-trace:")]
    assert routes == [("gl", "tuned"), ("gl", "tuned"), ("cpu", "tuned"), ("cpu", "tuned")], \
        run.stderr


# ---- symm, syrk, syr2k, trmm, trsm ---------------------------------------------------------------

ALL_DTYPES = DTYPES + [np.complex64, np.complex128]
# (layout of a, layout of b and c): alike, and different, so that operands are transposed or
# copied to match c's (b's for trmm and trsm) layout.
LEVEL3_LAYOUTS = [("F", "F"), ("C", "C"), ("step", "F"), ("device_C", "device_C"),
                  ("device_F", "C"), ("C", "device_F")]


def computed(dtype, call):
    """call()'s result, or None where the device rightly refuses dtype (float64 as
    `precision`; complex without the compute pipeline, complex128 without fp64 too)."""
    if np.dtype(dtype).kind == "c" and not complex_here(dtype):
        with pytest.raises(GlblasError) as e:
            call()
        assert e.value.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED
        return None
    return precision("gemm", dtype, call)


def triangle(a, lower, unread):
    """a with ``unread`` (NaN) in the triangle a routine must not read, and a with zeros
    there."""
    keep = np.tril(np.ones(a.shape, bool)) if lower else np.triu(np.ones(a.shape, bool))
    return np.where(keep, a, unread), np.where(keep, a, 0)


def assert_within(got, want, bound, what):
    err = np.abs(np.asarray(host(got), np.clongdouble) - want)
    assert np.all(err <= bound), f"{what}: error {np.max(err - bound):.3g} beyond the bound"


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layouts", LEVEL3_LAYOUTS, ids="-".join)
def test_symm_and_hemm(rng, dtype, layouts):
    """Against long double, within 2 (2k+6) u (|alpha||A||B| + |beta||C|) (moduli; twice the
    complex bound of magnitudes |re| + |im|), a's other triangle NaN (never read)."""
    u, (m, n) = unit_roundoff(dtype), (7, 5)
    hermitians = [False, True] if np.dtype(dtype).kind == "c" else [False]
    alpha, beta = (0.75, -0.5) if np.dtype(dtype).kind == "f" else (0.75 - 0.5j, -0.5 + 0.25j)
    for hermitian, side, lower in itertools.product(hermitians, ["left", "right"], [True, False]):
        order = m if side == "left" else n
        a, part = triangle(data(rng, (order, order), dtype), lower, np.nan)
        strict = np.tril(part, -1) if lower else np.triu(part, 1)
        diag = np.diag(np.diag(part).real if hermitian else np.diag(part))
        full = strict + diag + (strict.conj().T if hermitian else strict.T)
        b, c = data(rng, (m, n), dtype), data(rng, (m, n), dtype)
        A, B, C = place(a, layouts[0]), place(b, layouts[1]), place(c, layouts[1])
        got = computed(dtype, lambda: glblas.symm(A, B, C, alpha, beta, side, lower, hermitian))
        if got is None:
            return
        assert got is C
        fw, bw, cw = (x.astype(np.clongdouble) for x in (full, b, c))
        prod, mags = (fw @ bw, abs(fw) @ abs(bw)) if side == "left" else (bw @ fw,
                                                                          abs(bw) @ abs(fw))
        bound = 2 * (2 * order + 6) * u * (abs(alpha) * mags + abs(beta) * abs(cw))
        assert_within(C, alpha * prod + beta * cw, bound,
                      f"{'hemm' if hermitian else 'symm'} {side} lower={lower} {layouts}")


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layouts", LEVEL3_LAYOUTS, ids="-".join)
def test_syrk_syr2k_herk_her2k(rng, dtype, layouts):
    """c's triangle against long double (bound as symm's, 2k terms for the rank-2k update), the
    other triangle untouched; herk's and her2k's diagonal real."""
    u, (n, k) = unit_roundoff(dtype), (6, 4)
    hermitians = [False, True] if np.dtype(dtype).kind == "c" else [False]
    for hermitian, two, lower, trans in itertools.product(hermitians, [False, True],
                                                          [True, False], [False, True]):
        alpha = 0.75 if np.dtype(dtype).kind == "f" or (hermitian and not two) else 0.75 - 0.5j
        beta = -0.5 if np.dtype(dtype).kind == "f" or hermitian else -0.5 + 0.25j
        a = data(rng, (k, n) if trans else (n, k), dtype)
        b = data(rng, a.shape, dtype)
        c0 = data(rng, (n, n), dtype)
        if hermitian:
            c0 = c0 - 1j * np.diag(np.diag(c0).imag)
        keep = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
        c = np.where(keep, c0, np.nan)
        A, B, C = (place(a, layouts[0]), place(b, layouts[0]), place(c, layouts[1]))
        name = ("her" if hermitian else "syr") + ("2k" if two else "k")
        call = ((lambda: glblas.syr2k(A, B, C, alpha, beta, lower, trans, hermitian)) if two
                else (lambda: glblas.syrk(A, C, alpha, beta, lower, trans, hermitian)))
        got = computed(dtype, call)
        if got is None:
            return
        assert got is C

        def op(x):
            x = x.astype(np.clongdouble)
            return (x.conj().T if hermitian else x.T) if trans else x
        adj = (lambda x: x.conj().T) if hermitian else (lambda x: x.T)
        pa, pb = op(a), op(b)
        if two:
            prod = alpha * pa @ adj(pb) + (np.conj(alpha) if hermitian else alpha) * pb @ adj(pa)
            mags = abs(alpha) * (abs(pa) @ abs(pb).T + abs(pb) @ abs(pa).T)
        else:
            prod, mags = alpha * pa @ adj(pa), abs(alpha) * abs(pa) @ abs(pa).T
        want = prod + beta * c0
        depth = 2 * k if two else k
        bound = 2 * (2 * depth + 6) * u * (mags + abs(beta) * abs(c0))
        got = host(C)
        what = f"{name} lower={lower} trans={trans} {layouts}"
        assert_within(np.where(keep, got, 0), np.where(keep, want, 0), bound, what)
        assert np.all(np.isnan(got[~keep])), f"{what}: the other triangle was written"
        if hermitian:
            assert np.all(np.diag(got).imag == 0), f"{what}: diagonal not real"


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layouts", LEVEL3_LAYOUTS, ids="-".join)
def test_trmm_and_trsm(rng, dtype, layouts):
    """trmm against long double (bound as symm's); trsm by its residual op(a) x - alpha b within
    2 * 4 (n+2) u (|op(a)||x| + |alpha b|) (as tests/level3.rs), a diagonally dominant; a's
    other triangle NaN, its diagonal too when unit."""
    u, (m, n) = unit_roundoff(dtype), (7, 5)
    alpha = -1.25 if np.dtype(dtype).kind == "f" else -1.25 + 0.5j
    for solve, side, lower, trans, unit in itertools.product(
            [False, True], ["left", "right"], [True, False], [False, True], [False, True]):
        order = m if side == "left" else n
        raw = data(rng, (order, order), dtype) / order
        raw[np.diag_indices(order)] = 1 + np.abs(data(rng, order, np.float64))
        a, part = triangle(raw, lower, np.nan)
        if unit:
            a[np.diag_indices(order)] = np.nan
            part[np.diag_indices(order)] = 1
        b = data(rng, (m, n), dtype)
        A, B = place(a, layouts[0]), place(b, layouts[1])
        routine = glblas.trsm if solve else glblas.trmm
        got = computed(dtype, lambda: routine(A, B, alpha, side, lower, trans, unit))
        if got is None:
            return
        assert got is B
        opa = (part.T if trans else part).astype(np.clongdouble)
        bw = b.astype(np.clongdouble)
        what = f"{'trsm' if solve else 'trmm'} {side} lower={lower} trans={trans} unit={unit}"
        if solve:
            x = np.asarray(host(B), np.clongdouble)
            res, mags = (opa @ x, abs(opa) @ abs(x)) if side == "left" else (x @ opa,
                                                                             abs(x) @ abs(opa))
            bound = 2 * 4 * (order + 2) * u * (mags + abs(alpha) * abs(bw))
            assert_within(res, alpha * bw, bound, f"{what} {layouts}")
        else:
            prod, mags = (opa @ bw, abs(opa) @ abs(bw)) if side == "left" else (bw @ opa,
                                                                                abs(bw) @ abs(opa))
            bound = 2 * (2 * order + 6) * u * abs(alpha) * mags
            assert_within(B, alpha * prod, bound, f"{what} {layouts}")


def test_level3_arguments_are_checked():
    a, b = np.eye(3, dtype=np.float32), np.ones((3, 2), np.float32)
    with pytest.raises(ValueError, match="side"):
        glblas.symm(a, b, side="top")
    with pytest.raises(ValueError, match=r"expected \(2, 2\)"):
        glblas.trsm(a, b, side="right")
    with pytest.raises(TypeError, match="hermitian=True needs complex"):
        glblas.syrk(a, hermitian=True)
    with pytest.raises(ValueError, match="beta is nonzero"):
        glblas.syrk(a, beta=1.0)
