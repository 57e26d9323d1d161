//! GL buffers and what is made over them: new buffers sized for every view of them, persistently
//! mapped ones, buffer textures, buffers kept and regrown across calls, and reading a buffer
//! back into host memory.

use std::ffi::c_void;

use glow::HasContext;

use super::barriers::Access;
use super::fault;
use super::gl_errors::check_gl;
use super::gl_ext::GlExt;
use crate::status::{Error, Result, Status};

/// The size to give a buffer asked to hold `bytes`: whole RGBA texels, and never a power of two.
/// Whole texels, so that every window of a buffer (its start a multiple of 16 bytes, inside the
/// buffer) holds at least one texel of each view format: virgl's host renderer rejects a buffer
/// texture of no texel (`glTexBufferRange` with size 0, "Illegal command buffer"), which Mesa
/// answers by aborting the process. Not a power of two, since llvmpipe compiles a shader once per
/// combination of static state of what it samples, and that includes whether each sampled
/// buffer's size is a power of two (`pot_width`), so buffers of both kinds made it compile
/// sgemm's shader (2 s cold) again when a scratch buffer grew past or onto a power of two. The
/// bytes added are never viewed as elements.
fn storage_bytes(bytes: i64) -> i64 {
    let mut size = (bytes + 15) / 16 * 16;
    // Twice at most: 16 bytes become 48.
    while size > 0 && (size as u64).is_power_of_two() {
        size += 16;
    }
    size
}

/// A new GL buffer of `bytes` bytes (contents undefined) with usage hint `usage`; deleted again
/// when GL cannot allocate it.
pub fn new_buffer(gl: &glow::Context, ext: &GlExt, bytes: i64, usage: u32) -> Result<glow::Buffer> {
    let bytes = storage_bytes(bytes);
    // SAFETY: the context is current; the buffer is new and deleted on failure.
    unsafe {
        let buffer = gl
            .create_buffer()
            .map_err(|e| Error::new(Status::AllocFailed, e))?;
        gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(buffer));
        (ext.buffer_data)(
            glow::COPY_WRITE_BUFFER,
            bytes as isize,
            std::ptr::null(),
            usage,
        );
        fault::allocation();
        gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        match check_gl(gl, "glBufferData") {
            Ok(()) => Ok(buffer),
            Err(e) => {
                ext.delete_buffer(gl, buffer);
                Err(e)
            }
        }
    }
}

/// A new buffer of `bytes` bytes with immutable storage, mapped persistently and coherently for
/// reading and writing, and its mapping (`ext.buffer_storage` must be there).
pub fn new_mapped_buffer(
    gl: &glow::Context,
    ext: &GlExt,
    bytes: i64,
) -> Result<(glow::Buffer, *mut f32)> {
    let Some(buffer_storage) = ext.buffer_storage else {
        return Err(Error::new(Status::NotSupported, "no glBufferStorage"));
    };
    let bytes = storage_bytes(bytes);
    let flags = glow::MAP_READ_BIT
        | glow::MAP_WRITE_BIT
        | glow::MAP_PERSISTENT_BIT
        | glow::MAP_COHERENT_BIT;
    // SAFETY: the context is current; the buffer is new and deleted on failure.
    unsafe {
        let buffer = gl
            .create_buffer()
            .map_err(|e| Error::new(Status::AllocFailed, e))?;
        gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(buffer));
        buffer_storage(
            glow::COPY_WRITE_BUFFER,
            bytes as isize,
            std::ptr::null(),
            flags,
        );
        fault::allocation();
        let mapped = check_gl(gl, "glBufferStorage").and_then(|()| {
            let p = (ext.map_buffer_range)(glow::COPY_WRITE_BUFFER, 0, bytes as isize, flags);
            if p.is_null() {
                check_gl(gl, "glMapBufferRange")?;
                return Err(Error::new(
                    Status::AllocFailed,
                    "glMapBufferRange returned NULL",
                ));
            }
            Ok(p.cast())
        });
        gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
        match mapped {
            Ok(p) => Ok((buffer, p)),
            Err(e) => {
                ext.delete_buffer(gl, buffer);
                Err(e)
            }
        }
    }
}

/// A new buffer texture, bound to texture unit `unit` (a name becomes a texture when first
/// bound); deleted again if GL reports an error making it.
pub fn new_buffer_texture(gl: &glow::Context, unit: u32) -> Result<glow::Texture> {
    // SAFETY: the context is current; the texture is new and deleted on failure.
    unsafe {
        let texture = gl
            .create_texture()
            .map_err(|e| Error::new(Status::AllocFailed, e))?;
        gl.active_texture(glow::TEXTURE0 + unit);
        gl.bind_texture(glow::TEXTURE_BUFFER, Some(texture));
        fault::allocation();
        check_gl(gl, "buffer texture").inspect_err(|_| gl.delete_texture(texture))?;
        Ok(texture)
    }
}

/// Reads `bytes` of `buffer` from byte `offset` into host memory at `host`: with
/// `glGetBufferSubData`, or through a read mapping where GL has no such call (GLES).
///
/// # Safety
/// The context is current; the range lies inside the buffer and `host` holds `bytes`.
pub unsafe fn read_buffer(
    gl: &glow::Context,
    ext: &GlExt,
    buffer: glow::Buffer,
    offset: i64,
    bytes: usize,
    host: *mut c_void,
) -> Result<()> {
    ext.barriers.use_now(gl, buffer, Access::HostRead);
    gl.bind_buffer(glow::COPY_WRITE_BUFFER, Some(buffer));
    if let Some(get) = ext.get_buffer_sub_data {
        get(
            glow::COPY_WRITE_BUFFER,
            offset as isize,
            bytes as isize,
            host,
        );
    } else {
        let p = (ext.map_buffer_range)(
            glow::COPY_WRITE_BUFFER,
            offset as isize,
            bytes as isize,
            glow::MAP_READ_BIT,
        );
        if !p.is_null() {
            std::ptr::copy_nonoverlapping(p.cast::<u8>(), host.cast::<u8>(), bytes);
            gl.unmap_buffer(glow::COPY_WRITE_BUFFER);
        }
    }
    gl.bind_buffer(glow::COPY_WRITE_BUFFER, None);
    fault::read_back(host, bytes / 4);
    check_gl(gl, "buffer transfer")
}

/// A buffer kept between calls and replaced by a larger one when a call needs more.
#[derive(Default)]
pub struct GrowingBuffer(Option<Grown>);

struct Grown {
    buffer: glow::Buffer,
    elems: i64,
    /// Its persistent mapping, if it was made with `ensure_mapped`.
    mapped: Option<*mut f32>,
}

// SAFETY: the mapping is only touched by the thread holding the engine lock, with the context
// current.
unsafe impl Send for GrowingBuffer {}

impl GrowingBuffer {
    /// The buffer, with room for at least `elems` floats (contents undefined after a regrowth).
    pub fn ensure(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        elems: i64,
        usage: u32,
    ) -> Result<glow::Buffer> {
        if let Some(g) = self.fitting(elems) {
            return Ok(g.buffer);
        }
        self.delete(gl, ext);
        let buffer = new_buffer(gl, ext, elems.max(1) * 4, usage)?;
        self.0 = Some(Grown {
            buffer,
            elems,
            mapped: None,
        });
        Ok(buffer)
    }

    /// As `ensure`, for a buffer mapped persistently and coherently for reading and writing,
    /// with its mapping.
    pub fn ensure_mapped(
        &mut self,
        gl: &glow::Context,
        ext: &GlExt,
        elems: i64,
    ) -> Result<(glow::Buffer, *mut f32)> {
        if let Some(Grown {
            buffer,
            mapped: Some(p),
            ..
        }) = self.fitting(elems)
        {
            return Ok((*buffer, *p));
        }
        self.delete(gl, ext);
        let (buffer, p) = new_mapped_buffer(gl, ext, elems.max(1) * 4)?;
        self.0 = Some(Grown {
            buffer,
            elems,
            mapped: Some(p),
        });
        Ok((buffer, p))
    }

    /// The buffer as it is, if one was made.
    pub fn existing(&self) -> Option<glow::Buffer> {
        self.0.as_ref().map(|g| g.buffer)
    }

    fn fitting(&self, elems: i64) -> Option<&Grown> {
        self.0.as_ref().filter(|g| g.elems >= elems)
    }

    pub fn delete(&mut self, gl: &glow::Context, ext: &GlExt) {
        if let Some(g) = self.0.take() {
            // The buffer is ours and no longer needed (deleting a mapped buffer unmaps it).
            ext.delete_buffer(gl, g.buffer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::storage_bytes;

    #[test]
    fn buffer_sizes_are_whole_texels_never_powers_of_two() {
        for bytes in [
            1i64,
            4,
            12,
            16,
            20,
            4096,
            1 << 20,
            3 << 20,
            1 << 31,
            (1 << 31) + 4,
        ] {
            let s = storage_bytes(bytes);
            assert!(
                !(s as u64).is_power_of_two() && s >= bytes && s % 16 == 0 && s - bytes < 48,
                "{bytes} -> {s}"
            );
        }
        for bytes in [0i64, 48, 3 << 20, (1 << 31) + 16] {
            assert_eq!(storage_bytes(bytes), bytes);
        }
    }
}
