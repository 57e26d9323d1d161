//! One BLAS-compatible call in a form shared by the CBLAS, Fortran and ILP64 symbols: its
//! routine's arguments as the caller gave them, and the [`Describe`] trait through which each
//! routine is described once (`level1.rs`, `level2.rs`, `level3.rs`): the reference BLAS's
//! argument checks (which parameter number an error reports), quick returns, flop count, how
//! it uses each operand, its trace text and its computation on GL. Everything else (routing,
//! the undo snapshot, floating-point flags, error reports, the trace) follows from that.

use std::ffi::{c_char, c_int, CStr};
use std::fmt;

use super::args::{each_complex_routine, each_routine};
pub use super::args::{Args, ComplexArgs};
use super::level3::TriArgs;
use super::region::Region;
use crate::engine::element::{Complex, Real, Scalar};
use crate::engine::memory::is_device_address;
use crate::kernels::Trans;
use crate::status::Result;

/// How a matrix argument is laid out: Fortran symbols have no layout argument; CBLAS ones may
/// pass a value that is no layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    Fortran,
    Col,
    Row,
    Bad(c_int),
}

impl Layout {
    pub fn from_cblas(v: c_int) -> Layout {
        match v {
            102 => Layout::Col,
            101 => Layout::Row,
            v => Layout::Bad(v),
        }
    }
}

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

/// op(X) as the caller gave it: a CBLAS enum or a Fortran character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    N,
    T,
    C,
    /// Neither: the CBLAS value.
    Bad(c_int),
    /// Neither: the Fortran character.
    BadChar(u8),
}

impl Op {
    pub fn from_cblas(v: c_int) -> Op {
        match v {
            111 => Op::N,
            112 => Op::T,
            113 => Op::C,
            v => Op::Bad(v),
        }
    }

    /// A `glblasOperation_t` (C means T for real data).
    pub fn from_glblas(v: c_int) -> Op {
        match v {
            0 => Op::N,
            1 => Op::T,
            2 => Op::C,
            v => Op::Bad(v),
        }
    }

    /// # Safety
    /// `c` must point to a readable character (Fortran passes every argument by reference).
    pub unsafe fn from_fortran(c: *const c_char) -> Op {
        match *c as u8 {
            b'N' | b'n' => Op::N,
            b'T' | b't' => Op::T,
            b'C' | b'c' => Op::C,
            v => Op::BadChar(v),
        }
    }

    /// Transposed (C is T for real data); None when invalid.
    pub(super) fn transposed(self) -> Option<bool> {
        self.trans().map(Trans::transposed)
    }

    /// The operation; None when invalid.
    pub(super) fn trans(self) -> Option<Trans> {
        match self {
            Op::N => Some(Trans::N),
            Op::T => Some(Trans::T),
            Op::C => Some(Trans::C),
            Op::Bad(_) | Op::BadChar(_) => None,
        }
    }

    /// The invalid value, as the CBLAS message prints it.
    pub(super) fn bad(self) -> Option<c_int> {
        match self {
            Op::Bad(v) => Some(v),
            Op::BadChar(c) => Some(c_int::from(c)),
            Op::N | Op::T | Op::C => None,
        }
    }

    /// The other operation, as row-major CBLAS hands it to the column-major routine.
    pub(super) fn flipped(self) -> Op {
        match self {
            Op::N => Op::T,
            Op::T | Op::C => Op::N,
            bad => bad,
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Op::N => f.write_str("N"),
            Op::T => f.write_str("T"),
            Op::C => f.write_str("C"),
            Op::Bad(v) => write!(f, "{v}"),
            // The character itself where it cannot break the trace's `key=value` fields.
            Op::BadChar(c) if c.is_ascii_graphic() => write!(f, "{}", char::from(*c)),
            Op::BadChar(c) => write!(f, "{c:#04x}"),
        }
    }
}

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

    /// The call with each vector's increment as its byte stride wraps (see [`addressed`]).
    fn addressed(&self) -> Self {
        *self
    }

    /// Computes the (checked) call on GL; the value is the result of dot, asum and nrm2 (in
    /// double, exactly the single-precision result for the `s` routines), or i?amax's 1-based
    /// index.
    ///
    /// # Safety
    /// The operands must be valid for the call, as for the BLAS routine itself.
    unsafe fn run_gl(&self) -> Result<Value>;
}

/// trmm: B := alpha*op(A)*B or alpha*B*op(A).
pub type Trmm<T> = TriArgs<T, false>;
/// trsm: B := the solution X of op(A)*X = alpha*B or X*op(A) = alpha*B.
pub type Trsm<T> = TriArgs<T, true>;

/// How CBLAS passes a scalar argument: a real by value, a complex by pointer (`cblas.h`'s
/// `const void *`).
pub trait CblasScalar: Scalar {
    type Arg: Copy;

    /// # Safety
    /// A complex scalar's pointer must be readable, as for the reference CBLAS.
    unsafe fn read(arg: Self::Arg) -> Self;
}

impl<R: Real> CblasScalar for R {
    type Arg = R;

    unsafe fn read(arg: R) -> R {
        arg
    }
}

impl<R: Real> CblasScalar for Complex<R> {
    type Arg = *const Complex<R>;

    unsafe fn read(arg: *const Complex<R>) -> Complex<R> {
        *arg
    }
}

/// A call in any of the four precisions: what the exports hand to `dispatch`
/// (`Args::….into()`, `ComplexArgs::….into()`).
#[derive(Clone, Copy, Debug)]
pub enum Call {
    Single(Args<f32>),
    Double(Args<f64>),
    ComplexSingle(ComplexArgs<f32>),
    ComplexDouble(ComplexArgs<f64>),
}

impl From<Args<f32>> for Call {
    fn from(a: Args<f32>) -> Call {
        Call::Single(a)
    }
}

impl From<Args<f64>> for Call {
    fn from(a: Args<f64>) -> Call {
        Call::Double(a)
    }
}

impl From<ComplexArgs<f32>> for Call {
    fn from(a: ComplexArgs<f32>) -> Call {
        Call::ComplexSingle(a)
    }
}

impl From<ComplexArgs<f64>> for Call {
    fn from(a: ComplexArgs<f64>) -> Call {
        Call::ComplexDouble(a)
    }
}

const ILLEGAL_LAYOUT: &CStr = c"Illegal layout setting, %d\n";
pub(super) const ILLEGAL_TRANSA: &CStr = c"Illegal TransA setting, %d\n";
pub(super) const ILLEGAL_TRANSB: &CStr = c"Illegal TransB setting, %d\n";

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

/// The methods of a call's description, on each enum of calls (`$each` runs code on its
/// description): each is the routine's own (see [`Describe`]).
macro_rules! describe_each {
    ($args:ident<$t:ident: Real> as $elem:ty, $each:ident) => {
        impl<$t: Real> $args<$t> {
            pub fn check(&self) -> std::result::Result<(), Fault> {
                $each!(self, r, _w => r.check())
            }

            pub fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
                $each!(self, r, _w => r.row_major_exchanges())
            }

            pub fn quick_return(&self) -> Option<Value> {
                $each!(self, r, _w => r.quick_return())
            }

            pub fn layout(&self) -> Layout {
                $each!(self, r, _w => r.layout())
            }

            fn level(&self) -> u8 {
                fn of<T: Scalar, R: Describe<T>>(_: &R) -> u8 {
                    R::LEVEL
                }
                $each!(self, r, _w => of(r))
            }

            fn gpu_wins_when_large(&self) -> bool {
                fn of<T: Scalar, R: Describe<T>>(_: &R) -> bool {
                    R::GPU_WINS_WHEN_LARGE
                }
                $each!(self, r, _w => of(r))
            }

            /// Saturating instead of wrapping.
            pub fn flops(&self) -> u64 {
                let factors = $each!(self, r, _w => r.flops());
                factors
                    .iter()
                    .fold(1u64, |acc, &v| acc.saturating_mul(v.max(0) as u64))
            }

            pub fn computes_value(&self) -> bool {
                $each!(self, r, _w => r.computes_value())
            }

            pub fn operands(&self) -> Vec<Operand> {
                $each!(self, r, _w => r.operands())
            }

            pub fn scalars(&self) -> Vec<$elem> {
                $each!(self, r, _w => r.scalars())
            }

            pub fn as_addressed(&self) -> Self {
                $each!(self, r, wrap => wrap(r.addressed()))
            }

            /// # Safety
            /// As for [`Describe::run_gl`].
            pub unsafe fn run_gl(&self) -> Result<Value> {
                $each!(self, r, _w => r.run_gl())
            }
        }

        impl<$t: Real> fmt::Display for $args<$t> {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                $each!(self, r, _w => r.fmt(f))
            }
        }
    };
}

describe_each!(Args<T: Real> as T, each_routine);
describe_each!(ComplexArgs<T: Real> as Complex<T>, each_complex_routine);

/// A vector of `n` elements whose increment's byte stride overflows 64 bits, read as the vector
/// of the increment that stride wraps to. Every CPU BLAS addresses element i at x + i·inc·size
/// modulo 2^64, and numpy's ILP64 linalg relies on it: it passes such increments for reversed
/// arrays (the negative byte stride divided by the element size as unsigned: 2^61 − 4 for −4
/// doubles). Returns where the vector starts, in elements from x (its far end where the
/// increment is negative, as BLAS counts a negative increment), and the increment; the call is
/// then the reference's with that increment, quick returns included (asum, iamax and scal do
/// nothing with a negative one). Any other vector is as given.
fn addressed<T: Scalar>(n: i64, inc: i64) -> (isize, i64) {
    let size = std::mem::size_of::<T>() as i64;
    if n <= 1 || inc.checked_mul(size).is_some() {
        return (0, inc);
    }
    let step = inc.wrapping_mul(size) / size;
    let start = if step < 0 {
        (n - 1).wrapping_mul(step)
    } else {
        0
    };
    (start as isize, step)
}

/// Vector `(x, incx)` of n elements, its start and increment as [`addressed`] reads them; `at`
/// offsets the pointer ([`from_const`] or [`from_mut`]).
pub(super) fn wrapped<T: Scalar, P: Copy>(
    n: i64,
    x: &mut P,
    incx: &mut i64,
    at: fn(P, isize) -> P,
) {
    let (start, step) = addressed::<T>(n, *incx);
    (*x, *incx) = (at(*x, start), step);
}

pub(super) fn from_const<T>(p: *const T, o: isize) -> *const T {
    p.wrapping_offset(o)
}

pub(super) fn from_mut<T>(p: *mut T, o: isize) -> *mut T {
    p.wrapping_offset(o)
}

/// Runs `$body` with `$a` bound to the call's `Args`, whichever its precision.
macro_rules! each_precision {
    ($call:expr, $a:ident => $body:expr) => {
        match $call {
            Call::Single($a) => $body,
            Call::Double($a) => $body,
            Call::ComplexSingle($a) => $body,
            Call::ComplexDouble($a) => $body,
        }
    };
}

impl Call {
    /// See [`Args::check`].
    pub fn check(&self) -> std::result::Result<(), Fault> {
        each_precision!(self, a => a.check())
    }

    /// See [`Args::as_addressed`].
    pub fn as_addressed(&self) -> Call {
        match self {
            Call::Single(a) => Call::Single(a.as_addressed()),
            Call::Double(a) => Call::Double(a.as_addressed()),
            Call::ComplexSingle(a) => Call::ComplexSingle(a.as_addressed()),
            Call::ComplexDouble(a) => Call::ComplexDouble(a.as_addressed()),
        }
    }

    /// See [`Args::quick_return`].
    pub fn quick_return(&self) -> Option<Value> {
        each_precision!(self, a => a.quick_return())
    }

    /// See [`Args::layout`].
    pub fn layout(&self) -> Layout {
        each_precision!(self, a => a.layout())
    }

    /// See [`Args::flops`].
    pub fn flops(&self) -> u64 {
        each_precision!(self, a => a.flops())
    }

    /// 1, 2 or 3.
    pub fn level(&self) -> u8 {
        each_precision!(self, a => a.level())
    }

    /// See [`Describe::GPU_WINS_WHEN_LARGE`].
    pub fn gpu_wins_when_large(&self) -> bool {
        each_precision!(self, a => a.gpu_wins_when_large())
    }

    /// See [`Describe::row_major_exchanges`].
    pub fn row_major_exchanges(&self) -> &'static [(i32, i32)] {
        each_precision!(self, a => a.row_major_exchanges())
    }

    /// Every operand, with its use (see [`Describe::operands`]).
    pub fn operands(&self) -> Vec<Operand> {
        each_precision!(self, a => a.operands())
    }

    /// Whether the value `run_gl` returns is computed (see [`Describe::computes_value`]).
    pub fn computes_value(&self) -> bool {
        each_precision!(self, a => a.computes_value())
    }

    /// The scalars the result is computed with, each part of a complex one.
    pub fn scalar_values(&self) -> Vec<f64> {
        each_precision!(self, a => a
            .scalars()
            .iter()
            .flat_map(|s| s.f64_parts())
            .collect())
    }

    /// Whether an operand is a glblas device pointer (which only GL can read).
    pub fn touches_device_memory(&self) -> bool {
        on_device(&self.operands())
    }

    /// Computes the (checked) call on GL; the value is the result of dot, asum and nrm2, in
    /// double (exactly the single-precision result for the `s` routines), or iamax's index.
    ///
    /// # Safety
    /// As for [`Args::run_gl`].
    pub unsafe fn run_gl(&self) -> Result<Value> {
        each_precision!(self, a => a.run_gl())
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Layout::Fortran => Ok(()),
            Layout::Col => f.write_str("layout=col "),
            Layout::Row => f.write_str("layout=row "),
            Layout::Bad(v) => write!(f, "layout={v} "),
        }
    }
}

/// The trace's `key=value` list of a call's sizes, scalars, increments and leading dimensions.
impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        each_precision!(self, a => a.fmt(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blas::level1::{Reduce, Reduction};
    use crate::blas::level2::GemvArgs;
    use crate::blas::level3::GemmArgs;

    fn gemm(layout: Layout, ta: Op, tb: Op, dims: [i64; 6]) -> i32 {
        let [m, n, k, lda, ldb, ldc] = dims;
        let g = GemmArgs {
            layout,
            transa: ta,
            transb: tb,
            m,
            n,
            k,
            alpha: 1.0,
            a: std::ptr::null(),
            lda,
            b: std::ptr::null(),
            ldb,
            beta: 0.0,
            c: std::ptr::null_mut(),
            ldc,
        };
        Args::Gemm(g).check().err().map_or(0, |f| f.info)
    }

    fn gemv(layout: Layout, t: Op, dims: [i64; 5]) -> i32 {
        let [m, n, lda, incx, incy] = dims;
        let g = GemvArgs {
            layout,
            trans: t,
            m,
            n,
            alpha: 1.0,
            a: std::ptr::null(),
            lda,
            x: std::ptr::null(),
            incx,
            beta: 0.0,
            y: std::ptr::null_mut(),
            incy,
        };
        Args::Gemv(g).check().err().map_or(0, |f| f.info)
    }

    use Layout::{Col, Fortran, Row};
    use Op::{N, T};

    #[test]
    fn sgemm_reports_the_reference_positions() {
        let bad = Op::Bad(0);
        // Fortran: TRANSA 1, TRANSB 2, M 3, N 4, K 5, LDA 8, LDB 10, LDC 13.
        assert_eq!(gemm(Fortran, bad, N, [2, 2, 2, 2, 2, 2]), 1);
        assert_eq!(gemm(Fortran, N, bad, [2, 2, 2, 2, 2, 2]), 2);
        assert_eq!(gemm(Fortran, N, N, [-1, 2, 2, 2, 2, 2]), 3);
        assert_eq!(gemm(Fortran, N, N, [2, -1, 2, 2, 2, 2]), 4);
        assert_eq!(gemm(Fortran, N, N, [2, 2, -1, 2, 2, 2]), 5);
        assert_eq!(gemm(Fortran, N, N, [3, 2, 2, 2, 2, 3]), 8);
        assert_eq!(
            gemm(Fortran, T, N, [3, 2, 4, 3, 4, 3]),
            8,
            "lda >= k when A is transposed"
        );
        assert_eq!(gemm(Fortran, N, N, [2, 2, 3, 2, 2, 2]), 10);
        assert_eq!(
            gemm(Fortran, N, T, [2, 3, 2, 2, 2, 2]),
            10,
            "ldb >= n when B is transposed"
        );
        assert_eq!(gemm(Fortran, N, N, [2, 2, 2, 2, 2, 1]), 13);
        assert_eq!(
            gemm(Fortran, N, N, [0, 0, 0, 1, 1, 1]),
            0,
            "leading dimensions of 1 for empty operands"
        );
        assert_eq!(
            gemm(Fortran, N, N, [-1, -1, 2, 2, 2, 2]),
            3,
            "the first failing check wins"
        );
        // Column-major CBLAS: layout 1, enums 2 and 3, then the Fortran positions plus one.
        assert_eq!(gemm(Layout::Bad(0), bad, N, [-1, 2, 2, 2, 2, 2]), 1);
        assert_eq!(gemm(Col, bad, N, [2, 2, 2, 2, 2, 2]), 2);
        assert_eq!(gemm(Col, N, bad, [2, 2, 2, 2, 2, 2]), 3);
        assert_eq!(gemm(Col, N, N, [-1, 2, 2, 2, 2, 2]), 4);
        assert_eq!(gemm(Col, N, N, [2, -1, 2, 2, 2, 2]), 5);
        assert_eq!(gemm(Col, N, N, [2, 2, -1, 2, 2, 2]), 6);
        assert_eq!(gemm(Col, N, N, [3, 2, 2, 2, 2, 3]), 9);
        assert_eq!(gemm(Col, N, N, [2, 2, 3, 2, 2, 2]), 11);
        assert_eq!(gemm(Col, N, N, [2, 2, 2, 2, 2, 1]), 14);
        // Row-major: the positions of the column-major call on exchanged operands, as the
        // reference CBLAS reports them (the netlib tests' own cases, swapped back there).
        assert_eq!(gemm(Row, bad, N, [2, 2, 2, 2, 2, 2]), 2);
        assert_eq!(gemm(Row, N, bad, [2, 2, 2, 2, 2, 2]), 3);
        assert_eq!(gemm(Row, N, N, [-1, 0, 0, 1, 1, 1]), 5);
        assert_eq!(gemm(Row, N, N, [0, -1, 0, 1, 1, 1]), 4);
        assert_eq!(gemm(Row, N, N, [0, 0, -1, 1, 1, 1]), 6);
        assert_eq!(
            gemm(Row, N, N, [0, 0, 2, 1, 1, 2]),
            11,
            "row-major lda >= k"
        );
        assert_eq!(gemm(Row, N, N, [0, 2, 0, 1, 1, 2]), 9, "row-major ldb >= n");
        assert_eq!(
            gemm(Row, N, N, [0, 2, 0, 1, 2, 1]),
            14,
            "row-major ldc >= n"
        );
        assert_eq!(
            gemm(Row, T, N, [2, 0, 0, 1, 2, 1]),
            11,
            "row-major lda >= m when A is transposed"
        );
    }

    #[test]
    fn sgemv_reports_the_reference_positions() {
        let bad = Op::BadChar(b'X');
        assert_eq!(gemv(Fortran, bad, [2, 2, 2, 1, 1]), 1);
        assert_eq!(gemv(Fortran, N, [-1, 2, 2, 1, 1]), 2);
        assert_eq!(gemv(Fortran, N, [2, -1, 2, 1, 1]), 3);
        assert_eq!(gemv(Fortran, T, [3, 2, 2, 1, 1]), 6);
        assert_eq!(gemv(Fortran, N, [2, 2, 2, 0, 1]), 8);
        assert_eq!(gemv(Fortran, N, [2, 2, 2, 1, 0]), 11);
        assert_eq!(
            gemv(Fortran, N, [2, 2, 2, -1, -2]),
            0,
            "negative increments are valid"
        );
        assert_eq!(gemv(Layout::Bad(7), N, [2, 2, 2, 1, 1]), 1);
        assert_eq!(gemv(Col, bad, [2, 2, 2, 1, 1]), 2);
        assert_eq!(gemv(Col, N, [-1, 2, 2, 1, 1]), 3);
        assert_eq!(gemv(Col, N, [2, -1, 2, 1, 1]), 4);
        assert_eq!(gemv(Col, N, [3, 2, 2, 1, 1]), 7);
        assert_eq!(gemv(Col, N, [2, 2, 2, 0, 1]), 9);
        assert_eq!(gemv(Col, N, [2, 2, 2, 1, 0]), 12);
        assert_eq!(gemv(Row, bad, [2, 2, 2, 1, 1]), 2);
        assert_eq!(gemv(Row, N, [-1, 2, 2, 1, 1]), 4);
        assert_eq!(gemv(Row, N, [2, -1, 2, 1, 1]), 3);
        assert_eq!(gemv(Row, N, [2, 3, 2, 1, 1]), 7, "row-major lda >= n");
        assert_eq!(gemv(Row, N, [3, 2, 2, 1, 1]), 0);
        assert_eq!(gemv(Row, T, [2, 2, 2, 0, 1]), 9);
        assert_eq!(gemv(Row, T, [2, 2, 2, 1, 0]), 12);
    }

    #[test]
    fn fortran_characters_are_case_insensitive() {
        for (c, op) in [
            (b'N', N),
            (b'n', N),
            (b'T', T),
            (b't', T),
            (b'C', Op::C),
            (b'c', Op::C),
        ] {
            let ch = c as c_char;
            assert_eq!(unsafe { Op::from_fortran(&ch) }, op);
        }
        let x = b'X' as c_char;
        assert_eq!(unsafe { Op::from_fortran(&x) }, Op::BadChar(b'X'));
    }

    #[test]
    fn flops_saturate_instead_of_wrapping() {
        let huge = i64::MAX / 2;
        let g = GemmArgs {
            layout: Col,
            transa: N,
            transb: N,
            m: huge,
            n: huge,
            k: huge,
            alpha: 1.0,
            a: std::ptr::null(),
            lda: huge,
            b: std::ptr::null(),
            ldb: huge,
            beta: 0.0,
            c: std::ptr::null_mut(),
            ldc: huge,
        };
        assert_eq!(Args::Gemm(g).flops(), u64::MAX);
        let neg = Args::<f64>::Reduce(Reduce {
            what: Reduction::Asum,
            n: -5,
            x: std::ptr::null(),
            incx: 1,
        });
        assert_eq!(neg.flops(), 0);
    }
}
