//! The main job: saxpy, sdot, snrm2 and isamax (`reductions.rs`), sgemv and sgemm, dgemm, cgemm,
//! zgemm, ctrsm and zherk (`complex.rs`), and the Level 3 routines (`level3.rs`) on the GL
//! device through the C API. For each case
//! it prints the median time (after a warm-up) with device-resident operands (the kernels, plus a
//! wait for their result), the device's time in those kernels (GL timer queries, where the
//! device has them), and with host operands (transfers included), the rates, the largest
//! error relative to the fp32 error scale of a double-precision CPU computation, and, side by
//! side, the CPU BLAS on the machine (found as the drop-in symbols find it, e.g. OpenBLAS) on the
//! same host operands, with the ratio of the GL host time to it. `--json` prints the same as
//! JSON; `--quick` runs small sizes only.
//!
//! Both the host-operand result and the device-resident result of every case are checked against
//! the double-precision reference, within the fp32 error bound of the routine. A case whose
//! result is wrong, whose timed calls did not wait for their result, or whose glblas call returns
//! an error prints as an error line with no rate, and the process exits with status 1 after
//! printing everything. The first line names the driver configuration (`GLBLAS_DRIVER`, which
//! `scripts/drivers.sh` exports; `default` when unset).
//!
//! Usage: `cargo run --release --example bench [-- --quick] [-- --json] [-- --only NAMES]`;
//! `--only sgemm,strsm` runs the cases of those routines only.

use std::ffi::{c_void, CStr};
use std::time::Instant;

use glblas::api::*;
use glblas::ffi::{DiagArg, FillArg, MemcpyKindArg, OperationArg, SideArg};
use glblas::status::Status;

mod complex;
mod level3;
mod reductions;

/// The unit roundoff of fp32, 2^-24: the error bounds below are multiples of it.
const U: f64 = 1.0 / (1u64 << 24) as f64;

/// A case's outcome: an error is the message its line prints instead of figures.
type Res<T> = Result<T, String>;

fn check(s: Status, what: &str) -> Res<()> {
    if s == Status::Success {
        Ok(())
    } else {
        Err(format!("{what} returned {s:?}"))
    }
}

/// `check` for a BLAS call, naming where its operands live (`on`: "host" or "device").
fn check_call(s: Status, routine: &str, on: &str) -> Res<()> {
    if s == Status::Success {
        Ok(())
    } else {
        Err(format!("{routine} on {on} operands returned {s:?}"))
    }
}

/// The larger of two errors, NaN winning (`f64::max` would drop a NaN error).
fn worse(a: f64, b: f64) -> f64 {
    if a.is_nan() || a >= b {
        a
    } else {
        b
    }
}

/// `err` if it is within `bound` (a NaN error is not), else the message of a wrong `which`
/// ("host" or "device") result.
fn within(which: &str, err: f64, bound: f64) -> Res<f64> {
    if err <= bound {
        Ok(err)
    } else {
        Err(format!(
            "{which} result wrong (rel err {err:.1e} > bound {bound:.1e})"
        ))
    }
}

/// Checks that every element of an output was written: outputs start as NaN, which the
/// sampled error checks of sgemm would not all see.
fn all_written<T: Elem>(which: &str, out: &[T]) -> Res<()> {
    match out.iter().position(|v| !v.f().is_finite()) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{which} result wrong (element {i} of {} is {:?})",
            out.len(),
            out[i]
        )),
    }
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

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(|a, b| a.total_cmp(b));
    t[t.len() / 2]
}

/// Median seconds of `runs` calls of `f` (after one warm-up, which compiles shaders).
fn median_time(runs: usize, mut f: impl FnMut() -> Res<()>) -> Res<f64> {
    f()?;
    let mut t = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = Instant::now();
        f()?;
        t.push(s.elapsed().as_secs_f64());
    }
    Ok(median(t))
}

/// A device-resident case's median seconds per call: the wall time of the call and its wait
/// (`device_time`), and the device's time in its kernels, from GL timer queries (`None` where
/// the device has none).
struct Timed {
    device: f64,
    kernel: Option<f64>,
}

/// Median seconds of `runs` device-resident calls (after one warm-up), and for each call (the
/// warm-up included) the output element it read at the end of its timed region.
///
/// Each repetition first runs `reset` untimed (it puts the output back to its starting value:
/// NaN, or y's starting value for saxpy, then syncs), then times `timed`: the call, glblasSync
/// (glFinish), and a device-to-host read of one element of the output, returned. glFinish alone
/// is what a device timing has to rely on, but a read back of the output cannot return before
/// the writes to it are complete, whatever an asynchronous driver (zink) does with glFinish, so
/// the timer cannot stop before the result exists. One read per call, rather than one after N
/// calls, keeps the per-call median the table has always reported; one element costs little next
/// to a call. The caller compares each read element with the final result (`finished`): a
/// repetition that read the reset value had not finished when its timer stopped.
///
/// Where the device has timer queries, the kernels of each timed call are timed on the device
/// too (`glblasTimeKernels`, on for these calls only).
fn device_time<T>(
    runs: usize,
    mut reset: impl FnMut() -> Res<()>,
    mut timed: impl FnMut() -> Res<T>,
) -> Res<(Timed, Vec<T>)> {
    let timer = glblasTimeKernels(1) == Status::Success;
    let mut repeat = || {
        let (mut t, mut k) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
        let mut read = Vec::with_capacity(runs + 1);
        for i in 0..=runs {
            reset()?;
            if timer {
                kernel_time()?;
            }
            let s = Instant::now();
            read.push(timed()?);
            if i > 0 {
                t.push(s.elapsed().as_secs_f64());
                if timer {
                    k.push(kernel_time()?);
                }
            }
        }
        let kernel = timer.then(|| median(k));
        Ok((
            Timed {
                device: median(t),
                kernel,
            },
            read,
        ))
    };
    let result = repeat();
    if timer {
        check(glblasTimeKernels(0), "glblasTimeKernels")?;
    }
    result
}

/// The device's seconds in the kernels launched since the last read (`glblasGetKernelTime`).
fn kernel_time() -> Res<f64> {
    let mut seconds = 0.0;
    check(
        unsafe { glblasGetKernelTime(&mut seconds, std::ptr::null_mut()) },
        "glblasGetKernelTime",
    )?;
    Ok(seconds)
}

/// Checks that every element read at the end of a timed region (call 0 is the warm-up) is the
/// final result's: glblas gives bit-identical results for the same call on one device.
fn finished<T: Elem>(read: &[T], last: T) -> Res<()> {
    match read
        .iter()
        .position(|v| v.f().to_bits() != last.f().to_bits())
    {
        None => Ok(()),
        Some(i) => Err(format!(
            "device result unfinished when the timer of call {i} of {} stopped (read {:?}, \
             final {last:?})",
            read.len(),
            read[i]
        )),
    }
}

/// An element type of the operands: f32 or f64.
trait Elem: Copy + PartialEq + std::fmt::Debug + 'static {
    const SIZE: usize;
    /// The unit roundoff: error bounds are multiples of it.
    const U: f64;
    const NAN: Self;
    fn f(self) -> f64;
    fn of(v: f64) -> Self;
}

impl Elem for f32 {
    const SIZE: usize = 4;
    const U: f64 = U;
    const NAN: f32 = f32::NAN;
    fn f(self) -> f64 {
        self as f64
    }
    fn of(v: f64) -> f32 {
        v as f32
    }
}

impl Elem for f64 {
    const SIZE: usize = 8;
    const U: f64 = f64::EPSILON / 2.0;
    const NAN: f64 = f64::NAN;
    fn f(self) -> f64 {
        self
    }
    fn of(v: f64) -> f64 {
        v
    }
}

/// A device allocation of `len` elements.
struct Device<T: Elem = f32> {
    p: *mut c_void,
    len: usize,
    _of: std::marker::PhantomData<T>,
}

impl<T: Elem> Device<T> {
    fn alloc(len: usize) -> Res<Device<T>> {
        let mut p = std::ptr::null_mut();
        check(
            unsafe { glblasMalloc(&mut p, len * T::SIZE) },
            "glblasMalloc",
        )?;
        Ok(Device {
            p,
            len,
            _of: std::marker::PhantomData,
        })
    }

    fn upload(data: &[T]) -> Res<Device<T>> {
        let d = Device::alloc(data.len())?;
        check(
            unsafe {
                glblasMemcpy(
                    d.p,
                    data.as_ptr().cast(),
                    data.len() * T::SIZE,
                    MemcpyKindArg(1),
                )
            },
            "glblasMemcpy host to device",
        )?;
        Ok(d)
    }

    fn f(&self) -> *mut T {
        self.p.cast()
    }

    fn download(&self) -> Res<Vec<T>> {
        let mut out = vec![T::NAN; self.len];
        check(
            unsafe {
                glblasMemcpy(
                    out.as_mut_ptr().cast(),
                    self.p,
                    self.len * T::SIZE,
                    MemcpyKindArg(2),
                )
            },
            "glblasMemcpy device to host",
        )?;
        Ok(out)
    }

    /// The last element (the last written, where a call is split into launches).
    fn last(&self) -> Res<T> {
        let mut v = T::NAN;
        check(
            unsafe {
                glblasMemcpy(
                    (&mut v as *mut T).cast(),
                    self.f().add(self.len - 1).cast(),
                    T::SIZE,
                    MemcpyKindArg(2),
                )
            },
            "glblasMemcpy device to host",
        )?;
        Ok(v)
    }

    /// Overwrites this allocation with `src` (of the same length) and waits for the copy.
    fn reset_from(&self, src: &Device<T>) -> Res<()> {
        check(
            unsafe { glblasMemcpy(self.p, src.p, self.len * T::SIZE, MemcpyKindArg(3)) },
            "glblasMemcpy device to device",
        )?;
        sync()
    }
}

impl<T: Elem> Drop for Device<T> {
    fn drop(&mut self) {
        glblasFree(self.p);
    }
}

fn sync() -> Res<()> {
    check(glblasSync(), "glblasSync")
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

/// Median seconds of `runs` calls of the CPU BLAS's function `f` (`None` where the machine has
/// none, as `cpu_blas` finds it), `call` making one call of it.
fn cpu_time<F>(f: Option<F>, runs: usize, mut call: impl FnMut(&F)) -> Res<Option<f64>> {
    f.map(|f| {
        median_time(runs, || {
            call(&f);
            Ok(())
        })
    })
    .transpose()
}

/// A case that passed its checks.
struct Figures {
    /// Median seconds per call: device-resident operands, the device's time in their kernels
    /// (where it has timer queries), host operands, the CPU BLAS.
    device: f64,
    kernel: Option<f64>,
    host: f64,
    cpu: Option<f64>,
    /// Largest error relative to the fp32 error scale, of the host and device results.
    err: f64,
    /// The error bound both results were checked against.
    bound: f64,
}

/// One case's figures, or why it has none.
struct Row {
    routine: &'static str,
    shape: String,
    pipeline: &'static str,
    /// Flops (or bytes) per call: rates are `work / time`.
    work: f64,
    unit: &'static str,
    figures: Res<Figures>,
}

/// The text of `s` as a JSON string.
fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Row {
    fn rate(&self, t: f64) -> f64 {
        self.work / t / 1e9
    }

    fn ok(&self) -> bool {
        self.figures.is_ok()
    }

    fn print(&self) {
        let f = match &self.figures {
            Ok(f) => f,
            Err(e) => {
                println!(
                    "{:<6} {:<22} {:<8} ERROR: {e}",
                    self.routine, self.shape, self.pipeline
                );
                return;
            }
        };
        let cpu = match f.cpu {
            Some(t) => format!(
                "{:>9.3} {:>8.2} {:>7.1}x",
                t * 1e3,
                self.rate(t),
                f.host / t
            ),
            None => format!("{:>27}", "no cpu blas"),
        };
        let kernel = match f.kernel {
            Some(t) => format!("{:>9.3} {:>8.2}", t * 1e3, self.rate(t)),
            None => format!("{:>18}", "-"),
        };
        println!(
            "{:<6} {:<22} {:<8} {:>9.3} {:>8.2} {kernel} {:>9.3} {:>8.2} {cpu} {:>9.1e}  {}",
            self.routine,
            self.shape,
            self.pipeline,
            f.device * 1e3,
            self.rate(f.device),
            f.host * 1e3,
            self.rate(f.host),
            f.err,
            self.unit
        );
    }

    /// Times, rates and errors are null when the case failed (`"ok":false`, with `"error"`).
    fn json(&self) -> String {
        let head = format!(
            "\"routine\":{},\"shape\":{},\"pipeline\":{},\"unit\":{}",
            json_str(self.routine),
            json_str(&self.shape),
            json_str(self.pipeline),
            json_str(self.unit)
        );
        match &self.figures {
            Ok(f) => {
                let cpu = f.cpu.map_or("null".to_owned(), |t| format!("{t:e}"));
                let kernel = f.kernel.map_or("null".to_owned(), |t| format!("{t:e}"));
                format!(
                    "{{{head},\"ok\":true,\"device_s\":{:e},\"kernel_s\":{kernel},\"host_s\":{:e},\
                     \"cpu_s\":{cpu},\"device_rate\":{},\"host_rate\":{},\"max_rel_err\":{:e},\
                     \"err_bound\":{:e}}}",
                    f.device,
                    f.host,
                    self.rate(f.device),
                    self.rate(f.host),
                    f.err,
                    f.bound
                )
            }
            Err(e) => format!(
                "{{{head},\"ok\":false,\"error\":{},\"device_s\":null,\"kernel_s\":null,\
                 \"host_s\":null,\"cpu_s\":null,\"device_rate\":null,\"host_rate\":null,\"max_rel_err\":null,\
                 \"err_bound\":null}}",
                json_str(e)
            ),
        }
    }
}

fn bench_saxpy(n: usize, runs: usize) -> Row {
    Row {
        routine: "saxpy",
        shape: format!("n={n}"),
        pipeline: pipeline(),
        work: 12.0 * n as f64,
        unit: "GB/s",
        figures: saxpy(n, runs),
    }
}

fn saxpy(n: usize, runs: usize) -> Res<Figures> {
    let x = fill(n, 1);
    let y0 = fill(n, 2);
    let alpha = 0.75f32;
    // fl(fl(alpha x) + y) is within u|alpha x| + u|alpha x + y| + u²|alpha x| of alpha x + y:
    // 2u of the scale |alpha x| + |y| (the u² term is kept).
    let bound = (2.0 + U) * U;
    let err_of = |y: &[f32]| {
        (0..n)
            .map(|i| {
                let exact = alpha as f64 * x[i] as f64 + y0[i] as f64;
                let scale = (alpha as f64 * x[i] as f64).abs() + (y0[i] as f64).abs();
                (exact - y[i] as f64).abs() / scale.max(f64::MIN_POSITIVE)
            })
            .fold(0.0, worse)
    };
    let call = |x: *const f32, y: *mut f32, on: &str| unsafe {
        check_call(glblasSaxpy(n as i32, alpha, x, 1, y, 1), "glblasSaxpy", on)
    };
    let mut y = y0.clone();
    call(x.as_ptr(), y.as_mut_ptr(), "host")?;
    let host_err = within("host", err_of(&y), bound)?;
    // y accumulates over the timed calls here; only the first call's result is checked.
    let host = median_time(runs, || call(x.as_ptr(), y.as_mut_ptr(), "host"))?;
    // Each device call starts from y0, copied from a pristine device copy outside the timing,
    // so the final result is one saxpy's.
    let (dx, dy0, dy) = (Device::upload(&x)?, Device::upload(&y0)?, Device::alloc(n)?);
    let (timed, read) = device_time(
        runs,
        || dy.reset_from(&dy0),
        || {
            call(dx.f(), dy.f(), "device")?;
            sync()?;
            dy.last()
        },
    )?;
    let out = dy.download()?;
    let device_err = within("device", err_of(&out), bound)?;
    finished(&read, out[n - 1])?;
    let cpu = cpu_time(cpu_blas::<Saxpy>(c"cblas_saxpy"), runs, |f| {
        unsafe { f(n as i32, alpha, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    })?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound,
    })
}

fn bench_sdot(n: usize, runs: usize) -> Row {
    Row {
        routine: "sdot",
        shape: format!("n={n}"),
        pipeline: pipeline(),
        work: 8.0 * n as f64,
        unit: "GB/s",
        figures: sdot(n, runs),
    }
}

fn sdot(n: usize, runs: usize) -> Res<Figures> {
    let x = fill(n, 3);
    let y = fill(n, 4);
    let (exact, scale) = x.iter().zip(&y).fold((0.0f64, 0.0f64), |(s, a), (p, q)| {
        let t = *p as f64 * *q as f64;
        (s + t, a + t.abs())
    });
    // A sum of n products, in any order: within (n+1)u of sum |x_i y_i| (docs/api.md, Accuracy).
    let bound = (n + 1) as f64 * U;
    let err_of = |r: f32| (r as f64 - exact).abs() / scale;
    let call = |x: *const f32, y: *const f32, r: &mut f32, on: &str| unsafe {
        check_call(glblasSdot(n as i32, x, 1, y, 1, r), "glblasSdot", on)
    };
    let mut r = f32::NAN;
    call(x.as_ptr(), y.as_ptr(), &mut r, "host")?;
    let host_err = within("host", err_of(r), bound)?;
    let host = median_time(runs, || call(x.as_ptr(), y.as_ptr(), &mut r, "host"))?;
    let (dx, dy) = (Device::upload(&x)?, Device::upload(&y)?);
    // The result goes to host memory: the call returns only once it is there (a read back of
    // the device's result, so a wait for it). The sync is there to end every device timing the
    // same way; r starts as NaN so a call that stored nothing is seen.
    let mut rd = f32::NAN;
    let (timed, read) = device_time(
        runs,
        || Ok(()),
        || {
            rd = f32::NAN;
            call(dx.f(), dy.f(), &mut rd, "device")?;
            sync()?;
            Ok(rd)
        },
    )?;
    let device_err = within("device", err_of(rd), bound)?;
    finished(&read, rd)?;
    let cpu = cpu_time(cpu_blas::<Sdot>(c"cblas_sdot"), runs, |f| {
        std::hint::black_box(unsafe { f(n as i32, x.as_ptr(), 1, y.as_ptr(), 1) });
    })?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound,
    })
}

fn bench_sgemv(n: usize, runs: usize) -> Row {
    Row {
        routine: "sgemv",
        shape: format!("{n}x{n} N"),
        pipeline: pipeline(),
        work: 2.0 * (n * n) as f64,
        unit: "GFLOP/s",
        figures: sgemv(n, runs),
    }
}

fn sgemv(n: usize, runs: usize) -> Res<Figures> {
    let a = fill(n * n, 7);
    let x = fill(n, 8);
    let ni = n as i32;
    // Each element a dot product of length n (beta = 0): within (n+1)u of sum_l |a_il x_l|.
    let bound = (n + 1) as f64 * U;
    let err_of = |y: &[f32]| {
        (0..n)
            .map(|i| {
                let (s, scale) = (0..n).fold((0.0f64, 0.0f64), |(s, sc), l| {
                    let p = a[i + l * n] as f64 * x[l] as f64;
                    (s + p, sc + p.abs())
                });
                (s - y[i] as f64).abs() / scale
            })
            .fold(0.0, worse)
    };
    let call = |a: *const f32, x: *const f32, y: *mut f32, on: &str| unsafe {
        check_call(
            glblasSgemv(OperationArg(0), ni, ni, 1.0, a, ni, x, 1, 0.0, y, 1),
            "glblasSgemv",
            on,
        )
    };
    // beta = 0: y is never read, so it starts as NaN (an element not written stays NaN).
    let mut y = vec![f32::NAN; n];
    call(a.as_ptr(), x.as_ptr(), y.as_mut_ptr(), "host")?;
    all_written("host", &y)?;
    let host_err = within("host", err_of(&y), bound)?;
    let host = median_time(runs, || {
        call(a.as_ptr(), x.as_ptr(), y.as_mut_ptr(), "host")
    })?;
    let (da, dx) = (Device::upload(&a)?, Device::upload(&x)?);
    let (dnan, dy) = (Device::upload(&vec![f32::NAN; n])?, Device::alloc(n)?);
    let (timed, read) = device_time(
        runs,
        || dy.reset_from(&dnan),
        || {
            call(da.f(), dx.f(), dy.f(), "device")?;
            sync()?;
            dy.last()
        },
    )?;
    let out = dy.download()?;
    all_written("device", &out)?;
    let device_err = within("device", err_of(&out), bound)?;
    finished(&read, out[n - 1])?;
    let cpu = cpu_time(cpu_blas::<Sgemv>(c"cblas_sgemv"), runs, |f| {
        unsafe {
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
        };
    })?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound,
    })
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
    let t = |t: bool| if t { 'T' } else { 'N' };
    Row {
        routine: "sgemm",
        shape: format!("{m}x{n}x{k} {}{}", t(ta), t(tb)),
        pipeline,
        work: 2.0 * (m * n * k) as f64,
        unit: "GFLOP/s",
        figures: sgemm(m, n, k, ta, tb, runs),
    }
}

fn sgemm(m: usize, n: usize, k: usize, ta: bool, tb: bool, runs: usize) -> Res<Figures> {
    let (ar, ac) = if ta { (k, m) } else { (m, k) };
    let (br, bc) = if tb { (n, k) } else { (k, n) };
    let a = fill(ar * ac, 5);
    let b = fill(br * bc, 6);
    let (mi, ni, ki) = (m as i32, n as i32, k as i32);
    // alpha = 1, beta = 0: within (k+2)u of sum_l |a_il b_lj| (docs/api.md, Accuracy).
    let bound = (k + 2) as f64 * U;
    // Error on a sample of columns, relative to sum_l |a_il b_lj| (the fp32 error scale); every
    // element is checked for having been written (`all_written`).
    let at = |i: usize, l: usize| if ta { a[l + i * ar] } else { a[i + l * ar] } as f64;
    let bt = |l: usize, j: usize| if tb { b[j + l * br] } else { b[l + j * br] } as f64;
    let err_of = |c: &[f32]| {
        let mut err = 0.0f64;
        for j in (0..n).step_by((n / 8).max(1)) {
            for i in 0..m {
                let (s, scale) = (0..k).fold((0.0f64, 0.0f64), |(s, sc), l| {
                    let p = at(i, l) * bt(l, j);
                    (s + p, sc + p.abs())
                });
                err = worse(
                    err,
                    (s - c[i + j * m] as f64).abs() / scale.max(f64::MIN_POSITIVE),
                );
            }
        }
        err
    };
    let op = |t: bool| OperationArg(i32::from(t));
    let call = |a: *const f32, b: *const f32, c: *mut f32, on: &str| unsafe {
        check_call(
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
            "glblasSgemm",
            on,
        )
    };
    // beta = 0: C is never read, so it starts as NaN (an element not written stays NaN).
    let mut c = vec![f32::NAN; m * n];
    call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), "host")?;
    all_written("host", &c)?;
    let host_err = within("host", err_of(&c), bound)?;
    let host = median_time(runs, || {
        call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), "host")
    })?;
    let (da, db) = (Device::upload(&a)?, Device::upload(&b)?);
    let (dnan, dc) = (
        Device::upload(&vec![f32::NAN; m * n])?,
        Device::alloc(m * n)?,
    );
    let (timed, read) = device_time(
        runs,
        || dc.reset_from(&dnan),
        || {
            call(da.f(), db.f(), dc.f(), "device")?;
            sync()?;
            dc.last()
        },
    )?;
    let out = dc.download()?;
    all_written("device", &out)?;
    let device_err = within("device", err_of(&out), bound)?;
    finished(&read, out[m * n - 1])?;
    let cblas_op = |t: bool| if t { 112 } else { 111 };
    let cpu = cpu_time(cpu_blas::<Sgemm>(c"cblas_sgemm"), runs, |f| {
        unsafe {
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
        };
    })?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound,
    })
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
    // The driver configuration's name, as scripts/drivers.sh's driver_env exports it.
    let driver = std::env::var("GLBLAS_DRIVER")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "default".to_owned());
    let only: Option<Vec<&str>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|names| names.split(',').collect());
    const ROUTINES: [&str; 15] = [
        "saxpy", "sdot", "snrm2", "isamax", "sgemv", "sgemm", "dgemm", "cgemm", "zgemm", "ctrsm",
        "zherk", "ssymm", "ssyrk", "strsm", "dtrsm",
    ];
    if let Some(unknown) = only.iter().flatten().find(|n| !ROUTINES.contains(n)) {
        eprintln!(
            "bench: --only: no case of '{unknown}' (one of: {})",
            ROUTINES.join(",")
        );
        std::process::exit(2);
    }
    let status = glblasInit();
    if status != Status::Success {
        let why =
            unsafe { CStr::from_ptr(glblasGetStatusString(glblas::ffi::StatusArg(status as i32))) };
        eprintln!(
            "glblas: no GL device (driver {driver}): {}",
            why.to_string_lossy()
        );
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
    let timer = if info.as_ref().is_some_and(|i| i.timer_queries) {
        "GL timer queries"
    } else {
        "none (no timer queries that time the kernels here): wall time only"
    };
    // Which tuning table the kernels' parameters came from, and the parameters.
    let tuning = glblas::engine::with_engine(|e| Ok((e.tuning_source.clone(), e.tuning))).map_or(
        String::new(),
        |(source, t)| {
            let parameters = glblas::engine::tuning_table::parameters(&t);
            format!("{source} ({})", parameters.join("; "))
        },
    );
    let runs = 5;
    let wanted = |name: &str| only.as_ref().is_none_or(|o| o.contains(&name));
    let mut rows = Vec::new();
    let mut add = |name: &str, case: &dyn Fn() -> Row| {
        if wanted(name) {
            rows.push(case());
        }
    };
    let vec_sizes: &[usize] = if quick {
        &[1 << 10, 1 << 16]
    } else {
        &[1 << 10, 1 << 20, 1 << 24]
    };
    for &n in vec_sizes {
        add("saxpy", &|| bench_saxpy(n, runs));
    }
    for &n in vec_sizes {
        add("sdot", &|| bench_sdot(n, runs));
    }
    let long = if quick { 1 << 16 } else { 1 << 24 };
    add("snrm2", &|| reductions::bench_snrm2(long, runs));
    add("isamax", &|| reductions::bench_isamax(long, runs));
    add("saxpy", &|| bench_tiny(21));
    for &n in if quick { &[256][..] } else { &[1024, 4096][..] } {
        add("sgemv", &|| bench_sgemv(n, runs));
    }
    let square: &[usize] = if quick {
        &[64, 128]
    } else {
        &[64, 256, 512, 1024, 2048]
    };
    for &n in square {
        let runs = if n >= 2048 { 3 } else { runs };
        add("sgemm", &|| {
            bench_sgemm(n, n, n, false, false, runs, pipeline())
        });
    }
    let transposed: &[usize] = if quick { &[128] } else { &[1024, 2048] };
    for &t in transposed {
        let runs = if t >= 2048 { 3 } else { runs };
        add("sgemm", &|| {
            bench_sgemm(t, t, t, false, true, runs, pipeline())
        });
        add("sgemm", &|| {
            bench_sgemm(t, t, t, true, false, runs, pipeline())
        });
    }
    if !quick {
        add("sgemm", &|| {
            bench_sgemm(1000, 3000, 500, false, false, 3, pipeline())
        });
    }
    use level3::L3;
    for &n in if quick {
        &[128][..]
    } else {
        &[256, 1024, 2048][..]
    } {
        let runs = if n >= 2048 { 3 } else { runs };
        add("dgemm", &|| level3::bench::<f64>(L3::Gemm, n, runs));
    }
    let n = if quick { 128 } else { 1024 };
    {
        use complex::Case3;
        use glblas::ffi::{glblasComplex, glblasDoubleComplex};
        add("cgemm", &|| {
            complex::bench::<glblasComplex>(Case3::Gemm, n, runs)
        });
        add("zgemm", &|| {
            complex::bench::<glblasDoubleComplex>(Case3::Gemm, n, runs)
        });
        add("ctrsm", &|| {
            complex::bench::<glblasComplex>(Case3::Trsm, n, runs)
        });
        add("zherk", &|| {
            complex::bench::<glblasDoubleComplex>(Case3::Herk, n, runs)
        });
    }
    for r in [L3::Symm, L3::Syrk, L3::Trsm] {
        add(&format!("s{}", r.name()), &|| {
            level3::bench::<f32>(r, n, runs)
        });
    }
    add("dtrsm", &|| level3::bench::<f64>(L3::Trsm, n, runs));
    let shutdown = check(glblasShutdown(), "glblasShutdown");
    if let Err(e) = &shutdown {
        eprintln!("glblas: {e}");
    }
    let ok = shutdown.is_ok() && rows.iter().all(Row::ok);
    if json {
        let cases: Vec<String> = rows.iter().map(Row::json).collect();
        println!(
            "{{\"driver\":{},\"device\":{},\"context\":{},\"kernel_times\":{},\
             \"tuning\":{},\"ok\":{ok},\"cases\":[{}]}}",
            json_str(&driver),
            json_str(&name),
            json_str(&context),
            json_str(timer),
            json_str(&tuning),
            cases.join(",")
        );
    } else {
        println!("driver: {driver}");
        println!("device: {name}");
        println!("context: {context}");
        println!("kernel times: {timer}");
        println!("tuning: {tuning}");
        println!(
            "{:<6} {:<22} {:<8} {:>9} {:>8} {:>9} {:>8} {:>9} {:>8} {:>9} {:>8} {:>8} {:>9}  unit",
            "",
            "case",
            "pipeline",
            "device ms",
            "rate",
            "kernel ms",
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
    if !ok {
        let failed = rows.iter().filter(|r| !r.ok()).count();
        eprintln!("bench: {failed} of {} cases failed", rows.len());
        std::process::exit(1);
    }
}
