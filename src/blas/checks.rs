//! The reference BLAS's argument checks, in the terms the descriptions make them in: the
//! parameter number a failing check reports (`Fault`), the layout and enum checks a CBLAS routine
//! makes before the Fortran routine's, and the one a CBLAS layout argument adds to each number.

use std::ffi::{c_int, CStr};

use super::options::{Layout, ILLEGAL_LAYOUT};

/// An invalid argument: the parameter number the reference BLAS reports, and for CBLAS enum
/// errors the detail it passes to `cblas_xerbla` (a printf format taking the bad value).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fault {
    pub info: i32,
    pub detail: Option<(&'static CStr, c_int)>,
}

impl Fault {
    fn at(info: i32) -> Fault {
        Fault { info, detail: None }
    }
}

/// The checks a CBLAS routine makes before the Fortran routine's: the layout (parameter 1), then
/// each enum argument at its C position (its invalid value, if it is one). Tells whether the
/// call is row-major.
pub(super) fn cblas_enums(
    layout: Layout,
    enums: &[(Option<c_int>, i32, &'static CStr)],
) -> std::result::Result<bool, Fault> {
    let row = match layout {
        // Fortran routines check their characters themselves.
        Layout::Fortran => return Ok(false),
        Layout::Row => true,
        Layout::Col => false,
        Layout::Bad(v) => {
            return Err(Fault {
                info: 1,
                detail: Some((ILLEGAL_LAYOUT, v)),
            })
        }
    };
    for &(bad, info, form) in enums {
        let Some(value) = bad else {
            continue;
        };
        return Err(Fault {
            info,
            detail: Some((form, value)),
        });
    }
    Ok(row)
}

/// Turns a Fortran parameter number into the call's: CBLAS adds one for the layout argument.
pub(super) fn fault(info: i32, layout: Layout) -> std::result::Result<(), Fault> {
    match (info, layout) {
        (0, _) => Ok(()),
        (i, Layout::Fortran) => Err(Fault::at(i)),
        (i, _) => Err(Fault::at(i + 1)),
    }
}
