//! GL's memory model, in one place: every `glMemoryBarrier` the engine issues is issued here,
//! for the access that needs it.
//!
//! What a shader writes to a buffer through an image or a storage block is incoherent. A later
//! command sees it only after a `glMemoryBarrier` with the bit for the way that command touches
//! the buffer: a texel fetch, an image or storage access, `glReadPixels` into it, a buffer
//! command (`glBufferSubData`, `glCopyBufferSubData`, `glGetBufferSubData`, a mapping) or a read
//! through a persistent mapping. And a shader store waits for earlier accesses to the memory it
//! writes only behind the image (or storage) bit. Everything else glblas does to buffers is
//! ordered by GL itself: buffer commands, pixel packs, and the fetches of draws and dispatches.
//! (A fence or `glFinish` orders completion, not visibility: they do not replace these bits.)
//!
//! So each buffer records the bits that later accesses of it still need: all of them after a
//! shader wrote it, the store bits after a shader read it. An access names the buffer and how
//! it is touched: at once (`use_now`, before a buffer command or a pixel pack), or as part of
//! the next launch (`bound`, by the binds made since the launch's program was bound; `launch`
//! then issues what they need, runs the draw or dispatch, and records what it did). A bit is
//! issued once for all buffers that need it, since a barrier is global.
//!
//! Also here, since it is the same bookkeeping: whether the device wrote buffers since the host
//! last waited for it, for a driver that loses such writes unless it is waited for (see
//! `Barriers::new`).

use std::cell::RefCell;
use std::collections::HashMap;

use glow::HasContext;

/// How a command touches a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A shader reads it through a buffer texture.
    Fetch,
    /// A shader reads and writes it through a storage block.
    Storage,
    /// A shader writes it through an image.
    ImageStore,
    /// `glReadPixels` writes it as the pack buffer.
    Pack,
    /// `glBufferSubData` or `glCopyBufferSubData` reads or writes it.
    Copy,
    /// The host reads it with `glGetBufferSubData` or a read mapping.
    HostRead,
    /// The host reads it through its persistent mapping, after a fence.
    Mapped,
}

/// The bits that make shader stores wait for earlier accesses.
const STORE_BITS: u32 = glow::SHADER_STORAGE_BARRIER_BIT | glow::SHADER_IMAGE_ACCESS_BARRIER_BIT;

impl Access {
    /// The barrier bit that makes shader writes before it visible to this access.
    fn bit(self) -> u32 {
        match self {
            Access::Fetch => glow::TEXTURE_FETCH_BARRIER_BIT,
            Access::Storage => glow::SHADER_STORAGE_BARRIER_BIT,
            Access::ImageStore => glow::SHADER_IMAGE_ACCESS_BARRIER_BIT,
            Access::Pack => glow::PIXEL_BUFFER_BARRIER_BIT,
            Access::Copy | Access::HostRead => glow::BUFFER_UPDATE_BARRIER_BIT,
            Access::Mapped => glow::CLIENT_MAPPED_BUFFER_BARRIER_BIT,
        }
    }

    fn shader_writes(self) -> bool {
        matches!(self, Access::Storage | Access::ImageStore)
    }

    fn device_writes(self) -> bool {
        self.shader_writes() || matches!(self, Access::Pack | Access::Copy)
    }
}

/// Every bit an access may need.
const ALL_BITS: u32 = glow::TEXTURE_FETCH_BARRIER_BIT
    | STORE_BITS
    | glow::PIXEL_BUFFER_BARRIER_BIT
    | glow::BUFFER_UPDATE_BARRIER_BIT
    | glow::CLIENT_MAPPED_BUFFER_BARRIER_BIT;

#[derive(Default)]
pub struct Barriers {
    /// Whether device writes are waited for before host reads and before the context is let go
    /// (see `new`).
    settle_writes: bool,
    /// A RefCell: accesses are declared from `&self` paths (binds, stores), and the engine is
    /// used by one thread at a time.
    state: RefCell<State>,
}

#[derive(Default)]
struct State {
    /// Per buffer (by GL name), the bits its later accesses still need.
    pending: HashMap<u32, u32>,
    /// The buffers the next launch uses, and how.
    bound: Vec<(u32, Access)>,
    /// Whether the device wrote a buffer since the host last waited for it (`settle_writes`).
    unsettled: bool,
}

impl Barriers {
    /// The bookkeeping for a device; `settle_writes` where it needs the following
    /// (`Workarounds::settle_writes`).
    ///
    /// On zink over lavapipe (Mesa 22.3, OpenGL on Vulkan on the CPU), buffer contents the device
    /// wrote are sometimes lost to later reads unless the host waits for the device first:
    /// - `glGetBufferSubData` right after a `glReadPixels` into the same buffer returns the
    ///   buffer as it was before the read in about 2% of the iterations of a loop of draw, pixel
    ///   pack and read (the context current throughout);
    /// - where the context is released and made current again between the write and the read
    ///   (glblas's calls), about 1 fragment-pipeline sgemm in 20 into device memory lost its
    ///   stores, even with a fence waited for before the read.
    ///
    /// A fence waited for before the read hides the first, and one waited for before the context
    /// is released the second; so do `ZINK_DEBUG=noreorder` (zink then keeps transfers in
    /// order with draws) and keeping the context current. The fault is zink's (llvmpipe, the
    /// same driver without zink, never shows it; the Vulkan validation layers find no hazard in
    /// zink's command stream); which of its reordered transfers runs early was not found. So
    /// there, after the device wrote a buffer, the host waits for it before it reads a buffer
    /// back and before the call lets the context go (`settle`); tested by
    /// `tests/settled_writes.rs`.
    pub fn new(settle_writes: bool) -> Barriers {
        Barriers {
            settle_writes,
            state: RefCell::default(),
        }
    }

    /// Starts the list of buffers the next launch uses (its program was just bound).
    pub fn new_launch(&self) {
        self.state.borrow_mut().bound.clear();
    }

    /// Records that the next launch touches `buffer` as `access` (a bind made for it).
    pub fn bound(&self, buffer: glow::Buffer, access: Access) {
        self.state.borrow_mut().bound.push((buffer.0.get(), access));
    }

    /// Issues what the buffers bound for this launch need, runs it (`run` issues the draw or
    /// dispatch), and records what it read and wrote. The list stays for further launches with
    /// the same bindings.
    pub fn launch(&self, gl: &glow::Context, run: impl FnOnce()) {
        let needed = {
            let state = self.state.borrow();
            state.bound.iter().fold(0, |bits, &(b, access)| {
                bits | state.pending.get(&b).copied().unwrap_or(0) & access.bit()
            })
        };
        self.issue(gl, needed);
        run();
        let mut state = self.state.borrow_mut();
        let State {
            pending,
            bound,
            unsettled,
        } = &mut *state;
        for &(b, access) in bound.iter() {
            if access.shader_writes() {
                pending.insert(b, ALL_BITS);
                *unsettled = true;
            } else {
                // A read: later shader stores to the buffer must wait for it.
                *pending.entry(b).or_default() |= STORE_BITS;
            }
        }
    }

    /// Issues what accessing `buffer` as `access` right now (not in a launch) needs, and
    /// records a write by the device; before a host read, settles the device's writes (see
    /// `settle`).
    pub fn use_now(&self, gl: &glow::Context, buffer: glow::Buffer, access: Access) {
        let b = buffer.0.get();
        let needed = self.state.borrow().pending.get(&b).copied().unwrap_or(0) & access.bit();
        self.issue(gl, needed);
        if access.device_writes() {
            self.state.borrow_mut().unsettled = true;
        } else if access == Access::HostRead {
            self.settle(gl);
        }
    }

    /// Where the driver needs it (see `new`), waits for the device to finish what it wrote since
    /// the host last waited.
    pub fn settle(&self, gl: &glow::Context) {
        let mut state = self.state.borrow_mut();
        if !(self.settle_writes && state.unsettled) {
            return;
        }
        super::fences::finish(gl);
        state.unsettled = false;
    }

    /// Forgets a deleted buffer (its name may be reused by a new one).
    pub fn forget(&self, buffer: glow::Buffer) {
        let b = buffer.0.get();
        let mut state = self.state.borrow_mut();
        state.pending.remove(&b);
        state.bound.retain(|&(x, _)| x != b);
    }

    /// Issues a barrier with `bits` (if any), which every buffer then no longer needs.
    fn issue(&self, gl: &glow::Context, bits: u32) {
        if bits == 0 {
            return;
        }
        // SAFETY: the context is current.
        unsafe { gl.memory_barrier(bits) };
        self.state.borrow_mut().pending.retain(|_, need| {
            *need &= !bits;
            *need != 0
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_bits_cover_every_barrier_a_shader_write_can_need() {
        let all = [
            Access::Fetch,
            Access::Storage,
            Access::ImageStore,
            Access::Pack,
            Access::Copy,
            Access::HostRead,
            Access::Mapped,
        ]
        .iter()
        .fold(0, |bits, a| bits | a.bit());
        assert_eq!(all, ALL_BITS);
    }
}
