//! One BLAS-compatible call in a form shared by the CBLAS, Fortran and ILP64 symbols: its
//! arguments as the caller gave them, the reference BLAS's argument checks (which parameter
//! number an error reports), its flop count, its trace text, and its computation on GL.

use std::ffi::{c_char, c_int, CStr};
use std::fmt;

use super::level3::{SymmArgs, SyrkArgs, TriArgs};
use crate::engine::element::Real;
use crate::engine::memory::is_device_address;
use crate::status::Result;
use crate::{quick, routines};

/// The routines, for routing thresholds and the profile.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Routine {
    Saxpy,
    Sdot,
    Sscal,
    Scopy,
    Sswap,
    Sasum,
    Sgemv,
    Sgemm,
    Dgemm,
    Daxpy,
    Ddot,
    Dscal,
    Dcopy,
    Dswap,
    Dasum,
    Dgemv,
    Snrm2,
    Dnrm2,
    Isamax,
    Idamax,
    Ssymm,
    Ssyrk,
    Ssyr2k,
    Strmm,
    Strsm,
    Dsymm,
    Dsyrk,
    Dsyr2k,
    Dtrmm,
    Dtrsm,
}

impl Routine {
    pub const ALL: [Routine; 30] = [
        Routine::Saxpy,
        Routine::Sdot,
        Routine::Sscal,
        Routine::Scopy,
        Routine::Sswap,
        Routine::Sasum,
        Routine::Sgemv,
        Routine::Sgemm,
        Routine::Dgemm,
        Routine::Daxpy,
        Routine::Ddot,
        Routine::Dscal,
        Routine::Dcopy,
        Routine::Dswap,
        Routine::Dasum,
        Routine::Dgemv,
        Routine::Snrm2,
        Routine::Dnrm2,
        Routine::Isamax,
        Routine::Idamax,
        Routine::Ssymm,
        Routine::Ssyrk,
        Routine::Ssyr2k,
        Routine::Strmm,
        Routine::Strsm,
        Routine::Dsymm,
        Routine::Dsyrk,
        Routine::Dsyr2k,
        Routine::Dtrmm,
        Routine::Dtrsm,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Routine::Saxpy => "saxpy",
            Routine::Sdot => "sdot",
            Routine::Sscal => "sscal",
            Routine::Scopy => "scopy",
            Routine::Sswap => "sswap",
            Routine::Sasum => "sasum",
            Routine::Sgemv => "sgemv",
            Routine::Sgemm => "sgemm",
            Routine::Dgemm => "dgemm",
            Routine::Daxpy => "daxpy",
            Routine::Ddot => "ddot",
            Routine::Dscal => "dscal",
            Routine::Dcopy => "dcopy",
            Routine::Dswap => "dswap",
            Routine::Dasum => "dasum",
            Routine::Dgemv => "dgemv",
            Routine::Snrm2 => "snrm2",
            Routine::Dnrm2 => "dnrm2",
            Routine::Isamax => "isamax",
            Routine::Idamax => "idamax",
            Routine::Ssymm => "ssymm",
            Routine::Ssyrk => "ssyrk",
            Routine::Ssyr2k => "ssyr2k",
            Routine::Strmm => "strmm",
            Routine::Strsm => "strsm",
            Routine::Dsymm => "dsymm",
            Routine::Dsyrk => "dsyrk",
            Routine::Dsyr2k => "dsyr2k",
            Routine::Dtrmm => "dtrmm",
            Routine::Dtrsm => "dtrsm",
        }
    }
}

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
    fn transposed(self) -> Option<bool> {
        match self {
            Op::N => Some(false),
            Op::T | Op::C => Some(true),
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

/// The arguments of sgemv (`T = f32`) or dgemv.
#[derive(Clone, Copy, Debug)]
pub struct GemvArgs<T: Real = f32> {
    pub layout: Layout,
    pub trans: Op,
    pub m: i64,
    pub n: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub x: *const T,
    pub incx: i64,
    pub beta: T,
    pub y: *mut T,
    pub incy: i64,
}

/// The arguments of sgemm (`T = f32`) or dgemm.
#[derive(Clone, Copy, Debug)]
pub struct GemmArgs<T: Real = f32> {
    pub layout: Layout,
    pub transa: Op,
    pub transb: Op,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub alpha: T,
    pub a: *const T,
    pub lda: i64,
    pub b: *const T,
    pub ldb: i64,
    pub beta: T,
    pub c: *mut T,
    pub ldc: i64,
}

/// A call's routine and arguments as given (sizes widened to 64 bits), in precision `T`.
#[derive(Clone, Copy, Debug)]
pub enum Args<T: Real = f32> {
    Axpy {
        n: i64,
        alpha: T,
        x: *const T,
        incx: i64,
        y: *mut T,
        incy: i64,
    },
    Dot {
        n: i64,
        x: *const T,
        incx: i64,
        y: *const T,
        incy: i64,
    },
    Scal {
        n: i64,
        alpha: T,
        x: *mut T,
        incx: i64,
    },
    Copy {
        n: i64,
        x: *const T,
        incx: i64,
        y: *mut T,
        incy: i64,
    },
    Swap {
        n: i64,
        x: *mut T,
        incx: i64,
        y: *mut T,
        incy: i64,
    },
    Asum {
        n: i64,
        x: *const T,
        incx: i64,
    },
    Gemv(GemvArgs<T>),
    Gemm(GemmArgs<T>),
    Nrm2 {
        n: i64,
        x: *const T,
        incx: i64,
    },
    /// The 1-based index (Fortran's result; CBLAS's is one less, see `Answer`).
    Iamax {
        n: i64,
        x: *const T,
        incx: i64,
    },
    Symm(SymmArgs<T>),
    /// syrk, or syr2k when `b` is given.
    Syrk(SyrkArgs<T>),
    Trmm(TriArgs<T>),
    Trsm(TriArgs<T>),
}

/// A call in either precision: what the exports hand to `dispatch` (`Args::….into()`).
#[derive(Clone, Copy, Debug)]
pub enum Call {
    Single(Args<f32>),
    Double(Args<f64>),
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

/// gemm's checks in the reference order; the Fortran parameter number of the first failure.
#[allow(clippy::too_many_arguments)]
fn gemm_info(ta: Op, tb: Op, m: i64, n: i64, k: i64, lda: i64, ldb: i64, ldc: i64) -> i32 {
    let (Some(ta), Some(tb)) = (ta.transposed(), tb.transposed()) else {
        return if ta.transposed().is_none() { 1 } else { 2 };
    };
    let nrowa = if ta { k } else { m };
    let nrowb = if tb { n } else { k };
    if m < 0 {
        3
    } else if n < 0 {
        4
    } else if k < 0 {
        5
    } else if lda < nrowa.max(1) {
        8
    } else if ldb < nrowb.max(1) {
        10
    } else if ldc < m.max(1) {
        13
    } else {
        0
    }
}

/// sgemv's checks in the reference order.
fn gemv_info(t: Op, m: i64, n: i64, lda: i64, incx: i64, incy: i64) -> i32 {
    if t.transposed().is_none() {
        1
    } else if m < 0 {
        2
    } else if n < 0 {
        3
    } else if lda < m.max(1) {
        6
    } else if incx == 0 {
        8
    } else if incy == 0 {
        11
    } else {
        0
    }
}

const ILLEGAL_LAYOUT: &CStr = c"Illegal layout setting, %d\n";
const ILLEGAL_TRANSA: &CStr = c"Illegal TransA setting, %d\n";
const ILLEGAL_TRANSB: &CStr = c"Illegal TransB setting, %d\n";

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

impl<T: Real> GemmArgs<T> {
    /// C as the column-major matrix it is stored as, (rows, cols): row-major C (m×n) is the
    /// column-major n×m matrix C^T.
    pub fn c_shape(&self) -> (i64, i64) {
        if self.layout == Layout::Row {
            (self.n, self.m)
        } else {
            (self.m, self.n)
        }
    }

    /// Row-major CBLAS calls are checked as the column-major call they become (A and B, M and N
    /// exchanged), so they report that call's positions, as the reference CBLAS does (its
    /// `cblas_xerbla` swaps them back when printing).
    fn check(&self) -> std::result::Result<(), Fault> {
        let g = self;
        let row = cblas_enums(
            g.layout,
            &[
                (g.transa.bad(), 2, ILLEGAL_TRANSA),
                (g.transb.bad(), 3, ILLEGAL_TRANSB),
            ],
        )?;
        let info = if row {
            gemm_info(g.transb, g.transa, g.n, g.m, g.k, g.ldb, g.lda, g.ldc)
        } else {
            gemm_info(g.transa, g.transb, g.m, g.n, g.k, g.lda, g.ldb, g.ldc)
        };
        fault(info, g.layout)
    }

    /// The column-major shapes (rows, cols) that A and B are stored as.
    pub fn stored_ab(&self) -> [(i64, i64); 2] {
        let (ta, tb) = (self.transa != Op::N, self.transb != Op::N);
        let (m, n, k) = (self.m, self.n, self.k);
        // A row-major matrix is stored as its transpose.
        let row = self.layout == Layout::Row;
        let a = if ta != row { (k, m) } else { (m, k) };
        let b = if tb != row { (n, k) } else { (k, n) };
        [a, b]
    }

    /// See [`quick::gemm`].
    fn quick_return(&self) -> bool {
        quick::gemm(self.m, self.n, self.k, self.alpha, self.beta)
    }

    /// Computes the checked call on GL.
    ///
    /// # Safety
    /// As for `Call::run_gl`.
    unsafe fn run_gl(&self) -> Result<()> {
        let g = self;
        let ta = g.transa.transposed().unwrap_or(false);
        let tb = g.transb.transposed().unwrap_or(false);
        if g.layout == Layout::Row {
            // Row-major C = op(A)op(B) is column-major C^T = op(B)^T op(A)^T.
            routines::gemm(
                tb, ta, g.n, g.m, g.k, g.alpha, g.b, g.ldb, g.a, g.lda, g.beta, g.c, g.ldc,
            )
        } else {
            routines::gemm(
                ta, tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, g.c, g.ldc,
            )
        }
    }
}

/// The trace's text of gemm's arguments.
impl<T: Real> fmt::Display for GemmArgs<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let g = self;
        write!(
            f,
            "{}transa={} transb={} m={} n={} k={} alpha={} lda={} ldb={} beta={} ldc={}",
            g.layout, g.transa, g.transb, g.m, g.n, g.k, g.alpha, g.lda, g.ldb, g.beta, g.ldc
        )
    }
}

impl<T: Real> GemvArgs<T> {
    /// The column-major call this is, (transposed, m, n) of the stored A: row-major A is the
    /// column-major transpose (M and N exchanged, the operation flipped). Checked calls only.
    pub fn column_major(&self) -> (bool, i64, i64) {
        let t = self.trans.transposed().unwrap_or(false);
        if self.layout == Layout::Row {
            (!t, self.n, self.m)
        } else {
            (t, self.m, self.n)
        }
    }

    /// Elements of x: the columns of op(A).
    pub fn x_len(&self) -> i64 {
        let (t, m, n) = self.column_major();
        if t {
            m
        } else {
            n
        }
    }

    /// Elements of y: the rows of op(A).
    pub fn y_len(&self) -> i64 {
        let (t, m, n) = self.column_major();
        if t {
            n
        } else {
            m
        }
    }

    /// Row-major: checked as the column-major call on the transposed matrix (M and N exchanged).
    fn check(&self) -> std::result::Result<(), Fault> {
        let g = self;
        let row = cblas_enums(g.layout, &[(g.trans.bad(), 2, ILLEGAL_TRANSA)])?;
        let info = if row {
            gemv_info(g.trans.flipped(), g.n, g.m, g.lda, g.incx, g.incy)
        } else {
            gemv_info(g.trans, g.m, g.n, g.lda, g.incx, g.incy)
        };
        fault(info, g.layout)
    }

    /// See [`quick::gemv`].
    fn quick_return(&self) -> bool {
        quick::gemv(self.m, self.n, self.alpha, self.beta)
    }
}

impl<T: Real> Args<T> {
    /// The reference BLAS's argument checks (level 1 has none: bad sizes are quick returns).
    pub fn check(&self) -> std::result::Result<(), Fault> {
        match self {
            Args::Gemv(g) => g.check(),
            Args::Gemm(g) => g.check(),
            Args::Symm(s) => s.check(),
            Args::Syrk(s) => s.check(),
            Args::Trmm(t) | Args::Trsm(t) => t.check(),
            _ => Ok(()),
        }
    }

    /// Whether the (checked) call is one of the reference's quick returns, which touch no
    /// operand: then the value it returns (0, or i?amax's 1-based index, as `run_gl` gives it).
    pub fn quick_return(&self) -> Option<f64> {
        let quick = match *self {
            Args::Axpy { n, alpha, .. } => quick::axpy(n, alpha),
            Args::Dot { n, .. } | Args::Copy { n, .. } | Args::Swap { n, .. } => quick::empty(n),
            Args::Scal { n, alpha, incx, .. } => quick::scal(n, alpha, incx),
            Args::Asum { n, incx, .. } => quick::asum(n, incx),
            Args::Nrm2 { n, .. } => quick::nrm2(n),
            Args::Iamax { n, incx, .. } => return quick::iamax(n, incx).map(|i| i as f64),
            Args::Gemv(g) => g.quick_return(),
            Args::Gemm(g) => g.quick_return(),
            Args::Symm(s) => s.quick_return(),
            Args::Syrk(s) => s.quick_return(),
            Args::Trmm(t) | Args::Trsm(t) => t.quick_return(),
        };
        quick.then_some(0.0)
    }

    /// The layout of a level-2/3 call (Fortran for level 1, which has none).
    pub fn layout(&self) -> Layout {
        match self {
            Args::Gemv(g) => g.layout,
            Args::Gemm(g) => g.layout,
            Args::Symm(s) => s.layout,
            Args::Syrk(s) => s.layout,
            Args::Trmm(t) | Args::Trsm(t) => t.layout,
            _ => Layout::Fortran,
        }
    }

    /// Floating-point operations, for routing and the profile; copy and swap count one per
    /// element moved.
    pub fn flops(&self) -> u64 {
        let product = |xs: &[i64]| {
            xs.iter()
                .fold(1u64, |acc, &v| acc.saturating_mul(v.max(0) as u64))
        };
        match *self {
            Args::Axpy { n, .. } | Args::Dot { n, .. } => product(&[2, n]),
            Args::Scal { n, .. }
            | Args::Copy { n, .. }
            | Args::Swap { n, .. }
            | Args::Asum { n, .. } => product(&[n]),
            Args::Gemv(g) => product(&[2, g.m, g.n]),
            Args::Gemm(g) => product(&[2, g.m, g.n, g.k]),
            Args::Nrm2 { n, .. } => product(&[2, n]),
            Args::Iamax { n, .. } => product(&[n]),
            Args::Symm(s) => product(&s.flops()),
            Args::Syrk(s) => product(&s.flops()),
            Args::Trmm(t) | Args::Trsm(t) => product(&t.flops()),
        }
    }

    /// Whether an operand is a glblas device pointer (which only GL can read).
    pub fn touches_device_memory(&self) -> bool {
        let addr = |p: *const T| p as usize;
        let ptrs: [usize; 3] = match *self {
            Args::Axpy { x, y, .. } | Args::Copy { x, y, .. } => [addr(x), addr(y), 0],
            Args::Dot { x, y, .. } => [addr(x), addr(y), 0],
            Args::Swap { x, y, .. } => [addr(x), addr(y), 0],
            Args::Scal { x, .. } => [addr(x), 0, 0],
            Args::Asum { x, .. } => [addr(x), 0, 0],
            Args::Gemv(g) => [addr(g.a), addr(g.x), addr(g.y)],
            Args::Gemm(g) => [addr(g.a), addr(g.b), addr(g.c)],
            Args::Nrm2 { x, .. } | Args::Iamax { x, .. } => [addr(x), 0, 0],
            Args::Symm(s) => s.pointers(),
            Args::Syrk(s) => s.pointers(),
            Args::Trmm(t) | Args::Trsm(t) => t.pointers(),
        };
        ptrs.iter().any(|&p| p != 0 && is_device_address(p))
    }

    /// The call with each vector's increment as its byte stride wraps (see [`addressed`]).
    pub fn as_addressed(&self) -> Args<T> {
        fn wrap<T: Real, P: Copy>(p: &mut P, n: i64, inc: &mut i64, at: fn(P, isize) -> P) {
            let (start, step) = addressed::<T>(n, *inc);
            *p = at(*p, start);
            *inc = step;
        }
        let c = |p: *const T, o| p.wrapping_offset(o);
        let m = |p: *mut T, o| p.wrapping_offset(o);
        let mut a = *self;
        match &mut a {
            Args::Axpy {
                n,
                x,
                incx,
                y,
                incy,
                ..
            }
            | Args::Copy {
                n,
                x,
                incx,
                y,
                incy,
            } => {
                wrap::<T, _>(x, *n, incx, c);
                wrap::<T, _>(y, *n, incy, m);
            }
            Args::Dot {
                n,
                x,
                incx,
                y,
                incy,
            } => {
                wrap::<T, _>(x, *n, incx, c);
                wrap::<T, _>(y, *n, incy, c);
            }
            Args::Swap {
                n,
                x,
                incx,
                y,
                incy,
            } => {
                wrap::<T, _>(x, *n, incx, m);
                wrap::<T, _>(y, *n, incy, m);
            }
            Args::Scal { n, x, incx, .. } => wrap::<T, _>(x, *n, incx, m),
            Args::Asum { n, x, incx } | Args::Nrm2 { n, x, incx } | Args::Iamax { n, x, incx } => {
                wrap::<T, _>(x, *n, incx, c)
            }
            Args::Gemv(g) => {
                let (x_len, y_len) = (g.x_len(), g.y_len());
                wrap::<T, _>(&mut g.x, x_len, &mut g.incx, c);
                wrap::<T, _>(&mut g.y, y_len, &mut g.incy, m);
            }
            Args::Gemm(_) | Args::Symm(_) | Args::Syrk(_) | Args::Trmm(_) | Args::Trsm(_) => {}
        }
        a
    }

    /// Computes the (checked) call on GL; the value is the result of dot, asum and nrm2 (in
    /// double, exactly the single-precision result for the `s` routines), or iamax's 1-based
    /// index.
    ///
    /// # Safety
    /// The operands must be valid for the call, as for the BLAS routine itself.
    pub unsafe fn run_gl(&self) -> Result<f64> {
        let mut value = T::ZERO;
        match *self {
            Args::Axpy {
                n,
                alpha,
                x,
                incx,
                y,
                incy,
            } => routines::axpy(n, alpha, x, incx, y, incy)?,
            Args::Dot {
                n,
                x,
                incx,
                y,
                incy,
            } => routines::dot(n, x, incx, y, incy, &mut value)?,
            Args::Scal { n, alpha, x, incx } => routines::scal(n, alpha, x, incx)?,
            Args::Copy {
                n,
                x,
                incx,
                y,
                incy,
            } => routines::copy(n, x, incx, y, incy)?,
            Args::Swap {
                n,
                x,
                incx,
                y,
                incy,
            } => routines::swap(n, x, incx, y, incy)?,
            Args::Asum { n, x, incx } => routines::asum(n, x, incx, &mut value)?,
            Args::Gemv(g) => {
                let (t, m, n) = g.column_major();
                routines::gemv(
                    t, m, n, g.alpha, g.a, g.lda, g.x, g.incx, g.beta, g.y, g.incy,
                )?
            }
            Args::Gemm(g) => g.run_gl()?,
            Args::Nrm2 { n, x, incx } => routines::nrm2(n, x, incx, &mut value)?,
            Args::Iamax { n, x, incx } => return routines::iamax(n, x, incx).map(|i| i as f64),
            Args::Symm(s) => s.run_gl()?,
            Args::Syrk(s) => s.run_gl()?,
            Args::Trmm(t) => t.run_gl(false)?,
            Args::Trsm(t) => t.run_gl(true)?,
        }
        Ok(value.to_f64())
    }
}

/// A vector of `n` elements whose increment's byte stride overflows 64 bits, read as the vector
/// of the increment that stride wraps to. Every CPU BLAS addresses element i at x + i·inc·size
/// modulo 2^64, and numpy's ILP64 linalg relies on it: it passes such increments for reversed
/// arrays (the negative byte stride divided by the element size as unsigned: 2^61 − 4 for −4
/// doubles). Returns where the vector starts, in elements from x (its far end where the
/// increment is negative, as BLAS counts a negative increment), and the increment; the call is
/// then the reference's with that increment, quick returns included (asum, iamax and scal do
/// nothing with a negative one). Any other vector is as given.
fn addressed<T: Real>(n: i64, inc: i64) -> (isize, i64) {
    if n <= 1 || inc.checked_mul(T::SIZE).is_some() {
        return (0, inc);
    }
    let step = inc.wrapping_mul(T::SIZE) / T::SIZE;
    let start = if step < 0 {
        (n - 1).wrapping_mul(step)
    } else {
        0
    };
    (start as isize, step)
}

/// Runs `$body` with `$a` bound to the call's `Args`, whichever its precision.
macro_rules! each_precision {
    ($call:expr, $a:ident => $body:expr) => {
        match $call {
            Call::Single($a) => $body,
            Call::Double($a) => $body,
        }
    };
}
pub(crate) use each_precision;

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
        }
    }

    /// See [`Args::quick_return`].
    pub fn quick_return(&self) -> Option<f64> {
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

    /// See [`Args::touches_device_memory`].
    pub fn touches_device_memory(&self) -> bool {
        each_precision!(self, a => a.touches_device_memory())
    }

    /// Computes the (checked) call on GL; the value is the result of dot, asum and nrm2, in
    /// double (exactly the single-precision result for the `s` routines), or iamax's index.
    ///
    /// # Safety
    /// As for [`Args::run_gl`].
    pub unsafe fn run_gl(&self) -> Result<f64> {
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

impl<T: Real> fmt::Display for Args<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match *self {
            Args::Axpy {
                n,
                alpha,
                incx,
                incy,
                ..
            } => write!(f, "n={n} alpha={alpha} incx={incx} incy={incy}"),
            Args::Dot { n, incx, incy, .. }
            | Args::Copy { n, incx, incy, .. }
            | Args::Swap { n, incx, incy, .. } => write!(f, "n={n} incx={incx} incy={incy}"),
            Args::Scal { n, alpha, incx, .. } => write!(f, "n={n} alpha={alpha} incx={incx}"),
            Args::Asum { n, incx, .. }
            | Args::Nrm2 { n, incx, .. }
            | Args::Iamax { n, incx, .. } => write!(f, "n={n} incx={incx}"),
            Args::Gemv(g) => write!(
                f,
                "{}trans={} m={} n={} alpha={} lda={} incx={} beta={} incy={}",
                g.layout, g.trans, g.m, g.n, g.alpha, g.lda, g.incx, g.beta, g.incy
            ),
            Args::Gemm(g) => g.fmt(f),
            Args::Symm(s) => s.fmt(f),
            Args::Syrk(s) => s.fmt(f),
            Args::Trmm(t) | Args::Trsm(t) => t.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let neg = Args::<f64>::Asum {
            n: -5,
            x: std::ptr::null(),
            incx: 1,
        };
        assert_eq!(neg.flops(), 0);
    }
}
