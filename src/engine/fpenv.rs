//! The calling thread's floating-point environment (exception flags, rounding, denormal modes),
//! saved before GL work and put back after it. Driver code runs on the caller's thread (shader
//! compilation, llvmpipe's setup) and may raise exception flags; a host such as numpy reads
//! those flags after a BLAS call and would report errors that its data never caused.

use std::ffi::c_int;

/// Storage for a `fenv_t`, which is at most 32 bytes on the targets glibc supports.
#[repr(C, align(16))]
struct FenvT([u8; 64]);

extern "C" {
    fn fegetenv(env: *mut FenvT) -> c_int;
    fn fesetenv(env: *const FenvT) -> c_int;
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
