//! The undo copies themselves: a Level 3 call whose kernel stores part of its result into the
//! caller's host memory, then fails on a later launch, must still give the reference result
//! through the BLAS symbols, because the CPU BLAS starts again from the values the undo copy
//! put back. (`blas_fault_level3.rs` fails calls whose stores all come after their last
//! launch, so there the copies have nothing to undo.)
//!
//! A kernel stores part-way where host C (or trmm's B) is used in place (pinned memory, for
//! operands of 256 KiB or more) and k is cut into chunks, C being written after each. A
//! window of 35000 elements does that at n = k = 185 on every device: each operand (its span,
//! 34593 elements at ld 187) fits, but a panel of 192 rows (185 padded to whole blocks) holds
//! at most 182 steps of k, so k takes two chunks of three launches (pack op(A), pack op(B),
//! multiply), and a fault at launch 4, 5 or 6 comes after C's first store. The same call
//! through the C API, which has no undo, shows where C was stored part-way (it reports
//! EXECUTION_FAILED and may leave stored results): on devices with pinned memory it must have
//! changed C, so the BLAS symbols' correct results there are the undo copies' doing.
//! One test: the environment is read once per process.

mod common;

use std::ffi::c_char;

use common::*;
use glblas::api::{glblasDsyrk, glblasSync};
use glblas::blas::fortran::{dsyrk_, dtrmm_};
use glblas::engine::fault::{self, Fault};
use glblas::ffi::{FillArg, OperationArg};
use glblas::status::Status;

const N: usize = 185;
const LD: usize = 187;

#[test]
fn a_call_stored_part_way_is_put_back_before_the_cpu_blas_runs() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_LIMIT_WINDOW", "35000");
    let trace = trace_to_file("fault-undo");
    let ch = |c: u8| c as c_char;
    let ni = N as i32;
    let ldi = LD as i32;
    let info = glblas::engine::device_info().expect("a GL device");
    let runs_here = doubles_here();

    // dsyrk, upper, C := 0.5 A A^T + 0.5 C, A n×k (k = n); the strictly lower triangle and the
    // rows past n hold NaNs that must stay, bit for bit.
    let a = fill64(N * N, 21);
    let c0: Vec<f64> = fill64(LD * N, 22)
        .into_iter()
        .enumerate()
        .map(|(p, v)| if p % LD > p / LD { f64::NAN } else { v })
        .collect();
    let want = |i: usize, j: usize| {
        let (dot, _) = dot2((0..N).map(|l| (a[i + l * N], a[j + l * N])));
        0.5 * dot + 0.5 * c0[i + j * LD]
    };
    // Sums of k = 185 products in [-1, 1), scaled by at most 2: their error bound 2·γ_k·k
    // (γ_k ≈ k·eps/2) is about k²·eps; 2·(k + 1)·k·eps also covers the last scaling and sum.
    let tol = 2.0 * (N + 1) as f64 * N as f64 * f64::EPSILON;

    // Through the C API: no undo.
    let mut c = c0.clone();
    fault::fail_next(Fault::Launch, 4);
    let st = unsafe {
        glblasDsyrk(
            FillArg(1),
            OperationArg(0),
            ni,
            ni,
            0.5,
            a.as_ptr(),
            ni,
            0.5,
            c.as_mut_ptr(),
            ldi,
        )
    };
    fault::clear();
    glblasSync();
    let stored_part_way = c.iter().zip(&c0).any(|(x, y)| x.to_bits() != y.to_bits());
    if runs_here {
        assert_eq!(st, Status::ExecutionFailed);
        if info.pinned_memory {
            assert!(
                stored_part_way,
                "C unchanged: nothing for the undo copy to do"
            );
        }
    } else {
        assert_eq!(st, Status::NotSupported);
        assert!(!stored_part_way);
    }

    for k in [4, 5, 6] {
        let mut c = c0.clone();
        fault::fail_next(Fault::Launch, k);
        unsafe {
            dsyrk_(
                &ch(b'U'),
                &ch(b'N'),
                &ni,
                &ni,
                &0.5,
                a.as_ptr(),
                &ni,
                &0.5,
                c.as_mut_ptr(),
                &ldi,
                1,
                1,
            )
        };
        fault::clear();
        let what = format!("dsyrk, fault at launch {k}");
        assert_stored(&c, &c0, |i, j| i <= j, want, tol, &what);
    }

    // dtrmm, right, lower, no transpose, non-unit: B := 2 B A, B n×n (ld 187), A lower
    // triangular, its upper triangle NaN (never read).
    let t: Vec<f64> = fill64(N * N, 23)
        .into_iter()
        .enumerate()
        .map(|(p, v)| if p % N < p / N { f64::NAN } else { v })
        .collect();
    let b0 = fill64(LD * N, 24);
    let want: Vec<f64> = (0..N * N)
        .map(|p| {
            let (i, j) = (p % N, p / N);
            2.0 * dot2((j..N).map(|l| (b0[i + l * LD], t[l + j * N]))).0
        })
        .collect();
    for k in [4, 5, 6] {
        let mut b = b0.clone();
        fault::fail_next(Fault::Launch, k);
        unsafe {
            dtrmm_(
                &ch(b'R'),
                &ch(b'L'),
                &ch(b'N'),
                &ch(b'N'),
                &ni,
                &ni,
                &2.0,
                t.as_ptr(),
                &ni,
                b.as_mut_ptr(),
                &ldi,
                1,
                1,
                1,
                1,
            )
        };
        fault::clear();
        let what = format!("dtrmm, fault at launch {k}");
        assert_stored(&b, &b0, |_, _| true, |i, j| want[i + j * N], tol, &what);
    }

    // Each BLAS call went to GL and failed part-way, or the device could not run it at all.
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 6, "{text}");
    assert!(
        lines.iter().all(|l| route_of(l) == "cpu reason=gl-failed")
            || (!runs_here && lines.iter().all(|l| route_of(l) == "cpu reason=no-double")),
        "{text}"
    );
}

/// `got` (N×N, ld LD) is `want` within `tol` where `stored` says the call stores, and `original`,
/// bit for bit, everywhere else (the rows past N too).
fn assert_stored(
    got: &[f64],
    original: &[f64],
    stored: impl Fn(usize, usize) -> bool,
    want: impl Fn(usize, usize) -> f64,
    tol: f64,
    what: &str,
) {
    for j in 0..N {
        for i in 0..LD {
            let (g, p) = (got[i + j * LD], i + j * LD);
            if i >= N || !stored(i, j) {
                assert_eq!(
                    g.to_bits(),
                    original[p].to_bits(),
                    "{what}: wrote [{i},{j}]"
                );
            } else {
                let w = want(i, j);
                assert!((g - w).abs() <= tol, "{what}: [{i},{j}] = {g}, want {w}");
            }
        }
    }
}
