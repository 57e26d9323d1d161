"""The BLAS routines on numpy arrays and DeviceArrays, in any mix.

Each array is handed to the C routine as BLAS describes memory: a vector as its lowest-addressed
element and an increment, a matrix as a column-major one and its leading dimension. A C-ordered
matrix is the transpose of a column-major one, so it is passed as that with the operation
flipped (and a C-ordered output is computed as the transposed problem). Only what BLAS cannot
describe is copied: a matrix with no unit stride or a negative one, a byte stride that is no
whole number of elements, an output that overlaps an input of gemm or gemv.
"""

import contextlib
from ctypes import c_double, c_float

import numpy as np

from ._capi import (GLBLAS_DIAG_NON_UNIT, GLBLAS_DIAG_UNIT, GLBLAS_FILL_MODE_LOWER,
                    GLBLAS_FILL_MODE_UPPER, GLBLAS_OP_C, GLBLAS_OP_N, GLBLAS_OP_T,
                    GLBLAS_SIDE_LEFT, GLBLAS_SIDE_RIGHT, LIBRARY_PATH, ROUTINES, check)
from ._device import DTYPES, DeviceArray, empty

_INT_MAX = 2**31 - 1


_PREFIXES = {np.dtype(np.float32): "S", np.dtype(np.float64): "D",
             np.dtype(np.complex64): "C", np.dtype(np.complex128): "Z"}


def _prefix(dtype):
    return _PREFIXES[np.dtype(dtype)]


def supports(routine, dtype):
    """Whether the loaded library has ``routine`` ("gemm", "axpy", ...) in the precision of
    ``dtype`` (a library may have float32's and not yet float64's)."""
    return (_prefix(dtype), routine) in ROUTINES


def _routine(name, dtype):
    f = ROUTINES.get((_prefix(dtype), name))
    if f is None:
        raise TypeError(f"{name}: this libglblas ({LIBRARY_PATH}) has no {np.dtype(dtype)} "
                        f"{name} (glblas{_prefix(dtype)}{name})")
    return f


def _array(routine, name, x, ndims, like=None):
    """An input as a DeviceArray or ndarray, its dtype and dimensions checked; ``like`` is
    (name, dtype) of the argument that set the call's precision."""
    if not isinstance(x, DeviceArray):
        x = np.asarray(x)
    if x.dtype not in DTYPES:
        raise TypeError(f"{routine}: {name} has dtype {x.dtype}; glblas computes on float32, "
                        "float64, complex64 and complex128")
    if like is not None and x.dtype != like[1]:
        raise TypeError(f"{routine}: {name} has dtype {x.dtype} but {like[0]} has {like[1]}; "
                        "glblas does not mix precisions")
    if x.ndim not in ndims:
        raise ValueError(f"{routine}: {name} has {x.ndim} dimensions; expected "
                         f"{' or '.join(map(str, ndims))}")
    if any(n > _INT_MAX for n in x.shape):
        raise ValueError(f"{routine}: {name} has shape {x.shape}; glblas takes at most "
                         f"{_INT_MAX} elements along a dimension")
    return x


def _output(routine, name, x, shape, dtype):
    """An output given by the caller, written in place."""
    if not isinstance(x, (DeviceArray, np.ndarray)):
        raise TypeError(f"{routine}: {name} must be a numpy array or a DeviceArray (it is "
                        f"written in place), not {type(x).__name__}")
    if x.dtype != dtype:
        raise TypeError(f"{routine}: {name} has dtype {x.dtype}; expected {dtype}")
    if shape is not None and x.shape != shape:
        raise ValueError(f"{routine}: {name} has shape {x.shape}; expected {shape}")
    if isinstance(x, np.ndarray) and not x.flags.writeable:
        raise ValueError(f"{routine}: {name} is read-only")
    if any(s == 0 and n > 1 for n, s in zip(x.shape, x.strides)):
        raise ValueError(f"{routine}: {name} has a zero stride: its elements overlap")
    return x


def _result(routine, name, out, shape, dtype, inputs, reads_out=False):
    """The given output, or a new one: on the device when any input is there (so that chains of
    calls stay there), else on the host."""
    if out is not None:
        return _output(routine, name, out, shape, dtype)
    if reads_out:
        raise ValueError(f"{routine}: beta is nonzero but no {name} was given")
    if any(isinstance(x, DeviceArray) for x in inputs):
        return empty(shape, dtype)
    return np.empty(shape, dtype)


def _may_overlap(x, y):
    if isinstance(x, np.ndarray) and isinstance(y, np.ndarray):
        return np.may_share_memory(x, y)
    if isinstance(x, DeviceArray) and isinstance(y, DeviceArray):
        if x._buffer is not y._buffer or not x.size or not y.size:
            return False
        (a, b), (c, d) = x._span(), y._span()
        return a < d and c < b
    return False


def _vector_layout(address, n, stride, itemsize):
    """(pointer to the lowest-addressed element, increment), or None."""
    if stride % itemsize or abs(stride // itemsize) > _INT_MAX:
        return None
    inc = stride // itemsize
    if inc < 0 and n > 0:
        address += (n - 1) * stride
    return address, inc


def _matrix_layout(shape, strides, itemsize):
    """(ld, transposed) of a column-major matrix that is the array (or its transpose, when
    transposed) with element 0 first in memory, or None."""
    (r, c), (s0, s1) = shape, strides
    if r * c == 0:
        return max(1, r), False
    if s0 % itemsize or s1 % itemsize:
        return None
    e0, e1 = s0 // itemsize, s1 // itemsize
    found = None
    if e0 == 1 or r == 1:
        if e1 >= max(1, r):
            found = e1, False
        elif c == 1:
            found = max(1, r), False
    if found is None and (e1 == 1 or c == 1):
        if e0 >= max(1, c):
            found = e0, True
        elif r == 1:
            found = max(1, c), True
    if found is None or found[0] > _INT_MAX:
        return None
    return found


def _copy_matrix(src, dst):
    """dst := src for two matrices of one shape, a line at a time along the longer side."""
    rows, cols = src.shape
    if rows <= cols:
        for i in range(rows):
            copy(src[i], out=dst[i])
    else:
        for j in range(cols):
            copy(src[:, j], out=dst[:, j])


def _assign(src, dst):
    """dst := src for two arrays of one shape, either of them on the device."""
    if isinstance(dst, np.ndarray) and isinstance(src, np.ndarray):
        dst[...] = src
    elif src.ndim == 1:
        copy(src, out=dst)
    else:
        _copy_matrix(src, dst)


class _Operands:
    """The pointers, increments and leading dimensions of one call's arrays. Device memory stays
    allocated until the block ends; an array BLAS cannot describe is replaced by a copy, an
    output's copy being written back once the block ends without an error."""

    def __init__(self):
        self._stack = contextlib.ExitStack()
        self._write_back = []
        # Host stand-ins, alive until the block ends: the call reads them through bare pointers.
        self._stand_ins = []

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        with self._stack:
            if exc_type is None:
                for f in self._write_back:
                    f()

    def _address(self, x):
        if isinstance(x, DeviceArray):
            return self._stack.enter_context(x.address())
        return x.ctypes.data

    def _stand_in(self, x, order, write, read):
        """A contiguous copy of x (in ``order``: 'C' or 'F'), copied back if written."""
        device = isinstance(x, DeviceArray)
        if device:
            tmp = empty(x.shape, x.dtype, order)
            # Freed when the block ends, after any write-back, whether or not it failed.
            self._stack.callback(tmp.free)
        else:
            tmp = np.empty(x.shape, x.dtype, order=order)
            self._stand_ins.append(tmp)
        if read:
            _assign(x, tmp)
        if write:
            self._write_back.append(lambda: _assign(tmp, x))
        return tmp

    def vector(self, x, write=False, read=True, zero_inc=True, any_order=False,
               force_copy=False):
        """(pointer, increment) of a 1-D array. ``zero_inc``: a zero stride may be passed as a
        zero increment (element 0 repeated, as BLAS reads it); ``any_order``: the routine's
        result does not depend on the order of the elements (scal and asum, which do nothing
        for a negative increment, get the positive one)."""
        n = x.shape[0]
        layout = None if force_copy else _vector_layout(0, n, x.strides[0], x.itemsize)
        if layout is None or (layout[1] == 0 and n > 1 and not zero_inc):
            x = self._stand_in(x, "C", write, read)
        address = self._address(x)
        if not n:
            return address, 1
        address, inc = _vector_layout(address, n, x.strides[0], x.itemsize)
        return address, (abs(inc) if any_order else inc)

    def matrix(self, x, write=False, read=True, force_copy=False, transposed=None):
        """(pointer, ld, transposed) of a 2-D array (see _matrix_layout); ``transposed``, where
        given, is how the call needs it laid out (a copy laid out so where x is not)."""
        layout = None if force_copy else _matrix_layout(x.shape, x.strides, x.itemsize)
        if transposed is not None and layout is not None and layout[1] != transposed:
            # The other reading of a matrix that is both (one row or one column, or empty).
            shape, strides = ((x.shape[::-1], x.strides[::-1]) if transposed
                              else (x.shape, x.strides))
            other = _matrix_layout(shape, strides, x.itemsize)
            layout = (other[0], transposed) if other is not None and not other[1] else None
        if layout is None:
            x = self._stand_in(x, "C" if transposed else "F", write, read)
            return self.matrix(x, transposed=transposed)
        return (self._address(x),) + layout

    def scalar(self, out):
        """Pointer to a one-element output (host or device)."""
        return self._address(out)


def _op(transposed):
    return GLBLAS_OP_T if transposed else GLBLAS_OP_N


def _scalar(routine, name, value, dtype):
    """A scalar argument of a routine in ``dtype``'s precision: a real by value, a complex one
    as the {re, im} pair its routine takes a pointer to."""
    value = complex(value)
    if np.dtype(dtype).kind == "c":
        part = c_float if dtype == np.complex64 else c_double
        return (part * 2)(value.real, value.imag)
    if value.imag:
        raise TypeError(f"{routine}: {name} = {value} is complex, but the arrays are real")
    return value.real


def _call(f, *args):
    check(f(*args), f.__name__)


def gemm(a, b, c=None, alpha=1.0, beta=0.0, trans_a=False, trans_b=False):
    """c := alpha * op(a) @ op(b) + beta * c, op(x) being x or x.T (trans_a, trans_b). Without
    c a new array is returned (beta must then be 0)."""
    a = _array("gemm", "a", a, (2,))
    b = _array("gemm", "b", b, (2,), like=("a", a.dtype))
    m, k = a.shape[::-1] if trans_a else a.shape
    kb, n = b.shape[::-1] if trans_b else b.shape
    if kb != k:
        raise ValueError(f"gemm: op(b) has shape {(kb, n)}; it needs {k} rows, as op(a) has "
                         f"shape {(m, k)}")
    c = _result("gemm", "c", c, (m, n), a.dtype, (a, b), reads_out=beta != 0)
    f = _routine("gemm", a.dtype)
    alpha, beta = (_scalar("gemm", name, v, a.dtype)
                   for name, v in (("alpha", alpha), ("beta", beta)))
    with _Operands() as ops:
        pc, ldc, tc = ops.matrix(c, write=True, read=beta != 0,
                                 force_copy=_may_overlap(c, a) or _may_overlap(c, b))
        pa, lda, ta = ops.matrix(a)
        pb, ldb, tb = ops.matrix(b)
        # Whether the stored (column-major) a and b enter transposed.
        fa, fb = ta != bool(trans_a), tb != bool(trans_b)
        if tc:
            # c is stored as its transpose: c.T = op(b).T @ op(a).T.
            _call(f, _op(not fb), _op(not fa), n, m, k, alpha, pb, ldb, pa, lda, beta, pc, ldc)
        else:
            _call(f, _op(fa), _op(fb), m, n, k, alpha, pa, lda, pb, ldb, beta, pc, ldc)
    return c


def gemv(a, x, y=None, alpha=1.0, beta=0.0, trans=False):
    """y := alpha * op(a) @ x + beta * y, op(a) being a or a.T (trans). Without y a new array is
    returned (beta must then be 0)."""
    a = _array("gemv", "a", a, (2,))
    x = _array("gemv", "x", x, (1,), like=("a", a.dtype))
    rows, cols = a.shape[::-1] if trans else a.shape
    if x.shape != (cols,):
        raise ValueError(f"gemv: x has shape {x.shape}; expected ({cols},), as op(a) has shape "
                         f"{(rows, cols)}")
    y = _result("gemv", "y", y, (rows,), a.dtype, (a, x), reads_out=beta != 0)
    f = _routine("gemv", a.dtype)
    alpha, beta = (_scalar("gemv", name, v, a.dtype)
                   for name, v in (("alpha", alpha), ("beta", beta)))
    with _Operands() as ops:
        py, incy = ops.vector(y, write=True, read=beta != 0,
                              force_copy=_may_overlap(y, a) or _may_overlap(y, x))
        if cols == 0:
            # y := beta*y, which gemv's quick return for an empty inner dimension skips: gemm
            # with k = 0 on y as a 1 x rows matrix (its increment as the leading dimension).
            _call(_routine("gemm", a.dtype), GLBLAS_OP_N, GLBLAS_OP_N, 1, rows, 0, alpha, None,
                  1, None, 1, beta, py, max(1, abs(incy)))
            return y
        pa, lda, ta = ops.matrix(a)
        px, incx = ops.vector(x, zero_inc=False)
        m, n = a.shape[::-1] if ta else a.shape
        _call(f, _op(ta != bool(trans)), m, n, alpha, pa, lda, px, incx,
              beta, py, incy)
    return y


def _sides(routine, side):
    """Whether ``side`` ("left" or "right") is left."""
    if side not in ("left", "right"):
        raise ValueError(f"{routine}: side is {side!r}; expected 'left' or 'right'")
    return side == "left"


def _side(left):
    return GLBLAS_SIDE_LEFT if left else GLBLAS_SIDE_RIGHT


def _fill(lower):
    return GLBLAS_FILL_MODE_LOWER if lower else GLBLAS_FILL_MODE_UPPER


def _hermitian(routine, hermitian, dtype):
    """The routine's name: its Hermitian twin (hemm, herk, her2k) for complex arrays when asked."""
    if not hermitian:
        return routine
    if np.dtype(dtype).kind != "c":
        raise TypeError(f"{routine}: hermitian=True needs complex arrays, not {dtype}")
    return {"symm": "hemm", "syrk": "herk", "syr2k": "her2k"}[routine]


def _square(routine, a, order, what):
    if a.shape != (order, order):
        raise ValueError(f"{routine}: a has shape {a.shape}; expected ({order}, {order}), {what}")


def _real_scalar(routine, name, value, dtype):
    """A real scalar of a complex routine (csscal's alpha, herk's alpha and beta, her2k's beta):
    by pointer, as a complex routine takes its scalars."""
    part = c_float if dtype == np.complex64 else c_double
    return (part * 1)(_scalar(routine, name, value, _real_type(dtype)))


def symm(a, b, c=None, alpha=1.0, beta=0.0, side="left", lower=True, hermitian=False):
    """c := alpha * a @ b + beta * c (side "left") or alpha * b @ a + beta * c ("right"), a
    symmetric (Hermitian with ``hermitian``, complex only: hemm) and read from its lower triangle
    (upper with ``lower=False``) alone. Without c a new array is returned (beta must then be
    0)."""
    routine = "symm"
    a = _array(routine, "a", a, (2,))
    b = _array(routine, "b", b, (2,), like=("a", a.dtype))
    routine = _hermitian(routine, hermitian, a.dtype)
    left = _sides(routine, side)
    m, n = b.shape
    _square(routine, a, m if left else n, f"as b has shape {b.shape} and a is on the {side}")
    c = _result(routine, "c", c, (m, n), a.dtype, (a, b), reads_out=beta != 0)
    f = _routine(routine, a.dtype)
    alpha, beta = (_scalar(routine, name, v, a.dtype) for name, v in (("alpha", alpha),
                                                                       ("beta", beta)))
    with _Operands() as ops:
        pc, ldc, tc = ops.matrix(c, write=True, read=beta != 0,
                                 force_copy=_may_overlap(c, a) or _may_overlap(c, b))
        pa, lda, _ = ops.matrix(a, transposed=tc)
        pb, ldb, _ = ops.matrix(b, transposed=tc)
        if tc:
            # c.T = alpha * b.T @ a.T + beta * c.T, a.T stored as a's other triangle (for a
            # Hermitian a, a.T is conj(a), the matrix that triangle defines).
            m, n, left, lower = n, m, not left, not lower
        _call(f, _side(left), _fill(lower), m, n, alpha, pa, lda, pb, ldb, beta, pc, ldc)
    return c


def _rank_k(routine, a, b, c, alpha, beta, lower, trans, hermitian):
    """syrk (b None) and syr2k, or herk and her2k."""
    a = _array(routine, "a", a, (2,))
    if b is not None:
        b = _array(routine, "b", b, (2,), like=("a", a.dtype))
        if b.shape != a.shape:
            raise ValueError(f"{routine}: b has shape {b.shape}; expected {a.shape} like a")
    routine = _hermitian(routine, hermitian, a.dtype)
    n, k = a.shape[::-1] if trans else a.shape
    inputs = (a,) if b is None else (a, b)
    c = _result(routine, "c", c, (n, n), a.dtype, inputs, reads_out=beta != 0)
    f = _routine(routine, a.dtype)
    # herk's scalars are real, her2k's beta.
    alpha = (_real_scalar(routine, "alpha", alpha, a.dtype) if routine == "herk"
             else _scalar(routine, "alpha", alpha, a.dtype))
    beta = (_real_scalar(routine, "beta", beta, a.dtype) if hermitian
            else _scalar(routine, "beta", beta, a.dtype))
    with _Operands() as ops:
        pc, ldc, tc = ops.matrix(c, write=True, read=beta != 0,
                                 force_copy=any(_may_overlap(c, x) for x in inputs))
        stored = [ops.matrix(x, transposed=tc)[:2] for x in inputs]
        if tc:
            # c.T is c (for a Hermitian c, conj(c): the conjugated product, whose operands are
            # a's and b's stored transposes taken the other way, b's product first), stored as
            # its other triangle.
            lower, trans, stored = not lower, not trans, stored[::-1]
        op = (GLBLAS_OP_C if hermitian else GLBLAS_OP_T) if trans else GLBLAS_OP_N
        operands = [v for pair in stored for v in pair]
        _call(f, _fill(lower), op, n, k, alpha, *operands, beta, pc, ldc)
    return c


def syrk(a, c=None, alpha=1.0, beta=0.0, lower=True, trans=False, hermitian=False):
    """c := alpha * op(a) @ op(a).T + beta * c, op(a) being a, or a.T with ``trans``; with
    ``hermitian`` (complex only: herk, real alpha and beta) op(a) @ op(a).conj().T, op(a) being
    a or a.conj().T. Only c's lower (upper with ``lower=False``) triangle is read and written.
    Without c a new array is returned (beta must then be 0), its other triangle undefined."""
    return _rank_k("syrk", a, None, c, alpha, beta, lower, trans, hermitian)


def syr2k(a, b, c=None, alpha=1.0, beta=0.0, lower=True, trans=False, hermitian=False):
    """c := alpha * op(a) @ op(b).T + alpha * op(b) @ op(a).T + beta * c (op as syrk's); with
    ``hermitian`` (complex only: her2k, real beta) alpha * op(a) @ op(b).conj().T +
    conj(alpha) * op(b) @ op(a).conj().T + beta * c. Triangles as syrk's."""
    return _rank_k("syr2k", a, b, c, alpha, beta, lower, trans, hermitian)


def _triangular(routine, a, b, alpha, side, lower, trans, unit):
    """trmm and trsm: b in place."""
    a = _array(routine, "a", a, (2,))
    b = _array(routine, "b", b, (2,), like=("a", a.dtype))
    _output(routine, "b", b, b.shape, a.dtype)
    left = _sides(routine, side)
    m, n = b.shape
    _square(routine, a, m if left else n, f"as b has shape {b.shape} and a is on the {side}")
    f = _routine(routine, a.dtype)
    alpha = _scalar(routine, "alpha", alpha, a.dtype)
    with _Operands() as ops:
        pb, ldb, tb = ops.matrix(b, write=True, force_copy=_may_overlap(b, a))
        pa, lda, _ = ops.matrix(a, transposed=tb)
        if tb:
            # b.T := alpha * b.T @ op(a).T, op(a).T being the same operation of a.T, which is
            # stored as a's other triangle.
            m, n, left, lower = n, m, not left, not lower
        _call(f, _side(left), _fill(lower), _op(trans), GLBLAS_DIAG_UNIT if unit
              else GLBLAS_DIAG_NON_UNIT, m, n, alpha, pa, lda, pb, ldb)
    return b


def trmm(a, b, alpha=1.0, side="left", lower=True, trans=False, unit=False):
    """b := alpha * op(a) @ b (side "left") or alpha * b @ op(a) ("right"), in place; a
    triangular, its lower (upper with ``lower=False``) triangle read, with ones on its diagonal
    (unread) when ``unit``; op(a) is a, or a.T with ``trans``. Returns b."""
    return _triangular("trmm", a, b, alpha, side, lower, trans, unit)


def trsm(a, b, alpha=1.0, side="left", lower=True, trans=False, unit=False):
    """b := x solving op(a) @ x = alpha * b (side "left") or x @ op(a) = alpha * b ("right"), in
    place; a as trmm's. Returns b."""
    return _triangular("trsm", a, b, alpha, side, lower, trans, unit)


def _pair(routine, x, y, y_name="y"):
    x = _array(routine, "x", x, (1,))
    y = _array(routine, y_name, y, (1,), like=("x", x.dtype))
    if y.shape != x.shape:
        raise ValueError(f"{routine}: {y_name} has shape {y.shape}; expected {x.shape} like x")
    return x, y


def axpy(x, y, alpha=1.0):
    """y := alpha * x + y, in place; returns y."""
    x, y = _pair("axpy", x, y)
    _output("axpy", "y", y, x.shape, x.dtype)
    f = _routine("axpy", x.dtype)
    alpha = _scalar("axpy", "alpha", alpha, x.dtype)
    with _Operands() as ops:
        py, incy = ops.vector(y, write=True)
        px, incx = ops.vector(x)
        _call(f, x.shape[0], alpha, px, incx, py, incy)
    return y


def _real_type(dtype):
    """The type of a complex dtype's parts (a real dtype itself)."""
    return np.empty(0, dtype).real.dtype


def _reduction(routine, x, out, compute, dtype=None):
    """A sum over x into ``out`` (a one-element array, host or device, of ``dtype``, x's by
    default), or into a new host scalar returned as a float (a complex for complex ``dtype``)."""
    dtype = np.dtype(dtype or x.dtype)
    if out is not None:
        out = _output(routine, "out", out, None, dtype)
        if out.size != 1:
            raise ValueError(f"{routine}: out has shape {out.shape}; expected one element")
    with _Operands() as ops:
        if out is not None:
            compute(ops, ops.scalar(out))
            return out
        result = np.zeros(1, dtype)
        compute(ops, result.ctypes.data)
        return complex(result[0]) if dtype.kind == "c" else float(result[0])


def _real_reduction(routine, x, out):
    """asum or nrm2 of x: a real result whatever x's type, its elements in any order."""
    x = _array(routine, "x", x, (1,))
    f = _routine(routine, x.dtype)

    def compute(ops, result):
        px, incx = ops.vector(x, any_order=True)
        _call(f, x.shape[0], px, incx, result)

    return _reduction(routine, x, out, compute, _real_type(x.dtype))


def _dot(routine, x, y, out):
    x, y = _pair(routine, x, y)
    # x·y of real vectors is dot; of complex ones dotu, or dotc with x conjugated (vdot).
    name = {"dot": "dotu", "vdot": "dotc"}[routine] if x.dtype.kind == "c" else "dot"
    f = _routine(name, x.dtype)

    def compute(ops, result):
        px, incx = ops.vector(x)
        py, incy = ops.vector(y)
        _call(f, x.shape[0], px, incx, py, incy, result)

    return _reduction(routine, x, out, compute)


def dot(x, y, out=None):
    """x · y, unconjugated (dotu for complex vectors), as a float or complex, or into ``out``
    (one element, host or device)."""
    return _dot("dot", x, y, out)


def vdot(x, y, out=None):
    """conj(x) · y (dotc for complex vectors, dot for real ones), as numpy's vdot, as a float
    or complex, or into ``out`` (one element, host or device)."""
    return _dot("vdot", x, y, out)


def asum(x, out=None):
    """sum |x_i| (|re| + |im| of each complex x_i, as scasum) as a float, or into ``out`` (one
    element, host or device, of x's real type)."""
    return _real_reduction("asum", x, out)


def nrm2(x, out=None):
    """The Euclidean norm of x (over both parts of complex elements, as scnrm2), without
    overflow or underflow on the way, as a float, or into ``out`` (one element, host or device,
    of x's real type)."""
    return _real_reduction("nrm2", x, out)


def iamax(x):
    """The index (from 0) of the first element of largest magnitude, |x_i| for real x and
    |re| + |im| for complex x (as icamax). A NaN is never the largest, except as element 0 (as
    the reference compares). As for numpy's argmax, an empty x is a ValueError."""
    x = _array("iamax", "x", x, (1,))
    if not x.shape[0]:
        raise ValueError("iamax: x is empty")
    f = _routine("iamax", x.dtype)
    index = np.zeros(1, np.int32)
    with _Operands() as ops:
        # In its own order: a reversed or repeated x is copied, since the first of equal
        # elements is the answer.
        px, incx = ops.vector(x, zero_inc=False, force_copy=x.strides[0] < 0)
        _call(f, x.shape[0], px, incx, index.ctypes.data)
    return int(index[0]) - 1


def scal(x, alpha):
    """x := alpha * x, in place; returns x. A real alpha scales each part of a complex x
    (csscal)."""
    x = _array("scal", "x", x, (1,))
    _output("scal", "x", x, x.shape, x.dtype)
    real_alpha = x.dtype.kind == "c" and complex(alpha).imag == 0
    if real_alpha:
        f = _routine("scal_real", x.dtype)
        alpha = _real_scalar("scal", "alpha", alpha, x.dtype)
    else:
        f = _routine("scal", x.dtype)
        alpha = _scalar("scal", "alpha", alpha, x.dtype)
    with _Operands() as ops:
        px, incx = ops.vector(x, write=True, any_order=True)
        _call(f, x.shape[0], alpha, px, incx)
    return x


def copy(x, out=None):
    """out := x; without out a new array (on the device when x is there)."""
    x = _array("copy", "x", x, (1,))
    f = _routine("copy", x.dtype)
    out = _result("copy", "out", out, x.shape, x.dtype, (x,))
    with _Operands() as ops:
        py, incy = ops.vector(out, write=True, read=False)
        px, incx = ops.vector(x)
        _call(f, x.shape[0], px, incx, py, incy)
    return out


def swap(x, y):
    """x <-> y, in place."""
    x, y = _pair("swap", x, y)
    _output("swap", "x", x, x.shape, x.dtype)
    _output("swap", "y", y, x.shape, x.dtype)
    f = _routine("swap", x.dtype)
    with _Operands() as ops:
        px, incx = ops.vector(x, write=True)
        py, incy = ops.vector(y, write=True)
        _call(f, x.shape[0], px, incx, py, incy)


def matmul(a, b, out=None):
    """a @ b for 1-D and 2-D arrays (gemm, gemv, or dot for two vectors), into ``out`` when
    given."""
    a = _array("matmul", "a", a, (1, 2))
    b = _array("matmul", "b", b, (1, 2), like=("a", a.dtype))
    k, kb = a.shape[-1], b.shape[0 if b.ndim == 1 else -2]
    if k != kb:
        raise ValueError(f"matmul: b has shape {b.shape}; its {'length' if b.ndim == 1 else 'rows'}"
                         f" must be a's {k} columns (a has shape {a.shape})")
    if a.ndim == 2 and b.ndim == 2:
        return gemm(a, b, c=out)
    if a.ndim == 2:
        return gemv(a, b, y=out)
    if b.ndim == 2:
        return gemv(b, a, y=out, trans=True)
    return dot(a, b, out=out)
