//! Diagnostics (trace lines, error reports, warnings) written with one write(2) each and no lock.
//! A lock taken around a write (Rust's stderr lock included) that another thread holds when the
//! process forks stays held forever in the child, whose next diagnostic would then hang. One
//! write of a whole line does not interleave with other threads' lines (a file opened for
//! appending, or a pipe write under PIPE_BUF bytes).

use std::fs::File;
use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::{FromRawFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};

/// Writes `bytes` to descriptor `fd`; a failure is ignored (a diagnostic never fails a call).
pub fn write_fd(fd: RawFd, bytes: &[u8]) {
    // SAFETY: borrows the open descriptor for this write; ManuallyDrop leaves it open.
    let mut file = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
    let _ = file.write_all(bytes);
}

/// Writes `text` to stderr.
pub fn to_stderr(text: &str) {
    write_fd(libc::STDERR_FILENO, text.as_bytes());
}

/// Writes `line()` to stderr the first time `warned` is asked: a warning printed once per
/// process.
pub fn warn_once(warned: &AtomicBool, line: impl FnOnce() -> String) {
    if !warned.swap(true, Ordering::Relaxed) {
        to_stderr(&line());
    }
}
