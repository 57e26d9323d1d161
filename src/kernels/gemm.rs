//! sgemm: C := alpha*op(A)*op(B) + beta*C, column-major. This is where sgemm picks its kernel:
//! the compute pipeline (`gemm_compute.rs`: packed panels, 8×8 register blocks) where the device
//! has compute shaders and the operands fit one buffer-texture window, unless
//! `GLBLAS_PIPELINE=fragment`; otherwise the fragment pipeline below.
//!
//! Fragment loop structure: C is cut into tiles of at most one render target (`Limits::target_side`²); each tile is
//! one draw, one fragment per element of C. When an operand's part for a tile does not fit one
//! buffer-texture window, tiles shrink, and then k is cut into chunks whose products are added
//! into C in turn (beta applies to the first chunk only); k is also cut into chunks of at most
//! `MAX_LOOP_ITERATIONS`, the longest loop a launch may run.

use crate::engine::operand::Matrix;
use crate::engine::Engine;
use crate::status::{Error, Result};

const FRAG: &str = include_str!("../../shaders/gemm.frag");

/// An sgemm call, its operands as stored (A is m×k, or k×m when `ta`; B is k×n, or n×k when `tb`).
pub struct Gemm {
    pub ta: bool,
    pub tb: bool,
    pub m: i64,
    pub n: i64,
    pub k: i64,
    pub alpha: f32,
    pub beta: f32,
    /// `None` when alpha == 0 or k == 0: A and B are not read.
    pub ab: Option<(Matrix, Matrix)>,
    pub c: Matrix,
}

/// Tile sizes: rows and columns of C per draw, and k per chunk.
#[derive(Clone, Copy, Debug)]
struct Plan {
    tm: i64,
    tn: i64,
    tk: i64,
}

pub fn sgemm(e: &mut Engine, g: &Gemm) -> Result<()> {
    if g.m == 0 || g.n == 0 {
        return Ok(());
    }
    if super::compute_available(e) && super::gemm_compute::fits(e, g) {
        return super::gemm_compute::sgemm(e, g);
    }
    let plan = plan(e, g)?;
    let mut j0 = 0;
    while j0 < g.n {
        let j1 = (j0 + plan.tn).min(g.n);
        let mut i0 = 0;
        while i0 < g.m {
            let i1 = (i0 + plan.tm).min(g.m);
            tile(e, g, plan, i0, i1, j0, j1)?;
            i0 = i1;
        }
        j0 = j1;
    }
    Ok(())
}

/// Computes C[i0..i1, j0..j1], k chunk by k chunk.
fn tile(e: &mut Engine, g: &Gemm, plan: Plan, i0: i64, i1: i64, j0: i64, j1: i64) -> Result<()> {
    let c = g.c.block(i0, i1, j0, j1);
    let k = if g.ab.is_some() { g.k } else { 0 };
    let mut l0 = 0;
    loop {
        let l1 = (l0 + plan.tk).min(k);
        let beta = if l0 == 0 { g.beta } else { 1.0 };
        let ab = match &g.ab {
            Some((a, b)) => {
                let a = if g.ta {
                    a.block(l0, l1, i0, i1)
                } else {
                    a.block(i0, i1, l0, l1)
                };
                let b = if g.tb {
                    b.block(j0, j1, l0, l1)
                } else {
                    b.block(l0, l1, j0, j1)
                };
                Some((e.upload_matrix(0, &a)?, e.upload_matrix(1, &b)?))
            }
            None => None,
        };
        let cd = if beta != 0.0 {
            Some(e.upload_matrix(2, &c)?)
        } else {
            None
        };
        e.target(0, c.rows as i32, c.cols as i32)?;
        let p = e.program("gemm", FRAG, &[])?;
        let gl = &e.ctx.gl;
        if let Some((a, b)) = &ab {
            e.bind_matrix(&p, 0, "A", a, g.ta)?;
            e.bind_matrix(&p, 1, "B", b, g.tb)?;
        }
        if let Some(cd) = &cd {
            e.bind_matrix(&p, 2, "C", cd, false)?;
        }
        p.set_i32(gl, "uK", (l1 - l0) as i32);
        p.set_f32(gl, "uAlpha", g.alpha);
        p.set_f32(gl, "uBeta", beta);
        p.set_i32(gl, "uUseAB", i32::from(ab.is_some()));
        p.set_i32(gl, "uReadC", i32::from(cd.is_some()));
        e.draw()?;
        e.store_matrix(&c)?;
        l0 = l1;
        if l0 >= k {
            return Ok(());
        }
    }
}

/// Picks tile sizes so that every operand part fits one window: halve the dimension that sets
/// an oversized operand's column count (or its row count once that is 1). Chunks of k start at
/// `MAX_LOOP_ITERATIONS` at most.
fn plan(e: &Engine, g: &Gemm) -> Result<Plan> {
    let side = i64::from(e.target_side());
    let mut p = Plan {
        tm: g.m.min(side),
        tn: g.n.min(side),
        // gemm.frag loops over the chunk's k.
        tk: g.k.clamp(1, super::MAX_LOOP_ITERATIONS),
    };
    let window = e.max_window();
    for _ in 0..256 {
        // Each entry: does this operand part fit, and which plan dimensions are its (rows, cols).
        let mut parts: Vec<(&Matrix, (Dim, Dim))> = vec![];
        if let Some((a, b)) = &g.ab {
            parts.push((
                a,
                if g.ta {
                    (Dim::K, Dim::M)
                } else {
                    (Dim::M, Dim::K)
                },
            ));
            parts.push((
                b,
                if g.tb {
                    (Dim::N, Dim::K)
                } else {
                    (Dim::K, Dim::N)
                },
            ));
        }
        if g.beta != 0.0 {
            parts.push((&g.c, (Dim::M, Dim::N)));
        }
        let oversized = parts
            .into_iter()
            .find(|(m, (r, c))| super::window_elems(m, p.get(*r), p.get(*c)) > window);
        match oversized {
            None => return Ok(p),
            Some((_, (r, c))) => {
                let d = if p.get(c) > 1 { c } else { r };
                p.set(d, (p.get(d) + 1) / 2);
            }
        }
    }
    Err(Error::overflow(
        "no tiling fits the operands in buffer-texture windows",
    ))
}

#[derive(Clone, Copy)]
enum Dim {
    M,
    N,
    K,
}

impl Plan {
    fn get(&self, d: Dim) -> i64 {
        match d {
            Dim::M => self.tm,
            Dim::N => self.tn,
            Dim::K => self.tk,
        }
    }

    fn set(&mut self, d: Dim, v: i64) {
        match d {
            Dim::M => self.tm = v,
            Dim::N => self.tn = v,
            Dim::K => self.tk = v,
        }
    }
}
