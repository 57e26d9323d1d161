//! Fault injection, for tests of recovery. `GLBLAS_FAULT` lists the events of the process that
//! fail, comma-separated, each `<kind>:<i>` (the i-th event of that kind) or `<kind>:<i>-<j>`
//! (the i-th to the j-th):
//!
//! - `context`: creating the GL context fails, as where no display offers one.
//! - `alloc`: a GL allocation (buffer storage, a buffer over host memory, a texture) reports
//!   `GL_OUT_OF_MEMORY`.
//! - `launch`: a kernel launch (draw or dispatch) is not run and reports `GL_CONTEXT_LOST`, as on
//!   a lost context.
//! - `drop`: a kernel launch is not run, and nothing says so, as where a driver drops a job:
//!   its outputs hold what they held before.
//! - `corrupt`: a result read back from the device into host memory comes back wrong, as where
//!   a driver returns garbage: the top exponent bit of each 4-byte word read is flipped (an
//!   f32's, or an f64's high word's: far from the right value, often infinite); of the first
//!   word only where results are read straight into the caller's output, which may be strided.
//! - `reset`: a kernel launch is not run, and the device is reset: the next `check_gl` reports
//!   `GL_CONTEXT_LOST`, and the context's reset status a reset it caused (`resets`), until the
//!   engine replaces the context.
//! - `compiling`: asked whether a program compiling in the background is done, the driver says
//!   not yet (`programs`).
//! - `panic`: a BLAS-compatible symbol panics at one of the points of its answer that
//!   [`panic_point`] marks (after building its call, before routing, before the undo snapshot,
//!   after the GL run, before the trace), as a bug in glblas would.
//!
//! GL faults are reported by `check_gl`, as if `glGetError` had returned them, so they take the
//! path a driver's own error takes: its status (ALLOC_FAILED, EXECUTION_FAILED) and the clean-up
//! after the failed command. Tests may also arm faults at run time with [`fail_next`].

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::status::{Error, Result, Status};

/// What a fault breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Context,
    Alloc,
    Launch,
    Drop,
    Corrupt,
    Reset,
    Compiling,
    Panic,
}

const KINDS: [(Fault, &str); 8] = [
    (Fault::Context, "context"),
    (Fault::Alloc, "alloc"),
    (Fault::Launch, "launch"),
    (Fault::Drop, "drop"),
    (Fault::Corrupt, "corrupt"),
    (Fault::Reset, "reset"),
    (Fault::Compiling, "compiling"),
    (Fault::Panic, "panic"),
];

/// Events counted so far, per kind, and the (inclusive) ranges of event numbers that fail.
struct Faults {
    counts: [u64; KINDS.len()],
    failing: Vec<(Fault, u64, u64)>,
}

/// `None` until the first event, which reads `GLBLAS_FAULT`.
static FAULTS: Mutex<Option<Faults>> = Mutex::new(None);

/// The GL error an injected fault left for the next `check_gl`; 0 when none.
static PENDING_GL_ERROR: AtomicU32 = AtomicU32::new(0);

fn parse(spec: &str) -> Vec<(Fault, u64, u64)> {
    spec.split(',')
        .filter_map(|item| {
            let (name, range) = item.trim().split_once(':')?;
            let kind = KINDS.iter().find(|(_, n)| *n == name)?.0;
            let (first, last) = range.split_once('-').unwrap_or((range, range));
            Some((kind, first.parse().ok()?, last.parse().ok()?))
        })
        .collect()
}

/// Runs `f` on the fault table, reading `GLBLAS_FAULT` on first use.
fn with_faults<T>(f: impl FnOnce(&mut Faults) -> T) -> T {
    let mut faults = FAULTS.lock().unwrap_or_else(PoisonError::into_inner);
    let faults = faults.get_or_insert_with(|| Faults {
        counts: [0; KINDS.len()],
        failing: parse(&std::env::var("GLBLAS_FAULT").unwrap_or_default()),
    });
    f(faults)
}

/// Counts one event of `kind`; whether it is one to fail.
fn trips(kind: Fault) -> bool {
    with_faults(|f| {
        let count = &mut f.counts[kind as usize];
        *count += 1;
        let n = *count;
        f.failing
            .iter()
            .any(|&(k, first, last)| k == kind && (first..=last).contains(&n))
    })
}

/// Test switch: makes the `nth` event of `kind` from now on fail (1: the next one), in addition
/// to any armed before.
pub fn fail_next(kind: Fault, nth: u64) {
    if kind == Fault::Panic {
        PANICS_ARMED.store(true, Ordering::Relaxed);
    }
    with_faults(|f| {
        let n = f.counts[kind as usize] + nth;
        f.failing.push((kind, n, n));
    });
}

/// Test switch: makes the next `count` events of `kind` fail, in addition to any armed before.
pub fn fail_from_next(kind: Fault, count: u64) {
    with_faults(|f| {
        let n = f.counts[kind as usize];
        f.failing.push((kind, n + 1, n + count));
    });
}

/// Test switch: the kernel launches counted so far (`launch`), each dispatch and draw.
pub fn launches() -> u64 {
    with_faults(|f| f.counts[Fault::Launch as usize])
}

/// Test switch: disarms every fault not yet reached (those of `GLBLAS_FAULT` too).
pub fn clear() {
    with_faults(|f| f.failing.clear());
    PENDING_GL_ERROR.store(0, Ordering::Relaxed);
}

/// Counts a context creation; an error when this one is to fail.
pub fn context_creation() -> Result<()> {
    if trips(Fault::Context) {
        return Err(Error::new(
            Status::NotInitialized,
            "injected context creation fault",
        ));
    }
    Ok(())
}

/// Counts a GL allocation, just made; when it is one to fail, the next `check_gl` (the caller's
/// check of the allocating command) reports `GL_OUT_OF_MEMORY`.
pub fn allocation() {
    if trips(Fault::Alloc) {
        PENDING_GL_ERROR.store(glow::OUT_OF_MEMORY, Ordering::Relaxed);
    }
}

/// Whether an injected reset has lost the context, until `take_reset` reads it.
static RESET: AtomicBool = AtomicBool::new(false);

/// Counts a kernel launch and runs it, unless it is one to fail: then it is not run, and the
/// next `check_gl` reports `GL_CONTEXT_LOST`; or one to drop: then it is not run, silently; or
/// one lost in a reset: then it is not run, `check_gl` reports `GL_CONTEXT_LOST`, and
/// `take_reset` the reset.
pub fn launch(run: impl FnOnce()) {
    let (fails, drops, resets) = (
        trips(Fault::Launch),
        trips(Fault::Drop),
        trips(Fault::Reset),
    );
    if resets {
        RESET.store(true, Ordering::Relaxed);
    }
    if fails || resets {
        PENDING_GL_ERROR.store(glow::CONTEXT_LOST, Ordering::Relaxed);
    } else if !drops {
        run();
    }
}

/// Counts a query of whether a program compiling in the background is done; whether to answer
/// "not yet" whatever the driver says.
pub fn compiling() -> bool {
    trips(Fault::Compiling)
}

/// Whether `fail_next` has armed a panic.
static PANICS_ARMED: AtomicBool = AtomicBool::new(false);

/// Whether a panic may be armed, asked without the fault table's lock: every BLAS-compatible
/// call passes its points, and a child forked while another thread held that lock would hang
/// on it. Points are counted only then (from the start where `GLBLAS_FAULT` names panics).
fn panics_armed() -> bool {
    static FROM_ENV: OnceLock<bool> = OnceLock::new();
    PANICS_ARMED.load(Ordering::Relaxed)
        || *FROM_ENV.get_or_init(|| {
            std::env::var("GLBLAS_FAULT").is_ok_and(|spec| {
                parse(&spec)
                    .iter()
                    .any(|&(kind, _, _)| kind == Fault::Panic)
            })
        })
}

/// Counts a point of a BLAS-compatible call's answer; panics when it is one to fail.
pub fn panic_point(what: &str) {
    if panics_armed() && trips(Fault::Panic) {
        panic!("injected panic in {what}");
    }
}

/// Counts a read-back of a result into host memory, `words` 4-byte words at `host`; when it is
/// one to corrupt, changes each (see `corrupt` above).
///
/// # Safety
/// `host` holds `words` writable, initialised 4-byte words (aligned or not).
pub unsafe fn read_back(host: *mut std::ffi::c_void, words: usize) {
    if trips(Fault::Corrupt) {
        for w in 0..words {
            // SAFETY: inside the caller's `words`.
            unsafe {
                let p = host.cast::<u32>().add(w);
                p.write_unaligned(p.read_unaligned() ^ (1 << 30));
            }
        }
    }
}

/// Whether an injected reset lost the context since the last time this was asked.
pub(super) fn take_reset() -> bool {
    RESET.swap(false, Ordering::Relaxed)
}

/// The injected GL error waiting to be reported, if any (for `check_gl`).
pub(super) fn take_gl_error() -> Option<u32> {
    Some(PENDING_GL_ERROR.swap(0, Ordering::Relaxed)).filter(|&e| e != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_and_ranges_and_skips_the_rest() {
        assert_eq!(
            parse("launch:3, context:1-2,alloc:7,bogus:1,alloc:x,launch,reset:4-5,corrupt:2"),
            [
                (Fault::Launch, 3, 3),
                (Fault::Context, 1, 2),
                (Fault::Alloc, 7, 7),
                (Fault::Reset, 4, 5),
                (Fault::Corrupt, 2, 2)
            ]
        );
        assert!(parse("").is_empty());
    }
}
