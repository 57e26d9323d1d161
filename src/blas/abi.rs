//! The C types of the values the symbols take and give that are no plain numbers or pointers:
//! a CBLAS scalar argument, and each symbol's return value (`Answer`).

use super::describe::Value;
use crate::engine::element::{Complex, Real, Scalar};

/// How CBLAS passes a scalar argument: a real by value, a complex by pointer (`cblas.h`'s
/// `const void *`).
pub trait CblasScalar: Scalar {
    type Arg: Copy;

    /// # Safety
    /// A complex scalar's pointer must be readable, as for the reference CBLAS.
    unsafe fn read(arg: Self::Arg) -> Self;
}

impl<R: Real> CblasScalar for R {
    type Arg = R;

    unsafe fn read(arg: R) -> R {
        arg
    }
}

impl<R: Real> CblasScalar for Complex<R> {
    type Arg = *const Complex<R>;

    unsafe fn read(arg: *const Complex<R>) -> Complex<R> {
        *arg
    }
}

/// A symbol's return value: nothing, the result of dot, asum and nrm2 (`Call::run_gl` and
/// `Call::quick_return` give it in double, exactly the float of the `s` routines; complex for
/// cdotu and the like), or the index of i?amax.
pub trait Answer: Default {
    fn from_value(value: Value) -> Self;
}

impl Answer for () {
    fn from_value(_: Value) {}
}

/// A real (its real part) or a complex value, rounded to its type.
impl<T: Scalar> Answer for T {
    fn from_value(value: Value) -> T {
        T::from_f64_parts(value.f64_parts())
    }
}

/// Fortran i?amax's result: the 1-based index.
impl Answer for std::ffi::c_int {
    fn from_value(value: Value) -> std::ffi::c_int {
        value.re as std::ffi::c_int
    }
}

/// The same for the ILP64 Fortran names.
impl Answer for i64 {
    fn from_value(value: Value) -> i64 {
        value.re as i64
    }
}

/// CBLAS's `CBLAS_INDEX` (`size_t`), which cblas_i?amax returns: the 0-based index, 0 also for
/// no elements (the reference CBLAS returns the Fortran index less one, or 0).
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct CblasIndex(pub usize);

impl Answer for CblasIndex {
    fn from_value(value: Value) -> CblasIndex {
        CblasIndex((value.re as usize).saturating_sub(1))
    }
}
