//! `GLBLAS_FAULT=context:1-2`: the first two context creations of this process fail. Until one
//! succeeds every glblas call answers NOT_INITIALIZED with its outputs untouched, and the
//! BLAS-compatible symbols (routed to GL) are answered by the CPU BLAS; the third creation, by
//! glblasInit, succeeds, and calls then run on GL. One test: the environment is read once.

mod common;

use common::faults::*;
use common::*;
use glblas::api::*;
use glblas::status::Status;

#[test]
fn calls_fail_cleanly_until_a_context_can_be_created() {
    std::env::set_var("GLBLAS_FAULT", "context:1-2");
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("fault-context");

    assert_eq!(glblasInit(), Status::NotInitialized);
    assert!(glblasGetDeviceName().is_null());
    let calls = api_calls();
    for call in &calls {
        call.run_refused(Status::NotInitialized);
    }
    let sentinel = 0x5eed as *mut std::ffi::c_void;
    let mut p = sentinel;
    assert_eq!(
        unsafe { glblasMalloc(&mut p, 4096) },
        Status::NotInitialized
    );
    assert_eq!(p, sentinel);
    blas_calls_answered(|| {});

    // The second creation fails too; the third succeeds.
    assert_eq!(glblasInit(), Status::NotInitialized);
    assert_eq!(glblasInit(), Status::Success);
    assert!(!glblasGetDeviceName().is_null());
    for call in &calls {
        call.run_ok();
    }
    blas_calls_answered(|| {});
    let (lines, _) = take_trace(&trace);
    let (without, with) = lines.split_at(lines.len().min(BLAS_SYMBOLS.len()));
    assert_blas_routes(without, "cpu reason=gl-failed");
    assert_blas_routes(with, "gl reason=backend");
}
