//! Reductions: dot, asum, and the plain sum axpy needs for a zero y increment, in single or
//! double precision.
//!
//! On the compute pipeline the work is `dot_compute`'s (either precision), its partial sums
//! added on the host in double. On the fragment pipeline (single precision), a parallel
//! reduction in few passes: the first pass has each fragment add a block of texels of a grid
//! over the operands (see `texels.rs`: RGBA loads where they line up); later passes add blocks
//! of the previous pass's sums, until one value is left. The first pass leaves at most
//! TARGET_FRAGMENTS sums, which the second adds in one fragment.

use super::stream::{self, Access};
use super::texels::Grid;
use crate::engine::element::Real;
use crate::engine::operand::{Mem, OutLayout, Vector, OPERAND_UNITS};
use crate::engine::Engine;
use crate::status::Result;

const FRAG: &str = include_str!("../../shaders/reduce.frag");

/// The fragment count one pass aims at: plenty of parallel work for a device, few enough that
/// one more fragment adds them all (see `block_size`).
const TARGET_FRAGMENTS: i64 = 4096;

/// result := sum of x[i]*y[i] (`result` may be host or device memory).
pub fn dot<T: Real>(e: &mut Engine, x: &Vector<T>, y: &Vector<T>, result: Mem<T>) -> Result<()> {
    reduce_into(e, "DOT", x, Some(y), result)
}

/// result := sum of |x[i]|. As in the reference BLAS, a non-positive increment gives 0.
pub fn asum<T: Real>(e: &mut Engine, x: &Vector<T>, result: Mem<T>) -> Result<()> {
    let x = if x.inc <= 0 {
        Vector { n: 0, ..*x }
    } else {
        *x
    };
    reduce_into(e, "ASUM", &x, None, result)
}

/// The sum of the elements of x, on the host.
pub fn sum<T: Real>(e: &mut Engine, x: &Vector<T>) -> Result<T> {
    let mut total = T::ZERO;
    reduce_into(e, "SUM", x, None, Mem::Host(&mut total))?;
    Ok(total)
}

/// Reduces the terms of `variant` over x (and y) into `result`, on the compute pipeline where
/// it can, else on the fragment pipeline (single precision).
fn reduce_into<T: Real>(
    e: &mut Engine,
    variant: &str,
    x: &Vector<T>,
    y: Option<&Vector<T>>,
    result: Mem<T>,
) -> Result<()> {
    if x.n == 0 {
        return e.write(result, &[T::ZERO]);
    }
    let len = super::chunk_len(e, &[x, y.unwrap_or(x)], i64::MAX);
    if super::compute_available(e) {
        let mut total = 0.0f64;
        let mut i0 = 0;
        while i0 < x.n {
            let i1 = (i0 + len).min(x.n);
            let ys = y.map(|y| y.slice(i0, i1));
            total += super::dot_compute::reduce(e, variant, &x.slice(i0, i1), ys.as_ref())?;
            i0 = i1;
        }
        return e.write(result, &[T::from_f64(total)]);
    }
    match (super::single(x), super::single(&result)) {
        (Some(x), Some(&result)) => {
            let y = y.map(|y| super::single(y).expect("of x's type"));
            fragment(e, variant, x, y, result, len)
        }
        _ => Err(super::no_fragment_double()),
    }
}

/// `reduce_into` on the fragment pipeline, chunks of `len` elements at a time. Operands larger
/// than one buffer-texture window take one reduction per chunk, the chunk sums added on the
/// host.
fn fragment(
    e: &mut Engine,
    variant: &str,
    x: &Vector,
    y: Option<&Vector>,
    result: Mem,
    len: i64,
) -> Result<()> {
    if len >= x.n {
        let slot = reduce(e, variant, x, y)?;
        e.target(slot, 1, 1)?;
        let out = Vector {
            mem: result,
            n: 1,
            inc: 1,
        };
        return e.store_vector(&OutLayout::packed(1, e.target_side()), &out);
    }
    let mut total = 0.0f64;
    let mut i0 = 0;
    while i0 < x.n {
        let i1 = (i0 + len).min(x.n);
        let ys = y.map(|y| y.slice(i0, i1));
        total += f64::from(reduce_to_host(e, variant, &x.slice(i0, i1), ys.as_ref())?);
        i0 = i1;
    }
    e.write(result, &[total as f32])
}

fn reduce_to_host(e: &mut Engine, variant: &str, x: &Vector, y: Option<&Vector>) -> Result<f32> {
    let slot = reduce(e, variant, x, y)?;
    e.target(slot, 1, 1)?;
    let mut v = 0.0f32;
    let host = Vector {
        mem: Mem::Host(&mut v),
        n: 1,
        inc: 1,
    };
    e.store_vector(&OutLayout::packed(1, e.target_side()), &host)?;
    Ok(v)
}

/// Reduces the terms of x (times y, for DOT) to one value; returns the target slot whose first
/// texel holds it.
fn reduce(e: &mut Engine, variant: &str, x: &Vector, y: Option<&Vector>) -> Result<usize> {
    let reads: Vec<(&Vector, Access)> = [Some(x), y]
        .into_iter()
        .flatten()
        .map(|v| (v, Access::Read))
        .collect();
    let mut ops: Vec<Vector> = stream::prepare(e, &reads)?
        .into_iter()
        .map(|o| o.v)
        .collect();
    if ops[0].inc < 0 {
        // Pairs (x(i), y(i)) are the same whichever end both are counted from.
        for v in &mut ops {
            v.inc = -v.inc;
        }
    }
    // The grid starts where the first unit-stride operand's texels do.
    let shift = ops
        .iter()
        .find(|v| v.inc == 1)
        .and_then(|v| stream::phase(e, v.mem))
        .unwrap_or(0);
    let grid = Grid::new(e, x.n, shift, false);
    let whole: Vec<bool> = ops.iter().map(|v| grid.whole_texels(e, v)).collect();
    // Items of the pass: texels of the grid, then quadruples of partial sums.
    let mut count = (x.n + shift + 3) / 4;
    let mut terms = x.n;
    // The previous pass's target slot and row width, once there is one.
    let mut source: Option<(usize, i32)> = None;
    for pass in 0.. {
        let block = block_size(count, source.is_none(), e.target_side());
        let parts = (count + block - 1) / block;
        let slot = pass % 2;
        let layout = OutLayout::packed(parts, e.target_side());
        e.target(slot, layout.width, layout.height)?;
        let p = match source {
            None => {
                let mut defines = vec![(variant, String::new()), ("TEXELS", String::new())];
                for (&w, name) in whole.iter().zip(["X_VEC4", "Y_VEC4"]) {
                    if w {
                        defines.push((name, String::new()));
                    }
                }
                let p = e.program("reduce", FRAG, &defines)?;
                for (unit, (v, name)) in ops.iter().zip(["X", "Y"]).enumerate() {
                    grid.bind(e, &p, unit, name, v, whole[unit])?;
                }
                grid.set_uniforms(e, &p);
                p
            }
            Some((src_slot, src_width)) => {
                let texture = e.target_texture(src_slot);
                let p = e.program("reduce", FRAG, &[("PARTIALS", String::new())])?;
                e.bind_texture_2d(OPERAND_UNITS, texture);
                p.set_i32(&e.ctx.gl, "uSrc", OPERAND_UNITS as i32);
                p.set_i32(&e.ctx.gl, "uSrcWidth", src_width);
                p.set_i32(&e.ctx.gl, "uTerms", terms as i32);
                p
            }
        };
        layout.set_uniforms(&e.ctx.gl, &p);
        p.set_i32(&e.ctx.gl, "uCount", count as i32);
        p.set_i32(&e.ctx.gl, "uBlock", block as i32);
        e.draw()?;
        if parts == 1 {
            return Ok(slot);
        }
        terms = parts;
        count = (parts + 3) / 4;
        source = Some((slot, layout.width));
    }
    unreachable!("every pass divides the count by at least 16")
}

/// Items (four terms each) per fragment: up to 64 grid texels in a first pass (1024 quadruples
/// of sums in a later one) end in one fragment; otherwise aim at TARGET_FRAGMENTS fragments of
/// at least 16 items each, so that the second pass usually takes them all in one.
fn block_size(count: i64, first_pass: bool, side: i32) -> i64 {
    let single = if first_pass { 64 } else { 1024 };
    let fragments = TARGET_FRAGMENTS.min(i64::from(side).pow(2));
    if count <= single {
        count
    } else {
        ((count + fragments - 1) / fragments).max(16)
    }
}
