//! dot, asum and the plain sum on the compute pipeline (`reduce.comp`), in single or double
//! precision, real or complex: one pass leaves a partial sum per workgroup in staging, and the
//! host adds those (a few hundred at most on a software rasterizer) in double precision. Also
//! nrm2's and i?amax's passes (`reduce_abs.comp`).

use super::dot_sums::{Squares, Variant};
use super::stream::{self, Access};
use crate::engine::element::{Real, Scalar};
use crate::engine::jobs::Work;
use crate::engine::operand::{Mem, Vector, Window};
use crate::engine::tuning::Vectors;
use crate::engine::Engine;
use crate::status::Result;

const COMP: &str = include_str!("../../shaders/reduce.comp");

/// Texture units of the operands' one-element views (their 16-byte-texel views take the next
/// two).
const SAMPLE_X: u32 = 0;
const SAMPLE_Y: u32 = 1;
/// Staging unit of the partial sums (the operands take the first two).
const UNIT_PARTIALS: usize = 2;
/// The partial sums' storage binding, as `reduce.comp` declares it.
const STORE_PARTIALS: u32 = 0;

/// The sums of each part of the terms of `variant` over x (and y), which fit one window (the
/// second 0 for real terms).
pub fn reduce<T: Scalar>(
    e: &mut Engine,
    variant: Variant,
    x: &Vector<T>,
    y: Option<&Vector<T>>,
) -> Result<[f64; 2]> {
    let (mut x, mut y) = (*x, y.copied());
    match &mut y {
        // Pairs (x(i), y(i)) are the same whichever end both are counted from.
        Some(y) if x.inc == -1 && y.inc == -1 => {
            x.inc = 1;
            y.inc = 1;
        }
        // The order of a plain sum's terms is free.
        None if x.inc < 0 => x.inc = -x.inc,
        _ => {}
    }
    let ops = match &y {
        Some(y) => stream::prepare(e, &[(&x, Access::Read), (y, Access::Read)])?,
        None => stream::prepare(e, &[(&x, Access::Read)])?,
    };
    let (xd, yd) = (ops[0], *ops.last().expect("one operand or two"));
    let vec4 = stream::vec4(&[&xd, &yd]);
    let (group, group_define) = stream::group(e, Vectors::Level1);
    let mut defines = super::real_defines::<T>();
    defines.push(group_define);
    defines.extend(variant.defines().iter().map(|&d| (d, "1".to_string())));
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("reduce.comp", COMP, &defines)?;
    xd.sample(e, &p, "X", SAMPLE_X, vec4)?;
    if y.is_some() {
        yd.sample(e, &p, "Y", SAMPLE_Y, vec4)?;
    }
    let items = stream::items(&xd, vec4);
    let most_groups = stream::groups(e, items, group);
    let partials = e
        .staging
        .output::<T>(&e.ctx.gl, &e.ext, UNIT_PARTIALS, most_groups)?;
    let partials: Mem<T> = Mem::Device {
        buffer: partials,
        offset: 0,
        len: most_groups,
    };
    Window::of(&e.ctx.info, partials, most_groups).bind_storage(&e.ext, STORE_PARTIALS);
    let gl = &e.ctx.gl;
    p.set_i32(gl, "uN", xd.v.n as i32);
    p.set_i32(gl, "uYShift", ((yd.w.start - xd.w.start) / 4) as i32);
    let work = Work::Bytes((ops.len() as i64 * xd.v.n * T::SIZE) as f64);
    let groups = stream::dispatch(e, items, group, work, "reduce dispatch")?;
    e.staging.read_result(
        &e.ctx.gl,
        &e.ext,
        UNIT_PARTIALS,
        groups,
        |partials: &[T]| {
            partials.iter().fold([0.0, 0.0], |[re, im], v| {
                let [r, i] = v.f64_parts();
                [re + r, im + i]
            })
        },
    )
}

const COMP_ABS: &str = include_str!("../../shaders/reduce_abs.comp");

/// Runs variant `variant` (NRM2 or IAMAX) of `reduce_abs.comp` over x (one window; a positive
/// increment, or 0), with `defines` beside it, and gives `read` the four `P`s of each
/// workgroup's partial.
fn reduce_abs<T: Scalar, P: Real, R>(
    e: &mut Engine,
    variant: &str,
    x: &Vector<T>,
    defines: Vec<(&'static str, String)>,
    uniforms: impl FnOnce(&Engine, &crate::engine::programs::Program),
    read: impl FnOnce(&[P]) -> R,
) -> Result<R> {
    let xd = stream::prepare(e, &[(x, Access::Read)])?[0];
    let vec4 = stream::vec4(&[&xd]);
    let (group, group_define) = stream::group(e, Vectors::Level1);
    let mut all = super::real_defines::<T>();
    all.push(group_define);
    all.push((variant, "1".to_string()));
    all.extend(defines);
    if vec4 {
        all.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("reduce_abs.comp", COMP_ABS, &all)?;
    xd.sample(e, &p, "X", SAMPLE_X, vec4)?;
    let items = stream::items(&xd, vec4);
    let most_groups = stream::groups(e, items, group);
    let partials = e
        .staging
        .output::<P>(&e.ctx.gl, &e.ext, UNIT_PARTIALS, 4 * most_groups)?;
    let partials: Mem<P> = Mem::Device {
        buffer: partials,
        offset: 0,
        len: 4 * most_groups,
    };
    Window::of(&e.ctx.info, partials, 4 * most_groups).bind_storage(&e.ext, STORE_PARTIALS);
    p.set_i32(&e.ctx.gl, "uN", xd.v.n as i32);
    uniforms(e, &p);
    let work = Work::Bytes((xd.v.n * T::SIZE) as f64);
    let groups = stream::dispatch(e, items, group, work, "reduce_abs dispatch")?;
    e.staging
        .read_result(&e.ctx.gl, &e.ext, UNIT_PARTIALS, 4 * groups, read)
}

/// The sum of squares of x (one window) in Blue's accumulators, as `Squares`.
pub fn squares<T: Scalar>(e: &mut Engine, x: &Vector<T>) -> Result<Squares> {
    let mut x = *x;
    // The order of the terms is free.
    x.inc = x.inc.abs();
    let defines = Squares::defines::<T::Real>();
    reduce_abs(
        e,
        "NRM2",
        &x,
        defines,
        |_, _| {},
        |partials: &[T::Real]| {
            let mut s = Squares::new::<T::Real>();
            for q in partials.chunks_exact(4) {
                s.add(q[0].to_f64(), q[1].to_f64(), q[2].to_f64(), q[3].to_f64());
            }
            s
        },
    )
}

/// The (key, 0-based index) of the first largest |x[i]| of x (one window, a positive
/// increment), keys as `super::dot::iamax` compares them; `nan_first` when x's element 0 is the
/// call's first.
pub fn iamax<T: Scalar>(e: &mut Engine, x: &Vector<T>, nan_first: bool) -> Result<(u64, i64)> {
    let uniforms = |e: &Engine, p: &crate::engine::programs::Program| {
        p.set_i32(&e.ctx.gl, "uNanFirst", i32::from(nan_first));
    };
    reduce_abs(e, "IAMAX", x, vec![], uniforms, |partials: &[f32]| {
        let mut best = (0u64, i64::MAX);
        for q in partials.chunks_exact(4) {
            let word = |i: usize| u64::from(q[i].to_bits());
            let b = (word(0) | word(1) << 32, i64::from(q[2].to_bits()));
            if b.0 > best.0 || (b.0 == best.0 && b.1 < best.1) {
                best = b;
            }
        }
        best
    })
}
