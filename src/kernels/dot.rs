//! Reductions: dot, asum, nrm2, i?amax, and the plain sum axpy needs for a zero y increment,
//! in single or double precision, real or complex (the compute pipeline only: see
//! `precision_available`).
//!
//! On the compute pipeline the work is `dot_compute`'s (either precision), its partial sums
//! added on the host in double. On the fragment pipeline (single precision), a parallel
//! reduction in few passes: the first pass has each fragment add a block of texels of a grid
//! over the operands (see `texels.rs`: RGBA loads where they line up); later passes add blocks
//! of the previous pass's sums, until one value is left. The first pass leaves at most
//! TARGET_FRAGMENTS sums, which the second adds in one fragment.

use super::dot_sums::{Squares, Variant};
use super::stream::{self, Access};
use super::texels::Grid;
use crate::engine::element::{Real, Scalar};
use crate::engine::jobs::Work;
use crate::engine::operand::{Mem, Vector, OPERAND_UNITS};
use crate::engine::stores::OutLayout;
use crate::engine::Engine;
use crate::status::Result;

const FRAG: &str = include_str!("../../shaders/reduce.frag");

/// The fragment count one pass aims at: plenty of parallel work for a device, few enough that
/// one more fragment adds them all (see `block_size`).
const TARGET_FRAGMENTS: i64 = 4096;

/// result := sum of x[i]*y[i], or of conj(x[i])*y[i] when `conjugate` (complex only; `result`
/// may be host or device memory).
pub fn dot<T: Scalar>(
    e: &mut Engine,
    x: &Vector<T>,
    y: &Vector<T>,
    conjugate: bool,
    result: Mem<T>,
) -> Result<()> {
    let variant = if conjugate && T::COMPLEX {
        Variant::DotConjugated
    } else {
        Variant::Dot
    };
    reduce_into(e, variant, x, Some(y), result, T::from_f64_parts)
}

/// result := sum of |x[i]|, a complex element's |re| + |im| (the reference's scasum). As in the
/// reference BLAS, a non-positive increment gives 0.
pub fn asum<T: Scalar>(e: &mut Engine, x: &Vector<T>, result: Mem<T::Real>) -> Result<()> {
    let x = if x.inc <= 0 {
        Vector { n: 0, ..*x }
    } else {
        *x
    };
    // A complex element's two parts are summed apart, then together.
    reduce_into(e, Variant::Asum, &x, None, result, |[re, im]| {
        T::Real::from_f64(re + im)
    })
}

/// The sum of the elements of x, on the host.
pub fn sum<T: Scalar>(e: &mut Engine, x: &Vector<T>) -> Result<T> {
    let mut total = T::ZERO;
    reduce_into(
        e,
        Variant::Sum,
        x,
        None,
        Mem::Host(&mut total),
        T::from_f64_parts,
    )?;
    Ok(total)
}

/// result := the Euclidean norm of x (of both parts of each complex element), without overflow
/// or underflow: on the compute pipeline (either precision) Blue's accumulators of scaled
/// squares, one partial per workgroup
/// (`reduce_abs.comp`), combined on the host in double as the reference dnrm2 combines them
/// ([`Squares`]); on the fragment pipeline (single precision) a reduction of the largest
/// exponent, then one of the squares of x scaled by the power of two that brings the largest
/// |x[i]| to [2, 4) (see `fragment_nrm2`). The order of the terms is free, so a negative
/// increment is taken as positive. A zero one counts x[0] n times, as the reference does: that
/// norm is |x[0]|·sqrt(n), computed on the host in double (within a rounding of each factor,
/// and finite wherever the result is) rather than by reading x[0] n times (seconds at n = 2^30).
pub fn nrm2<T: Scalar>(e: &mut Engine, x: &Vector<T>, result: Mem<T::Real>) -> Result<()> {
    if x.n <= 0 {
        return e.write(result, &[T::Real::ZERO]);
    }
    if x.inc == 0 {
        let mut x0 = [T::ZERO];
        e.read(x.mem, &mut x0)?;
        let [re, im] = x0[0].f64_parts();
        let norm = re.hypot(im) * (x.n as f64).sqrt();
        return e.write(result, &[T::Real::from_f64(norm)]);
    }
    let x = Vector {
        inc: x.inc.abs(),
        ..*x
    };
    let len = super::chunk_len(e, &[&x], i64::MAX);
    let norm = if super::compute_available(e) {
        let mut total = Squares::new::<T::Real>();
        let mut i0 = 0;
        while i0 < x.n {
            let i1 = (i0 + len).min(x.n);
            total.merge(&super::dot_compute::squares(e, &x.slice(i0, i1))?);
            i0 = i1;
        }
        total.norm()
    } else {
        match super::single(&x) {
            Some(x) => fragment_nrm2(e, x, len)?,
            None => return Err(super::no_fragment_double()),
        }
    };
    e.write(result, &[T::Real::from_f64(norm)])
}

/// nrm2 on the fragment pipeline, chunks of `len` elements at a time: K = the largest biased
/// exponent of x (256 for a NaN), then S = the sum of (x[i] * 2^s)^2 with s = 128 - K, which
/// brings the largest |x[i]| to [2, 4) (squares below 16; those that underflow are below 2^-252
/// of the largest), or s = 126 when x holds only zeros and subnormals; the norm is sqrt(S) *
/// 2^-s, in double.
fn fragment_nrm2(e: &mut Engine, x: &Vector, len: i64) -> Result<f64> {
    let chunks = |len: i64| {
        (0..x.n)
            .step_by(len as usize)
            .map(move |i0| (i0, (i0 + len).min(x.n)))
    };
    let mut k = 0.0f32;
    for (i0, i1) in chunks(len) {
        let pass = Pass::with("EXPMAX", "MAX");
        k = k.max(reduce_pass_to_host(e, &pass, &x.slice(i0, i1), None)?);
    }
    let k = k as i32;
    if k >= 256 {
        return Ok(f64::NAN);
    }
    if k == 255 {
        return Ok(f64::INFINITY);
    }
    let s = if k == 0 { 126 } else { 128 - k };
    let pass = Pass {
        scale: 2f64.powi(s) as f32,
        sub_scale: 2f64.powi(s - 126) as f32,
        ..Pass::sum("SUMSQ")
    };
    let mut total = 0.0f64;
    for (i0, i1) in chunks(len) {
        total += f64::from(reduce_pass_to_host(e, &pass, &x.slice(i0, i1), None)?);
    }
    Ok(total.sqrt() * 2f64.powi(-s))
}

/// The 1-based index of the first largest |x[i]| (0 when `x.n <= 0` or `x.inc <= 0`, as the
/// reference isamax). A NaN is never taken, except as element 1, which the reference's loop
/// keeps (no later |x[i]| compares greater than a NaN). Magnitudes are compared as their bits
/// (see `reduce_abs.comp`): on the compute pipeline in one pass, the host taking the best of
/// the workgroups' partials and of the chunks; on the fragment pipeline (single precision) in
/// three: the largest key's high bits, then its low ones, then the lowest index holding it.
pub fn iamax<T: Scalar>(e: &mut Engine, x: &Vector<T>) -> Result<i64> {
    if x.n <= 0 || x.inc <= 0 {
        return Ok(0);
    }
    let compute = super::compute_available(e);
    // The fragment pipeline counts indices in floats: exact below 2^24.
    let cap = if compute { i64::MAX } else { 1 << 24 };
    let len = super::chunk_len(e, &[x], cap);
    let mut best = (0u64, i64::MAX);
    let mut i0 = 0;
    while i0 < x.n {
        let i1 = (i0 + len).min(x.n);
        let chunk = x.slice(i0, i1);
        let (key, index) = if compute {
            super::dot_compute::iamax(e, &chunk, i0 == 0)?
        } else {
            match super::single(&chunk) {
                Some(chunk) => fragment_iamax(e, chunk, i0 == 0)?,
                None => return Err(super::no_fragment_double()),
            }
        };
        if key > best.0 || best.1 == i64::MAX {
            best = (key, i0 + index);
        }
        i0 = i1;
    }
    Ok(best.1 + 1)
}

/// iamax's (key, 0-based index) of one chunk on the fragment pipeline.
fn fragment_iamax(e: &mut Engine, x: &Vector, nan_first: bool) -> Result<(u64, i64)> {
    let mut run = |name, combine, hi, lo| {
        let pass = Pass {
            hi,
            lo,
            nan_first,
            ..Pass::with(name, combine)
        };
        reduce_pass_to_host(e, &pass, x, None)
    };
    let hi = run("KEYHI", "MAX", 0, 0)? as i32;
    let lo = run("KEYLO", "MAX", hi, 0)? as i32;
    let first = run("FIRST", "MIN", hi, lo)?;
    Ok(((hi as u64) << 8 | lo as u64, first as i64))
}

/// Reduces the terms of `variant` over x (and y) into `result`, on the compute pipeline where
/// it can (`finish` makes the result of the sums of the terms' parts, added in double), else on
/// the fragment pipeline (single precision, real).
fn reduce_into<T: Scalar, O: Scalar>(
    e: &mut Engine,
    variant: Variant,
    x: &Vector<T>,
    y: Option<&Vector<T>>,
    result: Mem<O>,
    finish: impl FnOnce([f64; 2]) -> O,
) -> Result<()> {
    if x.n == 0 {
        return e.write(result, &[O::ZERO]);
    }
    let len = super::chunk_len(e, &[x, y.unwrap_or(x)], i64::MAX);
    if super::compute_available(e) {
        let mut total = [0.0f64; 2];
        let mut i0 = 0;
        while i0 < x.n {
            let i1 = (i0 + len).min(x.n);
            let ys = y.map(|y| y.slice(i0, i1));
            let sums = super::dot_compute::reduce(e, variant, &x.slice(i0, i1), ys.as_ref())?;
            total = [total[0] + sums[0], total[1] + sums[1]];
            i0 = i1;
        }
        return e.write(result, &[finish(total)]);
    }
    match (super::single(x), super::single(&result)) {
        (Some(x), Some(&result)) => {
            let y = y.map(|y| super::single(y).expect("of x's type"));
            fragment(e, variant.defines()[0], x, y, result, len)
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
        let slot = reduce(e, &Pass::sum(variant), x, y)?;
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
    reduce_pass_to_host(e, &Pass::sum(variant), x, y)
}

/// One fragment reduction of `pass` over x (and y), read back.
fn reduce_pass_to_host(e: &mut Engine, pass: &Pass, x: &Vector, y: Option<&Vector>) -> Result<f32> {
    let slot = reduce(e, pass, x, y)?;
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

/// A fragment reduction: the terms of variant `name` of `reduce.frag`, combined by `combine`
/// ("" adds them; "MAX" or "MIN"), with the variant's uniforms (`set`: uScale, uSubScale,
/// uHi, uLo, uNanFirst; the others are left unset and unused).
struct Pass<'a> {
    name: &'a str,
    combine: &'static str,
    scale: f32,
    sub_scale: f32,
    hi: i32,
    lo: i32,
    nan_first: bool,
}

impl<'a> Pass<'a> {
    fn sum(name: &'a str) -> Pass<'a> {
        Pass {
            name,
            combine: "",
            scale: 1.0,
            sub_scale: 1.0,
            hi: 0,
            lo: 0,
            nan_first: false,
        }
    }

    fn with(name: &'a str, combine: &'static str) -> Pass<'a> {
        Pass {
            combine,
            ..Pass::sum(name)
        }
    }

    fn defines(&self, first: &'a str) -> Vec<(&'a str, String)> {
        let mut d = vec![(first, String::new())];
        if !self.combine.is_empty() {
            d.push((self.combine, String::new()));
        }
        d
    }

    fn set(&self, e: &Engine, p: &crate::engine::programs::Program) {
        if self.combine.is_empty() && self.name != "SUMSQ" {
            return;
        }
        let gl = &e.ctx.gl;
        p.set_f32(gl, "uScale", self.scale);
        p.set_f32(gl, "uSubScale", self.sub_scale);
        p.set_i32(gl, "uHi", self.hi);
        p.set_i32(gl, "uLo", self.lo);
        p.set_i32(gl, "uNanFirst", i32::from(self.nan_first));
    }
}

/// Reduces the terms of x (times y, for DOT) to one value; returns the target slot whose first
/// texel holds it.
fn reduce(e: &mut Engine, pass: &Pass, x: &Vector, y: Option<&Vector>) -> Result<usize> {
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
    for round in 0.. {
        let block = block_size(count, source.is_none(), e.target_side());
        let parts = (count + block - 1) / block;
        let slot = round % 2;
        let layout = OutLayout::packed(parts, e.target_side());
        e.target(slot, layout.width, layout.height)?;
        let p = match source {
            None => {
                let mut defines = pass.defines(pass.name);
                defines.push(("TEXELS", String::new()));
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
                pass.set(e, &p);
                p
            }
            Some((src_slot, src_width)) => {
                let texture = e.target_texture(src_slot);
                let p = e.program("reduce", FRAG, &pass.defines("PARTIALS"))?;
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
        // A pass reads its items' operands (four elements each).
        let read = if source.is_none() { ops.len() } else { 1 };
        e.spend(Work::Bytes((read as i64 * count * 16) as f64));
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
