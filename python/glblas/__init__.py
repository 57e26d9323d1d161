"""glblas: BLAS on the GPU through OpenGL, for numpy arrays.

Routines take numpy arrays of float32 or float64 (the dtype picks single or double precision)
and DeviceArrays in device memory, in any mix; a result is made on the device when an input is
there, else on the host. ``glblas.lib`` is the library itself, with its C functions declared
(ctypes), for calling the C API directly.
"""

from ._capi import (ALL_STATUSES, GLBLAS_OP_C, GLBLAS_OP_N, GLBLAS_OP_T,
                    GLBLAS_STATUS_ALLOC_FAILED, GLBLAS_STATUS_DEVICE_LOST,
                    GLBLAS_STATUS_DIMENSION_OVERFLOW,
                    GLBLAS_STATUS_EXECUTION_FAILED, GLBLAS_STATUS_INVALID_VALUE,
                    GLBLAS_STATUS_NOT_INITIALIZED, GLBLAS_STATUS_NOT_SUPPORTED,
                    GLBLAS_STATUS_SUCCESS, GlblasError, check, glblasMemcpyDeviceToDevice,
                    glblasMemcpyDeviceToHost, glblasMemcpyHostToDevice, glblasMemcpyInfer, lib,
                    library_path, status_string)
from ._blas import (asum, axpy, copy, dot, gemm, gemv, iamax, matmul, nrm2, scal, supports,
                    swap, symm, syr2k, syrk, trmm, trsm, vdot)
from ._device import (DeviceArray, describe_device, device_info, device_name, empty, shutdown,
                      sync, to_device, tune, warm)

__all__ = [
    "DeviceArray", "GlblasError", "asum", "axpy", "copy", "describe_device", "device_info",
    "device_name", "dot", "empty", "gemm", "gemv", "iamax", "lib", "library_path", "matmul",
    "nrm2", "scal", "shutdown", "status_string", "supports", "swap", "symm", "sync", "syr2k",
    "syrk", "to_device", "trmm", "trsm", "tune", "vdot", "warm",
    # The C API's constants, and its status check, for calls through ``lib``.
    "ALL_STATUSES", "GLBLAS_OP_C", "GLBLAS_OP_N", "GLBLAS_OP_T", "GLBLAS_STATUS_ALLOC_FAILED",
    "GLBLAS_STATUS_DEVICE_LOST", "GLBLAS_STATUS_DIMENSION_OVERFLOW", "GLBLAS_STATUS_EXECUTION_FAILED",
    "GLBLAS_STATUS_INVALID_VALUE", "GLBLAS_STATUS_NOT_INITIALIZED", "GLBLAS_STATUS_NOT_SUPPORTED",
    "GLBLAS_STATUS_SUCCESS", "check", "glblasMemcpyDeviceToDevice", "glblasMemcpyDeviceToHost",
    "glblasMemcpyHostToDevice", "glblasMemcpyInfer",
]
