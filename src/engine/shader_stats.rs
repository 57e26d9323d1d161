//! The driver's own compiler statistics for each program glblas builds, recorded where
//! `GLBLAS_SHADER_STATS=<file>` asks: how the boards' compilers (V3D, Mali, Adreno under Mesa's
//! drm-shim) fit glblas's kernels into their registers (`scripts/board_drivers/`).
//!
//! Mesa's drivers report a compiled shader's statistics (instructions, threads, spills and
//! fills) as `KHR_debug` messages from the shader compiler (v3d with `V3D_DEBUG=precompile`, so
//! that it compiles when the program links). The context reports them synchronously, on the
//! thread that links the program, which `compiling` names: each message is appended to the
//! file as one line, `<program>\t<message>`.

use std::cell::RefCell;
use std::io::Write;

use glow::HasContext;

/// The label of a message made while no program of glblas's compiles: a shader of the driver's
/// own (v3d compiles one for a buffer clear).
const DRIVERS_OWN: &str = "(the driver's own)";

thread_local! {
    /// The program this thread is compiling and linking, while `compiling` runs.
    static PROGRAM: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Where asked, and where the context has `KHR_debug`, has it report its compiler's messages
/// synchronously and records them.
pub fn install(gl: &mut glow::Context) {
    let Some(path) = std::env::var_os("GLBLAS_SHADER_STATS").filter(|p| !p.is_empty()) else {
        return;
    };
    if !gl.supports_debug() {
        eprintln!("glblas: warning: GLBLAS_SHADER_STATS: the context has no KHR_debug");
        return;
    }
    // SAFETY: the context is current on this thread; the callback catches its own panics.
    unsafe {
        gl.enable(glow::DEBUG_OUTPUT);
        gl.enable(glow::DEBUG_OUTPUT_SYNCHRONOUS);
        gl.debug_message_callback(move |source, kind, _id, _severity, message| {
            if source == glow::DEBUG_SOURCE_SHADER_COMPILER && kind == glow::DEBUG_TYPE_OTHER {
                let _ = std::panic::catch_unwind(|| record(&path, message));
            }
        });
    }
}

/// Runs `f`, which compiles and links the program `name`, naming it for the messages it makes.
pub fn compiling<T>(name: impl FnOnce() -> String, f: impl FnOnce() -> T) -> T {
    if std::env::var_os("GLBLAS_SHADER_STATS").is_none() {
        return f();
    }
    PROGRAM.set(Some(name()));
    let out = f();
    PROGRAM.set(None);
    out
}

fn record(path: &std::ffi::OsStr, message: &str) {
    PROGRAM.with_borrow(|program| {
        let program = program.as_deref().unwrap_or(DRIVERS_OWN);
        let line = format!("{program}\t{}\n", message.trim_end().replace('\n', " "));
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = f.write_all(line.as_bytes());
        }
    });
}
