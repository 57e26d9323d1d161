//! glblasGetDeviceInfo: what it says about the device agrees with the context glblas made, and
//! its allocation count follows glblasMalloc and glblasFree. A test binary of its own, since
//! tests running beside it in one process would allocate too.

mod common;

use std::ffi::{c_void, CStr};

use glblas::api::*;
use glblas::status::Status;

fn info() -> glblasDeviceInfo_t {
    let mut i = glblasDeviceInfo_t {
        renderer: std::ptr::null(),
        version: std::ptr::null(),
        pipeline: std::ptr::null(),
        gles: -1,
        fp64: -1,
        allocations: usize::MAX,
    };
    assert_eq!(unsafe { glblasGetDeviceInfo(&mut i) }, Status::Success);
    i
}

fn text(p: *const std::ffi::c_char) -> String {
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
}

#[test]
fn describes_the_context_and_counts_allocations() {
    let start = info();
    let renderer = text(start.renderer);
    assert_eq!(renderer, text(glblasGetDeviceName()));
    let version = text(start.version);
    // The board's desktop GL (3.1) is below glblas's minimum, emulated or the boards' own
    // drivers' (V3D's and Mali's, under Mesa's drm-shim).
    let gles = std::env::var("GLBLAS_GL_API").is_ok_and(|v| v == "gles")
        || common::on_board()
        || renderer.starts_with("V3D")
        || renderer.starts_with("Mali");
    assert_eq!(start.gles, i32::from(gles), "{version}");
    assert_eq!(version.starts_with("OpenGL ES"), gles, "{version}");
    // Desktop GL's version string starts with "major.minor".
    let major: u32 = if gles {
        0
    } else {
        version.split('.').next().unwrap().parse().unwrap()
    };
    // Adreno's doubles are a software emulation, reported as none (tests/emulated_fp64.rs).
    let emulated = renderer.starts_with("FD") || renderer.starts_with("Adreno");
    if gles {
        assert_eq!(start.fp64, 0, "GLES has no doubles");
    } else if major >= 4 && !emulated {
        assert_eq!(start.fp64, 1, "{version} has doubles");
    }
    assert!(
        ["compute", "fragment"].contains(&text(start.pipeline).as_str()),
        "{}",
        text(start.pipeline)
    );
    if std::env::var("GLBLAS_PIPELINE").is_ok_and(|v| v == "fragment") {
        assert_eq!(text(start.pipeline), "fragment");
    } else if gles {
        // Every GLES context glblas takes (3.1 and later) has compute shaders, within what the
        // kernels need on every configuration.
        assert_eq!(text(start.pipeline), "compute");
    }

    let mut p: *mut c_void = std::ptr::null_mut();
    assert_eq!(unsafe { glblasMalloc(&mut p, 64) }, Status::Success);
    assert_eq!(info().allocations, start.allocations + 1);
    assert_eq!(glblasFree(p), Status::Success);
    assert_eq!(info().allocations, start.allocations);

    // The strings outlive a shutdown.
    assert_eq!(glblasShutdown(), Status::Success);
    assert_eq!(text(start.renderer), renderer);
    assert_eq!(info().allocations, 0);
}

#[test]
fn refuses_null() {
    assert_eq!(
        unsafe { glblasGetDeviceInfo(std::ptr::null_mut()) },
        Status::InvalidValue
    );
}
