//! Device memory: each allocation is a GL buffer object plus an address range reserved with
//! `mmap(PROT_NONE)`, so device pointers never collide with host memory, any address inside the
//! range names "this buffer at this offset", and a host dereference by mistake faults at once.
//!
//! Freed ranges stay reserved for a while (the quarantine), so that a stale device pointer, or a
//! second free, is recognised and refused rather than taken for host memory. The ranges of
//! allocations a device reset lost (`resets`) stay reserved until the caller frees them: until
//! then a call that names one is refused with DEVICE_LOST.

use std::collections::{BTreeMap, VecDeque};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

use std::cell::RefCell;
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::buffers::new_buffer;
use super::gl_errors::drain_gl_errors;
use super::gl_ext::GlExt;
use crate::status::{Error, Result, Status};

/// One device allocation.
pub struct Allocation {
    pub buffer: glow::Buffer,
    /// Bytes the caller asked for (the GL buffer may hold a few more: `buffers::storage_bytes`).
    pub bytes: usize,
    /// Bytes reserved in the address space: `bytes` rounded up to pages, plus one guard page so a
    /// pointer just past the end still names this allocation and is refused, not read as host memory.
    reserved: usize,
}

/// Where a pointer argument lives.
#[derive(Clone, Copy, Debug)]
pub enum Location {
    Host(usize),
    /// A device buffer, at this byte offset; `available` bytes remain before its end
    /// (zero or less when the pointer is in the guard page past the end).
    Device {
        buffer: glow::Buffer,
        offset: usize,
        available: isize,
    },
    /// Inside a freed allocation still in quarantine.
    Freed,
    /// Inside an allocation a device reset lost, not yet freed.
    Lost,
}

/// How many freed ranges stay reserved. Each costs address space and one kernel mapping, no
/// memory; 1024 is far below the usual limit of 65530 mappings.
pub const QUARANTINE_RANGES: usize = 1024;

/// Freed ranges by start (with their length), and their order of freeing. Process-wide, since
/// pointers from before a glblasShutdown must still be recognised after it.
struct Quarantine {
    ranges: BTreeMap<usize, usize>,
    order: VecDeque<usize>,
}

static QUARANTINE: Mutex<Quarantine> = Mutex::new(Quarantine {
    ranges: BTreeMap::new(),
    order: VecDeque::new(),
});

/// Live reservations by start (with their length), kept process-wide so that the BLAS-compatible
/// symbols can tell a device pointer from host memory without the engine's lock or a context.
static LIVE: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());
/// The reservations of allocations a reset lost, by start (with their length), until freed.
static LOST: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());
/// Whether any device allocation was ever made: programs that never make one pay one load.
static EVER_ALLOCATED: AtomicBool = AtomicBool::new(false);

/// Locks one of the maps (std mutexes, for the reason given at `slot::ENGINE`).
fn lock<T>(m: &'static Mutex<T>) -> MutexGuard<'static, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

type ForkGuards = (
    MutexGuard<'static, BTreeMap<usize, usize>>,
    MutexGuard<'static, BTreeMap<usize, usize>>,
    MutexGuard<'static, Quarantine>,
);

thread_local! {
    /// The maps' guards, held by the forking thread across fork().
    static HELD: RefCell<Option<ForkGuards>> = const { RefCell::new(None) };
}

/// For `fork`: holds the address maps across fork() (order: live, lost, then quarantine, as
/// `is_device_address` takes them), so none is copied mid-update.
pub(super) fn lock_maps_for_fork() {
    let guards = (lock(&LIVE), lock(&LOST), lock(&QUARANTINE));
    HELD.with(|h| *h.borrow_mut() = Some(guards));
}

/// Releases what `lock_maps_for_fork` took, in the parent or the child after fork().
pub(super) fn unlock_maps_after_fork() {
    HELD.with(|h| h.borrow_mut().take());
}

/// Whether `addr` lies in a device allocation of this process, live, lost or freed in
/// quarantine.
pub fn is_device_address(addr: usize) -> bool {
    EVER_ALLOCATED.load(Ordering::Acquire)
        && (range_contains(&lock(&LIVE), addr)
            || range_contains(&lock(&LOST), addr)
            || lock(&QUARANTINE).contains(addr))
}

/// Frees an allocation a reset lost, if `ptr` is the start of one: its range goes into
/// quarantine. Needs no context (the context it was made in is gone).
pub fn free_lost(ptr: usize) -> bool {
    let Some(reserved) = lock(&LOST).get(&ptr).copied() else {
        return false;
    };
    // Into quarantine before leaving LOST, so the range is never reported as host memory.
    quarantine(ptr, reserved);
    lock(&LOST).remove(&ptr);
    true
}

/// Puts a freed range (start, length) in quarantine.
fn quarantine(start: usize, reserved: usize) {
    lock(&QUARANTINE).add(start, reserved);
}

/// Whether one of `ranges` (start → length) contains `addr`.
fn range_contains(ranges: &BTreeMap<usize, usize>, addr: usize) -> bool {
    ranges
        .range(..=addr)
        .next_back()
        .is_some_and(|(&start, &len)| addr - start < len)
}

impl Quarantine {
    fn add(&mut self, start: usize, reserved: usize) {
        self.ranges.insert(start, reserved);
        self.order.push_back(start);
        while self.order.len() > QUARANTINE_RANGES {
            let oldest = self.order.pop_front().expect("longer than the limit");
            if let Some(len) = self.ranges.remove(&oldest) {
                // SAFETY: a reservation of ours, no longer referenced by any allocation.
                unsafe { libc::munmap(oldest as *mut c_void, len) };
            }
        }
    }

    fn contains(&self, addr: usize) -> bool {
        range_contains(&self.ranges, addr)
    }
}

#[derive(Default)]
pub struct DeviceMemory {
    by_start: BTreeMap<usize, Allocation>,
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

impl DeviceMemory {
    /// Allocates `bytes` (> 0) of device memory and returns its device pointer.
    pub fn alloc(&mut self, gl: &glow::Context, ext: &GlExt, bytes: usize) -> Result<*mut c_void> {
        let page = page_size();
        let reserved = bytes
            .checked_next_multiple_of(page)
            .and_then(|b| b.checked_add(page))
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or_else(|| {
                Error::new(
                    Status::AllocFailed,
                    "allocation size overflows the address space",
                )
            })?;
        // SAFETY: an anonymous PROT_NONE mapping touches no existing memory.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                reserved,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return Err(Error::new(
                Status::AllocFailed,
                "cannot reserve address space",
            ));
        }
        let unreserve = || {
            // SAFETY: exactly the mapping made above.
            unsafe { libc::munmap(start, reserved) };
        };
        drain_gl_errors(gl);
        let made = new_buffer(gl, ext, bytes as i64, glow::DYNAMIC_COPY);
        match made {
            Ok(buffer) => {
                EVER_ALLOCATED.store(true, Ordering::Release);
                lock(&LIVE).insert(start as usize, reserved);
                self.by_start.insert(
                    start as usize,
                    Allocation {
                        buffer,
                        bytes,
                        reserved,
                    },
                );
                Ok(start)
            }
            Err(e) => {
                unreserve();
                Err(e)
            }
        }
    }

    /// How many allocations are live.
    pub fn count(&self) -> usize {
        self.by_start.len()
    }

    /// Frees the allocation that starts exactly at `ptr`.
    pub fn free(&mut self, gl: &glow::Context, ext: &GlExt, ptr: usize) -> Result<()> {
        let a = self
            .by_start
            .remove(&ptr)
            .ok_or_else(|| match self.locate(ptr) {
                Location::Freed => Error::invalid("device pointer was already freed"),
                _ => Error::invalid("pointer is not the start of a live device allocation"),
            })?;
        Self::release(Some((gl, ext)), ptr, a, quarantine);
        Ok(())
    }

    /// After a reset: every allocation is lost with the context (its buffer deleted, where `gl`
    /// is current, as `free_all` does), and its range stays reserved until the caller frees it.
    pub fn lose_all(&mut self, gl: Option<(&glow::Context, &GlExt)>) {
        for (start, a) in std::mem::take(&mut self.by_start) {
            Self::release(gl, start, a, |start, reserved| {
                lock(&LOST).insert(start, reserved);
            });
        }
    }

    /// Frees every allocation (shutdown). Without a current context (`gl` is None) only the
    /// address ranges are quarantined; destroying the context frees the buffers.
    pub fn free_all(&mut self, gl: Option<(&glow::Context, &GlExt)>) {
        for (start, a) in std::mem::take(&mut self.by_start) {
            Self::release(gl, start, a, quarantine);
        }
    }

    /// Ends allocation `a` at `start`: its buffer deleted where `gl` is current, and its range
    /// handed to `keep` (quarantine, or the lost ranges) before it leaves LIVE, so that it is
    /// never reported as host memory.
    fn release(
        gl: Option<(&glow::Context, &GlExt)>,
        start: usize,
        a: Allocation,
        keep: impl FnOnce(usize, usize),
    ) {
        if let Some((gl, ext)) = gl {
            ext.delete_buffer(gl, a.buffer);
        }
        keep(start, a.reserved);
        lock(&LIVE).remove(&start);
    }

    /// Tells whether `addr` is host memory, inside a device allocation (or its guard page), or
    /// inside a freed or lost one.
    pub fn locate(&self, addr: usize) -> Location {
        match self.by_start.range(..=addr).next_back() {
            Some((&start, a)) if addr - start < a.reserved => {
                let offset = addr - start;
                Location::Device {
                    buffer: a.buffer,
                    offset,
                    available: a.bytes as isize - offset as isize,
                }
            }
            _ if lock(&QUARANTINE).contains(addr) => Location::Freed,
            _ if range_contains(&lock(&LOST), addr) => Location::Lost,
            _ => Location::Host(addr),
        }
    }
}
