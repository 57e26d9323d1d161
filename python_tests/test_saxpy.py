"""glblasSaxpy: y = alpha*x + y against a float64 reference (bounds: see reference.py)."""

import numpy as np
import pytest

import helpers as g
from glblas import GLBLAS_STATUS_INVALID_VALUE, GLBLAS_STATUS_SUCCESS
from helpers import bits, vec_arg
from reference import assert_close, saxpy_ref, saxpy_ref_flat

SIZES = [1, 2, 3, 7, 31, 64, 257, 1000, 4099, 65537]
ALPHAS = [1.0, -0.5, 2.75, 3.1e-3]


def randv(rng, n):
    return rng.standard_normal(n).astype(np.float32)


@pytest.mark.parametrize("n", SIZES)
def test_saxpy_contiguous(lib, rng, n):
    alpha = ALPHAS[n % len(ALPHAS)]
    x = randv(rng, n)
    y = randv(rng, n)
    ref, bound = saxpy_ref(alpha, x, y)
    x0 = x.copy()
    g.check(lib, g.saxpy(lib, alpha, x, y))
    assert_close(y, ref, bound, f"saxpy n={n}")
    assert np.array_equal(bits(x), bits(x0)), "x modified"


@pytest.mark.parametrize("alpha", ALPHAS + [-1.0, 1e10])
def test_saxpy_alphas(lib, rng, alpha):
    n = 129
    x = randv(rng, n)
    y = randv(rng, n)
    ref, bound = saxpy_ref(alpha, x, y)
    g.check(lib, g.saxpy(lib, alpha, x, y))
    assert_close(y, ref, bound, f"saxpy alpha={alpha}")


STRIDES = [(2, 1), (1, 3), (-1, 1), (1, -1), (-1, -1), (-2, -3), (3, -2), (5, 7), (-4, 2)]


@pytest.mark.parametrize("n", [1, 2, 5, 37, 1000])
@pytest.mark.parametrize("incx,incy", STRIDES)
def test_saxpy_strided(lib, rng, n, incx, incy):
    """Positive and negative increments; the gaps hold NaN (x: a wrong stride would read them;
    y: they must stay untouched)."""
    alpha = -1.25
    xv = randv(rng, n)
    yv = randv(rng, n)
    xb, x = g.strided_vector(xv, incx)
    yb, y = g.strided_vector(yv, incy)
    ref, bound = saxpy_ref(alpha, xv, yv)
    xb0, yb0 = bits(xb), bits(yb)
    g.check(lib, g.saxpy(lib, alpha, x, y))
    assert_close(y, ref, bound, f"saxpy n={n} incx={incx} incy={incy}")
    mask = np.ones(yb.shape, bool)
    p, inc = vec_arg(y)
    off = (p - yb.ctypes.data) // 4
    mask[off + np.arange(n) * abs(inc)] = False
    assert np.array_equal(bits(yb)[mask], yb0[mask]), "elements of y's buffer outside the vector changed"
    assert np.array_equal(bits(xb), xb0), "x modified"


def test_saxpy_negative_inc_order(lib):
    """With incx < 0 element i of x is x[(n-1-i)*|incx|] (reference BLAS), exactly checkable
    with small integers."""
    buf = np.array([1, 10, 100, 1000], dtype=np.float32)  # x traversed reversed: 1000,100,10,1
    y = np.zeros(4, dtype=np.float32)
    g.check(lib, lib.glblasSaxpy(4, 1.0, buf.ctypes.data, -1, y.ctypes.data, 1))
    assert y.tolist() == [1000, 100, 10, 1]
    y = np.zeros(4, dtype=np.float32)
    g.check(lib, lib.glblasSaxpy(4, 1.0, buf.ctypes.data, 1, y.ctypes.data, -1))
    assert y.tolist() == [1000, 100, 10, 1]
    y = np.zeros(4, dtype=np.float32)
    g.check(lib, lib.glblasSaxpy(4, 1.0, buf.ctypes.data, -1, y.ctypes.data, -1))
    assert y.tolist() == [1, 10, 100, 1000]
    y = np.zeros(5, dtype=np.float32)
    g.check(lib, lib.glblasSaxpy(2, 1.0, buf.ctypes.data, -3, y.ctypes.data, 2))
    assert y.tolist() == [1000, 0, 1, 0, 0]


def test_saxpy_noncontiguous_views(lib, rng):
    """A column of a C-ordered matrix (stride = ncols) into a row of a Fortran matrix
    (stride = nrows), and a reversed column."""
    Mc = rng.standard_normal((50, 7)).astype(np.float32)
    Mf = np.asfortranarray(rng.standard_normal((9, 50)).astype(np.float32))
    x = Mc[:, 3]
    y = Mf[4, :]
    ref, bound = saxpy_ref(0.75, x, y)
    Mf0 = Mf.copy()
    g.check(lib, g.saxpy(lib, 0.75, x, y))
    assert_close(y, ref, bound, "column -> row")
    other = np.ones(Mf.shape, bool)
    other[4, :] = False
    assert np.array_equal(bits(Mf)[other], bits(Mf0)[other])

    x = Mc[::-1, 5]  # negative stride view
    y = Mf[2, ::-1]
    ref, bound = saxpy_ref(-2.0, x, y)
    g.check(lib, g.saxpy(lib, -2.0, x, y))
    assert_close(y, ref, bound, "reversed column -> reversed row")


@pytest.mark.parametrize("n", [1, 6, 100])
def test_saxpy_incx_zero(lib, rng, n):
    """incx = 0: x[0] is used for every i."""
    x = np.array([rng.standard_normal()], dtype=np.float32)
    y = randv(rng, n)
    ref, bound = saxpy_ref(1.5, np.full(n, x[0]), y)
    g.check(lib, lib.glblasSaxpy(n, 1.5, x.ctypes.data, 0, y.ctypes.data, 1))
    assert_close(y, ref, bound, "incx=0")


@pytest.mark.parametrize("n", [1, 6, 100, 5000])
@pytest.mark.parametrize("incx", [1, -2, 0])
def test_saxpy_incy_zero_accumulates(lib, rng, n, incx):
    """incy = 0: every term goes into y[0] (y[0] + alpha*sum x), as the reference loop does."""
    alpha = -0.625
    xb, x = g.strided_vector(randv(rng, n) if incx != 0 else np.full(n, np.float32(0.3)), incx)
    px, ix = vec_arg(x)
    buf = np.concatenate([xb, np.array([rng.standard_normal(), np.nan], dtype=np.float32)])
    xoff = (px - xb.ctypes.data) // 4
    yoff = xb.shape[0]
    ref, bound = saxpy_ref_flat(buf, n, alpha, xoff, ix, yoff, 0)
    g.check(lib, lib.glblasSaxpy(n, alpha, buf.ctypes.data + 4 * xoff, ix,
                                 buf.ctypes.data + 4 * yoff, 0))
    assert_close(buf[yoff], ref[yoff], bound[yoff], f"incy=0 n={n} incx={incx}")
    assert np.isnan(buf[yoff + 1])
    assert np.array_equal(bits(buf[:yoff]), bits(xb)), "x modified"


def test_saxpy_alpha_zero_quick_return(lib, rng):
    """alpha == 0: quick return, y untouched bit for bit even though x holds NaN/Inf."""
    n = 33
    x = randv(rng, n)
    x[::3] = np.nan
    x[1] = np.inf
    y = randv(rng, n)
    y[5] = np.nan
    y0 = bits(y)
    g.check(lib, g.saxpy(lib, 0.0, x, y))
    assert np.array_equal(bits(y), y0)
    g.check(lib, g.saxpy(lib, -0.0, x, y))
    assert np.array_equal(bits(y), y0)


@pytest.mark.parametrize("n", [0, -1, -7])
def test_saxpy_n_nonpositive(lib, rng, n):
    x = randv(rng, 4)
    y = randv(rng, 4)
    y0 = bits(y)
    assert lib.glblasSaxpy(n, 2.0, x.ctypes.data, 1, y.ctypes.data, 1) == GLBLAS_STATUS_SUCCESS
    assert np.array_equal(bits(y), y0)
    # with n <= 0 the vector pointers may be NULL
    assert lib.glblasSaxpy(n, 2.0, None, 1, None, 1) == GLBLAS_STATUS_SUCCESS
    assert lib.glblasSaxpy(n, 2.0, None, 0, None, -3) == GLBLAS_STATUS_SUCCESS


def test_saxpy_null_pointers(lib, rng):
    x = randv(rng, 8)
    y = randv(rng, 8)
    y0 = bits(y)
    assert lib.glblasSaxpy(8, 2.0, None, 1, y.ctypes.data, 1) == GLBLAS_STATUS_INVALID_VALUE
    assert np.array_equal(bits(y), y0), "y changed by a failed call"
    assert lib.glblasSaxpy(8, 2.0, x.ctypes.data, 1, None, 1) == GLBLAS_STATUS_INVALID_VALUE


# ---- overlapping x and y: the result is what the sequential reference loop computes ---------

# (n, xoff, incx, yoff, incy) on one flat buffer of length 64
OVERLAPS = [
    (20, 0, 1, 0, 1),     # x is y: y = (1+alpha) y
    (20, 0, 1, 1, 1),     # y one ahead of x: recurrence y[i+1] += a*y[i] (updated value)
    (20, 1, 1, 0, 1),     # x one ahead: reads not-yet-updated values
    (20, 0, -1, 0, 1),    # x is y reversed: second half sees updated first half
    (20, 0, 1, 0, -1),
    (15, 0, 2, 1, 3),     # interleaved strides
    (15, 3, -2, 0, 2),
    (12, 0, 3, 2, -2),
    (30, 0, 2, 2, 2),     # y two ahead of x with the same stride: recurrence
]


def _overlap_case(rng, case):
    n, xoff, incx, yoff, incy = case
    alpha = 0.5  # |alpha| < 1 keeps the recurrences well conditioned
    buf = rng.standard_normal(64).astype(np.float32)
    ref, bound = saxpy_ref_flat(buf, n, alpha, xoff, incx, yoff, incy)
    return alpha, buf, ref, bound


@pytest.mark.parametrize("case", OVERLAPS)
def test_saxpy_overlap_host(lib, rng, case):
    n, xoff, incx, yoff, incy = case
    alpha, buf, ref, bound = _overlap_case(rng, case)
    a = buf.ctypes.data
    g.check(lib, lib.glblasSaxpy(n, alpha, a + 4 * xoff, incx, a + 4 * yoff, incy))
    assert_close(buf, ref, bound, f"overlap {case}")


@pytest.mark.parametrize("case", OVERLAPS)
def test_saxpy_overlap_device(lib, rng, case):
    n, xoff, incx, yoff, incy = case
    alpha, buf, ref, bound = _overlap_case(rng, case)
    with g.DeviceBuffer(lib, buf.nbytes) as d:
        d.upload(buf)
        g.check(lib, lib.glblasSaxpy(n, alpha, d.at(4 * xoff), incx, d.at(4 * yoff), incy))
        out = np.empty_like(buf)
        d.download(out)
    assert_close(out, ref, bound, f"device overlap {case}")


# ---- device memory -----------------------------------------------------------------------------

@pytest.mark.parametrize("n,incx,incy", [(1, 1, 1), (1000, 1, 1), (77, 2, -3), (300, -1, 4)])
@pytest.mark.parametrize("where", ["dd", "hd", "dh"])
def test_saxpy_device(lib, rng, n, incx, incy, where):
    """x and/or y in device memory, at interior offsets of their allocations (host->device,
    run, device->host)."""
    alpha = 1.75
    xv, yv = randv(rng, n), randv(rng, n)
    xb, x = g.strided_vector(xv, incx)
    yb, y = g.strided_vector(yv, incy)
    ref, bound = saxpy_ref(alpha, xv, yv)
    yb0 = yb.copy()
    with g.Mirror(lib, xb) as mx, g.Mirror(lib, yb) as my:
        px, ix = mx.vec_arg(x, where[0] == "d")
        py, iy = my.vec_arg(y, where[1] == "d")
        g.check(lib, lib.glblasSaxpy(n, alpha, px, ix, py, iy))
        if where[1] == "d":
            my.fetch()  # overwrite host yb with the device result
            # the padding around y in the device allocation is untouched too
    assert_close(y, ref, bound, f"saxpy {where} n={n}")
    mask = np.ones(yb.shape, bool)
    p, inc = vec_arg(y)
    off = (p - yb.ctypes.data) // 4
    mask[off + np.arange(n) * abs(inc)] = False
    assert np.array_equal(bits(yb)[mask], bits(yb0)[mask])


def test_saxpy_device_same_buffer_x_y(lib, rng):
    """x and y both inside one device allocation, disjoint ranges."""
    n = 500
    buf = rng.standard_normal(2 * n + 10).astype(np.float32)
    xv = buf[3:3 + n].copy()
    yv = buf[n + 7:n + 7 + n].copy()
    ref, bound = saxpy_ref(-3.0, xv, yv)
    with g.Mirror(lib, buf) as m:
        g.check(lib, lib.glblasSaxpy(n, -3.0, m.buf.at(12), 1, m.buf.at(4 * (n + 7)), 1))
        m.fetch()
    assert_close(buf[n + 7:n + 7 + n], ref, bound, "same allocation")
    assert np.array_equal(buf[3:3 + n], xv)
