//! The main job: saxpy, sdot, sgemv and sgemm on the GL device through the C API. For each case
//! it prints the median time (after a warm-up) with device-resident operands (the kernels, plus a
//! sync) and with host operands (transfers included), the rates, the largest error relative to
//! the fp32 error scale of a double-precision CPU computation, and, side by side, the CPU BLAS on
//! the machine (found as the drop-in symbols find it, e.g. OpenBLAS) on the same host operands,
//! with the ratio of the GL host time to it. `--json` prints the same as JSON; `--quick` runs
//! small sizes only.
//!
//! Usage: `cargo run --release --example bench [-- --quick] [-- --json]`

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

/// One case's figures.
struct Row {
    routine: &'static str,
    shape: String,
    pipeline: &'static str,
    /// Flops (or bytes) per call: rates are `work / time`.
    work: f64,
    unit: &'static str,
    /// Median seconds per call.
    device: f64,
    host: f64,
    cpu: Option<f64>,
    /// Largest error relative to the fp32 error scale of each result.
    err: f64,
}

impl Row {
    fn rate(&self, t: f64) -> f64 {
        self.work / t / 1e9
    }

    fn print(&self) {
        let cpu = match self.cpu {
            Some(t) => format!(
                "{:>9.3} {:>8.2} {:>7.1}x",
                t * 1e3,
                self.rate(t),
                self.host / t
            ),
            None => format!("{:>27}", "no cpu blas"),
        };
        println!(
            "{:<6} {:<22} {:<8} {:>9.3} {:>8.2} {:>9.3} {:>8.2} {cpu} {:>9.1e}  {}",
            self.routine,
            self.shape,
            self.pipeline,
            self.device * 1e3,
            self.rate(self.device),
            self.host * 1e3,
            self.rate(self.host),
            self.err,
            self.unit
        );
    }

    fn json(&self) -> String {
        let cpu = self.cpu.map_or("null".to_owned(), |t| format!("{t:e}"));
        format!(
            "{{\"routine\":\"{}\",\"shape\":\"{}\",\"pipeline\":\"{}\",\"unit\":\"{}\",\
             \"device_s\":{:e},\"host_s\":{:e},\"cpu_s\":{cpu},\"device_rate\":{},\
             \"host_rate\":{},\"max_rel_err\":{:e}}}",
            self.routine,
            self.shape,
            self.pipeline,
            self.unit,
            self.device,
            self.host,
            self.rate(self.device),
            self.rate(self.host),
            self.err
        )
    }
}

fn bench_saxpy(n: usize, runs: usize) -> Row {
    let x = fill(n, 1);
    let y0 = fill(n, 2);
    let mut y = y0.clone();
    let alpha = 0.75f32;
    let call = |x: *const f32, y: *mut f32| unsafe {
        check(glblasSaxpy(n as i32, alpha, x, 1, y, 1), "saxpy");
    };
    call(x.as_ptr(), y.as_mut_ptr());
    let err = (0..n)
        .map(|i| {
            let exact = alpha as f64 * x[i] as f64 + y0[i] as f64;
            let scale = (alpha as f64 * x[i] as f64).abs() + (y0[i] as f64).abs();
            (exact - y[i] as f64).abs() / scale.max(f64::MIN_POSITIVE)
        })
        .fold(0.0, f64::max);
    let host = median_time(runs, || call(x.as_ptr(), y.as_mut_ptr()));
    let (dx, dy) = (Device::upload(&x), Device::upload(&y0));
    let device = median_time(runs, || {
        call(dx.f(), dy.f());
        sync();
    });
    let cpu = cpu_blas::<Saxpy>(c"cblas_saxpy").map(|f| {
        median_time(runs, || unsafe {
            f(n as i32, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1)
        })
    });
    Row {
        routine: "saxpy",
        shape: format!("n={n}"),
        pipeline: pipeline(),
        work: 12.0 * n as f64,
        unit: "GB/s",
        device,
        host,
        cpu,
        err,
    }
}

fn bench_sdot(n: usize, runs: usize) -> Row {
    let x = fill(n, 3);
    let y = fill(n, 4);
    let (exact, scale) = x.iter().zip(&y).fold((0.0f64, 0.0f64), |(s, a), (p, q)| {
        let t = *p as f64 * *q as f64;
        (s + t, a + t.abs())
    });
    let mut r = 0.0f32;
    let mut call = |x: *const f32, y: *const f32| unsafe {
        check(glblasSdot(n as i32, x, 1, y, 1, &mut r), "sdot");
    };
    call(x.as_ptr(), y.as_ptr());
    let host = median_time(runs, || call(x.as_ptr(), y.as_ptr()));
    let (dx, dy) = (Device::upload(&x), Device::upload(&y));
    let device = median_time(runs, || call(dx.f(), dy.f()));
    let err = (r as f64 - exact).abs() / scale;
    let cpu = cpu_blas::<Sdot>(c"cblas_sdot").map(|f| {
        median_time(runs, || {
            std::hint::black_box(unsafe { f(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) });
        })
    });
    Row {
        routine: "sdot",
        shape: format!("n={n}"),
        pipeline: pipeline(),
        work: 8.0 * n as f64,
        unit: "GB/s",
        device,
        host,
        cpu,
        err,
    }
}

fn bench_sgemv(n: usize, runs: usize) -> Row {
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
    let device = median_time(runs, || {
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
    Row {
        routine: "sgemv",
        shape: format!("{n}x{n} N"),
        pipeline: pipeline(),
        work: 2.0 * (n * n) as f64,
        unit: "GFLOP/s",
        device,
        host,
        cpu,
        err,
    }
}

/// sgemm of op(A) (m×k) by op(B) (k×n); `ta`/`tb` transpose the stored operands.
fn bench_sgemm(
    m: usize,
    n: usize,
    k: usize,
    ta: bool,
    tb: bool,
    runs: usize,
    pipeline: &'static str,
) -> Row {
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    let a = fill(ar * ac, 5);
    let b = fill(br * bc, 6);
    let mut c = vec![0.0f32; m * n];
    let (mi, ni, ki) = (m as i32, n as i32, k as i32);
    let op = |t: bool| OperationArg(i32::from(t));
    let call = |a: *const f32, b: *const f32, c: *mut f32| unsafe {
        check(
            glblasSgemm(
                op(ta),
                op(tb),
                mi,
                ni,
                ki,
                1.0,
                a,
                ar as i32,
                b,
                br as i32,
                0.0,
                c,
                mi,
            ),
            "sgemm",
        );
    };
    call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    // Error on a sample of columns, relative to sum_l |a_il b_lj| (the fp32 error scale).
    let at = |i: usize, l: usize| if ta { a[l + i * ar] } else { a[i + l * ar] } as f64;
    let bt = |l: usize, j: usize| if tb { b[j + l * br] } else { b[l + j * br] } as f64;
    let mut err = 0.0f64;
    for j in (0..n).step_by((n / 8).max(1)) {
        for i in 0..m {
            let (s, scale) = (0..k).fold((0.0f64, 0.0f64), |(s, sc), l| {
                let p = at(i, l) * bt(l, j);
                (s + p, sc + p.abs())
            });
            err = err.max((s - c[i + j * m] as f64).abs() / scale.max(f64::MIN_POSITIVE));
        }
    }
    let host = median_time(runs, || call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr()));
    let (da, db, dc) = (Device::upload(&a), Device::upload(&b), Device::upload(&c));
    let device = median_time(runs, || {
        call(da.f(), db.f(), dc.f());
        sync();
    });
    let cblas_op = |t: bool| if t { 112 } else { 111 };
    let cpu = cpu_blas::<Sgemm>(c"cblas_sgemm").map(|f| {
        median_time(runs, || unsafe {
            f(
                102,
                cblas_op(ta),
                cblas_op(tb),
                mi,
                ni,
                ki,
                1.0,
                a.as_ptr(),
                ar as i32,
                b.as_ptr(),
                br as i32,
                0.0,
                c.as_mut_ptr(),
                mi,
            )
        })
    });
    let t = |t: bool| if t { 'T' } else { 'N' };
    Row {
        routine: "sgemm",
        shape: format!("{m}x{n}x{k} {}{}", t(ta), t(tb)),
        pipeline,
        work: 2.0 * (m * n * k) as f64,
        unit: "GFLOP/s",
        device,
        host,
        cpu,
        err,
    }
}

/// The pipeline the kernels take here (see `glblas::kernels::pipeline`).
static PIPELINE: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();

fn pipeline() -> &'static str {
    PIPELINE.get().copied().unwrap_or("fragment")
}

/// The tiny-call overhead: saxpy of 4 elements, reported in microseconds per call.
fn bench_tiny(runs: usize) -> Row {
    let mut row = bench_saxpy(4, runs);
    row.shape = "n=4 (per call)".to_owned();
    // Rates of 1e3/us: the columns read as microseconds per call.
    row.work = 1e3 * 1e9 / 1e6;
    row.unit = "calls/ms";
    row
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let json = args.iter().any(|a| a == "--json");
    let status = glblasInit();
    if status != Status::Success {
        let why =
            unsafe { CStr::from_ptr(glblasGetStatusString(glblas::ffi::StatusArg(status as i32))) };
        eprintln!("glblas: no GL device: {}", why.to_string_lossy());
        std::process::exit(1);
    }
    let name = unsafe { CStr::from_ptr(glblasGetDeviceName()) }
        .to_string_lossy()
        .into_owned();
    let info = glblas::engine::device_info();
    let context = info.as_ref().map_or(String::new(), |info| {
        format!(
            "{} via {} ({}), compute shaders {}, buffer textures of {} texels",
            info.version,
            info.platform,
            if info.pbuffer {
                "pbuffer"
            } else {
                "surfaceless"
            },
            if info.compute_shaders { "yes" } else { "no" },
            info.max_texture_buffer_size
        )
    });
    PIPELINE
        .set(glblas::kernels::pipeline().unwrap_or("fragment"))
        .expect("set once");
    let runs = 5;
    let mut rows = Vec::new();
    let vec_sizes: &[usize] = if quick {
        &[1 << 10, 1 << 16]
    } else {
        &[1 << 10, 1 << 20, 1 << 24]
    };
    for &n in vec_sizes {
        rows.push(bench_saxpy(n, runs));
    }
    for &n in vec_sizes {
        rows.push(bench_sdot(n, runs));
    }
    rows.push(bench_tiny(21));
    for &n in if quick { &[256][..] } else { &[1024, 4096][..] } {
        rows.push(bench_sgemv(n, runs));
    }
    let square: &[usize] = if quick {
        &[64, 128]
    } else {
        &[64, 256, 512, 1024, 2048]
    };
    for &n in square {
        let runs = if n >= 2048 { 3 } else { runs };
        rows.push(bench_sgemm(n, n, n, false, false, runs, pipeline()));
    }
    let transposed: &[usize] = if quick { &[128] } else { &[1024, 2048] };
    for &t in transposed {
        let runs = if t >= 2048 { 3 } else { runs };
        rows.push(bench_sgemm(t, t, t, false, true, runs, pipeline()));
        rows.push(bench_sgemm(t, t, t, true, false, runs, pipeline()));
    }
    if !quick {
        rows.push(bench_sgemm(1000, 3000, 500, false, false, 3, pipeline()));
    }
    check(glblasShutdown(), "glblasShutdown");
    if json {
        let cases: Vec<String> = rows.iter().map(Row::json).collect();
        println!(
            "{{\"device\":\"{}\",\"context\":\"{}\",\"cases\":[{}]}}",
            name.replace('"', "'"),
            context.replace('"', "'"),
            cases.join(",")
        );
        return;
    }
    println!("device: {name}");
    println!("context: {context}");
    println!(
        "{:<6} {:<22} {:<8} {:>9} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>9}  unit",
        "",
        "case",
        "pipeline",
        "device ms",
        "rate",
        "host ms",
        "rate",
        "cpu ms",
        "rate",
        "GL/cpu",
        "rel err"
    );
    for r in &rows {
        r.print();
    }
}
