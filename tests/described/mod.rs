//! Every routine's exports as data, for tests that take their rules from the routines'
//! descriptions rather than from a second copy (`tests/fuzz_described.rs`). `exports.rs` is
//! written by `scripts/generate.py` from its routine table: for each routine, precision and
//! interface, a function that makes the call from argument values ([`Raw`]) and gives the
//! description the symbol builds from them (`glblas::blas::call::Call`: its checks, quick
//! returns and operands) with what the call returned. The same function calls another
//! library's symbol of the same name and signature (the reference BLAS), so that a test runs
//! one call on both.

#![allow(dead_code)]

use std::ffi::{c_int, c_void};

use glblas::blas::abi::{CblasIndex, CblasScalar};
use glblas::blas::call::Call;
use glblas::engine::element::{Complex, Scalar};
use glblas::status::Status;

pub mod cases;
mod exports;
pub use exports::EXPORTS;

/// One argument's value: an integer (sizes, increments, leading dimensions; the layout and
/// the enums as the interface encodes them: a CBLAS value, a glblas one, or a Fortran
/// character's code), a scalar's parts, or an operand's pointer.
#[derive(Clone, Copy, Debug)]
pub enum Raw {
    Int(i64),
    Scalar(f64, f64),
    Ptr(*mut c_void),
}

impl Raw {
    pub fn int64(&self) -> i64 {
        match *self {
            Raw::Int(v) => v,
            other => panic!("{other:?} is not an integer"),
        }
    }

    /// A 32-bit interface's integer (the test draws them in range for those).
    pub fn int32(&self) -> c_int {
        c_int::try_from(self.int64()).expect("a 32-bit value for a 32-bit interface")
    }

    pub fn scalar<T: Scalar>(&self) -> T {
        match *self {
            Raw::Scalar(re, im) => T::from_f64_parts([re, im]),
            other => panic!("{other:?} is not a scalar"),
        }
    }

    pub fn ptr(&self) -> *mut c_void {
        match *self {
            Raw::Ptr(p) => p,
            other => panic!("{other:?} is not a pointer"),
        }
    }
}

/// An argument's kind, as the routine table names them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Layout,
    Op,
    Side,
    Uplo,
    Diag,
    Int,
    Scalar,
    /// herk's and her2k's real alpha or beta.
    RealScalar,
    In,
    Out,
}

/// Which function a caller calls.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// None: only the description is built.
    Describe,
    /// glblas's export.
    Glblas,
    /// Another library's symbol of the same name and signature.
    Other(*const c_void),
}

impl Target {
    pub fn function(self) -> Option<*const c_void> {
        match self {
            Target::Other(f) => Some(f),
            Target::Describe | Target::Glblas => None,
        }
    }

    pub fn describe_only(self) -> bool {
        matches!(self, Target::Describe)
    }
}

/// What a call returned.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Got {
    /// A BLAS symbol without a value (or no call).
    Nothing,
    /// A glblas API routine's status.
    Status(Status),
    /// The value of dot, asum or nrm2 (a real one's imaginary part 0).
    Value([f64; 2]),
    /// i?amax's index: Fortran's 1-based, CBLAS's 0-based.
    Index(i64),
    /// A glblas API routine's status and what it wrote to its result.
    Result(Status, [f64; 2]),
}

/// A call made, with its description.
pub struct Done {
    pub call: Call,
    pub got: Got,
}

pub type Caller = unsafe fn(Target, &[Raw]) -> Done;

/// One routine in one precision: its name ("cgemm"), precision letter, arguments in the
/// reference order with their kinds, and its symbol and caller in each interface (the glblas
/// API, CBLAS, Fortran, ILP64 CBLAS).
pub struct Exports {
    pub name: &'static str,
    pub letter: char,
    pub args: &'static [(&'static str, Kind)],
    pub symbols: [&'static str; 4],
    pub callers: [Caller; 4],
}

/// A type a call returns or writes its result as.
pub trait Returned: Copy {
    /// What a result holds before the call writes it.
    fn unset() -> Self;
    fn got(self) -> Got;
    fn got_value(self) -> [f64; 2];
}

impl Returned for () {
    fn unset() {}
    fn got(self) -> Got {
        Got::Nothing
    }
    fn got_value(self) -> [f64; 2] {
        [0.0; 2]
    }
}

macro_rules! returned_scalar {
    ($($t:ty),*) => {$(
        impl Returned for $t {
            fn unset() -> $t {
                <$t as Scalar>::from_f64_parts([f64::NAN; 2])
            }
            fn got(self) -> Got {
                Got::Value(self.f64_parts())
            }
            fn got_value(self) -> [f64; 2] {
                self.f64_parts()
            }
        }
    )*};
}

returned_scalar!(f32, f64, Complex<f32>, Complex<f64>);

macro_rules! returned_index {
    ($($t:ty),*) => {$(
        impl Returned for $t {
            fn unset() -> $t {
                <$t>::MIN
            }
            fn got(self) -> Got {
                Got::Index(self.into())
            }
            fn got_value(self) -> [f64; 2] {
                [f64::from(self as i32), 0.0]
            }
        }
    )*};
}

returned_index!(c_int, i64);

impl Returned for CblasIndex {
    fn unset() -> CblasIndex {
        CblasIndex(usize::MAX)
    }
    fn got(self) -> Got {
        Got::Index(self.0 as i64)
    }
    fn got_value(self) -> [f64; 2] {
        [self.0 as f64, 0.0]
    }
}

/// A CBLAS scalar argument from the value: a real itself, a complex by pointer.
pub trait ScalarArg: CblasScalar {
    fn arg(v: &Self) -> Self::Arg;
}

impl ScalarArg for f32 {
    fn arg(v: &f32) -> f32 {
        *v
    }
}

impl ScalarArg for f64 {
    fn arg(v: &f64) -> f64 {
        *v
    }
}

impl<R: glblas::engine::element::Real> ScalarArg for Complex<R> {
    fn arg(v: &Complex<R>) -> *const Complex<R> {
        v
    }
}
