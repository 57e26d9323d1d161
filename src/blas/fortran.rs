//! The Fortran 77 symbols, gfortran calling convention: every argument by reference, and after
//! the others one hidden length per character argument (passed on to the CPU BLAS as received).
//! One definition, instantiated for each precision.

use std::ffi::{c_char, c_int};

use super::call::{Args, GemmArgs, GemvArgs, Layout, Op};
use super::level3::{Flag, SymmArgs, SyrkArgs, TriArgs, DIAG, SIDE, UPLO};
use crate::engine::element::Real;

macro_rules! fortran_symbols {
    ($t:ty: $Axpy:ident $axpy:ident, $Dot:ident $dot:ident, $Scal:ident $scal:ident,
     $Copy:ident $copy:ident, $Swap:ident $swap:ident, $Asum:ident $asum:ident,
     $Gemv:ident $gemv:ident, $Gemm:ident $gemm:ident) => {
        export!(Fortran, $Axpy,
            fn $axpy(n: *const c_int, alpha: *const $t, x: *const $t, incx: *const c_int,
                     y: *mut $t, incy: *const c_int)
            = Args::Axpy { n: (*n).into(), alpha: *alpha, x, incx: (*incx).into(), y,
                           incy: (*incy).into() }.into());

        export!(Fortran, $Dot,
            fn $dot(n: *const c_int, x: *const $t, incx: *const c_int, y: *const $t,
                    incy: *const c_int) -> $t
            = Args::Dot { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() }
                .into());

        export!(Fortran, $Scal,
            fn $scal(n: *const c_int, alpha: *const $t, x: *mut $t, incx: *const c_int)
            = Args::Scal { n: (*n).into(), alpha: *alpha, x, incx: (*incx).into() }.into());

        export!(Fortran, $Copy,
            fn $copy(n: *const c_int, x: *const $t, incx: *const c_int, y: *mut $t,
                     incy: *const c_int)
            = Args::Copy { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() }
                .into());

        export!(Fortran, $Swap,
            fn $swap(n: *const c_int, x: *mut $t, incx: *const c_int, y: *mut $t,
                     incy: *const c_int)
            = Args::Swap { n: (*n).into(), x, incx: (*incx).into(), y, incy: (*incy).into() }
                .into());

        export!(Fortran, $Asum,
            fn $asum(n: *const c_int, x: *const $t, incx: *const c_int) -> $t
            = Args::Asum { n: (*n).into(), x, incx: (*incx).into() }.into());

        export!(Fortran, $Gemv,
            fn $gemv(trans: *const c_char, m: *const c_int, n: *const c_int, alpha: *const $t,
                     a: *const $t, lda: *const c_int, x: *const $t, incx: *const c_int,
                     beta: *const $t, y: *mut $t, incy: *const c_int, trans_len: usize)
            = Args::Gemv(GemvArgs {
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
            }).into());

        export!(Fortran, $Gemm,
            fn $gemm(transa: *const c_char, transb: *const c_char, m: *const c_int,
                     n: *const c_int, k: *const c_int, alpha: *const $t, a: *const $t,
                     lda: *const c_int, b: *const $t, ldb: *const c_int, beta: *const $t,
                     c: *mut $t, ldc: *const c_int, transa_len: usize, transb_len: usize)
            = Args::Gemm(gemm_args([transa, transb], [m, n, k], alpha, (a, lda), (b, ldb), beta,
                                   (c, ldc))).into());
    };
}

fortran_symbols!(f32: Saxpy saxpy_, Sdot sdot_, Sscal sscal_, Scopy scopy_, Sswap sswap_,
    Sasum sasum_, Sgemv sgemv_, Sgemm sgemm_);

fortran_symbols!(f64: Daxpy daxpy_, Ddot ddot_, Dscal dscal_, Dcopy dcopy_, Dswap dswap_,
    Dasum dasum_, Dgemv dgemv_, Dgemm dgemm_);

/// nrm2 and i?amax (a 1-based INTEGER result).
macro_rules! fortran_reductions {
    ($t:ty: $Nrm2:ident $nrm2:ident, $Iamax:ident $iamax:ident) => {
        export!(Fortran, $Nrm2,
            fn $nrm2(n: *const c_int, x: *const $t, incx: *const c_int) -> $t
            = Args::Nrm2 { n: (*n).into(), x, incx: (*incx).into() }.into());

        export!(Fortran, $Iamax,
            fn $iamax(n: *const c_int, x: *const $t, incx: *const c_int) -> c_int
            = Args::Iamax { n: (*n).into(), x, incx: (*incx).into() }.into());
    };
}

fortran_reductions!(f32: Snrm2 snrm2_, Isamax isamax_);
fortran_reductions!(f64: Dnrm2 dnrm2_, Idamax idamax_);

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

/// The Level 3 routines beyond gemm: symm, syrk, syr2k, trmm, trsm.
macro_rules! fortran_level3 {
    ($t:ty: $Symm:ident $symm:ident, $Syrk:ident $syrk:ident, $Syr2k:ident $syr2k:ident,
     $Trmm:ident $trmm:ident, $Trsm:ident $trsm:ident) => {
        export!(Fortran, $Symm,
            fn $symm(side: *const c_char, uplo: *const c_char, m: *const c_int,
                     n: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int,
                     b: *const $t, ldb: *const c_int, beta: *const $t, c: *mut $t,
                     ldc: *const c_int, side_len: usize, uplo_len: usize)
            = Args::Symm(SymmArgs::new(Layout::Fortran,
                [Flag::from_fortran(&SIDE, side), Flag::from_fortran(&UPLO, uplo)], [*m, *n],
                *alpha, (a, *lda), (b, *ldb), *beta, (c, *ldc))).into());

        export!(Fortran, $Syrk,
            fn $syrk(uplo: *const c_char, trans: *const c_char, n: *const c_int,
                     k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int,
                     beta: *const $t, c: *mut $t, ldc: *const c_int, uplo_len: usize,
                     trans_len: usize)
            = Args::Syrk(SyrkArgs::new(Layout::Fortran,
                (Flag::from_fortran(&UPLO, uplo), Op::from_fortran(trans)), [*n, *k], *alpha,
                (a, *lda), None, *beta, (c, *ldc))).into());

        export!(Fortran, $Syr2k,
            fn $syr2k(uplo: *const c_char, trans: *const c_char, n: *const c_int,
                      k: *const c_int, alpha: *const $t, a: *const $t, lda: *const c_int,
                      b: *const $t, ldb: *const c_int, beta: *const $t, c: *mut $t,
                      ldc: *const c_int, uplo_len: usize, trans_len: usize)
            = Args::Syrk(SyrkArgs::new(Layout::Fortran,
                (Flag::from_fortran(&UPLO, uplo), Op::from_fortran(trans)), [*n, *k], *alpha,
                (a, *lda), Some((b, *ldb)), *beta, (c, *ldc))).into());

        export!(Fortran, $Trmm,
            fn $trmm(side: *const c_char, uplo: *const c_char, transa: *const c_char,
                     diag: *const c_char, m: *const c_int, n: *const c_int, alpha: *const $t,
                     a: *const $t, lda: *const c_int, b: *mut $t, ldb: *const c_int,
                     side_len: usize, uplo_len: usize, transa_len: usize, diag_len: usize)
            = Args::Trmm(tri_args([side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());

        export!(Fortran, $Trsm,
            fn $trsm(side: *const c_char, uplo: *const c_char, transa: *const c_char,
                     diag: *const c_char, m: *const c_int, n: *const c_int, alpha: *const $t,
                     a: *const $t, lda: *const c_int, b: *mut $t, ldb: *const c_int,
                     side_len: usize, uplo_len: usize, transa_len: usize, diag_len: usize)
            = Args::Trsm(tri_args([side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());
    };
}

fortran_level3!(f32: Ssymm ssymm_, Ssyrk ssyrk_, Ssyr2k ssyr2k_, Strmm strmm_, Strsm strsm_);

fortran_level3!(f64: Dsymm dsymm_, Dsyrk dsyrk_, Dsyr2k dsyr2k_, Dtrmm dtrmm_, Dtrsm dtrsm_);

/// The common form of a Fortran trmm's or trsm's arguments, for either precision.
///
/// # Safety
/// Every pointer to a scalar or character argument is valid.
unsafe fn tri_args<T: Real>(
    [side, uplo, transa, diag]: [*const c_char; 4],
    [m, n]: [*const c_int; 2],
    alpha: *const T,
    (a, lda): (*const T, *const c_int),
    (b, ldb): (*mut T, *const c_int),
) -> TriArgs<T> {
    let how = (
        Flag::from_fortran(&SIDE, side),
        Flag::from_fortran(&UPLO, uplo),
        Op::from_fortran(transa),
        Flag::from_fortran(&DIAG, diag),
    );
    TriArgs::new(Layout::Fortran, how, [*m, *n], *alpha, (a, *lda), (b, *ldb))
}
