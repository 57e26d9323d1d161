//! The scratch both of gemm's pipelines use: the panels op(A) and op(B) are packed into (or a
//! stored operand read in their place), C's part that goes through scratch, an operand's copy,
//! and copying a part of C out (`copy_out`).

use super::gemm_call::Triangle;
use crate::engine::element::Real;
use crate::engine::operand::{Matrix, Window};
use crate::engine::programs::Program;
use crate::engine::Engine;
use crate::status::Result;

/// Scratch buffers and views of the panels of op(A) and op(B), which both pipelines read as
/// 16-byte-texel buffer textures (see `engine::scratch`), and their texture units (0..2 are the
/// operands').
pub(super) const PANELS: [Panel; 2] = [
    Panel {
        buffer: 0,
        view: 1,
        unit: 3,
    },
    Panel {
        buffer: 1,
        view: 2,
        unit: 4,
    },
];
/// Scratch buffers of both pipelines besides the panels: C's part that goes through scratch (a
/// host C on the compute pipeline; a tile across the diagonal of syrk's triangle on the
/// fragment one), and the copy of an operand that is also C.
pub(super) const OUT: usize = 2;
pub(super) const COPY: usize = 4;

pub(super) struct Panel {
    pub buffer: usize,
    view: usize,
    unit: u32,
}

impl Panel {
    /// Binds this panel, `texels` groups of 4 elements per column and `depth` columns (its scratch buffer
    /// grown to hold them), as sampler `name` of program `p`, with its column step `{name}Step`
    /// (and `{name}Start`, its first texel, 0).
    pub(super) fn bind<T: Real>(
        &self,
        e: &mut Engine,
        p: &Program,
        name: &str,
        texels: i64,
        depth: i64,
    ) -> Result<()> {
        let gl = &e.ctx.gl;
        let elems = texels * 4 * depth;
        let buffer = e.scratch.buffer(gl, &e.ext, self.buffer, T::words(elems))?;
        e.scratch.view(
            gl,
            &e.ext,
            self.view,
            self.unit,
            buffer,
            T::FORMAT16,
            0,
            elems * T::SIZE,
        )?;
        p.set_i32(gl, name, self.unit as i32);
        p.set_i32(gl, &format!("{name}Step"), texels as i32);
        p.set_i32(gl, &format!("{name}Start"), 0);
        Ok(())
    }

    /// Binds stored matrix `m` itself in this panel's place, from its element `first` (a
    /// multiple of 4, as are m's window start and ld: see `gemm_compute::Source`), as sampler
    /// `name` of `p` in 16-byte texels, with `{name}Start` its first group of 4 and `{name}Step`
    /// its columns' step.
    pub(super) fn bind_in_place<T: Real>(
        &self,
        e: &mut Engine,
        p: &Program,
        name: &str,
        (m, first): (&Matrix<T>, i64),
    ) -> Result<()> {
        let gl = &e.ctx.gl;
        let w = Window::of(&e.ctx.info, m.mem, m.span());
        e.scratch
            .sample::<T>(gl, &e.ext, self.view, self.unit, &w, true)?;
        p.set_i32(gl, name, self.unit as i32);
        p.set_i32(gl, &format!("{name}Start"), ((w.start + first) / 4) as i32);
        p.set_i32(gl, &format!("{name}Step"), (m.ld / 4) as i32);
        Ok(())
    }
}

/// Copies the elements of device matrix `src` into `dst` (host or device, the same shape): in
/// one copy where both are packed and all of it goes, else column by column. With
/// `triangle` = (t, d), only the elements in triangle t of a square matrix of which `dst` is
/// the block from row i0 and column j0, d = j0 - i0 (its element (i, j) is in the lower
/// triangle when i >= j + d, in the upper one when i <= j + d). `parts` rows make an element:
/// 2 for a complex matrix's real view, whose triangle is its elements'.
pub(super) fn copy_out<T: Real>(
    e: &Engine,
    src: &Matrix<T>,
    dst: &Matrix<T>,
    triangle: Option<(Triangle, i64)>,
    parts: i64,
) -> Result<()> {
    let (m, n) = (src.rows, src.cols);
    if triangle.is_none() && src.ld == m && dst.ld == m {
        return e.copy(src.mem, dst.mem, m * n);
    }
    for j in 0..n {
        let (r0, r1) = match triangle {
            None => (0, m),
            Some((Triangle::Lower, d)) => ((parts * (j + d)).clamp(0, m), m),
            Some((Triangle::Upper, d)) => (0, (parts * (j + d + 1)).clamp(0, m)),
        };
        if r0 < r1 {
            let (from, to) = (j * src.ld + r0, j * dst.ld + r0);
            e.copy(src.mem.advance(from), dst.mem.advance(to), r1 - r0)?;
        }
    }
    Ok(())
}
