//! nrm2 and iamax through the glblas API, single and double precision: sizes 0 to 70 and past
//! many workgroups, increments 1, 2, -1, -3 and 0, host and device vectors and results, values
//! near overflow and underflow (subnormals included), NaN and infinity, ties; `tiling.rs` takes
//! them past one buffer-texture window.
//!
//! nrm2 is checked against the norm computed from the exact sum of squares (double-double
//! after scaling by a power of two, so nothing overflows or underflows): the sum of n positive
//! terms in any order is within (n-1)·u relative of the exact sum, each square adds u, and the
//! square root halves a relative error and adds u; the result's rounding to T adds u. So the
//! bound is ((n+1)/2 + 3)·u relative (u of T), plus one subnormal step where the norm itself is
//! subnormal. iamax must equal the reference loop (`IF (ABS(X(I)).GT.XMAX)`) exactly.

mod common;

use common::two_sum;
use common::vector_cases::{Elem, Operand};
use glblas::api::*;
use glblas::status::Status;

/// The element types, with their API entry points and unit roundoff.
trait Real: Elem + PartialOrd + std::ops::Neg<Output = Self> {
    const U: f64;
    /// Smallest positive subnormal.
    const STEP: f64;
    fn from(v: f64) -> Self;
    unsafe fn nrm2(n: i32, x: *const Self, incx: i32, r: *mut Self) -> Status;
    unsafe fn iamax(n: i32, x: *const Self, incx: i32, r: *mut i32) -> Status;
}

impl Real for f32 {
    const U: f64 = f32::EPSILON as f64 / 2.0;
    const STEP: f64 = f32::from_bits(1) as f64;
    fn from(v: f64) -> f32 {
        v as f32
    }
    unsafe fn nrm2(n: i32, x: *const f32, incx: i32, r: *mut f32) -> Status {
        glblasSnrm2(n, x, incx, r)
    }
    unsafe fn iamax(n: i32, x: *const f32, incx: i32, r: *mut i32) -> Status {
        glblasIsamax(n, x, incx, r)
    }
}

impl Real for f64 {
    const U: f64 = f64::EPSILON / 2.0;
    const STEP: f64 = f64::from_bits(1);
    fn from(v: f64) -> f64 {
        v
    }
    unsafe fn nrm2(n: i32, x: *const f64, incx: i32, r: *mut f64) -> Status {
        glblasDnrm2(n, x, incx, r)
    }
    unsafe fn iamax(n: i32, x: *const f64, incx: i32, r: *mut i32) -> Status {
        glblasIdamax(n, x, incx, r)
    }
}

/// Whether this device computes in `T`: single everywhere, double on the compute pipeline with
/// fp64 shaders.
fn here<T: Real>() -> bool {
    let info = glblas::engine::device_info().expect("a GL device");
    std::mem::size_of::<T>() == 4 || (glblas::kernels::pipeline() == Some("compute") && info.fp64)
}

/// The Euclidean norm of `xs`, to about 2^-52 relative: scaled by the power of two that takes
/// the largest magnitude near 1 (exactly), squares and sums carried in double-double.
fn norm_ref(xs: &[f64]) -> f64 {
    if xs.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    if xs.iter().any(|v| v.is_infinite()) {
        return f64::INFINITY;
    }
    let max = xs.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if max == 0.0 {
        return 0.0;
    }
    // 2^-e with max·2^-e in [1, 2), applied in two steps so that neither leaves the range.
    let e = max.log2().floor() as i32;
    let half = e / 2;
    let (s1, s2) = (2f64.powi(-half), 2f64.powi(half - e));
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for v in xs {
        let y = (v * s1) * s2;
        let p = y * y;
        let pe = y.mul_add(y, -p);
        let (t, se) = two_sum(s, p);
        s = t;
        c += pe + se;
    }
    let total = s + c;
    let r = total.sqrt();
    // One Newton step on the double-double sum.
    let r = r + ((-r).mul_add(r, s) + c) / (2.0 * r);
    r * 2f64.powi(half) * 2f64.powi(e - half)
}

/// The reference isamax loop, 1-based; 0 for no elements.
fn iamax_ref(xs: &[f64]) -> i32 {
    if xs.is_empty() {
        return 0;
    }
    let (mut best, mut max) = (1, xs[0].abs());
    for (i, v) in xs.iter().enumerate().skip(1) {
        if v.abs() > max {
            best = i as i32 + 1;
            max = v.abs();
        }
    }
    best
}

/// Checks nrm2 of `values` at increment `inc`, x and the result on the host or device.
fn check_nrm2<T: Real>(what: &str, values: &[T], inc: i32, off: usize, (xdev, rdev): (bool, bool)) {
    let mut x = Operand::of(values, inc, off, xdev);
    let mut r = Operand::<T>::new(1, 1, off % 2, 0, rdev);
    let s = unsafe { T::nrm2(values.len() as i32, x.ptr(), inc, r.ptr()) };
    assert_eq!(s, Status::Success, "nrm2 {what}");
    // A zero increment reads the one stored element n times (as the reference does).
    let terms: Vec<f64> = (0..values.len()).map(|i| x.at(i).into()).collect();
    let want = norm_ref(&terms);
    let got: f64 = r.now()[r.off].into();
    let what = format!("nrm2 {what} n={} inc={inc} x {xdev} r {rdev}", values.len());
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: got {got}, want NaN");
    } else if T::from(want).into().is_infinite() {
        // The norm itself overflows T.
        assert_eq!(got, f64::INFINITY, "{what}");
    } else {
        let tol = ((terms.len() as f64 + 1.0) / 2.0 + 3.0) * T::U * want + T::STEP;
        assert!(
            (got - want).abs() <= tol,
            "{what}: got {got:e}, want {want:e}, tol {tol:e}"
        );
    }
    x.unchanged(&what);
}

/// Checks iamax of `values` at increment `inc`; the int result on the host or device.
fn check_iamax<T: Real>(
    what: &str,
    values: &[T],
    inc: i32,
    off: usize,
    (xdev, rdev): (bool, bool),
) {
    let mut x = Operand::of(values, inc, off, xdev);
    let n = values.len() as i32;
    let got = if rdev {
        let d = common::Dev::new(&[-7i32; 3]);
        let p = d.0.cast::<i32>().wrapping_add(1);
        let s = unsafe { T::iamax(n, x.ptr(), inc, p) };
        assert_eq!(s, Status::Success, "iamax {what}");
        let all = d.get_as::<i32>(3);
        assert_eq!(
            (all[0], all[2]),
            (-7, -7),
            "iamax {what}: beside the result"
        );
        all[1]
    } else {
        let mut r = -7;
        let s = unsafe { T::iamax(n, x.ptr(), inc, &mut r) };
        assert_eq!(s, Status::Success, "iamax {what}");
        r
    };
    let want = if inc <= 0 {
        0
    } else {
        iamax_ref(&values.iter().map(|&v| v.into()).collect::<Vec<f64>>())
    };
    assert_eq!(
        got, want,
        "iamax {what} n={n} inc={inc} x {xdev} result {rdev}"
    );
    x.unchanged(&format!("iamax {what}"));
}

const PLACES: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

/// Sizes 0 to 70 and past many workgroups.
fn sizes() -> impl Iterator<Item = usize> {
    (0..=70).chain([255, 1000, 4099, 65536 + 37, 300_007])
}

fn every_size<T: Real>() {
    let mut k = 0;
    for n in sizes() {
        for inc in [1i32, 2, -1, -3, 0] {
            for place in PLACES {
                k += 1;
                if n > 4099 && (inc.abs() > 1 || k % 2 == 0) {
                    continue;
                }
                let values = T::fill(n, k as u64);
                check_nrm2("fill", &values, inc, k % 4, place);
                check_iamax("fill", &values, inc, k % 4, place);
            }
        }
    }
}

#[test]
fn snrm2_isamax_every_size_increment_and_placement() {
    every_size::<f32>();
}

#[test]
fn dnrm2_idamax_every_size_increment_and_placement() {
    if !here::<f64>() {
        return;
    }
    every_size::<f64>();
}

/// Vectors of `n` copies of the magnitudes `scale`·fill, for the extremes.
fn scaled<T: Real>(n: usize, scale: f64, seed: u64) -> Vec<T> {
    T::fill(n, seed)
        .into_iter()
        .map(|v| T::from(Into::<f64>::into(v) * scale))
        .collect()
}

fn extremes<T: Real>(big: f64, small: &[f64]) {
    let mut k = 0;
    for n in [1, 2, 3, 7, 64, 65, 1000, 20_000] {
        let mut cases: Vec<Vec<T>> = vec![scaled(n, big, n as u64)];
        for &s in small {
            cases.push(scaled(n, s, n as u64 + 1));
        }
        // Mixed: huge, medium and tiny magnitudes together.
        let mut mixed: Vec<T> = T::fill(n, 7);
        for (i, v) in mixed.iter_mut().enumerate() {
            let m: f64 = (*v).into();
            *v = T::from(match i % 3 {
                0 => m * big,
                1 => m * small[0],
                _ => m,
            });
        }
        cases.push(mixed);
        // Only tiny and medium.
        cases.push(
            T::fill(n, 9)
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    let m: f64 = v.into();
                    T::from(if i % 5 == 0 { m * 1e-3 } else { m * small[0] })
                })
                .collect(),
        );
        for values in &cases {
            for place in PLACES {
                k += 1;
                check_nrm2("extreme", values, 1, k % 4, place);
                check_iamax("extreme", values, 1, k % 4, place);
                // n copies of the first, whose norm may overflow where the vector's does not.
                check_nrm2("extreme", values, 0, k % 4, place);
            }
        }
    }
}

#[test]
fn snrm2_isamax_near_overflow_and_underflow() {
    // 1e20 and 1e-25 square out of single precision's range; 1e-40 and 1e-44 are subnormal.
    extremes::<f32>(1e38, &[1e-40, 1e-44, 1e-25]);
    extremes::<f32>(1e20, &[1e-25]);
}

#[test]
fn dnrm2_idamax_near_overflow_and_underflow() {
    if !here::<f64>() {
        return;
    }
    extremes::<f64>(1e300, &[1e-310, 1e-322, 1e-200]);
    extremes::<f64>(1e160, &[1e-170]);
}

fn specials<T: Real>() {
    let (nan, inf) = (T::from(f64::NAN), T::from(f64::INFINITY));
    let v = |xs: &[f64]| xs.iter().map(|&x| T::from(x)).collect::<Vec<T>>();
    let mut cases: Vec<Vec<T>> = vec![
        v(&[f64::NAN, 1.0, 2.0]),
        v(&[1.0, f64::NAN, 2.0]),
        v(&[3.0, f64::NAN, 2.0]),
        v(&[1.0, 2.0, f64::NAN]),
        v(&[f64::NAN, f64::NAN]),
        v(&[0.0, f64::NAN]),
        v(&[f64::INFINITY, f64::NAN, f64::INFINITY]),
        v(&[1.0, f64::NEG_INFINITY, f64::INFINITY]),
        v(&[1.0, -3.0, 3.0, -3.0]),
        v(&[0.0, 0.0, 0.0]),
        v(&[-0.0, 0.0]),
        v(&[T::STEP, 2.0 * T::STEP, -2.0 * T::STEP]),
    ];
    // Long vectors: ties across workgroups, a NaN first or somewhere, an infinity late.
    for n in [70, 5000, 100_003] {
        let mut tie = T::fill(n, 3);
        for i in [n / 3, n / 2, n - 1] {
            tie[i] = T::from(-1.5);
        }
        tie[n / 2 + 1] = T::from(1.5);
        cases.push(tie.clone());
        let mut first = tie.clone();
        first[0] = nan;
        cases.push(first);
        let mut inner = tie.clone();
        inner[n / 4] = nan;
        cases.push(inner.clone());
        inner[n - 2] = -inf;
        cases.push(inner);
        // All zero but one NaN, or a negative zero tie.
        let mut zeros = vec![T::from(0.0); n];
        zeros[n / 2] = nan;
        cases.push(zeros);
        let mut inf_first = tie;
        inf_first[1] = inf;
        inf_first[n - 1] = -inf;
        cases.push(inf_first);
    }
    let mut k = 0;
    for values in &cases {
        for inc in [1, 2, 0] {
            for place in PLACES {
                k += 1;
                check_nrm2("special", values, inc, k % 4, place);
                check_iamax("special", values, inc, k % 4, place);
            }
        }
    }
}

#[test]
fn snrm2_isamax_nan_infinity_and_ties() {
    specials::<f32>();
}

#[test]
fn dnrm2_idamax_nan_infinity_and_ties() {
    if !here::<f64>() {
        return;
    }
    specials::<f64>();
}

#[test]
fn quick_returns_and_null_results() {
    let x = [1.0f32, -2.0, 3.0];
    let mut r = 9.0f32;
    let mut i = 9;
    unsafe {
        assert_eq!(glblasSnrm2(0, std::ptr::null(), 1, &mut r), Status::Success);
        assert_eq!(r, 0.0, "snrm2 n=0");
        assert_eq!(
            glblasIsamax(0, std::ptr::null(), 1, &mut i),
            Status::Success
        );
        assert_eq!(i, 0, "isamax n=0");
        i = 9;
        assert_eq!(glblasIsamax(3, x.as_ptr(), 0, &mut i), Status::Success);
        assert_eq!(i, 0, "isamax incx=0");
        i = 9;
        assert_eq!(glblasIsamax(3, x.as_ptr(), -1, &mut i), Status::Success);
        assert_eq!(i, 0, "isamax incx<0");
        assert_eq!(
            glblasSnrm2(3, x.as_ptr(), 1, std::ptr::null_mut()),
            Status::InvalidValue
        );
        assert_eq!(
            glblasIsamax(3, x.as_ptr(), 1, std::ptr::null_mut()),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSnrm2(3, std::ptr::null(), 1, &mut r),
            Status::InvalidValue
        );
    }
    if here::<f64>() {
        let xd = [3.0f64, 4.0];
        let mut rd = 0.0f64;
        unsafe {
            assert_eq!(glblasDnrm2(2, xd.as_ptr(), 1, &mut rd), Status::Success);
            assert_eq!(glblasIdamax(2, xd.as_ptr(), 1, &mut i), Status::Success);
        }
        assert_eq!((rd, i), (5.0, 2));
    } else {
        let xd = [3.0f64, 4.0];
        let mut rd = 7.0f64;
        i = 7;
        unsafe {
            assert_eq!(
                glblasDnrm2(2, xd.as_ptr(), 1, &mut rd),
                Status::NotSupported
            );
            assert_eq!(
                glblasIdamax(2, xd.as_ptr(), 1, &mut i),
                Status::NotSupported
            );
        }
        assert_eq!((rd, i), (7.0, 7), "results untouched");
    }
}
