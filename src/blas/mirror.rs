//! Host copies of a call's device operands, so that `verify` checks a call on device memory as
//! it checks one on host memory: each device operand the call reads or writes is read back
//! before the call (the checksums' inputs), its outputs again after it (the result's sums). The
//! outputs as they were are kept in device memory, copied there by the device, to be put back
//! when the result fails its check: a host copy would put back whatever a driver that returns
//! garbage had read back.

use std::ffi::c_void;

use super::checksums::MOST;
use super::describe::{Operand, Use};
use crate::engine::memory::{free_lost, is_device_address};
use crate::engine::transfer::CopyKind;
use crate::engine::with_engine;
use crate::status::Result;

/// The copy of one stretch of device memory: one operand's extent, or several that overlap.
struct Span {
    /// Its first device address.
    start: usize,
    copy: Vec<u8>,
    /// Whether the call writes in it (read again after the call).
    written: bool,
    /// A device copy of it before the call, where it may have to be put back.
    before: Option<usize>,
}

impl Span {
    fn end(&self) -> usize {
        self.start + self.copy.len()
    }
}

/// The host copies of a call's device operands.
pub struct Mirrors(Vec<Span>);

impl Mirrors {
    /// Reads back the device operands among `operands` that the call reads or writes (an
    /// unread one may be anything, as the reference never reads it), overlapping ones as one;
    /// `keep`: also copies the outputs within device memory, to put back. None where one
    /// cannot be read (a freed, lost or too short allocation, which the routine refuses) or is
    /// longer than `MOST` elements (as a result longer than that is not checked).
    pub fn read(operands: &[Operand], keep: bool) -> Option<Mirrors> {
        let mut extents = Vec::new();
        for o in operands {
            let r = &o.region;
            let start = r.base as usize;
            if o.usage == Use::Unread || r.rows == 0 || r.cols == 0 || !is_device_address(start) {
                continue;
            }
            let elements = (r.cols - 1).checked_mul(r.ld)?.checked_add(r.rows)?;
            if elements > MOST as usize {
                return None;
            }
            extents.push((
                start,
                start.checked_add(elements * r.size)?,
                o.usage.written(),
            ));
        }
        extents.sort_unstable();
        let mut merged: Vec<(usize, usize, bool)> = Vec::new();
        for (start, end, written) in extents {
            match merged.last_mut() {
                Some(last) if start < last.1 => {
                    last.1 = last.1.max(end);
                    last.2 |= written;
                }
                _ => merged.push((start, end, written)),
            }
        }
        let spans = merged
            .into_iter()
            .map(|(start, end, written)| {
                let mut copy = vec![0u8; end - start];
                read(start, copy.as_mut_ptr(), copy.len()).ok()?;
                Some(Span {
                    start,
                    copy,
                    written,
                    before: None,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let mut mirrors = Mirrors(spans);
        for s in mirrors.0.iter_mut().filter(|s| keep && s.written) {
            s.before = Some(keep_copy(s.start, s.copy.len()).ok()?);
        }
        Some(mirrors)
    }

    /// Where device address `p` is copied to in host memory; `p` itself where it is not copied
    /// (a host address, or an operand the call does not read).
    pub fn host(&self, p: *const u8) -> *const u8 {
        let at = p as usize;
        self.0
            .iter()
            .find(|s| s.start <= at && at < s.end())
            .map_or(p, |s| s.copy.as_ptr().wrapping_add(at - s.start))
    }

    /// Reads the device outputs again, after the call, into the same copies.
    pub fn reread(&mut self) -> Result<()> {
        for s in self.0.iter_mut().filter(|s| s.written) {
            read(s.start, s.copy.as_mut_ptr(), s.copy.len())?;
        }
        Ok(())
    }

    /// Puts `operands`' device outputs back as they were before the call (each column's
    /// elements, not what lies between columns), where `read` kept them.
    pub fn restore(&self, operands: &[Operand]) -> Result<()> {
        for o in operands.iter().filter(|o| o.usage.written()) {
            for (p, len) in o.region.runs() {
                let at = p as usize;
                let Some(s) = self.0.iter().find(|s| s.start <= at && at < s.end()) else {
                    continue;
                };
                if let Some(before) = s.before {
                    let from = (before + (at - s.start)) as *const c_void;
                    with_engine(|e| e.memcpy(p.cast(), from, len, CopyKind::DeviceToDevice))?;
                }
            }
        }
        Ok(())
    }
}

impl Drop for Mirrors {
    fn drop(&mut self) {
        for before in self.0.iter().filter_map(|s| s.before) {
            // As `glblasFree` frees it: one lost with its context is only forgotten.
            if !free_lost(before) {
                let _ = with_engine(|e| e.memory.free(&e.ctx.gl, &e.ext, before));
            }
        }
    }
}

/// A new device allocation holding a copy of the `len` bytes at `start`.
fn keep_copy(start: usize, len: usize) -> Result<usize> {
    with_engine(|e| {
        let copy = e.memory.alloc(&e.ctx.gl, &e.ext, len)?;
        let src = start as *const c_void;
        if let Err(err) = e.memcpy(copy, src, len, CopyKind::DeviceToDevice) {
            let _ = e.memory.free(&e.ctx.gl, &e.ext, copy as usize);
            return Err(err);
        }
        Ok(copy as usize)
    })
}

/// Copies `len` bytes of device memory from `start` to `copy` (through the vector's pointer,
/// which the pointers `host` gave out stay valid beside).
fn read(start: usize, copy: *mut u8, len: usize) -> Result<()> {
    let (dst, src): (*mut c_void, _) = (copy.cast(), start as *const c_void);
    with_engine(|e| e.memcpy(dst, src, len, CopyKind::DeviceToHost))
}
