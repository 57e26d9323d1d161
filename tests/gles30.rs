//! A device whose GL is too old for either pipeline (GLES 3.0 and desktop GL 3.0, as Mesa
//! presents them when told to): glblas takes no context, says why, and every call answers
//! NOT_INITIALIZED with its outputs untouched (the BLAS names then answer on the CPU BLAS, as
//! without a device: `tests/blas_no_cpu.rs` and the preload tests).

use glblas::api::*;
use glblas::status::Status;

#[test]
fn gl_below_both_pipelines_takes_no_context_and_says_why() {
    std::env::set_var("MESA_GLES_VERSION_OVERRIDE", "3.0");
    std::env::set_var("MESA_GL_VERSION_OVERRIDE", "3.0");
    std::env::remove_var("GLBLAS_GL_API");
    let e = glblas::engine::with_engine(|_| Ok(())).expect_err("no context on GL 3.0");
    assert_eq!(e.status, Status::NotInitialized);
    assert!(
        e.detail.contains("no context with compute shaders"),
        "{}",
        e.detail
    );
    assert_eq!(glblasInit(), Status::NotInitialized);
    let x = [1.0f32, 2.0, 3.0];
    let mut y = [4.0f32, 5.0, 6.0];
    let s = unsafe { glblasSaxpy(3, 1.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    assert_eq!(s, Status::NotInitialized);
    assert_eq!(y, [4.0, 5.0, 6.0]);
}
