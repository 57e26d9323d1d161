//! `GLBLAS_OPERANDS=storage`: the compute kernels read their operands through storage blocks
//! on a device that has buffer-texture windows too (the path GLES 3.1 boards and virgl take),
//! checked on a sample of kernels and on every Level 1 and gemv case; and a device with fewer
//! storage blocks per shader than that path binds (`GLBLAS_LIMIT_STORAGE_BLOCKS`) gets the
//! fragment pipeline instead, or on a board, which has no fragment pipeline, no context.

mod common;

use common::*;
use glblas::api::*;
use glblas::status::Status;

#[test]
fn storage_block_operands_and_too_few_blocks() {
    std::env::set_var("GLBLAS_OPERANDS", "storage");
    let info = glblas::engine::device_info().expect("a GL device");
    if !info.compute_shaders {
        // GL 3.3: no compute pipeline, so no storage blocks to read through.
        assert!(!info.storage_operands, "{info:?}");
        return;
    }
    assert!(info.storage_operands && info.compute, "{info:?}");
    assert_eq!(glblas::kernels::pipeline(), Some("compute"));
    check_a_sample_of_kernels();
    vector_cases::run_level1();
    vector_cases::run_gemv();

    assert_eq!(glblasShutdown(), Status::Success);
    std::env::set_var("GLBLAS_LIMIT_STORAGE_BLOCKS", "8");
    if on_board() {
        // Neither pipeline is left to a board then: no context (`tests/gles30.rs`).
        assert!(glblas::engine::device_info().is_none());
        return;
    }
    let info = glblas::engine::device_info().expect("a GL device");
    assert!(!info.compute && !info.storage_operands, "{info:?}");
    assert_eq!(glblas::kernels::pipeline(), Some("fragment"));
    check_a_sample_of_kernels();
}
