//! The device's time in the kernels (`glblasTimeKernels`, `glblasGetKernelTime`), from GL timer
//! queries: each call's launches counted once, their time within the call's wall time and most
//! of it for a product whose kernels take milliseconds, nothing timed while timing is off,
//! results as without timing; NOT_SUPPORTED where the queries would not time the kernels
//! (`Workarounds::untimed_compute`: llvmpipe's compute pipeline, and virgl's over it), and on a
//! GLES device without `GL_EXT_disjoint_timer_query` (llvmpipe's GLES told to hide it, on the
//! fragment pipeline, in a child process).

mod common;

use std::time::Instant;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg;
use glblas::status::Status;

const N: OperationArg = OperationArg(0);
/// What the child process's environment removes, and how it knows it is the child.
const HIDDEN: &str = "-GL_EXT_disjoint_timer_query";

fn hidden_here() -> bool {
    std::env::var("MESA_EXTENSION_OVERRIDE").is_ok_and(|v| v == HIDDEN)
}

/// glblasGetKernelTime's seconds and launches, or its status.
fn read() -> Result<(f64, i64), Status> {
    let (mut seconds, mut launches) = (-1.0, -1);
    match unsafe { glblasGetKernelTime(&mut seconds, &mut launches) } {
        Status::Success => Ok((seconds, launches)),
        s => Err(s),
    }
}

/// The product's shape: about 27 MFLOP, milliseconds of kernels on a CPU rasterizer.
const M: usize = 256;
const NC: usize = 240;
const K: usize = 224;

/// C := A B for device operands; returns the result and the call's wall seconds (the call and a
/// wait for the device).
fn sgemm(a: &Dev, b: &Dev, c: &Dev) -> (Vec<f32>, f64) {
    let (m, n, k) = (M as i32, NC as i32, K as i32);
    let start = Instant::now();
    let s = unsafe { glblasSgemm(N, N, m, n, k, 1.0, a.f(), m, b.f(), k, 0.0, c.f(), m) };
    assert_eq!(s, Status::Success);
    assert_eq!(glblasSync(), Status::Success);
    let wall = start.elapsed().as_secs_f64();
    (c.get(M * NC), wall)
}

#[test]
fn times_the_kernels_of_each_call() {
    if hidden_here() {
        return;
    }
    let info = glblas::engine::device_info().expect("a GL device");
    assert_eq!(
        read(),
        Ok((0.0, 0)),
        "nothing is timed before timing starts"
    );
    if !info.timer_queries {
        assert_eq!(glblasTimeKernels(1), Status::NotSupported);
        return;
    }
    assert_eq!(glblasTimeKernels(2), Status::InvalidValue);
    let nulls = unsafe { glblasGetKernelTime(std::ptr::null_mut(), std::ptr::null_mut()) };
    assert_eq!(nulls, Status::InvalidValue);

    let (m, n, k) = (M, NC, K);
    let (a0, b0) = (fill(m * k, 1), fill(k * n, 2));
    let (a, b, c) = (Dev::new(&a0), Dev::new(&b0), Dev::new(&vec![0.0f32; m * n]));
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a0, m, &b0, k, 0.0, &[], m);
    let (untimed, _) = sgemm(&a, &b, &c);
    assert_sgemm(&untimed, m, m, n, k, &want);

    assert_eq!(glblasTimeKernels(1), Status::Success);
    let (timed, wall) = sgemm(&a, &b, &c);
    assert_eq!(timed, untimed, "timing changed the result");
    let (seconds, launches) = read().expect("the kernels' time");
    assert!(launches >= 1, "{launches} launches timed");
    // Within the call, and a good part of it: a query that left a kernel out (llvmpipe's of
    // its compute dispatches) read about 0.
    assert!(
        seconds >= wall / 10.0 && seconds <= wall,
        "{seconds} s in the kernels of a call that took {wall} s"
    );
    assert_eq!(read(), Ok((0.0, 0)), "a read takes what it counted");
    // The same call again: as many launches.
    sgemm(&a, &b, &c);
    assert_eq!(read().map(|(_, l)| l), Ok(launches));
    // Starting again drops what was left unread.
    sgemm(&a, &b, &c);
    assert_eq!(glblasTimeKernels(1), Status::Success);
    assert_eq!(read(), Ok((0.0, 0)));
    // Stopped, nothing is timed.
    assert_eq!(glblasTimeKernels(0), Status::Success);
    sgemm(&a, &b, &c);
    assert_eq!(read(), Ok((0.0, 0)));
}

/// A GLES device without the extension (Mesa's override hides it), on llvmpipe as it is (not
/// one of its emulations, whose overrides the child's would replace), on the fragment
/// pipeline, whose draws its queries time.
#[test]
fn a_gles_device_without_the_extension_has_no_timer() {
    let info = glblas::engine::device_info().expect("a GL device");
    let emulated = [
        "MESA_GL_VERSION_OVERRIDE",
        "MESA_GLES_VERSION_OVERRIDE",
        "MESA_EXTENSION_OVERRIDE",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some());
    if emulated || !info.renderer.starts_with("llvmpipe") {
        return;
    }
    let env = [
        ("GLBLAS_GL_API", "gles"),
        ("GLBLAS_PIPELINE", "fragment"),
        ("MESA_EXTENSION_OVERRIDE", HIDDEN),
    ];
    run_in_child("without_timer_queries_timing_is_not_supported", &env).unwrap();
    // The same device with the extension: timed.
    run_in_child("times_the_kernels_of_each_call", &env[..2]).unwrap();
}

/// Run by the test above in a child process whose GLES hides `GL_EXT_disjoint_timer_query`.
#[test]
fn without_timer_queries_timing_is_not_supported() {
    if !hidden_here() {
        return;
    }
    let info = glblas::engine::device_info().expect("a GL device");
    assert!(info.gles && !info.timer_queries, "{info:?}");
    assert_eq!(glblasTimeKernels(1), Status::NotSupported);
    let (mut seconds, mut launches) = (-1.0, -1);
    let s = unsafe { glblasGetKernelTime(&mut seconds, &mut launches) };
    assert_eq!((s, seconds, launches), (Status::Success, 0.0, 0));
}
