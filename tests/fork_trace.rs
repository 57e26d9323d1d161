//! fork() while another thread is writing the trace (`GLBLAS_TRACE` to a file): the child's own
//! traced BLAS call neither hangs nor goes wrong. A lock the trace took around its writes, held
//! by the parent thread at the moment of a fork, would stay held in the child forever. Runs on
//! the CPU BLAS (`GLBLAS_BACKEND=cpu`): no GL context, so none of the engine's fork handlers is
//! involved. A child that hangs is killed at a deadline and fails the test.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::*;
use glblas::blas::cblas::cblas_saxpy;

const N: usize = 64;
const FORKS: usize = 300;

/// One traced cblas_saxpy, checked against the reference.
fn traced_saxpy_ok() -> bool {
    let x = fill(N, 1);
    let y0 = fill(N, 2);
    let mut y = y0.clone();
    unsafe { cblas_saxpy(N as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    let mut want = y0;
    saxpy_ref(N, 2.0, &x, 1, &mut want, 1);
    y.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-5)
}

fn in_child() -> i32 {
    i32::from(!traced_saxpy_ok())
}

#[test]
fn a_child_forked_while_another_thread_traces_does_not_hang() {
    std::env::set_var("GLBLAS_BACKEND", "cpu");
    let trace = trace_to_file("fork-trace");
    assert!(traced_saxpy_ok(), "parent before forking");
    let stop = Arc::new(AtomicBool::new(false));
    let tracer = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut calls = 0u64;
            while !stop.load(Ordering::Relaxed) {
                assert!(traced_saxpy_ok(), "parent thread during forks");
                calls += 1;
            }
            calls
        })
    };
    for round in 0..FORKS {
        in_forked_child(in_child, Duration::from_secs(20), &format!("fork {round}"));
    }
    stop.store(true, Ordering::Relaxed);
    let calls = tracer.join().expect("the tracing thread");
    let (lines, text) = take_trace(&trace);
    // The parent's calls and each child's one call, a whole line each.
    let expected = 1 + calls as usize + FORKS;
    assert_eq!(lines.len(), expected, "trace lines:\n{text}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("glblas-trace: cblas_saxpy ") && l.contains(" route=cpu ")),
        "every line one whole saxpy record:\n{text}"
    );
}
