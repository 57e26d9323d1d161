//! The complex routines through the glblas API, in c and z. NOT_SUPPORTED, outputs untouched,
//! where the device cannot compute the type (no compute pipeline; no fp64 for z).
//!
//! cgemv and zgemv: see `gemv` below.
//!
//! cgemm and zgemm: every pair of N, T and C, odd sizes, padded leading dimensions whose padding
//! holds NaN (never read, never written), alpha and beta special values (zero, one, purely
//! imaginary, beta = 0 over NaN in C), host, device and mixed placements; against a reference in
//! twice double precision (`common::dot2`). Tolerance: each part of each element of C is a real dot product of 2k terms in the 1m
//! method (`kernels/gemm.rs`, `OneM`), after alpha*op(A) is rounded once per part (two products
//! and a sum), plus beta*C (two products and two sums): within gamma_{2k+6} of
//! |alpha|·Σ|a||b| + |beta||c|, magnitudes taken as |re| + |im|.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::{glblasComplex, glblasDoubleComplex, DiagArg, FillArg, OperationArg, SideArg};
use glblas::status::Status;

const OPS: [OperationArg; 3] = [OperationArg(0), OperationArg(1), OperationArg(2)];

/// What differs between c and z: the element, its unit roundoff, data, the routine, and
/// whether this device computes in it.
trait Precision: Copy + Default + std::fmt::Debug + PartialEq + 'static {
    const U: f64;
    fn new(re: f64, im: f64) -> Self;
    fn parts(self) -> (f64, f64);
    fn data(n: usize, seed: u64) -> Vec<Self>;
    fn here() -> bool;
    /// # Safety
    /// As for glblas?copy (`swap`: glblas?swap).
    unsafe fn copy(swap: bool, n: i32, x: *mut Self, incx: i32, y: *mut Self, incy: i32) -> Status;
    /// # Safety
    /// As for glblas?symm (glblas?hemm when `hermitian`).
    #[allow(clippy::too_many_arguments)]
    unsafe fn symm(
        hermitian: bool,
        how: (SideArg, FillArg),
        mn: (usize, usize),
        alpha: *const Self,
        a: (*const Self, usize),
        b: (*const Self, usize),
        beta: *const Self,
        c: (*mut Self, usize),
    ) -> Status;
    /// # Safety
    /// As for glblas?syrk (glblas?herk when `hermitian`; ?syr2k, ?her2k with `b`); herk's
    /// and her2k's real scalars are `alpha`'s and `beta`'s real parts.
    #[allow(clippy::too_many_arguments)]
    unsafe fn rank_k(
        hermitian: bool,
        how: (FillArg, OperationArg),
        nk: (usize, usize),
        alpha: Self,
        a: (*const Self, usize),
        b: Option<(*const Self, usize)>,
        beta: Self,
        c: (*mut Self, usize),
    ) -> Status;
    /// # Safety
    /// As for glblas?trmm (glblas?trsm with `solve`).
    unsafe fn trmm(
        solve: bool,
        how: (SideArg, FillArg, OperationArg, DiagArg),
        mn: (usize, usize),
        alpha: *const Self,
        a: (*const Self, usize),
        b: (*mut Self, usize),
    ) -> Status;
    /// # Safety
    /// As for the routine `which` names: glblas?axpy (alpha, x, y), glblas?dotu and ?dotc
    /// (x, y, result), glblas?scal (alpha, x), glblas?sscal (alpha's real part, x), and the
    /// reductions of x (asum and nrm2 into `result`'s first real, i?amax into its first int).
    #[allow(clippy::too_many_arguments)]
    unsafe fn level1(
        which: L1,
        n: i32,
        alpha: Self,
        x: (*mut Self, i32),
        y: (*mut Self, i32),
        result: *mut Self,
    ) -> Status;
    /// # Safety
    /// As for glblas?gemv.
    unsafe fn gemv(
        op: OperationArg,
        mn: (usize, usize),
        alpha: *const Self,
        a: (*const Self, usize),
        x: (*const Self, i32),
        beta: *const Self,
        y: (*mut Self, i32),
    ) -> Status;
    /// # Safety
    /// As for glblas?gemm.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        ops: (OperationArg, OperationArg),
        mnk: (usize, usize, usize),
        alpha: *const Self,
        a: (*const Self, usize),
        b: (*const Self, usize),
        beta: *const Self,
        c: (*mut Self, usize),
    ) -> Status;
}

fn compute_here() -> bool {
    glblas::kernels::pipeline() == Some("compute")
}

/// The two precisions' impls: the real type, its unit roundoff and data, whether the device
/// computes in the complex type, and the routines.
macro_rules! precision {
    ($t:ty, $real:ty, $fill:ident, $here:expr, [$axpy:ident, $dotu:ident, $dotc:ident,
     $scal:ident, $sscal:ident, $asum:ident, $nrm2:ident, $iamax:ident], $swap:ident,
     $copy:ident, $gemv:ident, $gemm:ident,
     $symm:ident, $hemm:ident, $trmm:ident, $trsm:ident, $syrk:ident, $herk:ident,
     $syr2k:ident, $her2k:ident) => {
        impl Precision for $t {
            const U: f64 = <$real>::EPSILON as f64 / 2.0;
            fn new(re: f64, im: f64) -> Self {
                Self {
                    re: re as $real,
                    im: im as $real,
                }
            }
            fn parts(self) -> (f64, f64) {
                (self.re.into(), self.im.into())
            }
            fn data(n: usize, seed: u64) -> Vec<Self> {
                let v = $fill(2 * n, seed);
                v.chunks(2).map(|p| Self { re: p[0], im: p[1] }).collect()
            }
            fn here() -> bool {
                $here
            }
            unsafe fn copy(
                swap: bool,
                n: i32,
                x: *mut Self,
                incx: i32,
                y: *mut Self,
                incy: i32,
            ) -> Status {
                if swap {
                    $swap(n, x, incx, y, incy)
                } else {
                    $copy(n, x, incx, y, incy)
                }
            }
            unsafe fn level1(
                which: L1,
                n: i32,
                alpha: Self,
                (x, incx): (*mut Self, i32),
                (y, incy): (*mut Self, i32),
                result: *mut Self,
            ) -> Status {
                let real = result.cast::<$real>();
                match which {
                    L1::Axpy => $axpy(n, &alpha, x, incx, y, incy),
                    L1::Dotu => $dotu(n, x, incx, y, incy, result),
                    L1::Dotc => $dotc(n, x, incx, y, incy, result),
                    L1::Scal => $scal(n, &alpha, x, incx),
                    L1::Sscal => $sscal(n, &alpha.re, x, incx),
                    L1::Asum => $asum(n, x, incx, real),
                    L1::Nrm2 => $nrm2(n, x, incx, real),
                    L1::Iamax => $iamax(n, x, incx, result.cast()),
                }
            }
            unsafe fn gemv(
                op: OperationArg,
                (m, n): (usize, usize),
                alpha: *const Self,
                (a, lda): (*const Self, usize),
                (x, incx): (*const Self, i32),
                beta: *const Self,
                (y, incy): (*mut Self, i32),
            ) -> Status {
                let i = |v: usize| v as i32;
                $gemv(op, i(m), i(n), alpha, a, i(lda), x, incx, beta, y, incy)
            }
            unsafe fn gemm(
                (ta, tb): (OperationArg, OperationArg),
                (m, n, k): (usize, usize, usize),
                alpha: *const Self,
                (a, lda): (*const Self, usize),
                (b, ldb): (*const Self, usize),
                beta: *const Self,
                (c, ldc): (*mut Self, usize),
            ) -> Status {
                let i = |v: usize| v as i32;
                $gemm(
                    ta,
                    tb,
                    i(m),
                    i(n),
                    i(k),
                    alpha,
                    a,
                    i(lda),
                    b,
                    i(ldb),
                    beta,
                    c,
                    i(ldc),
                )
            }
            unsafe fn symm(
                hermitian: bool,
                (side, uplo): (SideArg, FillArg),
                (m, n): (usize, usize),
                alpha: *const Self,
                (a, lda): (*const Self, usize),
                (b, ldb): (*const Self, usize),
                beta: *const Self,
                (c, ldc): (*mut Self, usize),
            ) -> Status {
                let i = |v: usize| v as i32;
                let f = if hermitian { $hemm } else { $symm };
                f(
                    side,
                    uplo,
                    i(m),
                    i(n),
                    alpha,
                    a,
                    i(lda),
                    b,
                    i(ldb),
                    beta,
                    c,
                    i(ldc),
                )
            }
            unsafe fn rank_k(
                hermitian: bool,
                (uplo, trans): (FillArg, OperationArg),
                (n, k): (usize, usize),
                alpha: Self,
                (a, lda): (*const Self, usize),
                b: Option<(*const Self, usize)>,
                beta: Self,
                (c, ldc): (*mut Self, usize),
            ) -> Status {
                let i = |v: usize| v as i32;
                let (n, k, lda, ldc) = (i(n), i(k), i(lda), i(ldc));
                let (alpha_re, beta_re): ($real, $real) = (alpha.re, beta.re);
                match (hermitian, b) {
                    (false, None) => $syrk(uplo, trans, n, k, &alpha, a, lda, &beta, c, ldc),
                    (true, None) => $herk(uplo, trans, n, k, &alpha_re, a, lda, &beta_re, c, ldc),
                    (false, Some((b, ldb))) => {
                        $syr2k(uplo, trans, n, k, &alpha, a, lda, b, i(ldb), &beta, c, ldc)
                    }
                    (true, Some((b, ldb))) => $her2k(
                        uplo,
                        trans,
                        n,
                        k,
                        &alpha,
                        a,
                        lda,
                        b,
                        i(ldb),
                        &beta_re,
                        c,
                        ldc,
                    ),
                }
            }
            unsafe fn trmm(
                solve: bool,
                (side, uplo, trans, diag): (SideArg, FillArg, OperationArg, DiagArg),
                (m, n): (usize, usize),
                alpha: *const Self,
                (a, lda): (*const Self, usize),
                (b, ldb): (*mut Self, usize),
            ) -> Status {
                let i = |v: usize| v as i32;
                let f = if solve { $trsm } else { $trmm };
                f(
                    side,
                    uplo,
                    trans,
                    diag,
                    i(m),
                    i(n),
                    alpha,
                    a,
                    i(lda),
                    b,
                    i(ldb),
                )
            }
        }
    };
}

precision!(
    glblasComplex,
    f32,
    fill,
    compute_here(),
    [
        glblasCaxpy,
        glblasCdotu,
        glblasCdotc,
        glblasCscal,
        glblasCsscal,
        glblasScasum,
        glblasScnrm2,
        glblasIcamax
    ],
    glblasCswap,
    glblasCcopy,
    glblasCgemv,
    glblasCgemm,
    glblasCsymm,
    glblasChemm,
    glblasCtrmm,
    glblasCtrsm,
    glblasCsyrk,
    glblasCherk,
    glblasCsyr2k,
    glblasCher2k
);
precision!(
    glblasDoubleComplex,
    f64,
    fill64,
    doubles_here(),
    [
        glblasZaxpy,
        glblasZdotu,
        glblasZdotc,
        glblasZscal,
        glblasZdscal,
        glblasDzasum,
        glblasDznrm2,
        glblasIzamax
    ],
    glblasZswap,
    glblasZcopy,
    glblasZgemv,
    glblasZgemm,
    glblasZsymm,
    glblasZhemm,
    glblasZtrmm,
    glblasZtrsm,
    glblasZsyrk,
    glblasZherk,
    glblasZsyr2k,
    glblasZher2k
);

/// |re| + |im|.
fn mag((re, im): (f64, f64)) -> f64 {
    re.abs() + im.abs()
}

/// One gemm case: operands as stored (leading dimensions past their rows, padding NaN).
#[derive(Clone)]
struct Case<P> {
    ops: (OperationArg, OperationArg),
    mnk: (usize, usize, usize),
    alpha: P,
    beta: P,
    a: (Vec<P>, usize),
    b: (Vec<P>, usize),
    c: (Vec<P>, usize),
}

/// Stored rows × cols with leading dimension `ld` > rows, the padding NaN.
fn stored<P: Precision>((rows, cols): (usize, usize), ld: usize, seed: u64) -> Vec<P> {
    let mut v = P::data(ld * cols, seed);
    for j in 0..cols {
        for p in &mut v[j * ld + rows..(j + 1) * ld] {
            *p = P::new(f64::NAN, f64::NAN);
        }
    }
    v
}

impl<P: Precision> Case<P> {
    fn new(
        ops: (OperationArg, OperationArg),
        (m, n, k): (usize, usize, usize),
        alpha: P,
        beta: P,
        seed: u64,
    ) -> Case<P> {
        let a_shape = if ops.0 .0 != 0 { (k, m) } else { (m, k) };
        let b_shape = if ops.1 .0 != 0 { (n, k) } else { (k, n) };
        let (lda, ldb, ldc) = (a_shape.0 + 2, b_shape.0 + 1, m + 3);
        let mut c = stored::<P>((m, n), ldc, seed + 2);
        if beta == P::new(0.0, 0.0) {
            // beta = 0: C is not read, so NaN in it must not leak into the result.
            for j in 0..n {
                for p in &mut c[j * ldc..j * ldc + m] {
                    *p = P::new(f64::NAN, f64::INFINITY);
                }
            }
        }
        Case {
            ops,
            mnk: (m, n, k),
            alpha,
            beta,
            a: (stored(a_shape, lda, seed), lda),
            b: (stored(b_shape, ldb, seed + 1), ldb),
            c: (c, ldc),
        }
    }

    /// op(X)'s element (i, l) of stored x.
    fn op(x: &(Vec<P>, usize), op: OperationArg, i: usize, l: usize) -> (f64, f64) {
        let (v, ld) = x;
        let (re, im) = if op.0 == 0 {
            v[i + l * ld].parts()
        } else {
            v[l + i * ld].parts()
        };
        if op.0 == 2 {
            (re, -im)
        } else {
            (re, im)
        }
    }

    /// C's element (i, j) as exact as twice double precision makes it, and its error scale.
    fn want(&self, i: usize, j: usize) -> ((f64, f64), f64) {
        let (_, _, k) = self.mnk;
        let (ta, tb) = self.ops;
        let ab = |l: usize| (Self::op(&self.a, ta, i, l), Self::op(&self.b, tb, l, j));
        let (re, _) = dot2((0..k).flat_map(|l| {
            let ((ar, ai), (br, bi)) = ab(l);
            [(ar, br), (-ai, bi)]
        }));
        let (im, _) = dot2((0..k).flat_map(|l| {
            let ((ar, ai), (br, bi)) = ab(l);
            [(ar, bi), (ai, br)]
        }));
        let scale_ab: f64 = (0..k).map(|l| mag(ab(l).0) * mag(ab(l).1)).sum();
        let (alr, ali) = self.alpha.parts();
        let (ber, bei) = self.beta.parts();
        let (cr, ci) = if self.beta == P::new(0.0, 0.0) {
            (0.0, 0.0)
        } else {
            self.c.0[i + j * self.c.1].parts()
        };
        let (re, im) = if k == 0 || self.alpha == P::new(0.0, 0.0) {
            (0.0, 0.0)
        } else {
            (re, im)
        };
        let out_re = dot2([(alr, re), (-ali, im), (ber, cr), (-bei, ci)].into_iter()).0;
        let out_im = dot2([(alr, im), (ali, re), (ber, ci), (bei, cr)].into_iter()).0;
        let scale = mag((alr, ali)) * scale_ab + mag((ber, bei)) * mag((cr, ci));
        ((out_re, out_im), scale)
    }

    /// Runs the case with its operands placed by `placement` (0: host; 1: A and C on the
    /// device; 2: A and B on the device, C on the host) and checks C.
    fn check(&self, placement: usize) {
        let (m, n, k) = self.mnk;
        let what = format!(
            "{:?} {:?} m={m} n={n} k={k} alpha={:?} beta={:?} placement={placement}",
            self.ops.0 .0, self.ops.1 .0, self.alpha, self.beta
        );
        let (ad, bd, cd) = (
            Dev::new(&self.a.0),
            Dev::new(&self.b.0),
            Dev::new(&self.c.0),
        );
        let mut ch = self.c.0.clone();
        let (a, b) = (self.a.0.as_ptr(), self.b.0.as_ptr());
        let (ap, bp, cp) = match placement {
            0 => (a, b, ch.as_mut_ptr()),
            1 => (ad.0.cast_const().cast(), b, cd.0.cast()),
            _ => (
                ad.0.cast_const().cast(),
                bd.0.cast_const().cast(),
                ch.as_mut_ptr(),
            ),
        };
        let s = unsafe {
            P::gemm(
                self.ops,
                self.mnk,
                &self.alpha,
                (ap, self.a.1),
                (bp, self.b.1),
                &self.beta,
                (cp, self.c.1),
            )
        };
        let got = if placement == 1 {
            cd.get_as::<P>(self.c.0.len())
        } else {
            ch
        };
        self.judge(s, &got, &what);
    }

    /// Checks a call's status and its C, `got` (stored as this case's C), against this case.
    fn judge(&self, s: Status, got: &[P], what: &str) {
        let (m, n, k) = self.mnk;
        if !P::here() {
            assert_eq!(s, Status::NotSupported, "{what}");
            assert_untouched(got, &self.c.0, what);
            return;
        }
        assert_eq!(s, Status::Success, "{what}");
        let ldc = self.c.1;
        for j in 0..n {
            for i in 0..m {
                let ((wr, wi), scale) = self.want(i, j);
                let tol = (2 * k + 6) as f64 * P::U * scale + f64::MIN_POSITIVE;
                let (gr, gi) = got[i + j * ldc].parts();
                assert!(
                    (gr - wr).abs() <= tol && (gi - wi).abs() <= tol,
                    "{what}: C({i},{j}) = {gr}{gi:+}i, want {wr}{wi:+}i, tol {tol:e}"
                );
            }
            assert_untouched(
                &got[j * ldc + m..(j + 1) * ldc],
                &self.c.0[j * ldc + m..(j + 1) * ldc],
                &format!("{what}: padding of column {j}"),
            );
        }
    }
}

/// Bit for bit (NaN included): untouched, or exactly the values expected.
fn assert_untouched<P: Precision>(got: &[P], was: &[P], what: &str) {
    let bits = |v: &[P]| -> Vec<(u64, u64)> {
        v.iter()
            .map(|p| {
                let (re, im) = p.parts();
                (re.to_bits(), im.to_bits())
            })
            .collect()
    };
    assert_eq!(bits(got), bits(was), "{what}: written");
}

/// Every pair of operations over odd sizes, in every placement.
fn every_operation<P: Precision>() {
    for (m, n, k) in [(1, 1, 1), (7, 5, 3), (17, 13, 11), (33, 1, 64), (1, 40, 9)] {
        for ta in OPS {
            for tb in OPS {
                let case = Case::<P>::new(
                    (ta, tb),
                    (m, n, k),
                    P::new(-1.25, 0.5),
                    P::new(0.5, -0.75),
                    (m * 100 + n * 10 + k) as u64,
                );
                for placement in 0..3 {
                    case.check(placement);
                }
            }
        }
    }
}

/// alpha and beta at the values the reference treats specially, or that take another path
/// here: 0 (A and B not read), 1, purely imaginary (beta's imaginary part is applied as C is
/// read), and beta = 0 over NaN in C.
fn special_scalars<P: Precision>() {
    let values = [
        P::new(0.0, 0.0),
        P::new(1.0, 0.0),
        P::new(0.0, 1.0),
        P::new(0.0, -2.0),
        P::new(-0.5, 1.5),
    ];
    for (i, alpha) in values.into_iter().enumerate() {
        for (j, beta) in values.into_iter().enumerate() {
            for ops in [(OPS[0], OPS[0]), (OPS[2], OPS[1])] {
                // 8 rows: C's columns whole groups of 4 reals (read a group at a time); 9:
                // element by element.
                for m in [8, 9] {
                    Case::<P>::new(ops, (m, 6, 5), alpha, beta, (i * 10 + j) as u64).check(0);
                }
            }
        }
    }
}

/// A product over several of the kernel's blocks and chunks of k, C in device memory.
fn larger<P: Precision>() {
    let case = Case::<P>::new(
        (OPS[2], OPS[0]),
        (70, 45, 130),
        P::new(0.75, -0.25),
        P::new(-1.0, 0.5),
        77,
    );
    case.check(1);
}

#[test]
fn cgemm_every_operation_and_placement() {
    every_operation::<glblasComplex>();
}

#[test]
fn zgemm_every_operation_and_placement() {
    every_operation::<glblasDoubleComplex>();
}

#[test]
fn cgemm_special_scalars() {
    special_scalars::<glblasComplex>();
}

#[test]
fn zgemm_special_scalars() {
    special_scalars::<glblasDoubleComplex>();
}

#[test]
fn cgemm_and_zgemm_larger_products() {
    larger::<glblasComplex>();
    larger::<glblasDoubleComplex>();
}

/// The operand window this test's child process takes (`GLBLAS_LIMIT_WINDOW`), in elements:
/// each complex operand below spans two to four times as many, so gemm is computed in parts
/// (`kernels::gemm`, `complex_in_parts`).
const SMALL_WINDOW: &str = "600";

/// Every operation pair and placement, and the special scalars, with operands beyond one
/// window.
fn beyond_one_window<P: Precision>() {
    let mnk = (23, 19, 31);
    for (i, &ta) in OPS.iter().enumerate() {
        for (j, &tb) in OPS.iter().enumerate() {
            let (alpha, beta) = (P::new(0.5, -1.25), P::new(-0.75, 0.5));
            let case = Case::<P>::new((ta, tb), mnk, alpha, beta, 90 + (3 * i + j) as u64);
            for placement in 0..3 {
                case.check(placement);
            }
        }
    }
    let (zero, one, i) = (P::new(0.0, 0.0), P::new(1.0, 0.0), P::new(0.0, 1.0));
    Case::<P>::new((OPS[0], OPS[2]), mnk, one, zero, 99).check(1);
    Case::<P>::new((OPS[1], OPS[0]), mnk, zero, i, 98).check(0);
}

/// Runs `body` in a child process rerunning test `test` with a window of `SMALL_WINDOW`.
fn in_small_window(test: &str, body: impl FnOnce()) {
    const CHILD: &str = "GLBLAS_TEST_SMALL_WINDOW_CHILD";
    if std::env::var_os(CHILD).is_some() {
        let window = glblas::engine::with_engine(|e| Ok(e.limits.window));
        assert_eq!(window.ok(), Some(SMALL_WINDOW.parse().unwrap()));
        body();
        return;
    }
    let env = [(CHILD, "1"), ("GLBLAS_LIMIT_WINDOW", SMALL_WINDOW)];
    if let Err(e) = run_in_child(test, &env) {
        panic!("{e}");
    }
}

#[test]
fn cgemm_and_zgemm_beyond_one_window() {
    in_small_window("cgemm_and_zgemm_beyond_one_window", || {
        beyond_one_window::<glblasComplex>();
        beyond_one_window::<glblasDoubleComplex>();
    });
}

#[test]
fn null_scalars_are_invalid() {
    let one = glblasComplex { re: 1.0, im: 0.0 };
    let mut c = vec![one; 4];
    let was = c.clone();
    let s = unsafe {
        glblasCgemm(
            OPS[0],
            OPS[0],
            2,
            2,
            2,
            std::ptr::null(),
            c.as_ptr(),
            2,
            c.clone().as_ptr(),
            2,
            &one,
            c.as_mut_ptr(),
            2,
        )
    };
    assert_eq!(s, Status::InvalidValue);
    assert_eq!(c, was);
}

/// The complex Level 1 routines with a scalar or a result (copy and swap: `Precision::copy`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum L1 {
    Axpy,
    Dotu,
    Dotc,
    Scal,
    Sscal,
    Asum,
    Nrm2,
    Iamax,
}

/// Storage for `values` at increment `inc` (element i at i*inc, from the far end for a
/// negative one; a zero one holds values[0] alone) with a guard before and after, and `gap`
/// between the elements.
fn laid<P: Precision>(values: &[P], inc: i32, gap: P) -> Vec<P> {
    let mut v = vec![
        gap;
        2 + if inc == 0 {
            1
        } else {
            spread(values, inc, gap).len()
        }
    ];
    for (i, &x) in values
        .iter()
        .enumerate()
        .take(if inc == 0 { 1 } else { values.len() })
    {
        v[1 + at(i, values.len(), inc)] = x;
    }
    v
}

/// The element of `storage` (from `laid`) that holds logical element i.
fn elem<P: Precision>(storage: &[P], i: usize, len: usize, inc: i32) -> P {
    storage[1 + if inc == 0 { 0 } else { at(i, len, inc) }]
}

/// Runs `which` on x and y (as laid out by `laid`; in device memory when `device`), the result
/// in host memory: (status, x and y after, the result).
fn run_l1<P: Precision>(
    which: L1,
    n: usize,
    alpha: P,
    (xs, incx): (&[P], i32),
    (ys, incy): (&[P], i32),
    device: bool,
) -> (Status, Vec<P>, Vec<P>, P) {
    let (xd, yd) = (Dev::new(xs), Dev::new(ys));
    let (mut xh, mut yh) = (xs.to_vec(), ys.to_vec());
    let (xp, yp): (*mut P, *mut P) = if device {
        (xd.0.cast(), yd.0.cast())
    } else {
        (xh.as_mut_ptr(), yh.as_mut_ptr())
    };
    let mut result = P::new(f64::NAN, f64::NAN);
    let status = unsafe {
        P::level1(
            which,
            n as i32,
            alpha,
            (xp.wrapping_add(1), incx),
            (yp.wrapping_add(1), incy),
            &mut result,
        )
    };
    if device {
        (xh, yh) = (xd.get_as::<P>(xs.len()), yd.get_as::<P>(ys.len()));
    }
    (status, xh, yh, result)
}

/// axpy, dotu, dotc, scal, sscal, asum, nrm2 and i?amax over sizes, increments (negative and,
/// where legal, zero ones) and placements, against twice-double references: every element
/// between and around the outputs' untouched, and the reference's quick returns (alpha = 0 for
/// axpy, a non-positive increment for scal, asum and i?amax) touching nothing. Tolerances per
/// part, magnitudes |re| + |im|: axpy gamma_{k+3} of |y| + |alpha|·Σ|x| over its k terms (k = n
/// where y's increment is 0); dot gamma_{n+2} of Σ|x||y|; scal gamma_2 of |alpha||x|; a real
/// alpha's scal exact (one rounding per part); asum gamma_{2n} of the sum; nrm2 relatively
/// gamma_{2n+2}, also where the squares would overflow or underflow.
fn level1<P: Precision>() {
    let guard = P::new(-1234.5, 6789.25);
    let alpha = P::new(0.75, -1.25);
    let tol = |terms: usize, scale: f64| terms as f64 * P::U * scale + f64::MIN_POSITIVE;
    let near = |got: P, (wr, wi): (f64, f64), tol: f64, what: &str| {
        let (gr, gi) = got.parts();
        assert!(
            (gr - wr).abs() <= tol && (gi - wi).abs() <= tol,
            "{what}: {gr}{gi:+}i, want {wr}{wi:+}i, tol {tol:e}"
        );
    };
    for n in [1usize, 2, 7, 33, 1000] {
        for (incx, incy) in [(1, 1), (2, -3), (-1, 2), (0, 1), (3, 0)] {
            for device in [false, true] {
                let what = |r: &str| format!("{r} n={n} incx={incx} incy={incy} device={device}");
                let (xv, yv) = (P::data(n, 3 * n as u64), P::data(n, 5 + n as u64));
                let (xs, ys) = (laid(&xv, incx, guard), laid(&yv, incy, guard));
                let x = |i: usize| elem(&xs, i, n, incx).parts();
                let y = |i: usize| elem(&ys, i, n, incy).parts();
                let run = |which, alpha| run_l1(which, n, alpha, (&xs, incx), (&ys, incy), device);
                if !P::here() {
                    let (s, gx, gy, _) = run(L1::Axpy, alpha);
                    assert_eq!(s, Status::NotSupported, "{}", what("axpy"));
                    assert_untouched(&gx, &xs, &what("axpy x"));
                    assert_untouched(&gy, &ys, &what("axpy y"));
                    continue;
                }
                let (ar, ai) = alpha.parts();
                // axpy: with a zero increment, y's one element takes every term in turn.
                let (s, gx, gy, _) = run(L1::Axpy, alpha);
                assert_eq!(s, Status::Success, "{}", what("axpy"));
                assert_untouched(&gx, &xs, &what("axpy x"));
                let terms = if incy == 0 { n } else { 1 };
                let mut want = ys.clone();
                for i in 0..if incy == 0 { 1 } else { n } {
                    let ks = if incy == 0 { 0..n } else { i..i + 1 };
                    let (yr, yi) = y(i);
                    let re = dot2(ks.clone().flat_map(|k| [(ar, x(k).0), (-ai, x(k).1)])).0 + yr;
                    let im = dot2(ks.clone().flat_map(|k| [(ar, x(k).1), (ai, x(k).0)])).0 + yi;
                    let scale =
                        mag((yr, yi)) + ks.map(|k| mag(alpha.parts()) * mag(x(k))).sum::<f64>();
                    let slot = 1 + if incy == 0 { 0 } else { at(i, n, incy) };
                    near(gy[slot], (re, im), tol(terms + 3, scale), &what("axpy"));
                    want[slot] = gy[slot];
                }
                assert_untouched(&gy, &want, &what("axpy: around y"));
                let (_, _, gy, _) = run(L1::Axpy, P::new(0.0, 0.0));
                assert_untouched(&gy, &ys, &what("axpy alpha = 0"));
                // dotu and dotc.
                for (which, sign) in [(L1::Dotu, 1.0), (L1::Dotc, -1.0)] {
                    let (s, gx, gy, got) = run(which, alpha);
                    assert_eq!(s, Status::Success, "{}", what("dot"));
                    assert_untouched(&gx, &xs, &what("dot x"));
                    assert_untouched(&gy, &ys, &what("dot y"));
                    let xc = |k: usize| (x(k).0, sign * x(k).1);
                    let re = dot2((0..n).flat_map(|k| [(xc(k).0, y(k).0), (-xc(k).1, y(k).1)])).0;
                    let im = dot2((0..n).flat_map(|k| [(xc(k).0, y(k).1), (xc(k).1, y(k).0)])).0;
                    let scale = (0..n).map(|k| mag(x(k)) * mag(y(k))).sum();
                    near(
                        got,
                        (re, im),
                        tol(n + 2, scale),
                        &what(&format!("{which:?}")),
                    );
                }
                // scal, complex and real alpha; nothing for a non-positive increment.
                for (which, a) in [(L1::Scal, alpha), (L1::Sscal, P::new(-2.5, 0.0))] {
                    let (s, gx, _, _) = run(which, a);
                    assert_eq!(s, Status::Success, "{}", what("scal"));
                    if incx <= 0 {
                        assert_untouched(&gx, &xs, &what("scal, incx <= 0"));
                        continue;
                    }
                    let mut want = xs.clone();
                    for i in 0..n {
                        let slot = 1 + at(i, n, incx);
                        let (xr, xi) = x(i);
                        if which == L1::Sscal {
                            want[slot] = P::new(xr * -2.5, xi * -2.5);
                            continue;
                        }
                        let w = (
                            dot2([(ar, xr), (-ai, xi)].into_iter()).0,
                            dot2([(ar, xi), (ai, xr)].into_iter()).0,
                        );
                        near(
                            gx[slot],
                            w,
                            tol(2, mag(alpha.parts()) * mag((xr, xi))),
                            &what("scal"),
                        );
                        want[slot] = gx[slot];
                    }
                    assert_untouched(&gx, &want, &what(&format!("{which:?}: around x")));
                }
                // asum, nrm2 and i?amax read x alone.
                let (s, gx, _, got) = run(L1::Asum, alpha);
                assert_eq!(s, Status::Success, "{}", what("asum"));
                assert_untouched(&gx, &xs, &what("asum x"));
                let sum: f64 = if incx <= 0 {
                    0.0
                } else {
                    (0..n).map(|k| mag(x(k))).sum()
                };
                near(
                    P::new(got.parts().0, 0.0),
                    (sum, 0.0),
                    tol(2 * n, sum),
                    &what("asum"),
                );
                let (s, _, _, got) = run(L1::Iamax, alpha);
                assert_eq!(s, Status::Success, "{}", what("iamax"));
                let want = if incx <= 0 {
                    0
                } else {
                    // The first largest |re| + |im|, added in the precision's own arithmetic.
                    let key = |k: usize| P::new(mag(x(k)), 0.0).parts().0;
                    1 + (0..n).fold(0, |best, k| if key(k) > key(best) { k } else { best })
                };
                assert_eq!(index_of(got), want as i32, "{}", what("iamax"));
                // nrm2 of x, and of x scaled by powers of two that take its squares past the
                // largest or below the least normal number.
                let big = if P::U > 1e-10 { 100 } else { 600 };
                for k in [0, big, -big] {
                    let scale = 2f64.powi(k);
                    let xk: Vec<P> = xs
                        .iter()
                        .map(|v| P::new(v.parts().0 * scale, v.parts().1 * scale))
                        .collect();
                    let (s, gx, _, got) =
                        run_l1(L1::Nrm2, n, alpha, (&xk, incx), (&ys, incy), device);
                    assert_eq!(s, Status::Success, "{}", what("nrm2"));
                    assert_untouched(&gx, &xk, &what("nrm2 x"));
                    let part = |i: usize| {
                        let (re, im) = elem(&xk, i, n, incx).parts();
                        [(re / scale, re / scale), (im / scale, im / scale)]
                    };
                    let want = dot2((0..n).flat_map(part)).0.sqrt() * scale;
                    let t = tol(2 * n + 2, want);
                    let got = got.parts().0;
                    assert!(
                        (got - want).abs() <= t,
                        "{}: {got}, want {want}",
                        what(&format!("nrm2 * 2^{k}"))
                    );
                }
            }
        }
    }
}

/// The int i?amax wrote at the start of `result`.
fn index_of<P: Precision>(result: P) -> i32 {
    // SAFETY: P is at least 8 bytes, its first 4 the int.
    unsafe { *std::ptr::from_ref(&result).cast::<i32>() }
}

/// i?amax by |re| + |im| (not the modulus), the first of equals, NaN ranked below everything
/// but as element 1, an infinity the largest.
fn iamax_special<P: Precision>() {
    if !P::here() {
        return;
    }
    let mut v = P::data(40, 9);
    for p in &mut v {
        *p = P::new(p.parts().0 * 0.5, p.parts().1 * 0.5);
    }
    // |re| + |im| = 10 at 9 and 20 (and 30), 9.5 at 5, whose modulus is the largest of them.
    v[5] = P::new(0.0, 9.5);
    v[9] = P::new(-4.0, 6.0);
    v[20] = P::new(6.0, -4.0);
    v[30] = P::new(5.0, 5.0);
    let cases = [
        (None, 10),
        (Some((3, P::new(f64::NAN, 0.0))), 10),
        (Some((0, P::new(0.0, f64::NAN))), 1),
        (Some((35, P::new(f64::INFINITY, 1.0))), 36),
    ];
    for (change, want) in cases {
        let mut x = v.clone();
        if let Some((i, value)) = change {
            x[i] = value;
        }
        for inc in [1, 2] {
            for device in [false, true] {
                let xs = laid(&x, inc, P::new(100.0, 100.0));
                let one = [P::new(0.0, 0.0); 3];
                let (s, _, _, got) = run_l1(L1::Iamax, 40, x[0], (&xs, inc), (&one, 1), device);
                assert_eq!(s, Status::Success);
                assert_eq!(index_of(got), want, "{change:?} inc={inc} device={device}");
            }
        }
    }
}

/// `len` elements of `values` at increment `inc` (element i at i*inc, from the far end for a
/// negative one), the elements between them `gap`.
fn spread<P: Precision>(values: &[P], inc: i32, gap: P) -> Vec<P> {
    let step = inc.unsigned_abs() as usize;
    let len = values.len();
    let mut v = vec![gap; (len - 1) * step + 1];
    for (i, &x) in values.iter().enumerate() {
        v[at(i, len, inc)] = x;
    }
    v
}

/// Where element i of a vector of `len` at increment `inc` is stored.
fn at(i: usize, len: usize, inc: i32) -> usize {
    let step = inc.unsigned_abs() as usize;
    if inc > 0 {
        i * step
    } else {
        (len - 1 - i) * step
    }
}

/// gemv in each operation over odd sizes, increments (negative ones too: the elements between
/// x's are NaN, never read; those between y's never written) and placements (0: host; 1: A and
/// y on the device; 2: A and x), alpha and beta general, purely imaginary, and 0 (A and x not
/// read; beta = 0 over NaN in y). Tolerance: each part of an element of op(A)·x is a sum of k
/// complex products (two real products and a sum each), then alpha's product and beta's are
/// added: within gamma_{k+6} of |alpha|·Σ|a||x| + |beta||y|, magnitudes |re| + |im|.
fn gemv<P: Precision>() {
    let (zero, nan) = (P::new(0.0, 0.0), P::new(f64::NAN, f64::NAN));
    let guard = P::new(-1234.5, 6789.25);
    let scalars = [
        (P::new(-1.25, 0.5), P::new(0.5, -0.75)),
        (P::new(0.0, 1.0), zero),
        (zero, P::new(0.0, -2.0)),
    ];
    for (m, n) in [(1, 1), (7, 5), (33, 17), (4, 64)] {
        for op in OPS {
            let (leny, k) = if op.0 == 0 { (m, n) } else { (n, m) };
            for (incx, incy) in [(1, 1), (2, -3), (-1, 2)] {
                for (s, &(alpha, beta)) in scalars.iter().enumerate() {
                    let seed = (m * 1000 + n * 10 + s) as u64;
                    let lda = m + 2;
                    let a = stored::<P>((m, n), lda, seed);
                    let xs = P::data(k, seed + 1);
                    let mut ys = P::data(leny, seed + 2);
                    if beta == zero {
                        ys = vec![P::new(f64::NAN, f64::INFINITY); leny];
                    }
                    let x = spread(&xs, incx, nan);
                    let y = spread(&ys, incy, guard);
                    let (ad, xd) = (Dev::new(&a), Dev::new(&x));
                    for placement in 0..3 {
                        let what = format!(
                            "{} m={m} n={n} incx={incx} incy={incy} alpha={alpha:?} \
                             beta={beta:?} placement={placement}",
                            op.0
                        );
                        let (mut yh, yd) = (y.clone(), Dev::new(&y));
                        let ap = if placement == 0 {
                            a.as_ptr()
                        } else {
                            ad.0.cast_const().cast()
                        };
                        let xp = if placement == 2 {
                            xd.0.cast_const().cast()
                        } else {
                            x.as_ptr()
                        };
                        let yp = if placement == 1 {
                            yd.0.cast()
                        } else {
                            yh.as_mut_ptr()
                        };
                        let status = unsafe {
                            P::gemv(op, (m, n), &alpha, (ap, lda), (xp, incx), &beta, (yp, incy))
                        };
                        let got = if placement == 1 {
                            yd.get_as::<P>(y.len())
                        } else {
                            yh
                        };
                        if !P::here() {
                            assert_eq!(status, Status::NotSupported, "{what}");
                            assert_untouched(&got, &y, &what);
                            continue;
                        }
                        assert_eq!(status, Status::Success, "{what}");
                        let mut expect = y.clone();
                        for i in 0..leny {
                            expect[at(i, leny, incy)] = got[at(i, leny, incy)];
                            let a_il = |l: usize| {
                                let (re, im) = if op.0 == 0 {
                                    a[i + l * lda].parts()
                                } else {
                                    a[l + i * lda].parts()
                                };
                                (re, if op.0 == 2 { -im } else { im })
                            };
                            let terms = |l: usize| (a_il(l), xs[l].parts());
                            let acc_re = dot2((0..k).flat_map(|l| {
                                let ((ar, ai), (xr, xi)) = terms(l);
                                [(ar, xr), (-ai, xi)]
                            }))
                            .0;
                            let acc_im = dot2((0..k).flat_map(|l| {
                                let ((ar, ai), (xr, xi)) = terms(l);
                                [(ar, xi), (ai, xr)]
                            }))
                            .0;
                            let (alr, ali) = alpha.parts();
                            let (ber, bei) = beta.parts();
                            let (yr, yi) = if beta == zero {
                                (0.0, 0.0)
                            } else {
                                ys[i].parts()
                            };
                            let (acc_re, acc_im) = if alpha == zero {
                                (0.0, 0.0)
                            } else {
                                (acc_re, acc_im)
                            };
                            let wr = dot2(
                                [(alr, acc_re), (-ali, acc_im), (ber, yr), (-bei, yi)].into_iter(),
                            )
                            .0;
                            let wi = dot2(
                                [(alr, acc_im), (ali, acc_re), (ber, yi), (bei, yr)].into_iter(),
                            )
                            .0;
                            let sum_ax: f64 =
                                (0..k).map(|l| mag(terms(l).0) * mag(terms(l).1)).sum();
                            let scale = mag((alr, ali)) * sum_ax + mag((ber, bei)) * mag((yr, yi));
                            let tol = (k + 6) as f64 * P::U * scale + f64::MIN_POSITIVE;
                            let (gr, gi) = got[at(i, leny, incy)].parts();
                            assert!(
                                (gr - wr).abs() <= tol && (gi - wi).abs() <= tol,
                                "{what}: y({i}) = {gr}{gi:+}i, want {wr}{wi:+}i, tol {tol:e}"
                            );
                        }
                        assert_untouched(&got, &expect, &format!("{what}: between y's"));
                    }
                }
            }
        }
    }
}

#[test]
fn complex_level1_routines() {
    level1::<glblasComplex>();
    level1::<glblasDoubleComplex>();
}

#[test]
fn icamax_and_izamax_compare_re_plus_im() {
    iamax_special::<glblasComplex>();
    iamax_special::<glblasDoubleComplex>();
}

#[test]
fn cgemv_every_operation_increment_and_placement() {
    gemv::<glblasComplex>();
}

#[test]
fn zgemv_every_operation_increment_and_placement() {
    gemv::<glblasDoubleComplex>();
}

/// copy (`swap` false) or swap over sizes, increments (0 for copy's x) and placements: every
/// element moved exactly, and every element around and between the outputs' untouched.
fn copy_and_swap<P: Precision>(swap: bool) {
    let guard = P::new(-1234.5, 6789.25);
    for n in [1usize, 2, 3, 5, 33, 1000] {
        for (incx, incy) in [(1i32, 1i32), (2, 1), (1, -3), (-1, 2), (0, 1), (3, 0)] {
            if swap && (incx == 0 || incy == 0) {
                continue;
            }
            for device in [false, true] {
                // Storage: one guard, then the vector's span with guards between its elements.
                let lay = |inc: i32, values: &[P]| -> Vec<P> {
                    let span = if inc == 0 {
                        1
                    } else {
                        (n - 1) * inc.unsigned_abs() as usize + 1
                    };
                    let mut s = vec![guard; span + 2];
                    // Increment 0: one element, the first value.
                    let values = if inc == 0 { &values[..1] } else { values };
                    for (i, v) in values.iter().enumerate() {
                        let at = if inc >= 0 {
                            i * inc as usize
                        } else {
                            (n - 1 - i) * inc.unsigned_abs() as usize
                        };
                        s[1 + at] = *v;
                    }
                    s
                };
                let (xv, yv) = (P::data(n, n as u64), P::data(n, 7 + n as u64));
                let (xs, ys) = (lay(incx, &xv), lay(incy, &yv));
                // y's elements in order (copy with incx 0 copies x[0] to each; with incy 0 the
                // last write wins); swap's x gets y's.
                let moved: Vec<P> = (0..n).map(|i| xv[if incx == 0 { 0 } else { i }]).collect();
                let want_y = if incy == 0 {
                    lay(0, &moved[n - 1..])
                } else {
                    lay(incy, &moved)
                };
                let want_x = if swap { lay(incx, &yv) } else { xs.clone() };
                let (xd, yd) = (Dev::new(&xs), Dev::new(&ys));
                let (mut xh, mut yh) = (xs.clone(), ys.clone());
                let (xp, yp): (*mut P, *mut P) = if device {
                    (xd.0.cast(), yd.0.cast())
                } else {
                    (xh.as_mut_ptr(), yh.as_mut_ptr())
                };
                let what = format!("swap={swap} n={n} incx={incx} incy={incy} device={device}");
                let s = unsafe {
                    P::copy(
                        swap,
                        n as i32,
                        xp.wrapping_add(1),
                        incx,
                        yp.wrapping_add(1),
                        incy,
                    )
                };
                let (gx, gy) = if device {
                    (xd.get_as::<P>(xs.len()), yd.get_as::<P>(ys.len()))
                } else {
                    (xh, yh)
                };
                if !P::here() {
                    assert_eq!(s, Status::NotSupported, "{what}");
                    assert_untouched(&gx, &xs, &what);
                    assert_untouched(&gy, &ys, &what);
                    continue;
                }
                assert_eq!(s, Status::Success, "{what}");
                assert_untouched(&gx, &want_x, &format!("{what}: x"));
                assert_untouched(&gy, &want_y, &format!("{what}: y"));
            }
        }
    }
}

#[test]
fn ccopy_zcopy_cswap_zswap() {
    for swap in [false, true] {
        copy_and_swap::<glblasComplex>(swap);
        copy_and_swap::<glblasDoubleComplex>(swap);
    }
}

/// A stored order×order matrix whose `upper` (else lower) triangle holds random values and the
/// other triangle NaN (never read), and the dense matrix it stands for: symmetric or, with
/// `hermitian`, Hermitian (the diagonal's imaginary parts NaN, never read); triangular with
/// `tri` = Some(unit) (a unit diagonal NaN, never read).
fn shaped<P: Precision>(
    order: usize,
    upper: bool,
    (hermitian, tri): (bool, Option<bool>),
    seed: u64,
) -> (Vec<P>, Vec<P>) {
    let nan = f64::NAN;
    let values = P::data(order * order, seed);
    let (mut stored, mut dense) = (values.clone(), values.clone());
    for j in 0..order {
        for i in 0..order {
            let at = i + j * order;
            let (re, im) = values[at].parts();
            let stored_here = if upper { i <= j } else { i >= j };
            if !stored_here {
                let (mr, mi) = values[j + i * order].parts();
                stored[at] = P::new(nan, nan);
                dense[at] = match tri {
                    Some(_) => P::new(0.0, 0.0),
                    None if hermitian => P::new(mr, -mi),
                    None => P::new(mr, mi),
                };
            } else if i == j && hermitian {
                stored[at] = P::new(re, nan);
                dense[at] = P::new(re, 0.0);
            } else if i == j && tri == Some(true) {
                stored[at] = P::new(nan, nan);
                dense[at] = P::new(1.0, 0.0);
            } else {
                dense[at] = P::new(re, im);
            }
        }
    }
    (stored, dense)
}

/// Sizes (m, n) of symm_hemm_trmm's calls, on either side.
const SHAPED_SIZES: &[(usize, usize)] = &[(7, 5), (1, 9), (12, 3)];

/// symm and hemm on each side and triangle, trmm on each side, triangle, operation and
/// diagonal, C (B) on the host and on the device, with `sizes` (m, n) on the left and on the
/// right; each against gemm's reference on the dense matrix A stands for, NaN where A must not
/// be read.
fn symm_hemm_trmm<P: Precision>(sizes: [&[(usize, usize)]; 2]) {
    let (alpha, beta) = (P::new(0.5, -1.25), P::new(-0.75, 0.5));
    for right in [false, true] {
        for &(m, n) in sizes[usize::from(right)] {
            for upper in [false, true] {
                let ka = if right { n } else { m };
                let side = SideArg(i32::from(right));
                let uplo = FillArg(i32::from(upper));
                for hermitian in [false, true] {
                    let (a, dense) = shaped::<P>(ka, upper, (hermitian, None), (m * n) as u64);
                    let b = (P::data(m * n, 3), m);
                    let c = (P::data((m + 3) * n, 4), m + 3);
                    let reference = Case {
                        ops: (OPS[0], OPS[0]),
                        mnk: (m, n, ka),
                        alpha,
                        beta,
                        a: if right {
                            b.clone()
                        } else {
                            (dense.clone(), ka)
                        },
                        b: if right {
                            (dense.clone(), ka)
                        } else {
                            b.clone()
                        },
                        c: c.clone(),
                    };
                    for device in [false, true] {
                        let what = format!(
                            "hermitian={hermitian} right={right} upper={upper} m={m} n={n} \
                             device={device}"
                        );
                        let cd = Dev::new(&c.0);
                        let mut ch = c.0.clone();
                        let cp = if device { cd.0.cast() } else { ch.as_mut_ptr() };
                        let s = unsafe {
                            P::symm(
                                hermitian,
                                (side, uplo),
                                (m, n),
                                &alpha,
                                (a.as_ptr(), ka),
                                (b.0.as_ptr(), m),
                                &beta,
                                (cp, c.1),
                            )
                        };
                        let got = if device {
                            cd.get_as::<P>(c.0.len())
                        } else {
                            ch
                        };
                        reference.judge(s, &got, &what);
                    }
                }
                for trans in OPS {
                    for unit in [false, true] {
                        let (a, dense) = shaped::<P>(ka, upper, (false, Some(unit)), ka as u64);
                        let b0 = (P::data((m + 2) * n, 5), m + 2);
                        let reference = Case {
                            ops: if right {
                                (OPS[0], trans)
                            } else {
                                (trans, OPS[0])
                            },
                            mnk: (m, n, ka),
                            alpha,
                            beta: P::new(0.0, 0.0),
                            a: if right {
                                b0.clone()
                            } else {
                                (dense.clone(), ka)
                            },
                            b: if right {
                                (dense.clone(), ka)
                            } else {
                                b0.clone()
                            },
                            c: b0.clone(),
                        };
                        for device in [false, true] {
                            let what = format!(
                                "trmm right={right} upper={upper} trans={} unit={unit} m={m} \
                                 n={n} device={device}",
                                trans.0
                            );
                            let bd = Dev::new(&b0.0);
                            let mut bh = b0.0.clone();
                            let bp = if device { bd.0.cast() } else { bh.as_mut_ptr() };
                            let how = (side, uplo, trans, DiagArg(i32::from(unit)));
                            let a = (a.as_ptr(), ka);
                            let s = unsafe { P::trmm(false, how, (m, n), &alpha, a, (bp, b0.1)) };
                            let got = if device {
                                bd.get_as::<P>(b0.0.len())
                            } else {
                                bh
                            };
                            reference.judge(s, &got, &what);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn csymm_chemm_ctrmm() {
    symm_hemm_trmm::<glblasComplex>([SHAPED_SIZES; 2]);
}

#[test]
fn zsymm_zhemm_ztrmm() {
    symm_hemm_trmm::<glblasDoubleComplex>([SHAPED_SIZES; 2]);
}

/// hemm with an A of order 18, whose 648 reals exceed the window: DIMENSION_OVERFLOW (a
/// symmetric, Hermitian or triangular operand is read whole), C untouched.
fn shaped_beyond_the_window<P: Precision>() {
    let (m, n) = (18, 4);
    let (a, _) = shaped::<P>(m, false, (true, None), 1);
    let (b, c) = (P::data(m * n, 2), P::data(m * n, 3));
    let mut got = c.clone();
    let (alpha, beta) = (P::new(0.5, -1.25), P::new(-0.75, 0.5));
    let s = unsafe {
        P::symm(
            true,
            (SideArg(0), FillArg(0)),
            (m, n),
            &alpha,
            (a.as_ptr(), m),
            (b.as_ptr(), m),
            &beta,
            (got.as_mut_ptr(), m),
        )
    };
    let want = if P::here() {
        Status::DimensionOverflow
    } else {
        Status::NotSupported
    };
    assert_eq!(s, want);
    assert_untouched(&got, &c, "hemm with A beyond one window");
}

/// A's order 17 (578 of the window's 600 reals: a symmetric, Hermitian or triangular operand is
/// read whole), B's and C's real views 2·17·40 and more: computed in parts along B's and C's
/// columns on the left; on the right along them and along k, each part reading A from its
/// origin.
#[test]
fn symm_hemm_trmm_beyond_one_window() {
    in_small_window("symm_hemm_trmm_beyond_one_window", || {
        let sizes: [&[(usize, usize)]; 2] = [&[(17, 40)], &[(40, 17)]];
        symm_hemm_trmm::<glblasComplex>(sizes);
        symm_hemm_trmm::<glblasDoubleComplex>(sizes);
        shaped_beyond_the_window::<glblasComplex>();
        shaped_beyond_the_window::<glblasDoubleComplex>();
    });
}

/// syrk, herk, syr2k and her2k on each triangle and operation (N and T; N and C for the
/// Hermitian ones), C on the host and on the device: C's triangle against gemm's reference of
/// its products (her2k's second with conj(alpha)), the other triangle and the padding untouched,
/// and herk's and her2k's diagonal real (imaginary parts exactly 0); with `sizes` (n, k).
fn rank_k<P: Precision>(sizes: &[(usize, usize)]) {
    let alpha = P::new(0.75, -0.5);
    for hermitian in [false, true] {
        // herk's alpha and beta, her2k's beta, are real.
        let (alpha1, beta) = if hermitian {
            (P::new(0.75, 0.0), P::new(-0.5, 0.0))
        } else {
            (alpha, P::new(-0.5, 0.25))
        };
        let (other, trans_ops) = if hermitian {
            (OPS[2], [OPS[0], OPS[2]])
        } else {
            (OPS[1], [OPS[0], OPS[1]])
        };
        for two in [false, true] {
            for upper in [false, true] {
                for trans in trans_ops {
                    for &(n, k) in sizes {
                        let shape = if trans.0 == 0 { (n, k) } else { (k, n) };
                        let ld = shape.0 + 1;
                        let a = (stored::<P>(shape, ld, (n * k) as u64), ld);
                        let b = (stored::<P>(shape, ld, (n + k) as u64), ld);
                        let c = (P::data((n + 2) * n, 6), n + 2);
                        // op(X)^T (^H) of stored X: its other operation.
                        let ops = if trans.0 == 0 {
                            (OPS[0], other)
                        } else {
                            (trans, OPS[0])
                        };
                        let scalar = if two { alpha } else { alpha1 };
                        let first = Case {
                            ops,
                            mnk: (n, n, k),
                            alpha: scalar,
                            beta,
                            a: a.clone(),
                            b: if two { b.clone() } else { a.clone() },
                            c: c.clone(),
                        };
                        let (re, im) = scalar.parts();
                        let second = Case {
                            alpha: if hermitian { P::new(re, -im) } else { scalar },
                            beta: P::new(0.0, 0.0),
                            a: b.clone(),
                            b: a.clone(),
                            ..first.clone()
                        };
                        for device in [false, true] {
                            let what = format!(
                                "hermitian={hermitian} two={two} upper={upper} trans={} n={n} \
                                 k={k} device={device}",
                                trans.0
                            );
                            let cd = Dev::new(&c.0);
                            let mut ch = c.0.clone();
                            let cp = if device { cd.0.cast() } else { ch.as_mut_ptr() };
                            let s = unsafe {
                                P::rank_k(
                                    hermitian,
                                    (FillArg(i32::from(upper)), trans),
                                    (n, k),
                                    scalar,
                                    (a.0.as_ptr(), a.1),
                                    two.then_some((b.0.as_ptr(), b.1)),
                                    beta,
                                    (cp, c.1),
                                )
                            };
                            let got = if device {
                                cd.get_as::<P>(c.0.len())
                            } else {
                                ch
                            };
                            if !P::here() {
                                assert_eq!(s, Status::NotSupported, "{what}");
                                assert_untouched(&got, &c.0, &what);
                                continue;
                            }
                            assert_eq!(s, Status::Success, "{what}");
                            let depth = if two { 2 * k } else { k };
                            for j in 0..n {
                                for i in 0..c.1 {
                                    let at = i + j * c.1;
                                    let inside = i < n && if upper { i <= j } else { i >= j };
                                    if !inside {
                                        let was = &c.0[at..at + 1];
                                        assert_untouched(&got[at..at + 1], was, &what);
                                        continue;
                                    }
                                    let ((wr, wi), s1) = first.want(i, j);
                                    let ((xr, xi), s2) = if two {
                                        second.want(i, j)
                                    } else {
                                        ((0.0, 0.0), 0.0)
                                    };
                                    // The reference takes a Hermitian C's diagonal as real.
                                    let real = hermitian && i == j;
                                    let (wr, wi) = (wr + xr, if real { 0.0 } else { wi + xi });
                                    let tol = (2 * depth + 6) as f64 * P::U * (s1 + s2)
                                        + f64::MIN_POSITIVE;
                                    let (gr, gi) = got[at].parts();
                                    if real {
                                        assert_eq!(gi.to_bits(), 0, "{what}: C({i},{i}) not real");
                                    }
                                    assert!(
                                        (gr - wr).abs() <= tol && (gi - wi).abs() <= tol,
                                        "{what}: C({i},{j}) = {gr}{gi:+}i, want {wr}{wi:+}i, \
                                         tol {tol:e}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Sizes (n, k) of rank_k's calls: 130 spans two tiles of C's triangle (of 64 or 128
/// elements a side: `gemm.comp`'s `tile()`), the last tile's lower half past C's last row.
const RANK_K_SIZES: &[(usize, usize)] = &[(7, 5), (1, 9), (12, 3), (130, 3)];

#[test]
fn csyrk_cherk_csyr2k_cher2k() {
    rank_k::<glblasComplex>(RANK_K_SIZES);
}

#[test]
fn zsyrk_zherk_zsyr2k_zher2k() {
    rank_k::<glblasDoubleComplex>(RANK_K_SIZES);
}

/// C's real view 2·26·24 (ld n + 2) or 2·21·19, A's and B's (ld one past their rows) 2·25·13
/// to 2·20·40 of the window's 600 reals: computed in parts along m and n (on C's diagonal,
/// inside its triangle, and outside it, skipped) and along k.
#[test]
fn syrk_herk_syr2k_her2k_beyond_one_window() {
    in_small_window("syrk_herk_syr2k_her2k_beyond_one_window", || {
        let sizes = [(24, 13), (19, 40)];
        rank_k::<glblasComplex>(&sizes);
        rank_k::<glblasDoubleComplex>(&sizes);
    });
}

/// ctrsm and ztrsm on each side, triangle, operation and diagonal, with A's order past one
/// diagonal block of the blocked solve (`kernels/level3.rs`: 128) so that the products taking
/// solved blocks out of the rest run too; checked by the residual. A is diagonally dominant
/// (diagonal moduli in [1, 2], the rest scaled by 1/order); the other triangle and a unit
/// diagonal are NaN (never read). Each part of op(A)·X - alpha·B is within 2·trsm_terms(order)·u
/// of |op(A)||X| + |alpha B| (moduli): the real bound's terms, each complex operation a few
/// real ones.
fn trsm<P: Precision>() {
    let alpha = P::new(0.5, 0.75);
    let order = 300;
    for right in [false, true] {
        for upper in [false, true] {
            for trans in OPS {
                for unit in [false, true] {
                    let (m, n) = if right { (5, order) } else { (order, 6) };
                    let (mut a, mut dense) =
                        shaped::<P>(order, upper, (false, Some(unit)), order as u64);
                    for j in 0..order {
                        for i in 0..order {
                            let stored_here = if upper { i <= j } else { i >= j };
                            if !stored_here || (i == j && unit) {
                                continue;
                            }
                            let at = i + j * order;
                            let (re, im) = a[at].parts();
                            a[at] = if i == j {
                                // Modulus between 1 and 2.
                                let r = (re * re + im * im).sqrt().max(1e-3);
                                P::new(re / r * (1.0 + r), im / r * (1.0 + r))
                            } else {
                                P::new(re / order as f64, im / order as f64)
                            };
                            dense[at] = a[at];
                        }
                    }
                    let ldb = m + 1;
                    let b0 = P::data(ldb * n, 9);
                    let mut x = b0.clone();
                    let how = (
                        SideArg(i32::from(right)),
                        FillArg(i32::from(upper)),
                        trans,
                        DiagArg(i32::from(unit)),
                    );
                    let what = format!(
                        "trsm right={right} upper={upper} trans={} unit={unit}",
                        trans.0
                    );
                    let s = unsafe {
                        P::trmm(
                            true,
                            how,
                            (m, n),
                            &alpha,
                            (a.as_ptr(), order),
                            (x.as_mut_ptr(), ldb),
                        )
                    };
                    if !P::here() {
                        assert_eq!(s, Status::NotSupported, "{what}");
                        assert_untouched(&x, &b0, &what);
                        continue;
                    }
                    assert_eq!(s, Status::Success, "{what}");
                    // op(A)·X (left) or X·op(A) (right) against alpha·B, by gemm's reference.
                    let product = Case {
                        ops: if right {
                            (OPS[0], trans)
                        } else {
                            (trans, OPS[0])
                        },
                        mnk: (m, n, order),
                        alpha: P::new(1.0, 0.0),
                        beta: P::new(0.0, 0.0),
                        a: if right {
                            (x.clone(), ldb)
                        } else {
                            (dense.clone(), order)
                        },
                        b: if right {
                            (dense.clone(), order)
                        } else {
                            (x.clone(), ldb)
                        },
                        c: (b0.clone(), ldb),
                    };
                    let (ar, ai) = alpha.parts();
                    let bound = 2.0 * trsm_terms(order) as f64 * P::U;
                    for j in 0..n {
                        for i in 0..m {
                            let ((pr, pi), scale) = product.want(i, j);
                            let (br, bi) = b0[i + j * ldb].parts();
                            let (wr, wi) = (ar * br - ai * bi, ar * bi + ai * br);
                            let tol = bound * (scale + mag((wr, wi))) + f64::MIN_POSITIVE;
                            assert!(
                                (pr - wr).abs() <= tol && (pi - wi).abs() <= tol,
                                "{what}: residual at ({i},{j}): {:e}{:+e}i, tol {tol:e}",
                                pr - wr,
                                pi - wi
                            );
                        }
                        let pad = &x[j * ldb + m..(j + 1) * ldb];
                        assert_untouched(pad, &b0[j * ldb + m..(j + 1) * ldb], &what);
                    }
                }
            }
        }
    }
}

#[test]
fn ctrsm_and_ztrsm_past_one_block() {
    trsm::<glblasComplex>();
    trsm::<glblasDoubleComplex>();
}

/// ctrsm divides by its diagonal without forming |d|², which leaves single precision's range
/// for |d| past about 1.8e19 and below about 1e-19: with diagonals of moduli near 1e20 and
/// 1e-20 (parts of either sign, the larger either one, so both branches of Smith's method),
/// X = B / d to within a few units of roundoff of |X|.
#[test]
fn ctrsm_divides_by_huge_and_tiny_diagonals() {
    type P = glblasComplex;
    let order = 4;
    for scale in [1e20, 1e-20] {
        let diagonal = [(1.0, 1.0), (-0.5, 1.0), (1.0, -0.25), (-1.0, -1.0)];
        let mut a = vec![P::new(0.0, 0.0); order * order];
        for (i, &(re, im)) in diagonal.iter().enumerate() {
            a[i + i * order] = P::new(re * scale, im * scale);
        }
        let b0: Vec<P> = (0..order)
            .map(|i| P::new(1.0 + i as f64, 0.5 - i as f64))
            .collect();
        let mut x = b0.clone();
        let how = (SideArg(0), FillArg(0), OPS[0], DiagArg(0));
        let one = P::new(1.0, 0.0);
        let s = unsafe {
            P::trmm(
                true,
                how,
                (order, 1),
                &one,
                (a.as_ptr(), order),
                (x.as_mut_ptr(), order),
            )
        };
        if !P::here() {
            assert_eq!(s, Status::NotSupported);
            continue;
        }
        assert_eq!(s, Status::Success);
        for i in 0..order {
            let ((br, bi), (dr, di)) = (b0[i].parts(), a[i + i * order].parts());
            let q = dr * dr + di * di;
            let (wr, wi) = ((br * dr + bi * di) / q, (bi * dr - br * di) / q);
            let (gr, gi) = x[i].parts();
            let tol = 8.0 * P::U * mag((wr, wi));
            assert!(
                (gr - wr).abs() <= tol && (gi - wi).abs() <= tol,
                "scale {scale:e}, row {i}: {gr:e}{gi:+e}i, want {wr:e}{wi:+e}i"
            );
        }
    }
}
