//! Injected out-of-memory (`fault::fail_next(Fault::Alloc, i)`: the i-th GL allocation from now
//! reports GL_OUT_OF_MEMORY): every allocation a call makes, failing in turn, gives
//! ALLOC_FAILED with the call's outputs untouched and no GL object left behind, and the call
//! succeeds afterwards; a failed glblasMalloc leaves no address reservation; a buffer over host
//! memory that cannot be made falls back to copying; a failure while the engine sets up is
//! NOT_INITIALIZED until glblasInit; and the BLAS-compatible symbols meeting the fault are
//! answered by the CPU BLAS.

mod common;

use common::faults::*;
use common::*;
use glblas::api::*;
use glblas::engine::fault::{self, Fault};
use glblas::ffi::MemcpyKindArg;
use glblas::status::Status;

#[test]
fn each_allocation_of_a_call_failing_is_alloc_failed_and_leaves_nothing_behind() {
    let _serial = serial();
    for call in api_calls() {
        let allocations = fail_each_allocation(&call);
        eprintln!("{}: {allocations} allocations on a fresh engine", call.name);
    }
}

/// Bytes of address space in inaccessible (PROT_NONE) mappings of at least `min` bytes: where a
/// large glblasMalloc reservation shows. (The C library's own PROT_NONE reservations, 64 MiB
/// arenas and stack guards, are smaller.)
fn reserved_bytes(min: usize) -> usize {
    std::fs::read_to_string("/proc/self/maps")
        .expect("/proc/self/maps")
        .lines()
        .filter(|l| l.split_whitespace().nth(1) == Some("---p"))
        .filter_map(|l| {
            let (start, end) = l.split_whitespace().next()?.split_once('-')?;
            let len =
                usize::from_str_radix(end, 16).ok()? - usize::from_str_radix(start, 16).ok()?;
            (len >= min).then_some(len)
        })
        .sum()
}

#[test]
fn a_failed_malloc_leaves_no_reservation_and_no_buffer() {
    let _serial = serial();
    let bytes = 160 << 20;
    fresh_engine();
    let (objects, reserved) = (census(), reserved_bytes(bytes));
    let sentinel = 0x5eed as *mut std::ffi::c_void;
    let mut p = sentinel;
    fault::fail_next(Fault::Alloc, 1);
    assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::AllocFailed);
    assert_eq!(p, sentinel);
    assert_eq!(census(), objects);
    assert_eq!(reserved_bytes(bytes), reserved);

    // The same allocation now succeeds, and its reservation is visible to the probe above.
    assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
    assert!(reserved_bytes(bytes) > reserved + bytes);
    assert_eq!(census().buffers, objects.buffers + 1);
    let x = fill(1000, 1);
    let mut back = vec![0.0f32; 1000];
    unsafe {
        assert_eq!(
            glblasMemcpy(p, x.as_ptr().cast(), 4000, MemcpyKindArg(1)),
            Status::Success
        );
        assert_eq!(
            glblasMemcpy(back.as_mut_ptr().cast(), p, 4000, MemcpyKindArg(2)),
            Status::Success
        );
    }
    assert_eq!(back, x);
    assert_eq!(glblasFree(p), Status::Success);
    assert_eq!(census(), objects);
}

#[test]
fn a_host_operand_that_cannot_be_used_in_place_is_copied() {
    let _serial = serial();
    // 2^17 floats (512 KiB) per operand: x and y are used in place, through buffers made over
    // the caller's memory for the call.
    let call = saxpy_call(1 << 17);
    fresh_engine();
    call.run_ok();
    let in_place = census();
    if !glblas::engine::device_info().is_some_and(|i| i.pinned_memory) {
        // This device cannot make buffers over host memory (no GL_AMD_pinned_memory): every
        // host operand is copied, through staging buffers kept from the first call, so later
        // calls make no GL object at all.
        call.run_ok();
        assert_eq!(census(), in_place);
        return;
    }
    // The first buffer over host memory fails: that operand goes through a staging buffer
    // (kept, one more buffer), and the failed one is gone.
    fault::fail_next(Fault::Alloc, 1);
    call.run_ok();
    let copied = census();
    assert_eq!(
        copied,
        glblas::engine::census::GlObjects {
            buffers: in_place.buffers + 1,
            ..in_place
        }
    );
    fault::fail_next(Fault::Alloc, 1);
    call.run_ok();
    assert_eq!(census(), copied);
    call.run_ok();
    assert_eq!(census(), copied);
}

#[test]
fn an_allocation_failing_while_the_engine_sets_up_is_not_initialized_until_init() {
    let _serial = serial();
    fresh_engine();
    let clean = census();
    assert_eq!(glblasShutdown(), Status::Success);
    // The engine's first allocation (an operand texture, or on a device without them its vertex
    // array) fails: no engine, no context.
    fault::fail_next(Fault::Alloc, 1);
    let call = saxpy_call(100);
    call.run_refused(Status::NotInitialized);
    call.run_refused(Status::NotInitialized);
    assert_eq!(glblasInit(), Status::Success);
    assert_eq!(census(), clean);
    call.run_ok();
}

#[test]
fn blas_symbols_answer_on_the_cpu_when_an_allocation_fails() {
    let _serial = serial();
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("fault-alloc");
    blas_calls_answered(|| {
        fresh_engine();
        fault::fail_next(Fault::Alloc, 1);
    });
    fault::clear();
    assert_blas_routes(&take_trace(&trace).0, "cpu reason=gl-failed");
}
