//! Kernels whose loop counts and flags come back to values they had before, with other kernels
//! between: on zink over lavapipe (Mesa 22.3) such a sequence ran a shader variant compiled for
//! other values (`shaders/compute.glsl`), and sgemm summed only the first step of k. Every
//! result is checked against its reference, on every driver.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

/// sgemm with k = 1, 1, 3, 3, ..., A in device memory: the fourth call went wrong on zink.
#[test]
fn sgemm_depths_that_repeat() {
    for (round, &k) in [1usize, 1, 3, 3, 1, 3, 5, 5].iter().enumerate() {
        let (m, n) = (7, 5);
        let a = fill(m * k, 10 + round as u64);
        let b = fill(k * n, 20 + round as u64);
        let c0 = fill(m * n, 30 + round as u64);
        let want = sgemm_ref(false, false, m, n, k, -1.25, &a, m, &b, k, 0.5, &c0, m);
        let da = Dev::new(&a);
        let mut c = c0.clone();
        let s = unsafe {
            glblasSgemm(
                Op(0),
                Op(0),
                m as i32,
                n as i32,
                k as i32,
                -1.25,
                da.f(),
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
}

/// sgemv and sgemm alternating, each with beta = 0 and beta = 1 by turns (sgemv's and sgemm's
/// flags that decide whether y or C is read).
#[test]
fn flags_that_repeat() {
    let (m, n) = (9, 6);
    let a = fill(m * n, 1);
    let x = fill(n, 2);
    let y0 = fill(m, 3);
    for round in 0..6 {
        let beta = if round / 2 % 2 == 0 { 0.0 } else { 1.0 };
        let mut y = y0.clone();
        let s = unsafe {
            glblasSgemv(
                Op(0),
                m as i32,
                n as i32,
                2.0,
                a.as_ptr(),
                m as i32,
                x.as_ptr(),
                1,
                beta,
                y.as_mut_ptr(),
                1,
            )
        };
        assert_eq!(s, Status::Success);
        let want = sgemv_ref(false, m, n, 2.0, &a, m, &x, 1, beta, &y0, 1);
        assert_sgemv(&y, &y0, m, 1, n, &want);
        let mut c = y0.clone();
        let s = unsafe {
            glblasSgemm(
                Op(0),
                Op(0),
                m as i32,
                1,
                n as i32,
                2.0,
                a.as_ptr(),
                m as i32,
                x.as_ptr(),
                n as i32,
                beta,
                c.as_mut_ptr(),
                m as i32,
            )
        };
        assert_eq!(s, Status::Success);
        let want = sgemm_ref(false, false, m, 1, n, 2.0, &a, m, &x, n, beta, &y0, m);
        assert_sgemm(&c, m, m, 1, n, &want);
    }
}
