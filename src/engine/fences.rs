//! Waiting for the device: fences, and waiting for everything sent so far.

use glow::HasContext;
use std::time::{Duration, Instant};

use super::gl_errors::check_gl;
use crate::status::Result;

/// Waits for the device to finish every command sent so far (none, without a fence: out of
/// memory, or a lost context).
pub fn finish(gl: &glow::Context) {
    // SAFETY: the context is current; `wait` deletes the fence.
    if let Ok(f) = unsafe { gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) } {
        let _ = wait(gl, f);
    }
}

/// Waits for fence `f` (flushing the commands before it) and deletes it.
pub fn wait(gl: &glow::Context, f: glow::Fence) -> Result<()> {
    let result = match wait_status(gl, f) {
        glow::WAIT_FAILED => check_gl(gl, "glClientWaitSync"),
        _ => Ok(()),
    };
    // SAFETY: the context is current; the fence is ours.
    unsafe { gl.delete_sync(f) };
    result
}

/// How long `wait_status` polls before it sleeps in the driver: a short job's fence is
/// signalled within it, and waking from the driver's sleep costs a tiny call tens of µs.
const SPIN: Duration = Duration::from_micros(50);

/// Waits for fence `f` (flushing the commands before it), for as long as it takes; returns
/// glClientWaitSync's last answer: signalled, or WAIT_FAILED.
pub fn wait_status(gl: &glow::Context, f: glow::Fence) -> u32 {
    let start = Instant::now();
    let mut flags = glow::SYNC_FLUSH_COMMANDS_BIT;
    while start.elapsed() < SPIN {
        // SAFETY: the context is current; the caller holds the fence.
        match unsafe { gl.client_wait_sync(f, flags, 0) } {
            glow::TIMEOUT_EXPIRED => flags = 0,
            status => return status,
        }
        std::hint::spin_loop();
    }
    loop {
        // SAFETY: the context is current; the caller holds the fence.
        match unsafe { gl.client_wait_sync(f, glow::SYNC_FLUSH_COMMANDS_BIT, 1_000_000_000) } {
            glow::TIMEOUT_EXPIRED => continue,
            status => return status,
        }
    }
}
