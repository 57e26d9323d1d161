//! As `fragment_vectors.rs`, on the fragment pipeline (`GLBLAS_PIPELINE=fragment`) of a GLES
//! context (`GLBLAS_GL_API=gles`): the kernels a GLES device without compute shaders runs.

mod common;

#[test]
fn vector_kernels_over_every_case() {
    std::env::set_var("GLBLAS_GL_API", "gles");
    common::use_fragment_pipeline();
    let info = glblas::engine::device_info().expect("a GLES 3.2 context");
    assert!(info.gles, "got {info:?}");
    assert_eq!(glblas::kernels::pipeline(), Some("fragment"));
    common::vector_cases::run_level1();
    common::vector_cases::run_gemv();
}
