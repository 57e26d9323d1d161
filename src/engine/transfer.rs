//! Moving bytes between host memory and device buffers, and between device buffers.

use std::ffi::c_void;

use glow::HasContext;

use super::barriers::Access;
use super::buffers::read_buffer;
use super::element::Element;
use super::gl_engine::Engine;
use super::gl_errors::check_gl;
use super::memory::Location;
use super::operand::Mem;
use crate::status::{Error, Result};

/// Direction of a `glblasMemcpy`, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyKind {
    Infer,
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

impl Engine {
    /// Reads `out.len()` elements from device memory or host memory.
    pub fn read<T: Element>(&self, src: Mem<T>, out: &mut [T]) -> Result<()> {
        match src {
            // SAFETY: the caller checked `out.len()` elements at `p`.
            Mem::Host(p) => unsafe { std::ptr::copy(p, out.as_mut_ptr(), out.len()) },
            Mem::Device { buffer, offset, .. } => self.buffer_io(
                buffer,
                offset * T::SIZE,
                out.len() * T::SIZE as usize,
                out.as_mut_ptr().cast(),
                false,
            )?,
        }
        Ok(())
    }

    /// Writes `data` to device memory or host memory.
    pub fn write<T: Element>(&self, dst: Mem<T>, data: &[T]) -> Result<()> {
        match dst {
            // SAFETY: the caller checked `data.len()` elements at `p`.
            Mem::Host(p) => unsafe { std::ptr::copy(data.as_ptr(), p, data.len()) },
            Mem::Device { buffer, offset, .. } => self.buffer_io(
                buffer,
                offset * T::SIZE,
                data.len() * T::SIZE as usize,
                data.as_ptr().cast_mut().cast(),
                true,
            )?,
        }
        Ok(())
    }

    /// Copies `bytes` between host memory at `host` and `buffer` at byte `offset`.
    fn buffer_io(
        &self,
        buffer: glow::Buffer,
        offset: i64,
        bytes: usize,
        host: *mut c_void,
        upload: bool,
    ) -> Result<()> {
        let gl = &self.ctx.gl;
        if !upload {
            // SAFETY: the caller checked both ranges.
            return unsafe { read_buffer(gl, &self.ext, buffer, offset, bytes, host) };
        }
        let end = offset + bytes as i64;
        if offset % 4 != 0 || end % 4 != 0 {
            return self.upload_whole_words(buffer, (offset, end), host);
        }
        self.ext.barriers.use_now(gl, buffer, Access::Copy);
        // SAFETY: the context is current; the caller checked both ranges.
        unsafe {
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(buffer));
            (self.ext.buffer_sub_data)(
                glow::COPY_WRITE_BUFFER,
                offset as isize,
                bytes as isize,
                host,
            );
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        }
        check_gl(gl, "buffer transfer")
    }

    /// Uploads bytes `start..end` of `buffer` from `host` as whole 4-byte words: the words the
    /// range starts or ends inside are read back (each once), and written again with the
    /// range's bytes. Every buffer's size is a multiple of 16 bytes (`storage_bytes`), so the
    /// words lie inside it. On NVIDIA's driver (580.159.04, an H200), with other processes using
    /// the GPU, a `glBufferSubData` starting inside a word lost what it wrote there to an upload
    /// issued before it (`c_tests/test_memory`, three processes at once: 27 runs of 45 failed;
    /// none with the words written whole). Only byte-granular `glblasMemcpy` uploads take this
    /// path: elements are whole words.
    fn upload_whole_words(
        &self,
        buffer: glow::Buffer,
        (start, end): (i64, i64),
        host: *mut c_void,
    ) -> Result<()> {
        let (first, last) = (start / 4 * 4, (end + 3) / 4 * 4);
        let mut words = vec![0u8; (last - first) as usize];
        let tail = words.len() - 4;
        let gl = &self.ctx.gl;
        // SAFETY: the words lie inside the buffer; each read fills 4 bytes of `words`.
        unsafe {
            if start != first {
                read_buffer(gl, &self.ext, buffer, first, 4, words.as_mut_ptr().cast())?;
            }
            // The last word, unless it is the first word and was read above.
            if end != last && (start == first || tail > 0) {
                let word = words[tail..].as_mut_ptr().cast();
                read_buffer(gl, &self.ext, buffer, last - 4, 4, word)?;
            }
            // SAFETY: the caller checked `end - start` bytes at `host`.
            std::ptr::copy_nonoverlapping(
                host.cast::<u8>(),
                words[(start - first) as usize..].as_mut_ptr(),
                (end - start) as usize,
            );
        }
        self.buffer_io(buffer, first, words.len(), words.as_mut_ptr().cast(), true)
    }

    /// Copies `elems` elements from `src` to `dst`, each in device or host memory; two device
    /// ranges must not overlap (GL refuses such a copy).
    pub fn copy<T: Element>(&self, src: Mem<T>, dst: Mem<T>, elems: i64) -> Result<()> {
        let bytes = elems * T::SIZE;
        match (src, dst) {
            (_, Mem::Host(p)) => {
                // SAFETY: the caller checked `elems` elements at `p`.
                self.read(src, unsafe {
                    std::slice::from_raw_parts_mut(p, elems as usize)
                })
            }
            // SAFETY: the caller checked `elems` elements at `p`.
            (Mem::Host(p), _) => self.write(dst, unsafe {
                std::slice::from_raw_parts(p, elems as usize)
            }),
            (
                Mem::Device {
                    buffer: sb,
                    offset: so,
                    ..
                },
                Mem::Device {
                    buffer: db,
                    offset: dof,
                    ..
                },
            ) => self.copy_buffer((sb, so * T::SIZE), (db, dof * T::SIZE), bytes),
        }
    }

    /// Copies `bytes` between two device buffers at byte offsets, ranges not overlapping.
    fn copy_buffer(
        &self,
        (sb, soff): (glow::Buffer, i64),
        (db, doff): (glow::Buffer, i64),
        bytes: i64,
    ) -> Result<()> {
        let gl = &self.ctx.gl;
        self.ext.barriers.use_now(gl, sb, Access::Copy);
        self.ext.barriers.use_now(gl, db, Access::Copy);
        // SAFETY: the context is current; the caller checked both ranges.
        unsafe {
            gl.bind_buffer(glow::COPY_READ_BUFFER, Some(sb));
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(db));
            (self.ext.copy_buffer_sub_data)(
                glow::COPY_READ_BUFFER,
                glow::COPY_WRITE_BUFFER,
                soff as isize,
                doff as isize,
                bytes as isize,
            );
            gl.bind_buffer(glow::COPY_READ_BUFFER, None);
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        }
        check_gl(gl, "glCopyBufferSubData")
    }

    /// `glblasMemcpy`: at least one side is device memory, and the kind (unless Infer) agrees
    /// with where the pointers are.
    pub fn memcpy(
        &self,
        dst: *mut c_void,
        src: *const c_void,
        bytes: usize,
        kind: CopyKind,
    ) -> Result<()> {
        let side = |p: usize| -> Result<Option<(glow::Buffer, usize)>> {
            match self.memory.locate(p) {
                Location::Host(_) => Ok(None),
                Location::Freed => Err(Error::invalid("device pointer was freed")),
                Location::Lost => Err(Error::lost_operand()),
                Location::Device {
                    buffer,
                    offset,
                    available,
                } => {
                    if (bytes as i128) > available as i128 {
                        return Err(Error::invalid(
                            "copy extends past the end of a device allocation",
                        ));
                    }
                    Ok(Some((buffer, offset)))
                }
            }
        };
        let (d, s) = (side(dst as usize)?, side(src as usize)?);
        let inferred = match (d, s) {
            (Some(_), None) => CopyKind::HostToDevice,
            (None, Some(_)) => CopyKind::DeviceToHost,
            (Some(_), Some(_)) => CopyKind::DeviceToDevice,
            (None, None) => return Err(Error::invalid("neither pointer is device memory")),
        };
        if kind != CopyKind::Infer && kind != inferred {
            return Err(Error::invalid(format!(
                "pointers make a {inferred:?} copy, not {kind:?}"
            )));
        }
        if bytes == 0 {
            return Ok(());
        }
        match (d, s) {
            (Some((b, off)), None) => self.buffer_io(b, off as i64, bytes, src.cast_mut(), true),
            (None, Some((b, off))) => self.buffer_io(b, off as i64, bytes, dst, false),
            (Some((db, doff)), Some((sb, soff))) => {
                if db == sb && doff < soff + bytes && soff < doff + bytes {
                    // GL refuses overlapping copies within one buffer: go through the host.
                    let mut tmp = vec![0u8; bytes];
                    self.buffer_io(sb, soff as i64, bytes, tmp.as_mut_ptr().cast(), false)?;
                    return self.buffer_io(db, doff as i64, bytes, tmp.as_mut_ptr().cast(), true);
                }
                self.copy_buffer((sb, soff as i64), (db, doff as i64), bytes as i64)
            }
            (None, None) => unreachable!("refused above"),
        }
    }

    /// Waits until every command issued so far has completed.
    pub fn sync(&self) -> Result<()> {
        // SAFETY: the context is current.
        unsafe { self.ctx.gl.finish() };
        check_gl(&self.ctx.gl, "glFinish")
    }
}
