//! Undoing a GL attempt that failed part-way. A kernel stores its results tile by tile (or chunk
//! by chunk), so a failure after the first store leaves an output partly updated; the CPU BLAS
//! must then start again from the caller's values. Before a GL attempt that has a CPU BLAS to
//! fall back to, the outputs the call reads before writing them (y of saxpy, x of sscal, both
//! vectors of sswap, y or C when beta is not zero) are copied; on failure they are put back.
//! Outputs the call only writes need no copy: the CPU BLAS overwrites them all again.

use super::call::Call;

/// Elements `base[r + c*ld]` for r < rows, c < cols: a matrix, or a vector (rows = 1, ld = its
/// increment's magnitude; a negative increment addresses the same elements).
struct Region {
    base: *mut f32,
    rows: usize,
    cols: usize,
    ld: usize,
}

impl Region {
    fn vector(base: *mut f32, n: i64, inc: i64) -> Region {
        Region {
            base,
            rows: 1,
            cols: n.max(0) as usize,
            ld: inc.unsigned_abs() as usize,
        }
    }

    fn elements(&self) -> impl Iterator<Item = *mut f32> + '_ {
        (0..self.cols).flat_map(move |c| {
            // SAFETY (of the caller's use): inside the operand the caller passed.
            (0..self.rows).map(move |r| self.base.wrapping_add(c * self.ld + r))
        })
    }
}

/// The saved values of a call's read-then-written outputs.
pub struct Snapshot(Vec<(Region, Vec<f32>)>);

impl Snapshot {
    /// Copies the outputs `call` reads before writing.
    ///
    /// # Safety
    /// The call's operands must be valid host memory for it (the call passed the reference
    /// checks and none of its operands is a device pointer).
    pub unsafe fn take(call: &Call) -> Snapshot {
        let regions = match *call {
            Call::Axpy {
                n, alpha, y, incy, ..
            } if alpha != 0.0 => vec![Region::vector(y, n, incy)],
            Call::Scal { n, x, incx, .. } if incx > 0 => vec![Region::vector(x, n, incx)],
            Call::Swap {
                n,
                x,
                incx,
                y,
                incy,
            } => vec![Region::vector(x, n, incx), Region::vector(y, n, incy)],
            Call::Gemv(g) if g.beta != 0.0 => vec![Region::vector(g.y, g.y_len(), g.incy)],
            Call::Gemm(g) if g.beta != 0.0 => {
                let (rows, cols) = g.c_shape();
                vec![Region {
                    base: g.c,
                    rows: rows.max(0) as usize,
                    cols: cols.max(0) as usize,
                    ld: g.ldc.max(0) as usize,
                }]
            }
            _ => vec![],
        };
        Snapshot(
            regions
                .into_iter()
                .map(|r| {
                    // SAFETY: elements of the caller's operand.
                    let values = r.elements().map(|p| unsafe { *p }).collect();
                    (r, values)
                })
                .collect(),
        )
    }

    /// Puts the saved values back.
    ///
    /// # Safety
    /// As for [`Snapshot::take`], with the same call's operands.
    pub unsafe fn restore(&self) {
        for (region, values) in &self.0 {
            for (p, v) in region.elements().zip(values) {
                // SAFETY: the element was read from this address by `take`.
                unsafe { *p = *v };
            }
        }
    }
}
