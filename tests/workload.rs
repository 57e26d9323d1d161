//! A large and varied workload, for the drivers that validate what they are sent (virgl's host
//! renderer ends the process on a command it rejects): every routine, with host and device
//! operands, positive, negative and zero increments, at sizes that take the tiled paths (this
//! process lowers the window and target limits, so operands are cut into chunks, tiles and
//! passes), from four threads at once; every result checked against its reference. The process
//! surviving is half the test; the other half is every result right.

mod common;

use std::time::Duration;

use common::*;
use glblas::api::*;
use glblas::ffi::{MemcpyKindArg, OperationArg as Op};
use glblas::status::Status;

const THREADS: usize = 4;
const CALLS: usize = 60;

/// An increment, mostly positive.
fn inc(rng: &mut Rng) -> i32 {
    [1, 1, 2, -1, -3][rng.below(5)]
}

/// A vector operand in host or device memory, and where the result can be read back.
enum Place {
    Host(Vec<f32>),
    Device(Dev),
}

impl Place {
    fn new(data: &[f32], device: bool) -> Place {
        if device {
            Place::Device(Dev::new(data))
        } else {
            Place::Host(data.to_vec())
        }
    }

    fn ptr(&mut self) -> *mut f32 {
        match self {
            Place::Host(v) => v.as_mut_ptr(),
            Place::Device(d) => d.f(),
        }
    }

    fn read(&self, len: usize) -> Vec<f32> {
        match self {
            Place::Host(v) => v.clone(),
            Place::Device(d) => d.get(len),
        }
    }
}

fn ok(s: Status, what: &str) {
    assert_eq!(s, Status::Success, "{what}");
}

fn one_call(rng: &mut Rng, seed: u64) {
    let dev = |rng: &mut Rng| rng.below(2) == 1;
    match rng.below(8) {
        // saxpy, scopy, sswap, sscal: each element one fp32 operation (or none).
        kind @ 0..=3 => {
            let n = 1 + rng.below(4000);
            let (incx, incy) = (inc(rng), inc(rng));
            let x0 = fill(span(n, incx), seed);
            let y0 = fill(span(n, incy), seed + 1);
            let (mut x, mut y) = (Place::new(&x0, dev(rng)), Place::new(&y0, dev(rng)));
            let (mut wx, mut wy) = (x0.clone(), y0.clone());
            let what = ["saxpy", "scopy", "sswap", "sscal"][kind];
            let s = unsafe {
                match kind {
                    0 => glblasSaxpy(n as i32, -0.75, x.ptr(), incx, y.ptr(), incy),
                    1 => glblasScopy(n as i32, x.ptr(), incx, y.ptr(), incy),
                    2 => glblasSswap(n as i32, x.ptr(), incx, y.ptr(), incy),
                    _ => glblasSscal(n as i32, -0.75, y.ptr(), incy.abs()),
                }
            };
            ok(s, what);
            match kind {
                0 => saxpy_ref(n, -0.75, &x0, incx, &mut wy, incy),
                1 | 2 => {
                    for i in 0..n {
                        wy[idx(i, n, incy)] = x0[idx(i, n, incx)];
                        if kind == 2 {
                            wx[idx(i, n, incx)] = y0[idx(i, n, incy)];
                        }
                    }
                }
                _ => {
                    for i in 0..n {
                        let j = idx(i, n, incy.abs());
                        wy[j] = (-0.75 * y0[j] as f64) as f32;
                    }
                }
            }
            if kind == 1 || kind == 2 {
                // Copies are exact.
                assert_eq!(y.read(y0.len()), wy, "{what}: y");
            } else {
                // |alpha x_i| <= 0.75: every x is in [-1, 1).
                let terms = saxpy_terms(-0.75, &vec![1.0; wy.len()], &y0);
                assert_saxpy(&y.read(y0.len()), &wy, &terms);
            }
            assert_eq!(x.read(x0.len()), wx, "{what}: x");
        }
        // sdot and sasum: reductions, blocked, in one or more passes.
        4 => {
            let n = 1 + rng.below(5000);
            let (incx, incy) = (inc(rng), inc(rng));
            let x0 = fill(span(n, incx), seed);
            let y0 = fill(span(n, incy), seed + 1);
            let (mut x, mut y) = (Place::new(&x0, dev(rng)), Place::new(&y0, dev(rng)));
            let mut r = 0.0f32;
            ok(
                unsafe { glblasSdot(n as i32, x.ptr(), incx, y.ptr(), incy, &mut r) },
                "sdot",
            );
            assert_sdot(r, &x0, incx, &y0, incy, n);
            let incx = incx.abs();
            ok(
                unsafe { glblasSasum(n as i32, x.ptr(), incx, &mut r) },
                "sasum",
            );
            let sum: f64 = (0..n).map(|i| (x0[idx(i, n, incx)] as f64).abs()).sum();
            let tol = (n as f64 + 1.0) * EPS * sum;
            assert!((r as f64 - sum).abs() <= tol, "sasum n={n}: {r} vs {sum}");
        }
        // sgemv, either transpose.
        5 => {
            let (m, n) = (1 + rng.below(90), 1 + rng.below(90));
            let trans = rng.below(2) == 1;
            let lda = m + rng.below(3);
            let (lenx, leny) = if trans { (m, n) } else { (n, m) };
            let (incx, incy) = (inc(rng), inc(rng));
            let a = fill(lda * n, seed);
            let x0 = fill(span(lenx, incx), seed + 1);
            let y0 = fill(span(leny, incy), seed + 2);
            let beta = [0.0, 1.0, -0.5][rng.below(3)];
            let mut ad = Place::new(&a, dev(rng));
            let (mut x, mut y) = (Place::new(&x0, dev(rng)), Place::new(&y0, dev(rng)));
            let s = unsafe {
                glblasSgemv(
                    Op(i32::from(trans)),
                    m as i32,
                    n as i32,
                    1.25,
                    ad.ptr(),
                    lda as i32,
                    x.ptr(),
                    incx,
                    beta,
                    y.ptr(),
                    incy,
                )
            };
            ok(s, "sgemv");
            let want = sgemv_ref(trans, m, n, 1.25, &a, lda, &x0, incx, beta, &y0, incy);
            assert_sgemv(&y.read(y0.len()), &y0, leny, incy, lenx, &want);
        }
        // sgemm, every transpose, with ragged tiles.
        6 => {
            let (m, n, k) = (1 + rng.below(70), 1 + rng.below(70), 1 + rng.below(70));
            let (ta, tb) = (rng.below(2) == 1, rng.below(2) == 1);
            let (ar, ac) = if ta { (k, m) } else { (m, k) };
            let (br, bc) = if tb { (n, k) } else { (k, n) };
            let (lda, ldb, ldc) = (ar + rng.below(3), br + rng.below(3), m + rng.below(3));
            let a = fill(lda * ac, seed);
            let b = fill(ldb * bc, seed + 1);
            let c0 = fill(ldc * n, seed + 2);
            let beta = [0.0, 1.0, 0.5][rng.below(3)];
            let (mut ad, mut bd) = (Place::new(&a, dev(rng)), Place::new(&b, dev(rng)));
            let mut c = Place::new(&c0, dev(rng));
            let s = unsafe {
                glblasSgemm(
                    Op(i32::from(ta)),
                    Op(i32::from(tb)),
                    m as i32,
                    n as i32,
                    k as i32,
                    -1.5,
                    ad.ptr(),
                    lda as i32,
                    bd.ptr(),
                    ldb as i32,
                    beta,
                    c.ptr(),
                    ldc as i32,
                )
            };
            ok(s, "sgemm");
            let want = sgemm_ref(ta, tb, m, n, k, -1.5, &a, lda, &b, ldb, beta, &c0, ldc);
            let got = c.read(c0.len());
            assert_sgemm(&got, ldc, m, n, k, &want);
            for j in 0..n {
                assert_eq!(
                    &got[j * ldc + m..(j + 1) * ldc],
                    &c0[j * ldc + m..(j + 1) * ldc]
                );
            }
        }
        // Device memory itself: a copy within one allocation and back to the host.
        _ => {
            let n = 1 + rng.below(10_000);
            let data = fill(2 * n, seed);
            let d = Dev::new(&data);
            let mut back = vec![0.0f32; n];
            unsafe {
                ok(
                    glblasMemcpy(d.f().add(n).cast(), d.0, 4 * n, MemcpyKindArg(3)),
                    "memcpy device to device",
                );
                ok(
                    glblasMemcpy(
                        back.as_mut_ptr().cast(),
                        d.f().add(n).cast(),
                        4 * n,
                        MemcpyKindArg(2),
                    ),
                    "memcpy device to host",
                );
            }
            assert_eq!(back, data[..n]);
        }
    }
}

#[test]
fn every_routine_on_threads_at_once_in_tiles() {
    // Before the first call: operands cut into windows of 1000 elements, targets of 16².
    std::env::set_var("GLBLAS_LIMIT_WINDOW", "1000");
    std::env::set_var("GLBLAS_LIMIT_TARGET_SIDE", "16");
    on_threads(THREADS, Duration::from_secs(900), |t| {
        let mut rng = Rng(t as u64 + 1);
        for c in 0..CALLS {
            one_call(&mut rng, (t * CALLS + c) as u64);
        }
    });
}
