//! `glblasWarm` compiles every program the routines use on host operands: a sweep of calls of
//! every routine after it, in each precision the device has, with random shapes, offsets,
//! increments, transpositions, sides, triangles and scalars, compiles none. (The results are
//! other tests' concern.)

mod common;

use common::{doubles_here, Rng};
use glblas::api::glblasWarm;
use glblas::engine::element::{Complex, Real, Scalar};
use glblas::kernels::Trans;
use glblas::routines;
use glblas::status::Status;
use glblas::warm::compiled;

#[test]
fn a_sweep_of_calls_after_warm_compiles_nothing() {
    let mut count = 0;
    assert_eq!(unsafe { glblasWarm(&mut count) }, Status::Success);
    let warmed = compiled().expect("programs");
    assert_eq!(count as usize, warmed.len());
    assert!(count > 0);
    let mut rng = Rng(7);
    // Without glblasWarm this sweep's calls compile 95 programs, the last in its 25th round on
    // llvmpipe; 40 rounds leave a margin.
    for _ in 0..40 {
        sweep::<f32>(&mut rng);
        if doubles_here() {
            sweep::<f64>(&mut rng);
        }
        if glblas::kernels::pipeline() == Some("compute") {
            complex_sweep::<f32>(&mut rng);
            if doubles_here() {
                complex_sweep::<f64>(&mut rng);
            }
        }
    }
    let now = compiled().expect("programs");
    let new: Vec<&String> = now.iter().filter(|p| !warmed.contains(p)).collect();
    assert!(new.is_empty(), "compiled after glblasWarm: {new:#?}");
}

fn op(rng: &mut Rng) -> Trans {
    [Trans::N, Trans::T, Trans::C][rng.below(3)]
}

/// One call of each complex routine (gemm, symm or hemm, trmm or trsm, syrk and the like, gemv
/// and Level 1), with random arguments.
fn complex_sweep<R: Real>(rng: &mut Rng) {
    let v = |rng: &mut Rng| -> Vec<Complex<R>> {
        (0..LEN)
            .map(|_| Complex {
                re: R::from_f64((rng.below(17) as f64 + 1.0) / 8.0),
                im: R::from_f64(rng.below(17) as f64 / 8.0 - 1.0),
            })
            .collect()
    };
    let (a, b, mut c) = (v(rng), v(rng), v(rng));
    let flag = |rng: &mut Rng| rng.below(2) == 1;
    let scalar = |rng: &mut Rng| {
        let part = |rng: &mut Rng| R::from_f64([0.0, 1.0, 0.5, -2.0][rng.below(4)]);
        Complex {
            re: part(rng),
            im: part(rng),
        }
    };
    let (m, n, k) = (1 + rng.below(90), 1 + rng.below(90), 1 + rng.below(90));
    let (m, n, k) = (m as i64, n as i64, k as i64);
    let off = rng.below(4);
    let ld = 90 + rng.below(6) as i64;
    let (alpha, beta) = (scalar(rng), scalar(rng));
    let (ta, tb) = (op(rng), op(rng));
    // SAFETY: matrices of at most 90×90 with leading dimension at most 95 from offset 3 at most,
    // within LEN.
    unsafe {
        let (ap, bp, cp) = (
            a.as_ptr().add(off),
            b.as_ptr().add(off),
            c.as_mut_ptr().add(off),
        );
        let (a, b, c) = ((ap, ld), (bp, ld), (cp, ld));
        let results = [
            routines::gemm(ta, tb, m, n, k, alpha, ap, ld, bp, ld, beta, cp, ld),
            routines::symm(
                (flag(rng), flag(rng), flag(rng)),
                m,
                n,
                alpha,
                a,
                b,
                beta,
                c,
            ),
            routines::triangular(
                flag(rng),
                (flag(rng), flag(rng), ta, flag(rng)),
                m,
                n,
                alpha,
                a,
                c,
            ),
        ];
        // syrk or syr2k (operation N or T), herk or her2k (N or C, beta real).
        let two = Some(b).filter(|_| flag(rng));
        let (trans, herm) = (
            [Trans::N, Trans::T][rng.below(2)],
            [Trans::N, Trans::C][rng.below(2)],
        );
        let real_beta = Complex::from_real(beta.re);
        let results = results.into_iter().chain([
            routines::syrk((flag(rng), false), trans, n, k, alpha, a, two, beta, c),
            routines::syrk((flag(rng), true), herm, n, k, alpha, a, two, real_beta, c),
        ]);
        // gemv in any operation, row-major C's conjugate of A included; the Level 1 routines.
        let inc = [1i64, 1, 2, -1, -3][rng.below(5)];
        let len = (LEN - 4) as i64 / inc.abs() / 2;
        let (xp, yp) = (bp, cp);
        let (mut out, mut real) = (Complex::ZERO, R::ZERO);
        let results = results.chain([
            routines::gemv(
                (flag(rng), flag(rng)),
                m,
                n,
                alpha,
                ap,
                ld,
                xp,
                inc,
                beta,
                yp,
                inc,
            ),
            routines::axpy(len, alpha, xp, inc, yp, if flag(rng) { inc } else { 0 }),
            routines::dot(len, xp, inc, yp, inc, &mut out),
            routines::dotc(len, xp, inc, yp, inc, &mut out),
            routines::scal(len, alpha, yp, inc),
            routines::scal_real(len, beta.re, yp, inc),
            routines::asum(len, xp, inc, &mut real),
            routines::nrm2(len, xp, inc, &mut real),
            routines::iamax(len, xp, inc).map(drop),
        ]);
        for r in results {
            r.expect("a valid call");
        }
    }
}

/// Elements of each operand: a 96×96 matrix, with room for an offset of up to 3.
const LEN: usize = 96 * 100;

/// One call of each routine, with random arguments.
fn sweep<T: Real>(rng: &mut Rng) {
    let v = |rng: &mut Rng| -> Vec<T> {
        (0..LEN)
            .map(|i| {
                T::from_f64(
                    (rng.below(17) as f64 + 1.0) / 8.0 + if i % 97 == 0 { 8.0 } else { 0.0 },
                )
            })
            .collect()
    };
    let (a, b, mut c, mut x, mut y) = (v(rng), v(rng), v(rng), v(rng), v(rng));
    let flag = |rng: &mut Rng| rng.below(2) == 1;
    let scalar = |rng: &mut Rng| T::from_f64([0.0, 1.0, 0.5, -2.0][rng.below(4)]);
    let (m, n, k) = (1 + rng.below(90), 1 + rng.below(90), 1 + rng.below(90));
    let off = rng.below(4);
    let ld = 90 + rng.below(6) as i64;
    let inc = [1i64, 1, 2, -1, -3][rng.below(5)];
    let len = (LEN - 4) as i64 / inc.abs() / 2;
    let mut out = T::ZERO;
    let (alpha, beta) = (scalar(rng), scalar(rng));
    let (t, u) = (flag(rng), flag(rng));
    // SAFETY: every matrix is at most 90×90 with leading dimension at most 95 from an offset
    // under 4, within LEN; every vector addresses fewer than LEN / 2 elements.
    unsafe {
        let (ap, bp, cp) = (
            a.as_ptr().add(off),
            b.as_ptr().add(off),
            c.as_mut_ptr().add(off),
        );
        let (xp, yp) = (x.as_mut_ptr().add(off), y.as_mut_ptr().add(off));
        let (a, b, c) = ((ap, ld), (bp, ld), (cp, ld));
        let n1 = 1 + rng.below(len as usize) as i64;
        let (m, n, k) = (m as i64, n as i64, k as i64);
        let results = [
            routines::axpy(n1, alpha, xp, inc, yp, inc),
            routines::scal(n1, alpha, yp, inc),
            routines::copy(n1, xp, inc, yp, inc),
            routines::swap(n1, xp, inc, yp, inc),
            routines::dot(n1, xp, inc, yp, inc, &mut out),
            routines::asum(n1, xp, inc.abs(), &mut out),
            routines::nrm2(n1, xp, inc.abs(), &mut out),
            routines::iamax(n1, xp, inc.abs()).map(|_| ()),
            routines::gemv((t, false), m, n, alpha, ap, ld, xp, inc, beta, yp, inc),
            routines::gemm(
                op(rng),
                op(rng),
                m,
                n,
                k,
                alpha,
                ap,
                ld,
                bp,
                ld,
                beta,
                cp,
                ld,
            ),
            routines::symm(
                (t, false, u),
                m,
                n,
                alpha,
                (ap, ld),
                (bp, ld),
                beta,
                (cp, ld),
            ),
            routines::syrk((t, false), op(rng), n, k, alpha, a, None, beta, c),
            routines::syrk((t, false), op(rng), n, k, alpha, a, Some(b), beta, c),
            routines::triangular(
                false,
                (t, u, op(rng), flag(rng)),
                m,
                n,
                alpha,
                (ap, ld),
                (cp, ld),
            ),
            routines::triangular(
                true,
                (t, u, op(rng), flag(rng)),
                m,
                n,
                alpha,
                (ap, ld),
                (cp, ld),
            ),
        ];
        for r in results {
            r.expect("a valid call");
        }
    }
}
