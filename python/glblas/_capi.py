"""The C API through ctypes: which libglblas is loaded, the declarations of its functions (the
one copy the package and the repository's tests use), its constants, and its status codes as
exceptions.

Every pointer argument is declared ``c_void_p``: host and device memory are both plain addresses
(device pointers come from glblasMalloc and are never dereferenced on the host), so an ``int``
address, ``None`` (NULL) or a ``c_void_p`` can be passed. ctypes releases the GIL for the duration
of every call.
"""

import ctypes
import importlib.machinery
import os
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_double, c_int, c_longlong, c_size_t, c_void_p

from ._signatures import DECLARATIONS

# ---- constants (values are the C ABI) ----------------------------------------------------------
GLBLAS_STATUS_SUCCESS = 0
GLBLAS_STATUS_NOT_INITIALIZED = 1
GLBLAS_STATUS_ALLOC_FAILED = 2
GLBLAS_STATUS_INVALID_VALUE = 3
GLBLAS_STATUS_NOT_SUPPORTED = 4
GLBLAS_STATUS_EXECUTION_FAILED = 5
GLBLAS_STATUS_DIMENSION_OVERFLOW = 6
GLBLAS_STATUS_DEVICE_LOST = 7
ALL_STATUSES = list(range(8))

GLBLAS_OP_N = 0
GLBLAS_OP_T = 1
GLBLAS_OP_C = 2  # means T for real data
GLBLAS_SIDE_LEFT = 0
GLBLAS_SIDE_RIGHT = 1
GLBLAS_FILL_MODE_LOWER = 0
GLBLAS_FILL_MODE_UPPER = 1
GLBLAS_DIAG_NON_UNIT = 0
GLBLAS_DIAG_UNIT = 1

glblasMemcpyInfer = 0
glblasMemcpyHostToDevice = 1
glblasMemcpyDeviceToHost = 2
glblasMemcpyDeviceToDevice = 3


class glblasDeviceInfo_t(ctypes.Structure):
    _fields_ = [
        ("renderer", c_char_p),
        ("version", c_char_p),
        ("pipeline", c_char_p),
        ("gles", c_int),
        ("fp64", c_int),
        ("allocations", c_size_t),
    ]


def _library_path():
    env = os.environ.get("GLBLAS_LIBRARY")
    if env:
        return os.path.abspath(env)
    here = os.path.dirname(os.path.abspath(__file__))
    # setuptools-rust installs the library under an extension module's file name.
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(here, "libglblas" + suffix)
        if os.path.exists(path):
            return path
    raise ImportError(
        f"glblas: no libglblas in {here}; install the package with `pip install .` (which "
        "builds it) or set GLBLAS_LIBRARY=/path/to/libglblas.so")


def _load(path):
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(f"glblas: cannot load {path}: {e}") from e


LIBRARY_PATH = _library_path()
lib = _load(LIBRARY_PATH)


def library_path():
    """The path of the libglblas this package loaded."""
    return LIBRARY_PATH


def _declare(name, restype, argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes


_declare("glblasInit", c_int, [])
_declare("glblasShutdown", c_int, [])
_declare("glblasGetStatusString", c_char_p, [c_int])
_declare("glblasGetDeviceName", c_char_p, [])
_declare("glblasGetDeviceInfo", c_int, [POINTER(glblasDeviceInfo_t)])
_declare("glblasMalloc", c_int, [POINTER(c_void_p), c_size_t])
_declare("glblasFree", c_int, [c_void_p])
_declare("glblasMemcpy", c_int, [c_void_p, c_void_p, c_size_t, c_int])
_declare("glblasSync", c_int, [])
_declare("glblasWarm", c_int, [POINTER(c_int)])
_declare("glblasTimeKernels", c_int, [c_int])
_declare("glblasGetKernelTime", c_int, [POINTER(c_double), POINTER(c_longlong)])
# glblasTune's progress: (candidates done, candidates in all).
TuneProgress = CFUNCTYPE(None, c_int, c_int)
_declare("glblasTune", c_int, [c_int, c_double, TuneProgress, POINTER(c_char_p)])
_declare("glblasDescribeDevice", c_int, [POINTER(c_char_p)])


# The routines by (precision prefix, name). A library without a routine's symbol (an older
# build) simply does not have it in the table.
ROUTINES = {}
for _prefix, _name, _symbol, _args in DECLARATIONS:
    if hasattr(lib, _symbol):
        _declare(_symbol, c_int, _args)
        ROUTINES[_prefix, _name] = getattr(lib, _symbol)


def status_string(status):
    """The library's text for a status value."""
    return lib.glblasGetStatusString(status).decode(errors="replace")


class GlblasError(RuntimeError):
    """A glblas call failed: ``status`` is its glblasStatus_t value, ``status_string`` the
    library's text for it."""

    def __init__(self, status, what):
        self.status = status
        self.status_string = status_string(status)
        hint = ""
        if status == GLBLAS_STATUS_NOT_INITIALIZED:
            hint = " (GLBLAS_DEBUG=1 prints the driver's reason)"
        super().__init__(f"{what}: {self.status_string}{hint}")


def check(status, what):
    """Raise GlblasError unless ``status`` is success."""
    if status != GLBLAS_STATUS_SUCCESS:
        raise GlblasError(status, what)
