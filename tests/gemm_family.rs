//! The compute gemm's kernel family (`engine::tuning::GemmParams`): each block, workgroup side,
//! tile depth and tile option (strided, prefetch, unroll) a tuning may choose, set as the device's
//! parameters, gives sgemm's and dgemm's results within their error bounds, on shapes with
//! ragged edges (C element by element), whole groups of 4 rows (C in groups, beta != 0) and
//! whole tiles, over more steps of k than one tile holds, and ssyrk's on its triangle (square
//! blocks, tiles enumerated along it); and the program that ran is the family member's (its
//! defines).

mod common;

use common::*;
use glblas::api::*;
use glblas::engine::tuning::{GemmParams, TILE_OPTIONS};
use glblas::engine::with_engine;
use glblas::ffi::{FillArg, OperationArg};
use glblas::status::Status;

/// Members of the family covering each value of each parameter, blocked and tiled.
fn family() -> Vec<GemmParams> {
    let blocked = [[4, 4], [8, 4], [4, 8], [8, 8], [16, 8], [16, 16]]
        .into_iter()
        .map(GemmParams::blocked);
    // (group, block, tile_k, [strided, prefetch, unroll]): each option with and without each
    // other. Unrolling is a hint only NVIDIA's compiler takes (the tuner tries it nowhere
    // else); here the source with it is built, and run, by every other compiler too.
    let tiled = [
        (16, [4, 4], 16, [false, false, false]),
        (8, [8, 8], 8, [true, false, true]),
        (16, [8, 4], 32, [false, true, false]),
        (8, [4, 8], 4, [true, true, false]),
        (4, [16, 16], 8, [true, false, false]),
        (32, [4, 4], 4, [false, true, true]),
        (8, [16, 8], 16, [true, true, true]),
    ]
    .into_iter()
    .map(|(group, block, tile_k, options)| {
        let mut p = GemmParams {
            group,
            tile_k,
            ..GemmParams::tiled(block)
        };
        for (taken, on) in p.options_mut().into_iter().zip(options) {
            *taken = on;
        }
        p
    });
    blocked.chain(tiled).collect()
}

/// The shapes: (m, n, k, beta); sgemm's last is whole tiles of every member, and k whole tiles
/// of k.
const SHAPES: [(usize, usize, usize, f64); 3] =
    [(37, 29, 45, 0.0), (64, 36, 70, 0.5), (128, 128, 64, 0.5)];

fn programs() -> Vec<String> {
    with_engine(|e| Ok(e.programs.names())).expect("the engine")
}

fn sgemm_with(p: &GemmParams) {
    for (ta, (m, n, k, beta)) in [false, true, false].into_iter().zip(SHAPES) {
        let lda = if ta { k } else { m };
        let (a, b, c0) = (fill(m * k, 3), fill(k * n, 4), fill(m * n, 5));
        let mut c = c0.clone();
        let (ab, c_out) = ((a.as_ptr(), b.as_ptr()), c.as_mut_ptr());
        let s = unsafe { sgemm_packed((ta, false), m, n, k, 1.5, ab.0, ab.1, beta as f32, c_out) };
        assert_eq!(s, Status::Success, "{p:?}");
        let want = sgemm_ref(ta, false, m, n, k, 1.5, &a, lda, &b, k, beta as f32, &c0, m);
        assert_sgemm(&c, m, m, n, k, &want);
    }
}

fn dgemm_with(p: &GemmParams) {
    for (tb, (m, n, k, beta)) in [false, true].into_iter().zip(SHAPES) {
        let ldb = if tb { n } else { k };
        let (a, b, c0) = (fill64(m * k, 6), fill64(k * n, 7), fill64(m * n, 8));
        let mut c = c0.clone();
        let s = unsafe {
            glblasDgemm(
                OperationArg(0),
                OperationArg(i32::from(tb)),
                m as i32,
                n as i32,
                k as i32,
                -0.75,
                a.as_ptr(),
                m as i32,
                b.as_ptr(),
                ldb as i32,
                beta,
                c.as_mut_ptr(),
                m as i32,
            )
        };
        assert_eq!(s, Status::Success, "{p:?}");
        let want = dgemm_ref(
            (false, tb),
            (m, n, k),
            -0.75,
            (&a, m),
            (&b, ldb),
            beta,
            (&c0, m),
        );
        assert_dgemm(&c, m, (m, n, k), &want);
    }
}

/// C's lower triangle := 0.5 A A^T + 2 C, A 45×37: the elements of the upper one untouched.
fn ssyrk_with(p: &GemmParams) {
    let (n, k) = (45, 37);
    let (a, c0) = (fill(n * k, 9), fill(n * n, 10));
    let mut c = c0.clone();
    let s = unsafe {
        glblasSsyrk(
            FillArg(0),
            OperationArg(0),
            n as i32,
            k as i32,
            0.5,
            a.as_ptr(),
            n as i32,
            2.0,
            c.as_mut_ptr(),
            n as i32,
        )
    };
    assert_eq!(s, Status::Success, "{p:?}");
    let want = sgemm_ref(false, true, n, n, k, 0.5, &a, n, &a, n, 2.0, &c0, n);
    for j in 0..n {
        for i in 0..n {
            let (got, tol) = (
                c[i + j * n] as f64,
                (k as f64 + 2.0) * EPS * want.1[i + j * n],
            );
            if i >= j {
                let w = want.0[i + j * n];
                assert!(
                    (got - w).abs() <= tol,
                    "C({i},{j}) of {p:?}: got {got}, want {w}"
                );
            } else {
                assert_eq!(c[i + j * n], c0[i + j * n], "C({i},{j}) above the triangle");
            }
        }
    }
}

#[test]
fn every_member_of_the_family_is_right() {
    let info = glblas::engine::device_info().expect("a GL device");
    if !info.compute {
        return;
    }
    let defaults = with_engine(|e| Ok(e.tuning)).expect("the engine");
    for p in family() {
        assert!(p.valid(), "{p:?}");
        with_engine(|e| {
            e.tuning.gemm = [p, p];
            Ok(())
        })
        .unwrap();
        sgemm_with(&p);
        ssyrk_with(&p);
        if doubles_here() {
            dgemm_with(&p);
        }
        // As gemm_compute::Kernel::of adapts them (the window is no bound here).
        if p.fit(&info, 8) {
            let mut wanted = vec![
                format!("#define BLOCK_M {}", p.block[0]),
                format!("#define BLOCK_N {}", p.block[1]),
                format!("#define GROUP {}", p.group),
            ];
            if p.tiled {
                wanted.push(format!("#define TILE_K {}", p.tile_k));
            }
            let member = |name: &String| {
                name.starts_with("gemm.comp")
                    && wanted.iter().all(|w| name.contains(w.as_str()))
                    && name.contains("TILED") == p.tiled
                    && (TILE_OPTIONS.iter().zip(p.options()))
                        .all(|((_, define), taken)| name.contains(define) == taken)
            };
            let ran = programs().iter().any(member);
            assert!(ran, "no gemm.comp program of {p:?}: {:?}", programs());
        }
    }
    with_engine(|e| {
        e.tuning = defaults;
        Ok(())
    })
    .unwrap();
}
