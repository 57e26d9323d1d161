//! trsm's componentwise backward error on ill-conditioned triangles, as LAPACK's
//! linear-equation tester measures it (DTRT05's test 6 of DTRTRS, a single trsm): the largest
//! |alpha·B - op(A)·X| / (|op(A)||X| + |alpha·B|) over the elements, which may be at most
//! 30·(order+1)·u. Substitution, in any order of its sums, is within about (order+1)·u (Higham,
//! Accuracy and Stability of Numerical Algorithms, 8.1); a product with an explicitly inverted
//! block is not, however accurate the inverse: on these matrices the ratio berr/((order+1)·u)
//! reached 55-71 at order 13 (condition 0.1/u) and 2.5·10^7 on random triangles of order 40,
//! where substitution stays below 0.25. Every side, triangle, transposition and diagonal, in
//! single precision and in double where the device computes in double, host and device
//! operands, orders inside one diagonal block and across several.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::{DiagArg, FillArg, OperationArg, SideArg};
use glblas::status::Status;

/// LAPACK's threshold on the ratio berr / ((order+1)·u).
const THRESHOLD: f64 = 30.0;

/// Orders: inside one diagonal block of every pipeline, across a few of the fragment
/// pipeline's, and across two of the compute pipeline's.
const ORDERS: [usize; 4] = [5, 13, 40, 130];
/// Right-hand sides, as in the measurements.
const RHS: usize = 15;

/// glblasStrsm or glblasDtrsm.
type Trsm<T> = unsafe extern "C" fn(
    SideArg,
    FillArg,
    OperationArg,
    DiagArg,
    i32,
    i32,
    T,
    *const T,
    i32,
    *mut T,
    i32,
) -> Status;

trait El: Copy + Default + std::fmt::Debug {
    const U: f64;
    const NAME: &'static str;
    const TRSM: Trsm<Self>;
    fn of(v: f64) -> Self;
    fn f(self) -> f64;
}

impl El for f32 {
    const U: f64 = EPS;
    const NAME: &'static str = "single";
    const TRSM: Trsm<f32> = glblasStrsm;
    fn of(v: f64) -> f32 {
        v as f32
    }
    fn f(self) -> f64 {
        f64::from(self)
    }
}

impl El for f64 {
    const U: f64 = EPS64;
    const NAME: &'static str = "double";
    const TRSM: Trsm<f64> = glblasDtrsm;
    fn of(v: f64) -> f64 {
        v
    }
    fn f(self) -> f64 {
        self
    }
}

/// A standard normal value (Box-Muller) from two uniform ones in [-1, 1).
fn normal(u: &[f64]) -> f64 {
    let r = (-2.0 * ((u[0] + 1.0) / 2.0).max(1e-300).ln()).sqrt();
    r * (std::f64::consts::PI * u[1]).cos()
}

/// Householder QR of the column-major order×order `a`: Q (explicitly) and R, in f64.
fn qr(a: &[f64], order: usize) -> (Vec<f64>, Vec<f64>) {
    let mut r = a.to_vec();
    let mut q: Vec<f64> = (0..order * order)
        .map(|i| f64::from(u8::from(i % order == i / order)))
        .collect();
    for k in 0..order {
        let norm = (k..order)
            .map(|i| r[i + k * order].powi(2))
            .sum::<f64>()
            .sqrt();
        if norm == 0.0 {
            continue;
        }
        let mut v: Vec<f64> = (k..order).map(|i| r[i + k * order]).collect();
        v[0] += if v[0] >= 0.0 { norm } else { -norm };
        let vv: f64 = v.iter().map(|x| x * x).sum();
        if vv == 0.0 {
            continue;
        }
        // H = I - 2vv^T/(v^T v), applied to R from the left and to Q from the right.
        for j in 0..order {
            let s: f64 = (k..order).map(|i| v[i - k] * r[i + j * order]).sum::<f64>() * 2.0 / vv;
            for i in k..order {
                r[i + j * order] -= s * v[i - k];
            }
        }
        for i in 0..order {
            let s: f64 = (k..order).map(|l| q[i + l * order] * v[l - k]).sum::<f64>() * 2.0 / vv;
            for l in k..order {
                q[i + l * order] -= s * v[l - k];
            }
        }
    }
    (q, r)
}

/// An upper triangle with singular values from 1 down to 1/`cond`, geometrically, as LAPACK's
/// DLATTR makes its ill-conditioned types: R of the QR factorization of U·Σ·V^T, U and V
/// random orthogonal matrices, so that R has Σ's singular values.
fn ill_conditioned(order: usize, cond: f64, seed: u64) -> Vec<f64> {
    let gaussian = |seed: u64| -> Vec<f64> {
        fill64(2 * order * order, seed)
            .chunks(2)
            .map(normal)
            .collect()
    };
    let (u, _) = qr(&gaussian(seed), order);
    let (v, _) = qr(&gaussian(seed + 1), order);
    let sigma = |i: usize| {
        if order == 1 {
            1.0
        } else {
            cond.powf(-(i as f64) / (order - 1) as f64)
        }
    };
    // U·Σ·V^T
    let mut m = vec![0.0; order * order];
    for j in 0..order {
        for i in 0..order {
            m[i + j * order] = (0..order)
                .map(|l| u[i + l * order] * sigma(l) * v[j + l * order])
                .sum();
        }
    }
    qr(&m, order).1
}

/// The triangles of a case: ill-conditioned ones of three condition numbers (LAPACK's types 2-4:
/// 2, sqrt(0.1/u) and 0.1/u of this precision), and a random triangle with entries in [-1, 1),
/// whose condition grows exponentially with the order (kept to orders where it stays finite).
fn triangles<T: El>(order: usize, upper: bool, seed: u64) -> Vec<(String, Vec<f64>)> {
    let mut out = Vec::new();
    for cond in [2.0, (0.1 / T::U).sqrt(), 0.1 / T::U] {
        let r = ill_conditioned(order, cond, seed);
        out.push((format!("cond={cond:.1e}"), r));
    }
    if order <= 40 {
        let v = fill64(order * order, seed + 7);
        out.push(("random".to_string(), v));
    }
    // Rounded to the precision, the stored triangle only (the other transposed into place for a
    // lower one, zeros elsewhere).
    for (_, m) in &mut out {
        let upper_of = m.clone();
        for j in 0..order {
            for i in 0..order {
                let (si, sj) = if upper { (i, j) } else { (j, i) };
                let inside = si <= sj;
                m[i + j * order] = if inside {
                    T::of(upper_of[si + sj * order]).f()
                } else {
                    0.0
                };
            }
        }
    }
    out
}

/// One solve: the ratio berr / ((order+1)·u) of the computed X, or the call's status.
#[allow(clippy::too_many_arguments)]
fn ratio<T: El>(
    how: (SideArg, FillArg, OperationArg, DiagArg),
    order: usize,
    a: &[f64],
    alpha: f64,
    device: bool,
    seed: u64,
) -> f64 {
    let (side, uplo, trans, diag) = how;
    let (right, upper, t, unit) = (side.0 == 1, uplo.0 == 1, trans.0 != 0, diag.0 == 1);
    let (m, n) = if right { (RHS, order) } else { (order, RHS) };
    let (lda, ldb) = (order + 1, m + 3);
    let nan = T::of(f64::NAN);
    // The unstored triangle, and a unit diagonal, hold NaN: never read.
    let mut sa = vec![nan; lda * order];
    for j in 0..order {
        for i in 0..order {
            let stored = if upper { i <= j } else { i >= j };
            if stored && !(unit && i == j) {
                sa[i + j * lda] = T::of(a[i + j * order]);
            }
        }
    }
    // op(A)'s element (i, j), the unit diagonal in place.
    let opa = |i: usize, j: usize| {
        let (si, sj) = if t { (j, i) } else { (i, j) };
        if unit && si == sj {
            1.0
        } else {
            a[si + sj * order]
        }
    };
    // B from a known solution of entries O(1), as LAPACK's tester makes it: X is then far
    // smaller than |op(A)^-1||B|, where a product with an inverse loses the most.
    let xs = fill64(m * n, seed);
    let b: Vec<f64> = (0..m * n)
        .map(|q| {
            let (i, j) = (q % m, q / m);
            let terms = (0..order).map(|l| {
                if right {
                    (xs[i + l * m], opa(l, j))
                } else {
                    (opa(i, l), xs[l + j * m])
                }
            });
            T::of(dot2(terms).0).f()
        })
        .collect();
    let mut sb = vec![T::of(0.0); ldb * n];
    for j in 0..n {
        for i in 0..m {
            sb[i + j * ldb] = T::of(b[i + j * m]);
        }
    }
    let (da, db) = if device {
        (Some(Dev::new(&sa)), Some(Dev::new(&sb)))
    } else {
        (None, None)
    };
    let pa = da.as_ref().map_or(sa.as_ptr(), |d| d.0.cast_const().cast());
    let pb = db.as_ref().map_or(sb.as_mut_ptr(), |d| d.0.cast());
    let s = unsafe {
        (T::TRSM)(
            side,
            uplo,
            trans,
            diag,
            m as i32,
            n as i32,
            T::of(alpha),
            pa,
            lda as i32,
            pb,
            ldb as i32,
        )
    };
    assert_eq!(s, Status::Success);
    let got = db.as_ref().map_or(sb.clone(), |d| d.get_as::<T>(sb.len()));
    let x = |i: usize, j: usize| got[i + j * ldb].f();
    let mut worst: f64 = 0.0;
    for j in 0..n {
        for i in 0..m {
            // op(A)·X (left) or X·op(A) (right), then minus alpha·B, in twice double precision.
            let terms: Vec<(f64, f64)> = (0..order)
                .map(|l| {
                    if right {
                        (x(i, l), opa(l, j))
                    } else {
                        (opa(i, l), x(l, j))
                    }
                })
                .chain([(-alpha, b[i + j * m])])
                .collect();
            let (res, scale) = dot2(terms.into_iter());
            let berr = if scale == 0.0 { 0.0 } else { res.abs() / scale };
            assert!(
                !berr.is_nan(),
                "{} element ({i},{j}) is not a number",
                T::NAME
            );
            worst = worst.max(berr);
        }
    }
    worst / ((order as f64 + 1.0) * T::U)
}

fn cases<T: El>() {
    let mut failures = Vec::new();
    let mut largest: f64 = 0.0;
    for side in [SideArg(0), SideArg(1)] {
        for uplo in [FillArg(0), FillArg(1)] {
            for trans in [OperationArg(0), OperationArg(1), OperationArg(2)] {
                for diag in [DiagArg(0), DiagArg(1)] {
                    for order in ORDERS {
                        let upper = uplo.0 == 1;
                        for (kind, a) in triangles::<T>(order, upper, order as u64) {
                            for (alpha, device) in [(1.0, false), (-1.25, true)] {
                                let how = (side, uplo, trans, diag);
                                let r = ratio::<T>(how, order, &a, alpha, device, 3);
                                largest = largest.max(r);
                                if r > THRESHOLD {
                                    failures.push(format!(
                                        "side={} uplo={} trans={} diag={} order={order} {kind} \
                                         alpha={alpha} device={device}: {r:.1}",
                                        side.0, uplo.0, trans.0, diag.0
                                    ));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    println!(
        "{}: largest berr/((order+1)u) {largest:.2} (threshold {THRESHOLD})",
        T::NAME
    );
    assert!(
        failures.is_empty(),
        "{}: {} solves past the threshold, e.g.\n{}",
        T::NAME,
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn single_precision() {
    cases::<f32>();
}

#[test]
fn double_precision() {
    if doubles_here() {
        cases::<f64>();
    } else {
        // tests/level3.rs checks that such a device answers NOT_SUPPORTED.
        println!("double: this device does not compute in double");
    }
}
