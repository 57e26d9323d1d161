//! Injected launch faults (`fault::fail_next(Fault::Launch, i)`): each kernel launch of each
//! routine failing in turn, as on a lost context, surfaces through `check_gl` as
//! EXECUTION_FAILED; the call leaves its outputs and the GL objects as they were, and the same
//! call succeeds afterwards. The BLAS-compatible symbols meeting the same fault are answered by
//! the CPU BLAS. (`blas_fault.rs` covers failures after part of a call's results were stored.)

mod common;

use common::faults::*;
use common::*;
use glblas::engine::fault::{self, Fault};

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
