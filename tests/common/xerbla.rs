//! The program's own BLAS error handlers, which record each report (`c_tests/handlers/
//! record_xerbla.c`), for tests of the error reports: built into a shared object and loaded
//! RTLD_GLOBAL, where glblas's call-time lookup finds them. (A handler defined in a test binary
//! would be passed over, since glblas is linked into the binary, which therefore defines the
//! BLAS symbols too.)

use std::ffi::{c_char, c_int, CStr};

/// The error handlers' records (see `record_xerbla.c`).
pub struct Handlers {
    reports: *const c_int,
    info: *const c_int,
    fortran: *const c_int,
    routine: *const c_char,
}

impl Handlers {
    /// Builds and loads the handlers' object.
    pub fn load() -> Handlers {
        let lib = super::build_handler("record_xerbla");
        let path = std::ffi::CString::new(lib.to_str().expect("utf-8 path")).expect("no NUL");
        // SAFETY: a plain object with no initialisers; kept loaded for the process.
        let h = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
        assert!(!h.is_null(), "dlopen {}", lib.display());
        let sym = |name: &CStr| {
            // SAFETY: a valid handle and name.
            let p = unsafe { libc::dlsym(h, name.as_ptr()) };
            assert!(!p.is_null(), "{name:?}");
            p
        };
        Handlers {
            reports: sym(c"fuzz_reports").cast(),
            info: sym(c"fuzz_info").cast(),
            fortran: sym(c"fuzz_fortran").cast(),
            routine: sym(c"fuzz_routine").cast(),
        }
    }

    pub fn reports(&self) -> c_int {
        unsafe { self.reports.read_volatile() }
    }

    /// The last report: routine name, parameter number, whether through `xerbla_`.
    pub fn last(&self) -> (String, c_int, bool) {
        unsafe {
            (
                CStr::from_ptr(self.routine).to_string_lossy().into_owned(),
                self.info.read_volatile(),
                self.fortran.read_volatile() == 1,
            )
        }
    }
}
