//! The C boundary's machinery: the panic guard every export runs in, argument checks, and the
//! integer types C enums arrive as (validated before they become Rust enums, since an
//! out-of-range value in a Rust enum is undefined behaviour).

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::engine::element::Complex;
use crate::engine::transfer::CopyKind;
use crate::status::{Error, Result, Status};

/// Runs an export's body: an error becomes its status, a panic EXECUTION_FAILED. Nothing
/// unwinds into C.
pub fn guard(body: impl FnOnce() -> Result<()>) -> Status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => Status::Success,
        Ok(Err(e)) => {
            crate::engine::debug_log(&e);
            e.status
        }
        Err(_) => Status::ExecutionFailed,
    }
}

/// A single-precision complex number: `{re, im}`, laid out as C's `float _Complex`.
#[allow(non_camel_case_types)]
pub type glblasComplex = Complex<f32>;
/// A double-precision complex number: `{re, im}`, laid out as C's `double _Complex`.
#[allow(non_camel_case_types)]
pub type glblasDoubleComplex = Complex<f64>;

/// `glblasOperation_t` as C passes it: any int.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct OperationArg(pub c_int);

/// `glblasSideMode_t` as C passes it.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct SideArg(pub c_int);

/// `glblasFillMode_t` as C passes it.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct FillArg(pub c_int);

/// `glblasDiagType_t` as C passes it.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct DiagArg(pub c_int);

/// `glblasMemcpyKind_t` as C passes it.
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct MemcpyKindArg(pub c_int);

/// `glblasStatus_t` as C passes it (to glblasGetStatusString).
#[repr(transparent)]
#[derive(Clone, Copy)]
pub struct StatusArg(pub c_int);

/// Whether op(X) is X (N) or its transpose (T; C is T for real data).
#[repr(C)]
#[allow(non_camel_case_types)]
pub enum glblasOperation {
    GLBLAS_OP_N = 0,
    GLBLAS_OP_T = 1,
    GLBLAS_OP_C = 2,
}

#[allow(non_camel_case_types)]
pub type glblasOperation_t = glblasOperation;

/// Which side of B the symmetric or triangular matrix A multiplies (or solves) from.
#[repr(C)]
#[allow(non_camel_case_types)]
pub enum glblasSideMode {
    GLBLAS_SIDE_LEFT = 0,
    GLBLAS_SIDE_RIGHT = 1,
}

#[allow(non_camel_case_types)]
pub type glblasSideMode_t = glblasSideMode;

/// Which triangle of a symmetric or triangular matrix is stored (and of C, written).
#[repr(C)]
#[allow(non_camel_case_types)]
pub enum glblasFillMode {
    GLBLAS_FILL_MODE_LOWER = 0,
    GLBLAS_FILL_MODE_UPPER = 1,
}

#[allow(non_camel_case_types)]
pub type glblasFillMode_t = glblasFillMode;

/// Whether a triangular matrix's diagonal is stored (NON_UNIT) or all ones and never read.
#[repr(C)]
#[allow(non_camel_case_types)]
pub enum glblasDiagType {
    GLBLAS_DIAG_NON_UNIT = 0,
    GLBLAS_DIAG_UNIT = 1,
}

#[allow(non_camel_case_types)]
pub type glblasDiagType_t = glblasDiagType;

/// Direction of a glblasMemcpy; Infer decides from where the pointers are.
#[repr(C)]
#[allow(non_camel_case_types, clippy::enum_variant_names)]
pub enum glblasMemcpyKind {
    glblasMemcpyInfer = 0,
    glblasMemcpyHostToDevice = 1,
    glblasMemcpyDeviceToHost = 2,
    glblasMemcpyDeviceToDevice = 3,
}

#[allow(non_camel_case_types)]
pub type glblasMemcpyKind_t = glblasMemcpyKind;

impl MemcpyKindArg {
    pub fn kind(self) -> Result<CopyKind> {
        match self.0 {
            0 => Ok(CopyKind::Infer),
            1 => Ok(CopyKind::HostToDevice),
            2 => Ok(CopyKind::DeviceToHost),
            3 => Ok(CopyKind::DeviceToDevice),
            v => Err(Error::invalid(format!("{v} is not a glblasMemcpyKind_t"))),
        }
    }
}

impl StatusArg {
    pub fn status(self) -> Option<Status> {
        Status::ALL.into_iter().find(|s| *s as c_int == self.0)
    }
}

/// A pointer the operation needs: NULL is INVALID_VALUE.
pub fn non_null<T>(p: *const T, name: &str) -> Result<()> {
    if p.is_null() {
        Err(Error::invalid(format!("{name} is NULL")))
    } else {
        Ok(())
    }
}
