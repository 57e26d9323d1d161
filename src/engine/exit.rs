//! Process exit: once exit() has begun, the driver's libraries run their destructors (LLVM's
//! and Mesa's static data among them), and a thread still inside a GL or EGL call can crash the
//! process in them (seen as "double free or corruption" when exit() raced a thread's calls).
//! An atexit handler, registered again after each context is made and each shader is compiled
//! (the driver registers destructors of its static data as it first uses it, and exit runs
//! handlers in the reverse order of registration) so that it runs before those destructors,
//! waits for a call in progress to leave GL and retires the engine: later calls
//! from any thread answer NOT_INITIALIZED (the BLAS symbols go to the CPU BLAS) without
//! touching GL. Nothing is destroyed: the process is ending, and tearing a context down at exit
//! is where drivers have been seen to hang.

use std::sync::TryLockError;
use std::time::{Duration, Instant};

use super::slot::{Retirement, Slot, ENGINE};

/// How long exit waits for a call in progress on another thread. Past it (a driver that never
/// returns) exit goes on rather than hang.
const WAIT: Duration = Duration::from_secs(10);

/// Installs the handler (again: running it more than once is harmless, it only retires the
/// engine once).
pub fn register() {
    // SAFETY: the handler is a plain function that only takes our lock and replaces the engine
    // slot. A failed registration leaves exit as it was before this module.
    unsafe { libc::atexit(at_exit) };
}

extern "C" fn at_exit() {
    let deadline = Instant::now() + WAIT;
    loop {
        let mut slot = match ENGINE.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            Err(TryLockError::WouldBlock) => return,
        };
        if !matches!(*slot, Slot::Retired(_)) {
            std::mem::forget(std::mem::replace(
                &mut *slot,
                Slot::Retired(Retirement::Exiting),
            ));
        }
        return;
    }
}
