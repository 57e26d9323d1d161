//! The CBLAS symbols (`cblas.h` signatures, 32-bit integers) and the same routines under the
//! ILP64 names numpy's pip wheels call (`scipy_cblas_*64_`, 64-bit integers): one definition,
//! instantiated for each integer width and precision.

use std::ffi::c_int;

use super::call::{Args, GemmArgs, GemvArgs, Layout, Op};
use super::CblasIndex;
use crate::engine::element::Real;

macro_rules! cblas_symbols {
    ($family:ident, $int:ty, $t:ty: $Axpy:ident $axpy:ident, $Dot:ident $dot:ident,
     $Scal:ident $scal:ident, $Copy:ident $copy:ident, $Swap:ident $swap:ident,
     $Asum:ident $asum:ident, $Gemv:ident $gemv:ident, $Gemm:ident $gemm:ident) => {
        export!($family, $Axpy,
            fn $axpy(n: $int, alpha: $t, x: *const $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Axpy { n: n.into(), alpha, x, incx: incx.into(), y, incy: incy.into() }.into());
        export!($family, $Dot,
            fn $dot(n: $int, x: *const $t, incx: $int, y: *const $t, incy: $int) -> $t
            = Args::Dot { n: n.into(), x, incx: incx.into(), y, incy: incy.into() }.into());
        export!($family, $Scal,
            fn $scal(n: $int, alpha: $t, x: *mut $t, incx: $int)
            = Args::Scal { n: n.into(), alpha, x, incx: incx.into() }.into());
        export!($family, $Copy,
            fn $copy(n: $int, x: *const $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Copy { n: n.into(), x, incx: incx.into(), y, incy: incy.into() }.into());
        export!($family, $Swap,
            fn $swap(n: $int, x: *mut $t, incx: $int, y: *mut $t, incy: $int)
            = Args::Swap { n: n.into(), x, incx: incx.into(), y, incy: incy.into() }.into());
        export!($family, $Asum,
            fn $asum(n: $int, x: *const $t, incx: $int) -> $t
            = Args::Asum { n: n.into(), x, incx: incx.into() }.into());
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
            = Args::Nrm2 { n: n.into(), x, incx: incx.into() }.into());
        export!($family, $Iamax,
            fn $iamax(n: $int, x: *const $t, incx: $int) -> CblasIndex
            = Args::Iamax { n: n.into(), x, incx: incx.into() }.into());
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
