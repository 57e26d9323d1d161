//! Fault injection, for tests of recovery: `GLBLAS_FAULT=draw:3,draw:7` makes the 3rd and the
//! 7th draw of the process fail as they would on a lost context (EXECUTION_FAILED, nothing
//! drawn), so a test can break a call part-way through, after some of its results were stored.

use std::sync::atomic::{AtomicU64, Ordering};

use once_cell::sync::OnceCell;

fn failing_draws() -> &'static [u64] {
    static DRAWS: OnceCell<Vec<u64>> = OnceCell::new();
    DRAWS.get_or_init(|| {
        std::env::var("GLBLAS_FAULT")
            .unwrap_or_default()
            .split(',')
            .filter_map(|f| f.trim().strip_prefix("draw:")?.parse().ok())
            .collect()
    })
}

/// Counts a draw; true when this one is to fail.
pub fn draw_fails() -> bool {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let faults = failing_draws();
    !faults.is_empty() && faults.contains(&(COUNT.fetch_add(1, Ordering::Relaxed) + 1))
}
