//! Device resets (`fault::fail_next(Fault::Reset, i)`, as `GLBLAS_FAULT=reset:<i>`): a kernel
//! launch is lost with the context, and the reset reported as a driver reports one. The call
//! returns DEVICE_LOST with its outputs untouched, or through a BLAS name is answered by the
//! CPU BLAS; allocations made before are lost until freed; the next call makes a new context,
//! and work goes on, from threads calling at once too.

mod common;

use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::OnceLock;

use common::faults::*;
use common::*;
use glblas::api::*;
use glblas::engine::fault::{self, Fault};
use glblas::ffi::MemcpyKindArg;
use glblas::status::Status;

#[test]
fn each_launch_lost_in_a_reset_is_device_lost_and_work_goes_on() {
    let _serial = serial();
    for call in api_calls() {
        let launches = reset_each_launch(&call);
        eprintln!("{}: {launches} launches", call.name);
    }
}

/// The BLAS names' trace so far (routed to GL by default, the trace's file set before any call:
/// the library reads both once).
fn traced() -> Vec<String> {
    static TRACE: OnceLock<PathBuf> = OnceLock::new();
    trace_lines(TRACE.get_or_init(|| {
        std::env::set_var("GLBLAS_BACKEND", "gl");
        trace_to_file("device-lost")
    }))
}

#[test]
fn blas_symbols_answer_on_the_cpu_after_a_reset() {
    let _serial = serial();
    let before = traced().len();
    blas_calls_answered(|| fault::fail_next(Fault::Reset, 1));
    assert_blas_routes(&traced()[before..], "cpu reason=device-lost");
}

/// Live `glblasMalloc` allocations, as `glblasGetDeviceInfo` counts them.
fn allocations() -> usize {
    let mut info = std::mem::MaybeUninit::uninit();
    assert_eq!(
        unsafe { glblasGetDeviceInfo(info.as_mut_ptr()) },
        Status::Success
    );
    unsafe { info.assume_init() }.allocations
}

#[test]
fn allocations_made_before_a_reset_are_lost_until_freed() {
    let _serial = serial();
    fresh_engine();
    let n = 3001;
    let (x, y0) = (fill(n, 1), fill(n, 2));
    let (dx, dy) = (Dev::new(&x), Dev::new(&y0));
    let saxpy = |x: *const f32, y: *mut f32| unsafe { glblasSaxpy(n as i32, 2.0, x, 1, y, 1) };
    fault::fail_next(Fault::Reset, 1);
    assert_eq!(saxpy(dx.f(), dy.f()), Status::DeviceLost);
    fault::clear();

    // Every use of a lost allocation, whole or inside, is refused, and leaves the host side as
    // it was.
    let mut host = vec![-1.0f32; n];
    let copy = |dst: *mut c_void, src: *const c_void, kind| unsafe {
        glblasMemcpy(dst, src, 4 * n, MemcpyKindArg(kind))
    };
    assert_eq!(copy(host.as_mut_ptr().cast(), dy.0, 2), Status::DeviceLost);
    assert_eq!(copy(dy.0, x.as_ptr().cast(), 1), Status::DeviceLost);
    assert!(host.iter().all(|&v| v == -1.0));
    assert_eq!(saxpy(dx.f(), host.as_mut_ptr()), Status::DeviceLost);
    assert_eq!(
        saxpy(x.as_ptr(), unsafe { dy.f().add(7) }),
        Status::DeviceLost
    );
    assert!(host.iter().all(|&v| v == -1.0));
    assert_eq!(allocations(), 0, "a lost allocation counted as live");

    // Freed once, then refused as any freed pointer is.
    assert_eq!(
        glblasFree(unsafe { dy.0.byte_add(4) }),
        Status::InvalidValue
    );
    assert_eq!(glblasFree(dy.0), Status::Success);
    assert_eq!(glblasFree(dy.0), Status::InvalidValue);
    assert_eq!(saxpy(x.as_ptr(), dy.f()), Status::InvalidValue);
    std::mem::forget(dy);
    drop(dx);

    // New allocations on the new context work.
    let (dx, dy) = (Dev::new(&x), Dev::new(&y0));
    assert_eq!(saxpy(dx.f(), dy.f()), Status::Success);
    let mut want = y0.clone();
    saxpy_ref(n, 2.0, &x, 1, &mut want, 1);
    assert_saxpy(&dy.get(n), &want, &saxpy_terms(2.0, &x, &y0));
    assert_eq!(allocations(), 2);
}

#[test]
fn threads_calling_at_once_get_through_resets() {
    let _serial = serial();
    let before = traced().len();
    fresh_engine();
    // Resets spread over the launches the threads make (each call makes a few).
    let resets = [2, 9, 23, 40, 61];
    for nth in resets {
        fault::fail_next(Fault::Reset, nth);
    }
    let start = fault::launches();
    let lost: usize = std::thread::scope(|s| {
        let threads: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || {
                    let call = sgemm_call(21 + t, 17, 13);
                    let mut lost = 0;
                    for _ in 0..8 {
                        // Through the API: right, or DEVICE_LOST with C untouched.
                        lost += usize::from(call.assert_right_or(call.run(), Status::DeviceLost));
                        // Through the BLAS names: always right.
                        blas_calls_answered(|| {});
                    }
                    lost
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).sum()
    });
    let launches = fault::launches() - start;
    fault::clear();
    assert!(
        launches > resets[resets.len() - 1],
        "only {launches} launches: not every reset was reached"
    );
    // Each reset was met by one call, and reported once: by the API, or in the trace.
    let answered = traced()[before..]
        .iter()
        .filter(|l| l.contains("reason=device-lost"))
        .count();
    assert_eq!(lost + answered, resets.len(), "API calls lost: {lost}");
    assert_eq!(allocations(), 0);
    sgemm_call(30, 20, 10).run_ok();
}
