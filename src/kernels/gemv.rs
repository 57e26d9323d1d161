//! gemv: y := alpha*op(A)*x + beta*y, column-major A, in single or double precision, real or
//! complex (the compute kernel only: see `precision_available`).
//!
//! The compute kernel (`gemv_compute.rs`) takes the calls of a device with the compute
//! pipeline, in parts where an operand exceeds one window (`in_parts`: y cut into parts, and
//! the inner dimension into chunks whose products are added into y in turn, beta applying to
//! the first only). Otherwise, in single precision, the fragment kernel, in parts of the same
//! kind: y in parts of at most one render target, each one draw, four elements of y per
//! fragment on a texel grid where y is unit-stride (see `texels.rs`), one otherwise; and the
//! inner dimension also in chunks no longer than one shader loop may run
//! (`MAX_LOOP_ITERATIONS`); both cut further where a draw would outrun the dispatch budget.

use super::gemv_call::Gemv;
use super::stream;
use super::texels::{self, Grid};
use crate::engine::element::Scalar;
use crate::engine::jobs::Work;
use crate::engine::operand::{Matrix, Vector};
use crate::engine::programs::Program;
use crate::engine::stores::OutLayout;
use crate::engine::targets::Kind;
use crate::engine::Engine;
use crate::status::{Error, Result};

const FRAG: &str = include_str!("../../shaders/gemv.frag");

/// Computes `g` on the compute pipeline where it can, else (single precision only: see
/// `precision_available`) on the fragment pipeline; in parts where an operand exceeds one
/// window (or, on the fragment pipeline, y one render target or the inner dimension one
/// shader loop).
pub fn gemv<T: Scalar>(e: &mut Engine, g: &Gemv<T>) -> Result<()> {
    let k = g.ax.as_ref().map_or(0, |(_, x)| x.n);
    if super::compute_available(e) {
        if super::gemv_compute::fits(e, g) {
            return super::gemv_compute::gemv(e, g);
        }
        // gemv_compute cuts the inner dimension into launches itself.
        let plan = plan(e, g, k, (g.y.n, k), false)?;
        return in_parts(g, k, plan, |part| {
            if !super::gemv_compute::fits(e, part) {
                return Err(Error::overflow(
                    "no cut fits the gemv operands in the compute kernel's windows",
                ));
            }
            super::gemv_compute::gemv(e, part)
        });
    }
    let Some(g) = super::single::<Gemv<T>, Gemv>(g) else {
        return Err(super::no_fragment_double());
    };
    let texels = g.y.inc.abs() == 1;
    let cap = if texels {
        Grid::capacity(e)
    } else {
        OutLayout::capacity(g.y.inc, e.target_side())
    };
    // gemv.frag loops over the chunk's inner dimension.
    let plan = plan(e, g, k, (cap, super::MAX_LOOP_ITERATIONS), texels)?;
    in_parts(g, k, plan, |part| {
        let p = Part {
            alpha: part.alpha,
            beta: part.beta,
            trans: part.trans,
            ax: part.ax,
        };
        if texels {
            p.texels(e, &part.y)
        } else {
            p.elements(e, &part.y)
        }
    })
}

/// Runs `g` as parts of `tm` elements of y by `tk` of the inner dimension `k`, each a gemv of
/// the same kind given to `run`, whose products are added into y's part in turn (beta applies
/// to the first only).
fn in_parts<T: Scalar>(
    g: &Gemv<T>,
    k: i64,
    (tm, tk): (i64, i64),
    mut run: impl FnMut(&Gemv<T>) -> Result<()>,
) -> Result<()> {
    let mut i0 = 0;
    while i0 < g.y.n {
        let i1 = (i0 + tm).min(g.y.n);
        let mut l0 = 0;
        loop {
            let l1 = (l0 + tk).min(k);
            let ax = g.ax.as_ref().map(|(a, x)| {
                let a = if g.trans {
                    a.block(l0, l1, i0, i1)
                } else {
                    a.block(i0, i1, l0, l1)
                };
                (a, x.slice(l0, l1))
            });
            run(&Gemv {
                trans: g.trans,
                conjugate: g.conjugate,
                alpha: g.alpha,
                beta: if l0 == 0 { g.beta } else { T::ONE },
                ax,
                y: g.y.slice(i0, i1),
            })?;
            l0 = l1;
            if l0 >= k {
                break;
            }
        }
        i0 = i1;
    }
    Ok(())
}

/// One launch: y's part := alpha*op(A's part)*x's part + beta*y's part.
struct Part {
    alpha: f32,
    beta: f32,
    trans: bool,
    ax: Option<(Matrix, Vector)>,
}

impl Part {
    /// What the launch does for y's part `ys`: A's part and x read, y read and written.
    fn work(&self, ys: &Vector) -> Work {
        let a = self.ax.as_ref().map_or(0, |(a, x)| a.rows * a.cols + x.n);
        Work::Bytes(((a + 2 * ys.n) * 4) as f64)
    }

    /// One element of (strided) y per fragment.
    fn elements(&self, e: &mut Engine, ys: &Vector) -> Result<()> {
        let ax = match &self.ax {
            Some((a, x)) => Some((e.upload_matrix(0, a)?, e.upload_vector(1, x)?)),
            None => None,
        };
        let yd = if self.beta != 0.0 {
            Some(e.upload_vector(2, ys)?)
        } else {
            None
        };
        let layout = OutLayout::for_vector(ys, e.target_side());
        e.target(0, layout.width, layout.height)?;
        let p = e.program("gemv", FRAG, &[])?;
        if let Some((a, x)) = &ax {
            e.bind_matrix(&p, 0, "A", a, self.trans)?;
            e.bind_vector(&p, 1, "X", x)?;
        }
        if let Some(yd) = &yd {
            e.bind_vector(&p, 2, "Y", yd)?;
        }
        layout.set_uniforms(&e.ctx.gl, &p);
        self.set_uniforms(e, &p, ax.is_some(), yd.is_some());
        e.spend(self.work(ys));
        e.draw()?;
        e.store_vector(&layout, ys)
    }

    /// Unit-stride y on a texel grid, four elements per fragment.
    fn texels(&self, e: &mut Engine, ys: &Vector) -> Result<()> {
        let ax = match &self.ax {
            Some((a, x)) => {
                let a = e.upload_matrix_texels(0, a)?;
                // x lines up with A's columns along the inner dimension (op(A) = A^T).
                let pad = stream::phase(e, a.mem).unwrap_or(0);
                Some((a, e.upload_vector_padded(1, x, pad)?))
            }
            None => None,
        };
        // A's columns are whole texels where they all start at the same phase.
        let a_phase = ax
            .as_ref()
            .filter(|(a, _)| a.ld % 4 == 0 && texels::rgba_viewable(e, a.mem))
            .and_then(|(a, _)| stream::phase(e, a.mem));
        let yd = if self.beta != 0.0 {
            Some(e.upload_vector_padded(2, ys, a_phase.unwrap_or(0))?)
        } else {
            None
        };
        // Non-transposed, y's grid follows A's rows; transposed, its texels are y's own.
        let shift = match (self.trans, a_phase) {
            (false, Some(phase)) => phase,
            _ => yd.and_then(|y| stream::phase(e, y.mem)).unwrap_or(0),
        };
        let grid = Grid::new(e, ys.n, shift, ys.inc < 0);
        let a_vec4 = a_phase.is_some() && (self.trans || !grid.reverse);
        let x_vec4 = self.trans
            && ax
                .as_ref()
                .is_some_and(|(_, x)| x.inc == 1 && stream::phase(e, x.mem) == a_phase);
        let y_vec4 = yd.as_ref().is_some_and(|y| grid.whole_texels(e, y));
        let mut defines = vec![("TEXELS", String::new()), ("VEC4_OUTPUTS", String::new())];
        for (on, name) in [
            (self.trans, "TRANS"),
            (a_vec4, "A_VEC4"),
            (x_vec4, "X_VEC4"),
            (y_vec4, "Y_VEC4"),
        ] {
            if on {
                defines.push((name, String::new()));
            }
        }
        e.target_of(texels::TARGETS[0], Kind::rgba(1), grid.width, grid.height)?;
        grid.draw(e, self.work(ys), |e, edge| {
            let mut defines = defines.clone();
            if edge {
                defines.push(("EDGE", String::new()));
            }
            let p = e.program("gemv", FRAG, &defines)?;
            if let Some((a, x)) = &ax {
                e.bind_matrix(&p, 0, "A", a, self.trans)?;
                grid.bind(e, &p, 1, "X", x, false)?;
                if a_vec4 {
                    let start = texels::bind_rgba(e, &p, 0, "A", a.mem, a.span())?;
                    // Non-transposed, grid texel t of column j; transposed, texel q of the inner
                    // dimension's grid (shifted as A is) of column j.
                    let origin = if self.trans {
                        start - start % 4
                    } else {
                        start - shift
                    };
                    let gl = &e.ctx.gl;
                    p.set_i32(gl, "uA4Start", (origin / 4) as i32);
                    p.set_i32(gl, "uA4Col", (a.ld / 4) as i32);
                    p.set_i32(gl, "uLShift", (start % 4) as i32);
                }
                if x_vec4 {
                    let start = texels::bind_rgba(e, &p, 1, "X", x.mem, x.span())?;
                    p.set_i32(&e.ctx.gl, "uX4Shift", (start / 4) as i32);
                }
                if !a_vec4 {
                    p.set_i32(&e.ctx.gl, "uLShift", 0);
                }
            }
            if let Some(yd) = &yd {
                grid.bind(e, &p, 2, "Y", yd, y_vec4)?;
            }
            grid.set_uniforms(e, &p);
            p.set_i32(&e.ctx.gl, "uOutWidth", grid.width);
            self.set_uniforms(e, &p, ax.is_some(), yd.is_some());
            Ok(())
        })?;
        // Every allocation comes before the first store, so a refused launch leaves y untouched.
        if ys.mem.is_device() {
            e.edge_buffer()?;
        }
        e.store_texel_run(0, ys.mem, ys.n, shift, grid.width)
    }

    fn set_uniforms(&self, e: &Engine, p: &Program, use_ax: bool, read_y: bool) {
        let gl = &e.ctx.gl;
        let k = self.ax.as_ref().map_or(0, |(_, x)| x.n);
        p.set_i32(gl, "uK", k as i32);
        p.set_f32(gl, "uAlpha", self.alpha);
        p.set_f32(gl, "uBeta", self.beta);
        p.set_i32(gl, "uUseAx", i32::from(use_ax));
        p.set_i32(gl, "uReadY", i32::from(read_y));
    }
}

/// Elements of y per part and of the inner dimension per part, at most `cap_m` and `cap_k`, so
/// that every operand part fits one window (halve the dimension that sets an oversized part's
/// extent); `texels`: a host A is staged with columns starting texels.
fn plan<T: Scalar>(
    e: &Engine,
    g: &Gemv<T>,
    k: i64,
    (cap_m, cap_k): (i64, i64),
    texels: bool,
) -> Result<(i64, i64)> {
    let (mut tm, mut tk) = (g.y.n.min(cap_m), k.clamp(1, cap_k.max(1)));
    let window = super::max_window::<T>(e);
    for _ in 0..256 {
        if let Some((a, x)) = &g.ax {
            // A's part is tm×tk as op(A), stored transposed when `trans`.
            let (mut rows, cols) = if g.trans { (tk, tm) } else { (tm, tk) };
            if texels && !a.mem.is_device() {
                // Staged with columns starting texels.
                rows = (rows + 3) / 4 * 4;
            }
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
        // The compute kernel views y whether it reads it or not.
        let y_viewed = g.beta != T::ZERO || super::compute_available(e);
        if y_viewed && super::vector_window(&g.y, tm) > window {
            tm = (tm + 1) / 2;
            continue;
        }
        // A draw stays within the dispatch budget (the compute kernel cuts its own launches):
        // y is cut first, which leaves each element's sum as it was, then the inner dimension.
        let a = if g.ax.is_some() { tm * tk + tk } else { 0 };
        let bytes = ((a + 2 * tm) * T::SIZE) as f64;
        if !super::compute_available(e) && bytes > e.limits.dispatch_bytes {
            if tm > 4 || (g.ax.is_none() && tm > 1) {
                tm = (tm + 1) / 2;
                continue;
            }
            if g.ax.is_some() && tk > 1 {
                tk = (tk + 1) / 2;
                continue;
            }
        }
        return Ok((tm, tk));
    }
    Err(Error::overflow(
        "no tiling fits the operands in buffer-texture windows",
    ))
}
