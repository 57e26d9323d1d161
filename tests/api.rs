//! Tests of the C API from Rust: argument checks (outputs untouched on refusal), device memory
//! semantics, every operand placement and stride, aliasing, threads, and shutdown.

mod common;

use std::ffi::{c_void, CStr};

use common::*;
use glblas::api::*;
use glblas::ffi::{MemcpyKindArg as K, OperationArg as Op};
use glblas::status::Status;

const N: Op = Op(0);
const T: Op = Op(1);
const C: Op = Op(2);

#[test]
fn device_name_is_the_gl_renderer() {
    assert_eq!(glblasInit(), Status::Success);
    let name = unsafe { CStr::from_ptr(glblasGetDeviceName()) };
    assert!(!name.to_bytes().is_empty());
}

#[test]
fn sgemm_refuses_bad_arguments_and_leaves_c_alone() {
    let a = fill(64, 1);
    let b = fill(64, 2);
    let mut c = vec![7.0f32; 64];
    let call = |ta: Op, tb: Op, m, n, k, lda, ldb, ldc, c: &mut [f32]| unsafe {
        glblasSgemm(
            ta,
            tb,
            m,
            n,
            k,
            1.0,
            a.as_ptr(),
            lda,
            b.as_ptr(),
            ldb,
            0.0,
            c.as_mut_ptr(),
            ldc,
        )
    };
    let cases = [
        (Op(3), N, 2, 2, 2, 2, 2, 2),
        (Op(-1), N, 2, 2, 2, 2, 2, 2),
        (N, Op(7), 2, 2, 2, 2, 2, 2),
        (N, N, -1, 2, 2, 2, 2, 2),
        (N, N, 2, -1, 2, 2, 2, 2),
        (N, N, 2, 2, -1, 2, 2, 2),
        (N, N, 4, 2, 2, 3, 2, 4), // lda < m
        (T, N, 2, 2, 4, 3, 4, 2), // lda < k when A is transposed
        (N, N, 2, 2, 4, 2, 3, 2), // ldb < k
        (N, T, 2, 4, 2, 2, 3, 2), // ldb < n when B is transposed
        (N, N, 4, 2, 2, 4, 2, 3), // ldc < m
        (N, N, 0, 2, 2, 0, 2, 1), // lda < max(1, m) with m = 0
        (N, N, 2, 2, 2, 2, 2, 0), // ldc = 0
    ];
    for (ta, tb, m, n, k, lda, ldb, ldc) in cases {
        let s = call(ta, tb, m, n, k, lda, ldb, ldc, &mut c);
        assert_eq!(
            s,
            Status::InvalidValue,
            "case {:?}",
            (ta.0, tb.0, m, n, k, lda, ldb, ldc)
        );
        assert!(c.iter().all(|v| *v == 7.0), "C touched by a refused call");
    }
    // NULL operands that are needed.
    unsafe {
        let s = glblasSgemm(
            N,
            N,
            2,
            2,
            2,
            1.0,
            std::ptr::null(),
            2,
            b.as_ptr(),
            2,
            0.0,
            c.as_mut_ptr(),
            2,
        );
        assert_eq!(s, Status::InvalidValue);
        let s = glblasSgemm(
            N,
            N,
            2,
            2,
            2,
            1.0,
            a.as_ptr(),
            2,
            std::ptr::null(),
            2,
            0.0,
            c.as_mut_ptr(),
            2,
        );
        assert_eq!(s, Status::InvalidValue);
        let s = glblasSgemm(
            N,
            N,
            2,
            2,
            2,
            1.0,
            a.as_ptr(),
            2,
            b.as_ptr(),
            2,
            0.0,
            std::ptr::null_mut(),
            2,
        );
        assert_eq!(s, Status::InvalidValue);
        // Not needed: alpha == 0 reads neither A nor B; m == 0 touches nothing.
        let s = glblasSgemm(
            N,
            N,
            2,
            2,
            2,
            0.0,
            std::ptr::null(),
            2,
            std::ptr::null(),
            2,
            2.0,
            c.as_mut_ptr(),
            2,
        );
        assert_eq!(s, Status::Success);
        let s = glblasSgemm(
            N,
            N,
            0,
            2,
            2,
            1.0,
            std::ptr::null(),
            1,
            std::ptr::null(),
            2,
            0.0,
            std::ptr::null_mut(),
            1,
        );
        assert_eq!(s, Status::Success);
    }
    // Only the 2x2 C (ldc = 2) was scaled by beta = 2.
    assert_eq!(&c[..4], &[14.0; 4]);
    assert!(c[4..].iter().all(|v| *v == 7.0));
}

#[test]
fn level1_refuses_null_and_quick_returns() {
    let x = fill(8, 3);
    let mut r = 5.0f32;
    unsafe {
        assert_eq!(
            glblasSdot(4, x.as_ptr(), 1, x.as_ptr(), 1, std::ptr::null_mut()),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSdot(4, std::ptr::null(), 1, x.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        assert_eq!(r, 5.0);
        assert_eq!(
            glblasSdot(0, std::ptr::null(), 1, std::ptr::null(), 1, &mut r),
            Status::Success
        );
        assert_eq!(r, 0.0, "n <= 0 writes a zero result");
        r = 5.0;
        assert_eq!(
            glblasSdot(-3, std::ptr::null(), 1, std::ptr::null(), 1, &mut r),
            Status::Success
        );
        assert_eq!(r, 0.0);
        assert_eq!(
            glblasSaxpy(4, 1.0, std::ptr::null(), 1, std::ptr::null_mut(), 1),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSaxpy(0, 1.0, std::ptr::null(), 1, std::ptr::null_mut(), 1),
            Status::Success
        );
        // alpha == 0 returns before reading x: NaN in x does not reach y.
        let nan = [f32::NAN; 4];
        let mut y = [1.0f32; 4];
        assert_eq!(
            glblasSaxpy(4, 0.0, nan.as_ptr(), 1, y.as_mut_ptr(), 1),
            Status::Success
        );
        assert_eq!(y, [1.0; 4]);
    }
}

#[test]
fn device_pointers_resolve_inside_their_allocation_only() {
    let data = fill(100, 4);
    let d = Dev::new(&data);
    let mut r = 0.0f32;
    unsafe {
        // An interior pointer is the same buffer at an offset.
        assert_eq!(
            glblasSdot(10, d.f().add(90), 1, d.f().add(90), 1, &mut r),
            Status::Success
        );
        assert_sdot(r, &data[90..], 1, &data[90..], 1, 10);
        // One element too many, and a pointer one past the end: refused, not read as host memory.
        assert_eq!(
            glblasSdot(11, d.f().add(90), 1, d.f().add(90), 1, &mut r),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSdot(1, d.f().add(100), 1, data.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSdot(5, d.f(), 30, data.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        // A misaligned device pointer.
        let odd = d.0.cast::<u8>().add(2).cast::<f32>();
        assert_eq!(
            glblasSdot(1, odd, 1, data.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        // Memcpy past the end, wrong kinds, bad kind values, no device side.
        let mut host = vec![0.0f32; 101];
        let hp = host.as_mut_ptr().cast::<c_void>();
        assert_eq!(glblasMemcpy(hp, d.0, 404, K(2)), Status::InvalidValue);
        assert_eq!(
            glblasMemcpy(hp, d.f().add(1).cast(), 400, K(0)),
            Status::InvalidValue
        );
        assert_eq!(glblasMemcpy(hp, d.0, 400, K(1)), Status::InvalidValue);
        assert_eq!(glblasMemcpy(d.0, hp, 400, K(2)), Status::InvalidValue);
        assert_eq!(glblasMemcpy(hp, d.0, 400, K(3)), Status::InvalidValue);
        assert_eq!(glblasMemcpy(hp, d.0, 400, K(4)), Status::InvalidValue);
        assert_eq!(
            glblasMemcpy(hp, hp.cast_const(), 4, K(0)),
            Status::InvalidValue
        );
        assert!(
            host.iter().all(|v| *v == 0.0),
            "refused copies wrote to the host"
        );
        assert_eq!(
            glblasMemcpy(hp, d.f().add(10).cast(), 40, K(0)),
            Status::Success
        );
        assert_eq!(&host[..10], &data[10..20]);
        // Free: host pointers, interior pointers and NULL.
        assert_eq!(glblasFree(hp), Status::InvalidValue);
        assert_eq!(glblasFree(d.f().add(1).cast()), Status::InvalidValue);
        assert_eq!(glblasFree(std::ptr::null_mut()), Status::Success);
        let mut p = std::ptr::null_mut();
        assert_eq!(glblasMalloc(&mut p, 0), Status::Success);
        assert!(p.is_null());
        assert_eq!(glblasMalloc(std::ptr::null_mut(), 16), Status::InvalidValue);
    }
}

#[test]
fn device_to_device_copies_including_overlapping_ranges() {
    let data = fill(64, 5);
    let a = Dev::new(&data);
    let b = Dev::new(&[0.0; 64]);
    unsafe {
        assert_eq!(
            glblasMemcpy(b.0, a.f().add(8).cast(), 32 * 4, K(3)),
            Status::Success
        );
        assert_eq!(&b.get(32)[..], &data[8..40]);
        // Overlapping source and destination in one buffer behave as memmove.
        assert_eq!(
            glblasMemcpy(a.f().add(4).cast(), a.0, 40 * 4, K(0)),
            Status::Success
        );
    }
    let got = a.get(64);
    assert_eq!(&got[4..44], &data[..40]);
    assert_eq!(&got[..4], &data[..4]);
    assert_eq!(&got[44..], &data[44..]);
}

#[test]
fn saxpy_every_placement_and_stride() {
    let n = 37;
    for (incx, incy) in [
        (1, 1),
        (2, 3),
        (-1, 1),
        (3, -2),
        (-2, -1),
        (0, 1),
        (1, 0),
        (0, -2),
    ] {
        for (dx, dy) in [(false, false), (true, false), (false, true), (true, true)] {
            let x = fill(span(n, incx), 6);
            let y0 = fill(span(n, incy), 7);
            let mut want = y0.clone();
            saxpy_ref(n, 1.5, &x, incx, &mut want, incy);
            let terms: Vec<f64> = if incy == 0 {
                vec![
                    (y0[0].abs()
                        + 1.5
                            * x.iter().map(|v| v.abs()).sum::<f32>()
                            * if incx == 0 { n as f32 } else { 1.0 }) as f64
                        * n as f64,
                ]
            } else {
                (0..want.len())
                    .map(|i| (y0[i].abs() + 1.5 * 2.0) as f64)
                    .collect()
            };
            let (xd, yd) = (Dev::new(&x), Dev::new(&y0));
            let mut yh = y0.clone();
            let xp = if dx { xd.f().cast_const() } else { x.as_ptr() };
            let yp = if dy { yd.f() } else { yh.as_mut_ptr() };
            assert_eq!(
                unsafe { glblasSaxpy(n as i32, 1.5, xp, incx, yp, incy) },
                Status::Success
            );
            let got = if dy { yd.get(y0.len()) } else { yh };
            assert_saxpy(&got, &want, &terms);
        }
    }
}

#[test]
fn saxpy_with_overlapping_operands_matches_the_sequential_loop() {
    let n = 50;
    // y is x shifted by one element in either direction, and x == y.
    for (ox, oy, incx, incy) in [
        (0usize, 1usize, 1, 1),
        (1, 0, 1, 1),
        (0, 0, 1, 1),
        (0, 3, 2, -1),
        (5, 0, 0, 1),
    ] {
        let data = fill(200, 8);
        let mut want = data.clone();
        saxpy_in_place(&mut want, n, 0.5, (ox, incx), (oy, incy));
        let terms = vec![3.0f64 * (n as f64); 200];
        let mut host = data.clone();
        let d = Dev::new(&data);
        unsafe {
            let hp = host.as_mut_ptr();
            assert_eq!(
                glblasSaxpy(n as i32, 0.5, hp.add(ox), incx, hp.add(oy), incy),
                Status::Success
            );
            assert_eq!(
                glblasSaxpy(n as i32, 0.5, d.f().add(ox), incx, d.f().add(oy), incy),
                Status::Success
            );
        }
        assert_saxpy(&host, &want, &terms);
        assert_saxpy(&d.get(200), &want, &terms);
    }
}

#[test]
fn sdot_every_placement_and_stride() {
    for n in [1usize, 2, 7, 255, 256, 257, 4099] {
        for (incx, incy) in [(1, 1), (3, 1), (-1, 2), (2, -3), (0, 1)] {
            let x = fill(span(n, incx), 9);
            let y = fill(span(n, incy), 10);
            let (xd, yd) = (Dev::new(&x), Dev::new(&y));
            let rd = Dev::new(&[0.0]);
            let mut r = f32::NAN;
            unsafe {
                assert_eq!(
                    glblasSdot(n as i32, x.as_ptr(), incx, y.as_ptr(), incy, &mut r),
                    Status::Success
                );
                assert_sdot(r, &x, incx, &y, incy, n);
                assert_eq!(
                    glblasSdot(n as i32, xd.f(), incx, y.as_ptr(), incy, rd.f()),
                    Status::Success
                );
                assert_sdot(rd.get(1)[0], &x, incx, &y, incy, n);
                assert_eq!(
                    glblasSdot(n as i32, xd.f(), incx, yd.f(), incy, &mut r),
                    Status::Success
                );
                assert_sdot(r, &x, incx, &y, incy, n);
            }
        }
    }
}

#[test]
fn sgemm_every_transpose_and_placement() {
    let ops = [N, T, C];
    for (m, n, k) in [
        (1usize, 1usize, 1usize),
        (7, 5, 3),
        (17, 13, 11),
        (33, 1, 64),
        (1, 40, 9),
    ] {
        for ta in ops {
            for tb in ops {
                let (tra, trb) = (ta.0 != 0, tb.0 != 0);
                let (ar, ac) = if tra { (k, m) } else { (m, k) };
                let (br, bc) = if trb { (n, k) } else { (k, n) };
                let (lda, ldb, ldc) = (ar + 2, br + 1, m + 3);
                let a = fill(lda * ac, 11);
                let b = fill(ldb * bc, 12);
                let c0 = fill(ldc * n, 13);
                let want = sgemm_ref(tra, trb, m, n, k, -1.25, &a, lda, &b, ldb, 0.5, &c0, ldc);
                for placement in 0..3 {
                    let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
                    let mut ch = c0.clone();
                    let (ap, bp, cp) = match placement {
                        0 => (a.as_ptr(), b.as_ptr(), ch.as_mut_ptr()),
                        1 => (ad.f().cast_const(), b.as_ptr(), cd.f()),
                        _ => (ad.f().cast_const(), bd.f().cast_const(), ch.as_mut_ptr()),
                    };
                    let s = unsafe {
                        glblasSgemm(
                            ta, tb, m as i32, n as i32, k as i32, -1.25, ap, lda as i32, bp,
                            ldb as i32, 0.5, cp, ldc as i32,
                        )
                    };
                    assert_eq!(s, Status::Success);
                    let got = if placement == 1 { cd.get(c0.len()) } else { ch };
                    assert_sgemm(&got, ldc, m, n, k, &want);
                    for j in 0..n {
                        assert_eq!(
                            &got[j * ldc + m..j * ldc + ldc],
                            &c0[j * ldc + m..j * ldc + ldc],
                            "padding rows written"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn sgemm_beta_zero_overwrites_nan_and_alpha_zero_skips_a_and_b() {
    let (m, n, k) = (9, 6, 4);
    let a = fill(m * k, 14);
    let b = fill(k * n, 15);
    let mut c = vec![f32::NAN; m * n];
    unsafe {
        assert_eq!(
            glblasSgemm(
                N,
                N,
                m as i32,
                n as i32,
                k as i32,
                1.0,
                a.as_ptr(),
                m as i32,
                b.as_ptr(),
                k as i32,
                0.0,
                c.as_mut_ptr(),
                m as i32
            ),
            Status::Success
        );
    }
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.0, &c, m);
    assert_sgemm(&c, m, m, n, k, &want);
    // alpha == 0 (and k == 0): C := beta*C, A and B unread (NaN there changes nothing), an
    // infinite alpha not applied.
    let nan = vec![f32::NAN; m * k];
    let mut c = fill(m * n, 16);
    let c0 = c.clone();
    unsafe {
        assert_eq!(
            glblasSgemm(
                N,
                N,
                m as i32,
                n as i32,
                k as i32,
                0.0,
                nan.as_ptr(),
                m as i32,
                nan.as_ptr(),
                k as i32,
                2.0,
                c.as_mut_ptr(),
                m as i32
            ),
            Status::Success
        );
        assert!(c.iter().zip(&c0).all(|(g, w)| *g == 2.0 * w));
        assert_eq!(
            glblasSgemm(
                N,
                N,
                m as i32,
                n as i32,
                0,
                f32::INFINITY,
                nan.as_ptr(),
                m as i32,
                nan.as_ptr(),
                1,
                0.5,
                c.as_mut_ptr(),
                m as i32
            ),
            Status::Success
        );
        assert!(c.iter().zip(&c0).all(|(g, w)| *g == *w));
        assert_eq!(
            glblasSgemm(
                N,
                N,
                m as i32,
                n as i32,
                0,
                1.0,
                nan.as_ptr(),
                m as i32,
                nan.as_ptr(),
                1,
                0.0,
                c.as_mut_ptr(),
                m as i32
            ),
            Status::Success
        );
        assert!(c.iter().all(|v| *v == 0.0));
    }
}

#[test]
fn many_threads_at_once() {
    let threads: Vec<_> = (0..6)
        .map(|t| {
            std::thread::spawn(move || {
                for i in 0..15 {
                    let n = 20 + t * 7 + i;
                    let x = fill(n, (t * 100 + i) as u64);
                    let d = Dev::new(&x);
                    let mut r = 0.0f32;
                    unsafe {
                        assert_eq!(
                            glblasSdot(n as i32, d.f(), 1, x.as_ptr(), 1, &mut r),
                            Status::Success
                        )
                    };
                    assert_sdot(r, &x, 1, &x, 1, n);
                    // x as an m×k matrix times its transpose, A on the device and B on the host.
                    let m = 3 + i % 5;
                    let k = n / m;
                    let mut c = vec![0.0f32; m * m];
                    unsafe {
                        assert_eq!(
                            glblasSgemm(
                                N,
                                T,
                                m as i32,
                                m as i32,
                                k as i32,
                                1.0,
                                d.f(),
                                m as i32,
                                x.as_ptr(),
                                m as i32,
                                0.0,
                                c.as_mut_ptr(),
                                m as i32
                            ),
                            Status::Success
                        );
                    }
                    let want = sgemm_ref(false, true, m, m, k, 1.0, &x, m, &x, m, 0.0, &c, m);
                    assert_sgemm(&c, m, m, m, k, &want);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("thread panicked");
    }
}

#[test]
fn freed_device_pointers_are_refused_not_dereferenced() {
    let data = fill(64, 20);
    let d = Dev::new(&data);
    let stale = d.f();
    drop(d);
    let mut r = 0.0f32;
    let mut host = vec![0.0f32; 64];
    unsafe {
        // Without the quarantine these would read unmapped memory as if it were host memory.
        assert_eq!(
            glblasSdot(64, stale, 1, data.as_ptr(), 1, &mut r),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSaxpy(4, 1.0, data.as_ptr(), 1, stale.add(8), 1),
            Status::InvalidValue
        );
        assert_eq!(
            glblasMemcpy(host.as_mut_ptr().cast(), stale.cast(), 16, K(0)),
            Status::InvalidValue
        );
        assert_eq!(
            glblasFree(stale.cast()),
            Status::InvalidValue,
            "double free"
        );
    }
    assert_eq!(r, 0.0);
    assert!(host.iter().all(|v| *v == 0.0));
}
