//! glblasShutdown frees every device buffer: pointers from before it are refused afterwards
//! (not dereferenced), and the next calls initialise again. It releases everything: repeated
//! cycles of work and shutdown leave resident memory flat and a fresh engine with the GL objects
//! a fresh engine had before, and the address ranges of freed device buffers, kept reserved
//! for the last 1024 frees, are unmapped once 1024 more frees follow.

mod common;

use common::*;
use glblas::api::*;
use glblas::engine::census::gl_objects;
use glblas::engine::memory::is_device_address;
use glblas::ffi::MemcpyKindArg as K;
use glblas::status::Status;

#[test]
fn pointers_from_before_a_shutdown_are_refused_after_it() {
    let _alone = one_at_a_time(); // they shut down and measure the process
    let data = fill(32, 1);
    let d = Dev::new(&data);
    let old = d.f();
    std::mem::forget(d); // its allocation ends with the shutdown below
    assert_eq!(glblasShutdown(), Status::Success);
    assert_eq!(
        glblasShutdown(),
        Status::Success,
        "a second shutdown is a no-op"
    );
    let mut r = 0.0f32;
    let mut host = [0.0f32; 4];
    unsafe {
        assert_eq!(
            glblasSdot(32, old, 1, data.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        assert_eq!(
            glblasMemcpy(host.as_mut_ptr().cast(), old.cast(), 16, K(2)),
            Status::InvalidValue
        );
        assert_eq!(glblasFree(old.cast()), Status::InvalidValue);
        // A fresh context serves new calls.
        assert_eq!(
            glblasSdot(32, data.as_ptr(), 1, data.as_ptr(), 1, &mut r),
            Status::Success
        );
    }
    assert_sdot(r, &data, 1, &data, 1, 32);
    let d = Dev::new(&data);
    assert_eq!(d.get(32), data);
}

/// Device memory each cycle allocates, fills and leaves to the shutdown to free.
const CYCLE_BUFFERS: usize = 4;
const CYCLE_BUFFER_ELEMS: usize = 4 << 20; // 16 MiB
const CYCLES: usize = 8;

/// One cycle: device buffers filled and used by saxpy, sdot and sgemm (host operands too,
/// large enough to be used in place), left allocated for the shutdown that ends the cycle.
fn work_then_shut_down(data: &[f32]) {
    let n = data.len() as i32;
    let mut r = 0.0f32;
    for _ in 0..CYCLE_BUFFERS {
        let d = Dev::new(data);
        unsafe {
            assert_eq!(
                glblasSaxpy(n, 0.5, data.as_ptr(), 1, d.f(), 1),
                Status::Success
            );
            assert_eq!(
                glblasSdot(n, d.f(), 1, data.as_ptr(), 1, &mut r),
                Status::Success
            );
            assert_eq!(
                glblasSgemm(
                    glblas::ffi::OperationArg(0),
                    glblas::ffi::OperationArg(0),
                    256,
                    256,
                    256,
                    1.0,
                    data.as_ptr(),
                    256,
                    d.f(),
                    256,
                    0.0,
                    d.f().add(1 << 16),
                    256
                ),
                Status::Success
            );
        }
        std::mem::forget(d); // freed by the shutdown
    }
    assert_eq!(glblasShutdown(), Status::Success);
}

#[test]
fn shutdown_releases_memory_and_gl_objects_cycle_after_cycle() {
    let _alone = one_at_a_time(); // they shut down and measure the process
    let data = fill(CYCLE_BUFFER_ELEMS, 7);
    // The first cycle loads the driver and fills its caches, which stay for the process.
    work_then_shut_down(&data);
    let fresh = gl_objects().expect("census");
    let after: Vec<u64> = (0..CYCLES)
        .map(|_| {
            work_then_shut_down(&data);
            // Memory freed by the shutdown goes back to the system before it is measured, so
            // that what the allocator keeps for later does not count as kept by glblas.
            // SAFETY: malloc_trim only returns free pages of the C heap's arenas.
            unsafe { libc::malloc_trim(0) };
            rss()
        })
        .collect();
    let mib = |b: &u64| format!("{:.1}", *b as f64 / MIB);
    println!(
        "RSS after each of {CYCLES} cycles: {:?} MiB; a fresh engine has {fresh:?}",
        after.iter().map(mib).collect::<Vec<_>>()
    );
    // Nothing may grow from cycle to cycle. The floors of the two halves are compared, since a
    // driver thread may still hold a transient 16 MiB block when one cycle is measured (seen on
    // llvmpipe-gles). Had shutdown kept even one of a cycle's 16 MiB device buffers, or its
    // staging, pinned or scratch ones, the later floor would be at least 4 × 16 MiB higher,
    // less that one transient block: far above the margin.
    let (first, last) = after.split_at(CYCLES / 2);
    let (first, last) = (first.iter().min(), last.iter().min());
    let (first, last) = (*first.expect("cycles ran"), *last.expect("cycles ran"));
    assert!(
        last <= first + (24 << 20),
        "resident memory grows from cycle to cycle: least {} MiB in the first {} cycles, {} MiB in the last",
        mib(&first),
        CYCLES / 2,
        mib(&last)
    );
    assert_eq!(
        gl_objects().expect("census"),
        fresh,
        "a fresh engine after the cycles holds other GL objects than one before them"
    );
}

/// The quarantine of freed ranges (docs/api.md, "Device pointers": "the last 1024 frees").
const QUARANTINE: usize = 1024;

#[test]
fn reservations_freed_by_shutdown_are_unmapped_after_1024_more_frees() {
    let _alone = one_at_a_time(); // they shut down and measure the process
    let bytes: usize = 256 << 20;
    let mut p = std::ptr::null_mut();
    assert_eq!(glblasInit(), Status::Success);
    let before = proc_status_bytes("VmSize");
    assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
    assert_eq!(glblasShutdown(), Status::Success);
    assert!(
        is_device_address(p as usize),
        "a range freed by shutdown stays reserved, so a stale pointer is recognised"
    );
    assert_eq!(glblasFree(p), Status::InvalidValue);
    let quarantined = proc_status_bytes("VmSize");
    assert!(
        quarantined >= before + bytes as u64 / 2,
        "the freed range is still reserved: VmSize {before} -> {quarantined}"
    );
    for _ in 0..QUARANTINE {
        let mut q = std::ptr::null_mut();
        assert_eq!(unsafe { glblasMalloc(&mut q, 4) }, Status::Success);
        assert_eq!(glblasFree(q), Status::Success);
    }
    let after = proc_status_bytes("VmSize");
    println!(
        "VmSize: {:.0} MiB before, {:.0} MiB with the 256 MiB range quarantined, {:.0} MiB after {QUARANTINE} more frees",
        before as f64 / MIB,
        quarantined as f64 / MIB,
        after as f64 / MIB
    );
    // The later frees leave their own (one-page) ranges quarantined: at most 8 MiB in all.
    assert!(
        after + (bytes as u64) / 2 <= quarantined,
        "the 256 MiB range was not unmapped: VmSize {quarantined} -> {after}"
    );
}
