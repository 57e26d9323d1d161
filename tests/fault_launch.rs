//! Injected launch faults (`fault::fail_next(Fault::Launch, i)`): each kernel launch of each
//! routine failing in turn, as on a lost context, surfaces through `check_gl` as
//! EXECUTION_FAILED; the call leaves its outputs and the GL objects as they were, and the same
//! call succeeds afterwards. The BLAS-compatible symbols meeting the same fault are answered by
//! the CPU BLAS. (`blas_fault.rs` covers failures after part of a call's results were stored.)

mod common;

use common::faults::*;
use common::*;
use glblas::api::*;
use glblas::engine::fault::{self, Fault};
use glblas::status::Status;

#[test]
fn each_launch_failing_is_execution_failed_and_leaves_nothing_behind() {
    let _serial = serial();
    for call in api_calls() {
        let launches = fail_each_launch(&call);
        eprintln!("{}: {launches} launches", call.name);
    }
}

#[test]
fn blas_symbols_answer_on_the_cpu_when_a_launch_fails() {
    let _serial = serial();
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("fault-launch");
    blas_calls_answered(|| fault::fail_next(Fault::Launch, 1));
    assert_blas_routes(&take_trace(&trace).0, "cpu reason=gl-failed");
}

#[test]
fn a_failed_launch_runs_nothing_on_device_operands() {
    let _serial = serial();
    let n = 4099;
    let (x, y0) = (fill(n, 1), fill(n, 2));
    let (xd, yd) = (Dev::new(&x), Dev::new(&y0));
    fault::fail_next(Fault::Launch, 1);
    let saxpy = || unsafe { glblasSaxpy(n as i32, 2.0, xd.f(), 1, yd.f(), 1) };
    assert_eq!(saxpy(), Status::ExecutionFailed);
    let same = yd
        .get(n)
        .iter()
        .zip(&y0)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same, "a failed launch wrote y");
    assert_eq!(saxpy(), Status::Success);
    let mut want = y0.clone();
    saxpy_ref(n, 2.0, &x, 1, &mut want, 1);
    let terms = saxpy_terms(2.0, &x, &y0);
    assert_saxpy(&yd.get(n), &want, &terms);
}
