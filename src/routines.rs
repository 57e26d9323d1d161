//! The routines on the GL engine, for arguments already checked: NULL checks on the
//! pointers a call will use, the reference's quick returns (`quick`: after the device and
//! precision checks, so that a call's status does not depend on its sizes), operand
//! resolution and one kernel call. Shared by the
//! glblas API (`api`) and the BLAS-compatible symbols (`blas`), which differ in how they check
//! arguments and report errors, not in what a valid call computes. Sizes are 64-bit so that the
//! ILP64 symbols pass theirs unchanged.
//!
//! # Safety (every function)
//! Host operands must hold the elements BLAS addresses for the given sizes, increments and
//! leading dimensions; device pointers are checked against their allocations.

// The Safety section above covers every function here.
#![allow(clippy::missing_safety_doc)]

use crate::engine::element::Scalar;
use crate::engine::operand::{Matrix, Mem, Vector};
use crate::engine::{with_engine, Engine};
use crate::ffi::non_null;
use crate::kernels::gemm_call::{Gemm, OneM, Rules, Shape, Triangle};
use crate::kernels::gemv_call::Gemv;
use crate::kernels::{dot, gemm, gemv, level1, level3, precision_available, Trans};
use crate::quick;
use crate::status::{Error, Result};
use std::ffi::c_int;

/// y := alpha*x + y, in any element type.
pub unsafe fn axpy<T: Scalar>(
    n: i64,
    alpha: T,
    x: *const T,
    incx: i64,
    y: *mut T,
    incy: i64,
) -> Result<()> {
    let quick = quick::axpy(n, alpha);
    two_vectors(quick, (n, x, incx), (y, incy), |e, x, y| {
        level1::axpy(e, alpha, x, y)
    })
}

/// *result := x·y (0 for `n <= 0`), in any element type (cdotu for complex). `result` may be a
/// device pointer.
pub unsafe fn dot<T: Scalar>(
    n: i64,
    x: *const T,
    incx: i64,
    y: *const T,
    incy: i64,
    result: *mut T,
) -> Result<()> {
    dot_of(false, n, (x, incx), (y, incy), result)
}

/// *result := conj(x)·y (0 for `n <= 0`), cdotc; x·y for real `T`. `result` may be a device
/// pointer.
pub unsafe fn dotc<T: Scalar>(
    n: i64,
    x: *const T,
    incx: i64,
    y: *const T,
    incy: i64,
    result: *mut T,
) -> Result<()> {
    dot_of(true, n, (x, incx), (y, incy), result)
}

/// dot, x conjugated when `conjugate`.
unsafe fn dot_of<T: Scalar>(
    conjugate: bool,
    n: i64,
    (x, incx): (*const T, i64),
    (y, incy): (*const T, i64),
    result: *mut T,
) -> Result<()> {
    non_null(result, "result")?;
    let quick = quick::empty(n);
    if !quick {
        non_null(x, "x")?;
        non_null(y, "y")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        let out = e.mem(result, 1)?;
        // An empty sum reads neither vector: their pointers are not looked at.
        if quick {
            return e.write(out, &[T::ZERO]);
        }
        let x = e.vector(x, n, incx)?;
        let y = e.vector(y, n, incy)?;
        dot::dot(e, &x, &y, conjugate, out)
    })
}

/// x := alpha*x, in any element type.
pub unsafe fn scal<T: Scalar>(n: i64, alpha: T, x: *mut T, incx: i64) -> Result<()> {
    let active = !quick::scal(n, alpha, incx);
    if active {
        non_null(x, "x")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if !active {
            return Ok(());
        }
        let x = e.vector(x, n, incx)?;
        level1::scal(e, alpha, &x)
    })
}

/// x := alpha*x with a real alpha, each part of a complex element scaled (csscal, zdscal, as
/// the reference computes them: (alpha·re, alpha·im), which a complex alpha of imaginary part
/// 0 would not give for an infinite part).
pub unsafe fn scal_real<T: Scalar>(n: i64, alpha: T::Real, x: *mut T, incx: i64) -> Result<()> {
    // Each real vector's scal takes the reference's quick returns.
    let active = !quick::scal(n, alpha, incx);
    for (n, x, _) in real_pairs(active, n, (x.cast_const(), incx), (x.cast_const(), incx))? {
        scal(n, alpha, x.0.cast_mut(), x.1)?;
    }
    Ok(())
}

/// y := x, in any element type.
pub unsafe fn copy<T: Scalar>(n: i64, x: *const T, incx: i64, y: *mut T, incy: i64) -> Result<()> {
    for (n, x, y) in real_pairs(!quick::empty(n), n, (x, incx), (y, incy))? {
        two_vectors(quick::empty(n), (n, x.0, x.1), y, level1::copy)?;
    }
    Ok(())
}

/// x <-> y, in any element type.
pub unsafe fn swap<T: Scalar>(n: i64, x: *mut T, incx: i64, y: *mut T, incy: i64) -> Result<()> {
    for (n, x, y) in real_pairs(!quick::empty(n), n, (x.cast_const(), incx), (y, incy))? {
        two_vectors(quick::empty(n), (n, x.0, x.1), y, level1::swap)?;
    }
    Ok(())
}

/// A real vector: (elements, (pointer, increment)).
type RealPair<R> = (i64, (*const R, i64), (*const R, i64));

/// Two vectors of `T` as pairs of real vectors, for the routines that treat each real alike
/// (copy, swap, and scal with a real alpha on one vector given twice): themselves; or complex
/// ones as the pair of their real parts and the pair of their imaginary parts (twice the
/// increments, the second from each element's second real), or, both contiguous, as one pair of
/// 2n reals. Complex elements need the compute pipeline (`precision_available`), as for every
/// complex routine; the NULL checks of a call that uses the vectors (`active`) come first, as
/// every routine's do.
fn real_pairs<T: Scalar>(
    active: bool,
    n: i64,
    (x, incx): (*const T, i64),
    (y, incy): (*const T, i64),
) -> Result<Vec<RealPair<T::Real>>> {
    let (xr, yr) = (x.cast::<T::Real>(), y.cast::<T::Real>());
    if !T::COMPLEX {
        return Ok(vec![(n, (xr, incx), (yr, incy))]);
    }
    if active {
        non_null(x, "x")?;
        non_null(y, "y")?;
    }
    with_engine(|e| precision_available::<T>(e))?;
    if incx == 1 && incy == 1 {
        return Ok(vec![(2 * n.max(0), (xr, 1), (yr, 1))]);
    }
    Ok((0..2)
        .map(|part| {
            let at = |p: *const T::Real| p.wrapping_add(part);
            (n, (at(xr), 2 * incx), (at(yr), 2 * incy))
        })
        .collect())
}

/// *result := sum of |x[i]| (|re| + |im| for a complex element, scasum); 0 for `n <= 0` or
/// `incx <= 0` (reference BLAS). `result` may be a device pointer.
pub unsafe fn asum<T: Scalar>(n: i64, x: *const T, incx: i64, result: *mut T::Real) -> Result<()> {
    one_vector_result(!quick::asum(n, incx), x, (n, incx), result, dot::asum)
}

/// The shared shape of the reductions of one vector into `*result` (host or device memory):
/// NULL checks, 0 when not `active` (x not looked at), pointer resolution.
unsafe fn one_vector_result<T: Scalar>(
    active: bool,
    x: *const T,
    (n, incx): (i64, i64),
    result: *mut T::Real,
    op: impl FnOnce(&mut Engine, &Vector<T>, Mem<T::Real>) -> Result<()>,
) -> Result<()> {
    non_null(result, "result")?;
    if active {
        non_null(x, "x")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        let out = e.mem(result, 1)?;
        // As for dot: x is not looked at when nothing is read from it.
        if !active {
            return e.write(out, &[T::Real::ZERO]);
        }
        let x = e.vector(x, n, incx)?;
        op(e, &x, out)
    })
}

/// *result := the Euclidean norm of x (of all the parts of a complex one, scnrm2), without
/// overflow or underflow; 0 for `n <= 0`. As the reference (LAPACK 3.10 and later), a negative
/// increment gives the norm of the same elements and a zero one |x[0]|·sqrt(n). `result` may
/// be a device pointer.
pub unsafe fn nrm2<T: Scalar>(n: i64, x: *const T, incx: i64, result: *mut T::Real) -> Result<()> {
    one_vector_result(!quick::nrm2(n), x, (n, incx), result, dot::nrm2)
}

/// The 1-based index of the first largest |x[i]| (|re| + |im| for a complex element, icamax;
/// 0 for `n <= 0` or `incx <= 0`; NaN as the reference isamax treats it).
pub unsafe fn iamax<T: Scalar>(n: i64, x: *const T, incx: i64) -> Result<i64> {
    iamax_then(n, x, incx, |_, _| Ok(()))
}

/// [`iamax`] into `*result`, an int in host or device memory.
pub unsafe fn iamax_into<T: Scalar>(
    n: i64,
    x: *const T,
    incx: i64,
    result: *mut c_int,
) -> Result<()> {
    non_null(result, "result")?;
    iamax_then(n, x, incx, |e, index| {
        // `Mem` addresses host or device memory by element type: the int is written as the four
        // bytes of the float with its bits.
        let out = e.mem(result.cast::<f32>().cast_const(), 1)?;
        let index = c_int::try_from(index)
            .map_err(|_| Error::invalid("the index does not fit the int result"))?;
        e.write(out, &[f32::from_bits(index as u32)])
    })
    .map(drop)
}

/// iamax, then `store` of the index, inside the engine.
unsafe fn iamax_then<T: Scalar>(
    n: i64,
    x: *const T,
    incx: i64,
    store: impl FnOnce(&mut Engine, i64) -> Result<()>,
) -> Result<i64> {
    let quick = quick::iamax(n, incx);
    if quick.is_none() {
        non_null(x, "x")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        let index = match quick {
            Some(index) => index,
            None => {
                let x = e.vector(x, n, incx)?;
                dot::iamax(e, &x)?
            }
        };
        store(e, index)?;
        Ok(index)
    })
}

/// The shared shape of level-1 calls on two vectors: NULL checks, the `quick` return,
/// pointer resolution.
fn two_vectors<T: Scalar>(
    quick: bool,
    (n, x, incx): (i64, *const T, i64),
    (y, incy): (*const T, i64),
    op: impl FnOnce(&mut Engine, &Vector<T>, &Vector<T>) -> Result<()>,
) -> Result<()> {
    if !quick {
        non_null(x, "x")?;
        non_null(y, "y")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let x = e.vector(x, n, incx)?;
        let y = e.vector(y, n, incy)?;
        op(e, &x, &y)
    })
}

/// y := alpha*op(A)*x + beta*y, column-major A (m×n), transposed when `trans` and conjugated
/// when `conjugate` (complex only), in any element type.
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemv<T: Scalar>(
    (trans, conjugate): (bool, bool),
    m: i64,
    n: i64,
    alpha: T,
    a: *const T,
    lda: i64,
    x: *const T,
    incx: i64,
    beta: T,
    y: *mut T,
    incy: i64,
) -> Result<()> {
    let quick = quick::gemv(m, n, alpha, beta);
    // A and x are read only when they contribute (reference BLAS).
    let reads_ax = !quick && alpha != T::ZERO;
    if reads_ax {
        non_null(a, "A")?;
        non_null(x, "x")?;
    }
    if !quick {
        non_null(y, "y")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let (lenx, leny) = if trans { (m, n) } else { (n, m) };
        let ax = if reads_ax {
            Some((e.matrix(a, m, n, lda)?, e.vector(x, lenx, incx)?))
        } else {
            None
        };
        let y = e.vector(y, leny, incy)?;
        gemv::gemv(
            e,
            &Gemv {
                trans,
                conjugate: conjugate && T::COMPLEX,
                alpha,
                beta,
                ax,
                y,
            },
        )
    })
}

/// C := alpha*op(A)*op(B) + beta*C, column-major, in any element type: a complex one as its
/// real view (`gemm_call::OneM`).
#[allow(clippy::too_many_arguments)]
pub unsafe fn gemm<T: Scalar>(
    ta: Trans,
    tb: Trans,
    m: i64,
    n: i64,
    k: i64,
    alpha: T,
    a: *const T,
    lda: i64,
    b: *const T,
    ldb: i64,
    beta: T,
    c: *mut T,
    ldc: i64,
) -> Result<()> {
    let quick = quick::gemm(m, n, k, alpha, beta);
    // A and B are read only when they contribute (reference BLAS).
    let reads_ab = !quick && k > 0 && alpha != T::ZERO;
    if reads_ab {
        non_null(a, "A")?;
        non_null(b, "B")?;
    }
    if !quick {
        non_null(c, "C")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let ab = if reads_ab {
            let a_shape = if ta.transposed() { (k, m) } else { (m, k) };
            let b_shape = if tb.transposed() { (n, k) } else { (k, n) };
            Some((
                real_view(e, a, a_shape, lda)?,
                real_view(e, b, b_shape, ldb)?,
            ))
        } else {
            None
        };
        let c = real_view(e, c, (m, n), ldc)?;
        let conjugate = [ta.conjugates::<T>(), tb.conjugates::<T>()];
        let (alpha, beta, complex) = real_scalars(alpha, beta, conjugate);
        let (m, k) = if T::COMPLEX { (2 * m, 2 * k) } else { (m, k) };
        gemm::gemm(
            e,
            &Gemm {
                ta: ta.transposed(),
                tb: tb.transposed(),
                m,
                n,
                k,
                alpha,
                beta,
                ab,
                c,
                rules: Rules::default(),
                complex,
            },
        )
    })
}

/// Stored rows × cols of `x` (leading dimension `ld`) as the engine's real matrix: a complex
/// one as its real view, each element's parts in consecutive rows (`gemm_call::OneM`).
unsafe fn real_view<T: Scalar>(
    e: &mut Engine,
    x: *const T,
    (rows, cols): (i64, i64),
    ld: i64,
) -> Result<Matrix<T::Real>> {
    let parts = if T::COMPLEX { 2 } else { 1 };
    e.matrix(x.cast::<T::Real>(), parts * rows, cols, parts * ld)
}

/// alpha and beta as the real product takes them: themselves for a real `T`; for a complex one
/// alpha 1 and beta's real part, the rest in the `OneM` (alpha, beta's imaginary part, and
/// whether op(A) and op(B) conjugate, `conjugate`).
fn real_scalars<T: Scalar>(
    alpha: T,
    beta: T,
    conjugate: [bool; 2],
) -> (T::Real, T::Real, Option<OneM<T::Real>>) {
    let [beta_re, beta_im] = beta.parts();
    if !T::COMPLEX {
        return (alpha.parts()[0], beta_re, None);
    }
    let z = OneM {
        alpha: alpha.parts(),
        beta_im,
        conjugate,
    };
    (T::Real::ONE, beta_re, Some(z))
}

/// C := alpha*A*B + beta*C, or alpha*B*A + beta*C when `right`; A symmetric (or, complex,
/// `hermitian`; m×m, or n×n when `right`), its `upper` (else lower) triangle stored.
#[allow(clippy::too_many_arguments)]
pub unsafe fn symm<T: Scalar>(
    (right, hermitian, upper): (bool, bool, bool),
    m: i64,
    n: i64,
    alpha: T,
    (a, lda): (*const T, i64),
    (b, ldb): (*const T, i64),
    beta: T,
    (c, ldc): (*mut T, i64),
) -> Result<()> {
    let quick = quick::gemv(m, n, alpha, beta);
    let reads_ab = !quick && alpha != T::ZERO;
    if reads_ab {
        non_null(a, "A")?;
        non_null(b, "B")?;
    }
    if !quick {
        non_null(c, "C")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let ka = if right { n } else { m };
        let ab = if reads_ab {
            Some((
                real_view(e, a, (ka, ka), lda)?,
                real_view(e, b, (m, n), ldb)?,
            ))
        } else {
            None
        };
        let c = real_view(e, c, (m, n), ldc)?;
        let fill = Triangle::of(upper);
        let shape = if hermitian {
            Shape::Hermitian(fill)
        } else {
            Shape::Symmetric(fill)
        };
        let (alpha, beta, z) = real_scalars(alpha, beta, [false; 2]);
        level3::symm(e, right, shape, (alpha, ab), beta, c, z)
    })
}

/// C := alpha*op(A)*op(A)^T + beta*C (syrk), or with `b` alpha*op(A)*op(B)^T +
/// alpha*op(B)*op(A)^T + beta*C (syr2k); op(X) is X (n×k) or, transposed, X^T (X k×n). Only
/// C's `upper` (else lower) triangle is read and written. With `hermitian` (complex: herk and
/// her2k), op(X)^H for op(X)^T, conj(alpha) in syr2k's second product, alpha (herk) and beta
/// real, and C's diagonal real.
#[allow(clippy::too_many_arguments)]
pub unsafe fn syrk<T: Scalar>(
    (upper, hermitian): (bool, bool),
    trans: Trans,
    n: i64,
    k: i64,
    alpha: T,
    (a, lda): (*const T, i64),
    b: Option<(*const T, i64)>,
    beta: T,
    (c, ldc): (*mut T, i64),
) -> Result<()> {
    let quick = quick::syrk(n, k, alpha, beta);
    let reads_ab = !quick && alpha != T::ZERO && k > 0;
    if reads_ab {
        non_null(a, "A")?;
        if let Some((b, _)) = b {
            non_null(b, "B")?;
        }
    }
    if !quick {
        non_null(c, "C")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let shape = if trans.transposed() { (k, n) } else { (n, k) };
        let a = if reads_ab {
            Some(real_view(e, a, shape, lda)?)
        } else {
            None
        };
        let c = real_view(e, c, (n, n), ldc)?;
        let how = (Triangle::of(upper), trans.transposed(), hermitian);
        // op(A)^H is the conjugate of op(A)^T: the second operand conjugates where the first
        // does not.
        let conjugates = trans.conjugates::<T>();
        let conjugate = [hermitian && conjugates, hermitian && !conjugates];
        let (alpha, beta, z) = real_scalars(alpha, beta, conjugate);
        match b {
            None => level3::syrk(e, how, (alpha, a), beta, c, z),
            Some((b, ldb)) => {
                let ab = match a {
                    Some(a) => Some((a, real_view(e, b, shape, ldb)?)),
                    None => None,
                };
                level3::syr2k(e, how, (alpha, ab), beta, c, z)
            }
        }
    })
}

/// trmm (`solve` false): B := alpha*op(A)*B, or alpha*B*op(A) when `right`; trsm (`solve`):
/// solves op(A)*X = alpha*B, or X*op(A) = alpha*B, X overwriting B (m×n). A is triangular
/// (m×m, or n×n when `right`), its `upper` (else lower) triangle stored, with a `unit`
/// diagonal (not read) or not.
#[allow(clippy::too_many_arguments)]
pub unsafe fn triangular<T: Scalar>(
    solve: bool,
    (right, upper, trans, unit): (bool, bool, Trans, bool),
    m: i64,
    n: i64,
    alpha: T,
    (a, lda): (*const T, i64),
    (b, ldb): (*mut T, i64),
) -> Result<()> {
    let quick = quick::triangular(m, n);
    let reads_a = !quick && alpha != T::ZERO;
    if reads_a {
        non_null(a, "A")?;
    }
    if !quick {
        non_null(b, "B")?;
    }
    with_engine(|e| {
        precision_available::<T>(e)?;
        if quick {
            return Ok(());
        }
        let ka = if right { n } else { m };
        let a = if reads_a {
            Some(real_view(e, a, (ka, ka), lda)?)
        } else {
            None
        };
        let b = real_view(e, b, (m, n), ldb)?;
        let how = (right, Triangle::of(upper), trans.transposed(), unit);
        let (alpha, _, z) = real_scalars(alpha, T::ZERO, [trans.conjugates::<T>(), false]);
        match a {
            Some(a) if solve => level3::trsm(e, how, alpha, (a, b), z),
            // alpha == 0: B := 0, for either routine.
            a => level3::trmm(e, how, (alpha, a), b, z),
        }
    })
}
