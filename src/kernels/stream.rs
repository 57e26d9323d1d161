//! What the one-dimensional compute kernels over vectors share (`level1_compute`,
//! `dot_compute`): staging host operands so that their texels line up with a device operand's,
//! viewing an operand for four-at-a-time and one-at-a-time reads, and the dispatch.

use glow::HasContext;

use crate::engine::operand::{Mem, Vector, Window};
use crate::engine::programs::Program;
use crate::engine::Engine;
use crate::status::Result;

/// Invocations per workgroup, as the shaders declare it.
const GROUP: i64 = 64;

/// A vector operand on the device (staged if it came from the host) and its window.
#[derive(Clone, Copy)]
pub struct Operand {
    pub v: Vector,
    pub w: Window,
}

impl Operand {
    pub fn new(e: &Engine, v: Vector) -> Operand {
        Operand {
            w: Window::of(&e.ctx.info, v.mem, v.span()),
            v,
        }
    }

    /// Window index of logical element 0 (the highest address for a negative increment).
    pub fn start(&self) -> i64 {
        self.w.start + self.v.index(0)
    }

    /// Binds the operand for sampling as `u<name>1` (R32F) on texture unit `unit`, and when
    /// `rgba` also as `u<name>4` (RGBA32F) on `unit + 2`, with `u<name>Start` and `u<name>Inc`.
    pub fn sample(
        &self,
        e: &mut Engine,
        p: &Program,
        name: &str,
        unit: u32,
        rgba: bool,
    ) -> Result<()> {
        let gl = &e.ctx.gl;
        e.scratch
            .sample(gl, &e.ext, unit as usize, unit, &self.w, false)?;
        p.set_i32(gl, &format!("u{name}1"), unit as i32);
        if rgba {
            e.scratch
                .sample(gl, &e.ext, unit as usize + 2, unit + 2, &self.w, true)?;
            p.set_i32(gl, &format!("u{name}4"), unit as i32 + 2);
        }
        p.set_i32(gl, &format!("u{name}Start"), self.start() as i32);
        p.set_i32(gl, &format!("u{name}Inc"), self.v.inc as i32);
        Ok(())
    }
}

/// Where a device vector's lowest element lies relative to texel boundaries once viewed.
fn phase(e: &Engine, v: &Vector) -> Option<i64> {
    v.mem
        .is_device()
        .then(|| Window::of(&e.ctx.info, v.mem, 1).start % 4)
}

/// The staging offset for host operands that puts their texels in line with the device
/// operands' (when those agree).
pub fn pad(e: &Engine, vectors: &[&Vector]) -> i64 {
    vectors.iter().find_map(|v| phase(e, v)).unwrap_or(0)
}

/// Whether operands can be read four elements at a time: unit stride, aligned alike, and long
/// enough to hold a whole texel.
pub fn vec4(ops: &[&Operand]) -> bool {
    ops.iter()
        .all(|o| o.v.inc == 1 && o.v.n >= 8 && o.w.start % 4 == ops[0].w.start % 4)
}

/// Dispatches the bound program over `items` work items, each invocation looping over its
/// share, with barriers ordering it after earlier shader writes and later reads after its own.
/// Returns the workgroup count (see `groups`).
pub fn dispatch(e: &Engine, items: i64, what: &str) -> Result<i64> {
    crate::engine::fault::check_launch()?;
    let groups = groups(e, items);
    let gl = &e.ctx.gl;
    // SAFETY: the context is current; the caller bound the program and its operands.
    unsafe {
        gl.memory_barrier(glow::ALL_BARRIER_BITS);
        gl.dispatch_compute(groups as u32, 1, 1);
        gl.memory_barrier(glow::ALL_BARRIER_BITS);
    }
    crate::engine::check_gl(gl, what)?;
    Ok(groups)
}

/// Workgroups `dispatch` launches for `items`: a software rasterizer gets a few per core (each
/// costs it a task), a GPU enough to fill it.
pub fn groups(e: &Engine, items: i64) -> i64 {
    let most = if e.ctx.info.software { 256 } else { 16384 };
    ((items + GROUP - 1) / GROUP).clamp(1, most)
}

/// Items a kernel over `o` loops over: whole texels plus the partial ones at both ends, or
/// elements.
pub fn items(o: &Operand, rgba: bool) -> i64 {
    if rgba {
        (o.v.n + o.w.start % 4 + 3) / 4
    } else {
        o.v.n
    }
}

/// A host vector's staged copy, or the device vector itself.
pub fn staged(e: &mut Engine, unit: usize, v: &Vector, pad: i64) -> Result<Operand> {
    let d = e.upload_vector_padded(unit, v, pad)?;
    Ok(Operand::new(e, d))
}

/// For a host vector the kernel writes without reading, staging room for it (nothing copied).
pub fn output(e: &mut Engine, unit: usize, v: &Vector, pad: i64) -> Result<Operand> {
    let Mem::Host(_) = v.mem else {
        return Ok(Operand::new(e, *v));
    };
    let buffer = e.staging.output(&e.ctx.gl, &e.ext, unit, pad + v.n)?;
    let d = Vector {
        mem: Mem::Device {
            buffer,
            offset: pad,
            len: pad + v.n,
        },
        n: v.n,
        inc: v.inc.signum(),
    };
    Ok(Operand::new(e, d))
}

/// Copies the staged elements of host vector `v` (packed, `pad` elements into staging buffer
/// `unit`) back into it, once the device has written them.
pub fn copy_back(e: &mut Engine, unit: usize, pad: i64, v: &Vector) -> Result<()> {
    let Mem::Host(dst) = v.mem else {
        return Ok(());
    };
    let step = v.inc.unsigned_abs() as usize;
    e.staging
        .read_mapped(&e.ctx.gl, &e.ext, unit, pad + v.n, |staged| {
            let staged = &staged[pad as usize..];
            // SAFETY: the caller vouches for `n` elements at stride |inc| from `dst`, the
            // lowest; the staged copy is in the same (memory) order.
            unsafe {
                if step <= 1 {
                    std::ptr::copy_nonoverlapping(staged.as_ptr(), dst, staged.len());
                } else {
                    for (r, v) in staged.iter().enumerate() {
                        *dst.add(r * step) = *v;
                    }
                }
            }
        })
}
