//! GL errors as statuses (`check_gl`), an injected fault (see `fault`) among them, so that it
//! takes the path a driver's own error takes.

use glow::HasContext;

use super::fault;
use crate::status::{Error, Result, Status};

/// Turns pending GL errors (an injected one first, see `fault`) into a status: out-of-memory is
/// ALLOC_FAILED, anything else EXECUTION_FAILED.
pub fn check_gl(gl: &glow::Context, what: &str) -> Result<()> {
    let mut first = fault::take_gl_error();
    // Bounded: a lost context may report errors forever.
    for _ in 0..64 {
        // SAFETY: glGetError has no preconditions beyond a current context.
        let e = unsafe { gl.get_error() };
        if e == glow::NO_ERROR {
            break;
        }
        first.get_or_insert(e);
    }
    match first {
        None => Ok(()),
        Some(glow::OUT_OF_MEMORY) => Err(Error::new(
            Status::AllocFailed,
            format!("{what}: GL_OUT_OF_MEMORY"),
        )),
        Some(e) => Err(Error::new(
            Status::ExecutionFailed,
            format!("{what}: GL error {e:#x}"),
        )),
    }
}

/// Clears the errors earlier GL calls left (not this call's to report).
pub fn drain_gl_errors(gl: &glow::Context) {
    let _ = check_gl(gl, "earlier call");
}
