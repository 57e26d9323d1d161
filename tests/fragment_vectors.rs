//! The fragment pipeline's vector kernels (`GLBLAS_PIPELINE=fragment`, read once per process) on
//! desktop GL, over every size, increment and placement of `common::vector_cases` (one test:
//! calls from two threads at once would only take turns, slowly).

mod common;

#[test]
fn vector_kernels_over_every_case() {
    common::use_fragment_pipeline();
    common::vector_cases::run_level1();
    common::vector_cases::run_gemv();
}
