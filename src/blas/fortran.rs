//! The Fortran 77 symbols, gfortran calling convention: every argument by reference, and after
//! the others one hidden length per character argument (passed on to the CPU BLAS as received).

use std::ffi::{c_char, c_int};

use super::call::{Call, GemmArgs, GemvArgs, Layout, Op};
use crate::engine::element::Real;

export!(Fortran, Saxpy,
    fn saxpy_(n: *const c_int, alpha: *const f32, x: *const f32, incx: *const c_int, y: *mut f32,
              incy: *const c_int)
    = Call::Axpy { n: (*n).into(), alpha: *alpha, x, incx: (*incx).into(), y, incy: (*incy).into() });

export!(Fortran, Sdot,
    fn sdot_(n: *const c_int, x: *const f32, incx: *const c_int, y: *const f32,
             incy: *const c_int) -> f32
    = Call::Dot { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() });

export!(Fortran, Sscal,
    fn sscal_(n: *const c_int, alpha: *const f32, x: *mut f32, incx: *const c_int)
    = Call::Scal { n: (*n).into(), alpha: *alpha, x, incx: (*incx).into() });

export!(Fortran, Scopy,
    fn scopy_(n: *const c_int, x: *const f32, incx: *const c_int, y: *mut f32, incy: *const c_int)
    = Call::Copy { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() });

export!(Fortran, Sswap,
    fn sswap_(n: *const c_int, x: *mut f32, incx: *const c_int, y: *mut f32, incy: *const c_int)
    = Call::Swap { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() });

export!(Fortran, Sasum,
    fn sasum_(n: *const c_int, x: *const f32, incx: *const c_int) -> f32
    = Call::Asum { n: (*n).into(), x, incx: (*incx).into() });

export!(Fortran, Sgemv,
fn sgemv_(trans: *const c_char, m: *const c_int, n: *const c_int, alpha: *const f32,
          a: *const f32, lda: *const c_int, x: *const f32, incx: *const c_int,
          beta: *const f32, y: *mut f32, incy: *const c_int, trans_len: usize)
= Call::Gemv(GemvArgs {
    layout: Layout::Fortran,
    trans: Op::from_fortran(trans),
    m: (*m).into(),
    n: (*n).into(),
    alpha: *alpha,
    a,
    lda: (*lda).into(),
    x,
    incx: (*incx).into(),
    beta: *beta,
    y,
    incy: (*incy).into(),
}));

export!(Fortran, Sgemm,
fn sgemm_(transa: *const c_char, transb: *const c_char, m: *const c_int, n: *const c_int,
          k: *const c_int, alpha: *const f32, a: *const f32, lda: *const c_int,
          b: *const f32, ldb: *const c_int, beta: *const f32, c: *mut f32,
          ldc: *const c_int, transa_len: usize, transb_len: usize)
= Call::Gemm(gemm_args([transa, transb], [m, n, k], alpha, (a, lda), (b, ldb), beta, (c, ldc))));

export!(Fortran, Dgemm,
fn dgemm_(transa: *const c_char, transb: *const c_char, m: *const c_int, n: *const c_int,
          k: *const c_int, alpha: *const f64, a: *const f64, lda: *const c_int,
          b: *const f64, ldb: *const c_int, beta: *const f64, c: *mut f64,
          ldc: *const c_int, transa_len: usize, transb_len: usize)
= Call::Dgemm(gemm_args([transa, transb], [m, n, k], alpha, (a, lda), (b, ldb), beta, (c, ldc))));

/// The common form of a Fortran gemm's arguments, for either precision.
///
/// # Safety
/// Every pointer to a scalar argument is valid (the caller's by-reference arguments).
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_args<T: Real>(
    [transa, transb]: [*const c_char; 2],
    [m, n, k]: [*const c_int; 3],
    alpha: *const T,
    (a, lda): (*const T, *const c_int),
    (b, ldb): (*const T, *const c_int),
    beta: *const T,
    (c, ldc): (*mut T, *const c_int),
) -> GemmArgs<T> {
    GemmArgs {
        layout: Layout::Fortran,
        transa: Op::from_fortran(transa),
        transb: Op::from_fortran(transb),
        m: (*m).into(),
        n: (*n).into(),
        k: (*k).into(),
        alpha: *alpha,
        a,
        lda: (*lda).into(),
        b,
        ldb: (*ldb).into(),
        beta: *beta,
        c,
        ldc: (*ldc).into(),
    }
}
