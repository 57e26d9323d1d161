//! The glblas C API. Each export checks its arguments and runs one routine (`routines`), inside
//! the panic guard; outputs are untouched when a call is refused (a device failure part-way
//! through a call of several launches may leave earlier launches' results stored).

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void, CStr};

use crate::engine::element::Real;
use crate::engine::{self, with_engine};
use crate::ffi::{
    dimension, guard, leading_dimension, non_null, nonzero_increment, DiagArg, FillArg,
    MemcpyKindArg, OperationArg, SideArg, StatusArg,
};
use crate::routines;
use crate::status::{glblasStatus_t, Error};

/// Creates the GL context now (otherwise the first call does). Idempotent; retries after a
/// failure.
#[no_mangle]
pub extern "C" fn glblasInit() -> glblasStatus_t {
    guard(engine::init)
}

/// Compiles every shader the routines use on host operands, in each precision the device has,
/// by running each routine on small operands of every shape that selects a variant (seconds
/// to minutes on a CPU rasterizer, once). Drivers with a disk cache (Mesa's) keep the result,
/// so that later processes' first calls do not compile. Writes the number of programs compiled
/// to `programs` when it is not NULL.
///
/// # Safety
/// `programs` is NULL or points to a writable int.
#[no_mangle]
pub unsafe extern "C" fn glblasWarm(programs: *mut c_int) -> glblasStatus_t {
    guard(|| {
        let count = crate::warm::warm()?;
        if !programs.is_null() {
            // SAFETY: the caller's writable int.
            unsafe { *programs = count as c_int };
        }
        Ok(())
    })
}

/// Frees every device buffer, GL object and the context. A later call initialises again.
#[no_mangle]
pub extern "C" fn glblasShutdown() -> glblasStatus_t {
    guard(engine::shutdown)
}

/// Static text describing `status`; never NULL, also for values that are no status.
#[no_mangle]
pub extern "C" fn glblasGetStatusString(status: StatusArg) -> *const c_char {
    match status.status() {
        Some(s) => s.description().as_ptr(),
        None => c"unknown glblasStatus_t value".as_ptr(),
    }
}

/// The GL renderer string, or NULL when no GL context can be created.
#[no_mangle]
pub extern "C" fn glblasGetDeviceName() -> *const c_char {
    // The name lives as long as the process (see `engine::device_name`).
    std::panic::catch_unwind(engine::device_name)
        .ok()
        .flatten()
        .map_or(std::ptr::null(), CStr::as_ptr)
}

/// What the GL device is, as `glblasGetDeviceInfo` fills it in. The strings live as long as the
/// process.
#[repr(C)]
pub struct glblasDeviceInfo {
    /// The GL renderer string (as `glblasGetDeviceName`).
    pub renderer: *const c_char,
    /// The GL version string.
    pub version: *const c_char,
    /// The pipeline kernels take (for calls that fit one buffer-texture window): "compute" or
    /// "fragment".
    pub pipeline: *const c_char,
    /// 1 for an OpenGL ES context, 0 for desktop GL.
    pub gles: c_int,
    /// 1 where shaders have double precision (desktop GL 4.0, or `GL_ARB_gpu_shader_fp64`).
    pub fp64: c_int,
    /// Live `glblasMalloc` allocations.
    pub allocations: usize,
}

/// The name C programs use.
#[allow(non_camel_case_types)]
pub type glblasDeviceInfo_t = glblasDeviceInfo;

/// Describes the GL device (creating the context if there is none) and its live allocations.
///
/// # Safety
/// `info` must be NULL or point to writable storage for one `glblasDeviceInfo_t`.
#[no_mangle]
pub unsafe extern "C" fn glblasGetDeviceInfo(info: *mut glblasDeviceInfo_t) -> glblasStatus_t {
    guard(|| {
        non_null(info, "info")?;
        let r = engine::report()?;
        // SAFETY: checked non-NULL; the caller provides storage for one struct.
        unsafe {
            *info = glblasDeviceInfo {
                renderer: r.renderer.as_ptr(),
                version: r.version.as_ptr(),
                pipeline: r.pipeline.as_ptr(),
                gles: r.gles.into(),
                fp64: r.fp64.into(),
                allocations: r.allocations,
            }
        };
        Ok(())
    })
}

/// Allocates `bytes` of device memory. `bytes == 0` gives NULL.
///
/// # Safety
/// `devPtr` must be NULL or point to writable storage for one pointer.
#[no_mangle]
pub unsafe extern "C" fn glblasMalloc(devPtr: *mut *mut c_void, bytes: usize) -> glblasStatus_t {
    guard(|| {
        non_null(devPtr, "devPtr")?;
        let p = with_engine(|e| {
            if bytes == 0 {
                return Ok(std::ptr::null_mut());
            }
            e.memory.alloc(&e.ctx.gl, &e.ext, bytes)
        })?;
        // SAFETY: checked non-NULL; the caller provides storage for one pointer.
        unsafe { *devPtr = p };
        Ok(())
    })
}

/// Frees a device allocation. NULL is a no-op; anything else that is not the start of a live
/// allocation is INVALID_VALUE.
#[no_mangle]
pub extern "C" fn glblasFree(devPtr: *mut c_void) -> glblasStatus_t {
    guard(|| {
        if devPtr.is_null() {
            return Ok(());
        }
        with_engine(|e| e.memory.free(&e.ctx.gl, &e.ext, devPtr as usize))
    })
}

/// Copies `bytes` between host and device memory, or within device memory.
///
/// # Safety
/// Host pointers must be valid for `bytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn glblasMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
    kind: MemcpyKindArg,
) -> glblasStatus_t {
    guard(|| {
        let kind = kind.kind()?;
        if bytes > 0 {
            non_null(dst, "dst")?;
            non_null(src, "src")?;
        }
        if bytes > isize::MAX as usize {
            return Err(Error::invalid("byte count too large"));
        }
        with_engine(|e| e.memcpy(dst, src, bytes, kind))
    })
}

/// Waits until all device work issued so far has completed.
#[no_mangle]
pub extern "C" fn glblasSync() -> glblasStatus_t {
    guard(|| with_engine(|e| e.sync()))
}

/// y := alpha*x + y, single precision.
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasSaxpy(
    n: c_int,
    alpha: f32,
    x: *const f32,
    incx: c_int,
    y: *mut f32,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::axpy(n.into(), alpha, x, incx.into(), y, incy.into()))
}

/// y := alpha*x + y, double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasDaxpy(
    n: c_int,
    alpha: f64,
    x: *const f64,
    incx: c_int,
    y: *mut f64,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::axpy(n.into(), alpha, x, incx.into(), y, incy.into()))
}

/// *result := x·y. `result` may be a device pointer, single precision.
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses; `result` one float.
#[no_mangle]
pub unsafe extern "C" fn glblasSdot(
    n: c_int,
    x: *const f32,
    incx: c_int,
    y: *const f32,
    incy: c_int,
    result: *mut f32,
) -> glblasStatus_t {
    guard(|| routines::dot(n.into(), x, incx.into(), y, incy.into(), result))
}

/// *result := x·y. `result` may be a device pointer, double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses; `result` one double.
#[no_mangle]
pub unsafe extern "C" fn glblasDdot(
    n: c_int,
    x: *const f64,
    incx: c_int,
    y: *const f64,
    incy: c_int,
    result: *mut f64,
) -> glblasStatus_t {
    guard(|| routines::dot(n.into(), x, incx.into(), y, incy.into(), result))
}

/// x := alpha*x. `n <= 0` or `incx <= 0` does nothing (reference BLAS), single precision.
///
/// # Safety
/// A host vector must hold the elements BLAS addresses for `n` and the increment.
#[no_mangle]
pub unsafe extern "C" fn glblasSscal(
    n: c_int,
    alpha: f32,
    x: *mut f32,
    incx: c_int,
) -> glblasStatus_t {
    guard(|| routines::scal(n.into(), alpha, x, incx.into()))
}

/// x := alpha*x. `n <= 0` or `incx <= 0` does nothing (reference BLAS), double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// A host vector must hold the elements BLAS addresses for `n` and the increment.
#[no_mangle]
pub unsafe extern "C" fn glblasDscal(
    n: c_int,
    alpha: f64,
    x: *mut f64,
    incx: c_int,
) -> glblasStatus_t {
    guard(|| routines::scal(n.into(), alpha, x, incx.into()))
}

/// y := x, single precision.
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasScopy(
    n: c_int,
    x: *const f32,
    incx: c_int,
    y: *mut f32,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::copy(n.into(), x, incx.into(), y, incy.into()))
}

/// y := x, double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasDcopy(
    n: c_int,
    x: *const f64,
    incx: c_int,
    y: *mut f64,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::copy(n.into(), x, incx.into(), y, incy.into()))
}

/// x <-> y, single precision.
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasSswap(
    n: c_int,
    x: *mut f32,
    incx: c_int,
    y: *mut f32,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::swap(n.into(), x, incx.into(), y, incy.into()))
}

/// x <-> y, double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// Host vectors must hold the elements BLAS addresses for `n` and the increments.
#[no_mangle]
pub unsafe extern "C" fn glblasDswap(
    n: c_int,
    x: *mut f64,
    incx: c_int,
    y: *mut f64,
    incy: c_int,
) -> glblasStatus_t {
    guard(|| routines::swap(n.into(), x, incx.into(), y, incy.into()))
}

/// *result := sum of |x[i]|; 0 when `n <= 0` or `incx <= 0` (reference BLAS). `result` may be a
/// device pointer, single precision.
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one float.
#[no_mangle]
pub unsafe extern "C" fn glblasSasum(
    n: c_int,
    x: *const f32,
    incx: c_int,
    result: *mut f32,
) -> glblasStatus_t {
    guard(|| routines::asum(n.into(), x, incx.into(), result))
}

/// *result := sum of |x[i]|; 0 when `n <= 0` or `incx <= 0` (reference BLAS). `result` may be a
/// device pointer, double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one double.
#[no_mangle]
pub unsafe extern "C" fn glblasDasum(
    n: c_int,
    x: *const f64,
    incx: c_int,
    result: *mut f64,
) -> glblasStatus_t {
    guard(|| routines::asum(n.into(), x, incx.into(), result))
}

/// *result := the Euclidean norm of x, computed without overflow or underflow (scaled as the
/// reference snrm2 scales); 0 when `n <= 0`; a negative `incx` gives the norm of the same
/// elements, a zero one |x[0]|·sqrt(n) (reference BLAS). `result` may be a device pointer,
/// single precision.
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one float.
#[no_mangle]
pub unsafe extern "C" fn glblasSnrm2(
    n: c_int,
    x: *const f32,
    incx: c_int,
    result: *mut f32,
) -> glblasStatus_t {
    guard(|| routines::nrm2(n.into(), x, incx.into(), result))
}

/// *result := the Euclidean norm of x, computed without overflow or underflow (scaled as the
/// reference dnrm2 scales); 0 when `n <= 0`; a negative `incx` gives the norm of the same
/// elements, a zero one |x[0]|·sqrt(n) (reference BLAS). `result` may be a device pointer,
/// double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute pipeline).
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one double.
#[no_mangle]
pub unsafe extern "C" fn glblasDnrm2(
    n: c_int,
    x: *const f64,
    incx: c_int,
    result: *mut f64,
) -> glblasStatus_t {
    guard(|| routines::nrm2(n.into(), x, incx.into(), result))
}

/// *result := the 1-based index of the first largest |x[i]|, as cublasIsamax; 0 when `n <= 0` or
/// `incx <= 0`. A NaN is never the largest, except as element 1, which is kept (reference
/// isamax). `result` (an int) may be a device pointer, single precision.
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one int.
#[no_mangle]
pub unsafe extern "C" fn glblasIsamax(
    n: c_int,
    x: *const f32,
    incx: c_int,
    result: *mut c_int,
) -> glblasStatus_t {
    guard(|| routines::iamax_into(n.into(), x, incx.into(), result))
}

/// *result := the 1-based index of the first largest |x[i]|, as cublasIdamax; 0 when `n <= 0` or
/// `incx <= 0`. A NaN is never the largest, except as element 1, which is kept (reference
/// idamax). `result` (an int) may be a device pointer, double precision (NOT_SUPPORTED on a
/// device without fp64 shaders or the compute pipeline).
///
/// # Safety
/// A host vector must hold the elements BLAS addresses; `result` one int.
#[no_mangle]
pub unsafe extern "C" fn glblasIdamax(
    n: c_int,
    x: *const f64,
    incx: c_int,
    result: *mut c_int,
) -> glblasStatus_t {
    guard(|| routines::iamax_into(n.into(), x, incx.into(), result))
}

/// y := alpha*op(A)*x + beta*y, column-major A (m×n), single precision.
///
/// # Safety
/// Host operands must hold the elements their dimensions, `lda` and increments address.
#[no_mangle]
pub unsafe extern "C" fn glblasSgemv(
    trans: OperationArg,
    m: c_int,
    n: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    x: *const f32,
    incx: c_int,
    beta: f32,
    y: *mut f32,
    incy: c_int,
) -> glblasStatus_t {
    gemv(trans, [m, n], alpha, (A, lda), (x, incx), beta, (y, incy))
}

/// y := alpha*op(A)*x + beta*y, column-major A (m×n), double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute
/// pipeline).
///
/// # Safety
/// Host operands must hold the elements their dimensions, `lda` and increments address.
#[no_mangle]
pub unsafe extern "C" fn glblasDgemv(
    trans: OperationArg,
    m: c_int,
    n: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    x: *const f64,
    incx: c_int,
    beta: f64,
    y: *mut f64,
    incy: c_int,
) -> glblasStatus_t {
    gemv(trans, [m, n], alpha, (A, lda), (x, incx), beta, (y, incy))
}

/// glblasSgemv and glblasDgemv: the checks, then the routine.
unsafe fn gemv<T: Real>(
    trans: OperationArg,
    [m, n]: [c_int; 2],
    alpha: T,
    (a, lda): (*const T, c_int),
    (x, incx): (*const T, c_int),
    beta: T,
    (y, incy): (*mut T, c_int),
) -> glblasStatus_t {
    guard(|| {
        let t = trans.transposed()?;
        dimension(m, "m")?;
        dimension(n, "n")?;
        leading_dimension(lda, m, "lda")?;
        nonzero_increment(incx, "incx")?;
        nonzero_increment(incy, "incy")?;
        routines::gemv(
            t,
            m.into(),
            n.into(),
            alpha,
            a,
            lda.into(),
            x,
            incx.into(),
            beta,
            y,
            incy.into(),
        )
    })
}

/// C := alpha*op(A)*op(B) + beta*C, column-major, single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasSgemm(
    transa: OperationArg,
    transb: OperationArg,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    B: *const f32,
    ldb: c_int,
    beta: f32,
    C: *mut f32,
    ldc: c_int,
) -> glblasStatus_t {
    gemm(
        transa,
        transb,
        [m, n, k],
        alpha,
        (A, lda),
        (B, ldb),
        beta,
        (C, ldc),
    )
}

/// C := alpha*op(A)*op(B) + beta*C, column-major, double precision (NOT_SUPPORTED on a device
/// without fp64 shaders or the compute pipeline).
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasDgemm(
    transa: OperationArg,
    transb: OperationArg,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    B: *const f64,
    ldb: c_int,
    beta: f64,
    C: *mut f64,
    ldc: c_int,
) -> glblasStatus_t {
    gemm(
        transa,
        transb,
        [m, n, k],
        alpha,
        (A, lda),
        (B, ldb),
        beta,
        (C, ldc),
    )
}

/// glblasSgemm and glblasDgemm: the checks, then the routine.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm<T: Real>(
    transa: OperationArg,
    transb: OperationArg,
    [m, n, k]: [c_int; 3],
    alpha: T,
    (a, lda): (*const T, c_int),
    (b, ldb): (*const T, c_int),
    beta: T,
    (c, ldc): (*mut T, c_int),
) -> glblasStatus_t {
    guard(|| {
        let ta = transa.transposed()?;
        let tb = transb.transposed()?;
        dimension(m, "m")?;
        dimension(n, "n")?;
        dimension(k, "k")?;
        leading_dimension(lda, if ta { k } else { m }, "lda")?;
        leading_dimension(ldb, if tb { n } else { k }, "ldb")?;
        leading_dimension(ldc, m, "ldc")?;
        routines::gemm(
            ta,
            tb,
            m.into(),
            n.into(),
            k.into(),
            alpha,
            a,
            lda.into(),
            b,
            ldb.into(),
            beta,
            c,
            ldc.into(),
        )
    })
}

/// C := alpha*A*B + beta*C (`side` LEFT) or alpha*B*A + beta*C (RIGHT), A symmetric with its
/// `uplo` triangle stored (the other is never read), single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasSsymm(
    side: SideArg,
    uplo: FillArg,
    m: c_int,
    n: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    B: *const f32,
    ldb: c_int,
    beta: f32,
    C: *mut f32,
    ldc: c_int,
) -> glblasStatus_t {
    symm(
        side,
        uplo,
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
        beta,
        (C, ldc),
    )
}

/// glblasSsymm in double precision.
///
/// # Safety
/// As for glblasSsymm.
#[no_mangle]
pub unsafe extern "C" fn glblasDsymm(
    side: SideArg,
    uplo: FillArg,
    m: c_int,
    n: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    B: *const f64,
    ldb: c_int,
    beta: f64,
    C: *mut f64,
    ldc: c_int,
) -> glblasStatus_t {
    symm(
        side,
        uplo,
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
        beta,
        (C, ldc),
    )
}

#[allow(clippy::too_many_arguments)]
unsafe fn symm<T: Real>(
    side: SideArg,
    uplo: FillArg,
    [m, n]: [c_int; 2],
    alpha: T,
    (a, lda): (*const T, c_int),
    (b, ldb): (*const T, c_int),
    beta: T,
    (c, ldc): (*mut T, c_int),
) -> glblasStatus_t {
    guard(|| {
        let right = side.right()?;
        let upper = uplo.upper()?;
        dimension(m, "m")?;
        dimension(n, "n")?;
        leading_dimension(lda, if right { n } else { m }, "lda")?;
        leading_dimension(ldb, m, "ldb")?;
        leading_dimension(ldc, m, "ldc")?;
        routines::symm(
            right,
            upper,
            m.into(),
            n.into(),
            alpha,
            (a, lda.into()),
            (b, ldb.into()),
            beta,
            (c, ldc.into()),
        )
    })
}

/// C := alpha*op(A)*op(A)^T + beta*C, op(A) n×k (A, or A^T with `trans` T or C), only C's
/// `uplo` triangle read and written, single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasSsyrk(
    uplo: FillArg,
    trans: OperationArg,
    n: c_int,
    k: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    beta: f32,
    C: *mut f32,
    ldc: c_int,
) -> glblasStatus_t {
    syrk(uplo, trans, [n, k], alpha, (A, lda), None, beta, (C, ldc))
}

/// glblasSsyrk in double precision.
///
/// # Safety
/// As for glblasSsyrk.
#[no_mangle]
pub unsafe extern "C" fn glblasDsyrk(
    uplo: FillArg,
    trans: OperationArg,
    n: c_int,
    k: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    beta: f64,
    C: *mut f64,
    ldc: c_int,
) -> glblasStatus_t {
    syrk(uplo, trans, [n, k], alpha, (A, lda), None, beta, (C, ldc))
}

/// C := alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C, op(A) and op(B) n×k, only C's `uplo`
/// triangle read and written, single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasSsyr2k(
    uplo: FillArg,
    trans: OperationArg,
    n: c_int,
    k: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    B: *const f32,
    ldb: c_int,
    beta: f32,
    C: *mut f32,
    ldc: c_int,
) -> glblasStatus_t {
    syrk(
        uplo,
        trans,
        [n, k],
        alpha,
        (A, lda),
        Some((B, ldb)),
        beta,
        (C, ldc),
    )
}

/// glblasSsyr2k in double precision.
///
/// # Safety
/// As for glblasSsyr2k.
#[no_mangle]
pub unsafe extern "C" fn glblasDsyr2k(
    uplo: FillArg,
    trans: OperationArg,
    n: c_int,
    k: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    B: *const f64,
    ldb: c_int,
    beta: f64,
    C: *mut f64,
    ldc: c_int,
) -> glblasStatus_t {
    syrk(
        uplo,
        trans,
        [n, k],
        alpha,
        (A, lda),
        Some((B, ldb)),
        beta,
        (C, ldc),
    )
}

/// syrk, and syr2k when `b` is given: the checks, then the routine.
#[allow(clippy::too_many_arguments)]
unsafe fn syrk<T: Real>(
    uplo: FillArg,
    trans: OperationArg,
    [n, k]: [c_int; 2],
    alpha: T,
    (a, lda): (*const T, c_int),
    b: Option<(*const T, c_int)>,
    beta: T,
    (c, ldc): (*mut T, c_int),
) -> glblasStatus_t {
    guard(|| {
        let upper = uplo.upper()?;
        let t = trans.transposed()?;
        dimension(n, "n")?;
        dimension(k, "k")?;
        let rows = if t { k } else { n };
        leading_dimension(lda, rows, "lda")?;
        if let Some((_, ldb)) = b {
            leading_dimension(ldb, rows, "ldb")?;
        }
        leading_dimension(ldc, n, "ldc")?;
        routines::syrk(
            upper,
            t,
            n.into(),
            k.into(),
            alpha,
            (a, lda.into()),
            b.map(|(b, ldb)| (b, ldb.into())),
            beta,
            (c, ldc.into()),
        )
    })
}

/// B := alpha*op(A)*B (`side` LEFT) or alpha*B*op(A) (RIGHT), A triangular with its `uplo`
/// triangle stored and a `diag` diagonal (UNIT: ones, not read), in place in B as the
/// reference BLAS (and cuBLAS's legacy API) does; single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasStrmm(
    side: SideArg,
    uplo: FillArg,
    transa: OperationArg,
    diag: DiagArg,
    m: c_int,
    n: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    B: *mut f32,
    ldb: c_int,
) -> glblasStatus_t {
    triangular(
        false,
        (side, uplo, transa, diag),
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
    )
}

/// glblasStrmm in double precision.
///
/// # Safety
/// As for glblasStrmm.
#[no_mangle]
pub unsafe extern "C" fn glblasDtrmm(
    side: SideArg,
    uplo: FillArg,
    transa: OperationArg,
    diag: DiagArg,
    m: c_int,
    n: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    B: *mut f64,
    ldb: c_int,
) -> glblasStatus_t {
    triangular(
        false,
        (side, uplo, transa, diag),
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
    )
}

/// Solves op(A)*X = alpha*B (`side` LEFT) or X*op(A) = alpha*B (RIGHT) for X, which overwrites
/// B; A as for glblasStrmm; single precision.
///
/// # Safety
/// Host matrices must hold the elements their dimensions and leading dimensions address.
#[no_mangle]
pub unsafe extern "C" fn glblasStrsm(
    side: SideArg,
    uplo: FillArg,
    transa: OperationArg,
    diag: DiagArg,
    m: c_int,
    n: c_int,
    alpha: f32,
    A: *const f32,
    lda: c_int,
    B: *mut f32,
    ldb: c_int,
) -> glblasStatus_t {
    triangular(
        true,
        (side, uplo, transa, diag),
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
    )
}

/// glblasStrsm in double precision.
///
/// # Safety
/// As for glblasStrsm.
#[no_mangle]
pub unsafe extern "C" fn glblasDtrsm(
    side: SideArg,
    uplo: FillArg,
    transa: OperationArg,
    diag: DiagArg,
    m: c_int,
    n: c_int,
    alpha: f64,
    A: *const f64,
    lda: c_int,
    B: *mut f64,
    ldb: c_int,
) -> glblasStatus_t {
    triangular(
        true,
        (side, uplo, transa, diag),
        [m, n],
        alpha,
        (A, lda),
        (B, ldb),
    )
}

/// trmm (`solve` false) and trsm: the checks, then the routine.
unsafe fn triangular<T: Real>(
    solve: bool,
    (side, uplo, transa, diag): (SideArg, FillArg, OperationArg, DiagArg),
    [m, n]: [c_int; 2],
    alpha: T,
    (a, lda): (*const T, c_int),
    (b, ldb): (*mut T, c_int),
) -> glblasStatus_t {
    guard(|| {
        let right = side.right()?;
        let upper = uplo.upper()?;
        let trans = transa.transposed()?;
        let unit = diag.unit()?;
        dimension(m, "m")?;
        dimension(n, "n")?;
        leading_dimension(lda, if right { n } else { m }, "lda")?;
        leading_dimension(ldb, m, "ldb")?;
        routines::triangular(
            solve,
            (right, upper, trans, unit),
            m.into(),
            n.into(),
            alpha,
            (a, lda.into()),
            (b, ldb.into()),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::Status;

    #[test]
    fn every_status_has_its_own_text() {
        let texts: Vec<&CStr> = Status::ALL
            .iter()
            .map(|s| unsafe { CStr::from_ptr(glblasGetStatusString(StatusArg(*s as c_int))) })
            .collect();
        for (s, t) in Status::ALL.iter().zip(&texts) {
            assert!(
                t.to_str().unwrap().contains(&format!("{s:?}")),
                "{s:?}: {t:?}"
            );
        }
        assert!(!glblasGetStatusString(StatusArg(99)).is_null());
        assert!(!glblasGetStatusString(StatusArg(-1)).is_null());
    }
}
