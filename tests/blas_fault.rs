//! A GL failure part-way through a call (`GLBLAS_FAULT`: the 9th, 13th and 20th kernel launches of the
//! process fail) after some of its tiles or chunks were stored: the call must still give the reference
//! result, from the CPU BLAS starting again on the caller's original values, and the trace must
//! say so. Small limits force sgemm into 3×3 tiles and saxpy into chunks.
//!
//! The process must then exit cleanly: what a failed call launched before it failed is waited
//! for. On zink, lavapipe compiles the shader of the launch before the last fault (sgemv's
//! first) on its queue thread, and one still compiling at exit crashed the process, in about
//! one run in five. So the scenario runs in child processes (this test again, with
//! `BLAS_FAULT_CHILD` set; the environment is read once per process), several times, each with
//! Mesa's shader cache off, so that each compiles the shader as a first run on a fresh machine
//! does.

mod common;

use common::*;
use glblas::blas::cblas::*;

const CHILD: &str = "BLAS_FAULT_CHILD";
const TEST: &str = "a_call_that_fails_part_way_is_recomputed_from_the_original_values";
const RUNS: usize = 8;

#[test]
fn a_call_that_fails_part_way_is_recomputed_from_the_original_values() {
    if std::env::var_os(CHILD).is_some() {
        return scenario();
    }
    let env = [
        (CHILD, "1"),
        ("MESA_SHADER_CACHE_DISABLE", "true"),
        ("GLBLAS_BACKEND", "gl"),
        ("GLBLAS_FAULT", "launch:9,launch:13,launch:20"),
        ("GLBLAS_LIMIT_TARGET_SIDE", "8"),
        ("GLBLAS_LIMIT_WINDOW", "64"),
    ];
    for run in 1..=RUNS {
        if let Err(e) = run_in_child(TEST, &env) {
            panic!("run {run} of {RUNS}: {e}");
        }
    }
}

fn scenario() {
    let trace = trace_to_file("fault");

    // sgemm, beta != 0: C is 20×20 in tiles of 8, each three draws (pack A, pack B, the blocks),
    // so draws 1 to 6 store two tiles of C before launch 9 fails.
    let (m, n, k) = (20usize, 20usize, 5usize);
    let a = fill(m * k, 1);
    let b = fill(k * n, 2);
    let mut c = fill(m * n, 3);
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c, m);
    unsafe { cblas_sgemm_packed(m, n, k, 1.0, a.as_ptr(), b.as_ptr(), 0.5, c.as_mut_ptr()) };
    assert_sgemm(&c, m, m, n, k, &want);

    // saxpy in chunks of at most 64 elements: launches 10, 11 and 12 store three chunks of y,
    // then launch 13 fails.
    let len = 300;
    let x = fill(len, 4);
    let mut y = fill(len, 5);
    let mut want = y.clone();
    saxpy_ref(len, 2.0, &x, 1, &mut want, 1);
    unsafe { cblas_saxpy(len as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    let terms: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 2.0 * x.abs() as f64 + y.abs() as f64)
        .collect();
    assert_saxpy(&y, &want, &terms);

    // The fault is gone: the next call runs on GL again.
    let mut z = fill(len, 6);
    let mut want = z.clone();
    saxpy_ref(len, -1.0, &x, 1, &mut want, 1);
    unsafe { cblas_saxpy(len as i32, -1.0, x.as_ptr(), 1, z.as_mut_ptr(), 1) };
    let terms: Vec<f64> = x
        .iter()
        .zip(&z)
        .map(|(x, z)| x.abs() as f64 + z.abs() as f64)
        .collect();
    assert_saxpy(&z, &want, &terms);

    // Row-major sgemv, beta != 0, with m (the length of y) larger than n: y is stored in chunks
    // (launches 19 to 22), and launch 20 fails after the first.
    let (m, n) = (40usize, 6usize);
    let a = fill(m * n, 7);
    let v = fill(n, 8);
    let mut w = fill(m, 9);
    // Row-major A (m×n, lda = n) is the column-major n×m matrix A^T.
    let want = sgemv_ref(true, n, m, 1.5, &a, n, &v, 1, 0.5, &w, 1);
    unsafe {
        cblas_sgemv(
            101,
            111,
            m as i32,
            n as i32,
            1.5,
            a.as_ptr(),
            n as i32,
            v.as_ptr(),
            1,
            0.5,
            w.as_mut_ptr(),
            1,
        )
    };
    for (i, got) in w.iter().enumerate() {
        let tol = (n as f64 + 2.0) * EPS * want.1[i] + f64::from(f32::MIN_POSITIVE);
        let exact = want.0[i];
        assert!(
            (*got as f64 - exact).abs() <= tol,
            "y[{i}] = {got}, want {exact}"
        );
    }

    let (lines, text) = take_trace(&trace);
    let routes: Vec<&str> = lines.iter().map(|l| route_of(l)).collect();
    assert_eq!(
        routes,
        [
            "cpu reason=gl-failed",
            "cpu reason=gl-failed",
            "gl reason=backend",
            "cpu reason=gl-failed"
        ],
        "{text}"
    );
}
