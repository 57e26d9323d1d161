//! Scratch device memory for multi-pass kernels (sgemm's packed panels and its output), grown
//! on demand and kept, and the buffer textures that view buffers in a chosen format, for
//! sampling or for image stores (each bound for the next launch: see `barriers`).

use glow::HasContext;

use super::barriers::Access;
use super::buffers::{new_buffer_texture, GrowingBuffer};
use super::element::Element;
use super::gl_ext::GlExt;
use super::operand::Window;
use crate::status::{Error, Result, Status};

pub const SCRATCH_BUFFERS: usize = 9;
/// The scratch buffer that partial texels of vector results pass through (two texels).
pub const EDGES: usize = 3;
pub const VIEWS: usize = 5;

#[derive(Default)]
pub struct Scratch {
    buffers: [GrowingBuffer; SCRATCH_BUFFERS],
    views: [Option<glow::Texture>; VIEWS],
}

impl Scratch {
    /// Scratch buffer `slot` with room for at least `elems` floats (contents undefined).
    pub fn buffer(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        slot: usize,
        elems: i64,
    ) -> Result<glow::Buffer> {
        self.buffers[slot].ensure(gl, ext, elems, glow::DYNAMIC_COPY)
    }

    /// Scratch buffer `slot` as it is, if it was made.
    pub fn existing(&self, slot: usize) -> Option<glow::Buffer> {
        self.buffers[slot].existing()
    }

    /// Buffer texture `slot`, now viewing `bytes` of `buffer` from `first_byte` (aligned to
    /// GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT) as `format`, bound to texture unit `unit` (which it
    /// replaces there) for the next launch to sample. Without glTexBufferRange (GL 3.3) only
    /// views from byte 0 can be made: they cover the whole buffer. Where compute kernels read
    /// operands through storage blocks, the range is bound as unit `unit`'s storage block
    /// instead (`device::STORAGE_READS`), and `slot` and `format` go unused.
    #[allow(clippy::too_many_arguments)]
    pub fn view(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        slot: usize,
        unit: u32,
        buffer: glow::Buffer,
        format: u32,
        first_byte: i64,
        bytes: i64,
    ) -> Result<()> {
        if ext.storage_operands {
            storage_window(buffer, first_byte, bytes).bind_read(ext, unit);
            return Ok(());
        }
        self.point(gl, ext, slot, unit, buffer, format, first_byte, bytes)?;
        ext.barriers.bound(buffer, Access::Fetch);
        Ok(())
    }

    /// View `slot` of `bytes` of `buffer` from `first_byte` as `format` (on texture unit `unit`,
    /// which no sampler of the program may use), bound to image unit `image` for the next
    /// launch to write; where compute kernels read operands through storage blocks, the range
    /// is bound as storage block `image` instead (a `RESULT` of `shaders/real.glsl`).
    #[allow(clippy::too_many_arguments)]
    pub fn image(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        slot: usize,
        unit: u32,
        image: u32,
        buffer: glow::Buffer,
        format: u32,
        first_byte: i64,
        bytes: i64,
    ) -> Result<()> {
        if ext.storage_operands {
            storage_window(buffer, first_byte, bytes).bind_storage(ext, image);
            return Ok(());
        }
        let t = self.point(gl, ext, slot, unit, buffer, format, first_byte, bytes)?;
        // SAFETY: the context is current; the texture is a buffer texture of ours.
        unsafe { gl.bind_image_texture(image, Some(t), 0, false, 0, glow::WRITE_ONLY, format) };
        ext.barriers.bound(buffer, Access::ImageStore);
        Ok(())
    }

    /// Points view `slot` at `bytes` of `buffer` from `first_byte` as `format`, bound to
    /// texture unit `unit` (see `GlExt::point_buffer_texture`).
    #[allow(clippy::too_many_arguments)]
    fn point(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        slot: usize,
        unit: u32,
        buffer: glow::Buffer,
        format: u32,
        first_byte: i64,
        bytes: i64,
    ) -> Result<glow::Texture> {
        if ext.tex_buffer_range.is_none() && first_byte != 0 {
            return Err(Error::new(Status::NotSupported, "no glTexBufferRange"));
        }
        let t = match self.views[slot] {
            Some(t) => t,
            None => *self.views[slot].insert(new_buffer_texture(gl, unit)?),
        };
        // SAFETY: the context is current; the texture is ours.
        unsafe {
            gl.active_texture(glow::TEXTURE0 + unit);
            gl.bind_texture(glow::TEXTURE_BUFFER, Some(t));
        }
        ext.point_buffer_texture(gl, format, buffer, first_byte, bytes);
        Ok(t)
    }

    /// Points view `slot` at window `w` of `T` elements and binds it to texture unit `unit` for
    /// sampling: one element per texel (`T::FORMAT`), or in 16-byte texels when `rgba`
    /// (`T::FORMAT16`, for four-at-a-time reads; whole texels only: the elements of a partial
    /// last texel are read through the other view).
    pub fn sample<T: Element>(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        slot: usize,
        unit: u32,
        w: &Window,
        rgba: bool,
    ) -> Result<()> {
        let (format, bytes) = if rgba {
            (T::FORMAT16, w.bytes / 16 * 16)
        } else {
            (T::FORMAT, w.bytes)
        };
        // A window of fewer than four elements has no whole texel for its RGBA view, which the
        // kernel then never reads; `point` still gives the view one (see `storage_bytes`).
        self.view(gl, ext, slot, unit, w.buffer, format, w.first_byte, bytes)
    }

    pub fn delete_all(&mut self, gl: &glow::Context, ext: &GlExt) {
        for b in &mut self.buffers {
            b.delete(gl, ext);
        }
        for t in self.views.iter_mut().filter_map(Option::take) {
            // SAFETY: the context is current; the texture is ours.
            unsafe { gl.delete_texture(t) };
        }
    }
}

/// `bytes` of `buffer` from `first_byte`, as a storage block binds them.
fn storage_window(buffer: glow::Buffer, first_byte: i64, bytes: i64) -> Window {
    Window {
        buffer,
        first_byte,
        bytes,
        start: 0,
    }
}
