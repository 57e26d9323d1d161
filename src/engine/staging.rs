//! Staging: device buffers that host operands are copied into so kernels can read them, and
//! that compute kernels leave host results in. One per operand unit, grown on demand and kept.
//!
//! Where the device has immutable buffer storage each buffer is mapped once, persistently and
//! coherently: an upload is a plain copy into the mapping and a result is read from it after a
//! fence, with no map, unmap or read-back call per operand (most of a tiny call's cost). The
//! host then writes memory the device may still be reading, so a buffer handed to the device
//! is not written again before a fence shows the device is done with it. Elsewhere each upload
//! maps the buffer afresh for writing (on virgl it is assembled in host memory and handed over
//! with `glBufferSubData`: see `map`), and results are read back with a GL call.
//!
//! Where the device can make a buffer over host memory (GL_AMD_pinned_memory, which llvmpipe
//! has), large unit-stride host operands are not copied at all: kernels use the caller's memory
//! in place, and the call waits for the device before it returns.

use glow::HasContext;

use super::barriers::Access;
use super::buffers::{read_buffer, GrowingBuffer};
use super::device::DeviceInfo;
use super::element::Element;
use super::fault;
use super::fences::wait;
use super::gl_errors::check_gl;
use super::gl_ext::GlExt;
use super::operand::{Matrix, Mem, Vector, OPERAND_UNITS};
use crate::status::{Error, Result, Status};

/// `GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD`, the target that makes a buffer over host memory.
const EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD: u32 = 0x9160;
/// Host operands at least this large are used in place where the device allows; copying a
/// smaller one costs less than making and releasing the buffer over it.
const PIN_MIN_BYTES: i64 = 256 * 1024;

#[derive(Default)]
pub struct Staging {
    slots: [Slot; OPERAND_UNITS],
    /// Signalled when the device has finished the last call's commands that use staging.
    pending: Option<glow::Fence>,
    /// Buffers over the caller's memory made during this call.
    pinned: Vec<glow::Buffer>,
}

// SAFETY: the fence is only used by the thread holding the engine lock, with the context current.
unsafe impl Send for Staging {}

#[derive(Default)]
struct Slot {
    buffer: GrowingBuffer,
    /// Where an upload is assembled without persistent mappings (see `map`).
    host: Vec<f32>,
    /// Handed to the device since the last fence (persistent mappings only).
    busy: bool,
}

impl Staging {
    pub fn delete_all(&mut self, gl: &glow::Context, ext: &GlExt) {
        for b in self.pinned.drain(..) {
            ext.delete_buffer(gl, b);
        }
        for s in &mut self.slots {
            s.buffer.delete(gl, ext);
            s.busy = false;
        }
        if let Some(f) = self.pending.take() {
            // SAFETY: the context is current; the fence is ours.
            unsafe { gl.delete_sync(f) };
        }
    }

    /// Whether buffers are persistently mapped (results are then read from the mapping).
    fn persistent(ext: &GlExt) -> bool {
        ext.buffer_storage.is_some()
    }

    /// Host memory `[ptr, ptr + elems)` as device memory that kernels use in place, where the
    /// device can map host memory and the range is large enough to be worth it; `None` means
    /// "copy it". The buffer covers the whole pages holding the range (a page is readable
    /// wherever one of its bytes is); it lives until the end of the call, which waits for the
    /// device to finish with it.
    pub fn pin<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        info: &DeviceInfo,
        ptr: *const T,
        elems: i64,
    ) -> Option<Mem<T>> {
        let addr = ptr as usize;
        let size = T::SIZE as usize;
        if !info.pinned_memory || elems * T::SIZE < PIN_MIN_BYTES || !addr.is_multiple_of(size) {
            return None;
        }
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
        let first = addr / page * page;
        let end = (addr + elems as usize * size).div_ceil(page) * page;
        // SAFETY: the context is current; the caller vouches for the range, whose pages are
        // therefore mapped; the buffer is deleted (after the device is done) by `end_call`.
        unsafe {
            let buffer = gl.create_buffer().ok()?;
            gl.bind_buffer(EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD, Some(buffer));
            (ext.buffer_data)(
                EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD,
                (end - first) as isize,
                first as *const std::ffi::c_void,
                glow::STREAM_DRAW,
            );
            super::fault::allocation();
            gl.bind_buffer(EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD, None);
            if check_gl(gl, "pinned buffer").is_err() {
                ext.delete_buffer(gl, buffer);
                return None;
            }
            self.pinned.push(buffer);
            Some(Mem::Device {
                buffer,
                offset: ((addr - first) / size) as i64,
                len: ((end - first) / size) as i64,
            })
        }
    }

    /// Marks the end of a call: later writes into staging wait for the device to finish the
    /// commands issued so far, and buffers over the caller's memory are released once the
    /// device is done with them.
    pub fn end_call(&mut self, gl: &glow::Context, ext: &GlExt) {
        if !self.pinned.is_empty() {
            for &b in &self.pinned {
                ext.barriers.use_now(gl, b, Access::Mapped);
            }
            // On failure (a lost context) nothing is running any more.
            let _ = self.wait_all(gl);
            for b in self.pinned.drain(..) {
                // The device is done with the buffer.
                ext.delete_buffer(gl, b);
            }
        }
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
            return self.wait_all(gl);
        }
        match self.pending.take() {
            Some(f) => wait(gl, f),
            None => Ok(()),
        }
    }

    /// Waits until the device has finished every command issued so far.
    fn wait_all(&mut self, gl: &glow::Context) -> Result<()> {
        // SAFETY: the context is current; the new fence supersedes the pending one.
        let f = unsafe {
            if let Some(f) = self.pending.take() {
                gl.delete_sync(f);
            }
            gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0)
        }
        .map_err(|e| Error::new(Status::ExecutionFailed, e))?;
        for s in &mut self.slots {
            s.busy = false;
        }
        wait(gl, f)
    }

    /// A buffer of at least `elems` floats for `unit` and host memory to fill it through: the
    /// persistent mapping, a fresh write mapping (unmapped by `unmap`), or where the driver needs
    /// it (`Workarounds::upload_with_sub_data`) host memory of the staging's own, which `unmap`
    /// hands to `glBufferSubData`.
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
        if ext.upload_with_sub_data {
            let host = &mut self.slots[unit].host;
            host.clear();
            host.resize(elems as usize, 0.0);
            return Ok((b, host.as_mut_ptr()));
        }
        ext.barriers.use_now(gl, b, Access::Copy);
        // SAFETY: the context is current; the mapping is unmapped by `unmap` before any draw.
        // Not with GL_MAP_INVALIDATE_BUFFER_BIT: on zink (Mesa 22.3) invalidating a staging
        // buffer that a buffer texture views corrupted the heap, in Mesa's threaded context,
        // which replaces the buffer's storage (GLES on zink with small launch limits: 3 runs of
        // the Python kernel tests in 4 crashed or read stale elements; none with
        // GALLIUM_THREAD=0 or without the bit). A plain write mapping lets the driver stage the
        // data where the buffer is still in use.
        unsafe {
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(b));
            let p = (ext.map_buffer_range)(
                glow::COPY_WRITE_BUFFER,
                0,
                (elems * 4) as isize,
                glow::MAP_WRITE_BIT,
            );
            if p.is_null() {
                check_gl(gl, "glMapBufferRange")?;
                return Err(Error::new(
                    Status::ExecutionFailed,
                    "glMapBufferRange returned NULL",
                ));
            }
            Ok((b, p.cast()))
        }
    }

    /// Hands what `map` gave for `unit`, `elems` floats of it, to the device: to buffer `b`.
    fn unmap(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        (unit, b): (usize, glow::Buffer),
        elems: i64,
    ) -> Result<()> {
        if Self::persistent(ext) {
            return check_gl(gl, "upload");
        }
        if !ext.upload_with_sub_data {
            // SAFETY: the buffer mapped by `map` is still bound to COPY_WRITE_BUFFER.
            unsafe {
                gl.unmap_buffer(glow::COPY_WRITE_BUFFER);
                gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
            }
            return check_gl(gl, "upload");
        }
        ext.barriers.use_now(gl, b, Access::Copy);
        // SAFETY: the context is current; the host memory holds `elems` floats, which the
        // buffer has room for.
        unsafe {
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(b));
            (ext.buffer_sub_data)(
                glow::COPY_WRITE_BUFFER,
                0,
                (elems * 4) as isize,
                self.slots[unit].host.as_ptr().cast(),
            );
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        }
        check_gl(gl, "upload")
    }

    /// Fills a staging buffer of `count` floats for `unit` through `fill` (given the host memory
    /// behind it) and returns it as device memory.
    fn stage<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        count: i64,
        fill: impl FnOnce(*mut T),
    ) -> Result<Mem<T>> {
        let elems = T::words(count.max(1));
        let (buffer, dst) = self.map(gl, ext, unit, elems)?;
        fill(dst.cast());
        self.unmap(gl, ext, (unit, buffer), elems)?;
        Ok(Mem::Device {
            buffer,
            offset: 0,
            len: count,
        })
    }

    /// Copies the elements of host vector `v` (and only those) to the device, in memory order
    /// after `pad` unused elements, and returns the same vector as a device operand.
    pub fn upload_vector<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        v: &Vector<T>,
        pad: i64,
    ) -> Result<Vector<T>> {
        let Mem::Host(src) = v.mem else { return Ok(*v) };
        let count = if v.inc == 0 { 1 } else { v.n };
        let step = v.inc.unsigned_abs() as usize;
        let mem = self.stage(gl, ext, unit, pad + count, |dst: *mut T| {
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

    /// Copies the `rows`×`cols` elements of host matrix `m` to the device, columns `staged_ld`
    /// (at least `rows`) apart, the floats between them unset.
    pub fn upload_matrix<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        m: &Matrix<T>,
        staged_ld: i64,
    ) -> Result<Matrix<T>> {
        let Mem::Host(src) = m.mem else { return Ok(*m) };
        debug_assert!(staged_ld >= m.rows);
        let count = staged_ld * m.cols;
        let (rows, ld, to) = (m.rows as usize, m.ld as usize, staged_ld as usize);
        let mem = self.stage(gl, ext, unit, count, |dst| {
            // SAFETY: the caller vouches for an ld×cols column-major array at `src`; `dst` holds
            // staged_ld×cols.
            unsafe {
                if ld == rows && to == rows {
                    std::ptr::copy_nonoverlapping(src, dst, count as usize);
                } else {
                    for c in 0..m.cols as usize {
                        std::ptr::copy_nonoverlapping(src.add(c * ld), dst.add(c * to), rows);
                    }
                }
            }
        })?;
        Ok(Matrix {
            mem,
            rows: m.rows,
            cols: m.cols,
            ld: staged_ld,
        })
    }

    /// A staging buffer of at least `elems` elements of `T` for `unit` that a kernel will write
    /// results into (contents undefined), for `read_result` to read.
    pub fn output<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        elems: i64,
    ) -> Result<glow::Buffer> {
        if Self::persistent(ext) {
            return self
                .map(gl, ext, unit, T::words(elems))
                .map(|(buffer, _)| buffer);
        }
        self.slots[unit]
            .buffer
            .ensure(gl, ext, T::words(elems), glow::STREAM_READ)
    }

    /// Waits for the device's writes to staging buffer `unit` (made by `output`) and gives
    /// `read` its first `elems` elements of `T`: from the persistent mapping, or read back.
    pub fn read_result<T: Element, R>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        elems: i64,
        read: impl FnOnce(&[T]) -> R,
    ) -> Result<R> {
        if !Self::persistent(ext) {
            let buffer =
                self.slots[unit]
                    .buffer
                    .ensure(gl, ext, T::words(elems), glow::STREAM_READ)?;
            let mut out = vec![T::default(); elems as usize];
            // SAFETY: the buffer holds at least `elems` elements; `out` as many.
            unsafe {
                read_buffer(
                    gl,
                    ext,
                    buffer,
                    0,
                    out.len() * T::SIZE as usize,
                    out.as_mut_ptr().cast(),
                )?;
            }
            return Ok(read(&out));
        }
        let (buffer, p) = self.slots[unit]
            .buffer
            .ensure_mapped(gl, ext, T::words(elems))?;
        ext.barriers.use_now(gl, buffer, Access::Mapped);
        self.slots[unit].busy = true;
        self.settle(gl)?;
        // SAFETY: the mapping holds at least `elems` elements (mappings are aligned far beyond
        // 8 bytes), which the device has finished writing; nothing writes them while the slice
        // lives.
        Ok(read(unsafe {
            fault::read_back(p.cast(), T::words(elems) as usize);
            std::slice::from_raw_parts(p.cast::<T>(), elems as usize)
        }))
    }
}
