//! A panic anywhere in a BLAS-compatible symbol's answer, outside its GL run as well as inside,
//! must not reach the calling program (a panic unwinding out of an `extern "C"` function aborts
//! it). `fault::fail_next(Fault::Panic, i)` panics at the i-th point `fault::panic_point` marks:
//! after building the call (1), before routing (2), before the undo snapshot (3), after the GL
//! run (4), before the trace (5). Each call must still give the reference result: from the CPU
//! BLAS when no output was touched yet, else GL's own, and the trace must say which.

mod common;

use common::faults::*;
use common::*;
use glblas::engine::fault::{self, Fault};

#[test]
fn a_panic_at_any_point_of_a_blas_call_is_answered() {
    let _serial = serial();
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("panic");
    let points = [
        (1, "cpu reason=panic"),
        (2, "cpu reason=panic"),
        (3, "cpu reason=panic"),
        (4, "gl reason=backend"),
        (5, "gl reason=backend"),
    ];
    for (point, _) in points {
        blas_calls_answered(|| fault::fail_next(Fault::Panic, point));
    }
    fault::clear();
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), points.len() * BLAS_SYMBOLS.len(), "{text}");
    for (round, (_, route)) in lines.chunks(BLAS_SYMBOLS.len()).zip(points) {
        assert_blas_routes(round, route);
    }
}
