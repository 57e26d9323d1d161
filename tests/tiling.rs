//! The tiled paths that large operands take, exercised on small ones: this process lowers the
//! engine's limits (GLBLAS_LIMIT_WINDOW elements per operand window, GLBLAS_LIMIT_TARGET_SIDE
//! for render targets) before the first call, so vectors are cut into chunks, reductions take
//! several passes, sgemm and the Level 3 routines beyond it are cut into tiles of C and chunks of
//! k (on the fragment pipeline), and dgemm into chunks of k whose panels fit a window.

mod common;

use std::sync::Once;

use common::*;
use glblas::api::*;
use glblas::ffi::{DiagArg, FillArg, OperationArg as Op, SideArg};
use glblas::status::Status;

const WINDOW: usize = 1000;
const SIDE: usize = 16;

fn small_limits() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::env::set_var("GLBLAS_LIMIT_WINDOW", WINDOW.to_string());
        std::env::set_var("GLBLAS_LIMIT_TARGET_SIDE", SIDE.to_string());
        assert_eq!(glblasShutdown(), Status::Success);
    });
}

#[test]
fn saxpy_in_chunks() {
    small_limits();
    let n = 3001; // > WINDOW and > SIDE²: chunks of both kinds, with a ragged last one
    for (incx, incy) in [(1, 1), (3, -2), (-1, 5)] {
        let x = fill(span(n, incx), 1);
        let y0 = fill(span(n, incy), 2);
        let mut want = y0.clone();
        saxpy_ref(n, -0.5, &x, incx, &mut want, incy);
        let terms: Vec<f64> = y0.iter().map(|v| (v.abs() + 0.5) as f64).collect();
        let mut yh = y0.clone();
        let (xd, yd) = (Dev::new(&x), Dev::new(&y0));
        unsafe {
            assert_eq!(
                glblasSaxpy(n as i32, -0.5, x.as_ptr(), incx, yh.as_mut_ptr(), incy),
                Status::Success
            );
            assert_eq!(
                glblasSaxpy(n as i32, -0.5, xd.f(), incx, yd.f(), incy),
                Status::Success
            );
        }
        assert_saxpy(&yh, &want, &terms);
        assert_saxpy(&yd.get(y0.len()), &want, &terms);
    }
}

#[test]
fn sdot_in_chunks_and_passes() {
    small_limits();
    for n in [900usize, 5003] {
        for (incx, incy) in [(1, 1), (2, -1)] {
            let x = fill(span(n, incx), 3);
            let y = fill(span(n, incy), 4);
            let (xd, rd) = (Dev::new(&x), Dev::new(&[0.0]));
            let mut r = 0.0f32;
            unsafe {
                assert_eq!(
                    glblasSdot(n as i32, x.as_ptr(), incx, y.as_ptr(), incy, &mut r),
                    Status::Success
                );
                assert_sdot(r, &x, incx, &y, incy, n);
                assert_eq!(
                    glblasSdot(n as i32, xd.f(), incx, y.as_ptr(), incy, rd.f()),
                    Status::Success
                );
                assert_sdot(rd.get(1)[0], &x, incx, &y, incy, n);
            }
        }
    }
}

#[test]
fn sgemm_in_tiles_and_k_chunks() {
    small_limits();
    let (m, n, k) = (41usize, 35usize, 70usize);
    for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
        let (ar, ac) = if ta { (k, m) } else { (m, k) };
        let (br, bc) = if tb { (n, k) } else { (k, n) };
        let (lda, ldb, ldc) = (ar + 3, br, m + 2);
        let a = fill(lda * ac, 5);
        let b = fill(ldb * bc, 6);
        for beta in [0.0f32, 0.75] {
            let mut c0 = fill(ldc * n, 7);
            if beta == 0.0 {
                c0.iter_mut().for_each(|v| *v = f32::NAN);
            }
            let want = sgemm_ref(ta, tb, m, n, k, 1.5, &a, lda, &b, ldb, beta, &c0, ldc);
            let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
            let mut ch = c0.clone();
            let (opa, opb) = (Op(ta as i32), Op(tb as i32));
            unsafe {
                let s = glblasSgemm(
                    opa,
                    opb,
                    m as i32,
                    n as i32,
                    k as i32,
                    1.5,
                    a.as_ptr(),
                    lda as i32,
                    b.as_ptr(),
                    ldb as i32,
                    beta,
                    ch.as_mut_ptr(),
                    ldc as i32,
                );
                assert_eq!(s, Status::Success);
                let s = glblasSgemm(
                    opa,
                    opb,
                    m as i32,
                    n as i32,
                    k as i32,
                    1.5,
                    ad.f(),
                    lda as i32,
                    bd.f(),
                    ldb as i32,
                    beta,
                    cd.f(),
                    ldc as i32,
                );
                assert_eq!(s, Status::Success);
            }
            for got in [ch, cd.get(c0.len())] {
                assert_sgemm(&got, ldc, m, n, k, &want);
                for j in 0..n {
                    let pad = &got[j * ldc + m..(j + 1) * ldc];
                    assert!(pad
                        .iter()
                        .zip(&c0[j * ldc + m..(j + 1) * ldc])
                        .all(|(g, w)| g.to_bits() == w.to_bits()));
                }
            }
        }
    }
}

#[test]
fn dgemm_in_chunks_of_k() {
    small_limits();
    if !doubles_here() {
        return;
    }
    // Each operand within one window, but not both panels of all of k: op(A)'s panel's columns
    // are m padded to 16, op(B)'s n padded to 8 (dgemm's 16×8 blocks on a software
    // rasterizer; 8 and 8 elsewhere), so a chunk of the first call takes 1000 / 32 = 31 steps
    // of k (2 chunks, the last of 2 steps), and of the second 1000 / 64 = 15 (2 chunks, the last
    // of 1).
    for (m, n, k) in [(20usize, 30usize, 33usize), (60, 9, 16)] {
        for (ta, tb) in [(false, false), (true, true)] {
            let (ar, ac) = if ta { (k, m) } else { (m, k) };
            let (br, bc) = if tb { (n, k) } else { (k, n) };
            let a = fill64(ar * ac, 31);
            let b = fill64(br * bc, 32);
            let c0 = fill64(m * n, 33);
            let want = dgemm_ref((ta, tb), (m, n, k), 1.5, (&a, ar), (&b, br), -0.5, (&c0, m));
            let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
            let s = unsafe {
                glblasDgemm(
                    Op(ta as i32),
                    Op(tb as i32),
                    m as i32,
                    n as i32,
                    k as i32,
                    1.5,
                    ad.d(),
                    ar as i32,
                    bd.d(),
                    br as i32,
                    -0.5,
                    cd.d(),
                    m as i32,
                )
            };
            assert_eq!(s, Status::Success, "m={m} n={n} k={k}");
            assert_dgemm(&cd.get_as::<f64>(m * n), m, (m, n, k), &want);
        }
    }
}

#[test]
fn sgemv_in_chunks_of_y_and_of_the_inner_dimension() {
    small_limits();
    let (m, n) = (300usize, 70usize);
    for trans in [false, true] {
        let (lenx, leny) = if trans { (m, n) } else { (n, m) };
        for (incx, incy) in [(1, 1), (3, -2)] {
            let lda = m + 5;
            let a = fill(lda * n, 8);
            let x = fill(span(lenx, incx), 9);
            let y0 = fill(span(leny, incy), 10);
            let want = sgemv_ref(trans, m, n, 1.25, &a, lda, &x, incx, 0.5, &y0, incy);
            let (ad, yd) = (Dev::new(&a), Dev::new(&y0));
            let mut yh = y0.clone();
            let op = Op(trans as i32);
            unsafe {
                let s = glblasSgemv(
                    op,
                    m as i32,
                    n as i32,
                    1.25,
                    a.as_ptr(),
                    lda as i32,
                    x.as_ptr(),
                    incx,
                    0.5,
                    yh.as_mut_ptr(),
                    incy,
                );
                assert_eq!(s, Status::Success);
                let s = glblasSgemv(
                    op,
                    m as i32,
                    n as i32,
                    1.25,
                    ad.f(),
                    lda as i32,
                    x.as_ptr(),
                    incx,
                    0.5,
                    yd.f(),
                    incy,
                );
                assert_eq!(s, Status::Success);
            }
            assert_sgemv(&yh, &y0, leny, incy, lenx, &want);
            assert_sgemv(&yd.get(y0.len()), &y0, leny, incy, lenx, &want);
        }
    }
}

#[test]
fn copy_swap_scal_and_asum_in_chunks() {
    small_limits();
    let n = 2500;
    let x0 = fill(span(n, 2), 11);
    let y0 = fill(span(n, -3), 12);
    let (xd, yd) = (Dev::new(&x0), Dev::new(&y0));
    let mut r = 0.0f32;
    unsafe {
        assert_eq!(
            glblasSswap(n as i32, xd.f(), 2, yd.f(), -3),
            Status::Success
        );
        assert_eq!(
            glblasScopy(n as i32, yd.f(), -3, xd.f(), 2),
            Status::Success
        );
        assert_eq!(glblasSscal(n as i32, 2.0, xd.f(), 2), Status::Success);
        assert_eq!(glblasSasum(n as i32, xd.f(), 2, &mut r), Status::Success);
    }
    // After the swap y holds x0's elements and x y0's; the copy puts them back into x; scaling
    // by 2 is exact.
    let (mut wx, mut wy) = (x0.clone(), y0.clone());
    for i in 0..n {
        std::mem::swap(&mut wx[idx(i, n, 2)], &mut wy[idx(i, n, -3)]);
    }
    for i in 0..n {
        wx[idx(i, n, 2)] = 2.0 * wy[idx(i, n, -3)];
    }
    assert_eq!(xd.get(x0.len()), wx);
    assert_eq!(yd.get(y0.len()), wy);
    let exact: f64 = (0..n).map(|i| (wx[i * 2] as f64).abs()).sum();
    assert!((r as f64 - exact).abs() <= n as f64 * EPS * exact);
}

/// snrm2 and isamax over several windows (and dnrm2 and idamax where the device computes in
/// double): ties and a NaN at the first element of a later chunk (which must not count as the
/// call's first element), the largest magnitude in the last chunk, huge and tiny values.
#[test]
fn nrm2_and_iamax_in_chunks() {
    small_limits();
    let n = 3001;
    let doubles = glblas::kernels::pipeline() == Some("compute")
        && glblas::engine::device_info().is_some_and(|i| i.fp64);
    for inc in [1i32, 2] {
        let mut x = fill(span(n, inc), 4);
        let at = |i: usize| idx(i, n, inc);
        // Ties of 2.5 in the first and third chunks, a NaN starting the second.
        x[at(10)] = -2.5;
        x[at(2500)] = 2.5;
        x[at(WINDOW)] = f32::NAN;
        let mut cases = vec![(x.clone(), 11)];
        // The largest in the last chunk.
        x[at(WINDOW)] = 0.5;
        x[at(n - 1)] = 1e30;
        x[at(1)] = 1e-40;
        cases.push((x.clone(), n as i32));
        for (x, want_index) in cases {
            let vals: Vec<f64> = (0..n).map(|i| f64::from(x[at(i)])).collect();
            let want = if vals.iter().any(|v| v.is_nan()) {
                f64::NAN
            } else {
                let m = vals.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                m * vals.iter().map(|v| (v / m) * (v / m)).sum::<f64>().sqrt()
            };
            let dev = Dev::new(&x);
            for xp in [x.as_ptr(), dev.f().cast_const()] {
                let (mut r, mut i) = (0.0f32, 0);
                unsafe {
                    assert_eq!(glblasSnrm2(n as i32, xp, inc, &mut r), Status::Success);
                    assert_eq!(glblasIsamax(n as i32, xp, inc, &mut i), Status::Success);
                }
                assert_eq!(i, want_index, "isamax inc={inc}");
                if want.is_nan() {
                    assert!(r.is_nan(), "snrm2 inc={inc}: {r}");
                } else {
                    let tol = (n as f64 / 2.0 + 3.0) * EPS * want;
                    assert!((f64::from(r) - want).abs() <= tol, "snrm2 {r} vs {want}");
                }
            }
            if doubles {
                let xd: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
                let (mut r, mut i) = (0.0f64, 0);
                unsafe {
                    assert_eq!(
                        glblasDnrm2(n as i32, xd.as_ptr(), inc, &mut r),
                        Status::Success
                    );
                    assert_eq!(
                        glblasIdamax(n as i32, xd.as_ptr(), inc, &mut i),
                        Status::Success
                    );
                }
                assert_eq!(i, want_index, "idamax inc={inc}");
                assert!(
                    (want.is_nan() && r.is_nan()) || (r - want).abs() <= 1e-12 * want,
                    "dnrm2 {r} vs {want}"
                );
            }
        }
    }
}

/// op(A) of a Level 3 routine as the dense `order`×`order` matrix it stands for: from the
/// stored triangle (`upper`, else lower) of `a` (ld `lda`), mirrored when `symmetric`, else
/// triangular (zeros outside, ones on a `unit` diagonal), transposed when `trans`.
fn full_op(a: &[f32], lda: usize, order: usize, shape: (bool, bool, bool, bool)) -> Vec<f64> {
    let (symmetric, upper, trans, unit) = shape;
    let mut full = vec![0.0; order * order];
    for j in 0..order {
        for i in 0..order {
            let stored = if upper { i <= j } else { i >= j };
            let v = match (stored, symmetric) {
                (true, _) if i == j && unit && !symmetric => 1.0,
                (true, _) => a[i + j * lda] as f64,
                (false, true) => a[j + i * lda] as f64,
                (false, false) => 0.0,
            };
            let (r, c) = if trans { (j, i) } else { (i, j) };
            full[r + c * order] = v;
        }
    }
    full
}

/// x (rows×inner) times y (inner×cols), both dense, and |x||y|.
fn product(
    x: &[f64],
    y: &[f64],
    (rows, inner, cols): (usize, usize, usize),
) -> (Vec<f64>, Vec<f64>) {
    let (mut v, mut s) = (vec![0.0; rows * cols], vec![0.0; rows * cols]);
    for j in 0..cols {
        for i in 0..rows {
            for l in 0..inner {
                let t = x[i + l * rows] * y[l + j * inner];
                v[i + j * rows] += t;
                s[i + j * rows] += t.abs();
            }
        }
    }
    (v, s)
}

/// 1.5·(the product, its error scale) + 0.5·`c`: the tests' alpha and beta.
fn plus_c((want, scale): (Vec<f64>, Vec<f64>), c: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let want = want.iter().zip(c).map(|(w, c)| 1.5 * w + 0.5 * c);
    let scale = scale.iter().zip(c).map(|(s, c)| 1.5 * s + 0.5 * c.abs());
    (want.collect(), scale.collect())
}

/// Where operand `host` lives for a call: itself, or its copy `dev` on the device.
fn at(host: &[f32], dev: &Dev, device: bool) -> *mut f32 {
    if device {
        dev.f()
    } else {
        host.as_ptr().cast_mut()
    }
}

/// op(A)·X (X m×n, op(A) m×m), or X·op(A) when `right` (op(A) n×n), and its error scale.
fn times_a(a: &[f64], x: &[f64], right: bool, (m, n): (usize, usize)) -> (Vec<f64>, Vec<f64>) {
    if right {
        product(x, a, (m, n, n))
    } else {
        product(a, x, (m, m, n))
    }
}

/// The dense rows×cols matrix stored in `m` (ld `ld`).
fn dense(m: &[f32], ld: usize, rows: usize, cols: usize) -> Vec<f64> {
    (0..rows * cols)
        .map(|e| m[e % rows + e / rows * ld] as f64)
        .collect()
}

/// A Level 3 call's output `got` (ld `ld`, rows×cols, `before` it was called): where `writes`,
/// within `terms`·u of `scale` from `want` (dense), elsewhere (padding rows, the other triangle)
/// bit-identical to `before`.
#[allow(clippy::too_many_arguments)]
fn assert_level3(
    what: &str,
    got: &[f32],
    before: &[f32],
    (ld, rows, cols): (usize, usize, usize),
    (want, scale): (&[f64], &[f64]),
    terms: f64,
    writes: impl Fn(usize, usize) -> bool,
) {
    for (e, (&g, &b)) in got.iter().zip(before).enumerate() {
        let (i, j) = (e % ld, e / ld);
        if i < rows && j < cols && writes(i, j) {
            let (w, tol) = (want[i + j * rows], terms * EPS * scale[i + j * rows]);
            assert!(
                (g as f64 - w).abs() <= tol,
                "{what}: ({i},{j}) got {g}, want {w}, tol {tol:e}"
            );
        } else {
            assert_eq!(g.to_bits(), b.to_bits(), "{what}: ({i},{j}) written");
        }
    }
}

/// `data` in host memory, or in device memory (`device`), for one call: its pointer, then what
/// the call left there.
fn placed(data: &[f32], device: bool, call: impl FnOnce(*mut f32) -> Status) -> Vec<f32> {
    let mut host = data.to_vec();
    let dev = device.then(|| Dev::new(data));
    let s = call(dev.as_ref().map_or(host.as_mut_ptr(), |d| d.f()));
    assert_eq!(s, Status::Success);
    dev.map_or(host, |d| d.get(data.len()))
}

/// The Level 3 routines beyond gemm with C cut into tiles (16 a side, 2 by 2 here) and k into
/// chunks of 16 on the fragment pipeline, the compute one taking the same calls in one pass:
/// the symmetric or triangular operand is read whole (mirror elements of a tile's part lie in
/// other tiles), trmm's and trsm's B (operand and output) as it was before any tile was
/// stored, and syrk's and syr2k's triangle of C written alone, tiles across its diagonal
/// included; host and device operands. The unstored triangle and a unit diagonal hold NaN.
#[test]
fn level3_in_tiles_and_k_chunks() {
    small_limits();
    // A 30×30 with ld 31: 929 elements of a 1000-element window.
    let (order, other) = (30usize, 27usize);
    let nan = f32::NAN;
    let stored = |upper: bool, unit: bool, dominant: bool, seed: u64| -> Vec<f32> {
        let mut a = fill((order + 1) * order, seed);
        for j in 0..order {
            for i in 0..order + 1 {
                let inside = i < order && if upper { i <= j } else { i >= j };
                let v = &mut a[i + j * (order + 1)];
                if !inside || (i == j && unit) {
                    *v = nan;
                } else if i == j && dominant {
                    *v = 2.0 + v.abs();
                } else if dominant {
                    *v /= order as f32;
                }
            }
        }
        a
    };
    let lda = order + 1;
    for device in [false, true] {
        // symm: C := 1.5·A·B + 0.5·C (left, lower) and 1.5·B·A + 0.5·C (right, upper).
        for (right, upper) in [(false, false), (true, true)] {
            let (m, n) = if right {
                (other, order)
            } else {
                (order, other)
            };
            let a = stored(upper, false, false, 1);
            let (b, c) = (fill((m + 1) * n, 2), fill((m + 1) * n, 3));
            let a_full = full_op(&a, lda, order, (true, upper, false, false));
            let bd = dense(&b, m + 1, m, n);
            let ab = times_a(&a_full, &bd, right, (m, n));
            let (want, scale) = plus_c(ab, &dense(&c, m + 1, m, n));
            let (ad, bdev) = (Dev::new(&a), Dev::new(&b));
            let got = placed(&c, device, |cp| unsafe {
                let (ap, bp) = (at(&a, &ad, device), at(&b, &bdev, device));
                glblasSsymm(
                    SideArg(right as i32),
                    FillArg(upper as i32),
                    m as i32,
                    n as i32,
                    1.5,
                    ap,
                    lda as i32,
                    bp,
                    m as i32 + 1,
                    0.5,
                    cp,
                    m as i32 + 1,
                )
            });
            let what = format!("ssymm right={right} device={device}");
            assert_level3(
                &what,
                &got,
                &c,
                (m + 1, m, n),
                (&want, &scale),
                order as f64 + 2.0,
                |_, _| true,
            );
        }
        // syrk and syr2k: C := 1.5·op(A)·op(A)^T + 0.5·C, or with op(B), one triangle of C.
        for (two, upper, trans) in [
            (false, false, false),
            (false, true, true),
            (true, false, true),
        ] {
            let (n, k) = (order, order - 1);
            let (rows, cols) = if trans { (k, n) } else { (n, k) };
            let (a, b) = (fill((rows + 1) * cols, 4), fill((rows + 1) * cols, 5));
            let c = fill((n + 1) * n, 6);
            // op(X) of stored X, dense n×k, and its transpose.
            let op = |x: &[f32]| -> (Vec<f64>, Vec<f64>) {
                let d = dense(x, rows + 1, rows, cols);
                let t: Vec<f64> = (0..rows * cols)
                    .map(|e| d[e / cols + e % cols * rows])
                    .collect();
                if trans {
                    (t, d)
                } else {
                    (d, t)
                }
            };
            let ((oa, oat), (ob, obt)) = (op(&a), op(&b));
            let (mut ab, mut scale) = product(&oa, if two { &obt } else { &oat }, (n, k, n));
            if two {
                let (v, s) = product(&ob, &oat, (n, k, n));
                ab.iter_mut().zip(v).for_each(|(w, v)| *w += v);
                scale.iter_mut().zip(s).for_each(|(w, s)| *w += s);
            }
            let (want, scale) = plus_c((ab, scale), &dense(&c, n + 1, n, n));
            let (ad, bdev) = (Dev::new(&a), Dev::new(&b));
            let got = placed(&c, device, |cp| unsafe {
                let (ap, bp) = (at(&a, &ad, device), at(&b, &bdev, device));
                let (uplo, t, ldx) = (FillArg(upper as i32), Op(trans as i32), rows as i32 + 1);
                if two {
                    glblasSsyr2k(
                        uplo,
                        t,
                        n as i32,
                        k as i32,
                        1.5,
                        ap,
                        ldx,
                        bp,
                        ldx,
                        0.5,
                        cp,
                        n as i32 + 1,
                    )
                } else {
                    glblasSsyrk(
                        uplo,
                        t,
                        n as i32,
                        k as i32,
                        1.5,
                        ap,
                        ldx,
                        0.5,
                        cp,
                        n as i32 + 1,
                    )
                }
            });
            let what = format!(
                "ssyr{}k upper={upper} trans={trans} device={device}",
                if two { "2" } else { "" }
            );
            let terms = if two { 2 * k + 2 } else { k + 2 } as f64;
            assert_level3(
                &what,
                &got,
                &c,
                (n + 1, n, n),
                (&want, &scale),
                terms,
                |i, j| if upper { i <= j } else { i >= j },
            );
        }
        // trmm and trsm: B := 1.5·op(A)·B, or solved; left lower N non-unit, right upper T unit.
        for solve in [false, true] {
            for (right, upper, trans, unit) in
                [(false, false, false, false), (true, true, true, true)]
            {
                let (m, n) = if right {
                    (other, order)
                } else {
                    (order, other)
                };
                let a = stored(upper, unit, solve, 7);
                let b = fill((m + 1) * n, 8);
                let a_full = full_op(&a, lda, order, (false, upper, trans, unit));
                let ad = Dev::new(&a);
                let got = placed(&b, device, |bp| unsafe {
                    let ap = at(&a, &ad, device);
                    let how = (
                        SideArg(right as i32),
                        FillArg(upper as i32),
                        Op(trans as i32),
                        DiagArg(unit as i32),
                    );
                    let f = if solve { glblasStrsm } else { glblasStrmm };
                    f(
                        how.0,
                        how.1,
                        how.2,
                        how.3,
                        m as i32,
                        n as i32,
                        1.5,
                        ap,
                        lda as i32,
                        bp,
                        m as i32 + 1,
                    )
                });
                let what = format!(
                    "s{} right={right} device={device}",
                    if solve { "trsm" } else { "trmm" }
                );
                let bd = dense(&b, m + 1, m, n);
                if solve {
                    // The residual op(A)·X - 1.5·B (X·op(A) - 1.5·B), within
                    // 4·(order+2)·u·(|op(A)||X| + |1.5·B|) (tests/level3.rs).
                    let x = dense(&got, m + 1, m, n);
                    let (ax, scale) = times_a(&a_full, &x, right, (m, n));
                    let residual: Vec<f64> = ax.iter().zip(&bd).map(|(v, b)| v - 1.5 * b).collect();
                    let scale: Vec<f64> = scale
                        .iter()
                        .zip(&bd)
                        .map(|(s, b)| s + 1.5 * b.abs())
                        .collect();
                    for j in 0..n {
                        let pad = m + j * (m + 1);
                        assert_eq!(
                            got[pad].to_bits(),
                            b[pad].to_bits(),
                            "{what}: padding written"
                        );
                    }
                    for e in 0..m * n {
                        let tol = 4.0 * (order as f64 + 2.0) * EPS * scale[e];
                        assert!(
                            residual[e].abs() <= tol,
                            "{what}: residual {e}: {} > {tol:e}",
                            residual[e]
                        );
                    }
                } else {
                    let (mut want, mut scale) = times_a(&a_full, &bd, right, (m, n));
                    want.iter_mut().for_each(|v| *v *= 1.5);
                    scale.iter_mut().for_each(|v| *v *= 1.5);
                    assert_level3(
                        &what,
                        &got,
                        &b,
                        (m + 1, m, n),
                        (&want, &scale),
                        order as f64 + 2.0,
                        |_, _| true,
                    );
                }
            }
        }
    }
}
