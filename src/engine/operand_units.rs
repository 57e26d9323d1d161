//! Binding operands for a kernel to read: the buffer textures they are read through, one per
//! texture unit, pointed at the window of each operand's buffer (host data is uploaded first);
//! or, where kernels read operands through storage blocks, the window bound as a block.

use std::cell::RefCell;

use glow::HasContext;

use super::barriers::Access;
use super::buffers::{new_buffer_texture, GrowingBuffer};
use super::device::DeviceInfo;
use super::element::Element;
use super::gl_errors::check_gl;
use super::gl_ext::GlExt;
use super::operand::{Matrix, Mem, Vector, Window, OPERAND_UNITS};
use super::programs::Program;
use crate::status::{Error, Result};

/// The error of a call that needs the fragment pipeline on a device without buffer textures,
/// which its kernels read operands through.
pub fn no_buffer_textures() -> Error {
    Error::unsupported(
        "no-pipeline",
        "the fragment kernels need buffer textures, which this device lacks",
    )
}

/// The buffer textures operands are read through, one per texture unit (none where kernels
/// read operands through storage blocks).
pub struct OperandUnits {
    textures: Vec<glow::Texture>,
    /// Per unit, a copy of the window of an operand whose buffer is too large to be viewed whole
    /// on a device without glTexBufferRange, and its size in bytes; reused within a call, deleted
    /// at its end (`end_call`), since it can take as much memory as a window.
    copies: RefCell<[GrowingBuffer; OPERAND_UNITS]>,
}

impl OperandUnits {
    pub fn create(gl: &glow::Context, info: &DeviceInfo) -> Result<OperandUnits> {
        let mut made = Vec::with_capacity(OPERAND_UNITS);
        let units = if info.texture_buffers {
            OPERAND_UNITS
        } else {
            0
        };
        for unit in 0..units {
            match new_buffer_texture(gl, unit as u32) {
                Ok(t) => made.push(t),
                Err(e) => {
                    for t in made {
                        // SAFETY: the context is current; textures created just above.
                        unsafe { gl.delete_texture(t) };
                    }
                    return Err(e);
                }
            }
        }
        Ok(OperandUnits {
            textures: made,
            copies: RefCell::default(),
        })
    }

    pub fn delete(self, gl: &glow::Context, ext: &GlExt) {
        self.end_call(gl, ext);
        for t in self.textures {
            // SAFETY: the context is current; the textures are ours.
            unsafe { gl.delete_texture(t) };
        }
    }

    /// Binds elements `lo..lo+count` of `mem`'s buffer to texture unit `unit` for the next launch
    /// to sample, and returns the element index the window starts at.
    fn bind_window<T: Element>(
        &self,
        gl: &glow::Context,
        ext: &GlExt,
        info: &DeviceInfo,
        unit: usize,
        mem: Mem<T>,
        count: i64,
    ) -> Result<i64> {
        let Mem::Device {
            buffer,
            offset,
            len,
        } = mem
        else {
            unreachable!("host operands are uploaded before binding")
        };
        if info.storage_operands {
            let w = Window::of(info, mem, count);
            if w.bytes > info.max_storage_block_size {
                return Err(Error::overflow(
                    "operand window exceeds the storage block size",
                ));
            }
            w.bind_read(ext, unit as u32);
            return Ok(w.first_byte / T::SIZE);
        }
        let Some(&texture) = self.textures.get(unit) else {
            return Err(no_buffer_textures());
        };
        ext.barriers.bound(buffer, Access::Fetch);
        // SAFETY: the context is current.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + unit as u32);
            gl.bind_texture(glow::TEXTURE_BUFFER, Some(texture));
        }
        // Without glTexBufferRange a view covers its whole buffer, or a copy of the window
        // where the buffer is larger than a view can be.
        let copied = ext.tex_buffer_range.is_none() && len > info.max_texture_buffer_size;
        let (elems, first) = if ext.tex_buffer_range.is_some() {
            let w = Window::of(info, mem, count);
            (w.bytes / T::SIZE, w.first_byte / T::SIZE)
        } else if copied {
            (count, offset)
        } else {
            (len, 0)
        };
        if elems > info.max_texture_buffer_size {
            return Err(Error::overflow(
                "operand window exceeds the buffer texture size",
            ));
        }
        if copied {
            self.copy_window(
                gl,
                ext,
                unit,
                buffer,
                offset * T::SIZE,
                count * T::SIZE,
                T::FORMAT,
            )?;
        } else {
            ext.point_buffer_texture(gl, T::FORMAT, buffer, first * T::SIZE, elems * T::SIZE);
        }
        Ok(first)
    }

    /// Copies `bytes` of `buffer` from byte `offset` into unit `unit`'s copy buffer and points
    /// the unit's view at it as `format` (see `copies`).
    #[allow(clippy::too_many_arguments)]
    fn copy_window(
        &self,
        gl: &glow::Context,
        ext: &GlExt,
        unit: usize,
        buffer: glow::Buffer,
        offset: i64,
        bytes: i64,
        format: u32,
    ) -> Result<()> {
        let copy = self.copies.borrow_mut()[unit].ensure(gl, ext, bytes / 4, glow::STREAM_COPY)?;
        ext.barriers.use_now(gl, buffer, Access::Copy);
        ext.barriers.bound(copy, Access::Fetch);
        // SAFETY: the context is current; both ranges lie inside their buffers.
        unsafe {
            gl.bind_buffer(glow::COPY_READ_BUFFER, Some(buffer));
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(copy));
            (ext.copy_buffer_sub_data)(
                glow::COPY_READ_BUFFER,
                glow::COPY_WRITE_BUFFER,
                offset as isize,
                0,
                bytes as isize,
            );
            gl.bind_buffer(glow::COPY_READ_BUFFER, None);
            gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        }
        check_gl(gl, "glCopyBufferSubData")?;
        ext.point_buffer_texture(gl, format, copy, 0, bytes);
        Ok(())
    }

    /// Deletes the window copies made during the call.
    pub fn end_call(&self, gl: &glow::Context, ext: &GlExt) {
        for copy in self.copies.borrow_mut().iter_mut() {
            copy.delete(gl, ext);
        }
    }

    /// Binds device vector `v` as operand `name` (uniforms u<name>, u<name>Start, u<name>Inc).
    #[allow(clippy::too_many_arguments)]
    pub fn bind_vector<T: Element>(
        &self,
        gl: &glow::Context,
        ext: &GlExt,
        info: &DeviceInfo,
        p: &Program,
        unit: usize,
        name: &str,
        v: &Vector<T>,
    ) -> Result<()> {
        let window = self.bind_window(gl, ext, info, unit, v.mem, v.span())?;
        let Mem::Device { offset, .. } = v.mem else {
            unreachable!()
        };
        p.set_i32(gl, &format!("u{name}"), unit as i32);
        p.set_i32(
            gl,
            &format!("u{name}Start"),
            (offset - window + v.first()) as i32,
        );
        p.set_i32(gl, &format!("u{name}Inc"), v.inc as i32);
        Ok(())
    }

    /// Binds device matrix `m` as operand `name`: element (r, c) of `m` (of its transpose when
    /// `transposed`) is texel `u<name>Start + r*u<name>Row + c*u<name>Col`.
    #[allow(clippy::too_many_arguments)]
    pub fn bind_matrix<T: Element>(
        &self,
        gl: &glow::Context,
        ext: &GlExt,
        info: &DeviceInfo,
        p: &Program,
        unit: usize,
        name: &str,
        m: &Matrix<T>,
        transposed: bool,
    ) -> Result<()> {
        let window = self.bind_window(gl, ext, info, unit, m.mem, m.span())?;
        let Mem::Device { offset, .. } = m.mem else {
            unreachable!()
        };
        let (row, col) = if transposed { (m.ld, 1) } else { (1, m.ld) };
        p.set_i32(gl, &format!("u{name}"), unit as i32);
        p.set_i32(gl, &format!("u{name}Start"), (offset - window) as i32);
        p.set_i32(gl, &format!("u{name}Row"), row as i32);
        p.set_i32(gl, &format!("u{name}Col"), col as i32);
        Ok(())
    }
}
