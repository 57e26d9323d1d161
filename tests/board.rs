//! An ARM board's GL (Raspberry Pi 4/5, Mali on Panfrost), as Mesa presents it under
//! `common::BOARD`: OpenGL ES 3.1 with no buffer textures or buffer storage, at a board's
//! compute limits. This process checks that glblas takes a GLES 3.1 context and the compute
//! pipeline with operands in storage blocks there, and runs a sample of kernels; GLES has no
//! doubles. (The llvmpipe-board configuration of `scripts/drivers.sh` runs the whole suite
//! there.)

mod common;

use common::*;

#[test]
fn kernels_run_on_a_gles_3_1_board() {
    for (k, v) in BOARD {
        std::env::set_var(k, v);
    }
    std::env::remove_var("GLBLAS_GL_API");
    let info = glblas::engine::device_info().expect("a GLES 3.1 context");
    assert!(
        info.gles
            && (info.major, info.minor) == (3, 1)
            && !info.texture_buffers
            && !info.buffer_storage
            && info.storage_operands
            && info.max_compute_invocations == 256
            && info.max_shared_memory == 32768
            && info.max_storage_block_size == 134217728,
        "got {info:?}"
    );
    assert_eq!(glblas::kernels::pipeline(), Some("compute"));
    check_a_sample_of_kernels();
    assert!(!doubles_here());
}
