//! Device resets. A board's kernel kills a GPU job that runs too long (panfrost after 500 ms,
//! msm after 250 ms without progress) and resets the GPU, and the GL context may be lost with
//! it. Where the context was made to lose itself on a reset and say so (`context`:
//! EGL_EXT_create_context_robustness, reset notification LOSE_CONTEXT_ON_RESET), the driver's
//! reset status is read after every call, before its result is trusted: after the call's waits,
//! and after any GL_CONTEXT_LOST, which a lost context reports for its commands (`with_engine`).
//! A reset fails the call with DEVICE_LOST, and the engine is abandoned: the next call makes a
//! new context.

use super::context::GpuContext;
use super::fault;
use crate::status::{Error, Result};

type GetGraphicsResetStatus = unsafe extern "system" fn() -> u32;

/// How the context's resets are read.
pub struct Resets {
    /// glGetGraphicsResetStatus or its extension's twin (`DeviceInfo::reset_status`).
    status: Option<GetGraphicsResetStatus>,
}

impl Resets {
    pub fn new(ctx: &GpuContext) -> Resets {
        let status = ctx
            .info
            .reset_status
            .map(|name| ctx.proc_address(name))
            .filter(|p| !p.is_null())
            // SAFETY: the entry point of that name, which takes nothing and returns a GLenum.
            .map(|p| unsafe {
                std::mem::transmute::<*const std::ffi::c_void, GetGraphicsResetStatus>(p)
            });
        Resets { status }
    }

    /// Whether the device reports a reset (an injected one too, `fault`); the context is
    /// current. Once it has, the context is lost for good.
    pub fn check(&self) -> Result<()> {
        let status = if fault::take_reset() {
            glow::GUILTY_CONTEXT_RESET
        } else {
            // SAFETY: the context is current; the query has no other precondition.
            self.status.map_or(glow::NO_ERROR, |f| unsafe { f() })
        };
        let by = match status {
            glow::NO_ERROR => return Ok(()),
            glow::GUILTY_CONTEXT_RESET => "by glblas's own work",
            glow::INNOCENT_CONTEXT_RESET => "by another context's work",
            _ => "for an unknown cause",
        };
        Err(Error::lost(format!(
            "the GL device was reset ({by}) and the context lost"
        )))
    }
}
