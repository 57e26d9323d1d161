//! The GL engine: one process-wide context behind a mutex, device memory, and the resources the
//! kernels share. Every entry point runs through [`with_engine`], which serializes callers,
//! initialises lazily, and makes the context current on the calling thread for the call only.
//!
//! Its modules are layers, listed here bottom to top; each imports only modules listed before it:
//!
//! 1. Foundations: `element` (the element types), `fault` (fault injection), `fpenv` (the
//!    caller's floating-point environment), `workarounds` (driver faults, by renderer),
//!    `gl_errors` (GL errors as statuses), `shader_stats` (the compiler's statistics, recorded).
//! 2. Device facts: `device` (what the device is and can do), `limits` (how much one launch may
//!    take on), `tuning` (the kernels' parameters on the device), `tuning_table` (tuned
//!    parameters read from tables), `context` (the EGL display and GL context, made current for
//!    a call), `resets` (whether the device was reset and the context lost).
//! 3. Synchronisation: `fences` (waiting for the device), `barriers` (memory barriers, and
//!    settling a driver's lost writes), `scene_fences` (llvmpipe's scene fences, held),
//!    `kernel_timer` (the device's time in the launches, from timer queries), `jobs`
//!    (launches flushed apart within the dispatch budget).
//! 4. The GL function table: `gl_ext` (entry points glow narrows or lacks, and the calls that
//!    must go through the synchronisation below it).
//! 5. Operands: `operand` (where an operand lives, its shape, the window a kernel views).
//! 6. Memory: `buffers` (GL buffers made, regrown and read back), `memory` (device
//!    allocations), `staging` (host operands on the device), `scratch` (multi-pass kernels'
//!    buffers and views), `targets` (render targets).
//! 7. Kernel plumbing: `programs` (shaders compiled and cached), `operand_units` (operands bound
//!    for reading), `stores` (results stored into operands).
//! 8. The engine: `gl_engine` ([`Engine`]: everything above in one context, and what kernels do
//!    through it), `transfer` (its copies), `slot` (the process's one engine, behind its lock),
//!    `exit` and `fork` (retiring it).
//! 9. Entry points: this module ([`with_engine`], [`init`], [`shutdown`], the device's
//!    reports) and `census` (GL objects counted, for the leak tests).

// The layers above, one group each.
pub mod element;
pub mod fault;
pub mod fpenv;
pub mod gl_errors;
mod shader_stats;
pub mod workarounds;

pub mod context;
pub mod device;
pub mod limits;
mod resets;
pub mod tuning;
pub mod tuning_table;

pub mod barriers;
mod fences;
pub mod jobs;
mod kernel_timer;
pub use kernel_timer::Timings;
mod scene_fences;

pub mod gl_ext;

pub mod operand;

pub mod buffers;
pub mod memory;
pub mod scratch;
pub mod staging;
pub mod targets;

pub mod operand_units;
pub mod programs;
pub mod stores;

mod exit;
mod fork;
mod gl_engine;
mod slot;
pub mod transfer;

pub mod census;

use std::ffi::{CStr, CString};
use std::sync::{Mutex, PoisonError};

use crate::status::{Cause, Error, Result, Status};
use device::DeviceInfo;
use gl_errors::{check_gl, drain_gl_errors};
use slot::{lock_engine, Retirement, Slot};

// The engine layer's public face: what every kernel runs on.
pub use gl_engine::Engine;

/// Runs `f` on the engine, creating it on first use.
pub fn with_engine<T>(f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    if matches!(*slot, Slot::Uninit) {
        *slot = create_slot();
    }
    let engine = match &mut *slot {
        Slot::Ready(engine) => engine,
        Slot::Retired(why) => return Err(retired(*why)),
        Slot::Failed(why) => return Err(no_context(why)),
        Slot::Uninit => return Err(no_context("")),
    };
    let _current = engine.ctx.make_current()?;
    drain_gl_errors(&engine.ctx.gl);
    let result = f(engine);
    // Before the context is let go (see `barriers::Barriers::new`).
    engine.ext.barriers.settle(&engine.ctx.gl);
    engine.staging.end_call(&engine.ctx.gl, &engine.ext);
    engine.units.end_call(&engine.ctx.gl, &engine.ext);
    engine.ext.scenes.release(&engine.ctx.gl, false);
    // A GL error the kernel did not check itself still fails the call.
    let result = match (result, check_gl(&engine.ctx.gl, "call")) {
        (Ok(v), Ok(())) => Ok(v),
        (Err(e), _) | (Ok(_), Err(e)) => Err(e),
    };
    // After every wait the call made, before its result is trusted (`resets`).
    if let Err(lost) = engine.resets.check() {
        drop(_current);
        if let Slot::Ready(engine) = std::mem::replace(&mut *slot, Slot::Uninit) {
            engine.abandon();
        }
        debug_log(&lost);
        return Err(lost);
    }
    if result.is_err() {
        // The launches a failed call made before it failed may still be running: the CPU BLAS
        // answers the call next, from the caller's operands, which no launch may write after
        // that; and zink runs them on lavapipe's queue thread, compiling their shaders in LLVM,
        // which crashes the process if it exits meanwhile (a fence made later, at exit, on
        // another thread, does not wait for them there).
        fences::finish(&engine.ctx.gl);
    }
    result
}

/// Creates the engine if there is none, retrying after an earlier failure.
pub fn init() -> Result<()> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    if matches!(*slot, Slot::Uninit | Slot::Failed(_)) {
        *slot = create_slot();
    }
    match &*slot {
        Slot::Ready(_) => Ok(()),
        Slot::Retired(why) => Err(retired(*why)),
        Slot::Failed(why) => Err(no_context(why)),
        Slot::Uninit => Err(no_context("")),
    }
}

/// A call's error where no context could be made (`why`, if it was tried).
fn no_context(why: &str) -> Error {
    let detail = if why.is_empty() {
        "no GL context".to_string()
    } else {
        format!("no GL context: {why}")
    };
    Error::new(Status::NotInitialized, detail)
}

/// Frees every GL object and the context; the next call initialises again.
pub fn shutdown() -> Result<()> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    match std::mem::replace(&mut *slot, Slot::Uninit) {
        Slot::Ready(engine) => engine.destroy(),
        retired @ Slot::Retired(_) => *slot = retired,
        Slot::Uninit | Slot::Failed(_) => {}
    }
    Ok(())
}

/// Starts timing the kernels on the device (`on`), dropping what an earlier timing left
/// unread, or stops; see `kernel_timer`.
pub fn time_kernels(on: bool) -> Result<()> {
    with_engine(|e| e.timer.set(&e.ctx.gl, on))
}

/// The device's time in the launches timed since timing started or since the last read, once
/// they have finished.
pub fn kernel_time() -> Result<kernel_timer::Timings> {
    with_engine(|e| e.timer.read(&e.ctx.gl))
}

/// The kernels' parameters and crossovers on the device, if a context exists or can be created.
pub fn tuning() -> Option<tuning::Tuning> {
    with_engine(|e| Ok(e.tuning)).ok()
}

/// What the device is and can do, if a context exists or can be created.
pub fn device_info() -> Option<DeviceInfo> {
    with_engine(|e| Ok(e.ctx.info.clone())).ok()
}

/// The GL renderer string, if a context exists or can be created. It never dangles, even
/// across shutdown (see [`intern`]).
pub fn device_name() -> Option<&'static CStr> {
    with_engine(|e| Ok(intern(&e.ctx.info.renderer))).ok()
}

/// What `glblasGetDeviceInfo` reports: the renderer, the GL version and the pipeline (kept for
/// the life of the process, see [`intern`]), whether the context is GLES, whether shaders have
/// doubles, and how many device allocations are live.
pub struct Report {
    pub renderer: &'static CStr,
    pub version: &'static CStr,
    pub pipeline: &'static CStr,
    pub gles: bool,
    pub fp64: bool,
    pub allocations: usize,
}

/// The device's [`Report`], creating the context if there is none.
pub fn report() -> Result<Report> {
    with_engine(|e| {
        let info = &e.ctx.info;
        Ok(Report {
            renderer: intern(&info.renderer),
            version: intern(&info.version),
            pipeline: intern(info.pipeline()),
            gles: info.gles,
            fp64: info.fp64,
            allocations: e.memory.count(),
        })
    })
}

/// The device described for people (`glblasDescribeDevice`, `python -m glblas info`): what it
/// is, its pipeline and limits, the driver workarounds in use, and the kernels' parameters with
/// the table they came from. Kept for the life of the process, see [`intern`].
pub fn describe() -> Result<&'static CStr> {
    with_engine(|e| {
        let info = &e.ctx.info;
        let l = &e.limits;
        let yes = |b: bool| if b { "yes" } else { "no" };
        let workarounds = info.workarounds.names();
        let mut text = format!(
            "renderer:      {}\nvendor:        {}\nGL version:    {}{}\ndisplay:       {}\n\
             pipeline:      {}\nfp64:          {}\ntimer queries: {}\nresets:        {}\n\
             limits:        render target side {}, window {} elements, draw buffers {}, gemm \
             rows {}, gemm kernel {}\nworkarounds:   {}\ntuning:        {}\n",
            info.renderer,
            info.vendor,
            info.version,
            if info.gles { " (OpenGL ES)" } else { "" },
            info.platform,
            info.pipeline(),
            yes(info.fp64),
            yes(info.timer_queries),
            e.resets.describe(),
            l.target_side,
            l.window,
            l.draw_buffers,
            match l.gemm_rows {
                i64::MAX => "any".to_string(),
                rows => rows.to_string(),
            },
            match l.gemm_tiled {
                None => "as tuned",
                Some(true) => "tiled (GLBLAS_GEMM_KERNEL)",
                Some(false) => "blocked (GLBLAS_GEMM_KERNEL)",
            },
            if workarounds.is_empty() {
                "none".to_string()
            } else {
                workarounds.join(", ")
            },
            e.tuning_source,
        );
        for line in tuning_table::parameters(&e.tuning) {
            text.push_str(&format!("  {line}\n"));
        }
        Ok(intern(&text))
    })
}

/// `text` kept for the life of the process, as a C string (see [`intern`]).
pub fn keep(text: &str) -> Result<&'static CStr> {
    with_engine(|_| Ok(intern(text)))
}

/// `text` as a C string that lives as long as the process, so that one handed to C never
/// dangles, even across shutdown; one copy is kept per distinct text (a few device names and
/// versions).
fn intern(text: &str) -> &'static CStr {
    // Locked only inside the engine's lock, which fork's handlers hold across fork(): never held
    // there by another thread.
    static TEXTS: Mutex<Vec<&'static CStr>> = Mutex::new(Vec::new());
    let text = CString::new(text).unwrap_or_default();
    let mut texts = TEXTS.lock().unwrap_or_else(PoisonError::into_inner);
    match texts.iter().find(|t| **t == text.as_c_str()) {
        Some(t) => t,
        None => {
            let leaked: &'static CStr = Box::leak(text.into_boxed_c_str());
            texts.push(leaked);
            leaked
        }
    }
}

fn retired(why: Retirement) -> Error {
    match why {
        Retirement::Forked => Error::new(
            Status::NotInitialized,
            "GL is not available in a child created by fork() after the parent used it",
        ),
        // Not a failing device: a call made while the process exits (from an atexit handler,
        // a destructor, another thread) is simply not GL's any more.
        Retirement::Exiting => Error {
            cause: Cause::Declined("exiting"),
            ..Error::new(Status::NotInitialized, "the process is exiting")
        },
    }
}

fn create_slot() -> Slot {
    fork::register();
    match Engine::create(exit::register) {
        Ok(e) => {
            // After the driver's libraries are loaded, so that it runs before their destructors.
            exit::register();
            Slot::Ready(Box::new(e))
        }
        Err(e) => {
            debug_log(&e);
            Slot::Failed(e.detail)
        }
    }
}

/// `GLBLAS_DEBUG=1` prints why a call failed; without it the library prints nothing.
pub fn debug_log(e: &Error) {
    if std::env::var_os("GLBLAS_DEBUG").is_some_and(|v| v != "0") {
        crate::unlocked_io::to_stderr(&format!("glblas: {:?}: {}\n", e.status, e.detail));
    }
}
