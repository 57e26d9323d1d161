//! The same call with the same inputs gives bit-identical results, run after run: every routine,
//! at sizes that spread the work over many workgroups (reductions add their partial sums in a
//! fixed order), with host and with device operands.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

const RUNS: usize = 3;

/// Runs `call` `RUNS` times on fresh copies of the inputs and checks that the outputs agree bit
/// for bit.
fn same_every_time(what: &str, call: impl Fn() -> Vec<f32>) {
    let first: Vec<u32> = call().iter().map(|v| v.to_bits()).collect();
    for run in 1..RUNS {
        let again: Vec<u32> = call().iter().map(|v| v.to_bits()).collect();
        assert!(first == again, "{what}: run {run} differs from run 0");
    }
}

#[test]
fn every_routine_repeats_bit_for_bit() {
    let n = (1 << 20) + 5;
    let x = fill(n, 1);
    let y = fill(n, 2);
    same_every_time("sdot host", || {
        let mut r = 0.0f32;
        let s = unsafe { glblasSdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1, &mut r) };
        assert_eq!(s, Status::Success);
        vec![r]
    });
    same_every_time("sdot device, strided", || {
        let (dx, dy) = (Dev::new(&x), Dev::new(&y));
        let mut r = 0.0f32;
        let s = unsafe { glblasSdot((n / 3) as i32, dx.f(), 3, dy.f(), -2, &mut r) };
        assert_eq!(s, Status::Success);
        vec![r]
    });
    same_every_time("sasum", || {
        let mut r = 0.0f32;
        let s = unsafe { glblasSasum(n as i32, x.as_ptr(), 1, &mut r) };
        assert_eq!(s, Status::Success);
        vec![r]
    });
    same_every_time("saxpy", || {
        let mut out = y.clone();
        let s = unsafe { glblasSaxpy(n as i32, 0.3, x.as_ptr(), 1, out.as_mut_ptr(), 1) };
        assert_eq!(s, Status::Success);
        out
    });
    let (m, k) = (1000usize, 700usize);
    let a = fill(m * k, 3);
    for trans in [0, 1] {
        let (xl, yl) = if trans == 0 { (k, m) } else { (m, k) };
        same_every_time(&format!("sgemv trans={trans}"), || {
            let mut out = y[..yl].to_vec();
            let s = unsafe {
                glblasSgemv(
                    Op(trans),
                    m as i32,
                    k as i32,
                    1.5,
                    a.as_ptr(),
                    m as i32,
                    x[..xl].as_ptr(),
                    1,
                    0.5,
                    out.as_mut_ptr(),
                    1,
                )
            };
            assert_eq!(s, Status::Success);
            out
        });
    }
    let (gm, gn, gk) = (300usize, 200usize, 500usize);
    let b = fill(gk * gn, 4);
    same_every_time("sgemm device", || {
        let (da, db) = (Dev::new(&a[..gm * gk]), Dev::new(&b));
        let dc = Dev::new(&y[..gm * gn]);
        let s = unsafe {
            glblasSgemm(
                Op(0),
                Op(1),
                gm as i32,
                gn as i32,
                gk as i32,
                1.0,
                da.f(),
                gm as i32,
                db.f(),
                gn as i32,
                0.25,
                dc.f(),
                gm as i32,
            )
        };
        assert_eq!(s, Status::Success);
        dc.get(gm * gn)
    });
}
