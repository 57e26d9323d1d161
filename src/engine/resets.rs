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
    /// glGetGraphicsResetStatus or its extension's twin (`DeviceInfo::reset_status`), where the
    /// driver's answer is used.
    status: Option<GetGraphicsResetStatus>,
    /// What `describe` says.
    how: String,
}

impl Resets {
    /// Reads the entry point, with the context current, and asks it once: a driver that reports
    /// a reset before any work was sent cannot be believed later (freedreno under Mesa's
    /// drm-shim reports one on every call), and its answer is not used.
    pub fn new(ctx: &GpuContext) -> Resets {
        let Some(name) = ctx.info.reset_status else {
            return Resets {
                status: None,
                how: "not reported (no robust context)".into(),
            };
        };
        let p = ctx.proc_address(name);
        if p.is_null() {
            return Resets {
                status: None,
                how: format!("not reported (no {name})"),
            };
        }
        // SAFETY: the entry point of that name, which takes nothing and returns a GLenum.
        let f =
            unsafe { std::mem::transmute::<*const std::ffi::c_void, GetGraphicsResetStatus>(p) };
        // SAFETY: the context is current; the query has no other precondition.
        match unsafe { f() } {
            glow::NO_ERROR => Resets {
                status: Some(f),
                how: format!("reported ({name}: a robust context)"),
            },
            at_once => Resets {
                status: None,
                how: format!(
                    "not reported ({name} said {at_once:#x} before any work: not believed)"
                ),
            },
        }
    }

    /// Whether and how resets are reported, for people (`glblasDescribeDevice`).
    pub fn describe(&self) -> &str {
        &self.how
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
