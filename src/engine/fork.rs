//! fork(): a child process cannot use its parent's GL context. The driver's threads do not
//! survive fork and the context's state belongs to the parent, so a child that touched it
//! could hang or corrupt the parent's work. `pthread_atfork` handlers keep the engine's locks
//! consistent across the fork (held by the forking thread while it forks, so no call is half
//! done in the child's copy), and in the child they retire the engine without touching GL: the
//! child's glblas calls then answer NOT_INITIALIZED and its BLAS calls go to the CPU BLAS.

use std::cell::RefCell;
use std::sync::{MutexGuard, Once};

use super::memory;
use super::slot::{lock_engine, Retirement, Slot};

/// Installs the handlers, once per process, before the first context is made.
pub fn register() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: the handlers are plain functions that only take and release our locks and
        // replace the engine slot.
        unsafe { libc::pthread_atfork(Some(prepare), Some(parent), Some(child)) };
    });
}

thread_local! {
    /// The engine's guard, held by the forking thread across fork().
    static HELD: RefCell<Option<MutexGuard<'static, Slot>>> = const { RefCell::new(None) };
}

/// Before fork: waits for any call in progress, then holds every lock the child may need.
extern "C" fn prepare() {
    let engine = lock_engine();
    HELD.with(|h| *h.borrow_mut() = Some(engine));
    memory::lock_maps_for_fork();
}

/// In the parent after fork: releases what `prepare` took.
extern "C" fn parent() {
    memory::unlock_maps_after_fork();
    HELD.with(|h| h.borrow_mut().take());
}

/// In the child after fork: retires a context made by the parent, without a GL or EGL call (the
/// driver's threads are gone), then releases what `prepare` took.
extern "C" fn child() {
    HELD.with(|h| {
        if let Some(slot) = h.borrow_mut().as_mut() {
            if !matches!(**slot, Slot::Uninit) {
                std::mem::forget(std::mem::replace(
                    &mut **slot,
                    Slot::Retired(Retirement::Forked),
                ));
            }
        }
    });
    super::context::forget_kept();
    memory::unlock_maps_after_fork();
    HELD.with(|h| h.borrow_mut().take());
}
