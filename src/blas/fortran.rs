//! The Fortran 77 symbols, gfortran calling convention: every argument by reference, and after
//! the others one hidden length per character argument (passed on to the CPU BLAS as received).
//! One definition, instantiated for each precision and for each spelling of the names: the plain
//! ones (`sgemm_`), and those of the OpenBLAS builds that pip's wheels bundle and call, scipy's
//! LP64 `scipy_sgemm_` ([`scipy`]) and numpy's ILP64 `scipy_sgemm_64_` ([`scipy64`]).

use std::ffi::{c_char, c_int};

use super::call::{Args, Layout, Op};
use super::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use super::level2::GemvArgs;
use super::level3::GemmArgs;
use super::level3::{Flag, SymmArgs, SyrkArgs, TriArgs, DIAG, SIDE, UPLO};
use super::Family;
use crate::engine::element::Real;

/// Level 1, gemv and gemm. In each of these macros `$spelling` is the `[prefix, suffix]` around
/// the names, `$int` the integer type, and `FAMILY` the spelling's [`Family`].
macro_rules! fortran_symbols {
    ($spelling:tt $int:ty, $t:ty: $Axpy:ident $axpy:ident, $Dot:ident $dot:ident,
     $Scal:ident $scal:ident, $Copy:ident $copy:ident, $Swap:ident $swap:ident,
     $Asum:ident $asum:ident, $Gemv:ident $gemv:ident, $Gemm:ident $gemm:ident) => {
        export!($spelling FAMILY, $Axpy,
            fn $axpy(n: *const $int, alpha: *const $t, x: *const $t, incx: *const $int,
                     y: *mut $t, incy: *const $int)
            = Args::Axpy(Axpy { n: (*n).into(), alpha: *alpha, x: (x, (*incx).into()),
                                 y: (y, (*incy).into()) }).into());

        export!($spelling FAMILY, $Dot,
            fn $dot(n: *const $int, x: *const $t, incx: *const $int, y: *const $t,
                    incy: *const $int) -> $t
            = Args::Dot(Dot { n: (*n).into(), x: (x, (*incx).into()),
                y: (y, (*incy).into()) }).into());

        export!($spelling FAMILY, $Scal,
            fn $scal(n: *const $int, alpha: *const $t, x: *mut $t, incx: *const $int)
            = Args::Scal(Scal { n: (*n).into(), alpha: *alpha, x: (x, (*incx).into()) }).into());

        export!($spelling FAMILY, $Copy,
            fn $copy(n: *const $int, x: *const $t, incx: *const $int, y: *mut $t,
                     incy: *const $int)
            = Args::Copy(Move { n: (*n).into(), x: (x, (*incx).into()),
                y: (y, (*incy).into()) }).into());

        export!($spelling FAMILY, $Swap,
            fn $swap(n: *const $int, x: *mut $t, incx: *const $int, y: *mut $t,
                     incy: *const $int)
            = Args::Swap(Move { n: (*n).into(), x: (x.cast_const(), (*incx).into()),
                y: (y, (*incy).into()) }).into());

        export!($spelling FAMILY, $Asum,
            fn $asum(n: *const $int, x: *const $t, incx: *const $int) -> $t
            = Args::Reduce(Reduce { what: Reduction::Asum, n: (*n).into(), x: (x, (*incx).into()) }).into());

        export!($spelling FAMILY, $Gemv,
            fn $gemv(trans: *const c_char, m: *const $int, n: *const $int, alpha: *const $t,
                     a: *const $t, lda: *const $int, x: *const $t, incx: *const $int,
                     beta: *const $t, y: *mut $t, incy: *const $int, trans_len: usize)
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

        export!($spelling FAMILY, $Gemm,
            fn $gemm(transa: *const c_char, transb: *const c_char, m: *const $int,
                     n: *const $int, k: *const $int, alpha: *const $t, a: *const $t,
                     lda: *const $int, b: *const $t, ldb: *const $int, beta: *const $t,
                     c: *mut $t, ldc: *const $int, transa_len: usize, transb_len: usize)
            = Args::Gemm(gemm_args([transa, transb], [m, n, k], alpha, (a, lda), (b, ldb), beta,
                                   (c, ldc))).into());
    };
}

/// nrm2 and i?amax (a 1-based INTEGER result).
macro_rules! fortran_reductions {
    ($spelling:tt $int:ty, $t:ty: $Nrm2:ident $nrm2:ident, $Iamax:ident $iamax:ident) => {
        export!($spelling FAMILY, $Nrm2,
            fn $nrm2(n: *const $int, x: *const $t, incx: *const $int) -> $t
            = Args::Reduce(Reduce { what: Reduction::Nrm2, n: (*n).into(), x: (x, (*incx).into()) }).into());

        export!($spelling FAMILY, $Iamax,
            fn $iamax(n: *const $int, x: *const $t, incx: *const $int) -> $int
            = Args::Reduce(Reduce { what: Reduction::Iamax, n: (*n).into(), x: (x, (*incx).into()) }).into());
    };
}

/// The common form of a Fortran gemm's arguments, for either precision and integer width.
///
/// # Safety
/// Every pointer to a scalar argument is valid (the caller's by-reference arguments).
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_args<T: Real, I: Copy + Into<i64>>(
    [transa, transb]: [*const c_char; 2],
    [m, n, k]: [*const I; 3],
    alpha: *const T,
    (a, lda): (*const T, *const I),
    (b, ldb): (*const T, *const I),
    beta: *const T,
    (c, ldc): (*mut T, *const I),
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
    ($spelling:tt $int:ty, $t:ty: $Symm:ident $symm:ident, $Syrk:ident $syrk:ident,
     $Syr2k:ident $syr2k:ident, $Trmm:ident $trmm:ident, $Trsm:ident $trsm:ident) => {
        export!($spelling FAMILY, $Symm,
            fn $symm(side: *const c_char, uplo: *const c_char, m: *const $int,
                     n: *const $int, alpha: *const $t, a: *const $t, lda: *const $int,
                     b: *const $t, ldb: *const $int, beta: *const $t, c: *mut $t,
                     ldc: *const $int, side_len: usize, uplo_len: usize)
            = Args::Symm(SymmArgs::new(Layout::Fortran,
                [Flag::from_fortran(&SIDE, side), Flag::from_fortran(&UPLO, uplo)], [*m, *n],
                *alpha, (a, *lda), (b, *ldb), *beta, (c, *ldc))).into());

        export!($spelling FAMILY, $Syrk,
            fn $syrk(uplo: *const c_char, trans: *const c_char, n: *const $int,
                     k: *const $int, alpha: *const $t, a: *const $t, lda: *const $int,
                     beta: *const $t, c: *mut $t, ldc: *const $int, uplo_len: usize,
                     trans_len: usize)
            = Args::Syrk(SyrkArgs::new(Layout::Fortran,
                (Flag::from_fortran(&UPLO, uplo), Op::from_fortran(trans)), [*n, *k], *alpha,
                (a, *lda), None, *beta, (c, *ldc))).into());

        export!($spelling FAMILY, $Syr2k,
            fn $syr2k(uplo: *const c_char, trans: *const c_char, n: *const $int,
                      k: *const $int, alpha: *const $t, a: *const $t, lda: *const $int,
                      b: *const $t, ldb: *const $int, beta: *const $t, c: *mut $t,
                      ldc: *const $int, uplo_len: usize, trans_len: usize)
            = Args::Syrk(SyrkArgs::new(Layout::Fortran,
                (Flag::from_fortran(&UPLO, uplo), Op::from_fortran(trans)), [*n, *k], *alpha,
                (a, *lda), Some((b, *ldb)), *beta, (c, *ldc))).into());

        export!($spelling FAMILY, $Trmm,
            fn $trmm(side: *const c_char, uplo: *const c_char, transa: *const c_char,
                     diag: *const c_char, m: *const $int, n: *const $int, alpha: *const $t,
                     a: *const $t, lda: *const $int, b: *mut $t, ldb: *const $int,
                     side_len: usize, uplo_len: usize, transa_len: usize, diag_len: usize)
            = Args::Trmm(tri_args([side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());

        export!($spelling FAMILY, $Trsm,
            fn $trsm(side: *const c_char, uplo: *const c_char, transa: *const c_char,
                     diag: *const c_char, m: *const $int, n: *const $int, alpha: *const $t,
                     a: *const $t, lda: *const $int, b: *mut $t, ldb: *const $int,
                     side_len: usize, uplo_len: usize, transa_len: usize, diag_len: usize)
            = Args::Trsm(tri_args([side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());
    };
}

/// The common form of a Fortran trmm's or trsm's arguments, for either precision and integer
/// width.
///
/// # Safety
/// Every pointer to a scalar or character argument is valid.
unsafe fn tri_args<T: Real, I: Copy + Into<i64>, const SOLVE: bool>(
    [side, uplo, transa, diag]: [*const c_char; 4],
    [m, n]: [*const I; 2],
    alpha: *const T,
    (a, lda): (*const T, *const I),
    (b, ldb): (*mut T, *const I),
) -> TriArgs<T, SOLVE> {
    let how = (
        Flag::from_fortran(&SIDE, side),
        Flag::from_fortran(&UPLO, uplo),
        Op::from_fortran(transa),
        Flag::from_fortran(&DIAG, diag),
    );
    TriArgs::new(Layout::Fortran, how, [*m, *n], *alpha, (a, *lda), (b, *ldb))
}

/// Every routine, for both precisions, under the names `<prefix><routine>_<suffix>` with `$int`
/// integers. The symbols' Rust names are the plain ones, so each spelling is a module of its own.
macro_rules! fortran_interface {
    ([$prefix:literal, $suffix:literal] $int:ty) => {
        const FAMILY: Family = Family::Fortran {
            prefix: $prefix,
            suffix: $suffix,
            int64: std::mem::size_of::<$int>() == 8,
        };
        fortran_symbols!([$prefix, $suffix] $int, f32: Saxpy saxpy_, Sdot sdot_, Sscal sscal_,
            Scopy scopy_, Sswap sswap_, Sasum sasum_, Sgemv sgemv_, Sgemm sgemm_);
        fortran_symbols!([$prefix, $suffix] $int, f64: Daxpy daxpy_, Ddot ddot_, Dscal dscal_,
            Dcopy dcopy_, Dswap dswap_, Dasum dasum_, Dgemv dgemv_, Dgemm dgemm_);
        fortran_reductions!([$prefix, $suffix] $int, f32: Snrm2 snrm2_, Isamax isamax_);
        fortran_reductions!([$prefix, $suffix] $int, f64: Dnrm2 dnrm2_, Idamax idamax_);
        fortran_level3!([$prefix, $suffix] $int, f32: Ssymm ssymm_, Ssyrk ssyrk_,
            Ssyr2k ssyr2k_, Strmm strmm_, Strsm strsm_);
        fortran_level3!([$prefix, $suffix] $int, f64: Dsymm dsymm_, Dsyrk dsyrk_,
            Dsyr2k dsyr2k_, Dtrmm dtrmm_, Dtrsm dtrsm_);
    };
}

fortran_interface!(["", ""] c_int);

/// The names pip's scipy calls in the OpenBLAS its wheel bundles (`scipy_sgemm_`, ...): LP64,
/// the plain names' conventions.
pub mod scipy {
    use super::*;
    fortran_interface!(["scipy_", ""] c_int);
}

/// The names of the ILP64 OpenBLAS that pip's numpy bundles (`scipy_sgemm_64_`, ...: 64-bit
/// integers); numpy.linalg copies its operands through `scipy_dcopy_64_`.
pub mod scipy64 {
    use super::*;
    fortran_interface!(["scipy_", "64_"] i64);
}
