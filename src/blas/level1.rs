//! The Level 1 routines as BLAS-compatible calls: their arguments and their descriptions. They
//! have no argument checks (the reference treats bad sizes as quick returns) and no layout.

use std::fmt;

use super::describe::{flop_scale, Describe, Operand, Use, Value};
use super::increments::{from_const, from_mut, wrapped};
use super::region::Region;
use crate::engine::element::{Real, Scalar};
use crate::status::Result;
use crate::{quick, routines};

/// y := alpha*x + y.
#[derive(Clone, Copy, Debug)]
pub struct Axpy<T: Scalar> {
    pub n: i64,
    pub alpha: T,
    pub x: *const T,
    pub incx: i64,
    pub y: *mut T,
    pub incy: i64,
}

impl<T: Scalar> Describe<T> for Axpy<T> {
    const LEVEL: u8 = 1;

    fn quick_return(&self) -> Option<Value> {
        quick::axpy(self.n, self.alpha).then_some(Value::ZERO)
    }

    fn flops(&self) -> [i64; 4] {
        [2 * flop_scale::<T>(), self.n, 1, 1]
    }

    fn operands(&self) -> Vec<Operand> {
        vec![
            Operand::new(
                Region::vector(self.x.cast_mut(), self.n, self.incx),
                Use::Read,
            ),
            Operand::new(Region::vector(self.y, self.n, self.incy), Use::output(true)),
        ]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha]
    }

    fn addressed(&self) -> Self {
        let mut r = *self;
        wrapped::<T, _>(r.n, &mut r.x, &mut r.incx, from_const);
        wrapped::<T, _>(r.n, &mut r.y, &mut r.incy, from_mut);
        r
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let r = self;
        routines::axpy(r.n, r.alpha, r.x, r.incx, r.y, r.incy).map(|()| Value::ZERO)
    }
}

impl<T: Scalar> fmt::Display for Axpy<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (n, alpha, incx, incy) = (self.n, self.alpha, self.incx, self.incy);
        write!(f, "n={n} alpha={alpha} incx={incx} incy={incy}")
    }
}

/// The result x·y, or conj(x)·y when `conjugate` (complex dotc).
#[derive(Clone, Copy, Debug)]
pub struct Dot<T: Scalar> {
    pub n: i64,
    pub x: *const T,
    pub incx: i64,
    pub y: *const T,
    pub incy: i64,
    pub conjugate: bool,
}

impl<T: Scalar> Describe<T> for Dot<T> {
    const LEVEL: u8 = 1;

    fn computes_value(&self) -> bool {
        true
    }

    fn quick_return(&self) -> Option<Value> {
        quick::empty(self.n).then_some(Value::ZERO)
    }

    fn flops(&self) -> [i64; 4] {
        [2 * flop_scale::<T>(), self.n, 1, 1]
    }

    fn operands(&self) -> Vec<Operand> {
        vec![
            Operand::new(
                Region::vector(self.x.cast_mut(), self.n, self.incx),
                Use::Read,
            ),
            Operand::new(
                Region::vector(self.y.cast_mut(), self.n, self.incy),
                Use::Read,
            ),
        ]
    }

    fn addressed(&self) -> Self {
        let mut r = *self;
        wrapped::<T, _>(r.n, &mut r.x, &mut r.incx, from_const);
        wrapped::<T, _>(r.n, &mut r.y, &mut r.incy, from_const);
        r
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let (r, mut v) = (self, T::ZERO);
        let dot = if r.conjugate {
            routines::dotc
        } else {
            routines::dot
        };
        dot(r.n, r.x, r.incx, r.y, r.incy, &mut v).map(|()| Value::from_f64_parts(v.f64_parts()))
    }
}

impl<T: Scalar> fmt::Display for Dot<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "n={} incx={} incy={}", self.n, self.incx, self.incy)
    }
}

/// x := alpha*x; `real`: alpha is real and scales each part of a complex x (csscal, zdscal).
#[derive(Clone, Copy, Debug)]
pub struct Scal<T: Scalar> {
    pub n: i64,
    pub alpha: T,
    pub x: *mut T,
    pub incx: i64,
    pub real: bool,
}

impl<T: Scalar> Describe<T> for Scal<T> {
    const LEVEL: u8 = 1;

    fn quick_return(&self) -> Option<Value> {
        quick::scal(self.n, self.alpha, self.incx).then_some(Value::ZERO)
    }

    /// A complex product is 6 real flops, a real alpha's 2, as LAPACK counts them.
    fn flops(&self) -> [i64; 4] {
        let per_element = match (T::COMPLEX, self.real) {
            (false, _) => 1,
            (true, true) => 2,
            (true, false) => 6,
        };
        [per_element, self.n, 1, 1]
    }

    fn operands(&self) -> Vec<Operand> {
        vec![Operand::new(
            Region::vector(self.x, self.n, self.incx),
            Use::output(true),
        )]
    }

    fn scalars(&self) -> Vec<T> {
        vec![self.alpha]
    }

    fn addressed(&self) -> Self {
        let mut r = *self;
        wrapped::<T, _>(r.n, &mut r.x, &mut r.incx, from_mut);
        r
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let (n, x, incx) = (self.n, self.x, self.incx);
        if self.real {
            routines::scal_real(n, self.alpha.parts()[0], x, incx)
        } else {
            routines::scal(n, self.alpha, x, incx)
        }
        .map(|()| Value::ZERO)
    }
}

impl<T: Scalar> fmt::Display for Scal<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "n={} alpha={} incx={}", self.n, self.alpha, self.incx)
    }
}

/// y := x (copy), or x <-> y (swap, `x` written too).
#[derive(Clone, Copy, Debug)]
pub struct Move<T: Scalar, const SWAP: bool> {
    pub n: i64,
    pub x: *const T,
    pub incx: i64,
    pub y: *mut T,
    pub incy: i64,
}

impl<T: Scalar, const SWAP: bool> Describe<T> for Move<T, SWAP> {
    const LEVEL: u8 = 1;

    fn quick_return(&self) -> Option<Value> {
        quick::empty(self.n).then_some(Value::ZERO)
    }

    /// One per element moved.
    fn flops(&self) -> [i64; 4] {
        [self.n, 1, 1, 1]
    }

    /// Elements are moved, not computed; swap reads y before writing it, copy only writes it.
    fn operands(&self) -> Vec<Operand> {
        let moved = Use::Written {
            reads: SWAP,
            computes: false,
        };
        let x = if SWAP { moved } else { Use::Read };
        vec![
            Operand::new(Region::vector(self.x.cast_mut(), self.n, self.incx), x),
            Operand::new(Region::vector(self.y, self.n, self.incy), moved),
        ]
    }

    fn addressed(&self) -> Self {
        let mut r = *self;
        wrapped::<T, _>(r.n, &mut r.x, &mut r.incx, from_const);
        wrapped::<T, _>(r.n, &mut r.y, &mut r.incy, from_mut);
        r
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let r = self;
        if SWAP {
            // The caller's x, given as mutable to swap.
            routines::swap(r.n, r.x.cast_mut(), r.incx, r.y, r.incy)
        } else {
            routines::copy(r.n, r.x, r.incx, r.y, r.incy)
        }
        .map(|()| Value::ZERO)
    }
}

impl<T: Scalar, const SWAP: bool> fmt::Display for Move<T, SWAP> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "n={} incx={} incy={}", self.n, self.incx, self.incy)
    }
}

/// What a reduction of one vector computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reduction {
    /// The sum of |x[i]|.
    Asum,
    /// The Euclidean norm.
    Nrm2,
    /// The 1-based index of the first largest |x[i]| (Fortran's result; CBLAS's is one less,
    /// see `Answer`).
    Iamax,
}

/// asum, nrm2 or i?amax of x (of a complex x: |re| + |im| for asum and i?amax, every part for
/// nrm2, as scasum, scnrm2 and icamax compute them).
#[derive(Clone, Copy, Debug)]
pub struct Reduce<T: Scalar> {
    pub what: Reduction,
    pub n: i64,
    pub x: *const T,
    pub incx: i64,
}

impl<T: Scalar> Describe<T> for Reduce<T> {
    const LEVEL: u8 = 1;

    /// i?amax compares, and its index can raise no flag.
    fn computes_value(&self) -> bool {
        self.what != Reduction::Iamax
    }

    fn quick_return(&self) -> Option<Value> {
        let (n, incx) = (self.n, self.incx);
        match self.what {
            Reduction::Asum => quick::asum(n, incx).then_some(Value::ZERO),
            Reduction::Nrm2 => quick::nrm2(n).then_some(Value::ZERO),
            Reduction::Iamax => quick::iamax(n, incx).map(|i| Value::from_real(i as f64)),
        }
    }

    /// Per real part.
    fn flops(&self) -> [i64; 4] {
        let per_element = if self.what == Reduction::Nrm2 { 2 } else { 1 };
        let parts = if T::COMPLEX { 2 } else { 1 };
        [per_element * parts, self.n, 1, 1]
    }

    fn operands(&self) -> Vec<Operand> {
        vec![Operand::new(
            Region::vector(self.x.cast_mut(), self.n, self.incx),
            Use::Read,
        )]
    }

    fn addressed(&self) -> Self {
        let mut r = *self;
        wrapped::<T, _>(r.n, &mut r.x, &mut r.incx, from_const);
        r
    }

    unsafe fn run_gl(&self) -> Result<Value> {
        let (n, x, incx) = (self.n, self.x, self.incx);
        let mut v = T::Real::ZERO;
        match self.what {
            Reduction::Asum => routines::asum(n, x, incx, &mut v)?,
            Reduction::Nrm2 => routines::nrm2(n, x, incx, &mut v)?,
            Reduction::Iamax => {
                return routines::iamax(n, x, incx).map(|i| Value::from_real(i as f64))
            }
        }
        Ok(Value::from_real(v.to_f64()))
    }
}

impl<T: Scalar> fmt::Display for Reduce<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "n={} incx={}", self.n, self.incx)
    }
}
