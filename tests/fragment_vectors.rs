//! The fragment pipeline's vector kernels (`GLBLAS_PIPELINE=fragment`, read once per process) on
//! desktop GL, over every size, increment and placement of `common::vector_cases`.

mod common;

#[test]
fn level1_kernels_over_every_case() {
    std::env::set_var("GLBLAS_PIPELINE", "fragment");
    common::vector_cases::run_level1();
}
