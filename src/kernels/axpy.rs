//! saxpy: y := alpha*x + y.

use crate::engine::operand::{Mem, OutLayout, Vector};
use crate::engine::Engine;
use crate::status::Result;

const FRAG: &str = include_str!("../../shaders/axpy.frag");

pub fn saxpy(e: &mut Engine, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    // The reference BLAS returns before reading anything when alpha is zero.
    if x.n == 0 || alpha == 0.0 {
        return Ok(());
    }
    if super::overlap(x, y) {
        return sequential(e, alpha, x, y);
    }
    if y.inc == 0 {
        // Every term lands in y[0]: y[0] + alpha*sum(x).
        let s = super::dot::sum(e, x)?;
        let mut y0 = [0.0f32];
        e.read(y.mem, &mut y0)?;
        y0[0] += alpha * s;
        return e.write(y.mem, &y0);
    }
    let len = super::chunk_len(e, &[x, y], OutLayout::capacity(y.inc, e.target_side()));
    let mut i0 = 0;
    while i0 < x.n {
        let i1 = (i0 + len).min(x.n);
        let (xs, ys) = (x.slice(i0, i1), y.slice(i0, i1));
        let xd = e.upload_vector(0, &xs)?;
        let yd = e.upload_vector(1, &ys)?;
        let layout = OutLayout::for_vector(&ys, e.target_side());
        e.target(0, layout.width, layout.height)?;
        let p = e.program("axpy", FRAG, &[])?;
        e.bind_vector(&p, 0, "X", &xd)?;
        e.bind_vector(&p, 1, "Y", &yd)?;
        layout.set_uniforms(&e.ctx.gl, &p);
        p.set_f32(&e.ctx.gl, "uAlpha", alpha);
        e.draw()?;
        e.store_vector(&layout, &ys)?;
        i0 = i1;
    }
    Ok(())
}

/// The reference loop, for x and y overlapping: each y[i] sees the updates made before it.
fn sequential(e: &mut Engine, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    let (px, py) = (x.mem.byte_position(), y.mem.byte_position());
    let lo = px.min(py);
    let hi = (px + x.span() * 4).max(py + y.span() * 4);
    let (ox, oy) = ((px - lo) / 4, (py - lo) / 4);
    let base = if px <= py { x.mem } else { y.mem };
    let run = |mem: &mut [f32]| {
        for i in 0..x.n {
            let xi = mem[(ox + x.index(i)) as usize];
            mem[(oy + y.index(i)) as usize] += alpha * xi;
        }
    };
    match base {
        Mem::Host(p) => {
            // SAFETY: both vectors were checked by the caller and lie inside [lo, hi).
            run(unsafe { std::slice::from_raw_parts_mut(p, ((hi - lo) / 4) as usize) });
            Ok(())
        }
        Mem::Device { .. } => {
            let mut buf = vec![0.0f32; ((hi - lo) / 4) as usize];
            e.read(base, &mut buf)?;
            run(&mut buf);
            e.write(base, &buf)
        }
    }
}
