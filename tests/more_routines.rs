//! sscal, scopy, sswap, sasum and sgemv: reference semantics for every placement, increment and
//! transpose, their corner cases, and argument checks.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

const INCS: [i32; 5] = [1, 3, -1, -2, 0];

#[test]
fn sscal_scales_and_ignores_nonpositive_increments() {
    let n = 301;
    for inc in [1, 4] {
        let x0 = fill(span(n, inc), 1);
        let d = Dev::new(&x0);
        let mut h = x0.clone();
        unsafe {
            assert_eq!(
                glblasSscal(n as i32, -1.5, h.as_mut_ptr(), inc),
                Status::Success
            );
            assert_eq!(glblasSscal(n as i32, -1.5, d.f(), inc), Status::Success);
        }
        for got in [h, d.get(x0.len())] {
            for (p, (g, v)) in got.iter().zip(&x0).enumerate() {
                // One rounding of an exact product: within eps of it, and gaps untouched.
                let want = if p % inc as usize == 0 {
                    -1.5 * *v as f64
                } else {
                    *v as f64
                };
                assert!(
                    (*g as f64 - want).abs() <= EPS * want.abs(),
                    "x[{p}]: {g} vs {want}"
                );
            }
        }
    }
    let mut x = [1.0f32, f32::NAN, 3.0];
    unsafe {
        assert_eq!(glblasSscal(3, 2.0, x.as_mut_ptr(), 0), Status::Success);
        assert_eq!(glblasSscal(3, 2.0, x.as_mut_ptr(), -1), Status::Success);
        assert_eq!(
            glblasSscal(3, 2.0, std::ptr::null_mut(), -1),
            Status::Success
        );
        assert_eq!(x[0], 1.0, "incx <= 0 does nothing");
        assert_eq!(glblasSscal(3, 0.0, x.as_mut_ptr(), 1), Status::Success);
        assert!(
            x[0] == 0.0 && x[1].is_nan() && x[2] == 0.0,
            "alpha = 0 multiplies, as the reference does"
        );
        assert_eq!(
            glblasSscal(3, 2.0, std::ptr::null_mut(), 1),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSscal(3, 1.0, std::ptr::null_mut(), 1),
            Status::Success,
            "alpha = 1 is a quick return (LAPACK 3.12): x is not looked at"
        );
    }
}

/// Runs the reference loop `step(x(i), y(i))` on host copies, for comparisons.
fn reference_loop(
    x: &mut [f32],
    incx: i32,
    y: &mut [f32],
    incy: i32,
    n: usize,
    step: impl Fn(&mut f32, &mut f32),
) {
    for i in 0..n {
        let (xi, yi) = (idx(i, n, incx), idx(i, n, incy));
        step(&mut x[xi], &mut y[yi]);
    }
}

#[test]
fn scopy_and_sswap_every_placement_and_increment() {
    let n = 45;
    for incx in INCS {
        for incy in INCS {
            for (dx, dy) in [(false, false), (true, true), (true, false), (false, true)] {
                let x0 = fill(span(n, incx), 2);
                let y0 = fill(span(n, incy), 3);
                // copy
                let (mut wx, mut wy) = (x0.clone(), y0.clone());
                reference_loop(&mut wx, incx, &mut wy, incy, n, |x, y| *y = *x);
                let (xd, yd) = (Dev::new(&x0), Dev::new(&y0));
                let (mut hx, mut hy) = (x0.clone(), y0.clone());
                let xp = if dx { xd.f() } else { hx.as_mut_ptr() };
                let yp = if dy { yd.f() } else { hy.as_mut_ptr() };
                assert_eq!(
                    unsafe { glblasScopy(n as i32, xp, incx, yp, incy) },
                    Status::Success
                );
                let got_y = if dy { yd.get(y0.len()) } else { hy.clone() };
                assert_eq!(got_y, wy, "scopy incx={incx} incy={incy} dx={dx} dy={dy}");
                // swap (back from the copied state)
                let (mut sx, mut sy) = (
                    if dx { xd.get(x0.len()) } else { hx.clone() },
                    got_y.clone(),
                );
                reference_loop(&mut sx, incx, &mut sy, incy, n, std::mem::swap);
                assert_eq!(
                    unsafe { glblasSswap(n as i32, xp, incx, yp, incy) },
                    Status::Success
                );
                let got_x = if dx { xd.get(x0.len()) } else { hx };
                let got_y = if dy { yd.get(y0.len()) } else { hy };
                assert_eq!(
                    (got_x, got_y),
                    (sx, sy),
                    "sswap incx={incx} incy={incy} dx={dx} dy={dy}"
                );
            }
        }
    }
}

#[test]
fn scopy_and_sswap_with_overlapping_operands() {
    let n = 30;
    for (ox, oy, incx, incy) in [
        (0usize, 1usize, 1, 1),
        (1, 0, 1, 1),
        (0, 0, 1, -1),
        (0, 2, 2, 1),
        (3, 0, -1, 2),
    ] {
        let data = fill(100, 4);
        for swap in [false, true] {
            let mut want = data.clone();
            for i in 0..n {
                let (xi, yi) = (ox + idx(i, n, incx), oy + idx(i, n, incy));
                if swap {
                    want.swap(xi, yi);
                } else {
                    want[yi] = want[xi];
                }
            }
            let mut host = data.clone();
            let d = Dev::new(&data);
            unsafe {
                let hp = host.as_mut_ptr();
                let call = |p: *mut f32| {
                    if swap {
                        glblasSswap(n as i32, p.add(ox), incx, p.add(oy), incy)
                    } else {
                        glblasScopy(n as i32, p.add(ox), incx, p.add(oy), incy)
                    }
                };
                assert_eq!(call(hp), Status::Success);
                assert_eq!(call(d.f()), Status::Success);
            }
            assert_eq!(host, want, "host swap={swap} {ox} {oy} {incx} {incy}");
            assert_eq!(
                d.get(100),
                want,
                "device swap={swap} {ox} {oy} {incx} {incy}"
            );
        }
    }
}

#[test]
fn sasum_sums_magnitudes() {
    for n in [1usize, 5, 256, 1000, 70001] {
        for inc in [1, 3] {
            let x = fill(span(n, inc), 5);
            let exact: f64 = (0..n).map(|i| (x[i * inc as usize] as f64).abs()).sum();
            let xd = Dev::new(&x);
            let rd = Dev::new(&[f32::NAN]);
            let mut r = f32::NAN;
            unsafe {
                assert_eq!(
                    glblasSasum(n as i32, x.as_ptr(), inc, &mut r),
                    Status::Success
                );
                assert_eq!(glblasSasum(n as i32, xd.f(), inc, rd.f()), Status::Success);
            }
            // Sum of n non-negative terms: within (n-1)*eps of the exact sum.
            for got in [r, rd.get(1)[0]] {
                assert!(
                    (got as f64 - exact).abs() <= n as f64 * EPS * exact,
                    "n={n}: {got} vs {exact}"
                );
            }
        }
    }
    let x = [1.0f32, -2.0];
    let mut r = 9.0f32;
    unsafe {
        assert_eq!(glblasSasum(2, x.as_ptr(), 0, &mut r), Status::Success);
        assert_eq!(r, 0.0, "incx <= 0 gives 0");
        r = 9.0;
        assert_eq!(glblasSasum(2, x.as_ptr(), -1, &mut r), Status::Success);
        assert_eq!(r, 0.0);
        assert_eq!(
            glblasSasum(2, x.as_ptr(), 1, std::ptr::null_mut()),
            Status::InvalidValue
        );
    }
}

#[test]
fn sgemv_every_transpose_placement_and_increment() {
    for (m, n) in [(1usize, 1usize), (7, 5), (33, 65), (129, 3)] {
        for trans in [Op(0), Op(1), Op(2)] {
            let t = trans.0 != 0;
            let (lenx, leny) = if t { (m, n) } else { (n, m) };
            for (incx, incy) in [(1, 1), (2, -3), (-1, 2)] {
                let lda = m + 2;
                let a = fill(lda * n, 6);
                let x = fill(span(lenx, incx), 7);
                let y0 = fill(span(leny, incy), 8);
                let want = sgemv_ref(t, m, n, 0.75, &a, lda, &x, incx, -0.5, &y0, incy);
                for placement in 0..3 {
                    let (ad, xd, yd) = (Dev::new(&a), Dev::new(&x), Dev::new(&y0));
                    let mut yh = y0.clone();
                    let (ap, xp, yp) = match placement {
                        0 => (a.as_ptr(), x.as_ptr(), yh.as_mut_ptr()),
                        1 => (ad.f().cast_const(), x.as_ptr(), yd.f()),
                        _ => (a.as_ptr(), xd.f().cast_const(), yh.as_mut_ptr()),
                    };
                    let s = unsafe {
                        glblasSgemv(
                            trans, m as i32, n as i32, 0.75, ap, lda as i32, xp, incx, -0.5, yp,
                            incy,
                        )
                    };
                    assert_eq!(s, Status::Success);
                    let got = if placement == 1 { yd.get(y0.len()) } else { yh };
                    assert_sgemv(&got, &y0, leny, incy, lenx, &want);
                }
            }
        }
    }
}

#[test]
fn sgemv_corner_cases_and_bad_arguments() {
    let (m, n) = (6usize, 4usize);
    let a = fill(m * n, 9);
    let x = fill(n, 10);
    let nan = vec![f32::NAN; m * n];
    let mut y = vec![f32::NAN; m];
    let gemv = |trans: Op,
                m: i32,
                n: i32,
                alpha: f32,
                a: *const f32,
                lda: i32,
                x: *const f32,
                incx: i32,
                beta: f32,
                y: &mut [f32],
                incy: i32| unsafe {
        glblasSgemv(
            trans,
            m,
            n,
            alpha,
            a,
            lda,
            x,
            incx,
            beta,
            y.as_mut_ptr(),
            incy,
        )
    };
    // beta == 0: NaN in y does not leak.
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            1.0,
            a.as_ptr(),
            6,
            x.as_ptr(),
            1,
            0.0,
            &mut y,
            1
        ),
        Status::Success
    );
    let want = sgemv_ref(false, m, n, 1.0, &a, m, &x, 1, 0.0, &y, 1);
    assert_sgemv(&y, &y, m, 1, n, &want);
    // alpha == 0: y := beta*y, A and x unread (NULL or NaN).
    let y1 = y.clone();
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            0.0,
            std::ptr::null(),
            6,
            std::ptr::null(),
            1,
            2.0,
            &mut y,
            1
        ),
        Status::Success
    );
    assert!(y.iter().zip(&y1).all(|(g, w)| *g == 2.0 * w));
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            0.0,
            nan.as_ptr(),
            6,
            nan.as_ptr(),
            1,
            0.5,
            &mut y,
            1
        ),
        Status::Success
    );
    assert!(y.iter().zip(&y1).all(|(g, w)| *g == *w));
    // Quick returns: nothing is read or written.
    let before = y.clone();
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            0.0,
            nan.as_ptr(),
            6,
            nan.as_ptr(),
            1,
            1.0,
            &mut y,
            1
        ),
        Status::Success
    );
    assert_eq!(
        gemv(
            Op(0),
            0,
            4,
            1.0,
            nan.as_ptr(),
            1,
            nan.as_ptr(),
            1,
            0.0,
            &mut y,
            1
        ),
        Status::Success
    );
    assert_eq!(
        gemv(
            Op(0),
            6,
            0,
            1.0,
            nan.as_ptr(),
            6,
            nan.as_ptr(),
            1,
            0.0,
            &mut y,
            1
        ),
        Status::Success
    );
    // Refusals leave y alone.
    for (trans, m, n, lda, incx, incy) in [
        (Op(3), 6, 4, 6, 1, 1),
        (Op(0), -1, 4, 6, 1, 1),
        (Op(0), 6, -1, 6, 1, 1),
        (Op(0), 6, 4, 5, 1, 1),
        (Op(0), 0, 4, 0, 1, 1),
        (Op(1), 6, 4, 6, 0, 1),
        (Op(0), 6, 4, 6, 1, 0),
    ] {
        let s = gemv(
            trans,
            m,
            n,
            1.0,
            a.as_ptr(),
            lda,
            x.as_ptr(),
            incx,
            0.0,
            &mut y,
            incy,
        );
        assert_eq!(
            s,
            Status::InvalidValue,
            "case {:?}",
            (trans.0, m, n, lda, incx, incy)
        );
    }
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            1.0,
            std::ptr::null(),
            6,
            x.as_ptr(),
            1,
            0.0,
            &mut y,
            1
        ),
        Status::InvalidValue
    );
    assert_eq!(
        gemv(
            Op(0),
            6,
            4,
            1.0,
            a.as_ptr(),
            6,
            std::ptr::null(),
            1,
            0.0,
            &mut y,
            1
        ),
        Status::InvalidValue
    );
    let s = unsafe {
        glblasSgemv(
            Op(0),
            6,
            4,
            1.0,
            a.as_ptr(),
            6,
            x.as_ptr(),
            1,
            0.0,
            std::ptr::null_mut(),
            1,
        )
    };
    assert_eq!(s, Status::InvalidValue);
    assert!(y
        .iter()
        .zip(&before)
        .all(|(g, w)| g.to_bits() == w.to_bits()));
}
