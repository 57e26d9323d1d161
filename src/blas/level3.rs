//! The Level 3 routines as BLAS-compatible calls (gemm, symm, syrk, syr2k, trmm, trsm): their
//! arguments and their descriptions. Row-major CBLAS calls become the column-major call the
//! reference CBLAS makes: A and B exchanged (gemm), M and N exchanged (gemm, symm, trmm, trsm),
//! side and uplo swapped, and syrk's/syr2k's trans flipped; they are checked as that call, so
//! they report its parameter numbers as the reference does.

use std::fmt;

use super::checks::{cblas_enums, fault, Fault};
use super::checksums::{too_long, Checksums, Mat, Operator, Sums};
use super::describe::{
    flop_scale, relocated_fields, Address, Describe, Operand, Relocate, Use, Value,
};
use super::options::{
    Flag, Layout, Op, DIAG, ILLEGAL_TRANS, ILLEGAL_TRANSA, ILLEGAL_TRANSB, SIDE, UPLO,
};
use super::region::Region;
use crate::engine::element::Scalar;
use crate::kernels::Trans;
use crate::status::Result;
use crate::{quick, routines};

/// `max(1, rows)`: the smallest valid leading dimension.
fn ld_min(rows: i64) -> i64 {
    rows.max(1)
}

/// The first failing check of a list in the reference order: its parameter number, or 0.
fn first(checks: &[(bool, i32)]) -> i32 {
    checks
        .iter()
        .find(|(failed, _)| *failed)
        .map_or(0, |&(_, info)| info)
}

/// (side, uplo, m, n) of the column-major call a symm, trmm or trsm becomes: a row-major one
/// has side and uplo swapped and M and N exchanged.
fn sided(layout: Layout, side: Flag, uplo: Flag, [m, n]: [i64; 2]) -> (Flag, Flag, i64, i64) {
    if layout == Layout::Row {
        (side.swapped(&SIDE), uplo.swapped(&UPLO), n, m)
    } else {
        (side, uplo, m, n)
    }
}

/// A matrix operand and its leading dimension.
type Matrix<P, I = i64> = (P, I);

/// The order of symm's, trmm's or trsm's A, from the column-major call's (side, uplo, m, n): m
/// with A on the left, else n.
fn order_of_a((side, _, m, n): (Flag, Flag, i64, i64)) -> i64 {
    if side.is(b'L') {
        m
    } else {
        n
    }
}

/// The arguments of sgemm (`T = f32`), dgemm, cgemm or zgemm.
#[derive(Clone, Copy, Debug)]
pub struct GemmArgs<T: Scalar> {
    pub layout: Layout,
    pub transa: Op,
    pub transb: Op,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub b: *const T,
    pub ldb: i64,
    pub beta: T,
    pub c: *mut T,
    pub ldc: i64,
}

/// gemm's checks in the reference order; the Fortran parameter number of the first failure.
#[allow(clippy::too_many_arguments)]
fn gemm_info(ta: Op, tb: Op, m: i64, n: i64, k: i64, lda: i64, ldb: i64, ldc: i64) -> i32 {
    let (Some(ta), Some(tb)) = (ta.transposed(), tb.transposed()) else {
        return if ta.transposed().is_none() { 1 } else { 2 };
    };
    let nrowa = if ta { k } else { m };
    let nrowb = if tb { n } else { k };
    if m < 0 {
        3
    } else if n < 0 {
        4
    } else if k < 0 {
        5
    } else if lda < nrowa.max(1) {
        8
    } else if ldb < nrowb.max(1) {
        10
    } else if ldc < m.max(1) {
        13
    } else {
        0
    }
}

impl<T: Scalar> GemmArgs<T> {
    /// C as the column-major matrix it is stored as, (rows, cols): row-major C (m×n) is the
    /// column-major n×m matrix C^T.
    pub fn c_shape(&self) -> (i64, i64) {
        if self.layout == Layout::Row {
            (self.n, self.m)
        } else {
            (self.m, self.n)
        }
    }

    /// The column-major shapes (rows, cols) that A and B are stored as.
    pub fn stored_ab(&self) -> [(i64, i64); 2] {
        let (ta, tb) = (self.transa != Op::N, self.transb != Op::N);
        let (m, n, k) = (self.m, self.n, self.k);
        // A row-major matrix is stored as its transpose.
        let row = self.layout == Layout::Row;
        let a = if ta != row { (k, m) } else { (m, k) };
        let b = if tb != row { (n, k) } else { (k, n) };
        [a, b]
    }
}

/// The trace's text of gemm's arguments.
impl<T: Scalar> fmt::Display for GemmArgs<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let g = self;
        write!(
            f,
            "{}transa={} transb={} m={} n={} k={} alpha={} lda={} ldb={} beta={} ldc={}",
            g.layout, g.transa, g.transb, g.m, g.n, g.k, g.alpha, g.lda, g.ldb, g.beta, g.ldc
        )
    }
}

impl<T: Scalar> Describe<T> for GemmArgs<T> {
    const LEVEL: u8 = 3;

    fn layout(&self) -> Layout {
        self.layout
    }

    /// Row-major CBLAS calls are checked as the column-major call they become (A and B, M and N
    /// exchanged), so they report that call's positions, as the reference CBLAS does (its
    /// `cblas_xerbla` swaps them back when printing).
    fn check(&self) -> std::result::Result<(), Fault> {
        let g = self;
        let row = cblas_enums(
            g.layout,
            &[
                (g.transa.bad(), 2, ILLEGAL_TRANSA),
                (g.transb.bad(), 3, ILLEGAL_TRANSB),
            ],
        )?;
        let info = if row {
            gemm_info(g.transb, g.transa, g.n, g.m, g.k, g.ldb, g.lda, g.ldc)
        } else {
            gemm_info(g.transa, g.transb, g.m, g.n, g.k, g.lda, g.ldb, g.ldc)
        };
        fault(info, g.layout)
    }

    /// M and N, LDA and LDB.
    fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        &[(4, 5), (9, 11)]
    }

    fn quick_return(&self) -> Option<Value> {
        quick::gemm(self.m, self.n, self.k, self.alpha, self.beta).then_some(Value::ZERO)
    }

    fn flops(&self) -> [i64; 4] {
        [2 * flop_scale::<T>(), self.m, self.n, self.k]
    }

    fn operands(&self) -> Vec<Operand> {
        let [a, b] = self.stored_ab();
        let ab = Use::read_if(self.alpha != T::ZERO && self.k > 0);
        vec![
            Operand::new(Region::matrix(self.a.cast_mut(), a, self.lda), ab),
            Operand::new(Region::matrix(self.b.cast_mut(), b, self.ldb), ab),
            Operand::new(
                Region::matrix(self.c, self.c_shape(), self.ldc),
                Use::output(self.beta != T::ZERO),
            ),
        ]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha, self.beta]
    }

    relocated_fields!(a, b, c);

    unsafe fn run_gl(&self) -> Result<Value> {
        let g = self;
        let ta = g.transa.trans().unwrap_or(Trans::N);
        let tb = g.transb.trans().unwrap_or(Trans::N);
        if g.layout == Layout::Row {
            // Row-major C = op(A)op(B) is column-major C^T = op(B)^T op(A)^T.
            routines::gemm(
                tb, ta, g.n, g.m, g.k, g.alpha, g.b, g.ldb, g.a, g.lda, g.beta, g.c, g.ldc,
            )
        } else {
            routines::gemm(
                ta, tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, g.c, g.ldc,
            )
        }
        .map(|()| Value::ZERO)
    }

    /// C·x = alpha·op(A)·(op(B)·x) + beta·C·x, of the column-major call.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let g = self;
        let (ta, tb) = (trans_of(g.transa), trans_of(g.transb));
        let ((ta, a, lda), (tb, b, ldb), m, n) = if g.layout == Layout::Row {
            ((tb, g.b, g.ldb), (ta, g.a, g.lda), g.n, g.m)
        } else {
            ((ta, g.a, g.lda), (tb, g.b, g.ldb), g.m, g.n)
        };
        if too_long(&[m, n]) {
            return None;
        }
        let stored = |t: Trans, rows: i64, cols: i64| {
            if t == Trans::N {
                (rows, cols)
            } else {
                (cols, rows)
            }
        };
        let x = Sums::probe(n);
        let mut e = Sums::zeros(m);
        // SAFETY (of each product): the call's host operands, as the caller guarantees.
        if g.alpha != T::ZERO && g.k > 0 {
            let bx =
                unsafe { Operator::General(Mat::new(b, stored(tb, g.k, n), ldb), tb).apply(&x) };
            let a = Operator::General(Mat::new(a, stored(ta, m, g.k), lda), ta);
            e.add_scaled(g.alpha.f64_parts(), &unsafe { a.apply(&bx) });
        }
        let c = Operator::General(Mat::new(g.c.cast_const(), (m, n), g.ldc), Trans::N);
        if g.beta != T::ZERO {
            e.add_scaled(g.beta.f64_parts(), &unsafe { c.apply(&x) });
        }
        let weight = x.weight();
        let found = move |_| unsafe { c.apply(&x) };
        let terms = if g.alpha != T::ZERO { g.k } else { 0 };
        Some(Checksums::new(
            e,
            found,
            (terms, n + g.k),
            &[g.alpha, g.beta],
            weight,
        ))
    }
}

/// The arguments of ?symm, or, `hermitian`, of chemm and zhemm: C := alpha*A*B + beta*C (side
/// L) or alpha*B*A + beta*C (side R), A symmetric (Hermitian). A row-major hemm is the
/// column-major one on A^T, which is Hermitian too (its stored triangle the other one).
#[derive(Clone, Copy, Debug)]
pub struct SymmArgs<T: Scalar> {
    pub hermitian: bool,
    pub layout: Layout,
    pub side: Flag,
    pub uplo: Flag,
    pub m: i64,
    pub n: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub b: *const T,
    pub ldb: i64,
    pub beta: T,
    pub c: *mut T,
    pub ldc: i64,
}

impl<T: Scalar> SymmArgs<T> {
    /// (side, uplo, m, n) of the column-major call.
    fn column_major(&self) -> (Flag, Flag, i64, i64) {
        sided(self.layout, self.side, self.uplo, [self.m, self.n])
    }

    /// C as the column-major matrix it is stored as, (rows, cols).
    pub fn c_shape(&self) -> (i64, i64) {
        let (_, _, m, n) = self.column_major();
        (m, n)
    }

    /// The order of A: m with A on the left, else n.
    pub fn a_order(&self) -> i64 {
        order_of_a(self.column_major())
    }
}

impl<T: Scalar> fmt::Display for SymmArgs<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = self;
        write!(
            f,
            "{}side={} uplo={} m={} n={} alpha={} lda={} ldb={} beta={} ldc={}",
            s.layout, s.side, s.uplo, s.m, s.n, s.alpha, s.lda, s.ldb, s.beta, s.ldc
        )
    }
}

impl<T: Scalar> Describe<T> for SymmArgs<T> {
    const LEVEL: u8 = 3;

    fn layout(&self) -> Layout {
        self.layout
    }

    fn check(&self) -> std::result::Result<(), Fault> {
        cblas_enums(
            self.layout,
            &[
                (self.side.bad(), 2, SIDE.message),
                (self.uplo.bad(), 3, UPLO.message),
            ],
        )?;
        let (side, uplo, m, n) = self.column_major();
        let nrowa = order_of_a((side, uplo, m, n));
        let info = first(&[
            (!matches!(side, Flag::Is(_)), 1),
            (!matches!(uplo, Flag::Is(_)), 2),
            (m < 0, 3),
            (n < 0, 4),
            (self.lda < ld_min(nrowa), 7),
            (self.ldb < ld_min(m), 9),
            (self.ldc < ld_min(m), 12),
        ]);
        fault(info, self.layout)
    }

    /// M and N.
    fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        &[(4, 5)]
    }

    /// gemv's rule.
    fn quick_return(&self) -> Option<Value> {
        quick::gemv(self.m, self.n, self.alpha, self.beta).then_some(Value::ZERO)
    }

    /// 2m²n (A on the left) or 2mn², as the reference counts them.
    fn flops(&self) -> [i64; 4] {
        let ka = if self.side.is(b'R') { self.n } else { self.m };
        [2 * flop_scale::<T>(), ka, self.m, self.n]
    }

    /// A: only its stored triangle, all the call reads.
    fn operands(&self) -> Vec<Operand> {
        let upper = self.column_major().1.is(b'U');
        let ab = Use::read_if(self.alpha != T::ZERO);
        vec![
            Operand::new(
                Region::triangle(self.a.cast_mut(), self.a_order(), self.lda, upper),
                ab,
            ),
            Operand::new(
                Region::matrix(self.b.cast_mut(), self.c_shape(), self.ldb),
                ab,
            ),
            Operand::new(
                Region::matrix(self.c, self.c_shape(), self.ldc),
                Use::output(self.beta != T::ZERO),
            ),
        ]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha, self.beta]
    }

    relocated_fields!(a, b, c);

    unsafe fn run_gl(&self) -> Result<Value> {
        let (side, uplo, m, n) = self.column_major();
        routines::symm(
            (side.is(b'R'), self.hermitian, uplo.is(b'U')),
            m,
            n,
            self.alpha,
            (self.a, self.lda),
            (self.b, self.ldb),
            self.beta,
            (self.c, self.ldc),
        )
        .map(|()| Value::ZERO)
    }

    /// C·x = alpha·A·(B·x) + beta·C·x (side L) or alpha·B·(A·x) + beta·C·x, of the
    /// column-major call.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let (side, uplo, m, n) = self.column_major();
        if too_long(&[m, n]) {
            return None;
        }
        let ka = self.a_order();
        let a = Operator::Symmetric(
            Mat::new(self.a, (ka, ka), self.lda),
            uplo.is(b'U'),
            self.hermitian,
        );
        let b = Operator::General(Mat::new(self.b, (m, n), self.ldb), Trans::N);
        let x = Sums::probe(n);
        let mut e = Sums::zeros(m);
        // SAFETY (of each product): the call's host operands, as the caller guarantees.
        if self.alpha != T::ZERO {
            let product = unsafe {
                if side.is(b'R') {
                    b.apply(&a.apply(&x))
                } else {
                    a.apply(&b.apply(&x))
                }
            };
            e.add_scaled(self.alpha.f64_parts(), &product);
        }
        let c = Operator::General(Mat::new(self.c.cast_const(), (m, n), self.ldc), Trans::N);
        if self.beta != T::ZERO {
            e.add_scaled(self.beta.f64_parts(), &unsafe { c.apply(&x) });
        }
        let weight = x.weight();
        let found = move |_| unsafe { c.apply(&x) };
        let terms = if self.alpha != T::ZERO { ka } else { 0 };
        Some(Checksums::new(
            e,
            found,
            (terms, m + n + ka),
            &[self.alpha, self.beta],
            weight,
        ))
    }
}

/// The arguments of ?syrk (`b` None) or ?syr2k: C := alpha*op(A)*op(A)^T + beta*C, or
/// alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C, only C's uplo triangle read and written;
/// or, `hermitian`, of cherk and zherk (alpha and beta real) or cher2k and zher2k (beta real),
/// with ^H for ^T, conj(alpha) in her2k's second product, and C's diagonal real.
#[derive(Clone, Copy, Debug)]
pub struct SyrkArgs<T: Scalar> {
    pub hermitian: bool,
    pub layout: Layout,
    pub uplo: Flag,
    pub trans: Op,
    pub n: i64,
    pub k: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub b: Option<Matrix<*const T>>,
    pub beta: T,
    pub c: *mut T,
    pub ldc: i64,
}

impl<T: Scalar> SyrkArgs<T> {
    /// (uplo, trans) of the column-major call: row-major C is stored as C^T, the other
    /// triangle, and op(A) is read as the other operation (herk's and her2k's: N and C, as the
    /// reference CBLAS maps them).
    fn column_major(&self) -> (Flag, Op) {
        if self.layout != Layout::Row {
            return (self.uplo, self.trans);
        }
        let trans = match (self.hermitian, self.trans) {
            (true, Op::N) => Op::C,
            (_, op) => op.flipped(),
        };
        (self.uplo.swapped(&UPLO), trans)
    }

    /// Whether `trans` is an operation of this routine: any for real data; N or T for complex
    /// syrk and syr2k, N or C for herk and her2k.
    fn valid(&self, trans: Op) -> bool {
        !matches!(
            (trans.trans(), T::COMPLEX, self.hermitian),
            (None, _, _) | (Some(Trans::C), true, false) | (Some(Trans::T), true, true)
        )
    }

    /// The column-major shape (rows, cols) that A (and B) are stored as.
    pub fn a_shape(&self) -> (i64, i64) {
        if self.column_major().1 == Op::N {
            (self.n, self.k)
        } else {
            (self.k, self.n)
        }
    }
}

impl<T: Scalar> fmt::Display for SyrkArgs<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = self;
        write!(
            f,
            "{}uplo={} trans={} n={} k={} alpha={} lda={}",
            s.layout, s.uplo, s.trans, s.n, s.k, s.alpha, s.lda
        )?;
        if let Some((_, ldb)) = s.b {
            write!(f, " ldb={ldb}")?;
        }
        write!(f, " beta={} ldc={}", s.beta, s.ldc)
    }
}

impl<T: Scalar> Describe<T> for SyrkArgs<T> {
    const LEVEL: u8 = 3;

    fn layout(&self) -> Layout {
        self.layout
    }

    fn check(&self) -> std::result::Result<(), Fault> {
        // The reference CBLAS reports a bad uplo of a row-major call as parameter 3.
        let uplo_position = if self.layout == Layout::Row { 3 } else { 2 };
        cblas_enums(
            self.layout,
            &[
                (self.uplo.bad(), uplo_position, UPLO.message),
                (self.trans.bad(), 3, ILLEGAL_TRANS),
            ],
        )?;
        let (uplo, trans) = self.column_major();
        let nrowa = if trans == Op::N { self.n } else { self.k };
        let (ldb_bad, ldc_position) = match self.b {
            Some((_, ldb)) => (ldb < ld_min(nrowa), 12),
            None => (false, 10),
        };
        let info = first(&[
            (!matches!(uplo, Flag::Is(_)), 1),
            (!self.valid(trans), 2),
            (self.n < 0, 3),
            (self.k < 0, 4),
            (self.lda < ld_min(nrowa), 7),
            (ldb_bad, 9),
            (self.ldc < ld_min(self.n), ldc_position),
        ]);
        fault(info, self.layout)
    }

    fn quick_return(&self) -> Option<Value> {
        quick::syrk(self.n, self.k, self.alpha, self.beta).then_some(Value::ZERO)
    }

    /// n²k (syrk) or 2n²k (syr2k), as the reference counts them.
    fn flops(&self) -> [i64; 4] {
        let products = if self.b.is_some() { 2 } else { 1 };
        [products * flop_scale::<T>(), self.n, self.n, self.k]
    }

    /// Only C's stored triangle: the other is never read or written, not even with its own
    /// values.
    fn operands(&self) -> Vec<Operand> {
        let shape = self.a_shape();
        let ab = Use::read_if(self.alpha != T::ZERO && self.k > 0);
        let mut operands = vec![Operand::new(
            Region::matrix(self.a.cast_mut(), shape, self.lda),
            ab,
        )];
        operands.extend(
            self.b
                .map(|(b, ldb)| Operand::new(Region::matrix(b.cast_mut(), shape, ldb), ab)),
        );
        let upper = self.column_major().0.is(b'U');
        operands.push(Operand::new(
            Region::triangle(self.c, self.n, self.ldc, upper),
            Use::output(self.beta != T::ZERO),
        ));
        operands
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha, self.beta]
    }

    fn relocated(&self, to: Relocate) -> Self {
        Self {
            a: self.a.relocated(to),
            b: self.b.map(|(b, ldb)| (b.relocated(to), ldb)),
            c: self.c.relocated(to),
            ..*self
        }
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let (uplo, trans) = self.column_major();
        // A row-major her2k is the column-major one with conj(alpha), as the reference CBLAS
        // calls it (C^T = conj(alpha) conj(A) B^T + alpha conj(B) A^T).
        let alpha = match (self.hermitian, self.layout, self.b) {
            (true, Layout::Row, Some(_)) => self.alpha.conj(),
            _ => self.alpha,
        };
        routines::syrk(
            (uplo.is(b'U'), self.hermitian),
            trans.trans().unwrap_or(Trans::N),
            self.n,
            self.k,
            alpha,
            (self.a, self.lda),
            self.b,
            self.beta,
            (self.c, self.ldc),
        )
        .map(|()| Value::ZERO)
    }

    /// tri(C)·x = alpha·tri(op(A)·op(A)^T)·x (+ alpha'·tri(op(B)·op(A)^T)·x, with op(B) in the
    /// first product, for syr2k) + beta·tri(C)·x: C's triangle alone, ^H for the Hermitian
    /// routines, of the column-major call.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let (uplo, trans) = self.column_major();
        // The product's order, where it is computed (with alpha 0, A and B are not read).
        let k = if self.alpha != T::ZERO { self.k } else { 0 };
        if too_long(&[self.n, k]) {
            return None;
        }
        let upper = uplo.is(b'U');
        let alpha = match (self.hermitian, self.layout, self.b) {
            (true, Layout::Row, Some(_)) => self.alpha.conj(),
            _ => self.alpha,
        };
        let shape = self.a_shape();
        let a = Mat::new(self.a, shape, self.lda);
        let product = |l, r| Operator::TriangleOfProduct {
            l,
            r,
            trans: trans != Op::N,
            hermitian: self.hermitian,
            upper,
        };
        let x = Sums::probe(self.n);
        let mut e = Sums::zeros(self.n);
        // SAFETY (of each product): the call's host operands, as the caller guarantees.
        if self.alpha != T::ZERO && self.k > 0 {
            match self.b {
                None => e.add_scaled(alpha.f64_parts(), &unsafe { product(a, a).apply(&x) }),
                Some((b, ldb)) => {
                    let b = Mat::new(b, shape, ldb);
                    let second = if self.hermitian { alpha.conj() } else { alpha };
                    e.add_scaled(alpha.f64_parts(), &unsafe { product(a, b).apply(&x) });
                    e.add_scaled(second.f64_parts(), &unsafe { product(b, a).apply(&x) });
                }
            }
        }
        let c = Mat::new(self.c.cast_const(), (self.n, self.n), self.ldc);
        if self.beta != T::ZERO {
            let read = Operator::Triangle(c, upper, self.hermitian);
            e.add_scaled(self.beta.f64_parts(), &unsafe { read.apply(&x) });
        }
        let terms = if self.b.is_some() { 2 * k } else { k };
        let weight = x.weight();
        let written = Operator::Triangle(c, upper, false);
        let found = move |_| unsafe { written.apply(&x) };
        Some(Checksums::new(
            e,
            found,
            (terms, self.n + k + 2),
            &[alpha, self.beta],
            weight,
        ))
    }
}

/// The arguments of strmm and strsm (`T = f32`), or dtrmm and dtrsm: B := alpha*op(A)*B (side
/// L) or alpha*B*op(A), or the solution X of op(A)*X = alpha*B or X*op(A) = alpha*B; A
/// triangular.
#[derive(Clone, Copy, Debug)]
pub struct TriArgs<T: Scalar, const SOLVE: bool> {
    pub layout: Layout,
    pub side: Flag,
    pub uplo: Flag,
    pub transa: Op,
    pub diag: Flag,
    pub m: i64,
    pub n: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub b: *mut T,
    pub ldb: i64,
}

impl<T: Scalar, const SOLVE: bool> TriArgs<T, SOLVE> {
    /// (side, uplo, m, n) of the column-major call (op and diag are the same).
    fn column_major(&self) -> (Flag, Flag, i64, i64) {
        sided(self.layout, self.side, self.uplo, [self.m, self.n])
    }

    /// B as the column-major matrix it is stored as, (rows, cols).
    pub fn b_shape(&self) -> (i64, i64) {
        let (_, _, m, n) = self.column_major();
        (m, n)
    }

    /// The order of A: m with A on the left, else n.
    pub fn a_order(&self) -> i64 {
        order_of_a(self.column_major())
    }
}

impl<T: Scalar, const SOLVE: bool> fmt::Display for TriArgs<T, SOLVE> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let s = self;
        write!(
            f,
            "{}side={} uplo={} transa={} diag={} m={} n={} alpha={} lda={} ldb={}",
            s.layout, s.side, s.uplo, s.transa, s.diag, s.m, s.n, s.alpha, s.lda, s.ldb
        )
    }
}

/// trmm: B := alpha*op(A)*B or alpha*B*op(A).
pub type Trmm<T> = TriArgs<T, false>;
/// trsm: B := the solution X of op(A)*X = alpha*B or X*op(A) = alpha*B.
pub type Trsm<T> = TriArgs<T, true>;

/// trmm, or trsm when `SOLVE`.
impl<T: Scalar, const SOLVE: bool> Describe<T> for TriArgs<T, SOLVE> {
    const LEVEL: u8 = 3;
    /// trsm lost to the CPU BLAS at every size measured on a GPU (`route`).
    const GPU_WINS_WHEN_LARGE: bool = !SOLVE;

    fn layout(&self) -> Layout {
        self.layout
    }

    fn check(&self) -> std::result::Result<(), Fault> {
        cblas_enums(
            self.layout,
            &[
                (self.side.bad(), 2, SIDE.message),
                (self.uplo.bad(), 3, UPLO.message),
                (self.transa.bad(), 4, ILLEGAL_TRANS),
                (self.diag.bad(), 5, DIAG.message),
            ],
        )?;
        let (side, uplo, m, n) = self.column_major();
        let nrowa = order_of_a((side, uplo, m, n));
        let info = first(&[
            (!matches!(side, Flag::Is(_)), 1),
            (!matches!(uplo, Flag::Is(_)), 2),
            (self.transa.bad().is_some(), 3),
            (!matches!(self.diag, Flag::Is(_)), 4),
            (m < 0, 5),
            (n < 0, 6),
            (self.lda < ld_min(nrowa), 9),
            (self.ldb < ld_min(m), 11),
        ]);
        fault(info, self.layout)
    }

    /// M and N.
    fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        &[(6, 7)]
    }

    fn quick_return(&self) -> Option<Value> {
        quick::triangular(self.m, self.n).then_some(Value::ZERO)
    }

    /// m²n (A on the left) or mn², as the reference counts them.
    fn flops(&self) -> [i64; 4] {
        let ka = if self.side.is(b'R') { self.n } else { self.m };
        [flop_scale::<T>(), ka, self.m, self.n]
    }

    /// A: only its stored triangle, all the call reads. B is the right-hand side, read before
    /// the result overwrites it.
    fn operands(&self) -> Vec<Operand> {
        let upper = self.column_major().1.is(b'U');
        vec![
            Operand::new(
                Region::triangle(self.a.cast_mut(), self.a_order(), self.lda, upper),
                Use::read_if(self.alpha != T::ZERO),
            ),
            Operand::new(
                Region::matrix(self.b, self.b_shape(), self.ldb),
                Use::output(true),
            ),
        ]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha]
    }

    relocated_fields!(a, b);

    unsafe fn run_gl(&self) -> Result<Value> {
        let (side, uplo, m, n) = self.column_major();
        let how = (
            side.is(b'R'),
            uplo.is(b'U'),
            self.transa.trans().unwrap_or(Trans::N),
            self.diag.is(b'U'),
        );
        routines::triangular(
            SOLVE,
            how,
            m,
            n,
            self.alpha,
            (self.a, self.lda),
            (self.b, self.ldb),
        )
        .map(|()| Value::ZERO)
    }

    /// Of the column-major call, with B's values before the call: trmm's B·x = alpha·op(A)·(B·x)
    /// (side L) or alpha·B·(op(A)·x); trsm's op(A)·(X·x) = alpha·B·x (side L), or
    /// X·(op(A)·x) = alpha·B·x, its residual. With alpha 0, A unread: B·x = 0.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let (side, uplo, m, n) = self.column_major();
        if too_long(&[m, n]) {
            return None;
        }
        let ka = self.a_order();
        let a = Operator::Triangular(
            Mat::new(self.a, (ka, ka), self.lda),
            uplo.is(b'U'),
            trans_of(self.transa),
            self.diag.is(b'U'),
        );
        let b = Operator::General(Mat::new(self.b.cast_const(), (m, n), self.ldb), Trans::N);
        let right = side.is(b'R');
        let zero = self.alpha == T::ZERO;
        let x = Sums::probe(n);
        let mut e = Sums::zeros(m);
        // SAFETY (of each product): the call's host operands, as the caller guarantees.
        if !zero {
            let before = unsafe {
                match (SOLVE, right) {
                    (true, _) => b.apply(&x),
                    (false, false) => a.apply(&b.apply(&x)),
                    (false, true) => b.apply(&a.apply(&x)),
                }
            };
            e.add_scaled(self.alpha.f64_parts(), &before);
        }
        let weight = x.weight();
        let found = move |_| unsafe {
            match (SOLVE && !zero, right) {
                (false, _) => b.apply(&x),
                (true, false) => a.apply(&b.apply(&x)),
                (true, true) => b.apply(&a.apply(&x)),
            }
        };
        let terms = if zero { 0 } else { ka };
        Some(Checksums::new(
            e,
            found,
            (terms, m + n + ka),
            &[self.alpha],
            weight,
        ))
    }
}

/// A checked call's op as the kernels take it.
fn trans_of(op: Op) -> Trans {
    op.trans().unwrap_or(Trans::N)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blas::args::Args;

    impl<T: Scalar> SymmArgs<T> {
        #[allow(clippy::too_many_arguments)]
        fn new<I: Into<i64>>(
            layout: Layout,
            [side, uplo]: [Flag; 2],
            [m, n]: [I; 2],
            alpha: T,
            (a, lda): Matrix<*const T, I>,
            (b, ldb): Matrix<*const T, I>,
            beta: T,
            (c, ldc): Matrix<*mut T, I>,
        ) -> SymmArgs<T> {
            SymmArgs {
                hermitian: false,
                layout,
                side,
                uplo,
                m: m.into(),
                n: n.into(),
                alpha,
                a,
                lda: lda.into(),
                b,
                ldb: ldb.into(),
                beta,
                c,
                ldc: ldc.into(),
            }
        }
    }

    impl<T: Scalar> SyrkArgs<T> {
        #[allow(clippy::too_many_arguments)]
        fn new<I: Into<i64>>(
            layout: Layout,
            (uplo, trans): (Flag, Op),
            [n, k]: [I; 2],
            alpha: T,
            (a, lda): Matrix<*const T, I>,
            b: Option<Matrix<*const T, I>>,
            beta: T,
            (c, ldc): Matrix<*mut T, I>,
        ) -> SyrkArgs<T> {
            SyrkArgs {
                hermitian: false,
                layout,
                uplo,
                trans,
                n: n.into(),
                k: k.into(),
                alpha,
                a,
                lda: lda.into(),
                b: b.map(|(b, ldb)| (b, ldb.into())),
                beta,
                c,
                ldc: ldc.into(),
            }
        }
    }

    impl<T: Scalar, const SOLVE: bool> TriArgs<T, SOLVE> {
        fn new<I: Into<i64>>(
            layout: Layout,
            (side, uplo, transa, diag): (Flag, Flag, Op, Flag),
            [m, n]: [I; 2],
            alpha: T,
            (a, lda): Matrix<*const T, I>,
            (b, ldb): Matrix<*mut T, I>,
        ) -> TriArgs<T, SOLVE> {
            TriArgs {
                layout,
                side,
                uplo,
                transa,
                diag,
                m: m.into(),
                n: n.into(),
                alpha,
                a,
                lda: lda.into(),
                b,
                ldb: ldb.into(),
            }
        }
    }

    use Layout::{Col, Fortran, Row};
    use Op::{N, T};

    const L: Flag = Flag::Is(b'L');
    const R: Flag = Flag::Is(b'R');
    const U: Flag = Flag::Is(b'U');
    const NU: Flag = Flag::Is(b'N');
    const BAD: Flag = Flag::Bad(0);

    fn info(a: Args<f32>) -> i32 {
        a.check().err().map_or(0, |f| f.info)
    }

    fn symm(layout: Layout, side: Flag, uplo: Flag, dims: [i64; 5]) -> i32 {
        let [m, n, lda, ldb, ldc] = dims;
        let (a, c) = (std::ptr::null(), std::ptr::null_mut());
        info(Args::Symm(SymmArgs::new(
            layout,
            [side, uplo],
            [m, n],
            1.0,
            (a, lda),
            (a, ldb),
            0.0,
            (c, ldc),
        )))
    }

    fn syrk(layout: Layout, uplo: Flag, trans: Op, two: bool, dims: [i64; 5]) -> i32 {
        let [n, k, lda, ldb, ldc] = dims;
        let (a, c) = (std::ptr::null(), std::ptr::null_mut());
        let b = two.then_some((a, ldb));
        info(Args::Syrk(SyrkArgs::new(
            layout,
            (uplo, trans),
            [n, k],
            1.0,
            (a, lda),
            b,
            0.0,
            (c, ldc),
        )))
    }

    fn tri(layout: Layout, how: (Flag, Flag, Op, Flag), dims: [i64; 4]) -> i32 {
        let [m, n, lda, ldb] = dims;
        fn t<const SOLVE: bool>(
            layout: Layout,
            how: (Flag, Flag, Op, Flag),
            [m, n, lda, ldb]: [i64; 4],
        ) -> TriArgs<f32, SOLVE> {
            let (a, b) = (std::ptr::null(), std::ptr::null_mut());
            TriArgs::new(layout, how, [m, n], 1.0, (a, lda), (b, ldb))
        }
        let trsm = info(Args::Trsm(t(layout, how, [m, n, lda, ldb])));
        assert_eq!(info(Args::Trmm(t(layout, how, [m, n, lda, ldb]))), trsm);
        trsm
    }

    #[test]
    fn symm_reports_the_reference_positions() {
        let ok = [2, 2, 2, 2, 2];
        // Fortran: SIDE 1, UPLO 2, M 3, N 4, LDA 7, LDB 9, LDC 12.
        assert_eq!(symm(Fortran, Flag::BadChar(b'X'), U, ok), 1);
        assert_eq!(symm(Fortran, L, Flag::BadChar(b'X'), ok), 2);
        assert_eq!(symm(Fortran, L, U, [-1, 2, 2, 2, 2]), 3);
        assert_eq!(symm(Fortran, L, U, [2, -1, 2, 2, 2]), 4);
        assert_eq!(
            symm(Fortran, L, U, [3, 2, 2, 3, 3]),
            7,
            "lda >= m, A on the left"
        );
        assert_eq!(
            symm(Fortran, R, U, [2, 3, 2, 2, 2]),
            7,
            "lda >= n, A on the right"
        );
        assert_eq!(symm(Fortran, R, U, [3, 2, 2, 2, 3]), 9, "ldb >= m");
        assert_eq!(symm(Fortran, L, U, [2, 2, 2, 2, 1]), 12);
        assert_eq!(symm(Fortran, L, U, [0, 0, 1, 1, 1]), 0);
        // Column-major CBLAS: layout 1, side 2, uplo 3, then the Fortran positions plus one.
        assert_eq!(symm(Layout::Bad(5), BAD, BAD, ok), 1);
        assert_eq!(symm(Col, BAD, BAD, ok), 2);
        assert_eq!(symm(Col, L, BAD, ok), 3);
        assert_eq!(symm(Col, L, U, [-1, 2, 2, 2, 2]), 4);
        assert_eq!(symm(Col, L, U, [2, -1, 2, 2, 2]), 5);
        assert_eq!(symm(Col, L, U, [3, 2, 2, 3, 3]), 8);
        assert_eq!(symm(Col, L, U, [3, 2, 3, 2, 3]), 10);
        assert_eq!(symm(Col, L, U, [3, 2, 3, 3, 2]), 13);
        // Row-major: the column-major call on exchanged M and N, side and uplo swapped (the
        // handler swaps 4 and 5 back).
        assert_eq!(symm(Row, BAD, U, ok), 2);
        assert_eq!(symm(Row, L, BAD, ok), 3);
        assert_eq!(symm(Row, L, U, [-1, 2, 2, 2, 2]), 5);
        assert_eq!(symm(Row, L, U, [2, -1, 2, 2, 2]), 4);
        assert_eq!(
            symm(Row, L, U, [3, 2, 2, 2, 2]),
            8,
            "row-major lda >= m, side L"
        );
        assert_eq!(
            symm(Row, R, U, [3, 2, 2, 2, 2]),
            0,
            "row-major lda >= n, side R"
        );
        assert_eq!(symm(Row, L, U, [2, 3, 2, 2, 3]), 10, "row-major ldb >= n");
        assert_eq!(symm(Row, L, U, [2, 3, 2, 3, 2]), 13, "row-major ldc >= n");
    }

    #[test]
    fn syrk_and_syr2k_report_the_reference_positions() {
        let ok = [2, 2, 2, 2, 2];
        let x = Flag::BadChar(b'X');
        for two in [false, true] {
            let ldc = if two { 12 } else { 10 };
            // Fortran: UPLO 1, TRANS 2, N 3, K 4, LDA 7, (syr2k) LDB 9, LDC 10 or 12.
            assert_eq!(syrk(Fortran, x, N, two, ok), 1);
            assert_eq!(syrk(Fortran, U, Op::BadChar(b'X'), two, ok), 2);
            assert_eq!(syrk(Fortran, U, N, two, [-1, 2, 2, 2, 2]), 3);
            assert_eq!(syrk(Fortran, U, N, two, [2, -1, 2, 2, 2]), 4);
            assert_eq!(syrk(Fortran, U, N, two, [3, 2, 2, 3, 3]), 7, "lda >= n");
            assert_eq!(syrk(Fortran, U, T, two, [2, 3, 2, 3, 2]), 7, "lda >= k");
            assert_eq!(syrk(Fortran, U, Op::C, two, [2, 3, 3, 3, 2]), 0);
            assert_eq!(syrk(Fortran, U, N, two, [2, 2, 2, 2, 1]), ldc);
            // Column-major CBLAS: layout 1, uplo 2, trans 3, then plus one.
            assert_eq!(syrk(Layout::Bad(0), BAD, N, two, ok), 1);
            assert_eq!(syrk(Col, BAD, N, two, ok), 2);
            assert_eq!(syrk(Col, U, Op::Bad(0), two, ok), 3);
            assert_eq!(syrk(Col, U, N, two, [-1, 2, 2, 2, 2]), 4);
            assert_eq!(syrk(Col, U, N, two, [2, -1, 2, 2, 2]), 5);
            assert_eq!(syrk(Col, U, N, two, [3, 2, 2, 3, 3]), 8);
            assert_eq!(syrk(Col, U, N, two, [2, 2, 2, 2, 1]), ldc + 1);
            // Row-major: the reference reports a bad uplo as 3 too; trans flips, so lda >= k
            // for NoTrans.
            assert_eq!(syrk(Row, BAD, N, two, ok), 3);
            assert_eq!(syrk(Row, U, Op::Bad(0), two, ok), 3);
            assert_eq!(syrk(Row, U, N, two, [-1, 2, 2, 2, 2]), 4);
            assert_eq!(
                syrk(Row, U, N, two, [2, 3, 2, 3, 2]),
                8,
                "row-major lda >= k"
            );
            assert_eq!(
                syrk(Row, U, T, two, [3, 2, 2, 2, 3]),
                8,
                "row-major lda >= n"
            );
            assert_eq!(syrk(Row, U, N, two, [2, 2, 2, 2, 1]), ldc + 1);
        }
        assert_eq!(syrk(Fortran, U, N, true, [3, 2, 3, 2, 3]), 9, "ldb >= n");
        assert_eq!(syrk(Col, U, T, true, [2, 3, 3, 2, 2]), 10, "ldb >= k");
        assert_eq!(
            syrk(Row, U, N, true, [2, 3, 3, 2, 2]),
            10,
            "row-major ldb >= k"
        );
    }

    #[test]
    fn trmm_and_trsm_report_the_reference_positions() {
        let ok = [2, 2, 2, 2];
        let x = Flag::BadChar(b'x');
        // Fortran: SIDE 1, UPLO 2, TRANSA 3, DIAG 4, M 5, N 6, LDA 9, LDB 11.
        assert_eq!(tri(Fortran, (x, U, N, NU), ok), 1);
        assert_eq!(tri(Fortran, (L, x, N, NU), ok), 2);
        assert_eq!(tri(Fortran, (L, U, Op::BadChar(b'x'), NU), ok), 3);
        assert_eq!(tri(Fortran, (L, U, N, x), ok), 4);
        assert_eq!(tri(Fortran, (L, U, N, NU), [-1, 2, 2, 2]), 5);
        assert_eq!(tri(Fortran, (L, U, N, NU), [2, -1, 2, 2]), 6);
        assert_eq!(
            tri(Fortran, (L, U, T, NU), [3, 2, 2, 3]),
            9,
            "lda >= m, side L"
        );
        assert_eq!(
            tri(Fortran, (R, U, T, NU), [2, 3, 2, 2]),
            9,
            "lda >= n, side R"
        );
        assert_eq!(tri(Fortran, (R, U, T, NU), [3, 2, 2, 2]), 11, "ldb >= m");
        assert_eq!(tri(Fortran, (L, U, N, NU), [0, 0, 1, 1]), 0);
        // Column-major CBLAS: layout 1, side 2, uplo 3, transa 4, diag 5, then plus one.
        assert_eq!(tri(Layout::Bad(0), (BAD, U, N, NU), ok), 1);
        assert_eq!(tri(Col, (BAD, U, N, NU), ok), 2);
        assert_eq!(tri(Col, (L, BAD, N, NU), ok), 3);
        assert_eq!(tri(Col, (L, U, Op::Bad(0), NU), ok), 4);
        assert_eq!(tri(Col, (L, U, N, BAD), ok), 5);
        assert_eq!(tri(Col, (L, U, N, NU), [-1, 2, 2, 2]), 6);
        assert_eq!(tri(Col, (L, U, N, NU), [2, -1, 2, 2]), 7);
        assert_eq!(tri(Col, (L, U, N, NU), [3, 2, 2, 3]), 10);
        assert_eq!(tri(Col, (L, U, N, NU), [3, 2, 3, 2]), 12);
        // Row-major: M and N exchanged (the handler swaps 6 and 7 back), side and uplo swapped.
        assert_eq!(tri(Row, (BAD, U, N, NU), ok), 2);
        assert_eq!(tri(Row, (L, BAD, N, NU), ok), 3);
        assert_eq!(tri(Row, (L, U, Op::Bad(0), NU), ok), 4);
        assert_eq!(tri(Row, (L, U, N, BAD), ok), 5);
        assert_eq!(tri(Row, (L, U, N, NU), [-1, 2, 2, 2]), 7);
        assert_eq!(tri(Row, (L, U, N, NU), [2, -1, 2, 2]), 6);
        assert_eq!(
            tri(Row, (L, U, N, NU), [3, 2, 2, 2]),
            10,
            "row-major lda >= m, side L"
        );
        assert_eq!(
            tri(Row, (R, U, N, NU), [2, 3, 2, 3]),
            10,
            "row-major lda >= n, side R"
        );
        assert_eq!(
            tri(Row, (R, U, N, NU), [2, 3, 3, 2]),
            12,
            "row-major ldb >= n"
        );
    }

    #[test]
    fn flops_as_the_reference_counts_them() {
        let (a, c) = (std::ptr::null(), std::ptr::null_mut::<f32>());
        let s = |side| SymmArgs::new(Col, [side, U], [3, 5], 1.0, (a, 5), (a, 3), 0.0, (c, 3));
        assert_eq!(Args::Symm(s(L)).flops(), 2 * 3 * 3 * 5);
        assert_eq!(Args::Symm(s(R)).flops(), 2 * 3 * 5 * 5);
        let k = |b| SyrkArgs::new(Col, (U, N), [4, 7], 1.0, (a, 4), b, 0.0, (c, 4));
        assert_eq!(Args::Syrk(k(None)).flops(), 4 * 4 * 7);
        assert_eq!(Args::Syrk(k(Some((a, 4)))).flops(), 2 * 4 * 4 * 7);
        let t = |side| TriArgs::new(Row, (side, U, N, NU), [3, 5], 1.0, (a, 5), (c, 5));
        assert_eq!(Args::Trsm(t(L)).flops(), 3 * 3 * 5);
        let t = |side| TriArgs::new(Row, (side, U, N, NU), [3, 5], 1.0, (a, 5), (c, 5));
        assert_eq!(Args::Trmm(t(R)).flops(), 3 * 5 * 5);
    }

    #[test]
    fn syrk_snapshots_only_the_stored_triangle() {
        let mut c = [0f32; 12];
        let base = c.as_mut_ptr();
        let k = |layout, uplo| {
            SyrkArgs::new(
                layout,
                (uplo, N),
                [3, 1],
                1.0,
                (base.cast_const(), 3),
                None,
                1.0,
                (base, 4),
            )
        };
        let offsets = |s: SyrkArgs<f32>| -> Vec<usize> {
            let operands = s.operands();
            let c = &operands.last().expect("C").region;
            c.elements()
                .map(|p| (p as usize - base as usize) / 4)
                .collect()
        };
        assert_eq!(offsets(k(Col, U)), [0, 4, 5, 8, 9, 10]);
        assert_eq!(offsets(k(Col, L)), [0, 1, 2, 5, 6, 10]);
        assert_eq!(
            offsets(k(Row, U)),
            [0, 1, 2, 5, 6, 10],
            "row-major upper is lower"
        );
    }
}
