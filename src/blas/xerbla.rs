//! Error exits. As in the reference BLAS, an invalid argument calls an error handler the program
//! may define: `xerbla_` for the Fortran symbols (`scipy_xerbla_`, `scipy_xerbla_64_` for those
//! spelled as in the wheels' OpenBLAS builds), `cblas_xerbla` for the CBLAS ones. It is looked
//! up at call time, so the program's own takes precedence. A BLAS library's default handler is
//! passed over, since the reference one stops the program: glblas prints the reference message
//! itself and returns. Nothing here exits.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::sync::atomic::{AtomicI32, Ordering};

use super::call::Call;
use super::checks::Fault;
use super::cpu::{is_glblas, object_base, object_name};
use super::options::Layout;
use super::routine::Routine;
use super::symbol::{Family, Symbol};
use crate::unlocked_io;

/// The reference CBLAS's flag telling `cblas_xerbla` that the failing call was row-major, whose
/// parameter numbers are those of the column-major call it became. Set around a handler call;
/// exported because handlers written for the reference CBLAS read it.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static RowMajorStrg: AtomicI32 = AtomicI32::new(0);

type FortranHandler<I> = unsafe extern "C" fn(*const c_char, *const I, usize);
type CblasHandler = unsafe extern "C" fn(c_int, *const c_char, *const c_char, ...);

/// Reports `fault` of `call` to `sym` the way the reference library does.
pub fn report(sym: &Symbol, fault: &Fault, call: &Call) {
    match sym.family {
        Family::Fortran {
            prefix,
            suffix,
            int64,
        } => fortran(sym.routine, fault.info, [prefix, suffix], int64),
        Family::Cblas | Family::Ilp64 => cblas(sym, fault, call.layout() == Layout::Row, call),
    }
}

fn fortran(routine: Routine, info: i32, [prefix, suffix]: [&str; 2], int64: bool) {
    // The reference passes the routine's name blank-padded to six characters.
    let srname = format!("{:<6}", routine.name().to_uppercase());
    let spelled = |name: &str| CString::new(format!("{prefix}{name}_{suffix}")).unwrap_or_default();
    match program_handler(&spelled("xerbla"), &spelled("sgemm")) {
        // SAFETY: a handler with the reference XERBLA's gfortran signature, INFO as wide as the
        // routines' integers.
        Some(h) if int64 => unsafe {
            let h: FortranHandler<i64> = std::mem::transmute(h);
            h(srname.as_ptr().cast(), &i64::from(info), srname.len());
        },
        Some(h) => unsafe {
            let h: FortranHandler<c_int> = std::mem::transmute(h);
            h(srname.as_ptr().cast(), &info, srname.len());
        },
        None => unlocked_io::to_stderr(&format!(
            " ** On entry to {} parameter number {info:2} had an illegal value\n",
            srname.trim_end()
        )),
    }
}

/// A row-major call reports positions of the column-major call it became, whose exchanged
/// arguments the reference `cblas_xerbla` swaps back when it prints them.
fn cblas(sym: &Symbol, fault: &Fault, row_major: bool, call: &Call) {
    let rout = match sym.family {
        Family::Cblas => format!("cblas_{}", sym.routine.name()),
        _ => sym.name().to_owned(),
    };
    let rout = CString::new(rout).unwrap_or_default();
    match program_handler(c"cblas_xerbla", c"cblas_sgemm") {
        Some(h) => {
            RowMajorStrg.store(i32::from(row_major), Ordering::SeqCst);
            // SAFETY: a handler with the reference cblas_xerbla's signature; the format takes
            // the one int passed after it.
            let h: CblasHandler = unsafe { std::mem::transmute(h) };
            unsafe {
                match fault.detail {
                    Some((form, value)) => h(fault.info, rout.as_ptr(), form.as_ptr(), value),
                    None => h(fault.info, rout.as_ptr(), c"".as_ptr()),
                }
            }
            RowMajorStrg.store(0, Ordering::SeqCst);
        }
        None => {
            let exchanged = if row_major {
                call.row_major_exchanges()
            } else {
                &[]
            };
            let info = exchanged
                .iter()
                .find_map(|&(a, b)| match fault.info {
                    i if i == a => Some(b),
                    i if i == b => Some(a),
                    _ => None,
                })
                .unwrap_or(fault.info);
            let detail = fault.detail.map_or(String::new(), |(form, value)| {
                form.to_string_lossy().replace("%d", &value.to_string())
            });
            unlocked_io::to_stderr(&format!(
                "Parameter {info} to routine {} was incorrect\n{detail}",
                rout.to_string_lossy()
            ));
        }
    }
}

/// The program's definition of handler `name`, if there is one: not glblas's, and not a BLAS
/// library's default (recognised by its object also defining `probe`, a BLAS routine).
fn program_handler(name: &CStr, probe: &CStr) -> Option<*const c_void> {
    // SAFETY: RTLD_DEFAULT and a NUL-terminated name.
    let h = unsafe { libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()) }.cast_const();
    if h.is_null() || is_glblas(h as usize) || defined_beside(h as usize, probe) {
        None
    } else {
        Some(h)
    }
}

/// Whether the object that defines `p` defines `probe` too.
fn defined_beside(p: usize, probe: &CStr) -> bool {
    let Some(file) = object_name(p) else {
        return false;
    };
    // SAFETY: NOLOAD only finds an already loaded object; the reference is released below.
    unsafe {
        let h = libc::dlopen(file.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD);
        if h.is_null() {
            return false;
        }
        let q = libc::dlsym(h, probe.as_ptr()).cast_const();
        libc::dlclose(h);
        !q.is_null() && object_base(q as usize) == object_base(p)
    }
}
