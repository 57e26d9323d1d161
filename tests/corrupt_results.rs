//! A driver that hands back garbage (fault `corrupt`: every result read back from the device
//! comes back wrong), on every configuration that runs jobs, whose read-backs differ (a read
//! mapping on GLES, glReadPixels on the fragment pipeline, a round trip to the host on virgl).
//! Without `GLBLAS_VERIFY` the wrong results reach the caller; with it none does: the BLAS
//! names are answered by the CPU BLAS (`reason=verify-failed`), and the glblas API returns
//! EXECUTION_FAILED with the outputs untouched. `tests/verify_described.rs` makes every routine's
//! calls so, on llvmpipe's configurations.

mod common;

use common::faults::*;
use common::*;
use glblas::blas::verify;
use glblas::engine::fault::{self, Fault};
use glblas::status::Status;

/// More read-backs than any call below makes.
const READS: u64 = 1 << 16;

fn corrupt_every_read() {
    fault::clear();
    fault::fail_from_next(Fault::Corrupt, READS);
}

#[test]
fn corrupt_results_reach_the_caller_only_without_the_check() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("corrupt-results");
    let calls = [
        saxpy_call(5003),
        sdot_call(5003),
        sgemv_call(45, 37),
        sgemm_call(35, 29, 23),
    ];

    verify::set_enabled(false);
    for call in &calls {
        corrupt_every_read();
        let (status, out) = call.run();
        fault::clear();
        assert_eq!(status, Status::Success, "{}", call.name);
        assert!(
            !call.is_right(&out),
            "{}: the corrupted result was right",
            call.name
        );
    }

    verify::set_enabled(true);
    for call in &calls {
        corrupt_every_read();
        let ran = call.run();
        fault::clear();
        assert!(
            call.assert_right_or(ran, Status::ExecutionFailed),
            "{}",
            call.name
        );
        call.run_ok();
    }
    let before = trace_lines(&trace).len();
    blas_calls_answered(corrupt_every_read);
    fault::clear();
    assert_blas_routes(&trace_lines(&trace)[before..], "cpu reason=verify-failed");
    verify::set_enabled(false);
}
