//! One exported BLAS-compatible symbol: its name, routine and interface, and the CPU BLAS's
//! definition of the same name.

use std::ffi::{c_void, CStr};

use once_cell::sync::OnceCell;

use super::cpu;
use super::routine::Routine;

/// Which interface a symbol belongs to: it decides the error handler and how names are shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Cblas,
    /// CBLAS with 64-bit integers, under the names numpy's wheels use.
    Ilp64,
    /// Fortran 77 names, `<prefix><routine>_<suffix>`: the plain ones, and those of the wheels'
    /// OpenBLAS builds (`fortran.rs`). The error handler is spelled alike, and its INFO has the
    /// routines' integer width.
    Fortran {
        prefix: &'static str,
        suffix: &'static str,
        int64: bool,
    },
}

/// One exported symbol: its name, routine and family, and its CPU BLAS definition once found.
pub struct Symbol {
    /// NUL-terminated.
    name: &'static str,
    pub routine: Routine,
    pub family: Family,
    cpu: OnceCell<usize>,
}

impl Symbol {
    pub const fn new(name: &'static str, routine: Routine, family: Family) -> Symbol {
        Symbol {
            name,
            routine,
            family,
            cpu: OnceCell::new(),
        }
    }

    pub fn name(&self) -> &str {
        self.name.trim_end_matches('\0')
    }

    /// The CPU BLAS's function of the same name, looked up on first use.
    pub(super) fn cpu(&self) -> Option<*const c_void> {
        let addr = *self.cpu.get_or_init(|| {
            CStr::from_bytes_with_nul(self.name.as_bytes())
                .ok()
                .and_then(cpu::resolve)
                .map_or(0, |p| p as usize)
        });
        (addr != 0).then_some(addr as *const c_void)
    }
}
