//! Results the fragment pipeline stores into device memory (glReadPixels into the buffer), read
//! back by the next call, many times over: on zink over lavapipe (Mesa 22.3) about one call in
//! 20 lost its stores unless the device was waited for before the call let its context go
//! (`engine::barriers::Barriers::new`). Every result is checked, on every driver.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

#[test]
fn device_results_of_many_calls_are_all_there() {
    // Read once, before the first call.
    common::use_fragment_pipeline();
    // 7 rows: four go through RGBA texels, the last three through the edge pass.
    let (m, n, k, ldc) = (7, 5, 3, 10);
    for round in 0..200u64 {
        let a = fill(m * k, round);
        let b = fill(k * n, 1000 + round);
        let c0 = fill(ldc * n, 2000 + round);
        let want = sgemm_ref(false, false, m, n, k, 1.5, &a, m, &b, k, -0.5, &c0, ldc);
        let (da, dc) = (Dev::new(&a), Dev::new(&c0));
        let s = unsafe {
            glblasSgemm(
                Op(0),
                Op(0),
                m as i32,
                n as i32,
                k as i32,
                1.5,
                da.f(),
                m as i32,
                b.as_ptr(),
                k as i32,
                -0.5,
                dc.f(),
                ldc as i32,
            )
        };
        assert_eq!(s, Status::Success, "round {round}");
        let got = dc.get(c0.len());
        assert_sgemm(&got, ldc, m, n, k, &want);
        for j in 0..n {
            assert_eq!(
                &got[j * ldc + m..(j + 1) * ldc],
                &c0[j * ldc + m..(j + 1) * ldc]
            );
        }
    }
}
