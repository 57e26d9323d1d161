//! Jobs: the launches the device runs together, between two flushes. A board's kernel kills a
//! job that runs too long (Panfrost after 500 ms, msm after 250 ms without progress), so the
//! launches that may take long (gemm's, the solves', those over vectors, packing) state their
//! work, and the job so far is flushed before a launch that would take it past the dispatch
//! budget (`Limits::dispatch_flops`, `dispatch_bytes`). Flushing only then,
//! not between every two launches, spares the drivers for whom a flush is a round trip (virgl).
//!
//! A flush is issued before a launch, never after one, so that no fence follows a flush with no
//! command between: on zink (Mesa 22.3) a staging upload behind such a fence reached operands
//! the flushed launch was still reading (docs/internals.md, "Jobs and flushes").

use std::cell::Cell;

use glow::HasContext;

use super::element::Precision;
use super::limits::Limits;

/// What one launch does, for the budget.
#[derive(Clone, Copy, Debug)]
pub enum Work {
    /// Floating-point operations in a precision (the gemm and solve kernels).
    Flops(f64, Precision),
    /// Bytes read and written (the kernels over vectors, packing).
    Bytes(f64),
}

impl Work {
    /// The share of the dispatch budget it takes.
    pub fn share(self, limits: &Limits) -> f64 {
        match self {
            Work::Flops(flops, p) => flops / limits.dispatch_flops[p.index()],
            Work::Bytes(bytes) => bytes / limits.dispatch_bytes,
        }
    }
}

/// The share of the dispatch budget taken by the launches since the last flush.
#[derive(Default)]
pub struct Jobs {
    spent: Cell<f64>,
}

impl Jobs {
    /// Counts a launch of `work` into the current job, first flushing the job so far where the
    /// launch would take it past the budget. A launch past the budget on its own is its
    /// caller's to cut (gemm's bands, `chunk_len`); it runs as a job of its own.
    pub fn launch(&self, gl: &glow::Context, limits: &Limits, work: Work) {
        if self.add(work.share(limits)) {
            // SAFETY: the context is current.
            unsafe { gl.flush() };
        }
    }

    /// Counts a launch taking `share` of the budget; whether the job so far must be flushed
    /// before it (the launch then starts the next job).
    fn add(&self, share: f64) -> bool {
        let spent = self.spent.get();
        let flush = spent > 0.0 && spent + share > 1.0;
        self.spent.set(if flush { share } else { spent + share });
        flush
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_is_flushed_before_the_launch_that_would_overrun_it() {
        let jobs = Jobs::default();
        // Three quarters, then a half: the second starts a job.
        assert!(!jobs.add(0.75));
        assert!(jobs.add(0.5));
        // Half and half fill one job exactly.
        assert!(!jobs.add(0.5));
        assert!(jobs.add(0.5));
        // A launch past the budget on its own is flushed apart from what came before, and
        // what comes after is flushed apart from it.
        assert!(jobs.add(3.0));
        assert!(jobs.add(0.01));
        assert!(!jobs.add(0.01));
    }

    #[test]
    fn the_first_launch_is_never_flushed_before() {
        assert!(!Jobs::default().add(5.0));
    }
}
