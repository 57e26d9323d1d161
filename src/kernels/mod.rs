//! The BLAS operations, one module each; each owns its shaders in `shaders/` and decides how
//! the work is split into launches.
//!
//! An operation with a compute kernel is in layers, bottom to top: what both pipelines share,
//! if anything (`gemm_call` and `gemm_scratch`, `gemv_call`, `dot_sums`), the compute kernel
//! (`*_compute`), and the module named for the operation, which holds the fragment kernel and
//! picks between the two.

pub mod dot;
mod dot_compute;
mod dot_sums;
pub mod gemm;
pub mod gemm_call;
pub mod gemm_compute;
mod gemm_scratch;
pub mod gemv;
pub mod gemv_call;
mod gemv_compute;
pub mod level1;
pub mod level1_compute;
pub mod level3;
mod stream;
mod texels;

use std::any::Any;

use crate::engine::element::{Element, Precision, Real, Scalar};
use crate::engine::operand::{Matrix, Mem, Vector};
use crate::engine::Engine;
use crate::status::{Error, Result};

/// Most loop iterations one shader invocation may run in a launch. llvmpipe ends loops without
/// any error once an invocation has run 65535 iterations (gallivm's
/// `LP_MAX_TGSI_LOOP_ITERATIONS`, one budget shared by every loop of the shader, nested or one
/// after another; loops the compiler unrolls do not count), so a kernel whose loop runs over an
/// inner dimension takes at most this many of its elements per launch, on every device
/// (long-running launches are what GPU watchdogs stop, too), and runs no other rolled loop
/// beside it.
pub const MAX_LOOP_ITERATIONS: i64 = 65535;

/// op(X): X, its transpose, or its conjugate transpose (the transpose for real data).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trans {
    N,
    T,
    C,
}

impl Trans {
    /// T when `transposed`, else N.
    pub fn of(transposed: bool) -> Trans {
        if transposed {
            Trans::T
        } else {
            Trans::N
        }
    }

    pub fn transposed(self) -> bool {
        self != Trans::N
    }

    /// Whether op(X) conjugates: for complex data only.
    pub fn conjugates<T: Scalar>(self) -> bool {
        T::COMPLEX && self == Trans::C
    }
}

/// Whether kernels take the compute pipeline here (`DeviceInfo::compute`).
fn compute_available(e: &Engine) -> bool {
    e.ctx.info.compute
}

/// Whether kernels can compute in `T` here: single precision everywhere; double only on the
/// compute pipeline (the fragment kernels are float-only) of a device with fp64 shaders;
/// complex only on the compute pipeline (`gemm_call::OneM`).
pub fn precision_available<T: Scalar>(e: &Engine) -> Result<()> {
    let compute = compute_available(e);
    if T::COMPLEX && !compute {
        return Err(Error::unsupported(
            "no-complex",
            "complex elements need the compute pipeline",
        ));
    }
    if T::Real::PRECISION == Precision::Single || (compute && e.ctx.info.fp64) {
        return Ok(());
    }
    Err(Error::unsupported(
        "no-double",
        "double precision needs the compute pipeline and fp64 shaders",
    ))
}

/// `v` as its single-precision type, where `T` is f32: what the fragment kernels (float-only)
/// take. `None` for double, which `precision_available` keeps off the fragment pipeline.
fn single<G: Any, S: Any>(v: &G) -> Option<&S> {
    (v as &dyn Any).downcast_ref()
}

/// The shader defines that select `T`'s variant of a compute kernel (`shaders/real.glsl`), a
/// complex element's included.
pub(crate) fn real_defines<T: Element>() -> Vec<(&'static str, String)> {
    T::DEFINES
        .iter()
        .map(|&(k, v)| (k, v.to_string()))
        .collect()
}

/// The error of a double-precision call that reached a fragment kernel (which
/// `precision_available` rules out before any work is done).
fn no_fragment_double() -> Error {
    Error::unsupported(
        "no-double",
        "the fragment kernels compute in single precision",
    )
}

/// The pipeline the kernels take on this device (for calls that fit one window): "compute" or
/// "fragment" (`DeviceInfo::pipeline`); `None` without a device. For reports such as the
/// benchmark's.
pub fn pipeline() -> Option<&'static str> {
    crate::engine::with_engine(|e| Ok(e.ctx.info.pipeline())).ok()
}

/// Most elements of `T` one operand window holds: the engine's window (`Limits`), which where
/// operands are storage blocks counts 8-byte elements, so that a double complex one holds half
/// as many.
fn max_window<T: Element>(e: &Engine) -> i64 {
    if e.ctx.info.storage_operands && T::SIZE > 8 {
        e.max_window() * 8 / T::SIZE
    } else {
        e.max_window()
    }
}

/// `v` rounded up to a multiple of `to`.
fn round_up(v: i64, to: i64) -> i64 {
    (v + to - 1) / to * to
}

/// A packed byte against the dispatch budget, in streamed ones (the budget's rate is Level 1's):
/// packing gathers elements across the stored columns, and on zink a pack moved 228 MB/s where
/// the budget reckons 1 GB/s (`tests/dispatch_budget.rs`, a 20.6 ms launch against 5 ms).
const PACK_COST: f64 = 4.0;

/// Longest run of logical elements of `vectors` that one launch can take, at most `cap`: each
/// operand's window must fit one buffer texture (see `vector_window`), and the launch must
/// stay within the dispatch budget (`Limits::dispatch_bytes`), counting each operand's
/// elements read and as many written.
fn chunk_len<T: Element>(e: &Engine, vectors: &[&Vector<T>], cap: i64) -> i64 {
    let window = max_window::<T>(e);
    let moved = (vectors.len() + 1) as f64 * T::SIZE as f64;
    let mut len = cap.min((e.limits.dispatch_bytes / moved) as i64);
    for step in vectors.iter().filter_map(|v| window_step(v)) {
        len = len.min((window - 1) / step + 1);
    }
    len.max(1)
}

/// Whether two operands share storage in a way that makes the order of reads and writes
/// matter: their ranges overlap and they are not the very same vector.
fn overlap<T: Element>(a: &Vector<T>, b: &Vector<T>) -> bool {
    if !a.mem.same_space(&b.mem) {
        return false;
    }
    let (pa, pb) = (a.mem.byte_position(), b.mem.byte_position());
    let same = pa == pb && a.inc == b.inc;
    !same && pa < pb + b.span() * T::SIZE && pb < pa + a.span() * T::SIZE
}

/// Elements a window must hold for a rows×cols part of a matrix operand (packed when uploaded).
fn window_elems<T: Element>(m: &Matrix<T>, rows: i64, cols: i64) -> i64 {
    match m.mem {
        Mem::Host(_) => rows * cols,
        Mem::Device { .. } => (cols - 1) * m.ld + rows,
    }
}

/// Elements a window must hold for `n` elements of a vector operand.
fn vector_window<T: Element>(v: &Vector<T>, n: i64) -> i64 {
    window_step(v).map_or(1, |step| (n - 1) * step + 1)
}

/// Window elements between consecutive elements of a vector operand: 1 for host vectors
/// (uploaded packed), |inc| on the device, none for a zero increment (one element in all).
fn window_step<T: Element>(v: &Vector<T>) -> Option<i64> {
    match v.mem {
        _ if v.inc == 0 => None,
        Mem::Host(_) => Some(1),
        Mem::Device { .. } => Some(v.inc.abs()),
    }
}
