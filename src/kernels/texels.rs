//! The fragment kernels' texel grids over vectors: fragment t of a grid takes elements
//! 4t - shift .. 4t - shift + 3 of a run of n (in memory order of the grid's vector), so the
//! whole texels in the middle move four elements per load (RGBA32F views of the operands'
//! windows) and per stored texel, and only the partial texels at the two ends go element by
//! element (`common.glsl` has the shader side).

use super::stream;
use crate::engine::jobs::Work;
use crate::engine::operand::{Mem, Vector, Window};
use crate::engine::programs::Program;
use crate::engine::stores::partial_texels;
use crate::engine::Engine;
use crate::status::Result;

/// Scratch views and texture units of the operands' RGBA32F views (units 0..2 are their R32F
/// views), indexed by operand unit.
const RGBA_VIEWS: [(usize, u32); 3] = [(2, 3), (3, 4), (4, 5)];

/// Render-target slots of the texel kernels' outputs, by attachment count (see
/// `engine::targets`): one shares sgemm's RGBA panel target, two (sswap) has its own.
pub const TARGETS: [usize; 2] = [2, 4];

/// A grid of RGBA texels over a run of `n` elements, laid out in rows of `width` texels.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub n: i64,
    pub shift: i64,
    /// The run is the grid's vector in memory order; logical element i lies at n - 1 - i.
    pub reverse: bool,
    pub width: i32,
    pub height: i32,
}

impl Grid {
    /// The grid over `n` elements (at most `capacity`) whose first texel starts `shift`
    /// elements before the first.
    pub fn new(e: &Engine, n: i64, shift: i64, reverse: bool) -> Grid {
        let texels = (n + shift + 3) / 4;
        let width = texels.min(i64::from(e.target_side()));
        Grid {
            n,
            shift,
            reverse,
            width: width as i32,
            height: ((texels + width - 1) / width) as i32,
        }
    }

    /// Most elements one grid takes: as many as one R32F target of the largest side holds (so
    /// an RGBA target holds them in a quarter of the texels), and never more texels than a
    /// target holds whatever the shift.
    pub fn capacity(e: &Engine) -> i64 {
        let side = i64::from(e.target_side());
        if side >= 2 {
            side * side
        } else {
            1
        }
    }

    /// Whether device operand `v`, of as many elements as the grid, can be read whole texels
    /// at a time: unit stride in the grid's order, and its texels line up with the grid's.
    pub fn whole_texels(&self, e: &Engine, v: &Vector) -> bool {
        rgba_viewable(e, v.mem)
            && v.inc == 1
            && !self.reverse
            && stream::phase(e, v.mem) == Some(self.shift)
    }

    pub fn set_uniforms(&self, e: &Engine, p: &Program) {
        let gl = &e.ctx.gl;
        p.set_i32(gl, "uN", self.n as i32);
        p.set_i32(gl, "uShift", self.shift as i32);
        p.set_i32(gl, "uReverse", i32::from(self.reverse));
    }

    /// Binds device operand `v` as `name` on operand unit `unit` (R32F: u<name>, u<name>Start,
    /// u<name>Inc) and, when `rgba`, its RGBA32F view (u<name>4, and u<name>4Shift: the view's
    /// texel holding grid texel t is t + u<name>4Shift).
    pub fn bind(
        &self,
        e: &mut Engine,
        p: &Program,
        unit: usize,
        name: &str,
        v: &Vector,
        rgba: bool,
    ) -> Result<()> {
        e.bind_vector(p, unit, name, v)?;
        if rgba {
            let start = bind_rgba(e, p, unit, name, v.mem, v.span())?;
            p.set_i32(
                &e.ctx.gl,
                &format!("u{name}4Shift"),
                ((start - self.shift) / 4) as i32,
            );
        }
        Ok(())
    }

    /// Draws the program `bind` binds (given whether it is for the partial texels) over the
    /// grid's target: one draw for the whole texels (and, to no effect, the partial ones), then
    /// one of the partial-texel program for each of them, so that no fragment of the big draw
    /// pays for the other case; `work` is what they do (see `Engine::spend`).
    pub fn draw(
        &self,
        e: &mut Engine,
        work: Work,
        mut bind: impl FnMut(&mut Engine, bool) -> Result<()>,
    ) -> Result<()> {
        bind(e, false)?;
        e.spend(work);
        e.draw()?;
        let edges = partial_texels(self.n, self.shift);
        if !edges.is_empty() {
            bind(e, true)?;
            let w = i64::from(self.width);
            for t in edges {
                e.draw_in((t % w) as i32, (t / w) as i32, 1, 1)?;
            }
        }
        Ok(())
    }
}

/// Whether device memory `mem` may be read through an RGBA32F view: where the device allows a
/// second view of an operand's buffer, and the view reaches every element (without
/// glTexBufferRange it covers the whole buffer, and one larger than a view can be is read
/// through R32F copies of its windows, see `OperandUnits::copy_window`).
pub fn rgba_viewable(e: &Engine, mem: Mem) -> bool {
    let fits = match mem {
        Mem::Device { len, .. } => len <= e.ctx.info.max_texture_buffer_size,
        Mem::Host(_) => false,
    };
    e.ctx.info.rgba_operand_views() && (e.ext.tex_buffer_range.is_some() || fits)
}

/// Binds an RGBA32F view of the window over the `span` elements of device memory `mem` as
/// u<name>4 (texture unit by operand unit `unit`); returns the view's element index of `mem`'s
/// first element, a multiple of 4 where that element starts a texel.
pub fn bind_rgba(
    e: &mut Engine,
    p: &Program,
    unit: usize,
    name: &str,
    mem: Mem,
    span: i64,
) -> Result<i64> {
    let Mem::Device {
        buffer,
        offset,
        len,
    } = mem
    else {
        unreachable!("operands are on the device once prepared")
    };
    // Without glTexBufferRange a view covers its whole buffer, as the R32F one does.
    let w = if e.ext.tex_buffer_range.is_some() {
        Window::of(&e.ctx.info, mem, span)
    } else {
        Window {
            buffer,
            first_byte: 0,
            bytes: len * 4,
            start: offset,
        }
    };
    let (view, texture_unit) = RGBA_VIEWS[unit];
    let gl = &e.ctx.gl;
    e.scratch
        .sample::<f32>(gl, &e.ext, view, texture_unit, &w, true)?;
    p.set_i32(gl, &format!("u{name}4"), texture_unit as i32);
    Ok(w.start)
}
