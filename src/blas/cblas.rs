//! The CBLAS symbols (`cblas.h` signatures, 32-bit integers) and the same routines under the
//! ILP64 names numpy's pip wheels call (`scipy_cblas_*64_`, 64-bit integers): one definition,
//! instantiated for each integer width.

use std::ffi::c_int;

use super::call::{Call, GemmArgs, GemvArgs, Layout, Op};
use crate::engine::element::Real;

macro_rules! cblas_symbols {
    ($family:ident, $int:ty: $saxpy:ident, $sdot:ident, $sscal:ident, $scopy:ident,
     $sswap:ident, $sasum:ident, $sgemv:ident, $sgemm:ident, $dgemm:ident) => {
        export!($family, Saxpy,
            fn $saxpy(n: $int, alpha: f32, x: *const f32, incx: $int, y: *mut f32, incy: $int)
            = Call::Axpy { n: n.into(), alpha, x, incx: incx.into(), y, incy: incy.into() });
        export!($family, Sdot,
            fn $sdot(n: $int, x: *const f32, incx: $int, y: *const f32, incy: $int) -> f32
            = Call::Dot { n: n.into(), x, incx: incx.into(), y, incy: incy.into() });
        export!($family, Sscal,
            fn $sscal(n: $int, alpha: f32, x: *mut f32, incx: $int)
            = Call::Scal { n: n.into(), alpha, x, incx: incx.into() });
        export!($family, Scopy,
            fn $scopy(n: $int, x: *const f32, incx: $int, y: *mut f32, incy: $int)
            = Call::Copy { n: n.into(), x, incx: incx.into(), y, incy: incy.into() });
        export!($family, Sswap,
            fn $sswap(n: $int, x: *mut f32, incx: $int, y: *mut f32, incy: $int)
            = Call::Swap { n: n.into(), x, incx: incx.into(), y, incy: incy.into() });
        export!($family, Sasum,
            fn $sasum(n: $int, x: *const f32, incx: $int) -> f32
            = Call::Asum { n: n.into(), x, incx: incx.into() });
        export!($family, Sgemv,
            fn $sgemv(layout: c_int, trans: c_int, m: $int, n: $int, alpha: f32, a: *const f32,
                      lda: $int, x: *const f32, incx: $int, beta: f32, y: *mut f32, incy: $int)
            = Call::Gemv(GemvArgs {
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
            }));
        export!($family, Sgemm,
            fn $sgemm(layout: c_int, transa: c_int, transb: c_int, m: $int, n: $int, k: $int,
                      alpha: f32, a: *const f32, lda: $int, b: *const f32, ldb: $int, beta: f32,
                      c: *mut f32, ldc: $int)
            = Call::Gemm(gemm_args(layout, [transa, transb], [m, n, k], alpha, (a, lda),
                                   (b, ldb), beta, (c, ldc))));
        export!($family, Dgemm,
            fn $dgemm(layout: c_int, transa: c_int, transb: c_int, m: $int, n: $int, k: $int,
                      alpha: f64, a: *const f64, lda: $int, b: *const f64, ldb: $int, beta: f64,
                      c: *mut f64, ldc: $int)
            = Call::Dgemm(gemm_args(layout, [transa, transb], [m, n, k], alpha, (a, lda),
                                    (b, ldb), beta, (c, ldc))));
    };
}

cblas_symbols!(Cblas, c_int: cblas_saxpy, cblas_sdot, cblas_sscal, cblas_scopy, cblas_sswap,
    cblas_sasum, cblas_sgemv, cblas_sgemm, cblas_dgemm);

cblas_symbols!(Ilp64, i64: scipy_cblas_saxpy64_, scipy_cblas_sdot64_, scipy_cblas_sscal64_,
    scipy_cblas_scopy64_, scipy_cblas_sswap64_, scipy_cblas_sasum64_, scipy_cblas_sgemv64_,
    scipy_cblas_sgemm64_, scipy_cblas_dgemm64_);

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
