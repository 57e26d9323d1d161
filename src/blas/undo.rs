//! Undoing a GL attempt that failed part-way. A kernel stores its results tile by tile (or chunk
//! by chunk), so a failure after the first store leaves an output partly updated; the CPU BLAS
//! must then start again from the caller's values. Before a GL attempt that has a CPU BLAS to
//! fall back to, the outputs the call reads before writing them (as each routine describes
//! them, `describe::Use`: y of saxpy, x of sscal, both vectors of sswap, y or C when beta is not
//! zero, only C's triangle for syrk and syr2k, B of trmm and trsm) are copied; on failure they
//! are put back. (The copy also tells `fpflags` what those outputs held before.)
//! Outputs the call only writes need no copy: the CPU BLAS overwrites them all again.

use super::describe::Operand;
use super::region::Region;

/// The saved bytes of a call's read-then-written outputs.
pub struct Snapshot(Vec<(Region, Vec<u8>)>);

impl Snapshot {
    /// Copies the outputs a call reads before writing, among its `operands`.
    ///
    /// # Safety
    /// The operands must be valid host memory for the call (it passed the reference checks and
    /// none of its operands is a device pointer).
    pub unsafe fn take(operands: &[Operand]) -> Snapshot {
        // SAFETY: as the caller guarantees.
        unsafe { Self::of(operands.iter().filter(|o| o.usage.read_first())) }
    }

    /// Copies every output of the call, also those it only writes (for `verify`, which puts
    /// them all back when the result fails its check).
    ///
    /// # Safety
    /// As for [`Snapshot::take`].
    pub unsafe fn outputs(operands: &[Operand]) -> Snapshot {
        let written = operands.iter().filter(|o| o.usage.written());
        // SAFETY: as the caller guarantees.
        unsafe { Self::of(written) }
    }

    /// Copies `operands`.
    ///
    /// # Safety
    /// As for [`Snapshot::take`].
    unsafe fn of<'a>(operands: impl Iterator<Item = &'a Operand>) -> Snapshot {
        Snapshot(
            operands
                .map(|Operand { region: r, .. }| {
                    let mut values = Vec::with_capacity(r.rows * r.cols * r.size);
                    for (p, len) in r.runs() {
                        // SAFETY: elements of the caller's operand.
                        values.extend_from_slice(unsafe { std::slice::from_raw_parts(p, len) });
                    }
                    (r.clone(), values)
                })
                .collect(),
        )
    }

    /// The saved elements' values.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.0
            .iter()
            .flat_map(|(r, values)| values.chunks_exact(r.size).flat_map(|v| r.parts(v)))
    }

    /// Puts the saved values back.
    ///
    /// # Safety
    /// As for [`Snapshot::take`], with the same call's operands.
    pub unsafe fn restore(&self) {
        for (region, values) in &self.0 {
            let mut at = 0;
            for (p, len) in region.runs() {
                // SAFETY: these bytes were read from this address by `take`.
                unsafe { std::ptr::copy_nonoverlapping(values[at..].as_ptr(), p, len) };
                at += len;
            }
        }
    }
}
