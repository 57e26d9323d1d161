//! axpy, scal, copy and swap on the compute pipeline (`elementwise.comp`), in single or double
//! precision, real or complex (the shader's `ELEM`).
//!
//! The kernel works in place on the operands' buffers. Host operands are staged first, packed,
//! so a strided host vector becomes a unit-stride one, and host results are copied back from the
//! staging mapping into exactly the caller's elements. Unit-stride operands whose windows share
//! alignment (host ones are staged to match) move four elements per load and store; other
//! strides move element by element and touch nothing between their elements.

use super::stream::{self, Access};
use crate::engine::element::Scalar;
use crate::engine::jobs::Work;
use crate::engine::operand::Vector;
use crate::engine::tuning::Vectors;
use crate::engine::Engine;
use crate::status::Result;

const COMP: &str = include_str!("../../shaders/elementwise.comp");

/// Texture units of the operands' one-element views (their 16-byte-texel views take the next
/// two), and
/// storage bindings, as `elementwise.comp` declares them.
const SAMPLE_X: u32 = 0;
const SAMPLE_Y: u32 = 1;
const STORE_Y1: u32 = 0;
const STORE_X1: u32 = 1;
const STORE_Y4: u32 = 2;
const STORE_X4: u32 = 3;

/// What the kernel does: the variant's define and which operands it reads and writes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Axpy,
    Scal,
    Copy,
    Swap,
}

impl Op {
    pub fn define(self) -> &'static str {
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
pub fn run<T: Scalar>(
    e: &mut Engine,
    op: Op,
    alpha: T,
    x: &Vector<T>,
    y: &Vector<T>,
) -> Result<()> {
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

fn chunk<T: Scalar>(e: &mut Engine, op: Op, alpha: T, x: &Vector<T>, y: &Vector<T>) -> Result<()> {
    let y_access = if op.reads_y() {
        Access::Read
    } else {
        Access::Write
    };
    let ops = if op == Op::Scal {
        stream::prepare(e, &[(y, y_access)])?
    } else {
        stream::prepare(e, &[(y, y_access), (x, Access::Read)])?
    };
    let (yd, xd) = (ops[0], *ops.last().expect("one operand or two"));
    let vec4 = stream::vec4(&[&yd, &xd]);
    let (group, group_define) = stream::group(e, Vectors::Level1);
    let mut defines = super::real_defines::<T>();
    defines.push(group_define);
    defines.push((op.define(), "1".to_string()));
    if vec4 {
        defines.push(("VEC4", "1".to_string()));
    }
    let p = e.compute_program("elementwise.comp", COMP, &defines)?;
    yd.sample(e, &p, "Y", SAMPLE_Y, vec4)?;
    xd.sample(e, &p, "X", SAMPLE_X, vec4)?;
    yd.w.bind_storage(&e.ext, STORE_Y1);
    xd.w.bind_storage(&e.ext, STORE_X1);
    if vec4 {
        yd.w.bind_storage(&e.ext, STORE_Y4);
        xd.w.bind_storage(&e.ext, STORE_X4);
    }
    let gl = &e.ctx.gl;
    p.set_i32(gl, "uN", yd.v.n as i32);
    p.set_real(gl, "uAlpha", alpha);
    p.set_i32(gl, "uXShift", ((xd.w.start - yd.w.start) / 4) as i32);
    // Each operand read, and y written.
    let work = Work::Bytes(((ops.len() + 1) as i64 * yd.v.n * T::SIZE) as f64);
    let items = stream::items(&yd, vec4);
    stream::dispatch(e, items, group, work, "elementwise dispatch")?;
    stream::copy_back(e, 0, &yd)?;
    if op == Op::Swap {
        stream::copy_back(e, 1, &xd)?;
    }
    Ok(())
}
