//! One BLAS-compatible call in a form shared by the CBLAS, Fortran and ILP64 symbols: its
//! routine's arguments (`args.rs`) in any of the four precisions, with the methods of its
//! routine's description ([`Describe`]) on it.

use std::fmt;

use super::args::{each_complex_routine, each_routine, Args, ComplexArgs};
use super::checks::Fault;
use super::checksums::Checksums;
use super::describe::{on_device, Describe, Operand, Relocate, Value};
use super::options::Layout;
use crate::engine::element::{Complex, Real, Scalar};
use crate::status::Result;

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

            /// # Safety
            /// As for [`Describe::checksums`], of the operands where `to` puts them.
            pub unsafe fn checksums(&self, to: Relocate) -> Option<Checksums> {
                $each!(self, r, _w => r.relocated(to).checksums())
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

    /// Whether it computes in double precision (real or complex).
    pub fn doubles(&self) -> bool {
        matches!(self, Call::Double(_) | Call::ComplexDouble(_))
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

    /// What the call's result must sum to (`verify`), where its routine has checksums.
    ///
    /// # Safety
    /// As for [`Args::checksums`].
    pub unsafe fn checksums(&self, to: Relocate) -> Option<Checksums> {
        each_precision!(self, a => a.checksums(to))
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
    use crate::blas::options::Op;

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
