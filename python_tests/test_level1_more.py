"""glblasSscal, glblasScopy, glblasSswap, glblasSasum against references (reference.py).

Tolerances, from the fp32 error model (eps = 2^-24, see reference.py):
* sscal: one rounded multiply per element, |err_i| <= 2*eps*|alpha*x_i| (reference.sscal_ref).
* scopy, sswap: no arithmetic at all, so the results are exact and compared bit for bit with the
  reference sequential loop (reference.scopy_ref_flat / sswap_ref_flat), including overlapping
  ranges and zero increments.
* sasum: n-1 additions of exact |x_i|, |err| <= 2*n*eps*sum|x_i| (reference.sasum_ref).
"""

import ctypes

import numpy as np
import pytest

import helpers as g
from glblas import GLBLAS_STATUS_INVALID_VALUE, GLBLAS_STATUS_SUCCESS
from helpers import bits, rand32, view_mask
from reference import (assert_close, blas_index, sasum_ref, scopy_ref_flat, sscal_ref,
                       sswap_ref_flat)

INV = GLBLAS_STATUS_INVALID_VALUE
OK = GLBLAS_STATUS_SUCCESS

SIZES = [1, 2, 3, 7, 31, 64, 257, 1000, 4099, 65537]
# (incx, incy) pairs: positive, negative and mixed increments
STRIDES = [(2, 1), (1, 3), (-1, 1), (1, -1), (-1, -1), (-2, -3), (3, -2), (5, 7)]


def assert_bits_equal(got, expect, what):
    gb, eb = bits(got), bits(expect)
    bad = np.flatnonzero(gb.ravel() != eb.ravel())
    assert bad.size == 0, (f"{what}: {bad.size} elements differ, first at {bad[:8].tolist()}: "
                           f"got {np.ravel(got)[bad[:8]].tolist()} "
                           f"expected {np.ravel(expect)[bad[:8]].tolist()}")


def assert_gaps_untouched(base, view, before, what="buffer"):
    gaps = ~view_mask(base, view)
    assert np.array_equal(bits(base)[gaps], before[gaps]), \
        f"elements of the {what} outside the vector changed"


# ==== sscal =====================================================================================

@pytest.mark.parametrize("n", SIZES)
def test_sscal_contiguous(lib, rng, n):
    alpha = [1.5, -0.3, 2.75, 3.1e-3][n % 4]
    x = rand32(rng, n)
    ref, bound = sscal_ref(alpha, x)
    g.check(lib, g.sscal(lib, alpha, x))
    assert_close(x, ref, bound, f"sscal n={n}")


@pytest.mark.parametrize("n", [1, 5, 37, 1000])
@pytest.mark.parametrize("inc", [2, 3, 7])
def test_sscal_strided(lib, rng, n, inc):
    """The gaps hold NaN and must stay untouched."""
    xv = rand32(rng, n)
    xb, x = g.strided_vector(xv, inc)
    before = bits(xb)
    ref, bound = sscal_ref(-1.25, xv)
    g.check(lib, g.sscal(lib, -1.25, x))
    assert_close(x, ref, bound, f"sscal n={n} inc={inc}")
    assert_gaps_untouched(xb, x, before)


def test_sscal_matrix_views(lib, rng):
    """A column of a C-ordered matrix (stride = ncols), a row and a column of a Fortran matrix;
    everything else in the matrix is untouched."""
    Mc = rand32(rng, 50, 7)
    Mf = np.asfortranarray(rand32(rng, 9, 50))
    for M, idx in [(Mc, (slice(None), 3)), (Mf, (4, slice(None))), (Mf, (slice(None), 10))]:
        v = M[idx]
        ref, bound = sscal_ref(0.75, v)
        before = M.copy()
        g.check(lib, g.sscal(lib, 0.75, v))
        assert_close(v, ref, bound, f"sscal view strides {v.strides}")
        other = np.ones(M.shape, bool)
        other[idx] = False
        assert np.array_equal(bits(M)[other], bits(before)[other])


@pytest.mark.parametrize("alpha", [1.0, -1.0, 2.0, -0.5])
def test_sscal_exact_alphas(lib, rng, alpha):
    """alpha = +-1 and powers of two: alpha*x_i is representable (normal data, no overflow or
    underflow), so the single rounding of sscal_ref's bound is exact: result == alpha*x bit for
    bit."""
    x = rand32(rng, 300)
    expect = (np.float32(alpha) * x).astype(np.float32)
    g.check(lib, g.sscal(lib, alpha, x))
    assert_bits_equal(x, expect, f"sscal alpha={alpha}")


@pytest.mark.parametrize("alpha", [0.0, -0.0])
def test_sscal_alpha_zero_multiplies(lib, rng, alpha):
    """alpha == 0 is not a shortcut: reference sscal multiplies every element, so finite values
    become (signed) zero and NaN, Inf and -Inf become NaN (Inf*0 = NaN)."""
    n = 40
    x = rand32(rng, n)
    special = [3, 7, 8, 30]
    x[special] = [np.nan, np.inf, -np.inf, np.nan]
    g.check(lib, g.sscal(lib, alpha, x))
    finite = np.ones(n, bool)
    finite[special] = False
    assert np.all(x[finite] == 0.0), x[finite]
    assert np.all(np.isnan(x[special])), x[special]


def test_sscal_nonfinite_values(lib):
    x = np.array([np.inf, -np.inf, np.nan, 1.0, -0.0], dtype=np.float32)
    g.check(lib, g.sscal(lib, -2.0, x))
    assert x[0] == -np.inf and x[1] == np.inf and np.isnan(x[2]) and x[3] == -2.0
    assert x[4] == 0.0 and not np.signbit(x[4])  # -2 * -0 = +0


@pytest.mark.parametrize("incx", [0, -1, -3])
def test_sscal_nonpositive_inc_does_nothing(lib, rng, incx):
    """Reference sscal returns at once for incx <= 0: x untouched (host and device), and x may
    be NULL then."""
    x = rand32(rng, 16)
    x0 = bits(x)
    assert lib.glblasSscal(5, 2.0, x.ctypes.data, incx) == OK
    assert np.array_equal(bits(x), x0)
    assert lib.glblasSscal(5, 2.0, None, incx) == OK
    with g.Mirror(lib, x) as m:
        assert lib.glblasSscal(5, 2.0, m.buf.at(4), incx) == OK
        m.fetch()
    assert np.array_equal(bits(x), x0)


@pytest.mark.parametrize("n", [0, -1, -7])
def test_sscal_n_nonpositive(lib, rng, n):
    x = rand32(rng, 4)
    x0 = bits(x)
    assert lib.glblasSscal(n, 2.0, x.ctypes.data, 1) == OK
    assert np.array_equal(bits(x), x0)
    assert lib.glblasSscal(n, 2.0, None, 1) == OK
    assert lib.glblasSscal(n, 2.0, None, -2) == OK


def test_sscal_null(lib):
    assert lib.glblasSscal(8, 2.0, None, 1) == INV
    assert lib.glblasSscal(1, 0.0, None, 3) == INV


@pytest.mark.parametrize("n,inc", [(1, 1), (1000, 1), (77, 3), (4099, 2)])
def test_sscal_device(lib, rng, n, inc):
    """x in device memory at an interior offset; the rest of the allocation is untouched."""
    alpha = -3.5
    xv = rand32(rng, n)
    xb, x = g.strided_vector(xv, inc)
    before = bits(xb)
    ref, bound = sscal_ref(alpha, xv)
    with g.Mirror(lib, xb) as m:
        px, ix = m.vec_arg(x, True)
        g.check(lib, lib.glblasSscal(n, alpha, px, ix))
        m.fetch()
    assert_close(x, ref, bound, f"device sscal n={n} inc={inc}")
    assert_gaps_untouched(xb, x, before, "device allocation")


# ==== scopy and sswap: exact ====================================================================

@pytest.mark.parametrize("n", SIZES)
def test_scopy_contiguous(lib, rng, n):
    x = rand32(rng, n)
    x0 = bits(x)
    y = np.full(n, np.nan, dtype=np.float32)
    g.check(lib, g.scopy(lib, x, y))
    assert_bits_equal(y, x, f"scopy n={n}")
    assert np.array_equal(bits(x), x0), "x modified"


@pytest.mark.parametrize("n", SIZES)
def test_sswap_contiguous(lib, rng, n):
    x, y = rand32(rng, n), rand32(rng, n)
    x0, y0 = x.copy(), y.copy()
    g.check(lib, g.sswap(lib, x, y))
    assert_bits_equal(x, y0, f"sswap x n={n}")
    assert_bits_equal(y, x0, f"sswap y n={n}")


@pytest.mark.parametrize("n", [1, 2, 37, 1000])
@pytest.mark.parametrize("incx,incy", STRIDES)
def test_scopy_strided(lib, rng, n, incx, incy):
    """x's gaps hold NaN (a wrong read shows), y's gaps a sentinel that must stay untouched."""
    xv, yv = rand32(rng, n), rand32(rng, n)
    xb, x = g.strided_vector(xv, incx)
    yb, y = g.strided_vector(yv, incy, fill=-7.0)
    xb0, yb0 = bits(xb), bits(yb)
    g.check(lib, g.scopy(lib, x, y))
    assert_bits_equal(y, xv, f"scopy n={n} incx={incx} incy={incy}")
    assert_gaps_untouched(yb, y, yb0, "y buffer")
    assert np.array_equal(bits(xb), xb0), "x modified"


@pytest.mark.parametrize("n", [1, 2, 37, 1000])
@pytest.mark.parametrize("incx,incy", STRIDES)
def test_sswap_strided(lib, rng, n, incx, incy):
    xv, yv = rand32(rng, n), rand32(rng, n)
    xb, x = g.strided_vector(xv, incx, fill=-5.0)
    yb, y = g.strided_vector(yv, incy, fill=-7.0)
    xb0, yb0 = bits(xb), bits(yb)
    g.check(lib, g.sswap(lib, x, y))
    assert_bits_equal(x, yv, f"sswap x n={n} incx={incx} incy={incy}")
    assert_bits_equal(y, xv, f"sswap y n={n} incx={incx} incy={incy}")
    assert_gaps_untouched(xb, x, xb0, "x buffer")
    assert_gaps_untouched(yb, y, yb0, "y buffer")


def test_scopy_negative_inc_order(lib):
    """With inc < 0 element i is base[(n-1-i)*|inc|] (reference BLAS), checked exactly."""
    buf = np.array([1, 10, 100, 1000], dtype=np.float32)
    for incx, incy, expect in [(-1, 1, [1000, 100, 10, 1]), (1, -1, [1000, 100, 10, 1]),
                               (-1, -1, [1, 10, 100, 1000])]:
        y = np.zeros(4, dtype=np.float32)
        g.check(lib, lib.glblasScopy(4, buf.ctypes.data, incx, y.ctypes.data, incy))
        assert y.tolist() == expect, (incx, incy)
    y = np.zeros(5, dtype=np.float32)
    g.check(lib, lib.glblasScopy(2, buf.ctypes.data, -3, y.ctypes.data, 2))
    assert y.tolist() == [1000, 0, 1, 0, 0]


def test_sswap_negative_inc_order(lib):
    x = np.array([1, 2, 3], dtype=np.float32)
    y = np.array([10, 20, 30], dtype=np.float32)
    g.check(lib, lib.glblasSswap(3, x.ctypes.data, -1, y.ctypes.data, 1))
    assert x.tolist() == [30, 20, 10] and y.tolist() == [3, 2, 1]
    x = np.array([1, 2, 3], dtype=np.float32)
    y = np.array([10, 0, 20, 0, 30], dtype=np.float32)
    g.check(lib, lib.glblasSswap(3, x.ctypes.data, 1, y.ctypes.data, -2))
    assert x.tolist() == [30, 20, 10] and y.tolist() == [3, 0, 2, 0, 1]


def test_scopy_sswap_special_values(lib):
    """-0, +-Inf, the extreme normal values and NaN go through unchanged (NaN stays NaN; its
    payload is not checked)."""
    v = np.array([-0.0, np.inf, -np.inf, np.nan, 3.4e38, -1.2e-38, 1.0, -np.nan], dtype=np.float32)
    nan = np.isnan(v)
    y = np.zeros_like(v)
    g.check(lib, g.scopy(lib, v, y))
    assert np.all(np.isnan(y[nan]))
    assert_bits_equal(y[~nan], v[~nan], "scopy special values")
    x = v.copy()
    w = np.arange(v.size, dtype=np.float32)
    g.check(lib, g.sswap(lib, x, w))
    assert np.all(np.isnan(w[nan]))
    assert_bits_equal(w[~nan], v[~nan], "sswap special values")
    assert x.tolist() == list(range(v.size))


def test_scopy_sswap_matrix_views(lib, rng):
    """A column of a C-ordered matrix and a (reversed) row of a Fortran matrix."""
    Mc = rand32(rng, 50, 7)
    Mf = np.asfortranarray(rand32(rng, 9, 50))
    x, y = Mc[:, 3], Mf[4, ::-1]
    x0 = x.copy()
    g.check(lib, g.scopy(lib, x, y))
    assert_bits_equal(Mf[4, ::-1], x0, "scopy column -> reversed row")
    a, b = Mc[::-1, 5], Mf[2, :]
    a0, b0 = a.copy(), b.copy()
    g.check(lib, g.sswap(lib, a, b))
    assert_bits_equal(Mc[::-1, 5], b0, "sswap reversed column")
    assert_bits_equal(Mf[2, :], a0, "sswap row")


# ---- zero increments and overlapping ranges: the reference sequential loop, exactly ----------

# (n, xoff, incx, yoff, incy) on one flat buffer of 64 floats
FLAT_CASES = [
    (20, 0, 0, 30, 1),    # incx = 0: x[0] used for every i
    (20, 0, 1, 30, 0),    # incy = 0: scopy leaves y[0] = x(n-1); sswap rotates
    (20, 0, -1, 30, 0),   # incy = 0 with incx < 0: x(n-1) is the lowest-address element
    (15, 0, 3, 50, 0),
    (10, 5, 0, 40, 0),    # both zero
    (20, 0, 0, 20, -2),
    (5, 10, 0, 10, 1),    # incx = 0 and x[0] is y(0)
    (20, 0, 1, 0, 1),     # x is y
    (20, 0, 1, 1, 1),     # y one ahead of x: the loop reads values it has just written
    (20, 1, 1, 0, 1),     # x one ahead: shift down
    (20, 0, -1, 0, 1),    # y is x reversed
    (20, 0, 1, 0, -1),
    (15, 0, 2, 1, 3),     # interleaved strides
    (15, 3, -2, 0, 2),
    (12, 0, 3, 2, -2),
    (30, 0, 2, 2, 2),     # y two ahead with the same stride
]


def _indices(n, off, inc):
    return {blas_index(i, n, off, inc) for i in range(n)}


def _disjoint(case):
    n, xoff, incx, yoff, incy = case
    return not (_indices(n, xoff, incx) & _indices(n, yoff, incy))


# x / y in host memory (h) or in a device copy of the buffer (d); the mixed placements only for
# disjoint x and y (a host x and a device y can't share elements)
FLAT_PARAMS = [(c, w) for c in FLAT_CASES for w in ("hh", "dd", "hd", "dh")
               if w in ("hh", "dd") or _disjoint(c)]


def _run_flat(lib, fn, buf, case, where):
    """Run fn (glblasScopy or glblasSswap) on x and y inside the flat buffer ``buf`` placed as
    ``where`` says.  Returns the buffer as the call left it: the host copy's elements for the
    host operand, the device copy's elsewhere; checks that neither copy changed anywhere else."""
    n, xoff, incx, yoff, incy = case
    orig = buf.copy()
    with g.Mirror(lib, buf) as m:
        host = buf.ctypes.data
        px = m.buf.at(4 * xoff) if where[0] == "d" else host + 4 * xoff
        py = m.buf.at(4 * yoff) if where[1] == "d" else host + 4 * yoff
        g.check(lib, fn(n, px, incx, py, incy))
        dev = m.buf.download(np.empty_like(buf))
    on_host = np.zeros(buf.shape, bool)
    if where[0] == "h":
        on_host[list(_indices(n, xoff, incx))] = True
    if where[1] == "h":
        on_host[list(_indices(n, yoff, incy))] = True
    assert np.array_equal(bits(buf)[~on_host], bits(orig)[~on_host]), "host memory changed " \
        "outside the host operand"
    assert np.array_equal(bits(dev)[on_host], bits(orig)[on_host]), "device memory changed " \
        "outside the device operand"
    out = dev.copy()
    out[on_host] = buf[on_host]
    return out


@pytest.mark.parametrize("case,where", FLAT_PARAMS, ids=lambda v: str(v).replace(" ", ""))
def test_scopy_flat(lib, rng, case, where):
    buf = rand32(rng, 64)
    expect = scopy_ref_flat(buf, *case)
    got = _run_flat(lib, lib.glblasScopy, buf, case, where)
    assert_bits_equal(got, expect, f"scopy {case} {where}")


@pytest.mark.parametrize("case,where", FLAT_PARAMS, ids=lambda v: str(v).replace(" ", ""))
def test_sswap_flat(lib, rng, case, where):
    buf = rand32(rng, 64)
    expect = sswap_ref_flat(buf, *case)
    got = _run_flat(lib, lib.glblasSswap, buf, case, where)
    assert_bits_equal(got, expect, f"sswap {case} {where}")


def test_scopy_sswap_zero_inc_exact(lib):
    """The zero-increment rules spelled out with small integers."""
    x = np.array([1, 2, 3, 4], dtype=np.float32)
    y = np.zeros(4, dtype=np.float32)
    g.check(lib, lib.glblasScopy(4, x.ctypes.data, 0, y.ctypes.data, 1))
    assert y.tolist() == [1, 1, 1, 1]
    y = np.array([9, 8], dtype=np.float32)
    g.check(lib, lib.glblasScopy(4, x.ctypes.data, 1, y.ctypes.data, 0))
    assert y.tolist() == [4, 8]  # x(n-1)
    g.check(lib, lib.glblasScopy(4, x.ctypes.data, -1, y.ctypes.data, 0))
    assert y.tolist() == [1, 8]  # x(n-1) = x[0] for incx < 0
    # sswap, incx = 0: x[0] <-> y(0), then x[0] (now old y(0)) <-> y(1), ...: y shifts up by one
    # and x[0] ends with the old y(n-1)
    x = np.array([7, 0], dtype=np.float32)
    y = np.array([1, 2, 3, 4], dtype=np.float32)
    g.check(lib, lib.glblasSswap(4, x.ctypes.data, 0, y.ctypes.data, 1))
    assert x.tolist() == [4, 0] and y.tolist() == [7, 1, 2, 3]


@pytest.mark.parametrize("fn", ["glblasScopy", "glblasSswap"])
@pytest.mark.parametrize("n", [0, -1, -7])
def test_scopy_sswap_n_nonpositive(lib, rng, fn, n):
    f = getattr(lib, fn)
    x, y = rand32(rng, 4), rand32(rng, 4)
    x0, y0 = bits(x), bits(y)
    assert f(n, x.ctypes.data, 1, y.ctypes.data, 1) == OK
    assert np.array_equal(bits(x), x0) and np.array_equal(bits(y), y0)
    assert f(n, None, 1, None, 1) == OK
    assert f(n, None, 0, None, -3) == OK


@pytest.mark.parametrize("fn", ["glblasScopy", "glblasSswap"])
def test_scopy_sswap_null(lib, rng, fn):
    f = getattr(lib, fn)
    x, y = rand32(rng, 8), rand32(rng, 8)
    x0, y0 = bits(x), bits(y)
    assert f(8, None, 1, y.ctypes.data, 1) == INV
    assert f(8, x.ctypes.data, 1, None, 1) == INV
    assert np.array_equal(bits(x), x0) and np.array_equal(bits(y), y0), "changed by a failed call"


@pytest.mark.parametrize("n,incx,incy", [(1, 1, 1), (1000, 1, 1), (77, 2, -3), (4099, -1, 4)])
@pytest.mark.parametrize("where", ["dd", "hd", "dh"])
def test_scopy_sswap_device(lib, rng, n, incx, incy, where):
    """x and/or y in device memory at interior offsets; scopy, then sswap back and forth; the
    rest of each allocation is untouched."""
    xv, yv = rand32(rng, n), rand32(rng, n)
    xb, x = g.strided_vector(xv, incx, fill=-5.0)
    yb, y = g.strided_vector(yv, incy, fill=-7.0)
    xb0, yb0 = bits(xb), bits(yb)
    zv = rand32(rng, n)
    with g.Mirror(lib, xb) as mx, g.Mirror(lib, yb) as my:
        px, ix = mx.vec_arg(x, where[0] == "d")
        py, iy = my.vec_arg(y, where[1] == "d")
        g.check(lib, lib.glblasScopy(n, px, ix, py, iy))
        # fetch the operand that lives on the device (the host one was updated in place)
        if where[1] == "d":
            my.fetch()
        assert_bits_equal(y, xv, f"scopy {where}")
        assert_gaps_untouched(yb, y, yb0, "y allocation")
        # now swap x with a fresh host/device vector z
        zb, z = g.strided_vector(zv, -incy)
        with g.Mirror(lib, zb) as mz:
            pz, iz = mz.vec_arg(z, where[1] == "d")
            g.check(lib, lib.glblasSswap(n, px, ix, pz, iz))
            if where[1] == "d":
                mz.fetch()
        if where[0] == "d":
            mx.fetch()
    assert_bits_equal(x, zv, f"sswap x {where}")
    assert_bits_equal(z, xv, f"sswap z {where}")
    assert_gaps_untouched(xb, x, xb0, "x allocation")


# ==== sasum =====================================================================================

ASUM_SIZES = [1, 2, 3, 5, 17, 64, 127, 1024, 4097, 65537, 1000003]


@pytest.mark.parametrize("n", ASUM_SIZES)
def test_sasum_contiguous(lib, rng, n):
    x = rand32(rng, n)
    x0 = bits(x)
    ref, bound = sasum_ref(x)
    st, r = g.sasum(lib, x)
    g.check(lib, st)
    assert_close(r, ref, bound, f"sasum n={n}")
    assert np.array_equal(bits(x), x0), "x modified"


def test_sasum_exact_small_integers(lib):
    x = np.arange(1, 101, dtype=np.float32)
    x[::2] *= -1
    st, r = g.sasum(lib, x)
    g.check(lib, st)
    assert r == 5050.0  # every partial sum is an integer < 2^24: exact in fp32, any order


@pytest.mark.parametrize("n", [1, 9, 100, 3001])
@pytest.mark.parametrize("inc", [2, 3, 7])
def test_sasum_strided(lib, rng, n, inc):
    """The gaps hold NaN: reading a wrong element shows."""
    xv = rand32(rng, n)
    _, x = g.strided_vector(xv, inc)
    ref, bound = sasum_ref(xv)
    st, r = g.sasum(lib, x)
    g.check(lib, st)
    assert_close(r, ref, bound, f"sasum n={n} inc={inc}")


def test_sasum_matrix_views(lib, rng):
    Mc = rand32(rng, 200, 5)
    Mf = np.asfortranarray(rand32(rng, 3, 200))
    for x in (Mc[:, 2], Mf[1, :], Mc[::3, 4]):
        ref, bound = sasum_ref(x)
        st, r = g.sasum(lib, x)
        g.check(lib, st)
        assert_close(r, ref, bound, f"sasum view strides {x.strides}")


def test_sasum_wide_range(lib, rng):
    """Magnitudes from 1e-30 to 1e30: no cancellation, the bound is relative to the result."""
    x = (rand32(rng, 5000) * np.float32(10.0) ** rng.integers(-30, 31, 5000)).astype(np.float32)
    ref, bound = sasum_ref(x)
    st, r = g.sasum(lib, x)
    g.check(lib, st)
    assert_close(r, ref, bound, "wide range")


def test_sasum_nonfinite(lib):
    """Reference sasum adds |x_i|: an Inf gives Inf, a NaN gives NaN."""
    for v, expect in [([1, -np.inf, 2], np.inf), ([1, np.nan, 2], np.nan),
                      ([np.inf, np.nan], np.nan), ([-0.0, -0.0], 0.0)]:
        st, r = g.sasum(lib, np.array(v, dtype=np.float32))
        g.check(lib, st)
        assert (np.isnan(r) if np.isnan(expect) else r == expect), (v, r)


@pytest.mark.parametrize("incx", [0, -1, -2])
def test_sasum_nonpositive_inc_gives_zero(lib, rng, incx):
    """Reference sasum returns 0 for incx <= 0 (n > 0), to a host and to a device result."""
    x = rand32(rng, 10)
    r = ctypes.c_float(np.nan)
    assert lib.glblasSasum(5, x.ctypes.data, incx, ctypes.byref(r)) == OK
    assert r.value == 0.0
    slot = np.full(3, np.nan, dtype=np.float32)
    with g.Mirror(lib, slot) as ms, g.Mirror(lib, x) as mx:
        assert lib.glblasSasum(5, mx.buf.at(8), incx, ms.buf.at(4)) == OK
        ms.fetch()
    assert slot[1] == 0.0 and np.isnan(slot[0]) and np.isnan(slot[2])


@pytest.mark.parametrize("n", [0, -1, -10])
def test_sasum_n_nonpositive_writes_zero(lib, n):
    x = np.ones(4, dtype=np.float32)
    r = ctypes.c_float(np.nan)
    assert lib.glblasSasum(n, x.ctypes.data, 1, ctypes.byref(r)) == OK
    assert r.value == 0.0
    r = ctypes.c_float(np.nan)
    assert lib.glblasSasum(n, None, 1, ctypes.byref(r)) == OK  # x may be NULL for n <= 0
    assert r.value == 0.0


def test_sasum_invalid(lib):
    x = np.ones(4, dtype=np.float32)
    assert lib.glblasSasum(4, x.ctypes.data, 1, None) == INV
    assert lib.glblasSasum(0, x.ctypes.data, 1, None) == INV
    assert lib.glblasSasum(4, x.ctypes.data, 0, None) == INV
    r = ctypes.c_float(123.0)
    assert lib.glblasSasum(4, None, 1, ctypes.byref(r)) == INV
    assert r.value == 123.0, "result written by a failed call"


@pytest.mark.parametrize("n,inc", [(1, 1), (5000, 1), (333, 3)])
def test_sasum_device_input(lib, rng, n, inc):
    """x in device memory at an interior offset; host result."""
    xv = rand32(rng, n)
    xb, x = g.strided_vector(xv, inc)
    ref, bound = sasum_ref(xv)
    with g.Mirror(lib, xb) as mx:
        px, ix = mx.vec_arg(x, True)
        r = ctypes.c_float(np.nan)
        g.check(lib, lib.glblasSasum(n, px, ix, ctypes.byref(r)))
    assert_close(r.value, ref, bound, f"device sasum n={n} inc={inc}")


@pytest.mark.parametrize("input_on_device", [False, True])
def test_sasum_device_result(lib, rng, input_on_device):
    """result is an interior device pointer: it stays on the device (read back with
    glblasMemcpy / after glblasSync); its neighbours are untouched; n <= 0 writes 0 there."""
    n = 777
    x = rand32(rng, n)
    ref, bound = sasum_ref(x)
    slots = np.arange(8, dtype=np.float32) + 0.5
    with g.DeviceBuffer(lib, slots.nbytes) as dres, g.Mirror(lib, x) as mx:
        dres.upload(slots)
        px = mx.dev(x.ctypes.data) if input_on_device else x.ctypes.data
        g.check(lib, lib.glblasSasum(n, px, 1, dres.at(3 * 4)))
        out = dres.download(np.full(8, np.nan, dtype=np.float32))
        g.check(lib, lib.glblasSasum(0, None, 1, dres.at(5 * 4)))
        g.check(lib, lib.glblasSync())
        out2 = dres.download(np.full(8, np.nan, dtype=np.float32))
    assert_close(out[3], ref, bound, "device result")
    keep = [0, 1, 2, 4, 5, 6, 7]
    assert np.array_equal(out[keep], slots[keep])
    assert out2[5] == 0.0 and out2[3] == out[3]
    assert np.array_equal(out2[[0, 1, 2, 4, 6, 7]], slots[[0, 1, 2, 4, 6, 7]])
