//! The compute sgemm's shared-memory tiled kernel (`GLBLAS_GEMM_KERNEL=tiled`; GPUs take it by
//! default in single precision, software rasterizers do not, see `gemm_compute::Kernel`): this
//! process asks for it, then checks sizes around the edges of its 128×128 tiles and of its steps
//! of 16 values of k, every transpose pair, device operands with C in place, a k longer than one
//! pass takes, a triangular op(A) (strmm), dgemm on it, and windows too narrow for its tiles.

mod common;

use common::*;
use glblas::ffi::{DiagArg, FillArg, OperationArg, SideArg};
use glblas::kernels::MAX_LOOP_ITERATIONS;
use glblas::status::Status;

#[test]
fn tiled_sgemm_matches_the_reference() {
    std::env::set_var("GLBLAS_GEMM_KERNEL", "tiled");
    let tiled = glblas::engine::with_engine(|e| Ok(e.limits.gemm_tiled));
    assert_eq!(
        tiled.ok(),
        Some(Some(true)),
        "the tiled kernel was not selected"
    );

    host_products(&[
        (1, 1, 1),
        (128, 128, 16),
        (129, 127, 17),
        (200, 130, 15),
        (37, 260, 40),
    ]);

    // Device operands, C in place, and k cut into passes (each a whole number of steps of 16
    // but the last): ±1 data, so the result is exact.
    let (m, n, k) = (130, 9, MAX_LOOP_ITERATIONS as usize + 3);
    let (a, b) = (signs(m * k, 5), signs(k * n, 6));
    let (da, db, dc) = (Dev::new(&a), Dev::new(&b), Dev::new(&vec![f32::NAN; m * n]));
    let s = unsafe { sgemm_packed((true, false), m, n, k, 1.0, da.f(), db.f(), 0.0, dc.f()) };
    assert_eq!(s, Status::Success);
    let (want, _) = sgemm_ref(
        true,
        false,
        m,
        n,
        k,
        1.0,
        &a,
        k,
        &b,
        k,
        0.0,
        &vec![0.0; m * n],
        m,
    );
    let got = dc.get(m * n);
    assert!(
        got.iter().zip(&want).all(|(g, w)| f64::from(*g) == *w),
        "device sgemm with k = {k}: wrong elements"
    );

    // A triangular op(A) (left strmm; gemm.comp's uColumnsAlongX), its upper triangle NaN: never
    // read. The reference is the product with zeros there.
    let (m, n) = (200, 130);
    let mut a = fill(m * m, 40);
    let b = fill(m * n, 41);
    let mut dense = a.clone();
    for j in 0..m {
        for i in 0..j {
            (a[i + j * m], dense[i + j * m]) = (f32::NAN, 0.0);
        }
    }
    let mut got = b.clone();
    let s = unsafe {
        glblas::api::glblasStrmm(
            SideArg(0),
            FillArg(0),
            OperationArg(0),
            DiagArg(0),
            m as i32,
            n as i32,
            1.5,
            a.as_ptr(),
            m as i32,
            got.as_mut_ptr(),
            m as i32,
        )
    };
    assert_eq!(s, Status::Success);
    let want = sgemm_ref(false, false, m, n, m, 1.5, &dense, m, &b, m, 0.0, &b, m);
    assert_sgemm(&got, m, m, n, m, &want);

    // Doubles on the tiled kernel (which the setting takes for them too): across the edges of
    // its tiles and steps of k, with C read.
    if doubles_here() {
        let (m, n, k) = (129, 70, 37);
        let (a, b, c0) = (fill64(k * m, 42), fill64(k * n, 43), fill64(m * n, 44));
        let mut c = c0.clone();
        let s = unsafe {
            glblas::api::glblasDgemm(
                OperationArg(1),
                OperationArg(0),
                m as i32,
                n as i32,
                k as i32,
                1.25,
                a.as_ptr(),
                k as i32,
                b.as_ptr(),
                k as i32,
                -0.5,
                c.as_mut_ptr(),
                m as i32,
            )
        };
        assert_eq!(s, Status::Success);
        let want = dgemm_ref(
            (true, false),
            (m, n, k),
            1.25,
            (&a, k),
            (&b, k),
            -0.5,
            (&c0, m),
        );
        assert_dgemm(&c, m, (m, n, k), &want);
    }

    // Under windows narrower than a 128-row tile (GLBLAS_LIMIT_WINDOW, which the fault and
    // small-limit tests lower), no tiling fits the tiled kernel's panels: the blocked kernel
    // computes instead (NVIDIA's H200, which tiles by default, answered DIMENSION_OVERFLOW).
    assert_eq!(glblas::api::glblasShutdown(), Status::Success);
    std::env::set_var("GLBLAS_LIMIT_WINDOW", "97");
    host_products(&[(1, 1, 1), (20, 20, 5), (9, 13, 30)]);
}

/// Host sgemm of each size, every transpose pair, against the reference.
fn host_products(sizes: &[(usize, usize, usize)]) {
    let mut seed = 0;
    for &(m, n, k) in sizes {
        for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
            seed += 3;
            let (a, b, c0) = (
                fill(m * k, seed),
                fill(k * n, seed + 1),
                fill(m * n, seed + 2),
            );
            let mut c = c0.clone();
            let s = unsafe {
                sgemm_packed(
                    (ta, tb),
                    m,
                    n,
                    k,
                    0.75,
                    a.as_ptr(),
                    b.as_ptr(),
                    -0.5,
                    c.as_mut_ptr(),
                )
            };
            assert_eq!(s, Status::Success, "{m}x{n}x{k} ta={ta} tb={tb}");
            let (lda, ldb) = (if ta { k } else { m }, if tb { n } else { k });
            let want = sgemm_ref(ta, tb, m, n, k, 0.75, &a, lda, &b, ldb, -0.5, &c0, m);
            assert_sgemm(&c, m, m, n, k, &want);
        }
    }
}
