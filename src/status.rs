//! Status codes shared by the C API and the engine, and the engine's error type.

/// Result of every glblas call. Values are part of the C ABI.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum glblasStatus {
    GLBLAS_STATUS_SUCCESS = 0,
    GLBLAS_STATUS_NOT_INITIALIZED = 1,
    GLBLAS_STATUS_ALLOC_FAILED = 2,
    GLBLAS_STATUS_INVALID_VALUE = 3,
    GLBLAS_STATUS_NOT_SUPPORTED = 4,
    GLBLAS_STATUS_EXECUTION_FAILED = 5,
    GLBLAS_STATUS_DIMENSION_OVERFLOW = 6,
    GLBLAS_STATUS_DEVICE_LOST = 7,
}

/// The name C programs use.
#[allow(non_camel_case_types)]
pub type glblasStatus_t = glblasStatus;

pub use glblasStatus as Status;

// Short names for the Rust side; the C names above stay what the header shows.
#[allow(non_upper_case_globals)]
impl Status {
    pub const Success: Status = Status::GLBLAS_STATUS_SUCCESS;
    pub const NotInitialized: Status = Status::GLBLAS_STATUS_NOT_INITIALIZED;
    pub const AllocFailed: Status = Status::GLBLAS_STATUS_ALLOC_FAILED;
    pub const InvalidValue: Status = Status::GLBLAS_STATUS_INVALID_VALUE;
    pub const NotSupported: Status = Status::GLBLAS_STATUS_NOT_SUPPORTED;
    pub const ExecutionFailed: Status = Status::GLBLAS_STATUS_EXECUTION_FAILED;
    pub const DimensionOverflow: Status = Status::GLBLAS_STATUS_DIMENSION_OVERFLOW;
    pub const DeviceLost: Status = Status::GLBLAS_STATUS_DEVICE_LOST;

    /// Every status, in value order.
    pub const ALL: [Status; 8] = [
        Status::Success,
        Status::NotInitialized,
        Status::AllocFailed,
        Status::InvalidValue,
        Status::NotSupported,
        Status::ExecutionFailed,
        Status::DimensionOverflow,
        Status::DeviceLost,
    ];

    /// Static, NUL-terminated description for `glblasGetStatusString`.
    pub fn description(self) -> &'static std::ffi::CStr {
        match self {
            Status::Success => c"GLBLAS_STATUS_SUCCESS: the operation completed",
            Status::NotInitialized => {
                c"GLBLAS_STATUS_NOT_INITIALIZED: no GL context could be created"
            }
            Status::AllocFailed => {
                c"GLBLAS_STATUS_ALLOC_FAILED: device or host memory could not be allocated"
            }
            Status::InvalidValue => c"GLBLAS_STATUS_INVALID_VALUE: an argument is invalid",
            Status::NotSupported => {
                c"GLBLAS_STATUS_NOT_SUPPORTED: the GL device lacks a needed feature"
            }
            Status::ExecutionFailed => {
                c"GLBLAS_STATUS_EXECUTION_FAILED: the GL device reported an error"
            }
            Status::DimensionOverflow => {
                c"GLBLAS_STATUS_DIMENSION_OVERFLOW: a size exceeds what the device can address"
            }
            Status::DeviceLost => {
                c"GLBLAS_STATUS_DEVICE_LOST: the GL device was reset and its context lost; device \
                  allocations made before are invalid, and the next call makes a new context"
            }
        }
    }
}

/// A failed operation: the status the caller sees, and why (for GLBLAS_DEBUG).
#[derive(Debug, Clone)]
pub struct Error {
    pub status: Status,
    pub detail: String,
    pub cause: Cause,
}

/// Whose a failure is. The glblas API returns the status either way; the BLAS symbols, which
/// cannot, decide from this what happens to the call instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The device failed (no driver, a lost context, out of memory, a GL error): the CPU BLAS
    /// answers, and a warning is printed once.
    Device,
    /// GL does not take the call, as designed, for the reason given (the trace's): an operand
    /// past the device's limits, or GL retired because the process is exiting. The CPU BLAS
    /// answers without a warning.
    Declined(&'static str),
    /// The device's result failed its check (`GLBLAS_VERIFY`): the CPU BLAS answers, and a
    /// warning is printed once.
    Unverified,
    /// The device was reset and the context lost (`engine::resets`): the CPU BLAS answers, and
    /// a warning is printed once; the next call makes a new context.
    Lost,
    /// The caller's own operands (a refused pointer, an extent no memory can hold): nothing
    /// answers (the CPU BLAS would read those operands) and nothing is printed.
    Caller,
}

impl Error {
    pub fn new(status: Status, detail: impl Into<String>) -> Error {
        Error {
            status,
            detail: detail.into(),
            cause: Cause::Device,
        }
    }

    pub fn invalid(detail: impl Into<String>) -> Error {
        Error {
            cause: Cause::Caller,
            ..Error::new(Status::InvalidValue, detail)
        }
    }

    /// A host operand whose extent runs past the end of the address space.
    pub fn unaddressable(detail: impl Into<String>) -> Error {
        Error {
            cause: Cause::Caller,
            ..Error::new(Status::DimensionOverflow, detail)
        }
    }

    /// The device was reset: the context is lost, and with it every device allocation made in it.
    pub fn lost(detail: impl Into<String>) -> Error {
        Error {
            cause: Cause::Lost,
            ..Error::new(Status::DeviceLost, detail)
        }
    }

    /// A device pointer from a context a reset lost (`memory::Location::Lost`): the caller's
    /// operand, which nothing can read, reported as the device's loss.
    pub fn lost_operand() -> Error {
        Error {
            cause: Cause::Caller,
            ..Error::new(
                Status::DeviceLost,
                "device pointer was allocated before the device was reset",
            )
        }
    }

    /// A feature the call needs and the device lacks (`reason` is the trace's): the BLAS
    /// symbols let the CPU BLAS answer without a warning.
    pub fn unsupported(reason: &'static str, detail: impl Into<String>) -> Error {
        Error {
            cause: Cause::Declined(reason),
            ..Error::new(Status::NotSupported, detail)
        }
    }

    /// A program the call needs is still compiling in the background (see `engine::programs`).
    pub fn compiling(program: &str) -> Error {
        Error {
            cause: Cause::Declined("compiling"),
            ..Error::new(
                Status::NotSupported,
                format!("{program} is still compiling"),
            )
        }
    }

    /// An operand larger than the device's limits allow.
    pub fn overflow(detail: impl Into<String>) -> Error {
        Error {
            cause: Cause::Declined("too-large"),
            ..Error::new(Status::DimensionOverflow, detail)
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;
