//! saxpy, sscal, scopy and sswap on the compute pipeline (`elementwise.comp`).
//!
//! The kernel works in place on the operands' buffers. Host operands are staged first, packed,
//! so a strided host vector becomes a unit-stride one, and host results are copied back from the
//! staging mapping into exactly the caller's elements. Unit-stride operands whose windows share
//! alignment (host ones are staged to match) move four elements per load and store; other
//! strides move element by element and touch nothing between their elements.

use crate::engine::operand::{Mem, Vector, Window};
use crate::engine::Engine;
use crate::status::Result;

const COMP: &str = include_str!("../../shaders/elementwise.comp");

/// Texture units (and view slots) of the operands' R32F and RGBA32F views, and storage
/// bindings, as `elementwise.comp` declares them.
const X1: u32 = 0;
const Y1: u32 = 1;
const X4: u32 = 2;
const Y4: u32 = 3;
const STORE_Y1: u32 = 0;
const STORE_X1: u32 = 1;
const STORE_Y4: u32 = 2;
const STORE_X4: u32 = 3;
/// Staging units of host operands.
const UNIT_X: usize = 0;
const UNIT_Y: usize = 1;

/// What the kernel does: the variant's define and which operands it reads and writes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Axpy,
    Scal,
    Copy,
    Swap,
}

impl Op {
    fn define(self) -> &'static str {
        match self {
            Op::Axpy => "AXPY",
            Op::Scal => "SCAL",
            Op::Copy => "COPY",
            Op::Swap => "SWAP",
        }
    }
    fn reads_y(self) -> bool {
        self != Op::Copy
    }
}

/// Applies `op` to x and y (for `Scal`, to y alone; x is ignored), chunk by chunk.
pub fn run(e: &mut Engine, op: Op, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    let (mut x, mut y) = (*x, *y);
    if op == Op::Scal {
        x = y;
    }
    if x.inc == -1 && y.inc == -1 {
        // Pairs (x(i), y(i)) are the same whichever end both are counted from.
        x.inc = 1;
        y.inc = 1;
    }
    let len = super::chunk_len(e, &[&x, &y], i64::MAX);
    let mut i0 = 0;
    while i0 < y.n {
        let i1 = (i0 + len).min(y.n);
        chunk(e, op, alpha, &x.slice(i0, i1), &y.slice(i0, i1))?;
        i0 = i1;
    }
    Ok(())
}

/// Where a device operand's lowest element lies relative to texel boundaries once viewed.
fn phase(e: &Engine, v: &Vector) -> Option<i64> {
    v.mem
        .is_device()
        .then(|| Window::of(&e.ctx.info, v.mem, 1).start % 4)
}

fn chunk(e: &mut Engine, op: Op, alpha: f32, x: &Vector, y: &Vector) -> Result<()> {
    let scal = op == Op::Scal;
    // Host operands are staged at the phase of a device one, so that texels line up.
    let pad = phase(e, y).or_else(|| phase(e, x)).unwrap_or(0);
    let yd = match y.mem {
        Mem::Host(_) if !op.reads_y() => {
            let buffer = e.staging.output(&e.ctx.gl, &e.ext, UNIT_Y, pad + y.n)?;
            Vector {
                mem: Mem::Device {
                    buffer,
                    offset: pad,
                    len: pad + y.n,
                },
                n: y.n,
                inc: y.inc.signum(),
            }
        }
        _ => e.upload_vector_padded(UNIT_Y, y, pad)?,
    };
    let xd = if scal {
        yd
    } else {
        e.upload_vector_padded(UNIT_X, x, pad)?
    };
    let vec4 = yd.n >= 8 && yd.inc == 1 && xd.inc == 1 && phase(e, &xd) == phase(e, &yd);
    let mut defines = vec![(op.define(), "1".to_string())];
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("elementwise.comp", COMP, &defines)?;
    let info = &e.ctx.info;
    let (xw, yw) = (
        Window::of(info, xd.mem, xd.span()),
        Window::of(info, yd.mem, yd.span()),
    );
    let gl = &e.ctx.gl;
    for (w, unit, unit4, store1, store4, name) in [
        (&yw, Y1, Y4, STORE_Y1, STORE_Y4, "uY"),
        (&xw, X1, X4, STORE_X1, STORE_X4, "uX"),
    ] {
        e.scratch
            .sample(gl, &e.ext, unit as usize, unit, w, false)?;
        p.set_i32(gl, &format!("{name}1"), unit as i32);
        w.bind_storage(&e.ext, store1);
        if vec4 {
            e.scratch
                .sample(gl, &e.ext, unit4 as usize, unit4, w, true)?;
            p.set_i32(gl, &format!("{name}4"), unit4 as i32);
            w.bind_storage(&e.ext, store4);
        }
    }
    // Logical element 0 lies at the highest address for a negative increment.
    let start = |w: &Window, v: &Vector| w.start + if v.inc < 0 { (v.n - 1) * -v.inc } else { 0 };
    p.set_i32(gl, "uN", yd.n as i32);
    p.set_f32(gl, "uAlpha", alpha);
    p.set_i32(gl, "uXStart", start(&xw, &xd) as i32);
    p.set_i32(gl, "uXInc", xd.inc as i32);
    p.set_i32(gl, "uYStart", start(&yw, &yd) as i32);
    p.set_i32(gl, "uYInc", yd.inc as i32);
    p.set_i32(gl, "uXShift", ((xw.start - yw.start) / 4) as i32);
    let items = if vec4 {
        (yd.n + yw.start + 3) / 4
    } else {
        yd.n
    };
    super::dispatch_1d(e, items, "elementwise dispatch")?;
    if let Mem::Host(_) = y.mem {
        copy_back(e, UNIT_Y, pad, y)?;
    }
    if op == Op::Swap {
        if let Mem::Host(_) = x.mem {
            copy_back(e, UNIT_X, pad, x)?;
        }
    }
    Ok(())
}

/// Copies the staged (packed, after `pad`) elements of host vector `v` back into it.
fn copy_back(e: &mut Engine, unit: usize, pad: i64, v: &Vector) -> Result<()> {
    let Mem::Host(dst) = v.mem else {
        unreachable!()
    };
    let step = v.inc.unsigned_abs() as usize;
    e.staging
        .read_mapped(&e.ctx.gl, &e.ext, unit, pad + v.n, |staged| {
            let staged = &staged[pad as usize..];
            // SAFETY: the caller vouches for `n` elements at stride |inc| from `dst`, the
            // lowest; the staged copy is in the same (memory) order.
            unsafe {
                if step <= 1 {
                    std::ptr::copy_nonoverlapping(staged.as_ptr(), dst, staged.len());
                } else {
                    for (r, v) in staged.iter().enumerate() {
                        *dst.add(r * step) = *v;
                    }
                }
            }
        })
}
