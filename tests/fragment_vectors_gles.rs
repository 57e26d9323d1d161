//! As `fragment_vectors.rs`, on a GLES 3.2 context (`GLBLAS_GL_API=gles`, which has no compute
//! pipeline: every kernel is a fragment one).

mod common;

#[test]
fn vector_kernels_over_every_case() {
    std::env::set_var("GLBLAS_GL_API", "gles");
    let info = glblas::engine::device_info().expect("a GLES 3.2 context");
    assert!(info.gles, "got {info:?}");
    common::vector_cases::run_level1();
    common::vector_cases::run_gemv();
}
