//! The GLES 3.2 fallback (for devices without desktop GL 3.3 core): this process asks for it
//! with GLBLAS_GL_API=gles and runs every kernel there.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

#[test]
fn kernels_run_on_a_gles_context() {
    std::env::set_var("GLBLAS_GL_API", "gles");
    let info = glblas::engine::device_info().expect("a GLES 3.2 context");
    assert!(info.gles, "got {info:?}");

    let n = 300;
    let x = fill(n * 2, 1);
    let y0 = fill(n, 2);
    let xd = Dev::new(&x);
    let mut y = y0.clone();
    let mut want = y0.clone();
    saxpy_ref(n, 2.0, &x, -2, &mut want, 1);
    let terms: Vec<f64> = y0.iter().map(|v| (v.abs() + 2.0) as f64).collect();
    let mut r = 0.0f32;
    let (m, k) = (13, 9);
    let mut c = vec![0.0f32; m * m];
    unsafe {
        assert_eq!(
            glblasSaxpy(n as i32, 2.0, xd.f(), -2, y.as_mut_ptr(), 1),
            Status::Success
        );
        assert_eq!(
            glblasSdot(n as i32, xd.f(), 2, y0.as_ptr(), 1, &mut r),
            Status::Success
        );
        let s = glblasSgemm(
            Op(1),
            Op(0),
            m as i32,
            m as i32,
            k as i32,
            1.0,
            xd.f(),
            k as i32,
            x.as_ptr(),
            k as i32,
            0.0,
            c.as_mut_ptr(),
            m as i32,
        );
        assert_eq!(s, Status::Success);
    }
    assert_saxpy(&y, &want, &terms);
    assert_sdot(r, &x, 2, &y0, 1, n);
    // Reads from device memory go through glMapBufferRange on GLES.
    assert_eq!(xd.get(n), &x[..n]);
    let want = sgemm_ref(true, false, m, m, k, 1.0, &x, k, &x, k, 0.0, &c, m);
    assert_sgemm(&c, m, m, m, k, &want);
}
