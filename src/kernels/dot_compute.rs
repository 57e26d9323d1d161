//! dot, asum and the plain sum on the compute pipeline (`reduce.comp`), in single or double
//! precision: one pass leaves a partial sum per workgroup in staging, and the host adds those
//! (a few hundred at most on a software rasterizer) in double precision.

use super::stream::{self, Access};
use crate::engine::element::Real;
use crate::engine::operand::{Mem, Vector, Window};
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

/// The sum of the terms of `variant` (DOT, SUM or ASUM) over x (and y), which fit one window.
pub fn reduce<T: Real>(
    e: &mut Engine,
    variant: &str,
    x: &Vector<T>,
    y: Option<&Vector<T>>,
) -> Result<f64> {
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
    let mut defines = super::real_defines::<T>();
    defines.push((variant, "1".to_string()));
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("reduce.comp", COMP, &defines)?;
    xd.sample(e, &p, "X", SAMPLE_X, vec4)?;
    if y.is_some() {
        yd.sample(e, &p, "Y", SAMPLE_Y, vec4)?;
    }
    let items = stream::items(&xd, vec4);
    let most_groups = stream::groups(e, items);
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
    let groups = stream::dispatch(e, items, "reduce dispatch")?;
    e.staging.read_mapped(
        &e.ctx.gl,
        &e.ext,
        UNIT_PARTIALS,
        groups,
        |partials: &[T]| partials.iter().map(|&v| v.to_f64()).sum(),
    )
}
