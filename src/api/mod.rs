//! The glblas C API. Each export checks its arguments and runs one routine (`routines`), inside
//! the panic guard; outputs are untouched when a call is refused (a device failure part-way
//! through a call of several launches may leave earlier launches' results stored). The
//! routines' exports (`routines.rs`) are written by `scripts/generate.py` from its table.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void, CStr};
use std::mem::MaybeUninit;

use crate::blas::describe::{Describe, Operand, Relocate, Value};
use crate::blas::verify;
use crate::engine::element::Scalar;
use crate::engine::memory::is_device_address;
use crate::engine::transfer::CopyKind;
use crate::engine::{self, with_engine};
use crate::ffi::{guard, non_null, MemcpyKindArg, StatusArg};
use crate::status::{glblasStatus_t, Cause, Error, Result};

mod routines;
pub use routines::*;

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

/// Searches the compute gemm's parameters on this device, for single precision and, where the
/// device has it, double: every candidate's result is checked exactly, and the fastest right
/// one is used from now on; then times gemm on host operands beside the CPU BLAS, at growing
/// sizes, to find where GL starts to win. Both go to the user's tuning table (`GLBLAS_TUNING`,
/// else `$XDG_CACHE_HOME/glblas/tuning.txt`), which later processes on this device, driver and
/// glblas read. Takes up to 2 minutes on a GPU, 10 on a software rasterizer; `quick` != 0 searches
/// fewer candidates in a quarter of that, and `seconds` > 0 sets the limit instead. `progress`,
/// if not NULL, is called after each step (a candidate checked, a round of timings, a size
/// measured beside the CPU BLAS) with how many are done and how many there are.
/// `summary`, if not NULL, receives a text for people (each precision's rate before and after,
/// the parameters chosen, the crossover, the table written), kept for the life of the process. NOT_SUPPORTED
/// on the fragment pipeline, which has no parameters to tune. Stops kernel timing
/// (`glblasTimeKernels`).
///
/// # Safety
/// `summary` is NULL or points to a writable `const char *`.
#[no_mangle]
pub unsafe extern "C" fn glblasTune(
    quick: c_int,
    seconds: f64,
    progress: Option<extern "C" fn(c_int, c_int)>,
    summary: *mut *const c_char,
) -> glblasStatus_t {
    guard(|| {
        if seconds.is_nan() || seconds < 0.0 {
            return Err(Error::invalid("seconds must be 0 or more"));
        }
        let mut report = |done: usize, total: usize| {
            if let Some(f) = progress {
                f(done as c_int, total as c_int);
            }
        };
        let text = crate::tuner::tune(crate::tuner::Options {
            quick: quick != 0,
            seconds,
            progress: &mut report,
        })?;
        let kept = engine::keep(&text)?;
        if !summary.is_null() {
            // SAFETY: the caller's writable pointer.
            unsafe { *summary = kept.as_ptr() };
        }
        Ok(())
    })
}

/// Describes the device for people (creating the context if there is none): what it is, its
/// pipeline and limits, the driver workarounds in use, and the kernels' parameters with the
/// tuning table they came from. `text` receives a string kept for the life of the process.
///
/// # Safety
/// `text` must point to a writable `const char *`.
#[no_mangle]
pub unsafe extern "C" fn glblasDescribeDevice(text: *mut *const c_char) -> glblasStatus_t {
    guard(|| {
        non_null(text, "text")?;
        let kept = engine::describe()?;
        // SAFETY: checked non-NULL; the caller's writable pointer.
        unsafe { *text = kept.as_ptr() };
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

/// Frees a device allocation, live or lost in a device reset (DEVICE_LOST). NULL is a no-op;
/// anything else that is not the start of an allocation is INVALID_VALUE.
#[no_mangle]
pub extern "C" fn glblasFree(devPtr: *mut c_void) -> glblasStatus_t {
    guard(|| {
        if devPtr.is_null() {
            return Ok(());
        }
        // Without a context: the one it was made in is gone, and none may be made again.
        if engine::memory::free_lost(devPtr as usize) {
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

/// Starts timing the kernels glblas launches on the device (`on` = 1), with GL timer queries,
/// or stops (`on` = 0); `glblasGetKernelTime` reads the time. Starting drops what an earlier
/// timing left unread. Process-wide, as the context is; a shutdown stops it. NOT_SUPPORTED
/// where the device has no timer queries (GLES without `GL_EXT_disjoint_timer_query`), or its
/// queries leave out the dispatches of the compute pipeline the kernels take (llvmpipe, and
/// virgl over it).
#[no_mangle]
pub extern "C" fn glblasTimeKernels(on: c_int) -> glblasStatus_t {
    guard(|| match on {
        0 | 1 => engine::time_kernels(on == 1),
        _ => Err(Error::invalid("on must be 0 or 1")),
    })
}

/// The device's time, in seconds, in the kernels launched since timing started or since the
/// last read, and how many launches that was (`launches` may be NULL); waits for them to
/// finish. Both are 0 while timing is off. EXECUTION_FAILED where the driver voids the times
/// (a disjoint event on GLES: the GPU's clock changed, or it was reset), with the outputs
/// untouched.
///
/// # Safety
/// `seconds` must be NULL or point to a writable double, `launches` NULL or to a writable
/// `long long`.
#[no_mangle]
pub unsafe extern "C" fn glblasGetKernelTime(
    seconds: *mut f64,
    launches: *mut std::ffi::c_longlong,
) -> glblasStatus_t {
    guard(|| {
        non_null(seconds, "seconds")?;
        let t = engine::kernel_time()?;
        let (s, n) = (t.seconds, t.launches);
        // SAFETY: checked non-NULL, or NULL and skipped; the caller's writable storage.
        unsafe {
            *seconds = s;
            if !launches.is_null() {
                *launches = n as std::ffi::c_longlong;
            }
        }
        Ok(())
    })
}

/// Waits until all device work issued so far has completed.
#[no_mangle]
pub extern "C" fn glblasSync() -> glblasStatus_t {
    guard(|| with_engine(|e| e.sync()))
}

/// A Level 2 or 3 routine: the reference BLAS's checks (INVALID_VALUE naming the first failing
/// argument of `params`, the routine's parameters in order), then the routine on GL. `call`
/// builds the description (a NULL scalar pointer is INVALID_VALUE).
///
/// # Safety
/// As for the routine: host operands must hold the elements their sizes address.
unsafe fn run<T: Scalar, D: Describe<T>>(
    params: &[&str],
    call: impl FnOnce() -> Result<D>,
) -> glblasStatus_t {
    guard(|| {
        let call = call()?;
        if let Err(fault) = call.check() {
            let name = usize::try_from(fault.info - 1)
                .ok()
                .and_then(|i| params.get(i))
                .unwrap_or(&"an argument");
            return Err(Error::invalid(format!(
                "{name} (argument {}) is invalid",
                fault.info
            )));
        }
        // SAFETY: checked as the reference checks; the operands are the caller's. Checked
        // before it is handed back where GLBLAS_VERIFY asks.
        let operands = call.operands();
        let checksums = |to: Relocate| call.relocated(to).checksums();
        unsafe { verify::run(&operands, true, checksums, || call.run_gl()) }.map(drop)
    })
}

/// A Level 1 routine: `gl` runs it (`crate::routines`, which checks its pointers). Where
/// GLBLAS_VERIFY asks and its operands are in host memory, its result is checked against
/// `call`, its description, as `run` checks the others'; a result that fails is
/// EXECUTION_FAILED, with the outputs put back.
///
/// # Safety
/// As for the routine.
unsafe fn level1<T: Scalar, D: Describe<T>>(
    call: D,
    gl: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let Some(operands) = checkable(&call) else {
        return gl();
    };
    // SAFETY: the caller's operands, addressed as the description reads them (`verify::run`
    // leaves a NULL or device one to `gl`).
    unsafe {
        verify::run(
            &operands,
            true,
            |to| call.relocated(to).checksums(),
            || gl().map(|()| Value::ZERO),
        )
    }
    .map(drop)
}

/// A Level 1 routine whose value `gl` writes to `*result` (dot, asum, nrm2, i?amax): as
/// [`level1`], `*result` read back as `value` reads it (from host or device memory), and put
/// back as it was when it fails.
///
/// # Safety
/// As for the routine: `result` is NULL, a device pointer, or points to a writable `R`.
unsafe fn level1_value<T: Scalar, D: Describe<T>, R: Copy>(
    call: D,
    result: *mut R,
    value: fn(R) -> Value,
    gl: impl FnOnce() -> Result<()>,
) -> Result<()> {
    let Some(operands) = checkable(&call).filter(|_| !result.is_null()) else {
        return gl();
    };
    // SAFETY: the caller's result, read as it may be (never written before the call); one
    // that cannot be read back is GL's to refuse.
    let Ok(was) = (unsafe { fetch(result) }) else {
        return gl();
    };
    let checked = || {
        gl()?;
        // SAFETY: written by `gl`.
        Ok(value(unsafe { fetch(result)?.assume_init() }))
    };
    let checksums = |to: Relocate| call.relocated(to).checksums();
    // SAFETY: as in `level1`.
    let ran = unsafe { verify::run(&operands, true, checksums, checked) };
    if ran.as_ref().is_err_and(|e| e.cause == Cause::Unverified) {
        // SAFETY: the caller's result. A device that cannot take it back has lost it.
        let _ = unsafe { store(result, was) };
    }
    ran.map(drop)
}

/// `*p`, in host or device memory.
///
/// # Safety
/// `p` is a device pointer, or points to a readable `R`.
unsafe fn fetch<R: Copy>(p: *mut R) -> Result<MaybeUninit<R>> {
    let mut v = MaybeUninit::<R>::uninit();
    if is_device_address(p as usize) {
        let (dst, size) = (v.as_mut_ptr().cast(), std::mem::size_of::<R>());
        with_engine(|e| e.memcpy(dst, p.cast(), size, CopyKind::DeviceToHost))?;
    } else {
        // SAFETY: readable, as the caller guarantees.
        v = unsafe { p.cast::<MaybeUninit<R>>().read() };
    }
    Ok(v)
}

/// Writes `v` to `*p`, in host or device memory.
///
/// # Safety
/// `p` is a device pointer, or points to a writable `R`.
unsafe fn store<R: Copy>(p: *mut R, v: MaybeUninit<R>) -> Result<()> {
    if is_device_address(p as usize) {
        let (src, size) = (v.as_ptr().cast(), std::mem::size_of::<R>());
        return with_engine(|e| e.memcpy(p.cast(), src, size, CopyKind::HostToDevice));
    }
    // SAFETY: writable, as the caller guarantees.
    unsafe { p.cast::<MaybeUninit<R>>().write(v) };
    Ok(())
}

/// A Level 1 call's operands, where its result may be checked (`verify::run` decides the rest):
/// verification is on, the call does more than return at once, and each operand is where its
/// description reads it (a vector whose byte stride overflows is read where the stride wraps to
/// by the BLAS names, `Describe::addressed`, and refused by the API).
fn checkable<T: Scalar, D: Describe<T>>(call: &D) -> Option<Vec<Operand>> {
    if !verify::enabled() || call.quick_return().is_some() {
        return None;
    }
    let (given, addressed) = (call.operands(), call.addressed().operands());
    given
        .iter()
        .zip(&addressed)
        .all(|(g, a)| g.region.base == a.region.base && g.region.ld == a.region.ld)
        .then_some(given)
}

/// A value routine's result as its description reads it.
fn element<T: Scalar>(v: T) -> Value {
    Value::from_f64_parts(v.f64_parts())
}

/// i?amax's result as its description reads it.
fn index(i: c_int) -> Value {
    Value::from_real(f64::from(i))
}

/// A scalar passed by pointer (the complex routines' alpha and beta), read from host memory.
///
/// # Safety
/// `p` is NULL or points to a readable `T`.
unsafe fn scalar<T: Copy>(p: *const T, name: &str) -> Result<T> {
    non_null(p, name)?;
    // SAFETY: not NULL; readable, as the caller guarantees.
    Ok(unsafe { *p })
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
