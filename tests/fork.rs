//! fork() after the parent has used GL, while another parent thread keeps calling: the child
//! neither hangs nor crashes. Its glblas calls answer NOT_INITIALIZED (the context is the
//! parent's) and its BLAS calls are answered by the CPU BLAS, correctly; the parent goes on
//! working. A child that hangs is killed at a deadline and fails the test.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::*;
use glblas::api::*;
use glblas::blas::cblas::cblas_saxpy;
use glblas::status::Status;

const N: usize = 5000;

fn saxpy_ok() -> bool {
    let x = fill(N, 1);
    let y0 = fill(N, 2);
    let mut y = y0.clone();
    let s = unsafe { glblasSaxpy(N as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    let mut want = y0;
    saxpy_ref(N, 2.0, &x, 1, &mut want, 1);
    s == Status::Success && y.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-5)
}

/// What the child does; its exit status says which check failed (0: all passed).
fn in_child() -> i32 {
    let x = fill(N, 1);
    let mut y = fill(N, 2);
    if unsafe { glblasSaxpy(N as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) }
        != Status::NotInitialized
    {
        return 1;
    }
    if glblasInit() != Status::NotInitialized {
        return 2;
    }
    // The BLAS symbol: GL is refused, so the CPU BLAS answers.
    let y0 = y.clone();
    unsafe { cblas_saxpy(N as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    let mut want = y0;
    saxpy_ref(N, 2.0, &x, 1, &mut want, 1);
    if !y.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-5) {
        return 3;
    }
    0
}

#[test]
fn a_forked_child_neither_hangs_nor_crashes() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    assert!(saxpy_ok(), "parent before fork");
    let stop = Arc::new(AtomicBool::new(false));
    let busy = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                assert!(saxpy_ok(), "parent thread during forks");
            }
        })
    };
    for round in 0..5 {
        in_forked_child(in_child, Duration::from_secs(60), &format!("round {round}"));
        assert!(saxpy_ok(), "parent after fork {round}");
    }
    stop.store(true, Ordering::Relaxed);
    busy.join().expect("the busy thread");
}
