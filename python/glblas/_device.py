"""Device memory as arrays: DeviceArray, to_device, empty; and what the device is."""

import contextlib
import os
import threading
import weakref
from ctypes import byref, c_char_p, c_int, c_void_p

import numpy as np

from ._capi import (GlblasError, GLBLAS_STATUS_NOT_INITIALIZED, TuneProgress, check,
                    glblasDeviceInfo_t, glblasMemcpyDeviceToHost, glblasMemcpyHostToDevice, lib)

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
# What arrays may hold: the real types and their complex ones.
DTYPES = FLOATS + (np.dtype(np.complex64), np.dtype(np.complex128))

# glblas.shutdown() frees every allocation and may let the library hand the same addresses out
# again (after 1024 more frees): buffers from before it must never be freed or used again.
_generation = 0


def _free(ptr, generation, pid):
    # In a fork() child the parent's buffers are not this process's to free (glblas refuses every
    # call there anyway); a finalizer cannot raise, so a failing free is dropped.
    if generation == _generation and pid == os.getpid():
        lib.glblasFree(ptr)


class _Buffer:
    """One glblasMalloc allocation, shared by the DeviceArrays that view it. It is freed once:
    by ``free()`` (deferred until calls using it have returned), or when it is garbage-collected,
    or at interpreter exit (weakref.finalize's atexit hook, which runs before the C library's own
    exit handlers retire the GL context)."""

    def __init__(self, nbytes):
        p = c_void_p()
        check(lib.glblasMalloc(byref(p), nbytes), f"glblasMalloc({nbytes} bytes)")
        self.ptr = p.value  # None for 0 bytes
        self.generation = _generation
        self._lock = threading.Lock()
        self._users = 0
        self._free_requested = False
        self._release = weakref.finalize(self, _free, self.ptr, self.generation, os.getpid())

    @contextlib.contextmanager
    def use(self):
        """The device address, kept allocated until the block ends."""
        with self._lock:
            if self._free_requested or not self._release.alive:
                raise ValueError("this DeviceArray's memory was freed")
            if self.generation != _generation:
                raise ValueError("this DeviceArray's memory was released by glblas.shutdown()")
            self._users += 1
        try:
            yield self.ptr
        finally:
            with self._lock:
                self._users -= 1
                last = self._users == 0 and self._free_requested
            if last:
                self._release()

    def free(self):
        with self._lock:
            self._free_requested = True
            idle = self._users == 0
        if idle:
            self._release()


def _contiguous_strides(shape, itemsize, order):
    strides, step = [], itemsize
    for n in (reversed(shape) if order == "C" else shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides)) if order == "C" else tuple(strides)


class DeviceArray:
    """An array in glblas device memory: 0, 1 or 2 dimensions of float32 or float64, with numpy's
    ``shape``, ``dtype`` and ``strides`` (bytes). Indexing with integers and slices gives views of
    the same memory, as does ``.T``. Its memory lives until ``free()`` (or the end of a ``with``
    block) or until the array and all its views are garbage-collected."""

    def __init__(self, buffer, shape, dtype, strides, offset=0):
        self._buffer = buffer
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.strides = tuple(strides)
        self._offset = offset  # bytes from the allocation's start to element 0

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: int(np.prod(self.shape, dtype=np.int64)))
    itemsize = property(lambda self: self.dtype.itemsize)
    nbytes = property(lambda self: self.size * self.itemsize)
    T = property(lambda self: DeviceArray(self._buffer, self.shape[::-1], self.dtype,
                                          self.strides[::-1], self._offset))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d DeviceArray")
        return self.shape[0]

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype})"

    def _order(self):
        """'C' or 'F' when the elements are contiguous in that order, else None."""
        for order in ("C", "F"):
            if all(s == t for n, s, t in zip(self.shape, self.strides, _contiguous_strides(
                    self.shape, self.itemsize, order)) if n > 1):
                return order
        return None

    def _span(self):
        """The byte range of the elements within the allocation."""
        lo = hi = self._offset
        for n, s in zip(self.shape, self.strides):
            lo, hi = lo + min(0, (n - 1) * s), hi + max(0, (n - 1) * s)
        return lo, hi + self.itemsize

    @contextlib.contextmanager
    def address(self):
        """The device address of element 0 (None when empty), valid until the block ends."""
        with self._buffer.use() as base:
            yield None if base is None else base + self._offset

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        if not all(isinstance(k, (int, np.integer, slice)) or k is Ellipsis for k in keys):
            raise TypeError("a DeviceArray is indexed by integers, slices and ...")
        if sum(not isinstance(k, slice) and k is not Ellipsis for k in keys) >= self.ndim:
            raise IndexError("an index of a DeviceArray must leave a dimension; .get() copies "
                             "elements to the host")
        # numpy works the view out on a stand-in with this layout; slicing reads no element.
        probe = np.lib.stride_tricks.as_strided(np.zeros(1, self.dtype), self.shape,
                                                self.strides, writeable=False)
        view = probe[key]
        moved = view.__array_interface__["data"][0] - probe.__array_interface__["data"][0]
        return DeviceArray(self._buffer, view.shape, self.dtype, view.strides,
                           self._offset + moved)

    def get(self):
        """A numpy copy of the array."""
        order = self._order()
        if not self.size or order is not None:
            out = np.empty(self.shape, self.dtype, order=order or "C")
            if out.nbytes:
                with self.address() as p:
                    _download(out, p)
            return out
        # A strided view: the bytes it spans, then its elements among them.
        lo, hi = self._span()
        raw = np.empty(hi - lo, np.uint8)
        with self._buffer.use() as base:
            _download(raw, base + lo)
        first = raw[self._offset - lo:].view(self.dtype)
        return np.lib.stride_tricks.as_strided(first, self.shape, self.strides).copy()

    def free(self):
        """Frees the memory now (once calls using it have returned); this array and every view
        of it can no longer be used."""
        self._buffer.free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()


def _download(out, address):
    check(lib.glblasMemcpy(out.ctypes.data, address, out.nbytes, glblasMemcpyDeviceToHost),
          "glblasMemcpy to the host")


def _check_shape(shape):
    shape = tuple(int(n) for n in (shape if np.iterable(shape) else (shape,)))
    if len(shape) > 2 or any(n < 0 for n in shape):
        raise ValueError(f"shape {shape}: a DeviceArray has 0, 1 or 2 dimensions, none negative")
    return shape


def _check_dtype(dtype, what):
    dtype = np.dtype(dtype)
    if dtype not in DTYPES:
        raise TypeError(f"{what} has dtype {dtype}; glblas computes on float32, float64, "
                        "complex64 and complex128")
    return dtype


def empty(shape, dtype=np.float32, order="C"):
    """A new DeviceArray; its elements are undefined until written."""
    shape = _check_shape(shape)
    dtype = _check_dtype(dtype, "empty()")
    strides = _contiguous_strides(shape, dtype.itemsize, order)
    return DeviceArray(_Buffer(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize), shape,
                       dtype, strides)


def to_device(a):
    """A DeviceArray holding a copy of ``a`` (Fortran order kept, any other layout made
    C-contiguous)."""
    a = np.asarray(a)
    _check_dtype(a.dtype, "to_device(): a")
    order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    a = np.asarray(a, order=order)
    d = empty(a.shape, a.dtype, order)
    if a.nbytes:
        with d.address() as p:
            check(lib.glblasMemcpy(p, a.ctypes.data, a.nbytes, glblasMemcpyHostToDevice),
                  "glblasMemcpy to the device")
    return d


def shutdown():
    """Frees every device allocation, GL object and the context (glblasShutdown); DeviceArrays
    made before can no longer be used. The next call starts the device again."""
    global _generation
    _generation += 1
    check(lib.glblasShutdown(), "glblasShutdown")


def sync():
    """Waits until all device work issued so far has completed."""
    check(lib.glblasSync(), "glblasSync")


def warm():
    """Compiles every shader the routines use on host arrays, in each precision the device has
    (glblasWarm), so that the driver's disk cache (Mesa's) holds them for later processes; the
    number of programs compiled."""
    count = c_int()
    check(lib.glblasWarm(byref(count)), "glblasWarm")
    return count.value


def tune(quick=False, seconds=0.0, progress=None):
    """Searches the gemm kernels' parameters on this device and keeps the fastest right ones,
    for this process and in the user's tuning table (glblasTune); returns its summary.
    ``quick``: fewer candidates, in a quarter of the time; ``seconds``: the time limit instead
    of the default (2 minutes on a GPU, 10 on a software rasterizer); ``progress(done, total)``
    is called after each step of the search."""
    summary = c_char_p()
    # Kept referenced until the call returns: the library calls it meanwhile.
    callback = TuneProgress(progress) if progress else TuneProgress()
    check(lib.glblasTune(int(bool(quick)), float(seconds), callback, byref(summary)),
          "glblasTune")
    return summary.value.decode(errors="replace")


def describe_device():
    """The device described for people (glblasDescribeDevice): what it is, its pipeline and
    limits, the driver workarounds in use, and the kernels' parameters with the tuning table
    they came from."""
    text = c_char_p()
    check(lib.glblasDescribeDevice(byref(text)), "glblasDescribeDevice")
    return text.value.decode(errors="replace")


def device_name():
    """The GL renderer string. Raises GlblasError when no GL context can be created."""
    name = lib.glblasGetDeviceName()
    if name is None:
        raise GlblasError(GLBLAS_STATUS_NOT_INITIALIZED, "glblasGetDeviceName")
    return name.decode(errors="replace")


def device_info():
    """What the device is: a dict with ``renderer``, ``version`` (GL_VERSION), ``gles`` (an
    OpenGL ES context), ``fp64`` (shaders have double precision), ``pipeline`` ("compute" or
    "fragment") and ``allocations`` (live device allocations)."""
    info = glblasDeviceInfo_t()
    check(lib.glblasGetDeviceInfo(byref(info)), "glblasGetDeviceInfo")
    return {
        "renderer": info.renderer.decode(errors="replace"),
        "version": info.version.decode(errors="replace"),
        "gles": bool(info.gles),
        "fp64": bool(info.fp64),
        "pipeline": info.pipeline.decode(),
        "allocations": info.allocations,
    }
