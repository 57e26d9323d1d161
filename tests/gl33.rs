//! The GL 3.3 baseline (desktop GL without `glTexBufferRange`, compute shaders or buffer
//! storage), as Mesa presents it under `common::GL33_BASELINE`: this process checks that the
//! overrides give that device (so that the C programs `c_tests.rs` runs under them test it) and
//! runs a sample of kernels there.

mod common;

use common::*;

#[test]
fn kernels_run_on_gl_3_3_without_buffer_ranges() {
    for (k, v) in GL33_BASELINE {
        std::env::set_var(k, v);
    }
    let info = glblas::engine::device_info().expect("a GL 3.3 context");
    assert!(
        !info.gles
            && (info.major, info.minor) == (3, 3)
            && !info.texture_buffer_range
            && !info.compute_shaders
            && !info.buffer_storage,
        "got {info:?}"
    );
    check_a_sample_of_kernels();
}
