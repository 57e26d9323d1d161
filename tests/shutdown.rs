//! glblasShutdown frees every device buffer: pointers from before it are refused afterwards
//! (not dereferenced), and the next calls initialise again.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::MemcpyKindArg as K;
use glblas::status::Status;

#[test]
fn pointers_from_before_a_shutdown_are_refused_after_it() {
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
