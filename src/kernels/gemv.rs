//! sgemv: y := alpha*op(A)*x + beta*y, column-major A.
//!
//! The compute kernel (`gemv_compute.rs`) takes calls whose operands each fit one window, where
//! the device has the compute pipeline. Otherwise, the fragment kernel's loop structure: y is cut into chunks of at most one render target; each chunk is one draw,
//! one fragment per element of y. When A's or x's part does not fit one buffer-texture window,
//! or the inner dimension is longer than one shader loop may run (`MAX_LOOP_ITERATIONS`), it is
//! cut into chunks whose products are added into y in turn (beta applies to the first only).

use crate::engine::operand::{Matrix, OutLayout, Vector};
use crate::engine::Engine;
use crate::status::{Error, Result};

const FRAG: &str = include_str!("../../shaders/gemv.frag");

/// An sgemv call. A is stored m×n; op(A) is A or its transpose (`trans`).
pub struct Gemv {
    pub trans: bool,
    pub alpha: f32,
    pub beta: f32,
    /// `None` when alpha == 0: A and x are not read.
    pub ax: Option<(Matrix, Vector)>,
    /// Length leny of y, the rows of op(A).
    pub y: Vector,
}

pub fn sgemv(e: &mut Engine, g: &Gemv) -> Result<()> {
    if super::compute_available(e) && super::gemv_compute::fits(e, g) {
        return super::gemv_compute::sgemv(e, g);
    }
    let k = g.ax.as_ref().map_or(0, |(_, x)| x.n);
    let (tm, tk) = plan(e, g, k)?;
    let mut i0 = 0;
    while i0 < g.y.n {
        let i1 = (i0 + tm).min(g.y.n);
        let ys = g.y.slice(i0, i1);
        let mut l0 = 0;
        loop {
            let l1 = (l0 + tk).min(k);
            let beta = if l0 == 0 { g.beta } else { 1.0 };
            let ax = match &g.ax {
                Some((a, x)) => {
                    let a = if g.trans {
                        a.block(l0, l1, i0, i1)
                    } else {
                        a.block(i0, i1, l0, l1)
                    };
                    Some((
                        e.upload_matrix(0, &a)?,
                        e.upload_vector(1, &x.slice(l0, l1))?,
                    ))
                }
                None => None,
            };
            let yd = if beta != 0.0 {
                Some(e.upload_vector(2, &ys)?)
            } else {
                None
            };
            let layout = OutLayout::for_vector(&ys, e.target_side());
            e.target(0, layout.width, layout.height)?;
            let p = e.program("gemv", FRAG, &[])?;
            let gl = &e.ctx.gl;
            if let Some((a, x)) = &ax {
                e.bind_matrix(&p, 0, "A", a, g.trans)?;
                e.bind_vector(&p, 1, "X", x)?;
            }
            if let Some(yd) = &yd {
                e.bind_vector(&p, 2, "Y", yd)?;
            }
            layout.set_uniforms(gl, &p);
            p.set_i32(gl, "uK", (l1 - l0) as i32);
            p.set_f32(gl, "uAlpha", g.alpha);
            p.set_f32(gl, "uBeta", beta);
            p.set_i32(gl, "uUseAx", i32::from(ax.is_some()));
            p.set_i32(gl, "uReadY", i32::from(yd.is_some()));
            e.draw()?;
            e.store_vector(&layout, &ys)?;
            l0 = l1;
            if l0 >= k {
                break;
            }
        }
        i0 = i1;
    }
    Ok(())
}

/// Elements of y per draw and of the inner dimension per chunk, so that every operand part
/// fits one window (halve the dimension that sets an oversized part's extent) and no chunk of
/// the inner dimension exceeds `MAX_LOOP_ITERATIONS`.
fn plan(e: &Engine, g: &Gemv, k: i64) -> Result<(i64, i64)> {
    let (mut tm, mut tk) = (
        g.y.n.min(OutLayout::capacity(g.y.inc, e.target_side())),
        // gemv.frag loops over the chunk's inner dimension.
        k.clamp(1, super::MAX_LOOP_ITERATIONS),
    );
    let window = e.max_window();
    for _ in 0..256 {
        if let Some((a, x)) = &g.ax {
            // A's part is tm×tk as op(A), stored transposed when `trans`.
            let (rows, cols) = if g.trans { (tk, tm) } else { (tm, tk) };
            if super::window_elems(a, rows, cols) > window {
                match (g.trans, cols > 1) {
                    (false, true) | (true, false) => tk = (tk + 1) / 2,
                    _ => tm = (tm + 1) / 2,
                }
                continue;
            }
            if super::vector_window(x, tk) > window {
                tk = (tk + 1) / 2;
                continue;
            }
        }
        if g.beta != 0.0 && super::vector_window(&g.y, tm) > window {
            tm = (tm + 1) / 2;
            continue;
        }
        return Ok((tm, tk));
    }
    Err(Error::overflow(
        "no tiling fits the operands in buffer-texture windows",
    ))
}
