"""glblasSdot: sum x_i*y_i against a float64 reference; |err| <= 2*n*eps*sum|x_i*y_i|
(reference.sdot_ref)."""

import ctypes

import numpy as np
import pytest

import helpers as g
from glblas import GLBLAS_STATUS_INVALID_VALUE, GLBLAS_STATUS_SUCCESS
from helpers import bits, vec_arg
from reference import assert_close, sdot_ref

SIZES = [1, 2, 3, 5, 17, 64, 127, 1024, 4097, 65537, 1000003]


def randv(rng, n):
    return rng.standard_normal(n).astype(np.float32)


@pytest.mark.parametrize("n", SIZES)
def test_sdot_contiguous(lib, rng, n):
    x, y = randv(rng, n), randv(rng, n)
    x0, y0 = bits(x), bits(y)
    ref, bound = sdot_ref(x, y)
    st, r = g.sdot(lib, x, y)
    g.check(lib, st)
    assert_close(r, ref, bound, f"sdot n={n}")
    assert np.array_equal(bits(x), x0) and np.array_equal(bits(y), y0)


def test_sdot_exact_small_integers(lib):
    x = np.arange(1, 101, dtype=np.float32)
    st, r = g.sdot(lib, x, x)
    g.check(lib, st)
    assert r == 338350.0  # sum i^2, every partial sum exact in fp32


def test_sdot_positive_terms_large_n(lib, rng):
    """All terms positive: no cancellation, so the bound is tight relative to the result."""
    n = 300007
    x = rng.uniform(0.5, 1.5, n).astype(np.float32)
    y = rng.uniform(0.5, 1.5, n).astype(np.float32)
    ref, bound = sdot_ref(x, y)
    st, r = g.sdot(lib, x, y)
    g.check(lib, st)
    assert_close(r, ref, bound, "positive terms")


STRIDES = [(2, 1), (1, 3), (-1, 1), (1, -1), (-1, -1), (-2, -3), (3, -2), (7, 5)]


@pytest.mark.parametrize("n", [1, 2, 9, 100, 3001])
@pytest.mark.parametrize("incx,incy", STRIDES)
def test_sdot_strided(lib, rng, n, incx, incy):
    """Positive and negative increments; the gaps hold NaN, so reading a wrong element shows."""
    xv, yv = randv(rng, n), randv(rng, n)
    _, x = g.strided_vector(xv, incx)
    _, y = g.strided_vector(yv, incy)
    ref, bound = sdot_ref(xv, yv)
    st, r = g.sdot(lib, x, y)
    g.check(lib, st)
    assert_close(r, ref, bound, f"sdot n={n} incx={incx} incy={incy}")


def test_sdot_negative_inc_pairs_exact(lib):
    """Element i with inc < 0 is base[(n-1-i)*|inc|]: pairing checked exactly."""
    x = np.array([1, 2, 4], dtype=np.float32)
    y = np.array([1, 10, 100], dtype=np.float32)
    r = ctypes.c_float(np.nan)
    g.check(lib, lib.glblasSdot(3, x.ctypes.data, -1, y.ctypes.data, 1, ctypes.byref(r)))
    assert r.value == 4 * 1 + 2 * 10 + 1 * 100
    g.check(lib, lib.glblasSdot(3, x.ctypes.data, -1, y.ctypes.data, -1, ctypes.byref(r)))
    assert r.value == 1 + 20 + 400
    yy = np.array([1, 0, 10, 0, 100], dtype=np.float32)
    g.check(lib, lib.glblasSdot(3, x.ctypes.data, 1, yy.ctypes.data, -2, ctypes.byref(r)))
    assert r.value == 1 * 100 + 2 * 10 + 4 * 1


def test_sdot_noncontiguous_views(lib, rng):
    Mc = rng.standard_normal((200, 5)).astype(np.float32)
    Mf = np.asfortranarray(rng.standard_normal((3, 200)).astype(np.float32))
    for x, y in [(Mc[:, 2], Mf[1, :]), (Mc[::-1, 4], Mf[2, :]), (Mc[::2, 0], Mf[0, ::-2])]:
        ref, bound = sdot_ref(x, y)
        st, r = g.sdot(lib, x, y)
        g.check(lib, st)
        assert_close(r, ref, bound, f"views strides {x.strides} {y.strides}")


@pytest.mark.parametrize("n", [1, 7, 1000])
def test_sdot_zero_increments(lib, rng, n):
    """inc = 0 uses element 0 for every i."""
    x0 = np.array([rng.standard_normal()], dtype=np.float32)
    y = randv(rng, n)
    r = ctypes.c_float(np.nan)
    ref, bound = sdot_ref(np.full(n, x0[0]), y)
    g.check(lib, lib.glblasSdot(n, x0.ctypes.data, 0, y.ctypes.data, 1, ctypes.byref(r)))
    assert_close(r.value, ref, bound, "incx=0")
    ref, bound = sdot_ref(y, np.full(n, x0[0]))
    g.check(lib, lib.glblasSdot(n, y.ctypes.data, 1, x0.ctypes.data, 0, ctypes.byref(r)))
    assert_close(r.value, ref, bound, "incy=0")
    y0 = np.array([rng.standard_normal()], dtype=np.float32)
    ref, bound = sdot_ref(np.full(n, x0[0]), np.full(n, y0[0]))
    g.check(lib, lib.glblasSdot(n, x0.ctypes.data, 0, y0.ctypes.data, 0, ctypes.byref(r)))
    assert_close(r.value, ref, bound, "both 0")


def test_sdot_same_vector(lib, rng):
    x = randv(rng, 999)
    ref, bound = sdot_ref(x, x)
    st, r = g.sdot(lib, x, x)
    g.check(lib, st)
    assert_close(r, ref, bound, "x.x")


@pytest.mark.parametrize("n", [0, -1, -10])
def test_sdot_n_nonpositive_writes_zero(lib, n):
    x = np.ones(4, dtype=np.float32)
    r = ctypes.c_float(np.nan)
    assert lib.glblasSdot(n, x.ctypes.data, 1, x.ctypes.data, 1, ctypes.byref(r)) == GLBLAS_STATUS_SUCCESS
    assert r.value == 0.0
    r = ctypes.c_float(np.nan)
    # with n <= 0 the vector pointers may be NULL
    assert lib.glblasSdot(n, None, 1, None, 1, ctypes.byref(r)) == GLBLAS_STATUS_SUCCESS
    assert r.value == 0.0


def test_sdot_invalid(lib):
    x = np.ones(4, dtype=np.float32)
    r = ctypes.c_float(123.0)
    assert lib.glblasSdot(4, x.ctypes.data, 1, x.ctypes.data, 1, None) == GLBLAS_STATUS_INVALID_VALUE
    assert lib.glblasSdot(0, x.ctypes.data, 1, x.ctypes.data, 1, None) == GLBLAS_STATUS_INVALID_VALUE
    assert lib.glblasSdot(4, None, 1, x.ctypes.data, 1, ctypes.byref(r)) == GLBLAS_STATUS_INVALID_VALUE
    assert r.value == 123.0, "result written by a failed call"
    assert lib.glblasSdot(4, x.ctypes.data, 1, None, 1, ctypes.byref(r)) == GLBLAS_STATUS_INVALID_VALUE
    assert r.value == 123.0, "result written by a failed call"


# ---- device memory -----------------------------------------------------------------------------

@pytest.mark.parametrize("n,incx,incy", [(1, 1, 1), (5000, 1, 1), (333, -2, 3), (64, 1, -1)])
@pytest.mark.parametrize("where", ["dd", "dh", "hd"])
def test_sdot_device_inputs(lib, rng, n, incx, incy, where):
    """x and/or y in device memory at interior offsets; result on the host."""
    xv, yv = randv(rng, n), randv(rng, n)
    xb, x = g.strided_vector(xv, incx)
    yb, y = g.strided_vector(yv, incy)
    ref, bound = sdot_ref(xv, yv)
    with g.Mirror(lib, xb) as mx, g.Mirror(lib, yb) as my:
        px, ix = mx.vec_arg(x, where[0] == "d")
        py, iy = my.vec_arg(y, where[1] == "d")
        r = ctypes.c_float(np.nan)
        g.check(lib, lib.glblasSdot(n, px, ix, py, iy, ctypes.byref(r)))
    assert_close(r.value, ref, bound, f"sdot {where}")


@pytest.mark.parametrize("inputs_on_device", [False, True])
def test_sdot_device_result(lib, rng, inputs_on_device):
    """result is itself a device pointer (interior, between other data): it stays on the device,
    read back with glblasMemcpy; the neighbours are untouched."""
    n = 777
    x, y = randv(rng, n), randv(rng, n)
    ref, bound = sdot_ref(x, y)
    slots = np.arange(8, dtype=np.float32) + 0.5
    with g.DeviceBuffer(lib, slots.nbytes) as dres, g.Mirror(lib, x) as mx, g.Mirror(lib, y) as my:
        dres.upload(slots)
        px, py = (mx.dev(x.ctypes.data), my.dev(y.ctypes.data)) if inputs_on_device \
            else (x.ctypes.data, y.ctypes.data)
        g.check(lib, lib.glblasSdot(n, px, 1, py, 1, dres.at(3 * 4)))
        out = np.full(8, np.nan, dtype=np.float32)
        dres.download(out)
        # n <= 0 writes 0 to a device result too
        g.check(lib, lib.glblasSdot(0, None, 1, None, 1, dres.at(5 * 4)))
        g.check(lib, lib.glblasSync())
        out2 = np.full(8, np.nan, dtype=np.float32)
        dres.download(out2)
    assert_close(out[3], ref, bound, "device result")
    keep = [0, 1, 2, 4, 5, 6, 7]
    assert np.array_equal(out[keep], slots[keep])
    assert out2[5] == 0.0
    assert out2[3] == out[3]
    assert np.array_equal(out2[[0, 1, 2, 4, 6, 7]], slots[[0, 1, 2, 4, 6, 7]])
