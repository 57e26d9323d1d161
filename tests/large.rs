//! The largest sizes the test suite checks against a double-precision reference (kept modest
//! for llvmpipe): sdot and saxpy over 2^24 + 3 elements, sgemm 512×384×640.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

#[test]
fn sdot_and_saxpy_over_sixteen_million_elements() {
    let n = (1 << 24) + 3;
    let x = fill(n, 1);
    let y0 = fill(n, 2);
    let mut r = 0.0f32;
    unsafe {
        assert_eq!(
            glblasSdot(n as i32, x.as_ptr(), 1, y0.as_ptr(), 1, &mut r),
            Status::Success
        )
    };
    assert_sdot(r, &x, 1, &y0, 1, n);
    let d = Dev::new(&y0);
    unsafe {
        assert_eq!(
            glblasSaxpy(n as i32, 0.25, x.as_ptr(), 1, d.f(), 1),
            Status::Success
        )
    };
    let got = d.get(n);
    let mut want = y0.clone();
    saxpy_ref(n, 0.25, &x, 1, &mut want, 1);
    let terms: Vec<f64> = y0.iter().map(|v| (v.abs() + 0.25) as f64).collect();
    assert_saxpy(&got, &want, &terms);
}

#[test]
fn sgemm_512_by_384_by_640() {
    let (m, n, k) = (512usize, 384usize, 640usize);
    let a = fill(k * m, 3); // stored k×m: op(A) = A^T
    let b = fill(k * n, 4);
    let c0 = fill(m * n, 5);
    let mut c = c0.clone();
    let s = unsafe {
        glblasSgemm(
            Op(1),
            Op(0),
            m as i32,
            n as i32,
            k as i32,
            0.5,
            a.as_ptr(),
            k as i32,
            b.as_ptr(),
            k as i32,
            -1.0,
            c.as_mut_ptr(),
            m as i32,
        )
    };
    assert_eq!(s, Status::Success);
    let want = sgemm_ref(true, false, m, n, k, 0.5, &a, k, &b, k, -1.0, &c0, m);
    assert_sgemm(&c, m, m, n, k, &want);
}
