//! The reference BLAS's quick returns (netlib's BLAS/SRC, LAPACK 3.12): for each routine, the
//! checked arguments with which it returns at once, reading and writing no operand. A legal
//! program may pass operands it cannot read or write then (a read-only C with beta = 1), so
//! both C surfaces take these returns before touching anything: the BLAS names before routing
//! (no GL context, no snapshot, no CPU BLAS call), the glblas API before any launch.
//!
//! Sizes are the column-major call's; every rule is symmetric in m and n, so a row-major CBLAS
//! call's own sizes give the same answer.

use crate::engine::element::Scalar;

/// dot, copy and swap: no elements (dot's result is 0).
pub fn empty(n: i64) -> bool {
    n <= 0
}

/// axpy: no elements, or alpha = 0 (y unchanged).
pub fn axpy<T: Scalar>(n: i64, alpha: T) -> bool {
    n <= 0 || alpha == T::ZERO
}

/// scal: no elements, a non-positive increment, or alpha = 1 (the last since LAPACK 3.12).
pub fn scal<T: Scalar>(n: i64, alpha: T, incx: i64) -> bool {
    n <= 0 || incx <= 0 || alpha == T::ONE
}

/// asum: no elements or a non-positive increment; the result is 0.
pub fn asum(n: i64, incx: i64) -> bool {
    n <= 0 || incx <= 0
}

/// nrm2 (LAPACK 3.10 and later, which computes zero and negative increments): no elements;
/// the result is 0.
pub fn nrm2(n: i64) -> bool {
    n <= 0
}

/// i?amax: the 1-based index it returns without reading x (0 for no elements or a
/// non-positive increment, 1 for one element), or None.
pub fn iamax(n: i64, incx: i64) -> Option<i64> {
    if n < 1 || incx <= 0 {
        Some(0)
    } else if n == 1 {
        Some(1)
    } else {
        None
    }
}

/// gemv and symm: an empty output, or alpha = 0 with beta = 1.
pub fn gemv<T: Scalar>(m: i64, n: i64, alpha: T, beta: T) -> bool {
    m == 0 || n == 0 || (alpha == T::ZERO && beta == T::ONE)
}

/// gemm: an empty output, or no product (alpha = 0 or k = 0) with beta = 1.
pub fn gemm<T: Scalar>(m: i64, n: i64, k: i64, alpha: T, beta: T) -> bool {
    m == 0 || n == 0 || ((alpha == T::ZERO || k == 0) && beta == T::ONE)
}

/// syrk and syr2k: gemm's rule for C (n×n).
pub fn syrk<T: Scalar>(n: i64, k: i64, alpha: T, beta: T) -> bool {
    gemm(n, n, k, alpha, beta)
}

/// trmm and trsm: an empty B (alpha = 0 still sets B to 0).
pub fn triangular(m: i64, n: i64) -> bool {
    m == 0 || n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_as_the_reference() {
        assert!(gemm(4, 4, 0, 2.0f32, 1.0));
        assert!(gemm(4, 4, 3, -0.0f64, 1.0), "alpha = -0 is zero");
        assert!(!gemm(4, 4, 0, 2.0f32, 0.5), "C := beta*C is work");
        assert!(!gemm(4, 4, 3, f32::NAN, 1.0), "NaN is not zero");
        assert!(gemv(0, 4, 1.0f32, 0.0));
        assert!(!gemv(4, 4, 0.0f32, 0.0), "y := 0 is work");
        assert!(syrk(3, 0, 1.0f64, 1.0) && !syrk(3, 0, 1.0f64, 2.0));
        assert!(triangular(0, 3) && !triangular(3, 3));
        assert!(axpy(5, 0.0f32) && !axpy(5, 1.0f32));
        assert!(scal(5, 1.0f32, 1) && scal(5, 2.0f32, -1) && !scal(5, 0.0f32, 1));
        assert!(asum(5, 0) && !nrm2(5));
        assert_eq!(
            [iamax(0, 1), iamax(3, 0), iamax(1, 5), iamax(2, 1)],
            [Some(0), Some(0), Some(1), None]
        );
    }
}
