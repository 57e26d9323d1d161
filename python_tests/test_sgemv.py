"""glblasSgemv: y = alpha*op(A)*x + beta*y (A m x n column-major) against a float64 reference.

Elementwise bound (reference.sgemv_ref, which is sgemm_ref with one column):
    |y - y_ref| <= 2*(lenx+2)*eps*(|alpha| |op(A)||x| + |beta| |y|),   eps = 2^-24:
gamma_lenx for a length-lenx fp32 dot product with fp32 accumulation, plus one rounding each for
the alpha scaling and the beta*y update (the spec's bound with the constant 2).
"""

import contextlib

import numpy as np
import pytest

import helpers as g
from glblas import (GLBLAS_OP_C, GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_STATUS_INVALID_VALUE,
                    GLBLAS_STATUS_SUCCESS)
from helpers import bits, colmajor_view, mat_arg, rand32, vec_arg, view_mask
from reference import assert_close, sasum_ref, sgemv_ref

N_, T_, C_ = GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C
OPNAME = {N_: "N", T_: "T", C_: "C"}
INV = GLBLAS_STATUS_INVALID_VALUE
OK = GLBLAS_STATUS_SUCCESS

SHAPES = [  # (m, n) of the stored A
    (1, 1), (2, 3), (3, 2), (7, 5), (13, 17), (31, 1), (1, 37), (64, 64), (67, 61), (128, 97),
    (257, 3), (3, 257), (300, 211), (1, 1000), (1000, 1),
]
ALPHA_BETA = [(1.0, 0.0), (-1.5, 1.0), (0.7, -2.25), (2.0, 0.5)]


def lengths(trans, m, n):
    """(len x, len y) for op(A) of the m x n A."""
    return (n, m) if trans == N_ else (m, n)


def run_case(lib, rng, m, n, trans, alpha, beta, layout="fortran", incx=1, incy=1,
             nan_in_y=False, where="hhh"):
    """One sgemv call checked against sgemv_ref.  layout: A Fortran or an interior sub-matrix
    (lda > m, NaN around it); x is embedded with increment incx between NaNs, y with incy between
    sentinels that must stay untouched; where: A, x, y in host (h) or device (d) memory, each at
    an interior offset of its allocation."""
    S = rand32(rng, m, n)
    lenx, leny = lengths(trans, m, n)
    xv = rand32(rng, lenx)
    y0 = rand32(rng, leny)
    if nan_in_y:
        y0[:] = np.nan
        y0[::2] = np.inf
    Abase, A = colmajor_view(S, layout=layout)
    xb, x = g.strided_vector(xv, incx)
    yb, y = g.strided_vector(y0, incy, fill=-7.0)
    pa, lda, ta = mat_arg(A)
    assert not ta
    if layout == "sub":
        assert lda > m
    px, ix = vec_arg(x)
    py, iy = vec_arg(y)
    ref, bound = sgemv_ref(alpha, S if trans == N_ else S.T, xv, beta,
                           None if beta == 0 else y0)
    before = bits(yb)
    what = (f"sgemv {OPNAME.get(trans, trans)} m={m} n={n} alpha={alpha} beta={beta} {layout} "
            f"incx={incx} incy={incy} {where}")
    with contextlib.ExitStack() as stack:
        if where[0] == "d":
            pa = stack.enter_context(g.Mirror(lib, Abase)).dev(pa)
        if where[1] == "d":
            px = stack.enter_context(g.Mirror(lib, xb)).dev(px)
        my = None
        if where[2] == "d":
            my = stack.enter_context(g.Mirror(lib, yb))
            py = my.dev(py)
        g.check(lib, lib.glblasSgemv(trans, m, n, alpha, pa, lda, px, ix, beta, py, iy), what)
        if my is not None:
            my.fetch()
    assert_close(y, ref, bound, what)
    gaps = ~view_mask(yb, y)
    assert np.array_equal(bits(yb)[gaps], before[gaps]), f"{what}: y's buffer written outside y"


@pytest.mark.parametrize("trans", [N_, T_], ids=OPNAME.get)
@pytest.mark.parametrize("m,n", SHAPES)
def test_sgemv_fortran(lib, rng, m, n, trans):
    alpha, beta = ALPHA_BETA[(m + n) % len(ALPHA_BETA)]
    run_case(lib, rng, m, n, trans, alpha, beta)


@pytest.mark.parametrize("incx,incy", [(2, 1), (1, -1), (-1, 3), (-2, -3), (5, -2)])
@pytest.mark.parametrize("trans", [N_, T_, C_], ids=OPNAME.get)
@pytest.mark.parametrize("m,n", [(1, 1), (3, 2), (23, 29), (100, 7), (1, 50), (45, 1)])
def test_sgemv_submatrix_strided(lib, rng, m, n, trans, incx, incy):
    """A is an interior sub-matrix of a larger Fortran array (lda > m, NaN around it), x and y
    are strided (negative increments included); GLBLAS_OP_C behaves as GLBLAS_OP_T."""
    for alpha, beta in [(1.0, 1.0), (-0.5, 0.0)]:
        run_case(lib, rng, m, n, trans, alpha, beta, layout="sub", incx=incx, incy=incy)


@pytest.mark.parametrize("op_t", [T_, C_], ids=OPNAME.get)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("transpose", [False, True], ids=["A", "A.T"])
@pytest.mark.parametrize("r,c", [(1, 1), (6, 9), (37, 41), (120, 80), (1, 50), (50, 1)])
def test_sgemv_numpy_orders(lib, rng, r, c, order, transpose, op_t):
    """y = alpha*M@x + beta*y for M a C- or Fortran-ordered array or its transpose: a C-ordered
    (row-major) M is the transpose of a column-major matrix, passed as op T (or C) with
    lda = its row length (helpers.sgemv_numpy)."""
    S = np.array(rand32(rng, r, c), order=order)
    M = S.T if transpose else S
    x = rand32(rng, M.shape[1])
    y = rand32(rng, M.shape[0])
    if M.flags.c_contiguous and min(M.shape) > 1:
        _, lda, ta = mat_arg(M)
        assert ta and lda == M.shape[1]  # really passed as op T with lda = row length
    ref, bound = sgemv_ref(0.5, M, x, 1.5, y)
    g.check(lib, g.sgemv_numpy(lib, 0.5, M, x, 1.5, y, op_t=op_t))
    assert_close(y, ref, bound, f"sgemv {order} transpose={transpose} {r}x{c}")


def test_sgemv_row_major_submatrix(lib, rng):
    """A row-major sub-matrix view (ld = full row length > cols) passed as op T, and its
    transpose (a column-major sub-matrix view) passed as op N."""
    big = rand32(rng, 40, 50)  # C order
    M = big[3:20, 5:16]  # 17 x 11, row stride 50
    _, lda, ta = mat_arg(M)
    assert ta and lda == 50
    for A in (M, M.T):
        x = rand32(rng, A.shape[1])
        y = rand32(rng, A.shape[0])
        ref, bound = sgemv_ref(-1.0, A, x, 0.25, y)
        g.check(lib, g.sgemv_numpy(lib, -1.0, A, x, 0.25, y))
        assert_close(y, ref, bound, f"row-major sub-matrix {A.shape}")


def test_sgemv_exact_small_integers(lib):
    """Column-major storage and the negative-increment order, with exact integer results:
    A = [[1, 2], [3, 4]] (stored 1, 3, 2, 4); x traversed from its far end."""
    A = np.array([1, 3, 2, 4], dtype=np.float32)  # column-major 2 x 2
    xb = np.array([1, 10], dtype=np.float32)      # incx = -1: x = (10, 1)
    cases = [(N_, 1, [12, 34]), (N_, -1, [34, 12]), (T_, 1, [13, 24]), (C_, -1, [24, 13])]
    for trans, incy, expect in cases:
        y = np.full(2, np.nan, dtype=np.float32)
        g.check(lib, lib.glblasSgemv(trans, 2, 2, 1.0, A.ctypes.data, 2, xb.ctypes.data, -1,
                                     0.0, y.ctypes.data, incy))
        assert y.tolist() == expect, (OPNAME[trans], incy, y)
    # non-square, lda > m: A is 2 x 3 inside a 3-row buffer (third row NaN)
    A = np.array([1, 2, np.nan, 3, 4, np.nan, 5, 6, np.nan], dtype=np.float32)
    x = np.array([1, 10, 100], dtype=np.float32)
    y = np.array([1, 1], dtype=np.float32)
    g.check(lib, lib.glblasSgemv(N_, 2, 3, 1.0, A.ctypes.data, 3, x.ctypes.data, 1, 2.0,
                                 y.ctypes.data, 1))
    assert y.tolist() == [1 + 30 + 500 + 2, 2 + 40 + 600 + 2]
    y = np.array([0, 0, 0], dtype=np.float32)
    g.check(lib, lib.glblasSgemv(T_, 2, 3, 1.0, A.ctypes.data, 3, x.ctypes.data, 1, 0.0,
                                 y.ctypes.data, 1))
    assert y.tolist() == [21, 43, 65]


@pytest.mark.parametrize("trans,m,n", [(N_, 5000, 2), (T_, 4099, 3), (N_, 2, 4099),
                                       (T_, 3, 5000)])
def test_sgemv_long_vectors(lib, rng, trans, m, n):
    """Long dot products (T with large m, N with large n) and long outputs."""
    run_case(lib, rng, m, n, trans, 1.25, -0.5)


@pytest.mark.parametrize("trans", [N_, T_], ids=OPNAME.get)
@pytest.mark.parametrize("alpha", [1.0, 0.0])
def test_sgemv_beta_zero_ignores_nan_in_y(lib, rng, trans, alpha):
    """beta == 0: y is overwritten and never read, so NaN/Inf already there must not leak (host
    and device y; with alpha == 0 too, where y becomes zeros)."""
    for where in ("hhh", "hhd", "ddd"):
        run_case(lib, rng, 19, 23, trans, alpha, 0.0, layout="sub", incy=-2, nan_in_y=True,
                 where=where)
        run_case(lib, rng, 1, 1, trans, alpha, 0.0, nan_in_y=True, where=where)


@pytest.mark.parametrize("trans", [N_, T_], ids=OPNAME.get)
@pytest.mark.parametrize("beta", [0.0, 1.0, -0.5, 3.0])
def test_sgemv_alpha_zero(lib, rng, trans, beta):
    """alpha == 0: y = beta*y without reading A or x (NaN/Inf in A and x, then NULL A and x);
    beta == 1 is a quick return (y untouched bit for bit, NaN included); beta == 0 gives zeros
    even where y held NaN."""
    m, n = 9, 7
    lenx, leny = lengths(trans, m, n)
    A = np.full((m, n), np.nan, dtype=np.float32, order="F")
    x = np.full(lenx, np.inf, dtype=np.float32)
    for a_ptr, x_ptr in [(A.ctypes.data, x.ctypes.data), (None, None)]:
        for incy in (1, -2):
            y0 = rand32(rng, leny)
            if beta in (0.0, 1.0):
                y0[::3] = np.nan  # not read (beta == 0) / not touched (beta == 1)
            yb, y = g.strided_vector(y0, incy, fill=-7.0)
            before = bits(yb)
            py, iy = vec_arg(y)
            st = lib.glblasSgemv(trans, m, n, 0.0, a_ptr, m, x_ptr, 1, beta, py, iy)
            g.check(lib, st, f"sgemv alpha=0 beta={beta}")
            if beta == 0.0:
                assert np.all(y == 0), "alpha=0, beta=0 must give zeros (y not read)"
            elif beta == 1.0:
                assert np.array_equal(bits(y), bits(y0)), "alpha=0, beta=1 must leave y as it is"
            else:
                ref, bound = sgemv_ref(0.0, A if trans == N_ else A.T, x, beta, y0)
                assert_close(y, ref, bound, f"alpha=0 beta={beta}")  # one rounding of beta*y
            gaps = ~view_mask(yb, y)
            assert np.array_equal(bits(yb)[gaps], before[gaps])


def test_sgemv_alpha_zero_device_y(lib, rng):
    """alpha == 0 with NULL A and x and y in device memory: y = beta*y on the device."""
    y0 = rand32(rng, 30)
    with g.Mirror(lib, y0.copy()) as my:
        g.check(lib, lib.glblasSgemv(N_, 30, 4, 0.0, None, 30, None, 1, -2.0, my.buf.at(), 1))
        y = my.fetch()
    assert np.array_equal(y, (np.float32(-2.0) * y0).astype(np.float32))  # exact: power of two


@pytest.mark.parametrize("trans", [N_, T_], ids=OPNAME.get)
@pytest.mark.parametrize("m,n", [(0, 5), (5, 0), (0, 0)])
def test_sgemv_empty_quick_return(lib, rng, trans, m, n):
    """m == 0 or n == 0: nothing is touched, even with beta != 1 (y is not scaled, unlike
    sgemm's k == 0) and NaN in y; nothing is read either, so the pointers may be NULL."""
    A = rand32(rng, 5, 5)
    x = rand32(rng, 5)
    for beta in (0.0, 2.0, 1.0):
        y = rand32(rng, 5)
        y[1] = np.nan
        y0 = bits(y)
        st = lib.glblasSgemv(trans, m, n, 1.5, A.ctypes.data, 5, x.ctypes.data, 1, beta,
                             y.ctypes.data, 1)
        assert st == OK
        assert np.array_equal(bits(y), y0)
    assert lib.glblasSgemv(trans, m, n, 1.5, None, max(1, m), None, 1, 0.0, None, 1) == OK


# (trans, m, n, lda, incx, incy, alpha, beta); a valid call: N, 4, 3, lda 4, incx 1, incy 1
INVALID = [
    (7, 4, 3, 4, 1, 1, 1.0, 1.0), (-1, 4, 3, 4, 1, 1, 1.0, 1.0), (3, 4, 3, 4, 1, 1, 1.0, 1.0),
    (1000, 4, 3, 4, 1, 1, 1.0, 1.0),
    (N_, -1, 3, 4, 1, 1, 1.0, 1.0), (N_, 4, -1, 4, 1, 1, 1.0, 1.0),
    (N_, 4, 3, 3, 1, 1, 1.0, 1.0),    # lda < m
    (T_, 4, 3, 3, 1, 1, 1.0, 1.0),    # lda < m also for op T (A is m x n for every op)
    (C_, 4, 6, 3, 1, 1, 1.0, 1.0),
    (N_, 4, 3, 0, 1, 1, 1.0, 1.0), (N_, 4, 3, -4, 1, 1, 1.0, 1.0),
    (N_, 4, 3, 4, 0, 1, 1.0, 1.0), (N_, 4, 3, 4, 1, 0, 1.0, 1.0),   # zero increments
    (T_, 4, 3, 4, 0, 1, 1.0, 1.0), (T_, 4, 3, 4, 1, 0, 1.0, 0.0),
    # reference BLAS checks the arguments before the quick returns:
    (N_, 0, 3, 0, 1, 1, 1.0, 1.0),    # lda >= max(1, m) = 1 even for m == 0
    (N_, 4, 0, 4, 0, 1, 1.0, 1.0), (N_, 0, 0, 1, 1, 0, 1.0, 1.0),
    (7, 0, 0, 1, 1, 1, 1.0, 1.0),
    (N_, 4, 3, 4, 0, 1, 0.0, 1.0),    # alpha == 0 and beta == 1
    (T_, 4, 3, 3, 1, 1, 0.0, 1.0),
    (N_, 4, 3, 4, 1, 0, 0.0, 2.0),
]


@pytest.mark.parametrize("case", INVALID, ids=str)
def test_sgemv_invalid(lib, rng, case):
    trans, m, n, lda, incx, incy, alpha, beta = case
    A = rand32(rng, 8, 8)
    x = rand32(rng, 8)
    y = rand32(rng, 8)
    y0 = bits(y)
    st = lib.glblasSgemv(trans, m, n, alpha, A.ctypes.data, lda, x.ctypes.data, incx, beta,
                         y.ctypes.data, incy)
    assert st == INV, f"{case}: status {st}"
    assert np.array_equal(bits(y), y0), "y changed by a failed call"


def test_sgemv_invalid_y_on_device_untouched(lib, rng):
    y = rand32(rng, 8)
    A = rand32(rng, 8, 8)
    with g.Mirror(lib, y) as my:
        for trans, lda, incx in [(7, 4, 1), (N_, 3, 1), (N_, 4, 0)]:
            st = lib.glblasSgemv(trans, 4, 3, 1.0, A.ctypes.data, lda, A.ctypes.data, incx, 0.0,
                                 my.buf.at(4), 1)
            assert st == INV
        out = my.buf.download(np.empty_like(y))
    assert np.array_equal(bits(out), bits(y))


def test_sgemv_null_pointers(lib, rng):
    """NULL A or x (when they are read) or NULL y (when it is written): INVALID_VALUE."""
    A = rand32(rng, 4, 4)
    x = rand32(rng, 4)
    y = rand32(rng, 4)
    y0 = bits(y)
    assert lib.glblasSgemv(N_, 4, 4, 1.0, None, 4, x.ctypes.data, 1, 0.0, y.ctypes.data, 1) == INV
    assert lib.glblasSgemv(N_, 4, 4, 1.0, A.ctypes.data, 4, None, 1, 0.0, y.ctypes.data, 1) == INV
    assert np.array_equal(bits(y), y0), "y changed by a failed call"
    assert lib.glblasSgemv(T_, 4, 4, 1.0, A.ctypes.data, 4, x.ctypes.data, 1, 0.0, None, 1) == INV
    assert lib.glblasSgemv(N_, 4, 4, 0.0, None, 4, None, 1, 0.5, None, 1) == INV


# ---- device memory -----------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["ddd", "dhh", "hdh", "hhd", "hdd", "ddh", "dhd"])
@pytest.mark.parametrize("trans,m,n,incx,incy", [(N_, 33, 17, 1, 1), (T_, 1, 1, -1, 2),
                                                 (N_, 70, 65, 2, -3), (T_, 5, 100, -1, -1),
                                                 (C_, 61, 40, 3, 1)])
def test_sgemv_device(lib, rng, where, trans, m, n, incx, incy):
    """A, x, y in device memory (interior pointers: A an interior sub-matrix, x and y strided
    inside their allocations) or on the host, every mix; the padding of y's allocation stays
    untouched on the device too."""
    run_case(lib, rng, m, n, trans, -0.75, 1.25, layout="sub", incx=incx, incy=incy,
             where=where)


def test_sgemv_device_shared_allocation(lib, rng):
    """A, x and y inside one device allocation (disjoint ranges)."""
    ld = 40
    big = np.asfortranarray(rand32(rng, ld, 30))
    m, n = 30, 12
    A = big[5:5 + m, 0:n]
    x = big[1, 14:14 + n]        # a row: stride ld
    y = big[3:3 + m, 27]         # a column: stride 1
    xv, y0 = x.copy(), y.copy()
    ref, bound = sgemv_ref(1.0, A, xv, -1.0, y0)
    before = big.copy()
    with g.Mirror(lib, big) as mb:
        px, ix = mb.vec_arg(x, True)
        py, iy = mb.vec_arg(y, True)
        g.check(lib, lib.glblasSgemv(N_, m, n, 1.0, mb.dev(A.ctypes.data), ld, px, ix, -1.0,
                                     py, iy))
        mb.fetch()
    assert_close(big[3:3 + m, 27], ref, bound, "shared allocation")
    outside = np.ones(big.shape, bool)
    outside[3:3 + m, 27] = False
    assert np.array_equal(bits(big)[outside], bits(before)[outside])


def test_new_functions_device_chain(lib, rng):
    """Device results feed the next call without a host round trip: sgemv -> device y,
    scopy device -> host, sscal on the device, sasum into a device result, sswap device <-> host."""
    m, n = 57, 43
    A = np.asfortranarray(rand32(rng, m, n))
    x = rand32(rng, n)
    with g.Mirror(lib, A) as mA, g.Mirror(lib, x) as mx, \
            g.Mirror(lib, np.full(m + 2, np.nan, dtype=np.float32)) as my, \
            g.DeviceBuffer(lib, 8) as dres:
        dy = my.buf.at(4)
        g.check(lib, lib.glblasSgemv(N_, m, n, 1.0, mA.buf.at(), m, mx.buf.at(), 1, 0.0, dy, 1))
        y1 = np.full(m, np.nan, dtype=np.float32)
        g.check(lib, lib.glblasScopy(m, dy, 1, y1.ctypes.data, 1))
        g.check(lib, lib.glblasSscal(m, -0.5, dy, 1))
        g.check(lib, lib.glblasSasum(m, dy, 1, dres.at(4)))
        z = rand32(rng, m)
        z0 = z.copy()
        g.check(lib, lib.glblasSswap(m, dy, 1, z.ctypes.data, -1))
        ybuf = my.fetch()
        res = dres.download(np.empty(2, dtype=np.float32))
    ref, bound = sgemv_ref(1.0, A, x, 0.0, None)
    assert_close(y1, ref, bound, "sgemv to device, scopy to host")
    scaled = (np.float32(-0.5) * y1).astype(np.float32)  # exact: power of two
    assert np.array_equal(z[::-1], scaled), "sscal on the device, sswap to the host"
    assert np.array_equal(ybuf[1:1 + m], z0[::-1]), "sswap host -> device"
    assert np.isnan(ybuf[0]) and np.isnan(ybuf[-1])
    ref, bound = sasum_ref(scaled)
    assert_close(res[1], ref, bound, "sasum of the device vector into a device result")
