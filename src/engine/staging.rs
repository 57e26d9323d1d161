//! Staging: device buffers that host operands are copied into so kernels can read them, and
//! that compute kernels leave host results in. One per operand unit, grown on demand and kept.
//!
//! Where the device has immutable buffer storage each buffer is mapped once, persistently and
//! coherently: an upload is a plain copy into the mapping and a result is read from it after a
//! fence, with no map, unmap or read-back call per operand (most of a tiny call's cost). The
//! host then writes memory the device may still be reading, so a buffer handed to the device
//! is not written again before a fence shows the device is done with it. Elsewhere each upload
//! maps the buffer afresh (invalidating it) and results are read back with a GL call.

use glow::HasContext;

use super::gl_ext::GlExt;
use super::operand::{Matrix, Mem, Vector, OPERAND_UNITS};
use super::scratch::GrowingBuffer;
use crate::status::{Error, Result, Status};

#[derive(Default)]
pub struct Staging {
    slots: [Slot; OPERAND_UNITS],
    /// Signalled when the device has finished the last call's commands that use staging.
    pending: Option<glow::Fence>,
}

// SAFETY: the fence is only used by the thread holding the engine lock, with the context current.
unsafe impl Send for Staging {}

#[derive(Default)]
struct Slot {
    buffer: GrowingBuffer,
    /// Handed to the device since the last fence (persistent mappings only).
    busy: bool,
}

impl Staging {
    pub fn delete_all(&mut self, gl: &glow::Context) {
        for s in &mut self.slots {
            s.buffer.delete(gl);
            s.busy = false;
        }
        if let Some(f) = self.pending.take() {
            // SAFETY: the context is current; the fence is ours.
            unsafe { gl.delete_sync(f) };
        }
    }

    /// Whether buffers are persistently mapped (results are then read from the mapping).
    pub fn persistent(ext: &GlExt) -> bool {
        ext.buffer_storage.is_some()
    }

    /// Marks the end of a call: later writes into staging wait for the device to finish the
    /// commands issued so far.
    pub fn end_call(&mut self, gl: &glow::Context) {
        if self.slots.iter().any(|s| s.busy) {
            // SAFETY: the context is current; a newer fence supersedes the old one.
            unsafe {
                if let Some(f) = self.pending.take() {
                    gl.delete_sync(f);
                }
                self.pending = gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0).ok();
            }
            for s in &mut self.slots {
                s.busy = false;
            }
        }
    }

    /// Waits until the device has finished every command issued so far that uses staging.
    fn settle(&mut self, gl: &glow::Context) -> Result<()> {
        if self.slots.iter().any(|s| s.busy) {
            if let Some(f) = self.pending.take() {
                // SAFETY: the context is current; a newer fence supersedes it.
                unsafe { gl.delete_sync(f) };
            }
            // SAFETY: the context is current.
            self.pending = Some(
                unsafe { gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) }
                    .map_err(|e| Error::new(Status::ExecutionFailed, e))?,
            );
            for s in &mut self.slots {
                s.busy = false;
            }
        }
        let Some(f) = self.pending.take() else {
            return Ok(());
        };
        // SAFETY: the context is current; the fence is ours and deleted here.
        unsafe {
            let result = loop {
                match gl.client_wait_sync(f, glow::SYNC_FLUSH_COMMANDS_BIT, 1_000_000_000) {
                    glow::TIMEOUT_EXPIRED => continue,
                    glow::WAIT_FAILED => break super::check_gl(gl, "glClientWaitSync"),
                    _ => break Ok(()),
                }
            };
            gl.delete_sync(f);
            result
        }
    }

    /// A buffer of at least `elems` floats for `unit` and host memory to fill it through: the
    /// persistent mapping, or a fresh mapping (unmapped by `unmap`).
    fn map(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        elems: i64,
    ) -> Result<(glow::Buffer, *mut f32)> {
        if Self::persistent(ext) {
            if self.slots[unit].busy || self.pending.is_some() {
                self.settle(gl)?;
            }
            let mapped = self.slots[unit].buffer.ensure_mapped(gl, ext, elems)?;
            self.slots[unit].busy = true;
            return Ok(mapped);
        }
        let b = self.slots[unit]
            .buffer
            .ensure(gl, ext, elems, glow::STREAM_DRAW)?;
        // SAFETY: the context is current; the mapping is unmapped by `unmap` before any draw.
        unsafe {
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(b));
            let p = (ext.map_buffer_range)(
                glow::COPY_WRITE_BUFFER,
                0,
                (elems * 4) as isize,
                glow::MAP_WRITE_BIT | glow::MAP_INVALIDATE_BUFFER_BIT,
            );
            if p.is_null() {
                super::check_gl(gl, "glMapBufferRange")?;
                return Err(Error::new(
                    Status::ExecutionFailed,
                    "glMapBufferRange returned NULL",
                ));
            }
            Ok((b, p.cast()))
        }
    }

    fn unmap(gl: &glow::Context, ext: &GlExt) -> Result<()> {
        if !Self::persistent(ext) {
            // SAFETY: the buffer mapped by `map` is still bound to COPY_WRITE_BUFFER.
            unsafe {
                gl.unmap_buffer(glow::COPY_WRITE_BUFFER);
                gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
            }
        }
        super::check_gl(gl, "upload")
    }

    /// Fills a staging buffer of `count` floats for `unit` through `fill` (given the host memory
    /// behind it) and returns it as device memory.
    fn stage(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        count: i64,
        fill: impl FnOnce(*mut f32),
    ) -> Result<Mem> {
        let (buffer, dst) = self.map(gl, ext, unit, count.max(1))?;
        fill(dst);
        Self::unmap(gl, ext)?;
        Ok(Mem::Device {
            buffer,
            offset: 0,
            len: count,
        })
    }

    /// Copies the elements of host vector `v` (and only those) to the device, in memory order
    /// after `pad` unused elements, and returns the same vector as a device operand.
    pub fn upload_vector(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        v: &Vector,
        pad: i64,
    ) -> Result<Vector> {
        let Mem::Host(src) = v.mem else { return Ok(*v) };
        let count = if v.inc == 0 { 1 } else { v.n };
        let step = v.inc.unsigned_abs() as usize;
        let mem = self.stage(gl, ext, unit, pad + count, |dst| {
            // SAFETY: the caller vouches for `n` elements at stride |inc| from `src`; `dst`
            // holds `pad + count`.
            unsafe {
                let dst = dst.add(pad as usize);
                if step <= 1 {
                    std::ptr::copy_nonoverlapping(src, dst, count as usize);
                } else {
                    for r in 0..count as usize {
                        *dst.add(r) = *src.add(r * step);
                    }
                }
            }
        })?;
        Ok(Vector {
            mem: mem.advance(pad),
            n: v.n,
            inc: v.inc.signum(),
        })
    }

    /// Copies the `rows`×`cols` elements of host matrix `m` to the device, packed (ld = rows).
    pub fn upload_matrix(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        m: &Matrix,
    ) -> Result<Matrix> {
        let Mem::Host(src) = m.mem else { return Ok(*m) };
        let count = m.rows * m.cols;
        let (rows, ld) = (m.rows as usize, m.ld as usize);
        let mem = self.stage(gl, ext, unit, count, |dst| {
            // SAFETY: the caller vouches for an ld×cols column-major array at `src`; `dst` holds
            // rows×cols.
            unsafe {
                if ld == rows {
                    std::ptr::copy_nonoverlapping(src, dst, count as usize);
                } else {
                    for c in 0..m.cols as usize {
                        std::ptr::copy_nonoverlapping(src.add(c * ld), dst.add(c * rows), rows);
                    }
                }
            }
        })?;
        Ok(Matrix {
            mem,
            rows: m.rows,
            cols: m.cols,
            ld: m.rows,
        })
    }

    /// A staging buffer of at least `elems` floats for `unit` that a kernel will write results
    /// into (contents undefined), for `read_mapped` to read.
    pub fn output(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        elems: i64,
    ) -> Result<glow::Buffer> {
        if Self::persistent(ext) {
            let (buffer, _) = self.map(gl, ext, unit, elems)?;
            return Ok(buffer);
        }
        self.slots[unit]
            .buffer
            .ensure(gl, ext, elems, glow::STREAM_READ)
    }

    /// Waits for the device's writes to persistently mapped staging buffer `unit` and gives
    /// `read` its first `elems` floats.
    pub fn read_mapped<T>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        elems: i64,
        read: impl FnOnce(&[f32]) -> T,
    ) -> Result<T> {
        // SAFETY: the context is current.
        unsafe { gl.memory_barrier(glow::CLIENT_MAPPED_BUFFER_BARRIER_BIT) };
        self.slots[unit].busy = true;
        self.settle(gl)?;
        let (_, p) = self.slots[unit].buffer.ensure_mapped(gl, ext, elems)?;
        // SAFETY: the mapping holds at least `elems` floats, which the device has finished
        // writing; nothing writes them while the slice lives.
        Ok(read(unsafe {
            std::slice::from_raw_parts(p, elems as usize)
        }))
    }
}
