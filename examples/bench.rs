//! The main job: runs saxpy, sdot, sgemv and sgemm on the GL device through the C API, with host and
//! device operands, and prints the time (median of several runs), the rate, the largest error
//! against a double-precision CPU computation, and side by side the CPU BLAS on the machine (found
//! as the drop-in symbols find it, e.g. OpenBLAS) on the same host operands, with the ratio of
//! the GL host-operand time to it.
//!
//! Usage: `cargo run --release --example bench [-- --quick]`

use std::ffi::{c_void, CStr};
use std::time::Instant;

use glblas::api::*;
use glblas::ffi::{MemcpyKindArg, OperationArg};
use glblas::status::Status;

fn check(s: Status, what: &str) {
    assert_eq!(s, Status::Success, "{what} failed");
}

/// Deterministic values in [-1, 1).
fn fill(n: usize, seed: u64) -> Vec<f32> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Median seconds of `runs` calls of `f` (after one warm-up, which compiles shaders).
fn median_time(runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(|a, b| a.total_cmp(b));
    t[runs / 2]
}

struct Device(*mut c_void);

impl Device {
    fn upload(data: &[f32]) -> Device {
        let mut p = std::ptr::null_mut();
        unsafe {
            check(glblasMalloc(&mut p, data.len() * 4), "glblasMalloc");
            check(
                glblasMemcpy(p, data.as_ptr().cast(), data.len() * 4, MemcpyKindArg(1)),
                "upload",
            );
        }
        Device(p)
    }
    fn f(&self) -> *mut f32 {
        self.0.cast()
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        glblasFree(self.0);
    }
}

fn sync() {
    check(glblasSync(), "glblasSync");
}

type Saxpy = unsafe extern "C" fn(i32, f32, *const f32, i32, *mut f32, i32);
type Sdot = unsafe extern "C" fn(i32, *const f32, i32, *const f32, i32) -> f32;
type Sgemv = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    i32,
    f32,
    *const f32,
    i32,
    *const f32,
    i32,
    f32,
    *mut f32,
    i32,
);
type Sgemm = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    i32,
    i32,
    i32,
    f32,
    *const f32,
    i32,
    *const f32,
    i32,
    f32,
    *mut f32,
    i32,
);

/// The CPU BLAS's CBLAS function `name` (a function pointer type `F`), if there is one.
fn cpu_blas<F: Copy>(name: &CStr) -> Option<F> {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<usize>());
    // SAFETY: `F` is the CBLAS signature of `name`.
    glblas::blas::cpu::resolve(name).map(|p| unsafe { std::mem::transmute_copy(&p) })
}

/// The side-by-side column: the CPU BLAS's median time and rate, and how many times longer the
/// GL host-operand call took.
fn cpu_column(gl_host: f64, cpu: Option<f64>, rate: impl Fn(f64) -> f64, unit: &str) -> String {
    match cpu {
        Some(t) => format!(
            " | cpu blas {:>8.3} ms {:>7.2} {unit} (GL host time {:.1}x)",
            t * 1e3,
            rate(t),
            gl_host / t
        ),
        None => " | no cpu blas".to_owned(),
    }
}

fn bench_saxpy(n: usize, runs: usize) {
    let x = fill(n, 1);
    let y0 = fill(n, 2);
    let mut y = y0.clone();
    let alpha = 0.75f32;
    unsafe {
        check(
            glblasSaxpy(n as i32, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1),
            "saxpy",
        )
    };
    let err = (0..n)
        .map(|i| ((alpha as f64 * x[i] as f64 + y0[i] as f64) - y[i] as f64).abs())
        .fold(0.0, f64::max);
    let host = median_time(runs, || unsafe {
        check(
            glblasSaxpy(n as i32, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1),
            "saxpy",
        );
    });
    let (dx, dy) = (Device::upload(&x), Device::upload(&y0));
    let dev = median_time(runs, || unsafe {
        check(glblasSaxpy(n as i32, alpha, dx.f(), 1, dy.f(), 1), "saxpy");
        sync();
    });
    let cpu = cpu_blas::<Saxpy>(c"cblas_saxpy").map(|f| {
        median_time(runs, || unsafe {
            f(n as i32, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1)
        })
    });
    let gbs = |t: f64| 12.0 * n as f64 / t / 1e9;
    println!(
        "saxpy  n={n:>9}  host {:>8.3} ms {:>6.2} GB/s | device {:>8.3} ms {:>6.2} GB/s | max abs err {err:.2e}{}",
        host * 1e3,
        gbs(host),
        dev * 1e3,
        gbs(dev),
        cpu_column(host, cpu, gbs, "GB/s")
    );
}

fn bench_sdot(n: usize, runs: usize) {
    let x = fill(n, 3);
    let y = fill(n, 4);
    let exact: f64 = x.iter().zip(&y).map(|(a, b)| *a as f64 * *b as f64).sum();
    let scale: f64 = x
        .iter()
        .zip(&y)
        .map(|(a, b)| (*a as f64 * *b as f64).abs())
        .sum();
    let mut r = 0.0f32;
    unsafe {
        check(
            glblasSdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1, &mut r),
            "sdot",
        )
    };
    let host = median_time(runs, || unsafe {
        check(
            glblasSdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1, &mut r),
            "sdot",
        );
    });
    let (dx, dy) = (Device::upload(&x), Device::upload(&y));
    let dev = median_time(runs, || unsafe {
        check(glblasSdot(n as i32, dx.f(), 1, dy.f(), 1, &mut r), "sdot");
    });
    let cpu = cpu_blas::<Sdot>(c"cblas_sdot").map(|f| {
        median_time(runs, || {
            std::hint::black_box(unsafe { f(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) });
        })
    });
    let gbs = |t: f64| 8.0 * n as f64 / t / 1e9;
    println!(
        "sdot   n={n:>9}  host {:>8.3} ms {:>6.2} GB/s | device {:>8.3} ms {:>6.2} GB/s | rel err {:.2e} (of sum|x*y|){}",
        host * 1e3,
        gbs(host),
        dev * 1e3,
        gbs(dev),
        (r as f64 - exact).abs() / scale,
        cpu_column(host, cpu, gbs, "GB/s")
    );
}

fn bench_sgemv(n: usize, runs: usize) {
    let a = fill(n * n, 7);
    let x = fill(n, 8);
    let mut y = vec![0.0f32; n];
    let ni = n as i32;
    let call = |a: *const f32, x: *const f32, y: *mut f32| unsafe {
        check(
            glblasSgemv(OperationArg(0), ni, ni, 1.0, a, ni, x, 1, 0.0, y, 1),
            "sgemv",
        );
    };
    call(a.as_ptr(), x.as_ptr(), y.as_mut_ptr());
    // Error relative to sum_l |a_il x_l| (the fp32 error scale).
    let err = (0..n)
        .map(|i| {
            let (s, scale) = (0..n).fold((0.0f64, 0.0f64), |(s, sc), l| {
                let p = a[i + l * n] as f64 * x[l] as f64;
                (s + p, sc + p.abs())
            });
            (s - y[i] as f64).abs() / scale
        })
        .fold(0.0, f64::max);
    let host = median_time(runs, || call(a.as_ptr(), x.as_ptr(), y.as_mut_ptr()));
    let (da, dx, dy) = (Device::upload(&a), Device::upload(&x), Device::upload(&y));
    let dev = median_time(runs, || {
        call(da.f(), dx.f(), dy.f());
        sync();
    });
    let cpu = cpu_blas::<Sgemv>(c"cblas_sgemv").map(|f| {
        median_time(runs, || unsafe {
            f(
                102,
                111,
                ni,
                ni,
                1.0,
                a.as_ptr(),
                ni,
                x.as_ptr(),
                1,
                0.0,
                y.as_mut_ptr(),
                1,
            )
        })
    });
    let gflops = |t: f64| 2.0 * (n as f64).powi(2) / t / 1e9;
    println!(
        "sgemv  n={n:>9}  host {:>8.3} ms {:>6.2} GFLOP/s | device {:>8.3} ms {:>6.2} GFLOP/s | rel err {err:.2e}{}",
        host * 1e3,
        gflops(host),
        dev * 1e3,
        gflops(dev),
        cpu_column(host, cpu, gflops, "GFLOP/s")
    );
}

fn bench_sgemm(n: usize, runs: usize) {
    let a = fill(n * n, 5);
    let b = fill(n * n, 6);
    let mut c = vec![0.0f32; n * n];
    let ni = n as i32;
    let call = |a: *const f32, b: *const f32, c: *mut f32| unsafe {
        check(
            glblasSgemm(
                OperationArg(0),
                OperationArg(0),
                ni,
                ni,
                ni,
                1.0,
                a,
                ni,
                b,
                ni,
                0.0,
                c,
                ni,
            ),
            "sgemm",
        );
    };
    call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    // Error on a sample of columns, relative to sum_l |a_il b_lj| (the fp32 error scale).
    let mut err = 0.0f64;
    for j in (0..n).step_by((n / 8).max(1)) {
        for i in 0..n {
            let (mut s, mut scale) = (0.0f64, 0.0f64);
            for l in 0..n {
                let p = a[i + l * n] as f64 * b[l + j * n] as f64;
                s += p;
                scale += p.abs();
            }
            err = err.max((s - c[i + j * n] as f64).abs() / scale);
        }
    }
    let host = median_time(runs, || call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr()));
    let (da, db, dc) = (Device::upload(&a), Device::upload(&b), Device::upload(&c));
    let dev = median_time(runs, || {
        call(da.f(), db.f(), dc.f());
        sync();
    });
    let cpu = cpu_blas::<Sgemm>(c"cblas_sgemm").map(|f| {
        median_time(runs, || unsafe {
            f(
                102,
                111,
                111,
                ni,
                ni,
                ni,
                1.0,
                a.as_ptr(),
                ni,
                b.as_ptr(),
                ni,
                0.0,
                c.as_mut_ptr(),
                ni,
            )
        })
    });
    let gflops = |t: f64| 2.0 * (n as f64).powi(3) / t / 1e9;
    println!(
        "sgemm  n={n:>9}  host {:>8.3} ms {:>6.2} GFLOP/s | device {:>8.3} ms {:>6.2} GFLOP/s | rel err {err:.2e}{}",
        host * 1e3,
        gflops(host),
        dev * 1e3,
        gflops(dev),
        cpu_column(host, cpu, gflops, "GFLOP/s")
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let status = glblasInit();
    if status != Status::Success {
        let why =
            unsafe { CStr::from_ptr(glblasGetStatusString(glblas::ffi::StatusArg(status as i32))) };
        eprintln!("glblas: no GL device: {}", why.to_string_lossy());
        std::process::exit(1);
    }
    let name = unsafe { CStr::from_ptr(glblasGetDeviceName()) };
    println!("device: {}", name.to_string_lossy());
    if let Some(info) = glblas::engine::device_info() {
        println!(
            "context: {} via {} ({}), compute shaders {}, buffer textures of {} texels",
            info.version,
            info.platform,
            if info.pbuffer {
                "pbuffer"
            } else {
                "surfaceless"
            },
            if info.compute_shaders { "yes" } else { "no" },
            info.max_texture_buffer_size
        );
    }
    let runs = 5;
    let vec_sizes: &[usize] = if quick {
        &[1 << 16]
    } else {
        &[1 << 16, 1 << 20, 1 << 24]
    };
    let gemm_sizes: &[usize] = if quick {
        &[128]
    } else {
        &[128, 256, 512, 1024]
    };
    for &n in vec_sizes {
        bench_saxpy(n, runs);
    }
    for &n in vec_sizes {
        bench_sdot(n, runs);
    }
    for &n in if quick { &[256][..] } else { &[1024, 4096][..] } {
        bench_sgemv(n, runs);
    }
    for &n in gemm_sizes {
        bench_sgemm(n, runs);
    }
    check(glblasShutdown(), "glblasShutdown");
}
