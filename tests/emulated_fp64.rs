//! fp64 that the driver emulates in software (`Workarounds::emulated_fp64`): on freedreno's
//! desktop GL (the adreno-750 configuration of `scripts/drivers.sh`, Mesa's own driver under its
//! noop drm-shim, where jobs do nothing and results mean nothing), the device reports no
//! doubles, so dgemm through the glblas API is NOT_SUPPORTED with C untouched (and the BLAS
//! names send it to the CPU BLAS); `GLBLAS_EMULATED_FP64=1` takes doubles on GL anyway.

mod common;

use glblas::api::*;
use glblas::ffi::OperationArg;
use glblas::status::Status;

const N: OperationArg = OperationArg(0);

/// The device's renderer and whether it reports fp64.
fn device() -> (String, bool) {
    let info = glblas::engine::device_info().expect("a GL device");
    (info.renderer, info.fp64)
}

/// dgemm of 4×4 matrices into a C of NaNs.
fn dgemm() -> (Status, [f64; 16]) {
    let a = [1.0f64; 16];
    let mut c = [f64::NAN; 16];
    let status = unsafe {
        glblasDgemm(
            N,
            N,
            4,
            4,
            4,
            1.0,
            a.as_ptr(),
            4,
            a.as_ptr(),
            4,
            0.0,
            c.as_mut_ptr(),
            4,
        )
    };
    (status, c)
}

#[test]
fn emulated_doubles_are_reported_as_none() {
    if std::env::var("GLBLAS_EMULATED_FP64").is_ok() {
        return;
    }
    let (renderer, fp64) = device();
    assert!(
        renderer.starts_with("FD") || renderer.starts_with("Adreno"),
        "this test runs on freedreno (the adreno-750 configuration), not on {renderer}"
    );
    assert!(!fp64, "{renderer}");
    let (status, c) = dgemm();
    assert_eq!(status, Status::NotSupported);
    assert!(c.iter().all(|x| x.is_nan()), "C was touched: {c:?}");
    common::run_in_child(
        "emulated_doubles_run_on_gl_when_asked",
        &[("GLBLAS_EMULATED_FP64", "1")],
    )
    .unwrap();
}

/// Run by the test above in a child process with `GLBLAS_EMULATED_FP64=1`.
#[test]
fn emulated_doubles_run_on_gl_when_asked() {
    if std::env::var("GLBLAS_EMULATED_FP64").is_err() {
        return;
    }
    let (renderer, fp64) = device();
    assert!(fp64, "{renderer}");
    // The kernel ran (under the drm-shim its result means nothing).
    assert_eq!(dgemm().0, Status::Success);
}
