//! Operands larger than one buffer-texture window at the device's real limits (not lowered as
//! in `tiling.rs`): saxpy and sdot over a few more elements than a window holds, on host and
//! device memory; an sgemm whose A is larger than a window, so that k is cut into chunks; an
//! sgemm whose C is larger than a window and than one render target, so that C is cut into
//! tiles. Up to 2.5 GiB of memory each; they run one at a time.
//!
//! At these lengths the general fp32 bounds of sdot and sgemm ((n+1)·u·Σ|x_i y_i|) exceed the
//! sums themselves, so they could not tell a dropped chunk from rounding. The reductions
//! therefore run on data whose results are exact in any summation order: ±1 against ±1 or 0,
//! with at most 2^24 nonzero products, so that every partial sum is an integer of at most 2^24
//! (exact in fp32), and must equal the double-precision reference exactly. Nonzero terms lie
//! every 16 elements and densely around the ends of chunks and of the operands.

mod common;

use std::time::Instant;

use common::*;
use glblas::api::*;
use glblas::engine::limits::Limits;
use glblas::kernels::MAX_LOOP_ITERATIONS;
use glblas::status::Status;

/// The engine's launch limits, which must be the device's own (this process lowers nothing).
fn limits() -> Limits {
    assert!(std::env::var_os("GLBLAS_LIMIT_WINDOW").is_none());
    glblas::engine::with_engine(|e| Ok(e.limits)).expect("a GL device")
}

/// ±1 at every 16th element, at the 32 elements on either side of every multiple of `period`
/// (where chunks end) and at the last 32, 0 elsewhere.
fn sparse_signs(n: usize, seed: u64, period: usize) -> Vec<f32> {
    let mut v = signs(n, seed);
    for (i, e) in v.iter_mut().enumerate() {
        let r = i % period;
        if i % 16 != 0 && r.min(period - r) >= 32 && n - i > 32 {
            *e = 0.0;
        }
    }
    v
}

/// x·y in double precision (exact for the data above).
fn dot(x: &[f32], y: &[f32]) -> f64 {
    x.iter().zip(y).map(|(a, b)| *a as f64 * *b as f64).sum()
}

/// assert_saxpy over long unit-stride vectors, a million elements at a time (whole reference
/// vectors would take gigabytes).
fn assert_saxpy_long(got: &[f32], alpha: f32, x: &[f32], y0: &[f32]) {
    const CHUNK: usize = 1 << 20;
    for ((g, x), y0) in got.chunks(CHUNK).zip(x.chunks(CHUNK)).zip(y0.chunks(CHUNK)) {
        let mut want = y0.to_vec();
        saxpy_ref(x.len(), alpha, x, 1, &mut want, 1);
        let terms: Vec<f64> = x
            .iter()
            .zip(y0)
            .map(|(x, y)| (alpha * x).abs() as f64 + y.abs() as f64)
            .collect();
        assert_saxpy(g, &want, &terms);
    }
}

fn report(what: &str, t: Instant) {
    println!(
        "{what}: {:.1} s, peak resident memory of the process so far {:.0} MiB",
        t.elapsed().as_secs_f64(),
        proc_status_bytes("VmHWM") as f64 / MIB
    );
}

#[test]
fn vectors_longer_than_one_window() {
    let _alone = one_at_a_time(); // each test needs gigabytes
    let t = Instant::now();
    let window = limits().window as usize;
    let n = window + 5;
    assert!(n > window, "n must exceed one window");
    let (x, mut y) = (signs(n, 1), sparse_signs(n, 2, window));
    let exact = dot(&x, &y);
    let mut r = 0.0f32;
    unsafe {
        assert_eq!(
            glblasSdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1, &mut r),
            Status::Success
        );
    }
    assert_eq!(r as f64, exact, "sdot of host vectors");
    // Device operands, the result left on the device.
    let (dx, dy, dr) = (Dev::new(&x), Dev::new(&y), Dev::new(&[0.0]));
    unsafe {
        assert_eq!(
            glblasSdot(n as i32, dx.f(), 1, dy.f(), 1, dr.f()),
            Status::Success
        );
    }
    assert_eq!(dr.get(1)[0] as f64, exact, "sdot of device vectors");
    drop(dx);
    // A host x into a device y.
    unsafe {
        assert_eq!(
            glblasSaxpy(n as i32, 0.25, x.as_ptr(), 1, dy.f(), 1),
            Status::Success
        );
    }
    let got = dy.get(n);
    drop(dy);
    assert_saxpy_long(&got, 0.25, &x, &y);
    drop(got);
    // Both on the host (y updated in place).
    let y0 = y.clone();
    unsafe {
        assert_eq!(
            glblasSaxpy(n as i32, -0.5, x.as_ptr(), 1, y.as_mut_ptr(), 1),
            Status::Success
        );
    }
    assert_saxpy_long(&y, -0.5, &x, &y0);
    report(&format!("sdot and saxpy, n = {n}"), t);
}

#[test]
fn sgemm_with_a_larger_than_one_window() {
    let _alone = one_at_a_time(); // each test needs gigabytes
    let t = Instant::now();
    let (m, n) = (16usize, 3usize);
    let k = limits().window as usize / m + 1001;
    // A (m×k, on the host) exceeds one window; B (k×n, on the device) does not. k is cut into
    // chunks of at most MAX_LOOP_ITERATIONS (fewer if A's part would not fit a window): B is
    // dense around their ends, and C's initial values are small integers, so that alpha = 0.5
    // and beta = -1 keep every result exact.
    let a = signs(m * k, 3);
    let b: Vec<f32> = (0..n)
        .flat_map(|j| sparse_signs(k, 4 + j as u64, MAX_LOOP_ITERATIONS as usize))
        .collect();
    let c0: Vec<f32> = signs(m * n, 5).iter().map(|s| 2.0 * s).collect();
    let mut c = c0.clone();
    let db = Dev::new(&b);
    let s = unsafe {
        sgemm_packed(
            (false, false),
            m,
            n,
            k,
            0.5,
            a.as_ptr(),
            db.f(),
            -1.0,
            c.as_mut_ptr(),
        )
    };
    assert_eq!(s, Status::Success);
    let (want, _) = sgemm_ref(false, false, m, n, k, 0.5, &a, m, &b, k, -1.0, &c0, m);
    let got: Vec<f64> = c.iter().map(|v| *v as f64).collect();
    assert_eq!(got, want, "sgemm {m}x{n}x{k}");
    report(&format!("sgemm {m}x{n}x{k}"), t);
}

#[test]
fn sgemm_with_c_larger_than_one_window() {
    let _alone = one_at_a_time(); // each test needs gigabytes
    let t = Instant::now();
    let limits = limits();
    // C (m×n, on the host) is cut into render-target tiles and exceeds one window.
    let m = limits.target_side as usize * 4;
    let n = limits.window as usize / m + 1;
    assert!((m * n) as i64 > limits.window);
    let (a, b) = (signs(m, 6), signs(n, 7));
    let c0: Vec<f32> = signs(m * n, 8).iter().map(|s| 2.0 * s).collect();
    let mut c = c0.clone();
    let db = Dev::new(&b);
    let s = unsafe {
        sgemm_packed(
            (false, false),
            m,
            n,
            1,
            1.0,
            a.as_ptr(),
            db.f(),
            -1.0,
            c.as_mut_ptr(),
        )
    };
    assert_eq!(s, Status::Success);
    // Each element is one exact product minus ±2: exact.
    for j in 0..n {
        for i in 0..m {
            let want = a[i] * b[j] - c0[i + j * m];
            assert_eq!(c[i + j * m], want, "C({i},{j}) of {m}x{n}");
        }
    }
    report(&format!("sgemm {m}x{n}x1"), t);
}
