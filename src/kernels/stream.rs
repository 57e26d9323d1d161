//! What the one-dimensional compute kernels over vectors share (`level1_compute`,
//! `dot_compute`): making host operands device operands (in place, or staged so that their
//! texels line up with the device operands'),
//! viewing an operand for four-at-a-time and one-at-a-time reads, and the dispatch.

use crate::engine::element::Scalar;
use crate::engine::jobs::Work;
use crate::engine::operand::{Mem, Vector, Window};
use crate::engine::programs::Program;
use crate::engine::tuning::Vectors;
use crate::engine::Engine;
use crate::status::Result;

/// A vector operand on the device and its window.
#[derive(Clone, Copy)]
pub struct Operand<T: Scalar = f32> {
    pub v: Vector<T>,
    pub w: Window,
    /// The caller's host vector, when `v` is its copy in staging.
    copy_of: Option<Vector<T>>,
}

impl<T: Scalar> Operand<T> {
    fn new(e: &Engine, v: Vector<T>) -> Operand<T> {
        Operand {
            w: Window::of(&e.ctx.info, v.mem, v.span()),
            v,
            copy_of: None,
        }
    }

    /// Window index of logical element 0 (the highest address for a negative increment).
    pub fn start(&self) -> i64 {
        self.w.start + self.v.index(0)
    }

    /// Binds the operand for sampling as `u<name>1` (one element per texel, `FETCH`) on
    /// texture unit `unit`, and when `rgba` also as `u<name>4` (16-byte texels, `FETCH4`) on
    /// `unit + 2`, with `u<name>Start` and `u<name>Inc`.
    pub fn sample(
        &self,
        e: &mut Engine,
        p: &Program,
        name: &str,
        unit: u32,
        rgba: bool,
    ) -> Result<()> {
        let gl = &e.ctx.gl;
        e.scratch
            .sample::<T>(gl, &e.ext, unit as usize, unit, &self.w, false)?;
        p.set_i32(gl, &format!("u{name}1"), unit as i32);
        if rgba {
            e.scratch
                .sample::<T>(gl, &e.ext, unit as usize + 2, unit + 2, &self.w, true)?;
            p.set_i32(gl, &format!("u{name}4"), unit as i32 + 2);
        }
        p.set_i32(gl, &format!("u{name}Start"), self.start() as i32);
        p.set_i32(gl, &format!("u{name}Inc"), self.v.inc as i32);
        Ok(())
    }
}

/// Where a device vector's lowest element lies relative to groups of four elements (texels of
/// floats) once viewed.
pub fn phase<T: Scalar>(e: &Engine, mem: Mem<T>) -> Option<i64> {
    mem.is_device()
        .then(|| Window::of(&e.ctx.info, mem, 1).start % 4)
}

/// Makes the vectors of one launch device operands, the i-th using staging unit i if it needs
/// one. A host vector is used in place where the device can map it; otherwise it is copied
/// into staging (or, when the kernel only writes it, given room there), placed so that its
/// texels line up with those of the device operands.
pub fn prepare<T: Scalar>(
    e: &mut Engine,
    vectors: &[(&Vector<T>, Access)],
) -> Result<Vec<Operand<T>>> {
    let resolved: Vec<Vector<T>> = vectors
        .iter()
        .map(|(v, _)| e.pin_vector(v).unwrap_or(**v))
        .collect();
    let pad = resolved.iter().find_map(|v| phase(e, v.mem)).unwrap_or(0);
    let mut ops = Vec::with_capacity(vectors.len());
    for (unit, (v, (original, access))) in resolved.iter().zip(vectors).enumerate() {
        let Mem::Host(_) = v.mem else {
            ops.push(Operand::new(e, *v));
            continue;
        };
        let staged = match access {
            Access::Read => e.upload_vector_padded(unit, v, pad)?,
            Access::Write => {
                let buffer = e.staging.output::<T>(&e.ctx.gl, &e.ext, unit, pad + v.n)?;
                Vector {
                    mem: Mem::Device {
                        buffer,
                        offset: pad,
                        len: pad + v.n,
                    },
                    n: v.n,
                    inc: v.inc.signum(),
                }
            }
        };
        ops.push(Operand {
            copy_of: Some(**original),
            ..Operand::new(e, staged)
        });
    }
    Ok(ops)
}

/// Whether a kernel reads an operand (written or not) or only writes it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// Whether operands can be read four elements at a time: real, unit stride, aligned alike, and
/// long enough to hold a whole group of four.
pub fn vec4<T: Scalar>(ops: &[&Operand<T>]) -> bool {
    !T::COMPLEX
        && ops
            .iter()
            .all(|o| o.v.inc == 1 && o.v.n >= 8 && o.w.start % 4 == ops[0].w.start % 4)
}

/// Invocations per workgroup of `kind`'s kernels on this device, and the define that builds
/// their shaders so (`GROUP`).
pub fn group(e: &Engine, kind: Vectors) -> (i64, (&'static str, String)) {
    let group = e.tuning.vector_group[kind as usize];
    (group, ("GROUP", group.to_string()))
}

/// Dispatches the bound program, built with workgroups of `group` (see [`group`]), over
/// `items` work items, each invocation looping over its share. Returns the workgroup count
/// (see `groups`).
pub fn dispatch(e: &Engine, items: i64, group: i64, work: Work, what: &str) -> Result<i64> {
    let groups = groups(e, items, group);
    e.dispatch(groups, 1, work, what)?;
    Ok(groups)
}

/// Workgroups of `group` invocations `dispatch` launches for `items`: a software rasterizer
/// gets a few per core (each costs it a task), a GPU enough to fill it.
pub fn groups(e: &Engine, items: i64, group: i64) -> i64 {
    let most = if e.ctx.info.software { 256 } else { 16384 };
    ((items + group - 1) / group).clamp(1, most)
}

/// Items a kernel over `o` loops over: whole groups of four plus the partial ones at both
/// ends, or elements.
pub fn items<T: Scalar>(o: &Operand<T>, rgba: bool) -> i64 {
    if rgba {
        (o.v.n + o.w.start % 4 + 3) / 4
    } else {
        o.v.n
    }
}

/// Copies a staged operand's elements back into the caller's host vector (and only those)
/// once the device has written them; `unit` is the staging unit `prepare` gave it.
pub fn copy_back<T: Scalar>(e: &mut Engine, unit: usize, o: &Operand<T>) -> Result<()> {
    let Some(v) = o.copy_of else {
        return Ok(());
    };
    let Mem::Host(dst) = v.mem else {
        unreachable!("copies are of host vectors")
    };
    let Mem::Device { offset: pad, .. } = o.v.mem else {
        unreachable!("staged copies are device memory")
    };
    let step = v.inc.unsigned_abs() as usize;
    e.staging
        .read_result(&e.ctx.gl, &e.ext, unit, pad + v.n, |staged: &[T]| {
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
