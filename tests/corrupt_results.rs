//! A driver that hands back garbage (fault `corrupt`: every result read back from the device
//! comes back wrong), on every configuration that runs jobs, whose read-backs differ (a read
//! mapping on GLES, glReadPixels on the fragment pipeline, a round trip to the host on virgl).
//! Without `GLBLAS_VERIFY` the wrong results reach the caller; with it none does: the BLAS
//! names are answered by the CPU BLAS (`reason=verify-failed`), and the glblas API returns
//! EXECUTION_FAILED with the outputs untouched. On device operands, which no call reads back,
//! a driver that drops jobs (fault `drop`) is caught as well. `tests/verify_described.rs` makes
//! every routine's calls so, on llvmpipe's configurations.

mod common;

use common::faults::*;
use common::*;
use glblas::blas::verify;
use glblas::engine::fault::{self, Fault};
use glblas::status::Status;

/// More read-backs, and launches, than any call below makes.
const EVENTS: u64 = 1 << 16;

fn corrupt_every_read() {
    fault::clear();
    fault::fail_from_next(Fault::Corrupt, EVENTS);
}

#[test]
fn corrupt_results_reach_the_caller_only_without_the_check() {
    let _serial = serial();
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

/// A driver that drops every launch, on device operands: the outputs stay as they were, which is
/// wrong without the check; with it the call returns EXECUTION_FAILED with its device outputs as
/// they were (put back from a copy made on the device). Before each, the same call on other data
/// leaves its results where the dropped one's would be (a reduction's partial sums), so that
/// they are not the right ones left over.
#[test]
fn dropped_jobs_on_device_operands_are_caught() {
    let _serial = serial();
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let (calls, others) = (device_calls(100), device_calls(200));
    for (call, other) in calls.iter().zip(&others) {
        for on in [false, true] {
            verify::set_enabled(on);
            other.run_ok();
            fault::clear();
            fault::fail_from_next(Fault::Drop, EVENTS);
            let ran = call.run();
            fault::clear();
            if on {
                assert!(
                    call.assert_right_or(ran, Status::ExecutionFailed),
                    "{}",
                    call.name
                );
            } else {
                assert_eq!(ran.0, Status::Success, "{}", call.name);
                assert!(
                    !call.is_right(&ran.1),
                    "{}: the dropped job's result was right",
                    call.name
                );
            }
            call.run_ok();
        }
    }
    verify::set_enabled(false);
}
