//! Render targets: float textures attached to framebuffers, which fragment kernels render into:
//! one R32F texture, or several RGBA32F textures drawn together (multiple render targets), or
//! read by later passes as 2D textures. Kept and grown on demand, so steady-state calls allocate
//! no GL objects.

use glow::HasContext;

use super::gl_errors::{check_gl, drain_gl_errors};
use super::limits::MAX_SIDE;
use crate::status::{Error, Result, Status};

/// What a target holds: `attachments` color textures of internal format `format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    pub format: u32,
    pub attachments: usize,
}

impl Kind {
    /// One float per texel: the vector kernels' outputs.
    pub const R32F: Kind = Kind {
        format: glow::R32F,
        attachments: 1,
    };

    /// `attachments` RGBA32F textures, drawn together.
    pub fn rgba(attachments: usize) -> Kind {
        Kind {
            format: glow::RGBA32F,
            attachments,
        }
    }
}

pub struct Target {
    pub textures: Vec<glow::Texture>,
    pub framebuffer: glow::Framebuffer,
    kind: Kind,
    width: i32,
    height: i32,
}

/// Slots 0 and 1 are R32F (a reduction reads one and writes the other; sgemm's edge pass writes
/// slot 0); sgemm's blocked kernel uses 2 and 3 (where it packs its panels, and its
/// multiple-render-target output); the vector kernels' texel grids use 2 (one RGBA output) and
/// 4 (sswap's two).
pub const SLOTS: usize = 5;

#[derive(Default)]
pub struct Targets {
    slots: [Option<Target>; SLOTS],
}

impl Targets {
    /// Binds target `slot` of `kind`, at least `width`×`height`, for drawing into all its
    /// attachments, with the viewport set.
    pub fn bind(
        &mut self,
        gl: &glow::Context,
        slot: usize,
        kind: Kind,
        width: i32,
        height: i32,
    ) -> Result<&Target> {
        debug_assert!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE);
        let fits = self.slots[slot]
            .as_ref()
            .is_some_and(|t| t.kind == kind && t.width >= width && t.height >= height);
        if !fits {
            let (w, h) = match self.slots[slot].take() {
                Some(old) => {
                    let size = if old.kind == kind {
                        (old.width.max(width), old.height.max(height))
                    } else {
                        (width, height)
                    };
                    delete(gl, old);
                    size
                }
                None => (width, height),
            };
            self.slots[slot] = Some(create(gl, kind, w, h)?);
        }
        let t = self.slots[slot].as_ref().expect("target created above");
        // SAFETY: the context is current; the framebuffer is complete (checked at creation).
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(t.framebuffer));
            gl.viewport(0, 0, width, height);
        }
        Ok(t)
    }

    /// The textures of target `slot` (none if it was never made), which a later pass samples.
    pub fn textures(&self, slot: usize) -> &[glow::Texture] {
        self.slots[slot].as_ref().map_or(&[], |t| &t.textures)
    }

    pub fn delete_all(&mut self, gl: &glow::Context) {
        for t in self.slots.iter_mut().filter_map(Option::take) {
            delete(gl, t);
        }
    }
}

fn create(gl: &glow::Context, kind: Kind, width: i32, height: i32) -> Result<Target> {
    // SAFETY: the context is current; objects are deleted again on failure.
    unsafe {
        drain_gl_errors(gl);
        let framebuffer = gl
            .create_framebuffer()
            .map_err(|e| Error::new(Status::AllocFailed, e))?;
        let mut target = Target {
            textures: Vec::with_capacity(kind.attachments),
            framebuffer,
            kind,
            width,
            height,
        };
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        let mut buffers = Vec::with_capacity(kind.attachments);
        for i in 0..kind.attachments {
            let texture = match gl.create_texture() {
                Ok(t) => t,
                Err(e) => {
                    delete(gl, target);
                    return Err(Error::new(Status::AllocFailed, e));
                }
            };
            target.textures.push(texture);
            gl.bind_texture(glow::TEXTURE_2D, Some(texture));
            gl.tex_storage_2d(glow::TEXTURE_2D, 1, kind.format, width, height);
            super::fault::allocation();
            // Read back with texelFetch only; nearest filtering keeps the texture complete.
            for filter in [glow::TEXTURE_MIN_FILTER, glow::TEXTURE_MAG_FILTER] {
                gl.tex_parameter_i32(glow::TEXTURE_2D, filter, glow::NEAREST as i32);
            }
            let attachment = glow::COLOR_ATTACHMENT0 + i as u32;
            gl.framebuffer_texture_2d(
                glow::FRAMEBUFFER,
                attachment,
                glow::TEXTURE_2D,
                Some(texture),
                0,
            );
            buffers.push(attachment);
        }
        gl.bind_texture(glow::TEXTURE_2D, None);
        gl.draw_buffers(&buffers);
        let complete = gl.check_framebuffer_status(glow::FRAMEBUFFER) == glow::FRAMEBUFFER_COMPLETE;
        if let Err(e) = check_gl(gl, "render target") {
            delete(gl, target);
            return Err(e);
        }
        if !complete {
            delete(gl, target);
            return Err(Error::new(
                Status::NotSupported,
                format!("render targets of {kind:?} are not supported"),
            ));
        }
        Ok(target)
    }
}

fn delete(gl: &glow::Context, t: Target) {
    // SAFETY: the context is current; the objects belong to this target.
    unsafe {
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(t.framebuffer);
        for texture in t.textures {
            gl.delete_texture(texture);
        }
    }
}
