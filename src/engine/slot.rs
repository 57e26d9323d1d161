//! The process's one engine, in a slot behind a lock: every call takes the lock, exit and fork()
//! retire what the slot holds (see `exit`, `fork`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use super::gl_engine::Engine;

/// What the slot holds.
pub(super) enum Slot {
    Uninit,
    /// Context creation failed (why); calls answer NOT_INITIALIZED until `glblasInit` retries.
    Failed(String),
    Ready(Box<Engine>),
    /// GL is not used in this process any more, and the context, if any, is left alone.
    Retired(Retirement),
}

#[derive(Clone, Copy)]
pub(super) enum Retirement {
    /// This process is a fork() child of one that had set up GL: the context is the parent's
    /// (see `fork`).
    Forked,
    /// exit() has begun: the driver's libraries may be torn down at any moment (see `exit`).
    Exiting,
}

/// A std mutex, not parking_lot's: after fork() the child must be able to release it even if a
/// parent thread was queued on it (parking_lot may hand the lock to that thread, which does not
/// exist in the child).
pub(super) static ENGINE: Mutex<Slot> = Mutex::new(Slot::Uninit);

/// The engine slot, locked (a panic caught while it was held leaves it usable).
pub(super) fn lock_engine() -> MutexGuard<'static, Slot> {
    ENGINE.lock().unwrap_or_else(PoisonError::into_inner)
}
