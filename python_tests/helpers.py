"""Helpers for the tests that call the C API directly (through ``glblas.lib``, the package's
ctypes declarations): numpy views as BLAS arguments, device buffers, and status-returning
wrappers.

* A 1-D float32 numpy view ``v`` (any stride, positive or negative) maps to BLAS (pointer, inc):
  ``inc = v.strides[0] // 4`` and the pointer is the *lowest-address* element.  For a positive
  stride that is ``v[0]``; for a negative stride it is ``v[n-1]`` (BLAS convention: with inc < 0,
  element i of the vector lives at ``base[(n-1-i)*|inc|]``).
* A 2-D float32 numpy view ``M`` maps to a column-major (pointer, ld) when its row stride is one
  element (Fortran-ordered arrays, column-major sub-matrix views with ld > rows).  A C-ordered
  (row-major) view is the *transpose* of a column-major matrix: it is passed as (pointer, ld)
  of M.T, and the caller flips op N <-> T.
These are the package's own conversions (glblas._blas), so the tests check what it passes.
"""

from ctypes import byref, c_float, c_void_p

import numpy as np

from glblas import (GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_STATUS_SUCCESS, glblasMemcpyDeviceToHost,
                    glblasMemcpyHostToDevice, lib, status_string)
from glblas._blas import _matrix_layout, _vector_layout

F32 = np.dtype(np.float32)
ITEM = F32.itemsize  # 4 bytes
EPS = 2.0 ** -24  # unit roundoff of IEEE binary32 (round to nearest)


def check(lib, st, what="glblas call"):
    assert st == GLBLAS_STATUS_SUCCESS, f"{what} returned {st} ({status_string(st)})"


# ---- numpy -> BLAS argument mapping ------------------------------------------------------------

def addr(a):
    """Address of the first element (index 0 / [0, 0]) of a numpy view."""
    return a.ctypes.data


def vec_arg(v):
    """1-D float32 view -> (address of lowest-address element, inc in elements)."""
    assert v.dtype == F32 and v.ndim == 1
    layout = _vector_layout(v.ctypes.data, v.shape[0], v.strides[0], ITEM)
    assert layout is not None, "stride must be a whole number of floats"
    return layout


def mat_arg(M):
    """2-D float32 view -> (address, ld, transposed).

    transposed == False: M itself is column-major with leading dimension ld (rows stride 1).
    transposed == True:  M is row-major, i.e. M.T is column-major with leading dimension ld;
                         pass it with the opposite op.
    """
    assert M.dtype == F32 and M.ndim == 2
    layout = _matrix_layout(M.shape, M.strides, ITEM)
    if layout is None:
        raise ValueError(f"view with strides {M.strides} is not BLAS-expressible")
    return (M.ctypes.data,) + layout


def view_mask(base, view):
    """Boolean mask over the 1-D contiguous array ``base``: True at the elements that the 1-D view
    ``view`` of it covers (any stride), so ``~view_mask`` selects the gaps, lead-in and tail."""
    assert base.ndim == 1 and base.flags.c_contiguous
    p, inc = vec_arg(view)
    off = (p - base.ctypes.data) // ITEM
    mask = np.zeros(base.shape, bool)
    mask[off + np.arange(view.shape[0]) * abs(inc)] = True
    return mask


def colmajor_view(S, rng=None, layout="fortran", row_off=2, col_off=1, pad=3, fill=np.nan):
    """Place the values of 2-D array S in a column-major layout.

    Returns (base, view): ``view`` equals S and has a one-element row stride.
      layout 'fortran': base is a Fortran-ordered copy, view is base.
      layout 'sub':     base is a larger Fortran array (ld = rows + row_off + pad > rows) filled
                        with ``fill``; view is the interior sub-matrix starting at
                        (row_off, col_off).
    """
    S = np.asarray(S, dtype=F32)
    r, c = S.shape
    if layout == "fortran":
        base = np.asfortranarray(S.copy())
        return base, base
    if layout == "sub":
        base = np.full((r + row_off + pad, c + col_off + 1), fill, dtype=F32, order="F")
        view = base[row_off:row_off + r, col_off:col_off + c]
        view[...] = S
        return base, view
    raise ValueError(layout)


def bits(a):
    """Bit pattern of a float32 array (so that NaN == NaN for 'untouched' comparisons)."""
    return np.ascontiguousarray(a).view(np.uint32).copy()


def rand32(rng, *shape):
    """Standard normal float32 values of the given shape from the generator ``rng``."""
    return rng.standard_normal(shape).astype(np.float32)


# ---- device memory -----------------------------------------------------------------------------

class DeviceBuffer:
    """A glblasMalloc allocation. ``ptr`` is an int address (never dereference it on the host)."""

    def __init__(self, lib, nbytes):
        self.lib = lib
        self.nbytes = nbytes
        p = c_void_p()
        check(lib, lib.glblasMalloc(byref(p), nbytes), f"glblasMalloc({nbytes})")
        assert p.value is not None or nbytes == 0
        self.ptr = p.value

    def at(self, byte_offset=0):
        """Interior device pointer: ctypes pointer arithmetic on the address, in bytes."""
        return self.ptr + byte_offset

    def upload(self, arr, byte_offset=0):
        """Copy the raw memory of a contiguous array (C or Fortran order) to the device."""
        assert arr.flags.c_contiguous or arr.flags.f_contiguous
        check(self.lib, self.lib.glblasMemcpy(self.ptr + byte_offset, arr.ctypes.data, arr.nbytes,
                                              glblasMemcpyHostToDevice), "glblasMemcpy H2D")

    def download(self, arr, byte_offset=0):
        """Copy device bytes into the raw memory of a contiguous host array."""
        assert arr.flags.c_contiguous or arr.flags.f_contiguous
        assert arr.flags.writeable
        check(self.lib, self.lib.glblasMemcpy(arr.ctypes.data, self.ptr + byte_offset, arr.nbytes,
                                              glblasMemcpyDeviceToHost), "glblasMemcpy D2H")
        return arr

    def free(self):
        if self.ptr is not None:
            check(self.lib, self.lib.glblasFree(self.ptr), "glblasFree")
            self.ptr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


class CountingLib:
    """``glblas.lib`` with the pointers of its glblasFree calls recorded in ``freed``: set as
    ``glblas._device.lib``, where the package's finalizers look the library up when they run."""

    def __init__(self):
        self.freed = []

    def __getattr__(self, name):
        return getattr(lib, name)

    def glblasFree(self, p):
        self.freed.append(p)
        return lib.glblasFree(p)


class Mirror:
    """A device copy of a contiguous host array ``base``; translates host views of ``base``
    into the matching interior device pointers (same byte offset from the start)."""

    def __init__(self, lib, base):
        assert base.flags.c_contiguous or base.flags.f_contiguous
        self.base = base
        self.buf = DeviceBuffer(lib, base.nbytes)
        self.buf.upload(base)

    def dev(self, host_address):
        off = host_address - self.base.ctypes.data
        assert 0 <= off <= self.base.nbytes
        return self.buf.at(off)

    def vec_arg(self, v, on_device):
        """(pointer, inc) of view ``v`` of ``base``: the device copy's when ``on_device``."""
        p, inc = vec_arg(v)
        return (self.dev(p) if on_device else p), inc

    def fetch(self):
        """Overwrite the host base with the device contents."""
        return self.buf.download(self.base)

    def free(self):
        self.buf.free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


# ---- typed wrappers (return the status) --------------------------------------------------------

def saxpy(lib, alpha, x, y):
    """y = alpha*x + y on 1-D float32 numpy views (any strides incl. negative)."""
    assert x.shape == y.shape
    px, incx = vec_arg(x)
    py, incy = vec_arg(y)
    return lib.glblasSaxpy(x.shape[0], alpha, px, incx, py, incy)


def sdot(lib, x, y):
    """Returns (status, result) for 1-D float32 numpy views."""
    assert x.shape == y.shape
    px, incx = vec_arg(x)
    py, incy = vec_arg(y)
    res = c_float(np.nan)
    st = lib.glblasSdot(x.shape[0], px, incx, py, incy, byref(res))
    return st, res.value


def sscal(lib, alpha, x):
    """x = alpha*x on a 1-D float32 numpy view (positive stride: with inc <= 0 sscal does
    nothing).  Returns the status."""
    px, incx = vec_arg(x)
    return lib.glblasSscal(x.shape[0], alpha, px, incx)


def scopy(lib, x, y):
    """y = x on 1-D float32 numpy views (any strides incl. negative).  Returns the status."""
    assert x.shape == y.shape
    px, incx = vec_arg(x)
    py, incy = vec_arg(y)
    return lib.glblasScopy(x.shape[0], px, incx, py, incy)


def sswap(lib, x, y):
    """x <-> y on 1-D float32 numpy views (any strides incl. negative).  Returns the status."""
    assert x.shape == y.shape
    px, incx = vec_arg(x)
    py, incy = vec_arg(y)
    return lib.glblasSswap(x.shape[0], px, incx, py, incy)


def sasum(lib, x):
    """Returns (status, sum |x_i|) for a 1-D float32 numpy view (positive stride: with
    inc <= 0 sasum gives 0)."""
    px, incx = vec_arg(x)
    res = c_float(np.nan)
    st = lib.glblasSasum(x.shape[0], px, incx, byref(res))
    return st, res.value


def sgemv_numpy(lib, alpha, A, x, beta, y, op_t=GLBLAS_OP_T):
    """y = alpha*A@x + beta*y for a 2-D float32 numpy view A (r x c) and 1-D views x (c), y (r).

    A column-major A (Fortran order, column-major sub-matrix view) is passed as op N, m = r,
    n = c; a row-major A (C order) is the column-major A.T (c x r, ld = its row stride) and is
    passed with ``op_t`` (GLBLAS_OP_T or GLBLAS_OP_C), m = c, n = r.  Returns the status."""
    r, c = A.shape
    assert x.shape == (c,) and y.shape == (r,)
    pa, lda, ta = mat_arg(A)
    px, incx = vec_arg(x)
    py, incy = vec_arg(y)
    if ta:
        return lib.glblasSgemv(op_t, c, r, alpha, pa, lda, px, incx, beta, py, incy)
    return lib.glblasSgemv(GLBLAS_OP_N, r, c, alpha, pa, lda, px, incx, beta, py, incy)


def sgemm_numpy(lib, alpha, A, B, beta, C):
    """C = alpha*A@B + beta*C for 2-D float32 numpy views A (m x k), B (k x n), C (m x n).

    Each operand may be column-major (Fortran order, column-major sub-matrix view: passed as op N
    with its ld) or row-major (C order: it is the column-major transpose, passed as op T with the
    ld of A.T).  A row-major C is handled as the column-major C.T = B.T @ A.T.
    Returns the status."""
    m, k = A.shape
    k2, n = B.shape
    assert k == k2 and C.shape == (m, n)
    pc, ldc, tc = mat_arg(C)
    if tc and not (m <= 1 and n <= 1):
        # row-major C: C.T (n x m, column-major) = alpha * B.T @ A.T + beta * C.T
        return sgemm_numpy(lib, alpha, B.T, A.T, beta, C.T)
    pa, lda, ta = mat_arg(A)
    pb, ldb, tb = mat_arg(B)
    opa = GLBLAS_OP_T if ta else GLBLAS_OP_N
    opb = GLBLAS_OP_T if tb else GLBLAS_OP_N
    return lib.glblasSgemm(opa, opb, m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)


def strided_vector(values, inc, fill=np.nan, lead=2, tail=3):
    """Embed the 1-D ``values`` (length n) in a larger float32 buffer with increment ``inc``
    (elements; may be negative, or 0 for n == 1 or a broadcast read-only-style view) and
    ``fill`` everywhere else (gaps, lead-in and tail).  Returns (base, view) with view == values
    element for element, so vec_arg(view) gives the BLAS (pointer, inc).  For inc < 0 element i of
    the view sits at base[lead + (n-1-i)*|inc|], as BLAS expects."""
    values = np.asarray(values, dtype=F32)
    n = values.shape[0]
    span = (n - 1) * abs(inc) + 1 if n > 0 else 0
    base = np.full(lead + span + tail, fill, dtype=F32)
    if inc == 0:
        assert n >= 1 and np.all(values == values[0])
        base[lead] = values[0]
        view = np.lib.stride_tricks.as_strided(base[lead:], shape=(n,), strides=(0,))
        return base, view
    if inc > 0:
        view = base[lead:lead + span:inc]
    else:
        view = base[lead + span - 1:(lead - 1 if lead > 0 else None):inc]
    assert view.shape == (n,), (view.shape, n, inc)
    view[...] = values
    return base, view
