//! The trait through which each routine is described once (`level1.rs`, `level2.rs`,
//! `level3.rs`), and what a description is made of: the reference BLAS's argument checks (which
//! parameter number an error reports), quick returns, flop count, how the call uses each operand,
//! its trace text and its computation on GL. Everything else (routing, the undo snapshot,
//! floating-point flags, error reports, the trace) follows from that.

use std::fmt;

use super::checks::Fault;
use super::checksums::Checksums;
use super::options::Layout;
use super::region::Region;
use crate::engine::element::{Complex, Scalar};
use crate::engine::memory::is_device_address;
use crate::status::Result;

/// What a call returns: the result of dot, asum and nrm2 (in double, exactly the
/// single-precision result for the `s` routines; complex for cdotu and the like), i?amax's
/// 1-based index, or 0.
pub type Value = Complex<f64>;

/// How many times a real routine's flops a complex one counts: a complex multiply-add is 8 real
/// flops against a real one's 2, as LAPACK counts them.
pub(super) fn flop_scale<T: Scalar>() -> i64 {
    if T::COMPLEX {
        4
    } else {
        1
    }
}

/// How a call uses one of its operands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Use {
    /// Not read: the reference leaves it alone (A and B when alpha is 0).
    Unread,
    Read,
    /// Written. `reads`: read first (y of axpy, C when beta is not 0), so a failed GL attempt
    /// must put it back (`undo`); `computes`: its new values are computed, not moved as copy's
    /// and swap's are (`fpflags`).
    Written {
        reads: bool,
        computes: bool,
    },
}

impl Use {
    pub fn read_if(read: bool) -> Use {
        if read {
            Use::Read
        } else {
            Use::Unread
        }
    }

    /// Computed; read first when `reads`.
    pub fn output(reads: bool) -> Use {
        Use::Written {
            reads,
            computes: true,
        }
    }

    /// Written after being read: what a failed GL attempt must put back.
    pub fn read_first(self) -> bool {
        matches!(self, Use::Written { reads: true, .. })
    }

    /// Written, read first or not.
    pub fn written(self) -> bool {
        matches!(self, Use::Written { .. })
    }

    /// Written with computed values, which may raise floating-point flags.
    pub fn computed(self) -> bool {
        matches!(self, Use::Written { computes: true, .. })
    }
}

/// One operand of a call: its elements (its whole extent, also when unread) and their use.
#[derive(Clone)]
pub struct Operand {
    pub region: Region,
    pub usage: Use,
}

impl Operand {
    pub(super) fn new(region: Region, usage: Use) -> Operand {
        Operand { region, usage }
    }
}

/// Whether one of `operands` is a glblas device pointer (which only GL can read).
pub(super) fn on_device(operands: &[Operand]) -> bool {
    operands.iter().any(|o| {
        let p = o.region.base as usize;
        p != 0 && is_device_address(p)
    })
}

/// Where the check reads an operand's elements from (`verify`): a device operand's host copy,
/// else the address itself.
pub type Relocate<'a> = &'a dyn Fn(*const u8) -> *const u8;

/// An operand's address, which `Describe::relocated` moves.
pub(super) trait Address: Copy {
    fn relocated(self, to: Relocate) -> Self;
}

impl<P> Address for *const P {
    fn relocated(self, to: Relocate) -> Self {
        to(self.cast()).cast()
    }
}

impl<P> Address for *mut P {
    fn relocated(self, to: Relocate) -> Self {
        to(self.cast_const().cast()).cast_mut().cast()
    }
}

/// `Describe::relocated` for a description whose operands' addresses are the fields named.
macro_rules! relocated_fields {
    ($($field:ident),+) => {
        fn relocated(&self, to: super::describe::Relocate) -> Self {
            use super::describe::Address;
            let mut r = *self;
            $(r.$field = r.$field.relocated(to);)+
            r
        }
    };
}
pub(super) use relocated_fields;

/// A routine, described once: what a BLAS-compatible call of it checks, skips, counts, reads
/// and writes, and how GL computes it. Sizes are the caller's, widened to 64 bits.
pub trait Describe<T: Scalar>: Copy + fmt::Display {
    /// 1, 2 or 3.
    const LEVEL: u8;

    /// Whether `auto` routing sends a large enough call to a GPU: not for a routine the CPU
    /// BLAS answered faster at every size measured on one (`route`).
    const GPU_WINS_WHEN_LARGE: bool = true;

    /// Fortran for the routines without a layout argument.
    fn layout(&self) -> Layout {
        Layout::Fortran
    }

    /// The reference BLAS's argument checks (Level 1 has none: bad sizes are quick returns).
    fn check(&self) -> std::result::Result<(), Fault> {
        Ok(())
    }

    /// The C positions a row-major call exchanges (M and N, ...): it is checked as the
    /// column-major call it becomes, and the reference `cblas_xerbla` prints the positions
    /// swapped back.
    fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        &[]
    }

    /// Whether the (checked) call is one of the reference's quick returns, which touch no
    /// operand: then the value it returns (0, or i?amax's 1-based index, as `run_gl` gives it).
    fn quick_return(&self) -> Option<Value>;

    /// Floating-point operations as the reference counts them, as factors of a product (copy
    /// and swap count one per element moved).
    fn flops(&self) -> [i64; 4];

    /// Whether the value `run_gl` returns is computed (dot, asum, nrm2), not an index.
    fn computes_value(&self) -> bool {
        false
    }

    /// Every operand, with its use.
    fn operands(&self) -> Vec<Operand>;

    /// The scalars the result is computed with.
    fn scalars(&self) -> Vec<T> {
        vec![]
    }

    /// The call with each vector's increment as its byte stride wraps (`increments.rs`).
    fn addressed(&self) -> Self {
        *self
    }

    /// The call with each operand's address as `to` relocates it, for `checksums` to read (never
    /// run).
    fn relocated(&self, to: Relocate) -> Self;

    /// Computes the (checked) call on GL; the value is the result of dot, asum and nrm2 (in
    /// double, exactly the single-precision result for the `s` routines), or i?amax's 1-based
    /// index.
    ///
    /// # Safety
    /// The operands must be valid for the call, as for the BLAS routine itself.
    unsafe fn run_gl(&self) -> Result<Value>;

    /// What the (checked) call's result must sum to, from its inputs, for `GLBLAS_VERIFY`;
    /// `None` for a call that cannot be checked.
    ///
    /// # Safety
    /// The operands must be valid host memory for the call; called before `run_gl`.
    unsafe fn checksums(&self) -> Option<Checksums>;
}
