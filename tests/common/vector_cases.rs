//! The vector kernels over every size class, increment and placement: n from 1 to past a few
//! texels, increments 1, 2, -1, -3 (and 0 where the routine allows it), host and device operands
//! starting 0-3 elements into their storage (so that operands are misaligned against each
//! other and against texel boundaries), every element of the storage around and between an
//! output's elements a guard value that must come back bit-identical, results checked against
//! double precision with the bounds of docs/api.md, "Accuracy".

use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

use super::*;

pub const SIZES: [usize; 12] = [1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 1000, 4099];
pub const INCS: [i32; 4] = [1, 2, -1, -3];
pub const INCS_AND_ZERO: [i32; 5] = [1, 2, -1, -3, 0];
/// The element types of the cases: the guard value around outputs, the smallest normal
/// (added to every tolerance), and deterministic data using every bit of the mantissa.
pub trait Elem: Copy + Default + Into<f64> + std::fmt::Debug + 'static {
    const GUARD: Self;
    const TINY: f64;
    fn fill(n: usize, seed: u64) -> Vec<Self>;
    fn bits(self) -> u64;
}

impl Elem for f32 {
    const GUARD: f32 = -1234.5;
    const TINY: f64 = f32::MIN_POSITIVE as f64;
    fn fill(n: usize, seed: u64) -> Vec<f32> {
        fill(n, seed)
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Elem for f64 {
    const GUARD: f64 = -1234.5;
    const TINY: f64 = f64::MIN_POSITIVE;
    fn fill(n: usize, seed: u64) -> Vec<f64> {
        fill64(n, seed)
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// A vector operand in storage of its own: `off` guards, its span (guards between strided
/// elements), 3 guards; in host memory or in a device allocation of exactly that storage.
pub struct Operand<T: Elem = f32> {
    pub n: usize,
    pub inc: i32,
    pub off: usize,
    pub before: Vec<T>,
    host: Vec<T>,
    pub dev: Option<Dev>,
}

impl<T: Elem> Operand<T> {
    pub fn new(n: usize, inc: i32, off: usize, seed: u64, device: bool) -> Operand<T> {
        Operand::of(&T::fill(n, seed), inc, off, device)
    }

    /// The operand holding `values`.
    pub fn of(values: &[T], inc: i32, off: usize, device: bool) -> Operand<T> {
        let n = values.len();
        let len = if inc == 0 { 1 } else { span(n, inc) };
        let mut before = vec![T::GUARD; off + len + 3];
        for (i, v) in values.iter().enumerate() {
            before[off + storage(i, n, inc)] = *v;
        }
        Operand {
            n,
            inc,
            off,
            host: before.clone(),
            dev: device.then(|| Dev::new(&before)),
            before,
        }
    }

    pub fn ptr(&mut self) -> *mut T {
        match &self.dev {
            Some(d) => d.0.cast::<T>().wrapping_add(self.off),
            None => self.host[self.off..].as_mut_ptr(),
        }
    }

    /// Logical element i as it was.
    pub fn at(&self, i: usize) -> T {
        self.before[self.off + storage(i, self.n, self.inc)]
    }

    pub fn values(&self) -> Vec<T> {
        (0..self.n).map(|i| self.at(i)).collect()
    }

    pub fn now(&self) -> Vec<T> {
        match &self.dev {
            Some(d) => d.get_as::<T>(self.before.len()),
            None => self.host.clone(),
        }
    }

    /// Checks the storage: logical element i within `tol[i]` of `want[i]`, every other float
    /// as it was. With a zero increment only element 0's storage is checked, against the
    /// last value (the reference loop's).
    pub fn check(&self, what: &str, want: &[f64], tol: &[f64]) {
        let got = self.now();
        let mut expected: Vec<Option<usize>> = vec![None; got.len()];
        for i in 0..self.n {
            expected[self.off + storage(i, self.n, self.inc)] = Some(i);
        }
        for (p, e) in expected.iter().enumerate() {
            match e {
                Some(i) => {
                    let t = tol[*i] + T::TINY;
                    let g: f64 = got[p].into();
                    assert!(
                        (g - want[*i]).abs() <= t,
                        "{what}: element {i}: got {g}, want {}, tol {t:e}",
                        want[*i]
                    );
                }
                None => assert_eq!(
                    got[p].bits(),
                    self.before[p].bits(),
                    "{what}: storage {p} outside the vector written"
                ),
            }
        }
    }

    /// Checks the storage is exactly as it was.
    pub fn unchanged(&self, what: &str) {
        let got = self.now();
        for (p, (g, b)) in got.iter().zip(&self.before).enumerate() {
            assert_eq!(g.bits(), b.bits(), "{what}: storage {p} written");
        }
    }
}

/// Storage index of logical element i; with a zero increment, element 0 for all.
fn storage(i: usize, n: usize, inc: i32) -> usize {
    if inc == 0 {
        0
    } else {
        idx(i, n, inc)
    }
}

/// Offsets into storage for the k-th case: every pair of phases in turn.
pub fn offsets(k: usize) -> (usize, usize) {
    (k % 4, (k / 4 + k) % 4)
}

/// Runs `case(n, incx, incy, x, y)` for every size, pair of increments and host/device pairing.
pub fn for_pairs<T: Elem>(
    incxs: &[i32],
    incys: &[i32],
    mut case: impl FnMut(&str, &mut Operand<T>, &mut Operand<T>),
) {
    let mut k = 0;
    for &n in &SIZES {
        for &incx in incxs {
            for &incy in incys {
                for (xdev, ydev) in [(false, false), (true, false), (false, true), (true, true)] {
                    let (xo, yo) = offsets(k);
                    k += 1;
                    let mut x = Operand::new(n, incx, xo, 2 * k as u64, xdev);
                    let mut y = Operand::new(n, incy, yo, 2 * k as u64 + 1, ydev);
                    let what = format!(
                        "n={n} incx={incx} incy={incy} x {} +{xo}, y {} +{yo}",
                        place(xdev),
                        place(ydev)
                    );
                    case(&what, &mut x, &mut y);
                }
            }
        }
    }
}

pub fn place(device: bool) -> &'static str {
    if device {
        "device"
    } else {
        "host"
    }
}

/// saxpy, sscal, scopy, sswap, sdot and sasum over every case; each call must succeed.
pub fn run_level1() {
    let alpha = 0.75f32;
    for_pairs::<f32>(&INCS_AND_ZERO, &INCS_AND_ZERO, |what, x, y| {
        let (n, incx, incy) = (x.n, x.inc, y.inc);
        let (px, py) = (x.ptr(), y.ptr());
        let (xv, yv) = (x.values(), y.values());
        let ni = n as i32;
        // saxpy
        assert_eq!(
            unsafe { glblasSaxpy(ni, alpha, px, incx, py, incy) },
            Status::Success
        );
        let (want, tol) = saxpy_want(alpha, &xv, &yv, incy == 0);
        y.check(&format!("saxpy {what}"), &want, &tol);
        x.unchanged(&format!("saxpy x {what}"));
    });
    for_pairs::<f32>(&INCS_AND_ZERO, &INCS, |what, x, y| {
        let ni = x.n as i32;
        let xv = x.values();
        // scopy
        assert_eq!(
            unsafe { glblasScopy(ni, x.ptr(), x.inc, y.ptr(), y.inc) },
            Status::Success
        );
        let exact = vec![0.0; x.n];
        y.check(&format!("scopy {what}"), &to_f64(&xv), &exact);
        x.unchanged(&format!("scopy x {what}"));
    });
    for_pairs::<f32>(&INCS, &INCS, |what, x, y| {
        let ni = x.n as i32;
        let (xv, yv) = (x.values(), y.values());
        // sswap
        assert_eq!(
            unsafe { glblasSswap(ni, x.ptr(), x.inc, y.ptr(), y.inc) },
            Status::Success
        );
        let exact = vec![0.0; x.n];
        y.check(&format!("sswap y {what}"), &to_f64(&xv), &exact);
        x.check(&format!("sswap x {what}"), &to_f64(&yv), &exact);
    });
    for_pairs::<f32>(&INCS_AND_ZERO, &INCS_AND_ZERO, |what, x, y| {
        let ni = x.n as i32;
        // sdot into host memory and into device memory at an odd offset
        let mut r = Operand::new(1, 1, 1, 0, x.dev.is_some() != y.dev.is_some());
        let s = unsafe { glblasSdot(ni, x.ptr(), x.inc, y.ptr(), y.inc, r.ptr()) };
        assert_eq!(s, Status::Success, "{what}");
        let (sum, scale) = x
            .values()
            .iter()
            .zip(y.values())
            .map(|(a, b)| f64::from(*a) * f64::from(b))
            .fold((0.0, 0.0), |(s, a), p| (s + p, a + p.abs()));
        let tol = (x.n as f64 + 1.0) * EPS * scale;
        r.check(&format!("sdot {what}"), &[sum], &[tol]);
        x.unchanged(&format!("sdot x {what}"));
        y.unchanged(&format!("sdot y {what}"));
    });
    for_pairs::<f32>(&INCS_AND_ZERO, &[1], |what, x, r| {
        // sscal on x, sasum of x into r's first element (r as host or device result)
        let ni = x.n as i32;
        let xv = x.values();
        let asum: f64 = xv.iter().map(|v| f64::from(v.abs())).sum();
        let mut res = Operand::new(1, 1, r.off, 0, r.dev.is_some());
        assert_eq!(
            unsafe { glblasSasum(ni, x.ptr(), x.inc, res.ptr()) },
            Status::Success
        );
        let (want, tol) = if x.inc > 0 {
            (asum, (x.n as f64 + 1.0) * EPS * asum)
        } else {
            (0.0, 0.0)
        };
        res.check(&format!("sasum {what}"), &[want], &[tol]);
        assert_eq!(
            unsafe { glblasSscal(ni, -1.5, x.ptr(), x.inc) },
            Status::Success
        );
        if x.inc > 0 {
            let want: Vec<f64> = xv.iter().map(|v| -1.5 * f64::from(*v)).collect();
            let tol: Vec<f64> = want.iter().map(|w| EPS * w.abs()).collect();
            x.check(&format!("sscal {what}"), &want, &tol);
        } else {
            x.unchanged(&format!("sscal {what}"));
        }
    });
}

/// saxpy's result and bounds: one fp32 multiply-add per element (2 roundings of
/// |alpha x_i| + |y_i|); with a zero y increment, y[0] + alpha*sum(x) (an fp32 sum of n terms
/// plus two roundings: (n + 2)·u of |y_0| + Σ|alpha x_i|).
fn saxpy_want(alpha: f32, x: &[f32], y: &[f32], y_repeated: bool) -> (Vec<f64>, Vec<f64>) {
    let a = f64::from(alpha);
    if y_repeated {
        let n = x.len();
        let want = f64::from(y[0]) + x.iter().map(|v| a * f64::from(*v)).sum::<f64>();
        let scale =
            f64::from(y[0].abs()) + x.iter().map(|v| (a * f64::from(*v)).abs()).sum::<f64>();
        let mut w = vec![want; n];
        w[0] = want;
        return (w, vec![(n as f64 + 2.0) * EPS * scale; n]);
    }
    let want = x
        .iter()
        .zip(y)
        .map(|(x, y)| f64::from(*y) + a * f64::from(*x))
        .collect();
    let tol = saxpy_terms(alpha, x, y)
        .iter()
        .map(|t| 2.0 * EPS * t)
        .collect();
    (want, tol)
}

fn to_f64(v: &[f32]) -> Vec<f64> {
    v.iter().map(|v| f64::from(*v)).collect()
}

/// sgemv, both ways, over pairs of sizes from SIZES (m with the size half the list further
/// along, so every size is a length of y and of x, and no A is large), every pair of increments, A, x and y each in host or
/// device memory at offsets 0-3 with lda = m + 0..2; with beta = 0, y holds NaN (never read).
pub fn run_gemv() {
    let mut k = 0;
    for (s, &m) in SIZES.iter().enumerate() {
        let n = SIZES[(s + SIZES.len() / 2) % SIZES.len()];
        for trans in [false, true] {
            let (lenx, leny) = if trans { (m, n) } else { (n, m) };
            for (&incx, &incy) in INCS.iter().zip(INCS.iter().cycle().skip(k % 4)) {
                for placement in 0..8 {
                    k += 1;
                    let (adev, xdev, ydev) =
                        (placement & 1 != 0, placement & 2 != 0, placement & 4 != 0);
                    let lda = m + k % 3;
                    let (ao, (xo, yo)) = (k % 4, offsets(k));
                    let beta = if k % 3 == 0 { 0.0 } else { 1.25 };
                    let mut a = Operand::new((n - 1) * lda + m, 1, ao, 3 * k as u64, adev);
                    let mut x = Operand::new(lenx, incx, xo, 3 * k as u64 + 1, xdev);
                    let y0 = if beta == 0.0 {
                        vec![f32::NAN; leny]
                    } else {
                        fill(leny, 3 * k as u64 + 2)
                    };
                    let mut y = Operand::of(&y0, incy, yo, ydev);
                    let what = format!(
                        "{} m={m} n={n} lda={lda} incx={incx} incy={incy} beta={beta} A {} +{ao}, x {} +{xo}, y {} +{yo}",
                        if trans { "T" } else { "N" },
                        place(adev),
                        place(xdev),
                        place(ydev)
                    );
                    let s = unsafe {
                        glblasSgemv(
                            Op(i32::from(trans)),
                            m as i32,
                            n as i32,
                            0.5,
                            a.ptr(),
                            lda as i32,
                            x.ptr(),
                            incx,
                            beta,
                            y.ptr(),
                            incy,
                        )
                    };
                    assert_eq!(s, Status::Success, "{what}");
                    let want = sgemv_ref(
                        trans,
                        m,
                        n,
                        0.5,
                        &a.values(),
                        lda,
                        &x.values(),
                        1,
                        beta,
                        &y0,
                        1,
                    );
                    let tol: Vec<f64> = want
                        .1
                        .iter()
                        .map(|w| (lenx as f64 + 2.0) * EPS * w)
                        .collect();
                    y.check(&format!("sgemv {what}"), &want.0, &tol);
                    a.unchanged(&format!("sgemv A {what}"));
                    x.unchanged(&format!("sgemv x {what}"));
                }
            }
        }
    }
}
