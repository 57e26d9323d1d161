//! Helpers for the Rust tests: deterministic data, device buffers, double-precision references.
#![allow(dead_code)]

pub mod faults;
pub mod vector_cases;
pub mod xerbla;

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use std::process::Command;

use glblas::api::*;
use glblas::ffi::MemcpyKindArg;
use glblas::status::Status;

pub const EPS: f64 = f32::EPSILON as f64 / 2.0; // unit roundoff of fp32, 2^-24

/// Deterministic values in [-1, 1).
pub fn fill(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Values with all 53 bits of mantissa in use, in [-1, 1): a computation in single precision
/// misses double-precision tolerances by a factor of about 2^29.
pub fn fill64(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..n)
        .map(|_| {
            (rng.below(1 << 30) as f64 * (1u64 << 23) as f64 + rng.below(1 << 23) as f64)
                / (1u64 << 52) as f64
                - 1.0
        })
        .collect()
}

/// s + e = a + b exactly (Knuth's TwoSum).
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let z = s - a;
    (s, (a - (s - z)) + (b - z))
}

/// The sum of `terms`' products, accurate as if computed in twice double precision (Ogita,
/// Rump and Oishi's Dot2: the error of each product and sum is carried along), and the sum
/// of their magnitudes.
pub fn dot2(terms: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    let (mut s, mut c, mut mag) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in terms {
        let p = x * y;
        let (t, se) = two_sum(s, p);
        s = t;
        c += x.mul_add(y, -p) + se;
        mag += p.abs();
    }
    (s + c, mag)
}

/// A small deterministic generator (an LCG), one per thread of a test.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }

    /// True `percent` times in 100.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// From `lo` to `hi`, both included.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
}

/// Where a fuzz test's pointer argument points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    Null,
    Host,
    Device,
    PastEnd,
    Misaligned,
    Freed,
}

/// Host memory most often, then device memory, then each kind of bad pointer.
pub const PLACES: [Place; 16] = {
    use Place::*;
    [
        Host, Host, Host, Host, Host, Host, Host, Device, Device, Device, Device, Device, PastEnd,
        Misaligned, Freed, Null,
    ]
};

/// A device allocation holding a copy of `data`, freed on drop.
pub struct Dev(pub *mut c_void);

impl Dev {
    pub fn new<T: Copy>(data: &[T]) -> Dev {
        let bytes = std::mem::size_of_val(data);
        let mut p = std::ptr::null_mut();
        unsafe {
            assert_eq!(glblasMalloc(&mut p, bytes), Status::Success);
            assert_eq!(
                glblasMemcpy(p, data.as_ptr().cast(), bytes, MemcpyKindArg(1)),
                Status::Success
            );
        }
        Dev(p)
    }
    pub fn f(&self) -> *mut f32 {
        self.0.cast()
    }
    pub fn d(&self) -> *mut f64 {
        self.0.cast()
    }
    pub fn get(&self, len: usize) -> Vec<f32> {
        self.get_as(len)
    }
    pub fn get_as<T: Copy + Default>(&self, len: usize) -> Vec<T> {
        let mut out = vec![T::default(); len];
        let bytes = std::mem::size_of_val(&out[..]);
        unsafe {
            assert_eq!(
                glblasMemcpy(out.as_mut_ptr().cast(), self.0, bytes, MemcpyKindArg(2)),
                Status::Success
            )
        };
        out
    }
}

impl Drop for Dev {
    fn drop(&mut self) {
        glblasFree(self.0);
    }
}

/// Storage index of logical element i of a BLAS vector (32- or 64-bit increment).
pub fn idx(i: usize, n: usize, inc: impl Into<i64>) -> usize {
    let inc: i64 = inc.into();
    let step = inc.unsigned_abs() as usize;
    if inc >= 0 {
        i * step
    } else {
        (n - 1 - i) * step
    }
}

/// Storage a BLAS vector of n elements with increment inc needs.
pub fn span(n: usize, inc: i32) -> usize {
    if n == 0 {
        0
    } else {
        (n - 1) * inc.unsigned_abs() as usize + 1
    }
}

/// The reference sequential saxpy loop, in double precision per term.
pub fn saxpy_ref(n: usize, alpha: f32, x: &[f32], incx: i32, y: &mut [f32], incy: i32) {
    for i in 0..n {
        let xi = x[idx(i, n, incx)];
        let yi = &mut y[idx(i, n, incy)];
        *yi = (*yi as f64 + alpha as f64 * xi as f64) as f32;
    }
}

/// The reference saxpy on one array holding both vectors (x at `ox`, y at `oy`), as BLAS's
/// sequential loop runs it where they overlap: each step reads what an earlier one wrote.
pub fn saxpy_in_place(
    data: &mut [f32],
    n: usize,
    alpha: f32,
    (ox, incx): (usize, i32),
    (oy, incy): (usize, i32),
) {
    for i in 0..n {
        let xi = data[ox + idx(i, n, incx)];
        let yi = oy + idx(i, n, incy);
        data[yi] = (data[yi] as f64 + alpha as f64 * xi as f64) as f32;
    }
}

/// The error scale of each element of saxpy's result: |alpha x_i| + |y_i|.
pub fn saxpy_terms(alpha: f32, x: &[f32], y: &[f32]) -> Vec<f64> {
    x.iter()
        .zip(y)
        .map(|(x, y)| (alpha as f64 * *x as f64).abs() + (*y as f64).abs())
        .collect()
}

/// Checks y against the reference: each element is one fp32 multiply-add, so it may differ
/// from the double-precision value by at most 2 roundings of its magnitude.
pub fn assert_saxpy(got: &[f32], want: &[f32], terms: &[f64]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let tol = 2.0 * EPS * terms[i] + f64::from(f32::MIN_POSITIVE);
        assert!(
            (*g as f64 - *w as f64).abs() <= tol,
            "element {i}: got {g}, want {w}"
        );
    }
}

/// sdot against double precision: a blocked fp32 sum of n products is within n*eps*sum|x*y|
/// (the sequential bound; blocked summation is tighter), plus one rounding of each product.
pub fn assert_sdot(got: f32, x: &[f32], incx: i32, y: &[f32], incy: i32, n: usize) {
    let (mut s, mut a) = (0.0f64, 0.0f64);
    for i in 0..n {
        let p = x[idx(i, n, incx)] as f64 * y[idx(i, n, incy)] as f64;
        s += p;
        a += p.abs();
    }
    let tol = (n as f64 + 1.0) * EPS * a + f64::from(f32::MIN_POSITIVE);
    assert!(
        (got as f64 - s).abs() <= tol,
        "sdot n={n}: got {got}, want {s} (tol {tol:e})"
    );
}

/// C := alpha*op(A)*op(B) + beta*C in double precision, with the error scale
/// |alpha|*|op(A)||op(B)| + |beta||C| per element.
#[allow(clippy::too_many_arguments)]
pub fn sgemm_ref(
    ta: bool,
    tb: bool,
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: &[f32],
    lda: usize,
    b: &[f32],
    ldb: usize,
    beta: f32,
    c: &[f32],
    ldc: usize,
) -> (Vec<f64>, Vec<f64>) {
    let (mut out, mut scale) = (vec![0.0; m * n], vec![0.0; m * n]);
    for j in 0..n {
        for i in 0..m {
            let (mut s, mut sa) = (0.0f64, 0.0f64);
            for l in 0..k {
                let av = if ta { a[l + i * lda] } else { a[i + l * lda] } as f64;
                let bv = if tb { b[j + l * ldb] } else { b[l + j * ldb] } as f64;
                s += av * bv;
                sa += (av * bv).abs();
            }
            let cv = if beta == 0.0 {
                0.0
            } else {
                c[i + j * ldc] as f64
            };
            out[i + j * m] = alpha as f64 * s + beta as f64 * cv;
            scale[i + j * m] = (alpha as f64).abs() * sa + (beta as f64 * cv).abs();
        }
    }
    (out, scale)
}

/// Unit roundoff of fp64, 2^-53.
pub const EPS64: f64 = f64::EPSILON / 2.0;

/// C := alpha*op(A)*op(B) + beta*C to about 2^-100 relative to the error scale, with the
/// error scale |alpha|*|op(A)||op(B)| + |beta*C| per element; C is not read when beta == 0.
#[allow(clippy::too_many_arguments)]
pub fn dgemm_ref(
    (ta, tb): (bool, bool),
    (m, n, k): (usize, usize, usize),
    alpha: f64,
    (a, lda): (&[f64], usize),
    (b, ldb): (&[f64], usize),
    beta: f64,
    (c, ldc): (&[f64], usize),
) -> (Vec<f64>, Vec<f64>) {
    let (mut out, mut scale) = (vec![0.0; m * n], vec![0.0; m * n]);
    for j in 0..n {
        for i in 0..m {
            let av = |l: usize| if ta { a[l + i * lda] } else { a[i + l * lda] };
            let bv = |l: usize| if tb { b[j + l * ldb] } else { b[l + j * ldb] };
            let (s, mag) = dot2((0..k).map(|l| (av(l), bv(l))));
            let cv = if beta == 0.0 { 0.0 } else { c[i + j * ldc] };
            let (v, _) = dot2([(alpha, s), (beta, cv)].into_iter());
            out[i + j * m] = v;
            scale[i + j * m] = alpha.abs() * mag + (beta * cv).abs();
        }
    }
    (out, scale)
}

/// The triangular-solve tolerance's factor: `order + 1` roundings of the substitution, one more
/// for each update of the blocked solve that adds a solved part into an element (fewer than
/// `order`), and the rounding of alpha*B.
pub fn trsm_terms(order: usize) -> usize {
    2 * order + 2
}

/// Solves `s`·y = `rhs` (s order×order, column-major, triangular): y, and the bound
/// M⁻¹|s|M⁻¹|rhs| that the forward error of a triangular solve is proportional to, M being
/// s's comparison matrix (|s_ii| on the diagonal, -|s_ij| off it: M⁻¹ ≥ |s⁻¹| elementwise).
pub fn solve_with_bound(s: &[f64], order: usize, upper: bool, rhs: &[f64]) -> (Vec<f64>, Vec<f64>) {
    // Substitution; with `comparison`, on M (every term's magnitude added).
    let substitute = |rhs: &[f64], comparison: bool| {
        let mut y = vec![0.0; order];
        let rows: Vec<usize> = if upper {
            (0..order).rev().collect()
        } else {
            (0..order).collect()
        };
        for &i in &rows {
            let known = |j: usize| if upper { j > i } else { j < i };
            let mut v = rhs[i];
            for j in (0..order).filter(|&j| known(j)) {
                let t = s[i + j * order] * y[j];
                v = if comparison { v + t.abs() } else { v - t };
            }
            let d = s[i + i * order];
            y[i] = if comparison { v / d.abs() } else { v / d };
        }
        y
    };
    let x = substitute(rhs, false);
    let z = substitute(&rhs.iter().map(|v| v.abs()).collect::<Vec<_>>(), true);
    let sz: Vec<f64> = (0..order)
        .map(|i| (0..order).map(|j| s[i + j * order].abs() * z[j]).sum())
        .collect();
    (x, substitute(&sz, true))
}

/// Whether this device computes in double: the compute pipeline with fp64 shaders.
pub fn doubles_here() -> bool {
    let info = glblas::engine::device_info().expect("a GL device");
    glblas::kernels::pipeline() == Some("compute") && info.fp64
}

/// Each element of C within (k+2)*u of its error scale (u = 2^-53): fp64 accumulation of k
/// products plus the alpha and beta roundings (gamma_k |A||B|), the reference's own error
/// being far below that.
pub fn assert_dgemm(
    got: &[f64],
    ldc: usize,
    (m, n, k): (usize, usize, usize),
    want: &(Vec<f64>, Vec<f64>),
) {
    for j in 0..n {
        for i in 0..m {
            let g = got[i + j * ldc];
            let w = want.0[i + j * m];
            let tol = (k as f64 + 2.0) * EPS64 * want.1[i + j * m] + f64::MIN_POSITIVE;
            assert!(
                (g - w).abs() <= tol,
                "C({i},{j}) m={m} n={n} k={k}: got {g}, want {w}, tol {tol:e}"
            );
        }
    }
}

/// Each element of C within (k+2)*eps of its error scale: fp32 accumulation of k products plus
/// the alpha and beta roundings (the standard bound gamma_k |A||B|).
pub fn assert_sgemm(
    got: &[f32],
    ldc: usize,
    m: usize,
    n: usize,
    k: usize,
    want: &(Vec<f64>, Vec<f64>),
) {
    for j in 0..n {
        for i in 0..m {
            let g = got[i + j * ldc] as f64;
            let w = want.0[i + j * m];
            let tol = (k as f64 + 2.0) * EPS * want.1[i + j * m] + f64::from(f32::MIN_POSITIVE);
            assert!(
                (g - w).abs() <= tol,
                "C({i},{j}) m={m} n={n} k={k}: got {g}, want {w}, tol {tol:e}"
            );
        }
    }
}

/// y := alpha*op(A)*x + beta*y in double precision (A m×n column-major), with the error scale
/// |alpha|*|op(A)||x| + |beta y| per element; y is not read when beta == 0.
#[allow(clippy::too_many_arguments)]
pub fn sgemv_ref(
    trans: bool,
    m: usize,
    n: usize,
    alpha: f32,
    a: &[f32],
    lda: usize,
    x: &[f32],
    incx: i32,
    beta: f32,
    y: &[f32],
    incy: i32,
) -> (Vec<f64>, Vec<f64>) {
    let (lenx, leny) = if trans { (m, n) } else { (n, m) };
    let (mut out, mut scale) = (vec![0.0; leny], vec![0.0; leny]);
    for i in 0..leny {
        let (mut s, mut sa) = (0.0f64, 0.0f64);
        for l in 0..lenx {
            let av = if trans {
                a[l + i * lda]
            } else {
                a[i + l * lda]
            } as f64;
            let p = av * x[idx(l, lenx, incx)] as f64;
            s += p;
            sa += p.abs();
        }
        let yv = if beta == 0.0 {
            0.0
        } else {
            y[idx(i, leny, incy)] as f64
        };
        out[i] = alpha as f64 * s + beta as f64 * yv;
        scale[i] = (alpha as f64).abs() * sa + (beta as f64 * yv).abs();
    }
    (out, scale)
}

/// Each y element within (lenx+2)*eps of its error scale (as for sgemm); gaps between strided
/// elements bit-identical to `y0`.
pub fn assert_sgemv(
    got: &[f32],
    y0: &[f32],
    leny: usize,
    incy: i32,
    lenx: usize,
    want: &(Vec<f64>, Vec<f64>),
) {
    let mut expected: Vec<Option<f64>> = vec![None; got.len()];
    for i in 0..leny {
        expected[idx(i, leny, incy)] = Some(i as f64);
    }
    for (p, e) in expected.iter().enumerate() {
        match e {
            Some(i) => {
                let i = *i as usize;
                let tol = (lenx as f64 + 2.0) * EPS * want.1[i] + f64::from(f32::MIN_POSITIVE);
                let g = got[p] as f64;
                assert!(
                    (g - want.0[i]).abs() <= tol,
                    "y({i}): got {g}, want {}, tol {tol:e}",
                    want.0[i]
                );
            }
            None => assert_eq!(got[p].to_bits(), y0[p].to_bits(), "gap at {p} written"),
        }
    }
}

/// Points `GLBLAS_TRACE` at a fresh file for this test binary and returns its path. The library
/// reads the variable once: call this before any BLAS-compatible call.
pub fn trace_to_file(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("glblas-{name}-{}.trace", std::process::id()));
    let _ = std::fs::remove_file(&path);
    std::env::set_var("GLBLAS_TRACE", &path);
    path
}

/// The trace's lines so far (the file is removed), and the whole text for messages.
pub fn take_trace(path: &std::path::Path) -> (Vec<String>, String) {
    let text = std::fs::read_to_string(path).expect("trace file");
    let _ = std::fs::remove_file(path);
    (text.lines().map(str::to_owned).collect(), text)
}

/// The trace's lines so far, the file kept (the library holds it open for later calls).
pub fn trace_lines(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().map(str::to_owned).collect()
}

/// The `route=… reason=…` part of a trace line.
pub fn route_of(line: &str) -> &str {
    let route = line.split(" route=").nth(1).unwrap_or(line);
    route.split(" us=").next().unwrap_or(route)
}

/// cblas_sgemm, column-major, no transposes, packed operands (lda = m, ldb = k, ldc = m).
///
/// # Safety
/// `a`, `b`, `c` hold m×k, k×n and m×n floats (host or device memory).
#[allow(clippy::too_many_arguments)]
pub unsafe fn cblas_sgemm_packed(
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: *const f32,
    b: *const f32,
    beta: f32,
    c: *mut f32,
) {
    let (m, n, k) = (m as i32, n as i32, k as i32);
    glblas::blas::cblas::cblas_sgemm(102, 111, 111, m, n, k, alpha, a, m, b, k, beta, c, m);
}

/// Runs `work(t)` on `threads` threads at once and waits for all of them, failing if one
/// panics or if they are not all done within `limit` (a deadlock fails instead of hanging).
/// Done, they are joined: one not joined may still be running its thread-local destructors
/// (EGL's and the CPU BLAS's among them) when the process exits, and concurrency_blas once died
/// at exit, after passing, with "double free or corruption" (the exit of a program that does
/// not join its threads, not what these tests are after).
pub fn on_threads(threads: usize, limit: std::time::Duration, work: fn(usize)) {
    let (done, finished) = std::sync::mpsc::channel();
    let mut handles = Vec::new();
    for t in 0..threads {
        let done = done.clone();
        handles.push(std::thread::spawn(move || {
            work(t);
            done.send(t).expect("the test is waiting");
        }));
    }
    drop(done);
    let deadline = std::time::Instant::now() + limit;
    for _ in 0..threads {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        // A thread that panicked drops its sender without sending: recv then fails once all
        // are gone.
        finished
            .recv_timeout(left)
            .expect("every thread finishes its work in time (no deadlock, no failure)");
    }
    for h in handles {
        h.join().expect("a thread that finished its work");
    }
}

/// Forks; the child runs `work` and leaves with its result as exit status (a panic: 9). Fails
/// unless the child exits with 0 within `limit` (a child that hangs is killed).
pub fn in_forked_child(work: fn() -> i32, limit: std::time::Duration, what: &str) {
    // SAFETY: the child runs only `work` and leaves with _exit.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "{what}: fork failed");
    if pid == 0 {
        let code = std::panic::catch_unwind(work).unwrap_or(9);
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    let deadline = std::time::Instant::now() + limit;
    let mut status = 0;
    // SAFETY (both calls): waits for, or kills, our own child.
    while unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } != pid {
        if std::time::Instant::now() > deadline {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            unsafe { libc::waitpid(pid, &mut status, 0) };
            panic!("{what}: the child hung (killed after {limit:?})");
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{what}: child status {status:#x}"
    );
}

/// A field of /proc/self/status, in bytes (`VmRSS`: resident memory, `VmHWM`: its peak,
/// `VmSize`: address space).
pub fn proc_status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kib: u64 = line
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("a size in kB");
    kib * 1024
}

/// Resident memory of this process, in bytes.
pub fn rss() -> u64 {
    proc_status_bytes("VmRSS")
}

pub const MIB: f64 = 1024.0 * 1024.0;

/// Bytes the C heap (malloc, which the GL driver and Rust's allocator both use) has handed out
/// and not taken back: far finer than resident memory, which moves in pages and keeps freed
/// memory.
pub fn heap_in_use() -> u64 {
    // SAFETY: mallinfo2 only reads the allocator's statistics.
    let m = unsafe { libc::mallinfo2() };
    (m.uordblks + m.hblkhd) as u64
}

/// Held by a test that must not run beside the others of its file (it shuts the engine down,
/// measures the whole process, or needs much of the machine's memory).
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// ±1 at every element: products and sums of up to 2^24 of them are exact in fp32, in any
/// order, so results built from them can be checked exactly at any length.
pub fn signs(n: usize, seed: u64) -> Vec<f32> {
    fill(n, seed)
        .into_iter()
        .map(|v| if v < 0.0 { -1.0 } else { 1.0 })
        .collect()
}

/// glblasSgemm, column-major, on packed operands (each leading dimension the rows of its matrix
/// as stored), host or device pointers.
///
/// # Safety
/// `a`, `b` and `c` hold m×k (k×m when `ta`), k×n (n×k when `tb`) and m×n floats.
#[allow(clippy::too_many_arguments)]
pub unsafe fn sgemm_packed(
    (ta, tb): (bool, bool),
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    a: *const f32,
    b: *const f32,
    beta: f32,
    c: *mut f32,
) -> Status {
    use glblas::ffi::OperationArg as Op;
    let lda = if ta { k } else { m };
    let ldb = if tb { n } else { k };
    glblasSgemm(
        Op(i32::from(ta)),
        Op(i32::from(tb)),
        m as i32,
        n as i32,
        k as i32,
        alpha,
        a,
        lda as i32,
        b,
        ldb as i32,
        beta,
        c,
        m as i32,
    )
}

/// Mesa's overrides that make its driver present desktop GL 3.3 core without
/// `glTexBufferRange`, compute shaders or buffer storage, taken as desktop GL only (llvmpipe's
/// GLES would come first): the baseline the fragment pipeline is written for (whole-buffer
/// texture views, staged operand windows, fragment kernels only).
pub const GL33_BASELINE: &[(&str, &str)] = &[
    ("GLBLAS_GL_API", "desktop"),
    ("MESA_GL_VERSION_OVERRIDE", "3.3"),
    ("MESA_GLSL_VERSION_OVERRIDE", "330"),
    (
        "MESA_EXTENSION_OVERRIDE",
        "-GL_ARB_texture_buffer_range -GL_ARB_buffer_storage -GL_ARB_compute_shader",
    ),
];

/// What `scripts/drivers.sh`'s llvmpipe-board configuration sets: Mesa's overrides that make
/// its driver present an ARM board's GLES 3.1 and desktop GL 3.1, without buffer textures or
/// buffer storage, and glblas's limit settings at a board's compute limits and gemm's 4×4
/// blocks (`GLBLAS_LIMIT_GEMM_ROWS`).
pub const BOARD: &[(&str, &str)] = &[
    ("MESA_GLES_VERSION_OVERRIDE", "3.1"),
    ("MESA_GL_VERSION_OVERRIDE", "3.1"),
    (
        "MESA_EXTENSION_OVERRIDE",
        "-GL_OES_texture_buffer -GL_EXT_texture_buffer -GL_ARB_buffer_storage \
         -GL_EXT_buffer_storage",
    ),
    ("GLBLAS_LIMIT_INVOCATIONS", "256"),
    ("GLBLAS_LIMIT_SHARED_MEMORY", "32768"),
    ("GLBLAS_LIMIT_STORAGE_BLOCK", "134217728"),
    ("GLBLAS_LIMIT_GEMM_ROWS", "4"),
];

/// Whether this process runs under the llvmpipe-board configuration (`BOARD`).
pub fn on_board() -> bool {
    BOARD
        .iter()
        .all(|(k, v)| std::env::var(k).is_ok_and(|x| x == *v))
}

/// The environment that gives this configuration's device the fragment pipeline:
/// `GLBLAS_PIPELINE=fragment`, and on the board, whose GL has no buffer textures and so no
/// fragment pipeline, overrides that give llvmpipe's own GL back (desktop 4.5, GLES 3.2, buffer
/// textures).
pub fn fragment_env() -> Vec<(&'static str, &'static str)> {
    let mut env = vec![("GLBLAS_PIPELINE", "fragment")];
    if on_board() {
        env.extend_from_slice(&[
            ("MESA_GL_VERSION_OVERRIDE", "4.5"),
            ("MESA_GLES_VERSION_OVERRIDE", "3.2"),
            ("MESA_EXTENSION_OVERRIDE", "+GL_OES_texture_buffer"),
        ]);
    }
    env
}

/// Makes this process's kernels take the fragment pipeline (`fragment_env`); before its first
/// call.
pub fn use_fragment_pipeline() {
    for (k, v) in fragment_env() {
        std::env::set_var(k, v);
    }
}

/// saxpy (device x with a negative stride into host y), sdot (device against host) and sgemm
/// (device A transposed, host B) on the current device, each checked against its reference;
/// then a read of device memory.
pub fn check_a_sample_of_kernels() {
    let n = 300;
    let x = fill(n * 2, 1);
    let y0 = fill(n, 2);
    let xd = Dev::new(&x);
    let mut y = y0.clone();
    let mut want = y0.clone();
    saxpy_ref(n, 2.0, &x, -2, &mut want, 1);
    let terms: Vec<f64> = y0.iter().map(|v| (v.abs() + 2.0) as f64).collect();
    let mut r = 0.0f32;
    let (m, k) = (13, 9);
    let mut c = vec![0.0f32; m * m];
    unsafe {
        assert_eq!(
            glblasSaxpy(n as i32, 2.0, xd.f(), -2, y.as_mut_ptr(), 1),
            Status::Success
        );
        assert_eq!(
            glblasSdot(n as i32, xd.f(), 2, y0.as_ptr(), 1, &mut r),
            Status::Success
        );
        let s = glblasSgemm(
            glblas::ffi::OperationArg(1),
            glblas::ffi::OperationArg(0),
            m as i32,
            m as i32,
            k as i32,
            1.0,
            xd.f(),
            k as i32,
            x.as_ptr(),
            k as i32,
            0.0,
            c.as_mut_ptr(),
            m as i32,
        );
        assert_eq!(s, Status::Success);
    }
    assert_saxpy(&y, &want, &terms);
    assert_sdot(r, &x, 2, &y0, 1, n);
    // Reads from device memory go through glMapBufferRange on GLES.
    assert_eq!(xd.get(n), &x[..n]);
    let want = sgemm_ref(true, false, m, m, k, 1.0, &x, k, &x, k, 0.0, &c, m);
    assert_sgemm(&c, m, m, m, k, &want);
}

/// Builds `c_tests/handlers/<name>.c` into `lib<name>.so` in cargo's scratch directory for tests
/// (C99, warnings as errors, `-ldl`) and returns its path.
pub fn build_handler(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("c_tests/handlers/{name}.c"));
    let lib = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("lib{name}.so"));
    let out = Command::new("cc")
        .args([
            "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o",
        ])
        .arg(&lib)
        .arg(&src)
        .arg("-ldl")
        .output()
        .expect("running cc");
    assert!(
        out.status.success(),
        "building {}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    lib
}

/// A Fortran-convention sgemm (`sgemm_`, `scipy_sgemm_64_`, ...) with integers of type `I`.
pub type FortranSgemm<I> = unsafe extern "C" fn(
    *const std::ffi::c_char,
    *const std::ffi::c_char,
    *const I,
    *const I,
    *const I,
    *const f32,
    *const f32,
    *const I,
    *const f32,
    *const I,
    *const f32,
    *mut f32,
    *const I,
    usize,
    usize,
);

/// Calls `f` with trans characters `t`, dimensions m, n, k and leading dimensions lda, ldb, ldc
/// passed by reference, as Fortran does.
///
/// # Safety
/// The operands hold what the dimensions say.
#[allow(clippy::too_many_arguments)]
pub unsafe fn call_fortran_sgemm<I>(
    f: FortranSgemm<I>,
    t: [u8; 2],
    [m, n, k]: [I; 3],
    (alpha, beta): (f32, f32),
    (a, lda): (&[f32], I),
    (b, ldb): (&[f32], I),
    (c, ldc): (&mut [f32], I),
) {
    let t = t.map(|c| c as std::ffi::c_char);
    f(
        &t[0],
        &t[1],
        &m,
        &n,
        &k,
        &alpha,
        a.as_ptr(),
        &lda,
        b.as_ptr(),
        &ldb,
        &beta,
        c.as_mut_ptr(),
        &ldc,
        1,
        1,
    );
}

/// Runs test `test` of this test binary again, alone, in a child process with `env` set (and no
/// trace): for what the library reads once per process. Err holds the child's exit status and
/// output.
pub fn run_in_child(test: &str, env: &[(&str, &str)]) -> Result<(), String> {
    let out = Command::new(std::env::current_exe().expect("current_exe"))
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .envs(env.iter().copied())
        .env_remove("GLBLAS_TRACE")
        .output()
        .expect("running the child");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{:?}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The reference BLAS (Debian's netlib build, not the alternative `libblas.so.3` names, which
/// may be OpenBLAS).
pub fn reference_path() -> String {
    let dirs = std::fs::read_dir("/usr/lib").expect("/usr/lib");
    let path = dirs
        .filter_map(|d| d.ok())
        .map(|d| d.path().join("blas/libblas.so.3"))
        .find(|p| p.exists())
        .expect("the reference BLAS (Debian's libblas3: the test command installs it)");
    path.to_str().expect("utf-8 path").to_string()
}
