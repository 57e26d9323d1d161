//! Without a GL device every call answers NOT_INITIALIZED (nothing aborts), the device name is
//! NULL, and glblasInit tries again once a device can be had. This process hides the devices by
//! asking for an EGL device index that does not exist.

use glblas::api::*;
use glblas::ffi::{MemcpyKindArg, OperationArg};
use glblas::status::Status;

#[test]
fn calls_fail_cleanly_without_a_device_and_init_retries() {
    std::env::set_var("GLBLAS_EGL_DEVICE", "99");
    let x = [1.0f32, 2.0, 3.0];
    let mut y = [4.0f32, 5.0, 6.0];
    let mut r = -1.0f32;
    let mut p = std::ptr::null_mut();
    let mut c = [7.0f32; 4];
    assert_eq!(glblasInit(), Status::NotInitialized);
    assert!(glblasGetDeviceName().is_null());
    unsafe {
        assert_eq!(
            glblasSaxpy(3, 1.0, x.as_ptr(), 1, y.as_mut_ptr(), 1),
            Status::NotInitialized
        );
        assert_eq!(
            glblasSdot(3, x.as_ptr(), 1, x.as_ptr(), 1, &mut r),
            Status::NotInitialized
        );
        let s = glblasSgemm(
            OperationArg(0),
            OperationArg(0),
            2,
            2,
            1,
            1.0,
            x.as_ptr(),
            2,
            x.as_ptr(),
            1,
            0.0,
            c.as_mut_ptr(),
            2,
        );
        assert_eq!(s, Status::NotInitialized);
        assert_eq!(glblasMalloc(&mut p, 64), Status::NotInitialized);
        assert_eq!(
            glblasMemcpy(
                y.as_mut_ptr().cast(),
                x.as_ptr().cast(),
                12,
                MemcpyKindArg(0)
            ),
            Status::NotInitialized
        );
    }
    assert_eq!(glblasSync(), Status::NotInitialized);
    assert_eq!(y, [4.0, 5.0, 6.0]);
    assert_eq!(r, -1.0);
    assert_eq!(c, [7.0; 4]);
    assert!(p.is_null());
    // Argument errors are still reported as such.
    unsafe {
        assert_eq!(
            glblasSaxpy(3, 1.0, std::ptr::null(), 1, y.as_mut_ptr(), 1),
            Status::InvalidValue
        )
    };

    std::env::remove_var("GLBLAS_EGL_DEVICE");
    assert_eq!(glblasInit(), Status::Success);
    assert!(!glblasGetDeviceName().is_null());
    unsafe {
        assert_eq!(
            glblasSdot(3, x.as_ptr(), 1, x.as_ptr(), 1, &mut r),
            Status::Success
        )
    };
    assert_eq!(r, 14.0);
}
