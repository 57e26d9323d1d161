//! The GLES 3.2 fallback (for devices without desktop GL 3.3 core): this process asks for it
//! with GLBLAS_GL_API=gles and runs a sample of kernels there.

mod common;

use common::*;

#[test]
fn kernels_run_on_a_gles_context() {
    std::env::set_var("GLBLAS_GL_API", "gles");
    let info = glblas::engine::device_info().expect("a GLES 3.2 context");
    assert!(info.gles, "got {info:?}");
    check_a_sample_of_kernels();
}
