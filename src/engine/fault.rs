//! Fault injection, for tests of recovery: `GLBLAS_FAULT=launch:3,launch:7` makes the 3rd and
//! the 7th kernel launch (draw or dispatch) of the process fail as they would on a lost context
//! (EXECUTION_FAILED, nothing run), so a test can break a call part-way through, after some of
//! its results were stored.

use std::sync::atomic::{AtomicU64, Ordering};

use once_cell::sync::OnceCell;

use crate::status::{Error, Result, Status};

fn failing_launches() -> &'static [u64] {
    static LAUNCHES: OnceCell<Vec<u64>> = OnceCell::new();
    LAUNCHES.get_or_init(|| {
        std::env::var("GLBLAS_FAULT")
            .unwrap_or_default()
            .split(',')
            .filter_map(|f| f.trim().strip_prefix("launch:")?.parse().ok())
            .collect()
    })
}

/// Counts a launch; an error when this one is to fail.
pub fn check_launch() -> Result<()> {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let faults = failing_launches();
    if !faults.is_empty() && faults.contains(&(COUNT.fetch_add(1, Ordering::Relaxed) + 1)) {
        return Err(Error::new(Status::ExecutionFailed, "injected launch fault"));
    }
    Ok(())
}
