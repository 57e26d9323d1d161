//! A GL failure part-way through a Level 3 call beyond gemm (`fault::fail_next`: the k-th kernel
//! launch from now fails, for k from the first launch of the call to a late one: on llvmpipe
//! this strsm takes 10 launches on the compute pipeline and 7 on the fragment one, and this
//! dsyrk 3): strsm_ in single and dsyrk_ (beta !=
//! 0) in double must still give the reference result, the CPU BLAS starting again from the
//! caller's original B or C (the undo copies), and dsyrk must leave the other triangle of C
//! untouched, bit for bit (its copy covers only the stored triangle). Where the device cannot
//! compute in double the CPU BLAS answers every dsyrk call. One test: the environment is read
//! once per process.
//!
//! On llvmpipe these kernels store host B and C after their last launch, so a failed launch
//! leaves them as they were even without the undo copies; where a kernel stores earlier, the
//! copies are what puts them back.

mod common;

use std::ffi::c_char;

use common::*;
use glblas::blas::fortran::{dsyrk_, strsm_};
use glblas::engine::fault::{self, Fault};

#[test]
fn a_level3_call_that_fails_part_way_is_recomputed_from_the_original_values() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("fault-level3");
    let ch = |c: u8| c as c_char;

    // strsm: lower triangular A (m×m, diagonally dominant), B m×n, X overwriting B.
    let (m, n) = (300usize, 5usize);
    let mut a = fill(m * m, 11);
    for j in 0..m {
        for i in 0..m {
            a[i + j * m] = if i == j {
                2.0 + a[i + j * m].abs()
            } else if i > j {
                a[i + j * m] / m as f32
            } else {
                f32::NAN // the other triangle: never read
            };
        }
    }
    let b0 = fill(m * n, 12);
    // X by forward substitution in double: A X = 2 B.
    let mut x = vec![0f64; m * n];
    for c in 0..n {
        for i in 0..m {
            let mut s = 2.0 * f64::from(b0[i + c * m]);
            for j in 0..i {
                s -= f64::from(a[i + j * m]) * x[j + c * m];
            }
            x[i + c * m] = s / f64::from(a[i + i * m]);
        }
    }
    for k in [1, 4, 7] {
        let mut b = b0.clone();
        fault::fail_next(Fault::Launch, k);
        let (mi, ni) = (m as i32, n as i32);
        unsafe {
            strsm_(
                &ch(b'L'),
                &ch(b'L'),
                &ch(b'N'),
                &ch(b'N'),
                &mi,
                &ni,
                &2.0,
                a.as_ptr(),
                &mi,
                b.as_mut_ptr(),
                &mi,
                1,
                1,
                1,
                1,
            )
        };
        fault::clear();
        for (p, (&got, &want)) in b.iter().zip(&x).enumerate() {
            assert!(
                (f64::from(got) - want).abs() <= 1e-4 * (1.0 + want.abs()),
                "strsm, fault at launch {k}: x[{p}] = {got}, want {want}"
            );
        }
    }

    // dsyrk, upper, C := 0.5 A A^T + 0.5 C; the strictly lower triangle holds NaNs that must
    // stay, bit for bit.
    let (n, kk, ldc) = (70usize, 9usize, 73usize);
    let a = fill64(n * kk, 13);
    let c0: Vec<f64> = fill64(ldc * n, 14)
        .into_iter()
        .enumerate()
        .map(|(p, v)| if p % ldc > p / ldc { f64::NAN } else { v })
        .collect();
    for k in [1, 2, 3] {
        let mut c = c0.clone();
        fault::fail_next(Fault::Launch, k);
        let (ni, ki, ldci) = (n as i32, kk as i32, ldc as i32);
        unsafe {
            dsyrk_(
                &ch(b'U'),
                &ch(b'N'),
                &ni,
                &ki,
                &0.5,
                a.as_ptr(),
                &ni,
                &0.5,
                c.as_mut_ptr(),
                &ldci,
                1,
                1,
            )
        };
        fault::clear();
        for j in 0..n {
            for i in 0..ldc {
                let p = i + j * ldc;
                if i > j || i >= n {
                    assert_eq!(c[p].to_bits(), c0[p].to_bits(), "dsyrk wrote C[{i},{j}]");
                    continue;
                }
                let dot: f64 = (0..kk).map(|l| a[i + l * n] * a[j + l * n]).sum();
                let want = 0.5 * dot + 0.5 * c0[p];
                assert!(
                    (c[p] - want).abs() <= 1e-13,
                    "dsyrk, fault at launch {k}: C[{i},{j}] = {}, want {want}",
                    c[p]
                );
            }
        }
    }

    // Each call went to GL and failed part-way, or (dsyrk) the device could not run it at all.
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 6, "{text}");
    let routes: Vec<&str> = lines.iter().map(|l| route_of(l)).collect();
    assert!(
        routes.iter().all(|r| *r == "cpu reason=gl-failed")
            || (routes[..3].iter().all(|r| *r == "cpu reason=gl-failed")
                && routes[3..].iter().all(|r| *r == "cpu reason=no-double")),
        "{text}"
    );
}
