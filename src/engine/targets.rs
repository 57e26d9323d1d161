//! Render targets: R32F textures attached to framebuffers, which fragment kernels render into.
//! Kept and grown on demand, so steady-state calls allocate no GL objects.

use glow::HasContext;

use crate::status::{Error, Result, Status};

/// Largest target side. 4096² floats is 64 MiB: big enough that launches are few, small enough
/// to keep on a small device. Larger outputs are computed in tiles of this size.
pub const MAX_SIDE: i32 = 4096;

/// How much one launch may take on: the largest target side and the most elements one operand
/// window (a buffer texture) holds. `GLBLAS_LIMIT_TARGET_SIDE` and `GLBLAS_LIMIT_WINDOW` lower
/// them, so tests can make small operands take the tiled paths that large ones take.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub target_side: i32,
    pub window: i64,
}

impl Limits {
    pub fn new(info: &super::context::DeviceInfo) -> Limits {
        let cap = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<i64>().ok())
                .filter(|v| *v > 0)
        };
        let side = i64::from(MAX_SIDE.min(info.max_target_side));
        // A window starts at an aligned offset, so it may hold up to alignment - 1 extra texels.
        let slack = if info.texture_buffer_range {
            info.window_alignment() / 4 - 1
        } else {
            0
        };
        let window = info.max_texture_buffer_size - slack;
        Limits {
            target_side: cap("GLBLAS_LIMIT_TARGET_SIDE").map_or(side, |c| c.clamp(1, side)) as i32,
            window: cap("GLBLAS_LIMIT_WINDOW").map_or(window, |c| c.clamp(1, window)),
        }
    }
}

pub struct Target {
    pub texture: glow::Texture,
    pub framebuffer: glow::Framebuffer,
    width: i32,
    height: i32,
}

/// The kernels need at most two targets at once (a reduction reads one and writes the other).
#[derive(Default)]
pub struct Targets {
    slots: [Option<Target>; 2],
}

impl Targets {
    /// Binds target `slot` (0 or 1), at least `width`×`height`, for drawing, with the viewport set.
    pub fn bind(
        &mut self,
        gl: &glow::Context,
        slot: usize,
        width: i32,
        height: i32,
    ) -> Result<&Target> {
        debug_assert!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE);
        let fits = self.slots[slot]
            .as_ref()
            .is_some_and(|t| t.width >= width && t.height >= height);
        if !fits {
            let (w, h) = match self.slots[slot].take() {
                Some(old) => {
                    let size = (old.width.max(width), old.height.max(height));
                    delete(gl, old);
                    size
                }
                None => (width, height),
            };
            self.slots[slot] = Some(create(gl, w, h)?);
        }
        let t = self.slots[slot].as_ref().expect("target created above");
        // SAFETY: the context is current; the framebuffer is complete (checked at creation).
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(t.framebuffer));
            gl.viewport(0, 0, width, height);
        }
        Ok(t)
    }

    /// The texture of target `slot`, which a later pass samples.
    pub fn texture(&self, slot: usize) -> Option<glow::Texture> {
        self.slots[slot].as_ref().map(|t| t.texture)
    }

    pub fn delete_all(&mut self, gl: &glow::Context) {
        for t in self.slots.iter_mut().filter_map(Option::take) {
            delete(gl, t);
        }
    }
}

fn create(gl: &glow::Context, width: i32, height: i32) -> Result<Target> {
    // SAFETY: the context is current; objects are deleted again on failure.
    unsafe {
        super::drain_gl_errors(gl);
        let texture = gl
            .create_texture()
            .map_err(|e| Error::new(Status::AllocFailed, e))?;
        gl.bind_texture(glow::TEXTURE_2D, Some(texture));
        gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::R32F, width, height);
        super::fault::allocation();
        // Read back with texelFetch only; nearest filtering keeps the texture complete everywhere.
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_MIN_FILTER,
            glow::NEAREST as i32,
        );
        gl.tex_parameter_i32(
            glow::TEXTURE_2D,
            glow::TEXTURE_MAG_FILTER,
            glow::NEAREST as i32,
        );
        gl.bind_texture(glow::TEXTURE_2D, None);
        let framebuffer = match gl.create_framebuffer() {
            Ok(f) => f,
            Err(e) => {
                gl.delete_texture(texture);
                return Err(Error::new(Status::AllocFailed, e));
            }
        };
        let target = Target {
            texture,
            framebuffer,
            width,
            height,
        };
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(framebuffer));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(texture),
            0,
        );
        let complete = gl.check_framebuffer_status(glow::FRAMEBUFFER) == glow::FRAMEBUFFER_COMPLETE;
        if let Err(e) = super::check_gl(gl, "render target") {
            delete(gl, target);
            return Err(e);
        }
        if !complete {
            delete(gl, target);
            return Err(Error::new(
                Status::NotSupported,
                "R32F render targets are not supported",
            ));
        }
        Ok(target)
    }
}

fn delete(gl: &glow::Context, t: Target) {
    // SAFETY: the context is current; both objects belong to this target.
    unsafe {
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.delete_framebuffer(t.framebuffer);
        gl.delete_texture(t.texture);
    }
}
