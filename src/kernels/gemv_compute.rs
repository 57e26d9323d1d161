//! sgemv on the compute pipeline (`gemv.comp`), for calls whose operands each fit one window;
//! larger ones take the fragment kernel's chunks. x and y go through `stream::prepare` like the
//! level-1 operands; A is used in place (device memory, or host memory the device can map) or
//! copied packed into staging. The inner dimension is cut into launches of at most
//! `MAX_LOOP_ITERATIONS` (beta applies to the first; later ones add into y as written so far).

use super::gemv::Gemv;
use super::stream::{self, Access};
use crate::engine::operand::{Matrix, Window};
use crate::engine::Engine;
use crate::status::Result;

const COMP: &str = include_str!("../../shaders/gemv.comp");

/// Texture units of the views: x, y, and A as R32F and RGBA32F.
const SAMPLE_X: u32 = 0;
const SAMPLE_Y: u32 = 1;
const SAMPLE_A: u32 = 2;
const SAMPLE_A4: u32 = 3;
/// Staging unit of a host A (y and x take the first two).
const UNIT_A: usize = 2;
const STORE_Y: u32 = 0;

/// Whether the call can take this kernel: A and x are read (alpha != 0) and every operand fits
/// one window.
pub fn fits(e: &Engine, g: &Gemv) -> bool {
    let w = e.max_window();
    match &g.ax {
        Some((a, x)) => a.span() <= w && x.span() <= w && g.y.span() <= w,
        None => false,
    }
}

/// The longest part of the inner dimension one launch takes: a multiple of 4 (see gemv.comp)
/// within llvmpipe's loop budget, which leaves the loop over y's elements, the only other
/// rolled loop, a few iterations (its short loops are unrolled; `tests/long_loops.rs`).
const CHUNK: i64 = super::MAX_LOOP_ITERATIONS / 4 * 4;

pub fn sgemv(e: &mut Engine, g: &Gemv) -> Result<()> {
    let Some((a, x)) = &g.ax else {
        unreachable!("`fits` requires A and x")
    };
    let y_access = if g.beta != 0.0 {
        Access::Read
    } else {
        Access::Write
    };
    let ops = stream::prepare(e, &[(&g.y, y_access), (x, Access::Read)])?;
    let (yd, xd) = (ops[0], ops[1]);
    let ad: Matrix = match e.pin_matrix(a) {
        Some(pinned) => pinned,
        None => e.upload_matrix(UNIT_A, a)?,
    };
    let aw = Window::of(&e.ctx.info, ad.mem, ad.span());
    let vec4 = aw.start % 4 == 0 && ad.ld % 4 == 0 && ad.rows >= 4;
    let mut defines = Vec::new();
    if g.trans {
        defines.push(("TRANS", "1".to_string()));
    }
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("gemv.comp", COMP, &defines)?;
    xd.sample(e, &p, "X", SAMPLE_X, false)?;
    yd.sample(e, &p, "Y", SAMPLE_Y, false)?;
    yd.w.bind_storage(&e.ext, STORE_Y);
    let gl = &e.ctx.gl;
    e.scratch
        .sample(gl, &e.ext, SAMPLE_A as usize, SAMPLE_A, &aw, false)?;
    p.set_i32(gl, "uA1", SAMPLE_A as i32);
    if vec4 {
        e.scratch
            .sample(gl, &e.ext, SAMPLE_A4 as usize, SAMPLE_A4, &aw, true)?;
        p.set_i32(gl, "uA4", SAMPLE_A4 as i32);
    }
    p.set_i32(gl, "uM", ad.rows as i32);
    p.set_i32(gl, "uN", ad.cols as i32);
    p.set_i32(gl, "uAStart", aw.start as i32);
    p.set_i32(gl, "uLd", ad.ld as i32);
    p.set_f32(gl, "uAlpha", g.alpha);
    let items = if g.trans { ad.cols } else { (ad.rows + 3) / 4 };
    let mut l0 = 0;
    while l0 < x.n {
        let l1 = (l0 + CHUNK).min(x.n);
        let beta = if l0 == 0 { g.beta } else { 1.0 };
        let gl = &e.ctx.gl;
        p.set_i32(gl, "uL0", l0 as i32);
        p.set_i32(gl, "uL1", l1 as i32);
        p.set_f32(gl, "uBeta", beta);
        p.set_i32(gl, "uReadY", i32::from(beta != 0.0));
        stream::dispatch(e, items, "gemv dispatch")?;
        l0 = l1;
    }
    stream::copy_back(e, 0, &yd)
}
