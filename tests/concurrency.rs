//! Many threads calling at once: 8 threads × 500 mixed calls (saxpy, sdot, sgemm, memcpy,
//! device malloc/free; host and device pointers), every result checked against a reference,
//! within a bounded wall time (a deadlock fails the test instead of hanging it). Afterwards,
//! with all those threads gone, the main thread's calls still work: no thread left the context
//! current behind it.

mod common;

use std::time::Duration;

use common::*;
use glblas::api::*;
use glblas::ffi::{MemcpyKindArg, OperationArg as Op};
use glblas::status::Status;

const THREADS: usize = 8;
const CALLS: usize = 500;

fn one_call(rng: &mut Rng, seed: u64) {
    match rng.below(5) {
        0 => {
            // saxpy, host or device y.
            let n = 1 + rng.below(3000);
            let x = fill(n, seed);
            let y0 = fill(n, seed + 1);
            let mut want = y0.clone();
            saxpy_ref(n, 0.5, &x, 1, &mut want, 1);
            let terms: Vec<f64> = x
                .iter()
                .zip(&y0)
                .map(|(a, b)| (0.5 * a.abs() + b.abs()) as f64)
                .collect();
            let got = if rng.below(2) == 0 {
                let mut y = y0.clone();
                let s = unsafe { glblasSaxpy(n as i32, 0.5, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
                assert_eq!(s, Status::Success);
                y
            } else {
                let d = Dev::new(&y0);
                let s = unsafe { glblasSaxpy(n as i32, 0.5, x.as_ptr(), 1, d.f(), 1) };
                assert_eq!(s, Status::Success);
                d.get(n)
            };
            assert_saxpy(&got, &want, &terms);
        }
        1 => {
            // sdot on device operands, one of them strided.
            let n = 1 + rng.below(5000);
            let x = fill(2 * n, seed);
            let y = fill(n, seed + 1);
            let (dx, dy) = (Dev::new(&x), Dev::new(&y));
            let mut r = 0.0f32;
            let s = unsafe { glblasSdot(n as i32, dx.f(), 2, dy.f(), 1, &mut r) };
            assert_eq!(s, Status::Success);
            assert_sdot(r, &x, 2, &y, 1, n);
        }
        2 => {
            // sgemm on host operands.
            let (m, n, k) = (1 + rng.below(40), 1 + rng.below(40), 1 + rng.below(40));
            let a = fill(m * k, seed);
            let b = fill(k * n, seed + 1);
            let mut c = fill(m * n, seed + 2);
            let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c, m);
            let s = unsafe {
                glblasSgemm(
                    Op(0),
                    Op(0),
                    m as i32,
                    n as i32,
                    k as i32,
                    1.0,
                    a.as_ptr(),
                    m as i32,
                    b.as_ptr(),
                    k as i32,
                    0.5,
                    c.as_mut_ptr(),
                    m as i32,
                )
            };
            assert_eq!(s, Status::Success);
            assert_sgemm(&c, m, m, n, k, &want);
        }
        3 => {
            // memcpy round trip through two device buffers.
            let n = 1 + rng.below(10000);
            let x = fill(n, seed);
            let d = Dev::new(&x);
            let e = Dev::new(&vec![0.0; n]);
            let s = unsafe { glblasMemcpy(e.0, d.0, n * 4, MemcpyKindArg(3)) };
            assert_eq!(s, Status::Success);
            assert_eq!(e.get(n), x);
        }
        _ => {
            // malloc and free alone.
            let mut p = std::ptr::null_mut();
            let bytes = 4 * (1 + rng.below(100_000));
            assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
            assert_eq!(glblasFree(p), Status::Success);
        }
    }
}

#[test]
fn eight_threads_of_mixed_calls() {
    on_threads(THREADS, Duration::from_secs(600), |t| {
        let mut rng = Rng(t as u64 + 1);
        for c in 0..CALLS {
            one_call(&mut rng, (t * CALLS + c) as u64);
        }
    });
    // All worker threads have exited; this thread still gets the context.
    let mut rng = Rng(99);
    for c in 0..20 {
        one_call(&mut rng, 10_000 + c);
    }
}
