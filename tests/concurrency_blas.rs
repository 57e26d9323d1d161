//! Many threads through the BLAS-compatible symbols with `GLBLAS_BACKEND=auto`: 8 threads × 500
//! mixed cblas calls on host operands (answered by the CPU BLAS on llvmpipe, or by GL where
//! auto picks it) and on device operands (always GL), every result checked, within a deadline.
//! One test: the environment is read once per process.

mod common;

use std::time::Duration;

use common::*;
use glblas::blas::cblas::*;

const THREADS: usize = 8;
const CALLS: usize = 500;

fn one_call(i: usize, seed: u64) {
    let device = i % 2 == 1;
    match (i / 2) % 3 {
        0 => {
            let n = 1 + (seed as usize * 7919) % 3000;
            let x = fill(n, seed);
            let y0 = fill(n, seed + 1);
            let mut want = y0.clone();
            saxpy_ref(n, -0.5, &x, 1, &mut want, 1);
            let got = if device {
                let (dx, dy) = (Dev::new(&x), Dev::new(&y0));
                unsafe { cblas_saxpy(n as i32, -0.5, dx.f(), 1, dy.f(), 1) };
                dy.get(n)
            } else {
                let mut y = y0.clone();
                unsafe { cblas_saxpy(n as i32, -0.5, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
                y
            };
            let terms: Vec<f64> = x
                .iter()
                .zip(&y0)
                .map(|(a, b)| (0.5 * a.abs() + b.abs()) as f64)
                .collect();
            assert_saxpy(&got, &want, &terms);
        }
        1 => {
            let n = 1 + (seed as usize * 104729) % 5000;
            let x = fill(n, seed);
            let y = fill(n, seed + 1);
            let r = if device {
                let (dx, dy) = (Dev::new(&x), Dev::new(&y));
                unsafe { cblas_sdot(n as i32, dx.f(), 1, dy.f(), 1) }
            } else {
                unsafe { cblas_sdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) }
            };
            assert_sdot(r, &x, 1, &y, 1, n);
        }
        _ => {
            let m = 1 + (seed as usize * 31) % 48;
            let k = 1 + (seed as usize * 17) % 48;
            let a = fill(m * k, seed);
            let b = fill(k * m, seed + 1);
            let c = fill(m * m, seed + 2);
            let want = sgemm_ref(false, false, m, m, k, 1.0, &a, m, &b, k, 0.5, &c, m);
            let got = if device {
                let (da, db, dc) = (Dev::new(&a), Dev::new(&b), Dev::new(&c));
                unsafe { cblas_sgemm_packed(m, m, k, 1.0, da.f(), db.f(), 0.5, dc.f()) };
                dc.get(m * m)
            } else {
                let mut c = c.clone();
                unsafe {
                    cblas_sgemm_packed(m, m, k, 1.0, a.as_ptr(), b.as_ptr(), 0.5, c.as_mut_ptr())
                };
                c
            };
            assert_sgemm(&got, m, m, m, k, &want);
        }
    }
}

#[test]
fn eight_threads_of_mixed_cblas_calls_with_the_auto_backend() {
    std::env::set_var("GLBLAS_BACKEND", "auto");
    let trace = trace_to_file("concurrency");
    on_threads(THREADS, Duration::from_secs(600), |t| {
        for c in 0..CALLS {
            one_call(t + c, (t * CALLS + c) as u64);
        }
    });
    // One trace line per call; device operands went to GL, and host ones (small, on a software
    // renderer) to the CPU BLAS.
    let (lines, text) = take_trace(&trace);
    assert_eq!(
        lines.len(),
        THREADS * CALLS,
        "{}",
        &text[..text.len().min(2000)]
    );
    let on_gl = lines
        .iter()
        .filter(|l| route_of(l).starts_with("gl"))
        .count();
    assert_eq!(on_gl, THREADS * CALLS / 2, "device-operand calls on GL");
}
