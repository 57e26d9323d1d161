//! gemv on the compute pipeline (`gemv.comp`), in single or double precision, real or complex
//! (a complex A read by elements, never four at a time), for calls whose
//! operands each fit one window; larger ones take the fragment kernel's chunks (single
//! precision). x and y go through `stream::prepare` like the level-1 operands; A is used in
//! place (device memory, or host memory the device can map) or copied packed into staging. The
//! inner dimension is cut into launches of at most `MAX_LOOP_ITERATIONS` (beta applies to the
//! first; later ones add into y as written so far). Without A and x (alpha = 0) one launch
//! scales y by beta.

use super::gemv_call::Gemv;
use super::stream::{self, Access};
use crate::engine::element::Scalar;
use crate::engine::jobs::Work;
use crate::engine::operand::Window;
use crate::engine::tuning::Vectors;
use crate::engine::Engine;
use crate::status::Result;

const COMP: &str = include_str!("../../shaders/gemv.comp");

/// Texture units of the views: x, y, and A one element per texel and in 16-byte texels.
const SAMPLE_X: u32 = 0;
const SAMPLE_Y: u32 = 1;
const SAMPLE_A: u32 = 2;
const SAMPLE_A4: u32 = 3;
/// Staging unit of a host A (y and x take the first two).
const UNIT_A: usize = 2;
const STORE_Y: u32 = 0;

/// Whether the call can take this kernel: every operand fits one window (host operands are
/// copied packed, unless used in place where they fit one).
pub fn fits<T: Scalar>(e: &Engine, g: &Gemv<T>) -> bool {
    let w = super::max_window::<T>(e);
    super::vector_window(&g.y, g.y.n) <= w
        && g.ax.as_ref().is_none_or(|(a, x)| {
            super::window_elems(a, a.rows, a.cols) <= w && super::vector_window(x, x.n) <= w
        })
}

/// The longest part of the inner dimension one launch takes: a multiple of 4 (see gemv.comp)
/// within llvmpipe's loop budget, which leaves the loop over y's elements, the only other
/// rolled loop, a few iterations (its short loops are unrolled; `tests/long_loops.rs`).
const CHUNK: i64 = super::MAX_LOOP_ITERATIONS / 4 * 4;

pub fn gemv<T: Scalar>(e: &mut Engine, g: &Gemv<T>) -> Result<()> {
    let y_access = if g.beta != T::ZERO {
        Access::Read
    } else {
        Access::Write
    };
    let (yd, xd, ad) = match &g.ax {
        Some((a, x)) => {
            let ops = stream::prepare(e, &[(&g.y, y_access), (x, Access::Read)])?;
            let ad = super::gemm_compute::resident(e, UNIT_A, a)?;
            (ops[0], Some(ops[1]), Some(ad))
        }
        None => (stream::prepare(e, &[(&g.y, y_access)])?[0], None, None),
    };
    // A's stored shape; without A (alpha = 0) the inner dimension is empty.
    let (m, n) = match (&ad, g.trans) {
        (Some(a), _) => (a.rows, a.cols),
        (None, false) => (yd.v.n, 0),
        (None, true) => (0, yd.v.n),
    };
    let vec4 = !T::COMPLEX && ad.is_some_and(|a| a.columns_in_texels(&e.ctx.info) && a.rows >= 4);
    let (group, group_define) = stream::group(e, Vectors::Gemv);
    let mut defines = super::real_defines::<T>();
    defines.push(group_define);
    if g.trans {
        defines.push(("TRANS", "1".to_string()));
    }
    if g.conjugate {
        defines.push(("CONJ_A", "1".to_string()));
    }
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("gemv.comp", COMP, &defines)?;
    if let Some(xd) = &xd {
        xd.sample(e, &p, "X", SAMPLE_X, false)?;
    }
    yd.sample(e, &p, "Y", SAMPLE_Y, false)?;
    yd.w.bind_storage(&e.ext, STORE_Y);
    let gl = &e.ctx.gl;
    if let Some(a) = &ad {
        let aw = &Window::of(&e.ctx.info, a.mem, a.span());
        e.scratch
            .sample::<T>(gl, &e.ext, SAMPLE_A as usize, SAMPLE_A, aw, false)?;
        p.set_i32(gl, "uA1", SAMPLE_A as i32);
        if vec4 {
            e.scratch
                .sample::<T>(gl, &e.ext, SAMPLE_A4 as usize, SAMPLE_A4, aw, true)?;
            p.set_i32(gl, "uA4", SAMPLE_A4 as i32);
        }
        p.set_i32(gl, "uAStart", aw.start as i32);
        p.set_i32(gl, "uLd", a.ld as i32);
    }
    p.set_i32(gl, "uM", m as i32);
    p.set_i32(gl, "uN", n as i32);
    p.set_real(gl, "uAlpha", g.alpha);
    let items = if g.trans { n } else { (m + 3) / 4 };
    let k = xd.map_or(0, |x| x.v.n);
    // Within the dispatch budget too: each step of the inner dimension reads a row or column
    // of A (`Limits::dispatch_bytes`), in whole groups of 4.
    let per_step = (if g.trans { n } else { m }).max(1) as f64 * T::SIZE as f64;
    let budget = (e.limits.dispatch_bytes / per_step) as i64 / 4 * 4;
    let chunk = CHUNK.min(budget.max(4));
    let mut l0 = 0;
    loop {
        let l1 = (l0 + chunk).min(k);
        let beta = if l0 == 0 { g.beta } else { T::ONE };
        let gl = &e.ctx.gl;
        p.set_i32(gl, "uL0", l0 as i32);
        p.set_i32(gl, "uL1", l1 as i32);
        p.set_real(gl, "uBeta", beta);
        p.set_i32(gl, "uReadY", i32::from(beta != T::ZERO));
        let work = Work::Bytes((l1 - l0) as f64 * per_step);
        stream::dispatch(e, items, group, work, "gemv dispatch")?;
        l0 = l1;
        if l0 >= k {
            break;
        }
    }
    stream::copy_back(e, 0, &yd)
}
