//! Counts the GL objects that exist in the engine's context, by asking GL about every name
//! rather than trusting the engine's own bookkeeping: the leak tests compare these counts before
//! and after thousands of calls.

use std::num::NonZeroU32;

use glow::HasContext;

use super::with_engine;
use crate::status::{Error, Result, Status};

/// Live GL objects of each kind in the engine's context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlObjects {
    pub buffers: u32,
    pub textures: u32,
    pub framebuffers: u32,
    /// Programs and shaders (one name space in GL).
    pub programs_and_shaders: u32,
}

/// Names above the highest one handed out can be live when a driver reuses freed names (then
/// live names may sit above the lowest free one); this many more are probed past a fresh name.
const PROBE_MARGIN: u32 = 4096;

/// The GL objects alive in the engine's context now (creating the context if there is none).
pub fn gl_objects() -> Result<GlObjects> {
    with_engine(|e| {
        let gl = &e.ctx.gl;
        // SAFETY: the context is current; the probes only query names, and the fresh names
        // made to bound them are deleted again at once.
        unsafe {
            let fresh = |name: std::result::Result<NonZeroU32, String>| {
                name.map(|n| n.get() + PROBE_MARGIN)
                    .map_err(|e| Error::new(Status::AllocFailed, e))
            };
            let b = gl.create_buffer().map(|b| b.0);
            let t = gl.create_texture().map(|t| t.0);
            let f = gl.create_framebuffer().map(|f| f.0);
            let p = gl.create_program().map(|p| p.0);
            // The fresh names only bound the probes; none of them was ever bound, so a probe
            // would not count it anyway.
            if let Ok(n) = b {
                gl.delete_buffer(glow::NativeBuffer(n));
            }
            if let Ok(n) = t {
                gl.delete_texture(glow::NativeTexture(n));
            }
            if let Ok(n) = f {
                gl.delete_framebuffer(glow::NativeFramebuffer(n));
            }
            if let Ok(n) = p {
                gl.delete_program(glow::NativeProgram(n));
            }
            let (b_end, t_end, f_end, p_end) = (fresh(b)?, fresh(t)?, fresh(f)?, fresh(p)?);
            let count = |end: u32, live: &dyn Fn(NonZeroU32) -> bool| {
                (1..end)
                    .filter_map(NonZeroU32::new)
                    .filter(|&n| live(n))
                    .count() as u32
            };
            Ok(GlObjects {
                buffers: count(b_end, &|n| gl.is_buffer(glow::NativeBuffer(n))),
                textures: count(t_end, &|n| gl.is_texture(glow::NativeTexture(n))),
                framebuffers: count(f_end, &|n| gl.is_framebuffer(glow::NativeFramebuffer(n))),
                programs_and_shaders: count(p_end, &|n| {
                    gl.is_program(glow::NativeProgram(n)) || gl.is_shader(glow::NativeShader(n))
                }),
            })
        }
    })
}
