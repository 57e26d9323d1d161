//! The Level 3 routines beyond gemm through the glblas API, in single and double precision:
//! symm, syrk, syr2k, trmm and trsm over every side, triangle, transposition and diagonal, odd
//! sizes (trsm's over two to seven of its diagonal blocks, of 64 or 128 rows, which its recursive
//! solve splits evenly or not), padded leading dimensions and the unstored triangle holding NaN
//! (never read), the other triangle of C and the padding of outputs holding sentinels (never
//! written), and host, device and mixed placements. The reference is a double computation with
//! compensated sums (Dot2), accurate far beyond the tolerances, which are the routines' error
//! bounds. On either pipeline in single precision; in double where the device computes in
//! double, and elsewhere every call is NOT_SUPPORTED with its output untouched.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::{DiagArg, FillArg, OperationArg, SideArg};
use glblas::status::Status;

/// What the tests need of an element type: its unit roundoff, conversions, and its routines.
trait El: Copy + Default + PartialEq + std::fmt::Debug + 'static {
    const U: f64;
    const NAME: &'static str;
    fn of(v: f64) -> Self;
    fn f(self) -> f64;
    /// Values in [-1, 1) with every bit of the mantissa in use.
    fn values(n: usize, seed: u64) -> Vec<Self>;
    /// Whether the device runs this precision's Level 3 routines: single everywhere, double
    /// where it computes in double.
    fn here() -> bool {
        Self::U > 1e-10 || doubles_here()
    }
    #[allow(clippy::too_many_arguments)]
    unsafe fn symm(
        side: SideArg,
        uplo: FillArg,
        m: i32,
        n: i32,
        alpha: Self,
        a: *const Self,
        lda: i32,
        b: *const Self,
        ldb: i32,
        beta: Self,
        c: *mut Self,
        ldc: i32,
    ) -> Status;
    /// syrk when `b` is None, else syr2k.
    #[allow(clippy::too_many_arguments)]
    unsafe fn syrk(
        uplo: FillArg,
        trans: OperationArg,
        n: i32,
        k: i32,
        alpha: Self,
        a: *const Self,
        lda: i32,
        b: Option<(*const Self, i32)>,
        beta: Self,
        c: *mut Self,
        ldc: i32,
    ) -> Status;
    /// trmm, or trsm when `solve`.
    #[allow(clippy::too_many_arguments)]
    unsafe fn tr(
        solve: bool,
        how: (SideArg, FillArg, OperationArg, DiagArg),
        m: i32,
        n: i32,
        alpha: Self,
        a: *const Self,
        lda: i32,
        b: *mut Self,
        ldb: i32,
    ) -> Status;
}

macro_rules! el {
    ($t:ty, $u:expr, $name:literal, $symm:ident, $syrk:ident, $syr2k:ident, $trmm:ident,
     $trsm:ident, $values:expr) => {
        impl El for $t {
            const U: f64 = $u;
            const NAME: &'static str = $name;
            fn of(v: f64) -> $t {
                v as $t
            }
            fn f(self) -> f64 {
                self as f64
            }
            fn values(n: usize, seed: u64) -> Vec<$t> {
                $values(n, seed)
            }
            unsafe fn symm(
                side: SideArg,
                uplo: FillArg,
                m: i32,
                n: i32,
                alpha: $t,
                a: *const $t,
                lda: i32,
                b: *const $t,
                ldb: i32,
                beta: $t,
                c: *mut $t,
                ldc: i32,
            ) -> Status {
                $symm(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc)
            }
            unsafe fn syrk(
                uplo: FillArg,
                trans: OperationArg,
                n: i32,
                k: i32,
                alpha: $t,
                a: *const $t,
                lda: i32,
                b: Option<(*const $t, i32)>,
                beta: $t,
                c: *mut $t,
                ldc: i32,
            ) -> Status {
                match b {
                    None => $syrk(uplo, trans, n, k, alpha, a, lda, beta, c, ldc),
                    Some((b, ldb)) => {
                        $syr2k(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
                    }
                }
            }
            unsafe fn tr(
                solve: bool,
                (side, uplo, trans, diag): (SideArg, FillArg, OperationArg, DiagArg),
                m: i32,
                n: i32,
                alpha: $t,
                a: *const $t,
                lda: i32,
                b: *mut $t,
                ldb: i32,
            ) -> Status {
                if solve {
                    $trsm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
                } else {
                    $trmm(side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb)
                }
            }
        }
    };
}

el!(
    f32,
    EPS,
    "single",
    glblasSsymm,
    glblasSsyrk,
    glblasSsyr2k,
    glblasStrmm,
    glblasStrsm,
    fill
);
el!(
    f64,
    f64::EPSILON / 2.0,
    "double",
    glblasDsymm,
    glblasDsyrk,
    glblasDsyr2k,
    glblasDtrmm,
    glblasDtrsm,
    fill64
);

/// A column-major matrix of f64 values (the exact values of the elements under test).
#[derive(Clone)]
struct M {
    rows: usize,
    cols: usize,
    v: Vec<f64>,
}

impl M {
    fn at(&self, i: usize, j: usize) -> f64 {
        self.v[i + j * self.rows]
    }
    fn t(&self) -> M {
        let mut v = vec![0.0; self.v.len()];
        for j in 0..self.cols {
            for i in 0..self.rows {
                v[j + i * self.cols] = self.at(i, j);
            }
        }
        M {
            rows: self.cols,
            cols: self.rows,
            v,
        }
    }
    /// alpha*self*other + beta*c (c None: 0), and the error scale |alpha||self||other| + |beta c|.
    fn times(&self, other: &M, alpha: f64, beta: f64, c: Option<&M>) -> (M, M) {
        let (mut out, mut scale) = (
            vec![0.0; self.rows * other.cols],
            vec![0.0; self.rows * other.cols],
        );
        for j in 0..other.cols {
            for i in 0..self.rows {
                let (s, mag) = dot2((0..self.cols).map(|l| (self.at(i, l), other.at(l, j))));
                let cv = c.map_or(0.0, |c| c.at(i, j));
                let (v, _) = dot2([(alpha, s), (beta, cv)].into_iter());
                out[i + j * self.rows] = v;
                scale[i + j * self.rows] = alpha.abs() * mag + (beta * cv).abs();
            }
        }
        let shape = |v| M {
            rows: self.rows,
            cols: other.cols,
            v,
        };
        (shape(out), shape(scale))
    }
}

/// A matrix as the routines receive it: rows × cols in column-major storage with leading
/// dimension rows + pad, what lies outside `inside(i, j)` and in the padding set to `outside`.
fn stored<T: El>(x: &M, pad: usize, inside: impl Fn(usize, usize) -> bool, outside: T) -> Vec<T> {
    let ld = x.rows + pad;
    let mut s = vec![outside; ld * x.cols.max(1)];
    for j in 0..x.cols {
        for i in 0..x.rows {
            if inside(i, j) {
                s[i + j * ld] = T::of(x.at(i, j));
            }
        }
    }
    s
}

fn random<T: El>(rows: usize, cols: usize, seed: u64) -> M {
    M {
        rows,
        cols,
        v: T::values(rows * cols, seed).into_iter().map(T::f).collect(),
    }
}

/// Where the operands live: A on the device, the other inputs on the device, the output on the
/// device.
const PLACEMENTS: [(bool, bool, bool); 4] = [
    (false, false, false),
    (true, false, false),
    (false, true, true),
    (true, true, true),
];

/// An operand at its placement: a host vector or a device copy, and the pointer to pass.
struct Placed<T: El> {
    host: Vec<T>,
    dev: Option<Dev>,
}

impl<T: El> Placed<T> {
    fn new(data: Vec<T>, device: bool) -> Placed<T> {
        let dev = device.then(|| Dev::new(&data));
        Placed { host: data, dev }
    }
    fn ptr(&mut self) -> *mut T {
        match &self.dev {
            Some(d) => d.0.cast(),
            None => self.host.as_mut_ptr(),
        }
    }
    fn get(&self) -> Vec<T> {
        match &self.dev {
            Some(d) => d.get_as::<T>(self.host.len()),
            None => self.host.clone(),
        }
    }
}

/// Checks output `got` (leading dimension ld) against the exact `want` within
/// `factor`·u·scale elementwise where `inside`, and elsewhere (other triangle, padding)
/// bit-identical to what it held before.
#[allow(clippy::too_many_arguments)]
fn check<T: El>(
    what: &str,
    got: &[T],
    before: &[T],
    ld: usize,
    (want, scale): (&M, &M),
    factor: f64,
    inside: impl Fn(usize, usize) -> bool,
) {
    for j in 0..want.cols {
        for i in 0..ld {
            let (g, b) = (got[i + j * ld], before[i + j * ld]);
            if i < want.rows && inside(i, j) {
                let (g, w) = (g.f(), want.at(i, j));
                let tol = factor * T::U * scale.at(i, j) + f64::MIN_POSITIVE;
                assert!(
                    (g - w).abs() <= tol,
                    "{} {what}: ({i},{j}) got {g}, want {w}, tol {tol:e}",
                    T::NAME
                );
            } else {
                assert!(
                    g.f().to_bits() == b.f().to_bits() || (g.f().is_nan() && b.f().is_nan()),
                    "{} {what}: ({i},{j}) outside the result written: {g:?}, was {b:?}",
                    T::NAME
                );
            }
        }
    }
}

const SIDES: [SideArg; 2] = [SideArg(0), SideArg(1)];
const FILLS: [FillArg; 2] = [FillArg(0), FillArg(1)];
const OPS: [OperationArg; 3] = [OperationArg(0), OperationArg(1), OperationArg(2)];
const DIAGS: [DiagArg; 2] = [DiagArg(0), DiagArg(1)];
const SENTINEL: f64 = 7.25;

/// Whether (i, j) is in the stored triangle of a square matrix (upper: i <= j).
fn in_triangle(upper: bool) -> impl Fn(usize, usize) -> bool {
    move |i, j| if upper { i <= j } else { i >= j }
}

fn symm_cases<T: El>() {
    for side in SIDES {
        for uplo in FILLS {
            let (right, upper) = (side.0 == 1, uplo.0 == 1);
            for (m, n) in [(1, 1), (7, 5), (17, 13), (40, 67)] {
                for (alpha, beta) in [(-1.25, 0.5), (1.0, 0.0)] {
                    for (pi, (da, dbc, dc)) in PLACEMENTS.into_iter().enumerate() {
                        let ka = if right { n } else { m };
                        let half = random::<T>(ka, ka, 1);
                        // The full symmetric matrix the stored triangle stands for.
                        let mut full = half.clone();
                        for j in 0..ka {
                            for i in 0..ka {
                                let (r, c) = if in_triangle(upper)(i, j) {
                                    (i, j)
                                } else {
                                    (j, i)
                                };
                                full.v[i + j * ka] = half.at(r, c);
                            }
                        }
                        let b = random::<T>(m, n, 2);
                        let c0 = random::<T>(m, n, 3);
                        let nan = T::of(f64::NAN);
                        let mut pa = Placed::new(stored(&half, 1, in_triangle(upper), nan), da);
                        let mut pb = Placed::new(stored(&b, 2, |_, _| true, nan), dbc);
                        let c_in = if beta == 0.0 { nan } else { T::of(SENTINEL) };
                        let before = stored(&c0, 3, |_, _| beta != 0.0, c_in);
                        let mut pc = Placed::new(before.clone(), dc);
                        let s = unsafe {
                            T::symm(
                                side,
                                uplo,
                                m as i32,
                                n as i32,
                                T::of(alpha),
                                pa.ptr(),
                                ka as i32 + 1,
                                pb.ptr(),
                                m as i32 + 2,
                                T::of(beta),
                                pc.ptr(),
                                m as i32 + 3,
                            )
                        };
                        let what = format!("symm side={} uplo={} m={m} n={n} alpha={alpha} beta={beta} placement={pi}", side.0, uplo.0);
                        assert_eq!(s, Status::Success, "{what}");
                        let (want, scale) = if right {
                            b.times(&full, alpha, beta, Some(&c0))
                        } else {
                            full.times(&b, alpha, beta, Some(&c0))
                        };
                        let mut before = before;
                        // Elements the call writes hold whatever before; NaN there is overwritten.
                        for j in 0..n {
                            for i in 0..m {
                                before[i + j * (m + 3)] = T::of(0.0);
                            }
                        }
                        check(
                            &what,
                            &pc.get(),
                            &before,
                            m + 3,
                            (&want, &scale),
                            ka as f64 + 2.0,
                            |_, _| true,
                        );
                    }
                }
            }
        }
    }
}

fn syrk_cases<T: El>(two: bool) {
    for uplo in FILLS {
        for trans in OPS {
            let (upper, t) = (uplo.0 == 1, trans.0 != 0);
            // 130 and 300: C over 2 and 3 tiles a side (6 of the triangle's), each workgroup
            // its own tile of the triangle (gemm.comp's uTiles).
            for (n, k) in [
                (1, 1),
                (7, 5),
                (17, 13),
                (45, 9),
                (33, 0),
                (130, 3),
                (300, 7),
            ] {
                for (alpha, beta) in [(-1.25, 0.5), (1.0, 0.0)] {
                    for (pi, (da, dbc, dc)) in PLACEMENTS.into_iter().enumerate() {
                        let (ra, ca) = if t { (k, n) } else { (n, k) };
                        let a = random::<T>(ra, ca, 4);
                        let b = random::<T>(ra, ca, 5);
                        let c0 = random::<T>(n, n, 6);
                        let nan = T::of(f64::NAN);
                        let lda = ra.max(1) + 1;
                        let mut pa = Placed::new(stored(&a, 1, |_, _| true, nan), da);
                        let mut pb = Placed::new(stored(&b, 1, |_, _| true, nan), dbc);
                        // The triangle holds C (or NaN, unread, when beta = 0); the rest
                        // sentinels that must stay.
                        let inside = in_triangle(upper);
                        let mut before =
                            stored(&c0, 2, |i, j| inside(i, j) || beta != 0.0, T::of(SENTINEL));
                        if beta == 0.0 {
                            for j in 0..n {
                                for i in 0..n {
                                    if inside(i, j) {
                                        before[i + j * (n + 2)] = nan;
                                    }
                                }
                            }
                        }
                        let mut pc = Placed::new(before.clone(), dc);
                        let bp = two.then(|| (pb.ptr().cast_const(), lda as i32));
                        let s = unsafe {
                            T::syrk(
                                uplo,
                                trans,
                                n as i32,
                                k as i32,
                                T::of(alpha),
                                pa.ptr(),
                                lda as i32,
                                bp,
                                T::of(beta),
                                pc.ptr(),
                                n as i32 + 2,
                            )
                        };
                        let what = format!("{} uplo={} trans={} n={n} k={k} alpha={alpha} beta={beta} placement={pi}", if two { "syr2k" } else { "syrk" }, uplo.0, trans.0);
                        assert_eq!(s, Status::Success, "{what}");
                        let (opa, opb) = if t {
                            (a.t(), b.t())
                        } else {
                            (a.clone(), b.clone())
                        };
                        let c_ref = if beta == 0.0 { None } else { Some(&c0) };
                        let (want, scale, factor) = if two {
                            // Two products of depth k, the second added to the rounded first.
                            let (ab, sab) = opa.times(&opb.t(), alpha, beta, c_ref);
                            let (w, s2) = opb.times(&opa.t(), alpha, 1.0, Some(&ab));
                            let scale = M {
                                v: s2.v.iter().zip(&sab.v).map(|(x, y)| x + y).collect(),
                                ..s2
                            };
                            (w, scale, 2.0 * k as f64 + 3.0)
                        } else {
                            let (w, s) = opa.times(&opa.t(), alpha, beta, c_ref);
                            (w, s, k as f64 + 2.0)
                        };
                        check(
                            &what,
                            &pc.get(),
                            &before,
                            n + 2,
                            (&want, &scale),
                            factor,
                            &inside,
                        );
                    }
                }
            }
        }
    }
}

/// A triangular matrix: `fill`'s triangle random, diagonally dominant for trsm (diagonal ±[1, 2),
/// the rest scaled by 1/order), so that the solves are well conditioned.
fn triangular<T: El>(order: usize, upper: bool, dominant: bool, seed: u64) -> M {
    let mut a = random::<T>(order, order, seed);
    for j in 0..order {
        for i in 0..order {
            let v = &mut a.v[i + j * order];
            if !in_triangle(upper)(i, j) {
                *v = 0.0;
            } else if dominant {
                *v = if i == j {
                    T::of(v.signum() * (1.0 + v.abs())).f()
                } else {
                    T::of(*v / order as f64).f()
                };
            }
        }
    }
    a
}

/// trsm's sizes (m, n) in `tr_cases`.
const TRSM_SIZES: &[(usize, usize)] = &[
    (1, 1),
    (7, 5),
    (17, 13),
    (150, 6),
    (5, 133),
    (300, 4),
    (3, 390),
    (32, 48),
];
/// trmm's.
const TRMM_SIZES: &[(usize, usize)] = &[(1, 1), (7, 5), (17, 13), (40, 29), (32, 48)];

fn tr_cases<T: El>(solve: bool, sizes: &[(usize, usize)]) {
    for side in SIDES {
        for uplo in FILLS {
            for trans in OPS {
                for diag in DIAGS {
                    let (right, upper, t, unit) =
                        (side.0 == 1, uplo.0 == 1, trans.0 != 0, diag.0 == 1);
                    for &(m, n) in sizes {
                        for (pi, (da, _, db)) in PLACEMENTS.into_iter().enumerate() {
                            let alpha = -1.25;
                            let ka = if right { n } else { m };
                            let a = triangular::<T>(ka, upper, solve, 7);
                            let b = random::<T>(m, n, 8);
                            // B's ld: one row of padding, or four at m = 32, where the kernel
                            // may read B in place (whole blocks of rows, ld a multiple of 4),
                            // as it must not where B is also the output.
                            let ldb = if m % 16 == 0 { m + 4 } else { m + 1 };
                            let nan = T::of(f64::NAN);
                            // The other triangle, and the diagonal when unit, are never read.
                            let read =
                                |i: usize, j: usize| in_triangle(upper)(i, j) && !(unit && i == j);
                            let mut pa = Placed::new(stored(&a, 2, read, nan), da);
                            let before = stored(&b, ldb - m, |_, _| true, T::of(SENTINEL));
                            let mut pb = Placed::new(before.clone(), db);
                            let s = unsafe {
                                T::tr(
                                    solve,
                                    (side, uplo, trans, diag),
                                    m as i32,
                                    n as i32,
                                    T::of(alpha),
                                    pa.ptr(),
                                    ka as i32 + 2,
                                    pb.ptr(),
                                    ldb as i32,
                                )
                            };
                            let what = format!(
                                "{} side={} uplo={} trans={} diag={} m={m} n={n} placement={pi}",
                                if solve { "trsm" } else { "trmm" },
                                side.0,
                                uplo.0,
                                trans.0,
                                diag.0
                            );
                            assert_eq!(s, Status::Success, "{what}");
                            let mut opa = if t { a.t() } else { a.clone() };
                            if unit {
                                for i in 0..ka {
                                    opa.v[i + i * ka] = 1.0;
                                }
                            }
                            let got = pb.get();
                            if solve {
                                // The residual op(A)·X - alpha·B of the computed X, within
                                // 4·(order+2)·u·(|op(A)||X| + |alpha B|): a backward-stable
                                // solve's bound (order+1)·u·|op(A)||X|, plus the roundings of
                                // alpha·B and of the blocked solve's updates adding into B
                                // (tests/trsm_backward_error.rs holds ill-conditioned
                                // triangles to LAPACK's bound).
                                let x = M {
                                    rows: m,
                                    cols: n,
                                    v: (0..m * n).map(|q| got[q % m + (q / m) * ldb].f()).collect(),
                                };
                                let (res, scale) = if right {
                                    x.times(&opa, 1.0, -alpha, Some(&b))
                                } else {
                                    opa.times(&x, 1.0, -alpha, Some(&b))
                                };
                                for q in 0..m * n {
                                    let tol = 4.0 * (ka as f64 + 2.0) * T::U * scale.v[q]
                                        + f64::MIN_POSITIVE;
                                    assert!(
                                        res.v[q].abs() <= tol,
                                        "{} {what}: residual at ({},{}) {} > {tol:e}",
                                        T::NAME,
                                        q % m,
                                        q / m,
                                        res.v[q]
                                    );
                                }
                                for j in 0..n {
                                    for i in m..ldb {
                                        assert_eq!(
                                            got[i + j * ldb].f(),
                                            SENTINEL,
                                            "{what}: padding written"
                                        );
                                    }
                                }
                            } else {
                                let (want, scale) = if right {
                                    b.times(&opa, alpha, 0.0, None)
                                } else {
                                    opa.times(&b, alpha, 0.0, None)
                                };
                                check(
                                    &what,
                                    &got,
                                    &before,
                                    ldb,
                                    (&want, &scale),
                                    ka as f64 + 2.0,
                                    |_, _| true,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// With alpha = 0: symm and syrk scale C by beta, trmm and trsm zero B, none reading A or B
/// (NaN there changes nothing).
fn alpha_zero_cases<T: El>() {
    let (m, n) = (9, 6);
    let nan = [T::of(f64::NAN); 9 * 9];
    let c0: Vec<T> = T::values(m * n, 9);
    let half: Vec<T> = c0.iter().map(|&v| T::of(0.5 * v.f())).collect();
    let mut c = c0.clone();
    let s = unsafe {
        T::symm(
            SideArg(0),
            FillArg(0),
            m as i32,
            n as i32,
            T::of(0.0),
            nan.as_ptr(),
            9,
            nan.as_ptr(),
            9,
            T::of(0.5),
            c.as_mut_ptr(),
            m as i32,
        )
    };
    assert_eq!(s, Status::Success);
    assert_eq!(c, half, "symm alpha = 0: C := beta*C");
    let mut c: Vec<T> = T::values(n * n, 10);
    let c1 = c.clone();
    let s = unsafe {
        T::syrk(
            FillArg(1),
            OperationArg(0),
            n as i32,
            4,
            T::of(0.0),
            nan.as_ptr(),
            9,
            None,
            T::of(0.5),
            c.as_mut_ptr(),
            n as i32,
        )
    };
    assert_eq!(s, Status::Success);
    for j in 0..n {
        for i in 0..n {
            let want = if i <= j {
                T::of(0.5 * c1[i + j * n].f())
            } else {
                c1[i + j * n]
            };
            assert_eq!(c[i + j * n], want, "syrk alpha = 0 at ({i},{j})");
        }
    }
    for solve in [false, true] {
        let mut b = c0.clone();
        let s = unsafe {
            T::tr(
                solve,
                (SideArg(0), FillArg(0), OperationArg(0), DiagArg(0)),
                m as i32,
                n as i32,
                T::of(0.0),
                nan.as_ptr(),
                9,
                b.as_mut_ptr(),
                m as i32,
            )
        };
        assert_eq!(s, Status::Success);
        assert!(
            b.iter().all(|v| v.f() == 0.0),
            "alpha = 0: B := 0 (solve {solve})"
        );
    }
}

/// Where the routines cannot run: NOT_SUPPORTED, even for an empty call, output untouched.
fn not_supported_cases<T: El>() {
    let a: Vec<T> = T::values(25, 11);
    let c0: Vec<T> = T::values(25, 12);
    for m in [5, 0] {
        let mut c = c0.clone();
        let calls = [
            unsafe {
                T::symm(
                    SideArg(0),
                    FillArg(0),
                    m,
                    5,
                    T::of(1.0),
                    a.as_ptr(),
                    5,
                    a.as_ptr(),
                    5,
                    T::of(1.0),
                    c.as_mut_ptr(),
                    5,
                )
            },
            unsafe {
                T::syrk(
                    FillArg(0),
                    OperationArg(0),
                    m,
                    5,
                    T::of(1.0),
                    a.as_ptr(),
                    5,
                    None,
                    T::of(1.0),
                    c.as_mut_ptr(),
                    5,
                )
            },
            unsafe {
                T::syrk(
                    FillArg(0),
                    OperationArg(0),
                    m,
                    5,
                    T::of(1.0),
                    a.as_ptr(),
                    5,
                    Some((a.as_ptr(), 5)),
                    T::of(1.0),
                    c.as_mut_ptr(),
                    5,
                )
            },
            unsafe {
                T::tr(
                    false,
                    (SideArg(0), FillArg(0), OperationArg(0), DiagArg(0)),
                    m,
                    5,
                    T::of(1.0),
                    a.as_ptr(),
                    5,
                    c.as_mut_ptr(),
                    5,
                )
            },
            unsafe {
                T::tr(
                    true,
                    (SideArg(0), FillArg(0), OperationArg(0), DiagArg(0)),
                    m,
                    5,
                    T::of(1.0),
                    a.as_ptr(),
                    5,
                    c.as_mut_ptr(),
                    5,
                )
            },
        ];
        assert!(
            calls.iter().all(|&s| s == Status::NotSupported),
            "{} m={m}: {calls:?}",
            T::NAME
        );
        assert_eq!(c, c0);
    }
}

/// Every test runs its cases where the device can, and checks the refusal elsewhere.
fn each<T: El>(cases: fn()) {
    if T::here() {
        cases()
    } else {
        not_supported_cases::<T>()
    }
}

#[test]
fn symm_single() {
    each::<f32>(symm_cases::<f32>);
}

#[test]
fn symm_double() {
    each::<f64>(symm_cases::<f64>);
}

#[test]
fn syrk_and_syr2k_single() {
    each::<f32>(|| {
        syrk_cases::<f32>(false);
        syrk_cases::<f32>(true);
    });
}

#[test]
fn syrk_and_syr2k_double() {
    each::<f64>(|| {
        syrk_cases::<f64>(false);
        syrk_cases::<f64>(true);
    });
}

#[test]
fn trmm_single() {
    each::<f32>(|| tr_cases::<f32>(false, TRMM_SIZES));
}

#[test]
fn trmm_double() {
    each::<f64>(|| tr_cases::<f64>(false, TRMM_SIZES));
}

/// trmm of a 64×64 B (ld 68: 4620 elements) beyond a window of 4300 elements, which A (ld 66:
/// 4222) fits: in tiles of C (`gemm::in_tiles`) of 32 rows and columns (the render-target side
/// lowered to 32) and chunks of k of 32, so that on the compute pipeline a tile of two blocks a
/// side reads A from an origin off its diagonal, where the kernel's loops over k must still
/// cover each block's terms (`Rules::origins`, gemm.comp's uL0).
#[test]
fn trmm_in_tiles_off_the_diagonal() {
    const CHILD: &str = "GLBLAS_TEST_SMALL_LIMITS_CHILD";
    if std::env::var_os(CHILD).is_some() {
        each::<f32>(|| tr_cases::<f32>(false, &[(64, 64)]));
        each::<f64>(|| tr_cases::<f64>(false, &[(64, 64)]));
        return;
    }
    let env = [
        (CHILD, "1"),
        ("GLBLAS_LIMIT_WINDOW", "4300"),
        ("GLBLAS_LIMIT_TARGET_SIDE", "32"),
    ];
    if let Err(e) = run_in_child("trmm_in_tiles_off_the_diagonal", &env) {
        panic!("{e}");
    }
}

#[test]
fn trsm_single() {
    each::<f32>(|| tr_cases::<f32>(true, TRSM_SIZES));
}

#[test]
fn trsm_double() {
    each::<f64>(|| tr_cases::<f64>(true, TRSM_SIZES));
}

#[test]
fn alpha_zero_reads_no_operand() {
    each::<f32>(alpha_zero_cases::<f32>);
    each::<f64>(alpha_zero_cases::<f64>);
}

#[test]
fn bad_enums_are_invalid_value_and_touch_nothing() {
    let a = [0.5f32; 16];
    let c0 = vec![1.5f32; 16];
    let mut c = c0.clone();
    let p = c.as_mut_ptr();
    let statuses = unsafe {
        [
            glblasSsymm(
                SideArg(2),
                FillArg(0),
                4,
                4,
                1.0,
                a.as_ptr(),
                4,
                a.as_ptr(),
                4,
                0.0,
                p,
                4,
            ),
            glblasSsymm(
                SideArg(0),
                FillArg(-1),
                4,
                4,
                1.0,
                a.as_ptr(),
                4,
                a.as_ptr(),
                4,
                0.0,
                p,
                4,
            ),
            glblasSsyrk(
                FillArg(0),
                OperationArg(3),
                4,
                4,
                1.0,
                a.as_ptr(),
                4,
                0.0,
                p,
                4,
            ),
            glblasStrmm(
                SideArg(0),
                FillArg(0),
                OperationArg(0),
                DiagArg(2),
                4,
                4,
                1.0,
                a.as_ptr(),
                4,
                p,
                4,
            ),
            glblasStrsm(
                SideArg(0),
                FillArg(0),
                OperationArg(0),
                DiagArg(0),
                4,
                4,
                1.0,
                a.as_ptr(),
                3,
                p,
                4,
            ),
            glblasSsyr2k(
                FillArg(0),
                OperationArg(0),
                4,
                4,
                1.0,
                a.as_ptr(),
                4,
                a.as_ptr(),
                3,
                0.0,
                p,
                4,
            ),
        ]
    };
    assert!(
        statuses.iter().all(|&s| s == Status::InvalidValue),
        "{statuses:?}"
    );
    assert_eq!(c, c0);
}
