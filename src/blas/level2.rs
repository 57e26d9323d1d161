//! gemv as a BLAS-compatible call: its arguments and its description. A row-major call is the
//! column-major one on the transposed matrix (M and N exchanged, the operation flipped; a
//! conjugate transpose becomes the conjugate of the stored matrix, which the reference CBLAS
//! computes by conjugating alpha, beta, x and y around the column-major call), and is checked as
//! that call, so it reports that call's parameter numbers as the reference CBLAS does.

use std::fmt;

use super::checks::{cblas_enums, fault, Fault};
use super::checksums::{too_long, Checksums, Mat, Operator, Sums, Vector};
use super::describe::{flop_scale, relocated_fields, Describe, Operand, Use, Value};
use super::increments::{from_const, from_mut, wrapped};
use super::options::{Layout, Op, ILLEGAL_TRANSA};
use super::region::Region;
use crate::engine::element::Scalar;
use crate::kernels::Trans;
use crate::status::Result;
use crate::{quick, routines};

/// The arguments of sgemv (`T = f32`), dgemv, cgemv or zgemv.
#[derive(Clone, Copy, Debug)]
pub struct GemvArgs<T: Scalar = f32> {
    pub layout: Layout,
    pub trans: Op,
    pub m: i64,
    pub n: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub x: *const T,
    pub incx: i64,
    pub beta: T,
    pub y: *mut T,
    pub incy: i64,
}

/// sgemv's checks in the reference order.
fn gemv_info(t: Op, m: i64, n: i64, lda: i64, incx: i64, incy: i64) -> i32 {
    if t.transposed().is_none() {
        1
    } else if m < 0 {
        2
    } else if n < 0 {
        3
    } else if lda < m.max(1) {
        6
    } else if incx == 0 {
        8
    } else if incy == 0 {
        11
    } else {
        0
    }
}

impl<T: Scalar> GemvArgs<T> {
    /// The column-major call this is, ((transposed, conjugated), m, n) of the stored A:
    /// row-major A is the column-major transpose (M and N exchanged, the operation flipped, a
    /// conjugate transpose the conjugate). Checked calls only.
    pub fn column_major(&self) -> ((bool, bool), i64, i64) {
        let t = self.trans.transposed().unwrap_or(false);
        let conjugate = self.trans.trans().is_some_and(|t| t.conjugates::<T>());
        if self.layout == Layout::Row {
            ((!t, conjugate), self.n, self.m)
        } else {
            ((t, conjugate), self.m, self.n)
        }
    }

    /// Elements of x: the columns of op(A).
    pub fn x_len(&self) -> i64 {
        let ((t, _), m, n) = self.column_major();
        if t {
            m
        } else {
            n
        }
    }

    /// Elements of y: the rows of op(A).
    pub fn y_len(&self) -> i64 {
        let ((t, _), m, n) = self.column_major();
        if t {
            n
        } else {
            m
        }
    }
}

impl<T: Scalar> Describe<T> for GemvArgs<T> {
    const LEVEL: u8 = 2;

    fn layout(&self) -> Layout {
        self.layout
    }

    fn check(&self) -> std::result::Result<(), Fault> {
        let g = self;
        let row = cblas_enums(g.layout, &[(g.trans.bad(), 2, ILLEGAL_TRANSA)])?;
        let info = if row {
            gemv_info(g.trans.flipped(), g.n, g.m, g.lda, g.incx, g.incy)
        } else {
            gemv_info(g.trans, g.m, g.n, g.lda, g.incx, g.incy)
        };
        fault(info, g.layout)
    }

    /// M and N.
    fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        &[(3, 4)]
    }

    fn quick_return(&self) -> Option<Value> {
        quick::gemv(self.m, self.n, self.alpha, self.beta).then_some(Value::ZERO)
    }

    fn flops(&self) -> [i64; 4] {
        [2 * flop_scale::<T>(), self.m, self.n, 1]
    }

    fn operands(&self) -> Vec<Operand> {
        let (_, rows, cols) = self.column_major();
        let ax = Use::read_if(self.alpha != T::ZERO);
        vec![
            Operand::new(
                Region::matrix(self.a.cast_mut(), (rows, cols), self.lda),
                ax,
            ),
            Operand::new(
                Region::vector(self.x.cast_mut(), self.x_len(), self.incx),
                ax,
            ),
            Operand::new(
                Region::vector(self.y, self.y_len(), self.incy),
                Use::output(self.beta != T::ZERO),
            ),
        ]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha, self.beta]
    }

    fn addressed(&self) -> Self {
        let mut g = *self;
        let (x_len, y_len) = (g.x_len(), g.y_len());
        wrapped::<T, _>(x_len, &mut g.x, &mut g.incx, from_const);
        wrapped::<T, _>(y_len, &mut g.y, &mut g.incy, from_mut);
        g
    }

    relocated_fields!(a, x, y);

    unsafe fn run_gl(&self) -> Result<Value> {
        let g = self;
        let (t, m, n) = g.column_major();
        routines::gemv(
            t, m, n, g.alpha, g.a, g.lda, g.x, g.incx, g.beta, g.y, g.incy,
        )
        .map(|()| Value::ZERO)
    }

    /// Σ w[i]·y[i] = alpha·Σ w[i]·(op(A)·x)[i] + beta·Σ w[i]·y[i], of the column-major call
    /// (conj(A)·x as conj(A·conj(x))).
    unsafe fn checksums(&self) -> Option<Checksums> {
        let g = self;
        let ((t, conjugate), m, n) = g.column_major();
        if too_long(&[m, n]) {
            return None;
        }
        let a = Mat::new(g.a, (m, n), g.lda);
        let x = Vector::new(g.x, g.x_len(), g.incx);
        let y = Vector::new(g.y.cast_const(), g.y_len(), g.incy);
        let mut s = Sums::zeros(g.y_len());
        // SAFETY (of each read): the call's host operands, as the caller guarantees.
        if g.alpha != T::ZERO {
            let xs = unsafe { x.sums() };
            let ax = unsafe {
                match (t, conjugate) {
                    (false, false) => Operator::General(a, Trans::N).apply(&xs),
                    (false, true) => Operator::General(a, Trans::N).apply(&xs.conj()).conj(),
                    (true, false) => Operator::General(a, Trans::T).apply(&xs),
                    (true, true) => Operator::General(a, Trans::C).apply(&xs),
                }
            };
            s.add_scaled(g.alpha.f64_parts(), &ax);
        }
        if g.beta != T::ZERO {
            s.add_scaled(g.beta.f64_parts(), &unsafe { y.sums() });
        }
        let weight = Sums::probe(g.y_len()).weight();
        let found = move |_| unsafe { y.sums() }.weighted();
        let terms = if g.alpha != T::ZERO { g.x_len() } else { 0 };
        Some(Checksums::new(
            s.weighted(),
            found,
            (terms, g.x_len() + g.y_len()),
            &[g.alpha, g.beta],
            weight,
        ))
    }
}

impl<T: Scalar> fmt::Display for GemvArgs<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let g = self;
        write!(
            f,
            "{}trans={} m={} n={} alpha={} lda={} incx={} beta={} incy={}",
            g.layout, g.trans, g.m, g.n, g.alpha, g.lda, g.incx, g.beta, g.incy
        )
    }
}
