//! A workaround for a use-after-free in llvmpipe's threaded rasterizer (Mesa 22.3 here; the same
//! code is in later releases). Each flushed scene has a fence that every rasterizer thread
//! signals when done with the scene: it locks the fence, counts, broadcasts, unlocks. When the
//! API thread starts a new scene it recycles an earlier one whose count it reads as complete,
//! without the lock (`lp_setup_get_empty_scene`), and drops that scene's reference to the fence.
//! If nothing else holds the fence, it is freed while the thread that completed the count is
//! still broadcasting and unlocking, and that thread writes into freed memory. With many small
//! scenes in flight (fragment tiles under small launch limits) this was seen as glibc aborting
//! with "free(): corrupted unsorted chunks" (about 1 full test run in 50), and as a process hung
//! on a freed condition variable (under `MALLOC_PERTURB_`; within seconds once the rasterizer
//! threads were slowed down inside the broadcast).
//!
//! So on llvmpipe glblas holds a reference of its own, a GL sync object, on the fence of every
//! scene it causes: after each draw (`Engine::draw`) and after each glReadPixels
//! (`GlExt::read_pixels`: into a pack buffer Mesa draws the copy, a scene of its own). Each holds
//! the newest flushed scene's fence, and between two holds at most one scene is flushed, so
//! every scene's fence is held. All but the newest are let go once the newest reads as
//! signalled: every rasterizer thread signals the scenes' fences in order, so by then each has
//! left the broadcasts of all earlier ones. The newest stays held until a later one reads as
//! signalled in turn.
//!
//! The newest fence is read through a sync object made for the purpose (a probe): Mesa drops a
//! sync object's reference to its fence as soon as it reads as signalled, so reading a held one
//! would let it go as unsafely as the driver does.

use std::cell::RefCell;

use glow::HasContext;

/// Held fences beyond which `hold` waits for the device to finish and lets them go.
const MAX_HELD: usize = 64;

#[derive(Default)]
pub struct SceneFences {
    /// Whether the driver needs this (llvmpipe: `Workarounds`); elsewhere every method does
    /// nothing.
    enabled: bool,
    /// A RefCell: fences are held from `&self` paths (the reads), and the engine is used by one
    /// thread at a time.
    held: RefCell<Vec<glow::Fence>>,
}

// SAFETY: sync objects are handles of the context, used only while it is current on the thread
// holding the engine's lock.
unsafe impl Send for SceneFences {}

impl SceneFences {
    /// `enabled`: the device needs it (`Workarounds::hold_scene_fences`).
    pub fn new(enabled: bool) -> SceneFences {
        SceneFences {
            enabled,
            held: RefCell::default(),
        }
    }

    /// Flushes the commands issued so far and holds the fence of the newest scene.
    pub fn hold(&self, gl: &glow::Context) {
        if !self.enabled {
            return;
        }
        // SAFETY: the context is current. Without a sync object (out of memory) the scene is
        // not held.
        if let Ok(f) = unsafe { gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) } {
            let held = {
                let mut held = self.held.borrow_mut();
                held.push(f);
                held.len()
            };
            if held > MAX_HELD {
                self.release(gl, true);
            }
        }
    }

    /// Lets go of every held fence but the newest if the newest scene has finished (waiting
    /// for it when `wait`), else keeps them for a later call.
    pub fn release(&self, gl: &glow::Context, wait: bool) {
        let mut held = self.held.borrow_mut();
        if held.is_empty() {
            return;
        }
        // SAFETY: the context is current; the fences are ours.
        unsafe {
            let Ok(probe) = gl.fence_sync(glow::SYNC_GPU_COMMANDS_COMPLETE, 0) else {
                return;
            };
            let done = if wait {
                super::fences::wait_status(gl, probe) != glow::WAIT_FAILED
            } else {
                gl.get_sync_status(probe) == glow::SIGNALED
            };
            gl.delete_sync(probe);
            if done {
                // The newest stays held: a thread may still be inside its broadcast, and the
                // next scene takes the driver's own reference away.
                let newest = held.len() - 1;
                for f in held.drain(..newest) {
                    gl.delete_sync(f);
                }
            }
        }
    }

    /// Lets go of every fence, before the context is destroyed: once the device has finished,
    /// the newest scene's fence is still the driver's last fence (kept by the screen, which
    /// outlives the context), and a failed wait means a lost context, where nothing runs.
    pub fn delete_all(&self, gl: &glow::Context) {
        self.release(gl, true);
        for f in self.held.borrow_mut().drain(..) {
            // SAFETY: the context is current; the fence is ours.
            unsafe { gl.delete_sync(f) };
        }
    }
}
