//! The allocation and launch faults of `fault_alloc.rs` and `fault_launch.rs` on the fragment
//! pipeline (`GLBLAS_PIPELINE=fragment`, read once per process), whose calls also allocate
//! render targets and launch draws.

mod common;

use common::faults::*;

#[test]
fn each_allocation_and_launch_failing_leaves_nothing_behind() {
    common::use_fragment_pipeline();
    fresh_engine();
    for call in api_calls() {
        let allocations = fail_each_allocation(&call);
        let launches = fail_each_launch(&call);
        eprintln!(
            "{}: {allocations} allocations, {launches} launches",
            call.name
        );
    }
}
