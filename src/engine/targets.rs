//! Render targets: float textures attached to framebuffers, which fragment kernels render into:
//! one R32F texture, or several RGBA32F textures drawn together (multiple render targets), or
//! read by later passes as 2D textures. Kept and grown on demand, so steady-state calls allocate
//! no GL objects.

use glow::HasContext;

use crate::status::{Error, Result, Status};

/// Largest target side. 4096² floats is 64 MiB: big enough that launches are few, small enough
/// to keep on a small device. Larger outputs are computed in tiles of this size.
pub const MAX_SIDE: i32 = 4096;

/// How much one launch may take on: the largest target side, the most elements one operand
/// window (a buffer texture) holds, the most color attachments one draw writes, and the most
/// rows of C one invocation of the compute sgemm holds in registers.
/// `GLBLAS_LIMIT_TARGET_SIDE`, `GLBLAS_LIMIT_WINDOW`, `GLBLAS_LIMIT_DRAW_BUFFERS` and
/// `GLBLAS_LIMIT_GEMM_ROWS` lower them, so tests can make small operands take the tiled paths
/// that large ones take, and a device take the kernels another device gets.
/// `GLBLAS_GEMM_KERNEL=tiled` or `blocked` chooses the compute gemm's kernel, which the device
/// decides otherwise (see `gemm_compute::Kernel`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub target_side: i32,
    pub window: i64,
    pub draw_buffers: i32,
    pub gemm_rows: i64,
    pub gemm_tiled: Option<bool>,
}

impl Limits {
    pub fn new(info: &super::context::DeviceInfo) -> Limits {
        let side = i64::from(MAX_SIDE.min(info.max_target_side));
        // A window starts at an aligned offset, so it may hold up to alignment - 1 extra texels.
        let slack = if info.texture_buffer_range || info.storage_operands {
            info.window_alignment() / 4 - 1
        } else {
            0
        };
        // Where operands are storage blocks, a window is one block: of doubles, the larger
        // element, so that one bound holds for both precisions.
        let window = if info.storage_operands {
            info.max_storage_block_size / 8 - slack
        } else {
            info.max_texture_buffer_size - slack
        };
        Limits {
            target_side: limit_setting("GLBLAS_LIMIT_TARGET_SIDE")
                .map_or(side, |c| c.clamp(1, side)) as i32,
            window: limit_setting("GLBLAS_LIMIT_WINDOW").map_or(window, |c| c.clamp(1, window)),
            draw_buffers: limit_setting("GLBLAS_LIMIT_DRAW_BUFFERS")
                .map_or(info.max_draw_buffers, |c| {
                    c.clamp(1, i64::from(info.max_draw_buffers)) as i32
                }),
            gemm_rows: limit_setting("GLBLAS_LIMIT_GEMM_ROWS").unwrap_or(i64::MAX),
            gemm_tiled: gemm_kernel_setting(std::env::var("GLBLAS_GEMM_KERNEL").ok().as_deref()),
        }
    }
}

/// What `GLBLAS_GEMM_KERNEL` asks for: the tiled kernel, the blocked one, or (unset or another
/// value) the device's choice.
pub fn gemm_kernel_setting(value: Option<&str>) -> Option<bool> {
    match value {
        Some("tiled") => Some(true),
        Some("blocked") => Some(false),
        _ => None,
    }
}

/// The positive value of limit setting `name` (`GLBLAS_LIMIT_*`), if it is set to one.
pub fn limit_setting(name: &str) -> Option<i64> {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
}

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
        super::drain_gl_errors(gl);
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
        if let Err(e) = super::check_gl(gl, "render target") {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemm_kernel_setting_forces_either_kernel_or_leaves_the_choice() {
        assert_eq!(gemm_kernel_setting(Some("tiled")), Some(true));
        assert_eq!(gemm_kernel_setting(Some("blocked")), Some(false));
        assert_eq!(gemm_kernel_setting(Some("fast")), None);
        assert_eq!(gemm_kernel_setting(None), None);
    }
}
