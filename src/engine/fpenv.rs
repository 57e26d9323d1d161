//! The calling thread's floating-point environment (exception flags, rounding, denormal modes),
//! saved before GL work and put back after it. Driver code runs on the caller's thread (shader
//! compilation, llvmpipe's setup) and may raise exception flags; a host such as numpy reads
//! those flags after a BLAS call and would report errors that its data never caused. And the
//! flags a computation on the CPU would have raised are raised on purpose (`raise`).

use std::ffi::c_int;

/// Storage for a `fenv_t`, which is at most 32 bytes on the targets glibc supports.
#[repr(C, align(16))]
struct FenvT([u8; 64]);

extern "C" {
    fn fegetenv(env: *mut FenvT) -> c_int;
    fn fesetenv(env: *const FenvT) -> c_int;
    fn feraiseexcept(excepts: c_int) -> c_int;
}

/// `<fenv.h>`'s FE_INVALID and FE_OVERFLOW, which differ between architectures.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub const FE_INVALID: c_int = 0x01;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub const FE_OVERFLOW: c_int = 0x08;
#[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
pub const FE_INVALID: c_int = 0x01;
#[cfg(any(target_arch = "aarch64", target_arch = "arm"))]
pub const FE_OVERFLOW: c_int = 0x04;
#[cfg(target_arch = "riscv64")]
pub const FE_INVALID: c_int = 0x10;
#[cfg(target_arch = "riscv64")]
pub const FE_OVERFLOW: c_int = 0x04;

/// Raises the invalid-operation and overflow flags, as asked, in the calling thread's
/// environment (the others stay as they are).
pub fn raise(invalid: bool, overflow: bool) {
    let excepts = if invalid { FE_INVALID } else { 0 } | if overflow { FE_OVERFLOW } else { 0 };
    if excepts != 0 {
        // SAFETY: sets flags only (no trap is enabled unless the caller enabled it, and then
        // the trap is what the caller asked for).
        unsafe { feraiseexcept(excepts) };
    }
}

/// Restores the environment saved at creation when dropped.
pub struct SavedFpEnv(Option<FenvT>);

impl SavedFpEnv {
    pub fn save() -> SavedFpEnv {
        let mut env = FenvT([0; 64]);
        // SAFETY: `env` has room for a fenv_t (which holds no pointers, so it may move).
        let ok = unsafe { fegetenv(&mut env) } == 0;
        SavedFpEnv(ok.then_some(env))
    }
}

impl Drop for SavedFpEnv {
    fn drop(&mut self) {
        if let Some(env) = &self.0 {
            // SAFETY: an environment fegetenv filled in.
            unsafe { fesetenv(env) };
        }
    }
}
