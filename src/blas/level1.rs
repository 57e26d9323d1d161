//! The Level 1 routines as BLAS-compatible calls: their arguments and their descriptions. They
//! have no argument checks (the reference treats bad sizes as quick returns) and no layout.

use std::fmt;

use super::checksums::{dot, weights, Checksums, Sums, Vector, Weights};
use super::describe::{flop_scale, relocated_fields, Describe, Operand, Use, Value};
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

    relocated_fields!(x, y);

    unsafe fn run_gl(&self) -> Result<Value> {
        let r = self;
        routines::axpy(r.n, r.alpha, r.x, r.incx, r.y, r.incy).map(|()| Value::ZERO)
    }

    /// Σ w[i]·y[i] = alpha·Σ w[i]·x[i] + Σ w[i]·y[i]; where y is one element the reference
    /// updates n times (incy 0), y + alpha·Σ x[i]; none where x and y overlap.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let x = Vector::new(self.x, self.n, self.incx);
        let y = Vector::new(self.y.cast_const(), self.n, self.incy);
        if x.overlaps(&y) {
            return None;
        }
        let alpha = self.alpha.f64_parts();
        // SAFETY (of each read): the call's host operands, as the caller guarantees.
        if self.incy == 0 {
            let first = Vector::new(y.p, 1, 1);
            let mut e = unsafe { first.sum(Weights::Ones) };
            e.add_scaled(alpha, &unsafe { x.sum(Weights::Ones) });
            let found = move |_| unsafe { first.sum(Weights::Ones) };
            return Some(Checksums::new(
                e,
                found,
                (self.n + 1, self.n),
                &[self.alpha],
                1.0,
            ));
        }
        let mut e = unsafe { y.sum(Weights::Probe) };
        e.add_scaled(alpha, &unsafe { x.sum(Weights::Probe) });
        let found = move |_| unsafe { y.sum(Weights::Probe) };
        let weight = weights(self.n);
        Some(Checksums::new(e, found, (2, self.n), &[self.alpha], weight))
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

    relocated_fields!(x, y);

    unsafe fn run_gl(&self) -> Result<Value> {
        let (r, mut v) = (self, T::ZERO);
        let dot = if r.conjugate {
            routines::dotc
        } else {
            routines::dot
        };
        dot(r.n, r.x, r.incx, r.y, r.incy, &mut v).map(|()| Value::from_f64_parts(v.f64_parts()))
    }

    /// The value against the sum in double.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let (x, y) = (
            Vector::new(self.x, self.n, self.incx),
            Vector::new(self.y, self.n, self.incy),
        );
        // SAFETY: the call's host operands, as the caller guarantees.
        let e = unsafe { dot(&x, &y, self.conjugate) };
        Some(Checksums::new::<T>(
            e,
            Sums::value,
            (self.n, self.n),
            &[],
            1.0,
        ))
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

    relocated_fields!(x);

    unsafe fn run_gl(&self) -> Result<Value> {
        let (n, x, incx) = (self.n, self.x, self.incx);
        if self.real {
            routines::scal_real(n, self.alpha.parts()[0], x, incx)
        } else {
            routines::scal(n, self.alpha, x, incx)
        }
        .map(|()| Value::ZERO)
    }

    /// Σ w[i]·x[i] = alpha·Σ w[i]·x[i].
    unsafe fn checksums(&self) -> Option<Checksums> {
        let x = Vector::new(self.x.cast_const(), self.n, self.incx);
        let alpha = if self.real {
            [self.alpha.f64_parts()[0], 0.0]
        } else {
            self.alpha.f64_parts()
        };
        let mut e = Sums::zeros(1);
        // SAFETY (of each read): the call's host operand, as the caller guarantees.
        e.add_scaled(alpha, &unsafe { x.sum(Weights::Probe) });
        let found = move |_| unsafe { x.sum(Weights::Probe) };
        Some(Checksums::new(
            e,
            found,
            (1, self.n),
            &[self.alpha],
            weights(self.n),
        ))
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

    relocated_fields!(x, y);

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

    /// Σ w[i]·y[i] after = Σ w[i]·x[i] before (and the other way round for swap); none where an
    /// output is one element written n times (increment 0), or x and y overlap.
    unsafe fn checksums(&self) -> Option<Checksums> {
        let x = Vector::new(self.x, self.n, self.incx);
        let y = Vector::new(self.y.cast_const(), self.n, self.incy);
        if self.incy == 0 || (SWAP && self.incx == 0) || x.overlaps(&y) {
            return None;
        }
        // SAFETY (of each read): the call's host operands, as the caller guarantees.
        let sum = |v: &Vector<T>| unsafe { v.sum(Weights::Probe) };
        let weight = weights(self.n);
        if SWAP {
            let found = move |_| Sums::joined(&[sum(&y), sum(&x)]);
            let e = Sums::joined(&[sum(&x), sum(&y)]);
            Some(Checksums::new::<T>(e, found, (0, self.n), &[], weight))
        } else {
            let found = move |_| sum(&y);
            Some(Checksums::new::<T>(
                sum(&x),
                found,
                (0, self.n),
                &[],
                weight,
            ))
        }
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

    relocated_fields!(x);

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

    /// The value against the sum (norm) in double; i?amax's index against the first largest
    /// |re| + |im|, rounded as the precision rounds it, exactly (none where x holds a NaN).
    unsafe fn checksums(&self) -> Option<Checksums> {
        let x = Vector::new(self.x, self.n, self.incx);
        let real = |s: f64| Sums {
            re: vec![s],
            im: vec![0.0],
            mag: vec![s],
        };
        // SAFETY (of each read): the call's host operand, as the caller guarantees.
        let expected = match self.what {
            Reduction::Asum => real(unsafe { x.sum(Weights::Ones) }.mag[0]),
            Reduction::Nrm2 => {
                // Scaled by the largest part, so that no square underflows or overflows (as
                // the reference's and the kernels' own sums of squares are).
                let parts = |v: &[f64; 2]| [v[0].abs(), v[1].abs()];
                let largest = if x.inc == 0 {
                    let first = unsafe { *x.p }.f64_parts();
                    parts(&first).into_iter().fold(0.0, f64::max)
                } else {
                    unsafe { x.parts() }
                        .flat_map(|v| parts(&v))
                        .fold(0.0, f64::max)
                };
                if largest == 0.0 || !largest.is_finite() {
                    return (largest == 0.0).then(|| {
                        Checksums::new::<T>(real(0.0), Sums::value, (self.n, self.n), &[], 1.0)
                    });
                }
                let square = |[re, im]: [f64; 2]| {
                    let (re, im) = (re / largest, im / largest);
                    re * re + im * im
                };
                let squares = if x.inc == 0 {
                    x.n as f64 * square(unsafe { *x.p }.f64_parts())
                } else {
                    unsafe { x.parts() }.map(square).sum()
                };
                real(largest * squares.sqrt())
            }
            Reduction::Iamax => {
                // |re| + |im| rounded as the precision rounds it; the first largest.
                let mut best = (0, f64::NEG_INFINITY);
                for (i, [re, im]) in unsafe { x.parts() }.enumerate() {
                    if re.is_nan() || im.is_nan() {
                        return None;
                    }
                    let abs = T::Real::from_f64(re.abs() + im.abs()).to_f64();
                    if abs > best.1 {
                        best = (i, abs);
                    }
                }
                Sums::exact((best.0 + 1) as f64)
            }
        };
        Some(Checksums::new::<T>(
            expected,
            Sums::value,
            (self.n, self.n),
            &[],
            1.0,
        ))
    }
}

impl<T: Scalar> fmt::Display for Reduce<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "n={} incx={}", self.n, self.incx)
    }
}
