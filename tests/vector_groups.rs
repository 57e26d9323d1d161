//! The kernels over vectors in every workgroup size the tuner may choose (`Tuning::
//! vector_group`, `VECTOR_GROUPS`) that the device runs: with each, Level 1 and gemv over
//! every case of `vector_cases` in single precision (every size class, increment and
//! placement), and the reductions (dot, asum, nrm2, iamax) and axpy in double precision and
//! single complex, on host vectors past many workgroups, unit-stride (four elements a load) at
//! each alignment and strided.
//!
//! Their data are whole numbers from -4 to 4, so that axpy, dot and asum are exact in any
//! order of summation below 2^24, and iamax must equal the reference loop's index. nrm2 is the
//! square root of an exact sum of squares: within 3u of it, u of the precision (the root and
//! the result's roundings, and Blue's scaling by powers of two, which is exact).

mod common;

use common::vector_cases;
use glblas::api::*;
use glblas::engine::tuning::{vector_group_fits, VECTOR_GROUPS};
use glblas::engine::with_engine;
use glblas::ffi::glblasComplex;
use glblas::status::Status;

/// Vector lengths: within one workgroup, past one at each alignment, past the software
/// rasterizer's 256 workgroups of every size.
const LENGTHS: [usize; 4] = [5, 70, 4099, 70001];

/// `len` whole numbers from -4 to 4, from `seed`.
fn whole(len: usize, seed: u64) -> Vec<f64> {
    let mut rng = common::Rng(seed);
    (0..len).map(|_| rng.range(-4, 4) as f64).collect()
}

/// The first logical index (1-based) whose value has the largest `mag`, as the reference loop.
fn first_largest(mag: &[f64]) -> i32 {
    let mut best = 0;
    for (i, m) in mag.iter().enumerate() {
        if *m > mag[best] {
            best = i;
        }
    }
    best as i32 + 1
}

/// One precision's (or complex's) calls and reference, over `n` logical elements of x and y,
/// each `off` elements into its storage with increment `inc`.
struct Case {
    n: usize,
    inc: usize,
    off: usize,
}

impl Case {
    fn span(&self, parts: usize) -> usize {
        parts * (self.off + (self.n - 1) * self.inc + 1)
    }

    /// Where logical element i is in the storage.
    fn at(&self, i: usize) -> usize {
        self.off + i * self.inc
    }

    /// The logical element at `i` in the storage, if one is (perhaps past n).
    fn logical(&self, i: usize) -> Option<usize> {
        let from = i.checked_sub(self.off)?;
        from.is_multiple_of(self.inc).then_some(from / self.inc)
    }

    fn what(&self, routine: &str, group: i64) -> String {
        format!(
            "{routine}, n = {}, inc = {}, offset {}, group {group}",
            self.n, self.inc, self.off
        )
    }
}

fn nrm2_within(got: f64, sum_of_squares: f64, u: f64, what: &str) {
    let want = sum_of_squares.sqrt();
    assert!(
        (got - want).abs() <= 3.0 * u * want,
        "{what}: {got} against {want}"
    );
}

fn double_precision(case: &Case, group: i64) {
    let (n, inc) = (case.n, case.inc as i32);
    let (xv, yv) = (whole(case.span(1), 1), whole(case.span(1), 2));
    let (x, mut y) = (xv.clone(), yv.clone());
    let logical = |v: &[f64]| (0..n).map(|i| v[case.at(i)]).collect::<Vec<f64>>();
    let (lx, ly) = (logical(&xv), logical(&yv));
    let (px, py) = (x[case.off..].as_ptr(), y[case.off..].as_mut_ptr());
    let mut r = 0.0f64;
    let mut index = 0;
    unsafe {
        assert_eq!(
            glblasDdot(n as i32, px, inc, py, inc, &mut r),
            Status::Success
        );
        let dot: f64 = lx.iter().zip(&ly).map(|(a, b)| a * b).sum();
        assert_eq!(r, dot, "{}", case.what("ddot", group));
        assert_eq!(glblasDasum(n as i32, px, inc, &mut r), Status::Success);
        let asum: f64 = lx.iter().map(|v| v.abs()).sum();
        assert_eq!(r, asum, "{}", case.what("dasum", group));
        assert_eq!(glblasDnrm2(n as i32, px, inc, &mut r), Status::Success);
        let squares: f64 = lx.iter().map(|v| v * v).sum();
        nrm2_within(r, squares, f64::EPSILON / 2.0, &case.what("dnrm2", group));
        assert_eq!(glblasIdamax(n as i32, px, inc, &mut index), Status::Success);
        let mags: Vec<f64> = lx.iter().map(|v| v.abs()).collect();
        assert_eq!(
            index,
            first_largest(&mags),
            "{}",
            case.what("idamax", group)
        );
        assert_eq!(
            glblasDaxpy(n as i32, 2.0, px, inc, py, inc),
            Status::Success
        );
    }
    for (i, v) in y.iter().enumerate() {
        let want = match case.logical(i) {
            Some(l) if l < n => 2.0 * lx[l] + ly[l],
            _ => yv[i],
        };
        assert_eq!(*v, want, "{} element {i}", case.what("daxpy", group));
    }
}

fn single_complex(case: &Case, group: i64) {
    let (n, inc) = (case.n, case.inc as i32);
    let complex = |v: Vec<f64>| -> Vec<glblasComplex> {
        v.chunks(2)
            .map(|p| glblasComplex {
                re: p[0] as f32,
                im: p[1] as f32,
            })
            .collect()
    };
    let (xv, yv) = (
        complex(whole(case.span(2), 3)),
        complex(whole(case.span(2), 4)),
    );
    let (x, mut y) = (xv.clone(), yv.clone());
    let parts = |c: &glblasComplex| (f64::from(c.re), f64::from(c.im));
    let logical = |v: &[glblasComplex]| (0..n).map(|i| parts(&v[case.at(i)])).collect::<Vec<_>>();
    let (lx, ly) = (logical(&xv), logical(&yv));
    let (px, py) = (x[case.off..].as_ptr(), y[case.off..].as_mut_ptr());
    let mut r = glblasComplex { re: 0.0, im: 0.0 };
    let mut s = 0.0f32;
    let mut index = 0;
    let alpha = glblasComplex { re: 2.0, im: -1.0 };
    unsafe {
        assert_eq!(
            glblasCdotc(n as i32, px, inc, py, inc, &mut r),
            Status::Success
        );
        // conj(x) y
        let dot = lx
            .iter()
            .zip(&ly)
            .fold((0.0, 0.0), |(re, im), ((a, b), (c, d))| {
                (re + a * c + b * d, im + a * d - b * c)
            });
        assert_eq!(parts(&r), dot, "{}", case.what("cdotc", group));
        assert_eq!(glblasScnrm2(n as i32, px, inc, &mut s), Status::Success);
        let squares: f64 = lx.iter().map(|(a, b)| a * a + b * b).sum();
        let u = f64::from(f32::EPSILON) / 2.0;
        nrm2_within(f64::from(s), squares, u, &case.what("scnrm2", group));
        assert_eq!(glblasIcamax(n as i32, px, inc, &mut index), Status::Success);
        let mags: Vec<f64> = lx.iter().map(|(a, b)| a.abs() + b.abs()).collect();
        assert_eq!(
            index,
            first_largest(&mags),
            "{}",
            case.what("icamax", group)
        );
        assert_eq!(
            glblasCaxpy(n as i32, &alpha, px, inc, py, inc),
            Status::Success
        );
    }
    for (i, v) in y.iter().enumerate() {
        let want = match case.logical(i) {
            Some(l) if l < n => {
                let ((a, b), (c, d)) = (lx[l], ly[l]);
                (2.0 * a + b + c, 2.0 * b - a + d)
            }
            _ => parts(&yv[i]),
        };
        assert_eq!(parts(v), want, "{} element {i}", case.what("caxpy", group));
    }
}

#[test]
fn every_workgroup_size_computes_right() {
    assert_eq!(glblasInit(), Status::Success);
    let (info, default) = with_engine(|e| Ok((e.ctx.info.clone(), e.tuning.vector_group))).unwrap();
    if !info.compute {
        // The fragment pipeline's kernels have no workgroups.
        return;
    }
    let doubles = common::doubles_here();
    let mut sizes = 0;
    for group in VECTOR_GROUPS {
        if !vector_group_fits(group, &info) || default.contains(&group) {
            continue;
        }
        sizes += 1;
        with_engine(|e| {
            e.tuning.vector_group = [group; 2];
            Ok(())
        })
        .unwrap();
        vector_cases::run_level1();
        vector_cases::run_gemv();
        for n in LENGTHS {
            let cases =
                (0..4)
                    .map(|off| Case { n, inc: 1, off })
                    .chain([Case { n, inc: 3, off: 1 }]);
            for case in cases {
                if doubles {
                    double_precision(&case, group);
                }
                single_complex(&case, group);
            }
        }
        // The programs were built with this size.
        let programs = with_engine(|e| Ok(e.programs.names())).unwrap();
        for shader in [
            "elementwise.comp",
            "reduce.comp",
            "reduce_abs.comp",
            "gemv.comp",
        ] {
            let built = programs.iter().filter(|p| p.starts_with(shader)).any(|p| {
                p.split("#define ")
                    .any(|d| d.trim() == format!("GROUP {group}"))
            });
            assert!(built, "no {shader} with GROUP {group}: {programs:?}");
        }
    }
    // Every configuration runs workgroups of 128 (GLES 3.1's least), so two sizes at least.
    assert!(sizes >= 2, "{sizes} sizes besides {default:?}");
}
