"""glblasSgemm: C = alpha*op(A)*op(B) + beta*C (column-major) against a float64 reference.

Elementwise bound (reference.sgemm_ref): |C - C_ref| <= 2*(k+2)*eps*(|alpha||A||B| + |beta||C|),
eps = 2^-24: gamma_k for a length-k fp32 dot product with fp32 accumulation, plus one rounding
each for the alpha scaling and the beta*C update.
"""

import concurrent.futures

import numpy as np
import pytest

import helpers as g
from glblas import (GLBLAS_OP_C, GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_STATUS_INVALID_VALUE,
                    GLBLAS_STATUS_SUCCESS)
from helpers import bits, colmajor_view, mat_arg
from reference import assert_close, sdot_ref, sgemm_ref

N_, T_, C_ = GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C
OPNAME = {N_: "N", T_: "T", C_: "C"}

SHAPES = [  # (m, n, k)
    (1, 1, 1), (2, 3, 4), (7, 5, 3), (13, 17, 19), (31, 1, 29), (1, 37, 1), (1, 1, 97),
    (64, 64, 64), (67, 61, 71), (128, 97, 33), (257, 3, 129), (5, 251, 2), (300, 211, 163),
]
PAIRS = [(N_, N_), (N_, T_), (T_, N_), (T_, T_)]
ALPHA_BETA = [(1.0, 0.0), (-1.5, 1.0), (0.7, -2.25), (2.0, 0.5)]


def randm(rng, r, c):
    return rng.standard_normal((r, c)).astype(np.float32)


def stored_shape(op, rows, cols):
    """Shape of the stored matrix whose op() is rows x cols."""
    return (rows, cols) if op == N_ else (cols, rows)


def apply_op(op, S):
    return S if op == N_ else S.T


def run_case(lib, rng, m, n, k, opa, opb, alpha, beta, layout, nan_in_c=False):
    SA = randm(rng, *stored_shape(opa, m, k))
    SB = randm(rng, *stored_shape(opb, k, n))
    C0 = randm(rng, m, n)
    if nan_in_c:
        C0[:] = np.nan
        C0.flat[::2] = np.inf
    _, A = colmajor_view(SA, layout=layout)
    _, B = colmajor_view(SB, layout=layout, row_off=1, col_off=2)
    Cbase, C = colmajor_view(C0, layout=layout, row_off=3, col_off=1, fill=-7.0)
    pa, lda, ta = mat_arg(A)
    pb, ldb, tb = mat_arg(B)
    pc, ldc, tc = mat_arg(C)
    assert not (ta or tb or tc)
    if layout == "sub" and m > 0:
        assert lda > A.shape[0] and ldc > m
    ref, bound = sgemm_ref(alpha, apply_op(opa, SA), apply_op(opb, SB), beta, C0)
    outside = np.ones(Cbase.shape, bool)
    if C.base is Cbase:
        outside[3:3 + m, 1:1 + n] = False
    else:
        outside[:] = False
    before = bits(Cbase)
    st = lib.glblasSgemm(opa, opb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)
    g.check(lib, st, f"sgemm {OPNAME[opa]}{OPNAME[opb]} {m}x{n}x{k}")
    assert_close(C, ref, bound, f"sgemm {OPNAME[opa]}{OPNAME[opb]} m={m} n={n} k={k} "
                                f"alpha={alpha} beta={beta} {layout}")
    assert np.array_equal(bits(Cbase)[outside], before[outside]), \
        "elements of C's buffer outside the m x n sub-matrix were written"


@pytest.mark.parametrize("opa,opb", PAIRS, ids=lambda p: OPNAME.get(p, p))
@pytest.mark.parametrize("m,n,k", SHAPES)
def test_sgemm_fortran(lib, rng, m, n, k, opa, opb):
    alpha, beta = ALPHA_BETA[(m + n + k) % len(ALPHA_BETA)]
    run_case(lib, rng, m, n, k, opa, opb, alpha, beta, "fortran")


@pytest.mark.parametrize("opa,opb", PAIRS, ids=lambda p: OPNAME.get(p, p))
@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (3, 2, 5), (23, 29, 31), (100, 7, 45), (1, 50, 9)])
def test_sgemm_submatrix_views(lib, rng, m, n, k, opa, opb):
    """A, B and C are interior sub-matrices of larger Fortran arrays (ld > rows, NaN around A and
    B, a sentinel around C that must stay untouched, including rows m..ldc-1 of each column)."""
    for alpha, beta in [(1.0, 1.0), (-0.5, 0.0)]:
        run_case(lib, rng, m, n, k, opa, opb, alpha, beta, "sub")


@pytest.mark.parametrize("opa", [N_, T_, C_], ids=OPNAME.get)
@pytest.mark.parametrize("opb", [N_, T_, C_], ids=OPNAME.get)
def test_sgemm_op_c_is_t(lib, rng, opa, opb):
    """All nine transpose pairs; GLBLAS_OP_C behaves as GLBLAS_OP_T for real data."""
    run_case(lib, rng, 13, 11, 17, opa, opb, 1.25, -0.5, "sub")


@pytest.mark.parametrize("m,n,k", [(1, 1, 1), (6, 9, 4), (37, 41, 43), (120, 80, 64)])
@pytest.mark.parametrize("orders", ["CFF", "FCF", "CCF", "CCC", "FFC", "CFC"])
def test_sgemm_row_major_operands(lib, rng, m, n, k, orders):
    """C-ordered (row-major) arrays are transposed column-major matrices: a row-major A is passed
    as op T with lda = k (its row length), likewise B; a row-major C is computed as
    C^T = B^T A^T.  orders gives the numpy order of A, B, C."""
    A = np.array(randm(rng, m, k), order=orders[0])
    B = np.array(randm(rng, k, n), order=orders[1])
    C = np.array(randm(rng, m, n), order=orders[2])
    if orders[0] == "C" and m > 1 and k > 1:
        pa, lda, ta = mat_arg(A)
        assert ta and lda == k  # really passed as op T
    ref, bound = sgemm_ref(0.5, A, B, 1.5, C)
    g.check(lib, g.sgemm_numpy(lib, 0.5, A, B, 1.5, C))
    assert_close(C, ref, bound, f"row-major {orders} {m}x{n}x{k}")


def test_sgemm_row_major_submatrix(lib, rng):
    """A row-major sub-matrix view (ld = full row length > cols) passed as op T."""
    big = randm(rng, 40, 50)  # C order
    A = big[3:20, 5:16]  # 17 x 11, row stride 50
    B = np.asfortranarray(randm(rng, 11, 9))
    C = np.asfortranarray(randm(rng, 17, 9))
    pa, lda, ta = mat_arg(A)
    assert ta and lda == 50
    ref, bound = sgemm_ref(-1.0, A, B, 0.25, C)
    g.check(lib, lib.glblasSgemm(T_, N_, 17, 9, 11, -1.0, pa, lda, B.ctypes.data, 11,
                                 0.25, C.ctypes.data, 17))
    assert_close(C, ref, bound, "row-major sub-matrix as op T")


@pytest.mark.parametrize("opa,opb", PAIRS, ids=lambda p: OPNAME.get(p, p))
def test_sgemm_beta_zero_ignores_nan_in_c(lib, rng, opa, opb):
    """beta == 0: C is overwritten and never read, so NaN/Inf already there must not leak."""
    run_case(lib, rng, 19, 23, 7, opa, opb, 1.0, 0.0, "sub", nan_in_c=True)
    run_case(lib, rng, 1, 1, 1, opa, opb, -2.0, 0.0, "fortran", nan_in_c=True)


@pytest.mark.parametrize("alpha", [0.0, 1.5])
def test_sgemm_beta_zero_nan_in_device_c(lib, rng, alpha):
    """beta == 0 with C in device memory full of NaN/Inf (alpha == 0: C becomes zeros)."""
    m, n, k = 11, 6, 8
    A = np.asfortranarray(randm(rng, m, k))
    B = np.asfortranarray(randm(rng, k, n))
    Cbase, C = colmajor_view(np.full((m, n), np.nan, np.float32), layout="sub", fill=5.0)
    C.flat[::3] = -np.inf
    before = Cbase.copy()
    ref, bound = sgemm_ref(alpha, A, B, 0.0, None)
    with g.Mirror(lib, A) as mA, g.Mirror(lib, Cbase) as mC:
        pc, ldc, _ = mat_arg(C)
        g.check(lib, lib.glblasSgemm(N_, N_, m, n, k, alpha, mA.buf.at(), m, B.ctypes.data, k,
                                     0.0, mC.dev(pc), ldc))
        mC.fetch()
    assert_close(C, ref, bound, f"device C, beta=0, alpha={alpha}")
    outside = np.ones(Cbase.shape, bool)
    outside[2:2 + m, 1:1 + n] = False
    assert np.array_equal(bits(Cbase)[outside], bits(before)[outside])


@pytest.mark.parametrize("beta", [0.0, 1.0, -0.5, 3.0])
def test_sgemm_alpha_zero(lib, rng, beta):
    """alpha == 0: C = beta*C without reading A or B (NaN in A/B, then NULL A/B)."""
    m, n, k = 9, 7, 5
    A = np.full((m, k), np.nan, dtype=np.float32, order="F")
    B = np.full((k, n), np.inf, dtype=np.float32, order="F")
    for a_ptr, b_ptr in [(A.ctypes.data, B.ctypes.data), (None, None)]:
        C0 = randm(rng, m, n)
        if beta == 0.0:
            C0[::2, ::3] = np.nan  # not read either
        C = np.asfortranarray(C0.copy())
        st = lib.glblasSgemm(N_, N_, m, n, k, 0.0, a_ptr, m, b_ptr, k, beta, C.ctypes.data, m)
        g.check(lib, st, "sgemm alpha=0")
        if beta == 0.0:
            assert np.all(C == 0), "alpha=0, beta=0 must give zeros (C not read)"
        elif beta == 1.0:
            assert np.array_equal(bits(C), bits(C0)), "alpha=0, beta=1 must leave C as it is"
        else:
            ref, bound = sgemm_ref(0.0, A, B, beta, C0)  # one rounding of beta*C
            assert_close(C, ref, bound, f"alpha=0 beta={beta}")


@pytest.mark.parametrize("beta", [0.0, 1.0, 0.75])
def test_sgemm_k_zero(lib, rng, beta):
    """k == 0: C = beta*C; A and B are not read (NULL); lda >= max(1,m) (N) or >= 1 (T)."""
    m, n = 6, 4
    for opa, lda in [(N_, m), (T_, 1)]:
        C0 = randm(rng, m, n)
        if beta == 0.0:
            C0[0, 0] = np.nan
        C = np.asfortranarray(C0.copy())
        st = lib.glblasSgemm(opa, N_, m, n, 0, 1.0, None, lda, None, 1, beta, C.ctypes.data, m)
        g.check(lib, st, "sgemm k=0")
        if beta == 0.0:
            assert np.all(C == 0), "k=0, beta=0 must give zeros (C not read)"
        elif beta == 1.0:
            assert np.array_equal(bits(C), bits(C0))
        else:
            ref, bound = sgemm_ref(1.0, np.zeros((m, 0)), np.zeros((0, n)), beta, C0)
            assert_close(C, ref, bound, "k=0")


@pytest.mark.parametrize("m,n", [(0, 5), (5, 0), (0, 0)])
def test_sgemm_empty_quick_return(lib, rng, m, n):
    C = np.asfortranarray(randm(rng, 5, 5))
    C0 = bits(C)
    A = randm(rng, 5, 5)
    st = lib.glblasSgemm(N_, N_, m, n, 3, 1.0, A.ctypes.data, 5, A.ctypes.data, 5, 2.0,
                         C.ctypes.data, 5)
    assert st == GLBLAS_STATUS_SUCCESS
    assert np.array_equal(bits(C), C0)


# (transa, transb, m, n, k, lda, ldb, ldc); valid reference: N N 4 3 5 lda 4 ldb 5 ldc 4
INVALID = [
    (7, N_, 4, 3, 5, 4, 5, 4), (N_, 7, 4, 3, 5, 4, 5, 4), (-1, N_, 4, 3, 5, 4, 5, 4),
    (N_, 3, 4, 3, 5, 4, 5, 4), (1000, 1000, 4, 3, 5, 4, 5, 4),
    (N_, N_, -1, 3, 5, 4, 5, 4), (N_, N_, 4, -1, 5, 4, 5, 4), (N_, N_, 4, 3, -1, 4, 5, 4),
    (N_, N_, 4, 3, 5, 3, 5, 4),   # lda < m
    (T_, N_, 4, 3, 5, 4, 5, 4),   # op T: lda < k
    (C_, N_, 4, 3, 5, 4, 5, 4),   # op C: lda < k
    (N_, N_, 4, 3, 5, 4, 4, 4),   # ldb < k
    (N_, T_, 4, 3, 5, 4, 2, 4),   # op T: ldb < n
    (N_, N_, 4, 3, 5, 4, 5, 3),   # ldc < m
    (N_, N_, 4, 3, 5, 0, 5, 4), (N_, N_, 4, 3, 5, -4, 5, 4), (N_, N_, 4, 3, 5, 4, 5, -1),
    # reference BLAS checks the arguments before the m == 0 / n == 0 quick return:
    # ld must be >= max(1, rows) even for empty matrices
    (N_, N_, 0, 3, 5, 0, 5, 1), (N_, N_, 0, 3, 5, 1, 5, 0), (N_, N_, 4, 0, 0, 4, 0, 4),
]


@pytest.mark.parametrize("case", INVALID)
def test_sgemm_invalid(lib, rng, case):
    ta, tb, m, n, k, lda, ldb, ldc = case
    A = randm(rng, 8, 8)
    B = randm(rng, 8, 8)
    C = randm(rng, 8, 8)
    C0 = bits(C)
    st = lib.glblasSgemm(ta, tb, m, n, k, 1.0, A.ctypes.data, lda, B.ctypes.data, ldb, 1.0,
                         C.ctypes.data, ldc)
    assert st == GLBLAS_STATUS_INVALID_VALUE, f"{case}: status {st}"
    assert np.array_equal(bits(C), C0), "C changed by a failed call"


def test_sgemm_invalid_c_on_device_untouched(lib, rng):
    C = np.asfortranarray(randm(rng, 4, 3))
    A = randm(rng, 4, 5)
    with g.Mirror(lib, C) as mc:
        st = lib.glblasSgemm(7, N_, 4, 3, 5, 1.0, A.ctypes.data, 4, A.ctypes.data, 5, 0.0,
                             mc.dev(C.ctypes.data), 4)
        assert st == GLBLAS_STATUS_INVALID_VALUE
        out = np.empty_like(C)
        mc.buf.download(out)
    assert np.array_equal(bits(out), bits(C))


# ---- device memory -----------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["ddd", "dhh", "hdh", "hhd", "hdd", "ddh"])
@pytest.mark.parametrize("opa,opb,m,n,k", [(N_, N_, 33, 17, 25), (T_, N_, 1, 1, 1),
                                           (N_, T_, 70, 65, 3), (T_, T_, 5, 100, 61)])
def test_sgemm_device(lib, rng, where, opa, opb, m, n, k):
    """Operands in device memory, each an interior sub-matrix of its allocation
    (dA + row_off + col_off*lda), host->device, run, device->host.  The padding of C's
    allocation must stay untouched on the device too."""
    alpha, beta = -0.75, 1.25
    SA = randm(rng, *stored_shape(opa, m, k))
    SB = randm(rng, *stored_shape(opb, k, n))
    C0 = randm(rng, m, n)
    Abase, A = colmajor_view(SA, layout="sub")
    Bbase, B = colmajor_view(SB, layout="sub", row_off=4, col_off=2)
    Cbase, C = colmajor_view(C0, layout="sub", row_off=1, col_off=3, fill=-3.0)
    Cbefore = Cbase.copy()
    ref, bound = sgemm_ref(alpha, apply_op(opa, SA), apply_op(opb, SB), beta, C0)
    with g.Mirror(lib, Abase) as mA, g.Mirror(lib, Bbase) as mB, g.Mirror(lib, Cbase) as mC:
        pa, lda, _ = mat_arg(A)
        pb, ldb, _ = mat_arg(B)
        pc, ldc, _ = mat_arg(C)
        if where[0] == "d":
            pa = mA.dev(pa)
        if where[1] == "d":
            pb = mB.dev(pb)
        if where[2] == "d":
            pc = mC.dev(pc)
        g.check(lib, lib.glblasSgemm(opa, opb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc))
        if where[2] == "d":
            mC.fetch()
    assert_close(C, ref, bound, f"device {where}")
    outside = np.ones(Cbase.shape, bool)
    outside[1:1 + m, 3:3 + n] = False
    assert np.array_equal(bits(Cbase)[outside], bits(Cbefore)[outside])


def test_sgemm_device_shared_allocation(lib, rng):
    """A, B and C are sub-matrices of one device allocation (disjoint column ranges)."""
    ld = 40
    big = np.asfortranarray(randm(rng, ld, 60))
    m, n, k = 30, 12, 20
    A = big[5:5 + m, 0:k]
    B = big[2:2 + k, 25:25 + n]
    C = big[7:7 + m, 45:45 + n]
    C0 = C.copy()
    ref, bound = sgemm_ref(1.0, A, B, -1.0, C0)
    before = big.copy()
    with g.Mirror(lib, big) as mb:
        g.check(lib, lib.glblasSgemm(N_, N_, m, n, k, 1.0, mb.dev(A.ctypes.data), ld,
                                     mb.dev(B.ctypes.data), ld, -1.0, mb.dev(C.ctypes.data), ld))
        mb.fetch()
    assert_close(C, ref, bound, "shared allocation")
    outside = np.ones(big.shape, bool)
    outside[7:7 + m, 45:45 + n] = False
    assert np.array_equal(bits(big)[outside], bits(before)[outside])


def test_sgemm_device_results_chain(lib, rng):
    """The device output of one sgemm feeds the next without a host round trip in between."""
    m = 24
    A = np.asfortranarray(randm(rng, m, m))
    B = np.asfortranarray(randm(rng, m, m))
    with g.Mirror(lib, A) as mA, g.Mirror(lib, B) as mB, g.DeviceBuffer(lib, A.nbytes) as dT, \
            g.DeviceBuffer(lib, A.nbytes) as dD:
        g.check(lib, lib.glblasSgemm(N_, N_, m, m, m, 1.0, mA.buf.at(), m, mB.buf.at(), m,
                                     0.0, dT.at(), m))
        g.check(lib, lib.glblasSgemm(N_, N_, m, m, m, 1.0, dT.at(), m, mB.buf.at(), m,
                                     0.0, dD.at(), m))
        T = dT.download(np.empty((m, m), np.float32, order="F"))
        D = dD.download(np.empty((m, m), np.float32, order="F"))
    ref, bound = sgemm_ref(1.0, A, B, 0.0, None)
    assert_close(T, ref, bound, "first product")
    ref2, bound2 = sgemm_ref(1.0, T, B, 0.0, None)
    assert_close(D, ref2, bound2, "second product (from the device result)")


# ---- concurrency -------------------------------------------------------------------------------

def test_sgemm_threads(lib):
    """Any thread may call any function concurrently (ctypes drops the GIL during calls)."""
    def work(seed):
        rng = np.random.default_rng(seed)
        for it in range(4):
            m, n, k = (int(v) for v in rng.integers(1, 48, 3))
            A = np.asfortranarray(randm(rng, m, k))
            B = np.asfortranarray(randm(rng, k, n))
            C = np.asfortranarray(randm(rng, m, n))
            ref, bound = sgemm_ref(1.0, A, B, 0.5, C)
            if it % 2:
                with g.Mirror(lib, A) as mA, g.Mirror(lib, C) as mC:
                    g.check(lib, lib.glblasSgemm(N_, N_, m, n, k, 1.0, mA.buf.at(), m,
                                                 B.ctypes.data, k, 0.5, mC.buf.at(), m))
                    mC.fetch()
            else:
                g.check(lib, lib.glblasSgemm(N_, N_, m, n, k, 1.0, A.ctypes.data, m,
                                             B.ctypes.data, k, 0.5, C.ctypes.data, m))
            assert_close(C, ref, bound, f"thread {seed} iter {it}")
            x = rng.standard_normal(500).astype(np.float32)
            st, r = g.sdot(lib, x, x)
            g.check(lib, st)
            rr, bb = sdot_ref(x, x)
            assert_close(r, rr, bb, "threaded sdot")
        return True

    with concurrent.futures.ThreadPoolExecutor(max_workers=6) as ex:
        results = list(ex.map(work, range(100, 106)))
    assert all(results)
