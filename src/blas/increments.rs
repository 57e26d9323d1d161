//! Vectors whose increment's byte stride overflows 64 bits, read as every CPU BLAS addresses
//! them ([`addressed`]): each description's `Describe::addressed` moves its vectors through
//! [`wrapped`].

use crate::engine::element::Scalar;

/// A vector of `n` elements whose increment's byte stride overflows 64 bits, read as the vector
/// of the increment that stride wraps to. Every CPU BLAS addresses element i at x + i·inc·size
/// modulo 2^64, and numpy's ILP64 linalg relies on it: it passes such increments for reversed
/// arrays (the negative byte stride divided by the element size as unsigned: 2^61 − 4 for −4
/// doubles). Returns where the vector starts, in elements from x (its far end where the
/// increment is negative, as BLAS counts a negative increment), and the increment; the call is
/// then the reference's with that increment, quick returns included (asum, iamax and scal do
/// nothing with a negative one). Any other vector is as given.
fn addressed<T: Scalar>(n: i64, inc: i64) -> (isize, i64) {
    let size = std::mem::size_of::<T>() as i64;
    if n <= 1 || inc.checked_mul(size).is_some() {
        return (0, inc);
    }
    let step = inc.wrapping_mul(size) / size;
    let start = if step < 0 {
        (n - 1).wrapping_mul(step)
    } else {
        0
    };
    (start as isize, step)
}

/// Vector `(x, incx)` of n elements, its start and increment as [`addressed`] reads them; `at`
/// offsets the pointer ([`from_const`] or [`from_mut`]).
pub(super) fn wrapped<T: Scalar, P: Copy>(
    n: i64,
    x: &mut P,
    incx: &mut i64,
    at: fn(P, isize) -> P,
) {
    let (start, step) = addressed::<T>(n, *incx);
    (*x, *incx) = (at(*x, start), step);
}

pub(super) fn from_const<T>(p: *const T, o: isize) -> *const T {
    p.wrapping_offset(o)
}

pub(super) fn from_mut<T>(p: *mut T, o: isize) -> *mut T {
    p.wrapping_offset(o)
}
