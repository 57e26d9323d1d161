//! `GLBLAS_VERIFY=1`: each GL result is checked before it is handed back, by checksums
//! (algorithm-based fault tolerance). Before the call, the routine's description sums what its
//! result must be, times a probe vector, from its inputs (`Describe::checksums`, with `probe`'s
//! operators: for gemm, alpha·op(A)·(op(B)·x) + beta·C·x); after it, the result's own sums
//! (C·x). They must agree within a bound from the rounding-error analysis: O(n²) work against
//! the product's O(n³). A result that does not is an error of cause `Unverified`: the CPU BLAS
//! answers a BLAS-compatible call instead, the glblas API returns EXECUTION_FAILED, and either
//! way the outputs are first put back as they were.
//!
//! A call on device operands is checked on host copies of them (`mirror`): read back before the
//! call, its outputs again after it.

use std::sync::atomic::{AtomicU8, Ordering};

use super::checksums::Checksums;
use super::describe::{on_device, Operand, Relocate, Value};
use super::mirror::Mirrors;
use super::undo::Snapshot;
use crate::engine::memory::is_device_address;
use crate::status::{Cause, Error, Result, Status};

/// 0 until `GLBLAS_VERIFY` is read, then 1 (off) or 2 (on).
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether `GLBLAS_VERIFY` is set to 1 (read once), or a test turned verification on.
pub fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        0 => {
            let on = std::env::var("GLBLAS_VERIFY").is_ok_and(|v| v == "1");
            STATE.store(if on { 2 } else { 1 }, Ordering::Relaxed);
            on
        }
        state => state == 2,
    }
}

/// Test switch: turns verification on or off, whatever `GLBLAS_VERIFY` says.
pub fn set_enabled(on: bool) {
    STATE.store(if on { 2 } else { 1 }, Ordering::Relaxed);
}

/// Runs `gl` (a call's GL computation) and, where verification is on and its description gives
/// `checksums` (over the operands where `Relocate` puts them: a device operand's host copy),
/// checks its result; a result that fails is an error of cause `Unverified`, its outputs first
/// put back where `restore` asks (the glblas API's, and any call's on device memory; a BLAS
/// name's caller puts back what the CPU BLAS reads, `undo`).
///
/// # Safety
/// `operands` are the call's, valid for it; `checksums` reads them.
pub unsafe fn run(
    operands: &[Operand],
    restore: bool,
    checksums: impl FnOnce(Relocate) -> Option<Checksums>,
    gl: impl FnOnce() -> Result<Value>,
) -> Result<Value> {
    // A NULL operand the call needs is GL's to refuse (the API's INVALID_VALUE), never read here.
    let null = operands
        .iter()
        .any(|o| o.region.base.is_null() && o.region.rows > 0 && o.region.cols > 0);
    if !enabled() || null {
        return gl();
    }
    let mut mirrors = None;
    if on_device(operands) {
        // One that cannot be read back is GL's to refuse.
        let Some(m) = Mirrors::read(operands, restore) else {
            return gl();
        };
        mirrors = Some(m);
    }
    let host = |p: *const u8| mirrors.as_ref().map_or(p, |m| m.host(p));
    let Some(checks) = checksums(&host) else {
        return gl();
    };
    let on_host: Vec<Operand> = operands
        .iter()
        .filter(|o| !is_device_address(o.region.base as usize))
        .cloned()
        .collect();
    // SAFETY: host operands, valid for the call.
    let saved = restore.then(|| unsafe { Snapshot::outputs(&on_host) });
    let value = gl()?;
    if let Some(m) = &mut mirrors {
        m.reread()?;
    }
    match checks.disagreement(&(checks.found)(value)) {
        None => Ok(value),
        Some(why) => {
            if let Some(saved) = saved {
                // SAFETY: the same call's operands.
                unsafe { saved.restore() };
            }
            if let Some(m) = &mirrors {
                // Where `restore` asked, its copies of the outputs. A device that cannot take
                // them back has lost them: the call fails either way.
                let _ = m.restore(operands);
            }
            Err(Error {
                status: Status::ExecutionFailed,
                detail: format!("its result failed its check (GLBLAS_VERIFY): {why}"),
                cause: Cause::Unverified,
            })
        }
    }
}
