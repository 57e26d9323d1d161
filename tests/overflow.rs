//! Sizes whose element or byte counts overflow 32-bit arithmetic (issue 5, property 5): each
//! call either runs correctly or is refused (DIMENSION_OVERFLOW, ALLOC_FAILED, or for an operand
//! past the end of its device allocation INVALID_VALUE) with its outputs untouched; never a
//! wrapped index. Host operands live in large `MAP_NORESERVE` regions of which only the touched
//! pages are ever committed, and after each call every committed page of every region (found
//! with `mincore`) must hold exactly what the test expects: the operands' elements, the results,
//! and zeros everywhere else. So a store through a wrapped index shows up wherever it lands.
//! The Level 3 routines beyond gemm (cblas_ssyrk, cblas_strsm, scipy_cblas_strmm64_) return no
//! status: with no CPU BLAS to forward to, they must have run on GL, every result right. Complex
//! elements are two or four floats, so their offsets in floats pass 32 bits sooner: gemm, gemv,
//! axpy and dotc in c and z on small integers, whose results are exact.

mod common;

use std::ffi::c_void;

use common::{fill, idx, sgemm_ref, sgemv_ref, Rng, EPS};
use glblas::api::*;
use glblas::blas::cblas::*;
use glblas::engine::element::{Complex, Real};
use glblas::ffi::{MemcpyKindArg, OperationArg as Op};
use glblas::kernels::Trans;
use glblas::routines;
use glblas::status::Status;

const GIB: usize = 1 << 30;

/// An anonymous `MAP_NORESERVE` region of address space, zero until written; only the pages
/// the test or the library touch are committed.
struct Region {
    base: *mut f32,
    bytes: usize,
    /// Float index → value the test expects there; every other float must be zero.
    expected: std::collections::BTreeMap<usize, f32>,
}

impl Region {
    fn new(bytes: usize) -> Region {
        // SAFETY: a fresh anonymous mapping.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED, "reserve {bytes} bytes");
        Region {
            base: p.cast(),
            bytes,
            expected: Default::default(),
        }
    }

    /// Stores `v` at float index `i` and records it as expected there.
    fn set(&mut self, i: usize, v: f32) {
        assert!(i * 4 < self.bytes);
        // SAFETY: inside the mapping.
        unsafe { self.base.add(i).write(v) };
        self.expected.insert(i, v);
    }

    fn get(&self, i: usize) -> f32 {
        // SAFETY: inside the mapping.
        unsafe { self.base.add(i).read() }
    }

    fn ptr(&self, i: usize) -> *mut f32 {
        self.base.wrapping_add(i)
    }

    /// Every float of every committed page equals the expectation (zero where none), with
    /// `results` (float index → value, tolerance) checked within their tolerance instead.
    fn check(&self, results: &std::collections::BTreeMap<usize, (f64, f64)>, what: &str) {
        let page = 4096usize;
        let pages = self.bytes.div_ceil(page);
        let mut resident = vec![0u8; pages];
        // SAFETY: the mapping and a vector of one byte per page.
        let r = unsafe { libc::mincore(self.base.cast(), self.bytes, resident.as_mut_ptr()) };
        assert_eq!(r, 0, "mincore");
        let per_page = page / 4;
        let mut committed = 0;
        for (p, _) in resident.iter().enumerate().filter(|(_, r)| **r & 1 == 1) {
            committed += 1;
            for i in p * per_page..(p + 1) * per_page {
                let got = self.get(i);
                if let Some(&(want, tol)) = results.get(&i) {
                    assert!(
                        (f64::from(got) - want).abs() <= tol,
                        "{what}: float {i}: got {got}, want {want} (tol {tol:e})"
                    );
                } else {
                    let want = self.expected.get(&i).copied().unwrap_or(0.0);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{what}: float {i} (a wrapped index?)"
                    );
                }
            }
        }
        for &i in results.keys() {
            assert_eq!(
                resident[i / per_page] & 1,
                1,
                "{what}: result {i} never written"
            );
        }
        assert!(committed <= 64, "{what}: {committed} pages committed");
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`.
        unsafe { libc::munmap(self.base.cast(), self.bytes) };
    }
}

type Results = std::collections::BTreeMap<usize, (f64, f64)>;

/// Every call on GL, none forwarded: the results are glblas's own.
fn gl_only() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::env::set_var("GLBLAS_BACKEND", "gl");
        std::env::set_var("GLBLAS_CPU_BLAS", "none");
    });
}

/// A column-major rows×cols matrix with leading dimension `ld` written into `r` from float
/// `at`, and the whole region as a slice for the references (only its elements are read).
fn put_matrix(r: &mut Region, at: usize, rows: usize, cols: usize, ld: usize, seed: u64) {
    let v = fill(rows * cols, seed);
    for j in 0..cols {
        for i in 0..rows {
            r.set(at + i + j * ld, v[i + j * rows]);
        }
    }
}

fn slice(r: &Region) -> &[f32] {
    // SAFETY: the whole mapping is readable; untouched pages read as zero.
    unsafe { std::slice::from_raw_parts(r.base, r.bytes / 4) }
}

/// sgemm with C m×n at leading dimension `ldc`, checked over the whole of `c`'s region.
fn sgemm_results(want: &(Vec<f64>, Vec<f64>), m: usize, n: usize, k: usize, ldc: usize) -> Results {
    let mut out = Results::new();
    for j in 0..n {
        for i in 0..m {
            let e = i + j * m;
            let tol = (k as f64 + 2.0) * EPS * want.1[e] + f64::from(f32::MIN_POSITIVE);
            out.insert(i + j * ldc, (want.0[e], tol));
        }
    }
    out
}

/// glblasSgemm with lda and ldc of 2^31 - 1 (A and C span 8 GiB: lda*k and ldc*n exceed 2^31
/// elements and 2^33 bytes), both operations of A.
#[test]
fn sgemm_with_leading_dimensions_near_i32_max() {
    let ld = i32::MAX as usize;
    let (m, n, k) = (3usize, 2usize, 2usize);
    for ta in [false, true] {
        let (ra, ca) = if ta { (k, m) } else { (m, k) };
        let mut a = Region::new(((ca - 1) * ld + ra) * 4);
        put_matrix(&mut a, 0, ra, ca, ld, 1);
        let b = fill(k * n, 2);
        let mut c = Region::new(((n - 1) * ld + m) * 4 + 4096);
        put_matrix(&mut c, 0, m, n, ld, 3);
        let want = sgemm_ref(
            ta,
            false,
            m,
            n,
            k,
            1.5,
            slice(&a),
            ld,
            &b,
            k,
            -0.5,
            slice(&c),
            ld,
        );
        let s = unsafe {
            glblasSgemm(
                Op(i32::from(ta)),
                Op(0),
                m as i32,
                n as i32,
                k as i32,
                1.5,
                a.ptr(0),
                ld as i32,
                b.as_ptr(),
                k as i32,
                -0.5,
                c.ptr(0),
                ld as i32,
            )
        };
        let what = format!("sgemm ta={ta} lda=ldc=2^31-1");
        assert_eq!(s, Status::Success, "{what}");
        c.check(&sgemm_results(&want, m, n, k, ld), &what);
        a.check(&Results::new(), &what);
    }
}

/// Writes n elements of a vector with increment `inc` (its lowest element at float `at`).
fn put_vector(r: &mut Region, at: usize, n: usize, inc: i64, seed: u64) -> Vec<f32> {
    let v = fill(n, seed);
    for (i, x) in v.iter().enumerate() {
        r.set(at + idx(i, n, inc), *x);
    }
    v
}

/// glblasSgemv with lda = 2^31 - 1 and x, y at increments of ±2^30 (each operand spans 8 GiB),
/// both operations.
#[test]
fn sgemv_with_lda_and_increments_past_i32() {
    let ld = i32::MAX as usize;
    let (m, n) = (3usize, 2usize);
    let (incx, incy) = (-(1i64 << 30), 1i64 << 30);
    for t in [false, true] {
        let (lenx, leny) = if t { (m, n) } else { (n, m) };
        let mut a = Region::new(((n - 1) * ld + m) * 4);
        put_matrix(&mut a, 0, m, n, ld, 4);
        let mut x = Region::new(((lenx - 1) << 30) * 4 + 4096);
        let xv = put_vector(&mut x, 0, lenx, incx, 5);
        let mut y = Region::new(((leny - 1) << 30) * 4 + 4096);
        let yv = put_vector(&mut y, 0, leny, incy, 6);
        // The reference on copies of x and y in logical order (increment 1).
        let want = sgemv_ref(t, m, n, 2.0, slice(&a), ld, &xv, 1, 0.5, &yv, 1);
        let s = unsafe {
            glblasSgemv(
                Op(i32::from(t)),
                m as i32,
                n as i32,
                2.0,
                a.ptr(0),
                ld as i32,
                x.ptr(0),
                incx as i32,
                0.5,
                y.ptr(0),
                incy as i32,
            )
        };
        let what = format!("sgemv t={t} lda=2^31-1 incx=-2^30 incy=2^30");
        assert_eq!(s, Status::Success, "{what}");
        let results = (0..leny)
            .map(|i| {
                (
                    idx(i, leny, incy),
                    (want.0[i], (lenx as f64 + 2.0) * EPS * want.1[i] + 1e-38),
                )
            })
            .collect();
        y.check(&results, &what);
        a.check(&Results::new(), &what);
        x.check(&Results::new(), &what);
    }
}

/// Level 1 with n*|inc| > 2^31 (glblas API) and > 2^32 (ILP64): saxpy, scopy, sswap, sscal,
/// sdot and sasum on 3-element vectors 2^30 (or 2^32 + 1) floats apart.
#[test]
fn level1_with_increments_past_32_bits() {
    gl_only();
    let n = 3usize;
    for (incx, incy) in [
        (1i64 << 30, -(1i64 << 30)),
        ((1i64 << 32) + 1, -(1i64 << 32) - 1),
    ] {
        let ilp64 = incx > i64::from(i32::MAX);
        let bytes = |inc: i64| ((n - 1) * inc.unsigned_abs() as usize + 1) * 4 + 4096;
        let mut x = Region::new(bytes(incx));
        let mut y = Region::new(bytes(incy));
        let xv = put_vector(&mut x, 0, n, incx, 7);
        let yv = put_vector(&mut y, 0, n, incy, 8);
        let what = format!("incx={incx} incy={incy}");
        let (xp, yp) = (x.ptr(0), y.ptr(0));
        let (dot, asum) = unsafe {
            if ilp64 {
                (
                    scipy_cblas_sdot64_(n as i64, xp, incx, yp, incy),
                    scipy_cblas_sasum64_(n as i64, xp, incx),
                )
            } else {
                let (mut d, mut s) = (0.0f32, 0.0f32);
                assert_eq!(
                    glblasSdot(n as i32, xp, incx as i32, yp, incy as i32, &mut d),
                    Status::Success
                );
                assert_eq!(
                    glblasSasum(n as i32, xp, incx as i32, &mut s),
                    Status::Success
                );
                (d, s)
            }
        };
        let terms: Vec<f64> = (0..n)
            .map(|i| f64::from(xv[i]) * f64::from(yv[i]))
            .collect();
        let scale: f64 = terms.iter().map(|t| t.abs()).sum();
        assert!(
            (f64::from(dot) - terms.iter().sum::<f64>()).abs() <= (n as f64 + 1.0) * EPS * scale,
            "sdot {what}"
        );
        let abs: f64 = xv.iter().map(|v| f64::from(v.abs())).sum();
        assert!(
            (f64::from(asum) - abs).abs() <= (n as f64 + 1.0) * EPS * abs,
            "sasum {what}"
        );
        // y := 2x + y, then x <-> y, then y := x (the old y + 2x... as the loop gives), then x *= 4.
        unsafe {
            if ilp64 {
                scipy_cblas_saxpy64_(n as i64, 2.0, xp, incx, yp, incy);
                scipy_cblas_sswap64_(n as i64, xp, incx, yp, incy);
                scipy_cblas_scopy64_(n as i64, xp, incx, yp, incy);
                scipy_cblas_sscal64_(n as i64, 4.0, xp, incx);
            } else {
                let (n, ix, iy) = (n as i32, incx as i32, incy as i32);
                assert_eq!(glblasSaxpy(n, 2.0, xp, ix, yp, iy), Status::Success);
                assert_eq!(glblasSswap(n, xp, ix, yp, iy), Status::Success);
                assert_eq!(glblasScopy(n, xp, ix, yp, iy), Status::Success);
                assert_eq!(glblasSscal(n, 4.0, xp, ix), Status::Success);
            }
        }
        // After saxpy y = 2x + y; swap: x = 2x + y, y = x; copy: y = 2x + y; scal: x = 4(2x + y).
        let mut xr = Results::new();
        let mut yr = Results::new();
        for i in 0..n {
            let s = 2.0 * f64::from(xv[i]) + f64::from(yv[i]);
            let tol = 2.0 * EPS * (2.0 * f64::from(xv[i].abs()) + f64::from(yv[i].abs()));
            xr.insert(idx(i, n, incx), (4.0 * s, 4.0 * tol + 4.0 * EPS * s.abs()));
            yr.insert(idx(i, n, incy), (s, tol));
        }
        x.check(&xr, &what);
        y.check(&yr, &what);
    }
}

/// ILP64 sgemm with leading dimensions beyond 32 bits (2^32 + 1 and 2^32 + 2: truncated they
/// would be 1 and 2, valid-looking and wrong): runs, in both layouts.
#[test]
fn ilp64_sgemm_with_leading_dimensions_past_u32() {
    gl_only();
    let (lda, ldc) = ((1usize << 32) + 1, (1usize << 32) + 2);
    let (m, n, k) = (2usize, 2usize, 3usize);
    for row in [false, true] {
        // Row-major C (m×n) is column-major C^T (n×m): A^T is k×m with ld lda, C^T n×m.
        let (cm, cn) = if row { (n, m) } else { (m, n) };
        let mut a = Region::new(((k - 1) * lda + m) * 4 + 4096);
        put_matrix(&mut a, 0, m, k, lda, 9);
        let b = fill(k * n, 10);
        let mut c = Region::new(((cn - 1) * ldc + cm) * 4 + 4096);
        put_matrix(&mut c, 0, cm, cn, ldc, 11);
        let (layout, ta, ldb) = if row { (101, 112, n) } else { (102, 111, k) };
        // The array at `a` is column-major m×k with ld lda (call it X). Column-major: C = X*B.
        // Row-major with TransA: A is k×m row-major, which is X, so op(A) = X and
        // C^T = B^T * X^T, with B^T the column-major n×k array at b (ld n).
        let want = if row {
            sgemm_ref(
                false,
                true,
                n,
                m,
                k,
                1.0,
                &b,
                n,
                slice(&a),
                lda,
                2.0,
                slice(&c),
                ldc,
            )
        } else {
            sgemm_ref(
                false,
                false,
                m,
                n,
                k,
                1.0,
                slice(&a),
                lda,
                &b,
                k,
                2.0,
                slice(&c),
                ldc,
            )
        };
        unsafe {
            scipy_cblas_sgemm64_(
                layout,
                ta,
                111,
                m as i64,
                n as i64,
                k as i64,
                1.0,
                a.ptr(0),
                lda as i64,
                b.as_ptr(),
                ldb as i64,
                2.0,
                c.ptr(0),
                ldc as i64,
            )
        };
        let what = format!("scipy_cblas_sgemm64_ row={row} lda=2^32+1 ldc=2^32+2");
        c.check(&sgemm_results(&want, cm, cn, k, ldc), &what);
        a.check(&Results::new(), &what);
    }
}

/// ILP64 extents beyond 64-bit arithmetic (n*inc or ld*n past 2^63) are refused, never wrapped
/// to a small extent: nothing is touched and sdot returns 0. (An increment whose byte stride
/// itself wraps is the increment it wraps to: `tests/wrapped_increments.rs`.)
#[test]
fn ilp64_extents_past_64_bits_are_refused() {
    gl_only();
    let mut x = Region::new(1 << 20);
    let mut y = Region::new(1 << 20);
    put_vector(&mut x, 0, 4, 1, 12);
    put_vector(&mut y, 0, 4, 1, 13);
    let mut c = Region::new(1 << 20);
    put_matrix(&mut c, 0, 2, 2, 2, 14);
    // (n-1)*inc wraps to 0 in 64 bits for these: a wrapped extent would be one element.
    let (n, inc) = ((1i64 << 33) + 1, 1i64 << 31);
    unsafe {
        assert_eq!(scipy_cblas_sdot64_(n, x.ptr(0), inc, y.ptr(0), 1), 0.0);
        scipy_cblas_saxpy64_(n, 1.0, x.ptr(0), 1, y.ptr(0), inc);
        scipy_cblas_scopy64_(n, x.ptr(0), inc, y.ptr(0), 1);
        scipy_cblas_sgemm64_(
            102,
            111,
            111,
            2,
            1 << 62,
            1,
            1.0,
            x.ptr(0),
            2,
            y.ptr(0),
            1,
            0.0,
            c.ptr(0),
            1 << 62,
        );
    }
    for r in [&x, &y, &c] {
        r.check(&Results::new(), "extents past 64 bits");
    }
}

/// Resident memory of this process, in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("status");
    let kb: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS");
    kb * 1024
}

/// Device allocations of more than 4 GiB and 2 GiB: a vector at a byte offset past 2^32 (or
/// 2^31) works in saxpy, sdot and copies, and one float past the end is refused; or the
/// allocation is refused with ALLOC_FAILED. Prints what happened and the memory it cost.
#[test]
fn device_allocations_past_two_and_four_gib() {
    for bytes in [4 * GIB + (1 << 20), 2 * GIB + (1 << 20)] {
        let before = rss();
        let mut d: *mut c_void = std::ptr::null_mut();
        let s = unsafe { glblasMalloc(&mut d, bytes) };
        let grown = rss().saturating_sub(before) >> 20;
        println!("glblasMalloc({bytes}): {s:?}, resident memory +{grown} MiB");
        if s == Status::AllocFailed {
            continue;
        }
        assert_eq!(s, Status::Success);
        vector_near_the_end(d, bytes);
        println!(
            "  after the calls: +{} MiB",
            rss().saturating_sub(before) >> 20
        );
        assert_eq!(glblasFree(d), Status::Success);
    }
}

/// saxpy and sdot on 1000 floats ending 4 KiB before the end of device allocation `d`.
fn vector_near_the_end(d: *mut c_void, bytes: usize) {
    let n = 1000usize;
    let at = (bytes - 4096) / 4 - n;
    let x = fill(n, 15);
    let y = fill(n, 16);
    let dy = d.cast::<f32>().wrapping_add(at);
    let mut got = vec![0.0f32; n];
    let mut dot = 0.0f32;
    unsafe {
        assert_eq!(
            glblasMemcpy(dy.cast(), y.as_ptr().cast(), n * 4, MemcpyKindArg(1)),
            Status::Success
        );
        assert_eq!(
            glblasSaxpy(n as i32, 3.0, x.as_ptr(), 1, dy, 1),
            Status::Success
        );
        assert_eq!(
            glblasSdot(n as i32, x.as_ptr(), 1, dy, 1, &mut dot),
            Status::Success
        );
        assert_eq!(
            glblasMemcpy(got.as_mut_ptr().cast(), dy.cast(), n * 4, MemcpyKindArg(2)),
            Status::Success
        );
        // The operand one float past the end is refused.
        let end = d.cast::<f32>().wrapping_add(bytes / 4 - n + 1);
        assert_eq!(
            glblasSaxpy(n as i32, 1.0, x.as_ptr(), 1, end, 1),
            Status::InvalidValue
        );
    }
    let mut want = y.clone();
    common::saxpy_ref(n, 3.0, &x, 1, &mut want, 1);
    let terms: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(a, b)| 3.0 * f64::from(a.abs()) + f64::from(b.abs()))
        .collect();
    common::assert_saxpy(&got, &want, &terms);
    common::assert_sdot(dot, &x, 1, &got, 1, n);
}

/// cblas_ssyrk with lda and ldc of 2^31 - 1 (A and C span 8 and 16 GiB), both triangles and
/// both operations: only C's triangle changes.
#[test]
fn ssyrk_with_leading_dimensions_near_i32_max() {
    gl_only();
    let ld = i32::MAX as usize;
    let (n, k) = (3usize, 2usize);
    for (upper, trans) in [(true, false), (false, true)] {
        let (ra, ca) = if trans { (k, n) } else { (n, k) };
        let mut a = Region::new(((ca - 1) * ld + ra) * 4);
        put_matrix(&mut a, 0, ra, ca, ld, 17);
        let mut c = Region::new(((n - 1) * ld + n) * 4 + 4096);
        put_matrix(&mut c, 0, n, n, ld, 18);
        // op(A)op(A)^T is gemm of op(A) and its transpose.
        let (sa, sc) = (slice(&a), slice(&c));
        let want = sgemm_ref(trans, !trans, n, n, k, 1.5, sa, ld, sa, ld, -0.5, sc, ld);
        let (uplo, op) = (if upper { 121 } else { 122 }, if trans { 112 } else { 111 });
        unsafe {
            cblas_ssyrk(
                102,
                uplo,
                op,
                n as i32,
                k as i32,
                1.5,
                a.ptr(0),
                ld as i32,
                -0.5,
                c.ptr(0),
                ld as i32,
            )
        };
        let what = format!("cblas_ssyrk upper={upper} trans={trans} lda=ldc=2^31-1");
        let mut results = sgemm_results(&want, n, n, k, ld);
        results.retain(|&e, _| {
            let (i, j) = (e % ld, e / ld);
            if upper {
                i <= j
            } else {
                i >= j
            }
        });
        c.check(&results, &what);
        a.check(&Results::new(), &what);
    }
}

/// cblas_strsm with lda and ldb of 2^31 - 1 (A and B span 8 GiB or more), A on the left
/// (column-major) and on the right (row-major, which is the left of the column-major call).
#[test]
fn strsm_with_leading_dimensions_near_i32_max() {
    gl_only();
    let ld = i32::MAX as usize;
    let (m, n) = (3usize, 2usize);
    for row in [false, true] {
        // Column-major: A X = alpha B, A lower, m×m. Row-major with side Right, uplo Upper,
        // M = n and N = m is that same column-major call (side and uplo swapped, M and N
        // exchanged) on the same stored arrays.
        let mut a = Region::new(((m - 1) * ld + m) * 4);
        put_matrix(&mut a, 0, m, m, ld, 19);
        for i in 0..m {
            // Diagonally dominant: well conditioned.
            let v = a.get(i + i * ld);
            a.set(i + i * ld, (m as f32 + 1.0 + v.abs()).copysign(v));
        }
        let mut b = Region::new(((n - 1) * ld + m) * 4 + 4096);
        put_matrix(&mut b, 0, m, n, ld, 20);
        let alpha = 2.0f32;
        let s: Vec<f64> = (0..m * m)
            .map(|e| {
                let (i, j) = (e % m, e / m);
                if i >= j {
                    f64::from(a.get(i + j * ld))
                } else {
                    0.0
                }
            })
            .collect();
        let mut results = Results::new();
        for j in 0..n {
            let rhs: Vec<f64> = (0..m)
                .map(|i| f64::from(alpha) * f64::from(b.get(i + j * ld)))
                .collect();
            let (x, bound) = common::solve_with_bound(&s, m, false, &rhs);
            for i in 0..m {
                let tol = (common::trsm_terms(m) as f64 + 2.0) * EPS * bound[i] + 1e-38;
                results.insert(i + j * ld, (x[i], tol));
            }
        }
        let (layout, side, uplo, rows, cols) = if row {
            (101, 142, 121, n, m)
        } else {
            (102, 141, 122, m, n)
        };
        unsafe {
            cblas_strsm(
                layout,
                side,
                uplo,
                111,
                131,
                rows as i32,
                cols as i32,
                alpha,
                a.ptr(0),
                ld as i32,
                b.ptr(0),
                ld as i32,
            )
        };
        let what = format!("cblas_strsm row={row} lda=ldb=2^31-1");
        b.check(&results, &what);
        a.check(&Results::new(), &what);
    }
}

/// ILP64 strmm with leading dimensions beyond 32 bits (2^32 + 1 and 2^32 + 2, truncated 1 and
/// 2): B := alpha op(A) B in place, A upper with a unit diagonal (never read: NaN there).
#[test]
fn ilp64_strmm_with_leading_dimensions_past_u32() {
    gl_only();
    let (lda, ldb) = ((1usize << 32) + 1, (1usize << 32) + 2);
    let (m, n) = (3usize, 2usize);
    for trans in [false, true] {
        let mut a = Region::new(((m - 1) * lda + m) * 4 + 4096);
        put_matrix(&mut a, 0, m, m, lda, 21);
        for i in 0..m {
            a.set(i + i * lda, f32::NAN);
        }
        let mut b = Region::new(((n - 1) * ldb + m) * 4 + 4096);
        put_matrix(&mut b, 0, m, n, ldb, 22);
        // op(A) in full: the upper triangle of A, ones on the diagonal, zeros below.
        let full: Vec<f32> = (0..m * m)
            .map(|e| match (e % m, e / m) {
                (i, j) if i == j => 1.0,
                (i, j) if i < j => a.get(i + j * lda),
                _ => 0.0,
            })
            .collect();
        let want = sgemm_ref(
            trans,
            false,
            m,
            n,
            m,
            -1.5,
            &full,
            m,
            slice(&b),
            ldb,
            0.0,
            &[],
            1,
        );
        unsafe {
            scipy_cblas_strmm64_(
                102,
                141,
                121,
                if trans { 112 } else { 111 },
                132,
                m as i64,
                n as i64,
                -1.5,
                a.ptr(0),
                lda as i64,
                b.ptr(0),
                ldb as i64,
            )
        };
        let what = format!("scipy_cblas_strmm64_ trans={trans} lda=2^32+1 ldb=2^32+2");
        b.check(&sgemm_results(&want, m, n, m, ldb), &what);
        a.check(&Results::new(), &what);
    }
}

type Cz<R> = Complex<R>;

/// Floats (4 bytes) per complex element of precision R.
fn floats<R: Real>() -> usize {
    2 * std::mem::size_of::<R>() / 4
}

/// The precision's letter, for messages.
fn letter<R: Real>() -> char {
    if floats::<R>() == 2 {
        'c'
    } else {
        'z'
    }
}

/// Whether the device computes complex precision R (the compute pipeline, and fp64 for z);
/// else NOT_SUPPORTED.
fn complex_here<R: Real>() -> bool {
    glblas::kernels::pipeline() == Some("compute") && (floats::<R>() == 2 || common::doubles_here())
}

/// A complex call's status.
fn status(r: glblas::status::Result<()>) -> Status {
    r.err().map_or(Status::Success, |e| e.status)
}

/// Complex element `e` of region `r` := `v`, recorded as expected there (`write`), or only
/// expected there (a result).
fn put_complex<R: Real>(r: &mut Region, e: usize, v: Cz<f64>, write: bool) {
    let words: Vec<u32> = if floats::<R>() == 2 {
        vec![(v.re as f32).to_bits(), (v.im as f32).to_bits()]
    } else {
        let (re, im) = (v.re.to_bits(), v.im.to_bits());
        vec![re as u32, (re >> 32) as u32, im as u32, (im >> 32) as u32]
    };
    for (q, w) in words.into_iter().enumerate() {
        let i = e * floats::<R>() + q;
        if write {
            r.set(i, f32::from_bits(w));
        } else {
            r.expected.insert(i, f32::from_bits(w));
        }
    }
}

fn complex_ptr<R: Real>(r: &Region, e: usize) -> *mut Cz<R> {
    r.ptr(e * floats::<R>()).cast()
}

fn cz(re: f64, im: f64) -> Cz<f64> {
    Cz { re, im }
}

fn cmul(a: Cz<f64>, b: Cz<f64>) -> Cz<f64> {
    cz(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

fn cadd(a: Cz<f64>, b: Cz<f64>) -> Cz<f64> {
    cz(a.re + b.re, a.im + b.im)
}

/// Small complex integers: every product and sum the tests compute is exact in either
/// precision, so glblas's results must equal the exact ones bit for bit.
fn small(r: &mut Rng) -> Cz<f64> {
    cz(r.range(-3, 3) as f64, r.range(-3, 3) as f64)
}

/// A scalar's value in precision R.
fn scalar<R: Real>(v: Cz<f64>) -> Cz<R> {
    Cz {
        re: R::from_f64(v.re),
        im: R::from_f64(v.im),
    }
}

/// cgemm and zgemm (the routine behind every interface) with lda and ldc of 2^31 - 1 complex
/// elements (A and C span 16 and 32 GiB: an element's offset in reals passes 2^32), A in each
/// operation N, T and C. Where the device does not compute the precision: NOT_SUPPORTED,
/// nothing touched.
#[test]
fn complex_gemm_with_leading_dimensions_near_i32_max() {
    complex_gemm::<f32>();
    complex_gemm::<f64>();
}

fn complex_gemm<R: Real>() {
    let ld = i32::MAX as usize;
    let (m, n, k) = (3usize, 2usize, 2usize);
    let mut rng = Rng(41);
    let (alpha, beta) = (cz(1.0, -2.0), cz(-1.0, 1.0));
    for ta in 0..3 {
        let (ra, ca) = if ta == 0 { (m, k) } else { (k, m) };
        let bytes = |rows: usize, cols: usize| ((cols - 1) * ld + rows) * floats::<R>() * 4;
        let mut a = Region::new(bytes(ra, ca) + 4096);
        let mut c = Region::new(bytes(m, n) + 4096);
        let mut av = vec![cz(0.0, 0.0); ra * ca];
        for j in 0..ca {
            for i in 0..ra {
                av[i + j * ra] = small(&mut rng);
                put_complex::<R>(&mut a, i + j * ld, av[i + j * ra], true);
            }
        }
        let bv: Vec<Cz<f64>> = (0..k * n).map(|_| small(&mut rng)).collect();
        let b: Vec<Cz<R>> = bv.iter().map(|&v| scalar(v)).collect();
        let mut want = vec![cz(0.0, 0.0); m * n];
        for j in 0..n {
            for i in 0..m {
                let c0 = small(&mut rng);
                put_complex::<R>(&mut c, i + j * ld, c0, true);
                let mut s = cz(0.0, 0.0);
                for l in 0..k {
                    let e = match ta {
                        0 => av[i + l * ra],
                        1 => av[l + i * ra],
                        _ => cz(av[l + i * ra].re, -av[l + i * ra].im),
                    };
                    s = cadd(s, cmul(e, bv[l + j * k]));
                }
                want[i + j * m] = cadd(cmul(alpha, s), cmul(beta, c0));
            }
        }
        let what = format!("{}gemm ta={ta} lda=ldc=2^31-1", letter::<R>());
        let (al, be) = (scalar::<R>(alpha), scalar::<R>(beta));
        let s = status(unsafe {
            routines::gemm(
                [Trans::N, Trans::T, Trans::C][ta],
                Trans::N,
                m as i64,
                n as i64,
                k as i64,
                al,
                complex_ptr::<R>(&a, 0),
                ld as i64,
                b.as_ptr(),
                k as i64,
                be,
                complex_ptr::<R>(&c, 0),
                ld as i64,
            )
        });
        if !complex_here::<R>() {
            assert_eq!(s, Status::NotSupported, "{what}");
        } else {
            assert_eq!(s, Status::Success, "{what}");
            for j in 0..n {
                for i in 0..m {
                    put_complex::<R>(&mut c, i + j * ld, want[i + j * m], false);
                }
            }
        }
        c.check(&Results::new(), &what);
        a.check(&Results::new(), &what);
    }
}

/// cgemv and zgemv with lda = 2^31 - 1 and x, y at increments of ∓2^30 complex elements, each
/// operation; then caxpy/zaxpy and cdotc/zdotc with increments of ±(2^32 + 1), as the ILP64
/// names pass them.
#[test]
fn complex_gemv_and_level1_with_increments_past_32_bits() {
    complex_vectors::<f32>();
    complex_vectors::<f64>();
}

fn complex_vectors<R: Real>() {
    let w = floats::<R>();
    let ld = i32::MAX as usize;
    let (m, n) = (3usize, 2usize);
    let (incx, incy) = (-(1i64 << 30), 1i64 << 30);
    let mut rng = Rng(43);
    let (alpha, beta) = (cz(2.0, 1.0), cz(0.0, -1.0));
    let vector = |rng: &mut Rng, r: &mut Region, len: usize, inc: i64| -> Vec<Cz<f64>> {
        (0..len)
            .map(|i| {
                let v = small(rng);
                put_complex::<R>(r, idx(i, len, inc), v, true);
                v
            })
            .collect()
    };
    for t in 0..3 {
        let (lenx, leny) = if t == 0 { (n, m) } else { (m, n) };
        let mut a = Region::new(((n - 1) * ld + m) * w * 4 + 4096);
        let mut av = vec![cz(0.0, 0.0); m * n];
        for j in 0..n {
            for i in 0..m {
                av[i + j * m] = small(&mut rng);
                put_complex::<R>(&mut a, i + j * ld, av[i + j * m], true);
            }
        }
        let mut xr = Region::new((lenx - 1) * (1 << 30) * w * 4 + 4096);
        let xv = vector(&mut rng, &mut xr, lenx, incx);
        let mut yr = Region::new((leny - 1) * (1 << 30) * w * 4 + 4096);
        let yv = vector(&mut rng, &mut yr, leny, incy);
        let (al, be) = (scalar::<R>(alpha), scalar::<R>(beta));
        let what = format!(
            "{}gemv t={t} lda=2^31-1 incx=-2^30 incy=2^30",
            letter::<R>()
        );
        let s = status(unsafe {
            routines::gemv(
                (t > 0, t == 2),
                m as i64,
                n as i64,
                al,
                complex_ptr::<R>(&a, 0),
                ld as i64,
                complex_ptr::<R>(&xr, 0),
                incx,
                be,
                complex_ptr::<R>(&yr, 0),
                incy,
            )
        });
        if !complex_here::<R>() {
            assert_eq!(s, Status::NotSupported, "{what}");
        } else {
            assert_eq!(s, Status::Success, "{what}");
            for (i, &y0) in yv.iter().enumerate() {
                let mut s = cz(0.0, 0.0);
                for (l, &xl) in xv.iter().enumerate() {
                    let e = match t {
                        0 => av[i + l * m],
                        1 => av[l + i * m],
                        _ => cz(av[l + i * m].re, -av[l + i * m].im),
                    };
                    s = cadd(s, cmul(e, xl));
                }
                let v = cadd(cmul(alpha, s), cmul(beta, y0));
                put_complex::<R>(&mut yr, idx(i, leny, incy), v, false);
            }
        }
        for r in [&a, &xr, &yr] {
            r.check(&Results::new(), &what);
        }
    }
    // axpy and dotc with increments past 32 bits, as the ILP64 names pass them.
    let len = 3usize;
    let (incx, incy) = ((1i64 << 32) + 1, -(1i64 << 32) - 1);
    let bytes = (len - 1) * ((1usize << 32) + 1) * w * 4 + 4096;
    let (mut xr, mut yr) = (Region::new(bytes), Region::new(bytes));
    let xv = vector(&mut rng, &mut xr, len, incx);
    let yv = vector(&mut rng, &mut yr, len, incy);
    let al = scalar::<R>(alpha);
    let mut dot = scalar::<R>(cz(7.0, 7.0));
    let (xp, yp) = (complex_ptr::<R>(&xr, 0), complex_ptr::<R>(&yr, 0));
    let statuses = unsafe {
        [
            status(routines::dotc(len as i64, xp, incx, yp, incy, &mut dot)),
            status(routines::axpy(len as i64, al, xp, incx, yp, incy)),
        ]
    };
    let what = format!("{0}dotc, {0}axpy incx=2^32+1 incy=-2^32-1", letter::<R>());
    if !complex_here::<R>() {
        assert_eq!(statuses, [Status::NotSupported; 2], "{what}");
    } else {
        assert_eq!(statuses, [Status::Success; 2], "{what}");
        let mut want = cz(0.0, 0.0);
        for i in 0..len {
            want = cadd(want, cmul(cz(xv[i].re, -xv[i].im), yv[i]));
            let v = cadd(cmul(alpha, xv[i]), yv[i]);
            put_complex::<R>(&mut yr, idx(i, len, incy), v, false);
        }
        assert_eq!(
            [dot.re.to_f64(), dot.im.to_f64()],
            [want.re, want.im],
            "{what}"
        );
    }
    xr.check(&Results::new(), &what);
    yr.check(&Results::new(), &what);
}
