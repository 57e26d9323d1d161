//! The elements of a host operand, whichever its precision: what the undo snapshot copies, the
//! floating-point flags' scan reads, and the tests that take their rules from the routines'
//! descriptions lay out (`tests/described/`).

use crate::engine::element::{Precision, Real, Scalar};

/// Elements `base[r + c*ld]` for r < rows, c < cols, of `size` bytes each: a matrix, or a
/// vector (rows = 1, ld = its increment's magnitude; a negative increment addresses the same
/// elements); or only a square matrix's upper or lower triangle.
#[derive(Clone)]
pub struct Region {
    pub base: *mut u8,
    /// Bytes per element.
    pub size: usize,
    /// How to read an element's values: one for a real, two parts for a complex.
    precision: Precision,
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
    /// `Some(upper)`: the triangle only, diagonal included.
    pub triangle: Option<bool>,
}

impl Region {
    pub fn vector<T: Scalar>(base: *mut T, n: i64, inc: i64) -> Region {
        Region {
            base: base.cast(),
            size: std::mem::size_of::<T>(),
            precision: T::Real::PRECISION,
            rows: 1,
            cols: n.max(0) as usize,
            ld: inc.unsigned_abs() as usize,
            triangle: None,
        }
    }

    pub fn matrix<T: Scalar>(base: *mut T, (rows, cols): (i64, i64), ld: i64) -> Region {
        Region {
            base: base.cast(),
            size: std::mem::size_of::<T>(),
            precision: T::Real::PRECISION,
            rows: rows.max(0) as usize,
            cols: cols.max(0) as usize,
            ld: ld.max(0) as usize,
            triangle: None,
        }
    }

    /// The `upper` (else lower) triangle of the n×n matrix at `base`.
    pub fn triangle<T: Scalar>(base: *mut T, n: i64, ld: i64, upper: bool) -> Region {
        Region {
            triangle: Some(upper),
            ..Region::matrix(base, (n, n), ld)
        }
    }

    /// The rows of column `c` it holds: all of them, or those in its triangle.
    fn rows_of(&self, c: usize) -> std::ops::Range<usize> {
        match self.triangle {
            None => 0..self.rows,
            Some(true) => 0..(c + 1).min(self.rows),
            Some(false) => c.min(self.rows)..self.rows,
        }
    }

    /// Its elements in runs of consecutive bytes: a column's (or its part in the triangle) at a
    /// time, each as its first byte and length; a vector of increment 0 as its one element.
    pub fn runs(&self) -> impl Iterator<Item = (*mut u8, usize)> + '_ {
        let cols = if self.ld == 0 {
            self.cols.min(1)
        } else {
            self.cols
        };
        (0..cols).map(move |c| {
            let rows = self.rows_of(c);
            // SAFETY (of the caller's use): inside the operand the caller passed.
            let first = self
                .base
                .wrapping_add((c * self.ld + rows.start) * self.size);
            (first, rows.len() * self.size)
        })
    }

    /// The first byte of each element.
    pub fn elements(&self) -> impl Iterator<Item = *mut u8> + '_ {
        (0..self.cols).flat_map(move |c| {
            let rows = self.rows_of(c);
            // SAFETY (of the caller's use): inside the operand the caller passed.
            rows.map(move |r| self.base.wrapping_add((c * self.ld + r) * self.size))
        })
    }

    /// Each element's values (a complex one's two parts).
    ///
    /// # Safety
    /// The region must be inside a readable host operand.
    pub unsafe fn values(&self) -> impl Iterator<Item = f64> + '_ {
        // SAFETY: an element of the operand, as the caller guarantees.
        self.elements()
            .flat_map(|p| self.parts(unsafe { std::slice::from_raw_parts(p, self.size) }))
    }

    /// The values of one element's bytes, in native order: itself, or a complex one's parts.
    pub fn parts<'a>(&self, bytes: &'a [u8]) -> impl Iterator<Item = f64> + 'a {
        let precision = self.precision;
        let part = match precision {
            Precision::Single => 4,
            Precision::Double => 8,
        };
        bytes.chunks_exact(part).map(move |b| match precision {
            Precision::Single => b
                .try_into()
                .map_or(f64::NAN, |b| f64::from(f32::from_ne_bytes(b))),
            Precision::Double => b.try_into().map_or(f64::NAN, f64::from_ne_bytes),
        })
    }
}
