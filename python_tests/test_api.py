"""Status strings, device name, init/shutdown, glblasMalloc / glblasFree / glblasMemcpy /
glblasSync semantics."""

from ctypes import byref, c_void_p

import numpy as np
import glblas
import helpers as g
from glblas import (GLBLAS_STATUS_INVALID_VALUE, GLBLAS_STATUS_SUCCESS,
                    glblasMemcpyDeviceToDevice as D2D, glblasMemcpyDeviceToHost as D2H,
                    glblasMemcpyHostToDevice as H2D, glblasMemcpyInfer as INFER)
from reference import assert_close, saxpy_ref

INV = GLBLAS_STATUS_INVALID_VALUE
OK = GLBLAS_STATUS_SUCCESS


def test_status_strings(lib):
    texts = []
    for st in glblas.ALL_STATUSES:
        s = lib.glblasGetStatusString(st)
        assert s is not None and len(s) > 0, st
        texts.append(s)
    assert len(set(texts)) == len(texts), "status strings are not distinct"
    for bad in [7, 99, -1, 2 ** 31 - 1, -2 ** 31]:
        s = lib.glblasGetStatusString(bad)
        assert s is not None, f"NULL string for unknown status {bad}"


def test_device_name(lib):
    name = lib.glblasGetDeviceName()
    assert name is not None and len(name.strip()) > 0
    name.decode()  # valid text


def test_init_idempotent_and_sync(lib):
    assert lib.glblasInit() == OK
    assert lib.glblasInit() == OK
    assert lib.glblasSync() == OK


def test_shutdown_then_reinitialise(lib, rng):
    """Shutdown frees everything; the next call initialises again."""
    assert lib.glblasShutdown() == OK
    x = rng.standard_normal(100).astype(np.float32)
    y = rng.standard_normal(100).astype(np.float32)
    ref, bound = saxpy_ref(2.0, x, y)
    g.check(lib, g.saxpy(lib, 2.0, x, y))  # first call after shutdown re-initialises
    assert_close(y, ref, bound, "saxpy after shutdown")
    with g.DeviceBuffer(lib, x.nbytes) as d:
        d.upload(x)
        out = d.download(np.empty_like(x))
    assert np.array_equal(out, x)
    assert lib.glblasShutdown() == OK
    assert lib.glblasInit() == OK
    assert lib.glblasGetDeviceName() is not None


# ---- glblasMalloc / glblasFree ----------------------------------------------------------------

def test_malloc_null_devptr(lib):
    assert lib.glblasMalloc(None, 16) == INV


def test_malloc_zero_bytes(lib):
    p = c_void_p(12345)
    assert lib.glblasMalloc(byref(p), 0) == OK
    assert p.value is None
    assert lib.glblasFree(p.value) == OK


def test_malloc_distinct_nonoverlapping(lib):
    bufs = [g.DeviceBuffer(lib, n) for n in (4, 1000, 1, 65536, 12)]
    try:
        ranges = sorted((b.ptr, b.ptr + b.nbytes) for b in bufs)
        for (a0, a1), (b0, b1) in zip(ranges, ranges[1:]):
            assert a1 <= b0, "device allocations overlap"
    finally:
        for b in bufs:
            b.free()


def test_free_rules(lib):
    assert lib.glblasFree(None) == OK
    host = np.zeros(16, np.float32)
    assert lib.glblasFree(host.ctypes.data) == INV, "freeing host memory"
    p = c_void_p()
    assert lib.glblasMalloc(byref(p), 256) == OK
    assert lib.glblasFree(p.value + 4) == INV, "freeing an interior pointer"
    # the allocation is still alive after the rejected interior free
    data = np.arange(64, dtype=np.float32)
    assert lib.glblasMemcpy(p.value, data.ctypes.data, data.nbytes, H2D) == OK
    out = np.zeros_like(data)
    assert lib.glblasMemcpy(out.ctypes.data, p.value, out.nbytes, D2H) == OK
    assert np.array_equal(out, data)
    assert lib.glblasFree(p.value) == OK
    assert lib.glblasFree(p.value) == INV, "double free"


# ---- glblasMemcpy -----------------------------------------------------------------------------

def test_memcpy_roundtrip_bitexact(lib, rng):
    """Arbitrary bytes (including NaN payloads, odd sizes) survive host->device->host."""
    data = rng.integers(0, 256, 4 * 1024 * 1024 + 3, dtype=np.uint8)
    with g.DeviceBuffer(lib, data.nbytes) as d:
        assert lib.glblasMemcpy(d.at(), data.ctypes.data, data.nbytes, H2D) == OK
        out = np.zeros_like(data)
        assert lib.glblasMemcpy(out.ctypes.data, d.at(), out.nbytes, D2H) == OK
    assert np.array_equal(out, data)


def test_memcpy_interior_offsets_and_d2d(lib, rng):
    a = rng.standard_normal(100).astype(np.float32)
    with g.DeviceBuffer(lib, 400) as d1, g.DeviceBuffer(lib, 400) as d2:
        zeros = np.zeros(100, np.float32)
        d1.upload(zeros)
        d2.upload(zeros)
        # write a[10:30] at float offset 50 of d1
        assert lib.glblasMemcpy(d1.at(200), a[10:].ctypes.data, 80, H2D) == OK
        # device to device, interior to interior: d1[50:70] -> d2[5:25]
        assert lib.glblasMemcpy(d2.at(20), d1.at(200), 80, D2D) == OK
        # Infer in all three directions
        assert lib.glblasMemcpy(d2.at(396), a[99:].ctypes.data, 4, INFER) == OK
        assert lib.glblasMemcpy(d2.at(0), d1.at(200), 4, INFER) == OK
        o1 = np.zeros(100, np.float32)
        o2 = np.zeros(100, np.float32)
        assert lib.glblasMemcpy(o1.ctypes.data, d1.at(), 400, INFER) == OK
        d2.download(o2)
    e1 = np.zeros(100, np.float32)
    e1[50:70] = a[10:30]
    e2 = np.zeros(100, np.float32)
    e2[5:25] = a[10:30]
    e2[99] = a[99]
    e2[0] = a[10]
    assert np.array_equal(o1, e1)
    assert np.array_equal(o2, e2)


def test_memcpy_zero_bytes(lib):
    """bytes == 0 with a valid direction is SUCCESS and copies nothing.  (Zero bytes with NULL or
    direction-mismatched pointers is left out: the spec's 'Infer needs a device pointer' and
    'kind mismatch' rules conflict with 'bytes may be 0' there.)"""
    h = np.ones(4, np.float32)
    with g.DeviceBuffer(lib, 16) as d:
        assert lib.glblasMemcpy(d.at(), h.ctypes.data, 0, H2D) == OK
        assert lib.glblasMemcpy(h.ctypes.data, d.at(), 0, D2H) == OK
        assert lib.glblasMemcpy(d.at(), d.at(8), 0, D2D) == OK
        assert lib.glblasMemcpy(d.at(), h.ctypes.data, 0, INFER) == OK
    assert np.all(h == 1)


def test_memcpy_invalid(lib):
    h = np.arange(64, dtype=np.float32)
    h2 = np.full(64, -1.0, np.float32)
    with g.DeviceBuffer(lib, 256) as d, g.DeviceBuffer(lib, 256) as e:
        d.upload(h)
        hp, h2p = h.ctypes.data, h2.ctypes.data
        cases = {
            "H2D past end": (d.at(4), hp, 256, H2D),
            "H2D past end (interior)": (d.at(252), hp, 8, H2D),
            "D2H past end": (h2p, d.at(128), 132, D2H),
            "D2D dst past end": (e.at(200), d.at(), 60, D2D),
            "D2D src past end": (e.at(), d.at(250), 8, D2D),
            "Infer past end": (h2p, d.at(), 260, INFER),
            "Infer host/host": (h2p, hp, 16, INFER),
            "H2D with host dst": (h2p, hp, 16, H2D),
            "H2D with device src": (d.at(), e.at(), 16, H2D),
            "D2H with device dst": (e.at(), d.at(), 16, D2H),
            "D2H with host src": (h2p, hp, 16, D2H),
            "D2D with host src": (d.at(), hp, 16, D2D),
            "D2D with host dst": (h2p, d.at(), 16, D2D),
            "kind 7": (h2p, d.at(), 16, 7),
            "kind -1": (h2p, d.at(), 16, -1),
            "NULL dst": (None, d.at(), 16, D2H),
            "NULL src": (d.at(), None, 16, H2D),
            "NULL dst infer": (None, d.at(), 16, INFER),
            "NULL src infer": (d.at(), None, 16, INFER),
        }
        for name, (dst, src, n, kind) in cases.items():
            st = lib.glblasMemcpy(dst, src, n, kind)
            assert st == INV, f"{name}: status {st}"
        assert np.all(h2 == -1.0), "host destination written by a failed memcpy"
        out = np.zeros(64, np.float32)
        d.download(out)
        assert np.array_equal(out, h), "device destination written by a failed memcpy"
        # exactly up to the end is fine
        assert lib.glblasMemcpy(h2p, d.at(128), 128, D2H) == OK
        assert np.array_equal(h2[:32], h[32:])
