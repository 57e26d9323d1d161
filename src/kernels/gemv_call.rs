//! A gemv call as both pipelines take it.

use crate::engine::element::Scalar;
use crate::engine::operand::{Matrix, Vector};

/// A gemv call. A is stored m×n; op(A) is A or its transpose (`trans`), conjugated when
/// `conjugate` (complex only).
pub struct Gemv<T: Scalar = f32> {
    pub trans: bool,
    pub conjugate: bool,
    pub alpha: T,
    pub beta: T,
    /// `None` when alpha == 0: A and x are not read.
    pub ax: Option<(Matrix<T>, Vector<T>)>,
    /// Length leny of y, the rows of op(A).
    pub y: Vector<T>,
}
