//! Element-wise level-1 operations: axpy, scal, copy, swap, in single or double precision,
//! axpy and scal also complex (copy and swap move complex vectors as real ones: `routines`).
//!
//! On the compute pipeline the work is `level1_compute`'s (either precision, real or complex).
//! On the fragment pipeline (single precision only: see `precision_available`) each chunk of
//! elements is drawn by `elementwise.frag` into a render target and stored back in place: four
//! elements per fragment on a texel grid (see `texels.rs`) where the outputs are unit-stride,
//! one per fragment where they are strided. Where the reference BLAS's sequential loop gives a
//! different result from an element-parallel one (operands that overlap, a zero increment on an
//! output), the loop itself runs on the host.

use super::level1_compute::{self, Op};
use super::stream::{self, Access};
use super::texels::{self, Grid};
use crate::engine::element::{Real, Scalar};
use crate::engine::jobs::Work;
use crate::engine::operand::{Mem, Vector};
use crate::engine::stores::OutLayout;
use crate::engine::targets::Kind;
use crate::engine::Engine;
use crate::status::Result;

const FRAG: &str = include_str!("../../shaders/elementwise.frag");

/// y := alpha*x + y.
pub fn axpy<T: Scalar>(e: &mut Engine, alpha: T, x: &Vector<T>, y: &Vector<T>) -> Result<()> {
    // The reference BLAS returns before reading anything when alpha is zero.
    if x.n == 0 || alpha == T::ZERO {
        return Ok(());
    }
    if super::overlap(x, y) {
        // SAFETY (of the step): pointers to x(i) and y(i) of one iteration.
        return sequential(e, x, y, |xi, yi| unsafe { *yi = *yi + alpha * *xi });
    }
    if y.inc == 0 {
        // Every term lands in y[0]: y[0] + alpha*sum(x).
        let s = super::dot::sum(e, x)?;
        let mut y0 = [T::ZERO];
        e.read(y.mem, &mut y0)?;
        y0[0] = y0[0] + alpha * s;
        return e.write(y.mem, &y0);
    }
    fragment_or_compute(e, Op::Axpy, alpha, x, y)
}

/// x := alpha*x. As in the reference BLAS, a non-positive increment does nothing.
pub fn scal<T: Scalar>(e: &mut Engine, alpha: T, x: &Vector<T>) -> Result<()> {
    if x.n == 0 || x.inc <= 0 {
        return Ok(());
    }
    fragment_or_compute(e, Op::Scal, alpha, x, x)
}

/// y := x.
pub fn copy<T: Real>(e: &mut Engine, x: &Vector<T>, y: &Vector<T>) -> Result<()> {
    if x.n == 0 {
        return Ok(());
    }
    if super::overlap(x, y) || y.inc == 0 {
        // SAFETY (of the step): pointers to x(i) and y(i) of one iteration.
        return sequential(e, x, y, |xi, yi| unsafe { *yi = *xi });
    }
    fragment_or_compute(e, Op::Copy, T::ONE, x, y)
}

/// x <-> y.
pub fn swap<T: Real>(e: &mut Engine, x: &Vector<T>, y: &Vector<T>) -> Result<()> {
    if x.n == 0 {
        return Ok(());
    }
    if super::overlap(x, y) || x.inc == 0 || y.inc == 0 {
        // SAFETY (of the step): pointers to x(i) and y(i) of one iteration.
        return sequential(e, x, y, |xi, yi| unsafe { std::ptr::swap(xi, yi) });
    }
    fragment_or_compute(e, Op::Swap, T::ONE, x, y)
}

/// Runs `op` (for `Scal`, on x alone: `y` is x) on the compute pipeline where it can, else on
/// the fragment pipeline (single precision, real).
fn fragment_or_compute<T: Scalar>(
    e: &mut Engine,
    op: Op,
    alpha: T,
    x: &Vector<T>,
    y: &Vector<T>,
) -> Result<()> {
    if super::compute_available(e) {
        return level1_compute::run(e, op, alpha, x, y);
    }
    match (super::single(x), super::single(y)) {
        (Some(x), Some(y)) => fragment(e, op, alpha.parts()[0].to_f64() as f32, x, y),
        _ => Err(super::no_fragment_double()),
    }
}

/// `op` on the fragment pipeline: texel grids where the outputs are unit-stride, else (strided
/// outputs) one element per fragment.
fn fragment(e: &mut Engine, op: Op, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    let (mut x, mut y) = (*x, *y);
    if x.inc == -1 && y.inc == -1 {
        // Pairs (x(i), y(i)) are the same whichever end both are counted from.
        x.inc = 1;
        y.inc = 1;
    }
    let out = if op == Op::Scal { x } else { y };
    // SWAP's two outputs share one grid: they must run in the same order.
    if out.inc.abs() == 1 && (op != Op::Swap || x.inc == y.inc) {
        let len = super::chunk_len(e, &[&x, &y], Grid::capacity(e));
        return for_chunks(&x, &y, len, |xs, ys| texels(e, op, alpha, xs, ys));
    }
    if op == Op::Swap {
        let len = chunk(e, &[&x, &y]);
        return for_chunks(&x, &y, len, |xs, ys| {
            // Both new values are rendered (targets 0 and 1) before either is stored.
            let new_y = launch(e, 0, "COPY", 1.0, xs, None, ys)?;
            let new_x = launch(e, 1, "COPY", 1.0, ys, None, xs)?;
            e.target(0, new_y.width, new_y.height)?;
            e.store_vector(&new_y, ys)?;
            e.target(1, new_x.width, new_x.height)?;
            e.store_vector(&new_x, xs)
        });
    }
    let reads_y = op == Op::Axpy;
    let len = chunk(e, &[&x, if reads_y { &y } else { &x }, &out]);
    for_chunks(&x, &y, len, |xs, ys| {
        let outs = if op == Op::Scal { xs } else { ys };
        let layout = launch(e, 0, op.define(), alpha, xs, reads_y.then_some(ys), outs)?;
        e.store_vector(&layout, outs)
    })
}

/// Calls `f` on the slices of x and y of `len` elements at a time.
fn for_chunks(
    x: &Vector,
    y: &Vector,
    len: i64,
    mut f: impl FnMut(&Vector, &Vector) -> Result<()>,
) -> Result<()> {
    let mut i0 = 0;
    while i0 < x.n {
        let i1 = (i0 + len).min(x.n);
        f(&x.slice(i0, i1), &y.slice(i0, i1))?;
        i0 = i1;
    }
    Ok(())
}

/// One draw of `op` over a texel grid of its unit-stride output (y; x for `Scal`, both for
/// `Swap`), then its stores, whole texels at a time.
fn texels(e: &mut Engine, op: Op, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    let reads: Vec<(&Vector, Access)> = match op {
        Op::Axpy | Op::Swap => vec![(x, Access::Read), (y, Access::Read)],
        Op::Scal | Op::Copy => vec![(x, Access::Read)],
    };
    let ops = stream::prepare(e, &reads)?;
    let outs: Vec<&Vector> = match op {
        Op::Scal => vec![x],
        Op::Swap => vec![y, x],
        Op::Axpy | Op::Copy => vec![y],
    };
    // The grid runs in the memory order of the (first) output and starts where x's texels do,
    // so that x, and y where it lines up with x (host operands are staged to), is read whole
    // texels at a time.
    let shift = stream::phase(e, ops[0].v.mem).unwrap_or(0);
    let grid = Grid::new(e, x.n, shift, outs[0].inc < 0);
    let vec4: Vec<bool> = ops.iter().map(|o| grid.whole_texels(e, &o.v)).collect();
    let mut defines = vec![
        (op.define(), String::new()),
        ("TEXELS", String::new()),
        ("VEC4_OUTPUTS", String::new()),
    ];
    for (&whole, name) in vec4.iter().zip(["X_VEC4", "Y_VEC4"]) {
        if whole {
            defines.push((name, String::new()));
        }
    }
    let attachments = outs.len();
    e.target_of(
        texels::TARGETS[attachments - 1],
        Kind::rgba(attachments),
        grid.width,
        grid.height,
    )?;
    // Each operand read, and each output written.
    let work = Work::Bytes(((reads.len() + outs.len()) as i64 * x.n * 4) as f64);
    grid.draw(e, work, |e, edge| {
        let mut defines = defines.clone();
        if edge {
            defines.push(("EDGE", String::new()));
        }
        let p = e.program("elementwise", FRAG, &defines)?;
        for (unit, (o, name)) in ops.iter().zip(["X", "Y"]).enumerate() {
            grid.bind(e, &p, unit, name, &o.v, vec4[unit])?;
        }
        grid.set_uniforms(e, &p);
        p.set_i32(&e.ctx.gl, "uOutWidth", grid.width);
        p.set_f32(&e.ctx.gl, "uAlpha", alpha);
        Ok(())
    })?;
    // Every allocation comes before the first store, so a refused launch leaves the outputs
    // untouched.
    if outs.iter().any(|o| o.mem.is_device()) {
        e.edge_buffer()?;
    }
    for (attachment, out) in outs.into_iter().enumerate() {
        e.store_texel_run(attachment as u32, out.mem, out.n, shift, grid.width)?;
    }
    Ok(())
}

/// Elements per launch of the one-element-per-fragment kernel: operand windows and the
/// output's target capacity.
fn chunk(e: &Engine, vectors: &[&Vector]) -> i64 {
    let cap = vectors
        .iter()
        .map(|v| OutLayout::capacity(v.inc, e.target_side()))
        .min()
        .unwrap_or(1);
    super::chunk_len(e, vectors, cap)
}

/// Draws `variant` for one chunk into target `slot`, laid out for storing into `out`.
#[allow(clippy::too_many_arguments)]
fn launch(
    e: &mut Engine,
    slot: usize,
    variant: &str,
    alpha: f32,
    x: &Vector,
    y: Option<&Vector>,
    out: &Vector,
) -> Result<OutLayout> {
    let xd = e.upload_vector(0, x)?;
    let yd = match y {
        Some(y) => Some(e.upload_vector(1, y)?),
        None => None,
    };
    let layout = OutLayout::for_vector(out, e.target_side());
    e.target(slot, layout.width, layout.height)?;
    let p = e.program("elementwise", FRAG, &[(variant, "1".into())])?;
    e.bind_vector(&p, 0, "X", &xd)?;
    if let Some(yd) = &yd {
        e.bind_vector(&p, 1, "Y", yd)?;
    }
    layout.set_uniforms(&e.ctx.gl, &p);
    p.set_f32(&e.ctx.gl, "uAlpha", alpha);
    let operands = if yd.is_some() { 3 } else { 2 };
    e.spend(Work::Bytes((operands * out.n * 4) as f64));
    e.draw()?;
    Ok(layout)
}

/// The reference BLAS's loop, `step(&x(i), &y(i))` for i in order, on the operands' storage:
/// in place for host memory, on a host copy written back for device memory (one copy for
/// both when they share a buffer, so each step sees the earlier ones).
fn sequential<T: Scalar>(
    e: &mut Engine,
    x: &Vector<T>,
    y: &Vector<T>,
    mut step: impl FnMut(*mut T, *mut T),
) -> Result<()> {
    // Host copies of device storage: one per buffer, covering every vector in it.
    let mut copies: Vec<(Mem<T>, Vec<T>)> = Vec::new();
    for v in [x, y] {
        if !v.mem.is_device() || copies.iter().any(|(m, _)| m.same_space(&v.mem)) {
            continue;
        }
        let parts: Vec<&Vector<T>> = [x, y]
            .into_iter()
            .filter(|w| w.mem.same_space(&v.mem))
            .collect();
        let lowest = parts
            .iter()
            .min_by_key(|w| w.mem.byte_position())
            .expect("v is one of them")
            .mem;
        let end = parts
            .iter()
            .map(|w| w.mem.byte_position() + w.span() * T::SIZE)
            .max()
            .expect("v is one of them");
        let mut buf = vec![T::ZERO; ((end - lowest.byte_position()) / T::SIZE) as usize];
        e.read(lowest, &mut buf)?;
        copies.push((lowest, buf));
    }
    let mut base = |v: &Vector<T>| -> *mut T {
        match v.mem {
            Mem::Host(p) => p,
            Mem::Device { .. } => {
                let (m, buf) = copies
                    .iter_mut()
                    .find(|(m, _)| m.same_space(&v.mem))
                    .expect("copied above");
                buf.as_mut_ptr().wrapping_offset(
                    ((v.mem.byte_position() - m.byte_position()) / T::SIZE) as isize,
                )
            }
        }
    };
    let (bx, by) = (base(x), base(y));
    for i in 0..x.n {
        step(
            bx.wrapping_offset(x.index(i) as isize),
            by.wrapping_offset(y.index(i) as isize),
        );
    }
    for (mem, buf) in &copies {
        e.write(*mem, buf)?;
    }
    Ok(())
}
