//! The CBLAS symbols (`cblas.h` signatures, 32-bit integers) and the same routines under the
//! ILP64 names numpy's pip wheels call (`scipy_cblas_*64_`, 64-bit integers): one definition,
//! instantiated for each integer width and precision.

use std::ffi::c_int;

use super::call::{Args, Layout, Op};
use super::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use super::level2::GemvArgs;
use super::level3::GemmArgs;
use super::level3::{Flag, SymmArgs, SyrkArgs, TriArgs, DIAG, SIDE, UPLO};
use super::CblasIndex;
use crate::engine::element::Real;

macro_rules! cblas_symbols {
    ($family:ident, $int:ty, $t:ty: $Axpy:ident $axpy:ident, $Dot:ident $dot:ident,
     $Scal:ident $scal:ident, $Copy:ident $copy:ident, $Swap:ident $swap:ident,
     $Asum:ident $asum:ident, $Gemv:ident $gemv:ident, $Gemm:ident $gemm:ident) => {
        export!($family, $Axpy,
            fn $axpy(n: $int, alpha: $t, x: *const $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Axpy(Axpy { n: n.into(), alpha, x: (x, incx.into()), y: (y, incy.into()) }).into());
        export!($family, $Dot,
            fn $dot(n: $int, x: *const $t, incx: $int, y: *const $t, incy: $int) -> $t
            = Args::Dot(Dot { n: n.into(), x: (x, incx.into()), y: (y, incy.into()) }).into());
        export!($family, $Scal,
            fn $scal(n: $int, alpha: $t, x: *mut $t, incx: $int)
            = Args::Scal(Scal { n: n.into(), alpha, x: (x, incx.into()) }).into());
        export!($family, $Copy,
            fn $copy(n: $int, x: *const $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Copy(Move { n: n.into(), x: (x, incx.into()), y: (y, incy.into()) }).into());
        export!($family, $Swap,
            fn $swap(n: $int, x: *mut $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Swap(Move { n: n.into(), x: (x.cast_const(), incx.into()), y: (y, incy.into()) }).into());
        export!($family, $Asum,
            fn $asum(n: $int, x: *const $t, incx: $int) -> $t
            = Args::Reduce(Reduce { what: Reduction::Asum, n: n.into(), x: (x, incx.into()) }).into());
        export!($family, $Gemv,
            fn $gemv(layout: c_int, trans: c_int, m: $int, n: $int, alpha: $t, a: *const $t,
                     lda: $int, x: *const $t, incx: $int, beta: $t, y: *mut $t, incy: $int)
            = Args::Gemv(GemvArgs {
                layout: Layout::from_cblas(layout),
                trans: Op::from_cblas(trans),
                m: m.into(),
                n: n.into(),
                alpha,
                a,
                lda: lda.into(),
                x,
                incx: incx.into(),
                beta,
                y,
                incy: incy.into(),
            }).into());
        export!($family, $Gemm,
            fn $gemm(layout: c_int, transa: c_int, transb: c_int, m: $int, n: $int, k: $int,
                     alpha: $t, a: *const $t, lda: $int, b: *const $t, ldb: $int, beta: $t,
                     c: *mut $t, ldc: $int)
            = Args::Gemm(gemm_args(layout, [transa, transb], [m, n, k], alpha, (a, lda),
                                   (b, ldb), beta, (c, ldc))).into());
    };
}

cblas_symbols!(Cblas, c_int, f32: Saxpy cblas_saxpy, Sdot cblas_sdot, Sscal cblas_sscal,
    Scopy cblas_scopy, Sswap cblas_sswap, Sasum cblas_sasum, Sgemv cblas_sgemv,
    Sgemm cblas_sgemm);

cblas_symbols!(Cblas, c_int, f64: Daxpy cblas_daxpy, Ddot cblas_ddot, Dscal cblas_dscal,
    Dcopy cblas_dcopy, Dswap cblas_dswap, Dasum cblas_dasum, Dgemv cblas_dgemv,
    Dgemm cblas_dgemm);

cblas_symbols!(Ilp64, i64, f32: Saxpy scipy_cblas_saxpy64_, Sdot scipy_cblas_sdot64_,
    Sscal scipy_cblas_sscal64_, Scopy scipy_cblas_scopy64_, Sswap scipy_cblas_sswap64_,
    Sasum scipy_cblas_sasum64_, Sgemv scipy_cblas_sgemv64_, Sgemm scipy_cblas_sgemm64_);

cblas_symbols!(Ilp64, i64, f64: Daxpy scipy_cblas_daxpy64_, Ddot scipy_cblas_ddot64_,
    Dscal scipy_cblas_dscal64_, Dcopy scipy_cblas_dcopy64_, Dswap scipy_cblas_dswap64_,
    Dasum scipy_cblas_dasum64_, Dgemv scipy_cblas_dgemv64_, Dgemm scipy_cblas_dgemm64_);

/// nrm2 and i?amax: i?amax returns `CBLAS_INDEX`, the 0-based index.
macro_rules! cblas_reductions {
    ($family:ident, $int:ty, $t:ty: $Nrm2:ident $nrm2:ident, $Iamax:ident $iamax:ident) => {
        export!($family, $Nrm2,
            fn $nrm2(n: $int, x: *const $t, incx: $int) -> $t
            = Args::Reduce(Reduce { what: Reduction::Nrm2, n: n.into(), x: (x, incx.into()) }).into());
        export!($family, $Iamax,
            fn $iamax(n: $int, x: *const $t, incx: $int) -> CblasIndex
            = Args::Reduce(Reduce { what: Reduction::Iamax, n: n.into(), x: (x, incx.into()) }).into());
    };
}

cblas_reductions!(Cblas, c_int, f32: Snrm2 cblas_snrm2, Isamax cblas_isamax);
cblas_reductions!(Cblas, c_int, f64: Dnrm2 cblas_dnrm2, Idamax cblas_idamax);
cblas_reductions!(Ilp64, i64, f32: Snrm2 scipy_cblas_snrm264_, Isamax scipy_cblas_isamax64_);
cblas_reductions!(Ilp64, i64, f64: Dnrm2 scipy_cblas_dnrm264_, Idamax scipy_cblas_idamax64_);

/// The common form of a CBLAS gemm's arguments, for either integer width and precision.
#[allow(clippy::too_many_arguments)]
fn gemm_args<T: Real, I: Into<i64>>(
    layout: c_int,
    [transa, transb]: [c_int; 2],
    [m, n, k]: [I; 3],
    alpha: T,
    (a, lda): (*const T, I),
    (b, ldb): (*const T, I),
    beta: T,
    (c, ldc): (*mut T, I),
) -> GemmArgs<T> {
    GemmArgs {
        layout: Layout::from_cblas(layout),
        transa: Op::from_cblas(transa),
        transb: Op::from_cblas(transb),
        m: m.into(),
        n: n.into(),
        k: k.into(),
        alpha,
        a,
        lda: lda.into(),
        b,
        ldb: ldb.into(),
        beta,
        c,
        ldc: ldc.into(),
    }
}

/// The Level 3 routines beyond gemm: symm, syrk, syr2k, trmm, trsm.
macro_rules! cblas_level3 {
    ($family:ident, $int:ty, $t:ty: $Symm:ident $symm:ident, $Syrk:ident $syrk:ident,
     $Syr2k:ident $syr2k:ident, $Trmm:ident $trmm:ident, $Trsm:ident $trsm:ident) => {
        export!($family, $Symm,
            fn $symm(layout: c_int, side: c_int, uplo: c_int, m: $int, n: $int, alpha: $t,
                     a: *const $t, lda: $int, b: *const $t, ldb: $int, beta: $t, c: *mut $t,
                     ldc: $int)
            = Args::Symm(SymmArgs::new(Layout::from_cblas(layout),
                [Flag::from_cblas(&SIDE, side), Flag::from_cblas(&UPLO, uplo)], [m, n], alpha,
                (a, lda), (b, ldb), beta, (c, ldc))).into());
        export!($family, $Syrk,
            fn $syrk(layout: c_int, uplo: c_int, trans: c_int, n: $int, k: $int, alpha: $t,
                     a: *const $t, lda: $int, beta: $t, c: *mut $t, ldc: $int)
            = Args::Syrk(SyrkArgs::new(Layout::from_cblas(layout),
                (Flag::from_cblas(&UPLO, uplo), Op::from_cblas(trans)), [n, k], alpha,
                (a, lda), None, beta, (c, ldc))).into());
        export!($family, $Syr2k,
            fn $syr2k(layout: c_int, uplo: c_int, trans: c_int, n: $int, k: $int, alpha: $t,
                      a: *const $t, lda: $int, b: *const $t, ldb: $int, beta: $t, c: *mut $t,
                      ldc: $int)
            = Args::Syrk(SyrkArgs::new(Layout::from_cblas(layout),
                (Flag::from_cblas(&UPLO, uplo), Op::from_cblas(trans)), [n, k], alpha,
                (a, lda), Some((b, ldb)), beta, (c, ldc))).into());
        export!($family, $Trmm,
            fn $trmm(layout: c_int, side: c_int, uplo: c_int, transa: c_int, diag: c_int,
                     m: $int, n: $int, alpha: $t, a: *const $t, lda: $int, b: *mut $t,
                     ldb: $int)
            = Args::Trmm(tri_args(layout, [side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());
        export!($family, $Trsm,
            fn $trsm(layout: c_int, side: c_int, uplo: c_int, transa: c_int, diag: c_int,
                     m: $int, n: $int, alpha: $t, a: *const $t, lda: $int, b: *mut $t,
                     ldb: $int)
            = Args::Trsm(tri_args(layout, [side, uplo, transa, diag], [m, n], alpha, (a, lda),
                                  (b, ldb))).into());
    };
}

cblas_level3!(Cblas, c_int, f32: Ssymm cblas_ssymm, Ssyrk cblas_ssyrk, Ssyr2k cblas_ssyr2k,
    Strmm cblas_strmm, Strsm cblas_strsm);

cblas_level3!(Cblas, c_int, f64: Dsymm cblas_dsymm, Dsyrk cblas_dsyrk, Dsyr2k cblas_dsyr2k,
    Dtrmm cblas_dtrmm, Dtrsm cblas_dtrsm);

cblas_level3!(Ilp64, i64, f32: Ssymm scipy_cblas_ssymm64_, Ssyrk scipy_cblas_ssyrk64_,
    Ssyr2k scipy_cblas_ssyr2k64_, Strmm scipy_cblas_strmm64_, Strsm scipy_cblas_strsm64_);

cblas_level3!(Ilp64, i64, f64: Dsymm scipy_cblas_dsymm64_, Dsyrk scipy_cblas_dsyrk64_,
    Dsyr2k scipy_cblas_dsyr2k64_, Dtrmm scipy_cblas_dtrmm64_, Dtrsm scipy_cblas_dtrsm64_);

/// The common form of a CBLAS trmm's or trsm's arguments, for either integer width and
/// precision.
fn tri_args<T: Real, I: Into<i64>, const SOLVE: bool>(
    layout: c_int,
    [side, uplo, transa, diag]: [c_int; 4],
    [m, n]: [I; 2],
    alpha: T,
    (a, lda): (*const T, I),
    (b, ldb): (*mut T, I),
) -> TriArgs<T, SOLVE> {
    let how = (
        Flag::from_cblas(&SIDE, side),
        Flag::from_cblas(&UPLO, uplo),
        Op::from_cblas(transa),
        Flag::from_cblas(&DIAG, diag),
    );
    TriArgs::new(
        Layout::from_cblas(layout),
        how,
        [m, n],
        alpha,
        (a, lda),
        (b, ldb),
    )
}
