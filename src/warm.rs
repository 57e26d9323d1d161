//! Compiles every shader variant the routines use on host operands, by running each routine, in
//! each precision the device has, on small operands of every shape class that selects a variant
//! (aligned or not to groups of 4, a C read or not, each transposition, side and triangle).
//! Mesa's drivers keep what they compiled in their disk cache, so that later processes start
//! without compiling (`glblasWarm`, `python -m glblas warm`). `tests/warm.rs` checks that a
//! sweep of calls after it compiles nothing more.

use crate::engine::element::{Complex, Real, Scalar};
use crate::engine::with_engine;
use crate::kernels::{precision_available, Trans};
use crate::routines;
use crate::status::Result;

/// Elements each operand holds: a 64×64 matrix with leading dimension 67, plus room for an
/// offset.
const LEN: usize = 67 * 64 + 8;

/// Runs the calls in single, then (where the device computes in it) double precision; the
/// number of programs the engine holds after them.
pub fn warm() -> Result<usize> {
    each_call::<f32>()?;
    if available::<f64>() {
        each_call::<f64>()?;
    }
    if available::<Complex<f32>>() {
        each_complex_call::<f32>()?;
    }
    if available::<Complex<f64>>() {
        each_complex_call::<f64>()?;
    }
    Ok(compiled()?.len())
}

/// Whether the device computes in `T`.
fn available<T: Scalar>() -> bool {
    with_engine(|e| precision_available::<T>(e)).is_ok()
}

/// The programs compiled so far (each its source's name and defines).
pub fn compiled() -> Result<Vec<String>> {
    with_engine(|e| Ok(e.programs.names()))
}

fn each_call<T: Real>() -> Result<()> {
    let fill = |seed: usize| -> Vec<T> {
        (0..LEN)
            .map(|i| {
                T::from_f64(
                    ((i * 7 + seed) % 13) as f64 / 13.0 + if i % 65 == 0 { 4.0 } else { 0.0 },
                )
            })
            .collect()
    };
    let (a, b, mut c, mut x, mut y) = (fill(1), fill(2), fill(3), fill(4), fill(5));
    let mut out = T::ZERO;
    let half = T::from_f64(0.5);
    // SAFETY: every operand holds LEN elements, more than any call below addresses: vectors of
    // at most 1000 elements (300 with increment 2) from offset 3 at most; matrices of at most
    // 64×64 with leading dimension up to 67 from offset 1 at most.
    unsafe {
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        // Groups of 4 at once where x and y are aligned alike and long enough; else element by
        // element. Every alignment of each (the fragment kernels' texel views differ by it).
        for (xoff, yoff) in (0..4).flat_map(|i| (0..4).map(move |j| (i, j))) {
            let (xp, yp) = (x.as_mut_ptr().add(xoff), y.as_mut_ptr().add(yoff));
            for (n, inc) in [(1000, 1), (5, 1), (300, 2)] {
                routines::axpy(n, half, xp, inc, yp, inc)?;
                routines::scal(n, half, yp, inc)?;
                routines::copy(n, xp, inc, yp, inc)?;
                routines::swap(n, xp, inc, yp, inc)?;
                routines::dot(n, xp, inc, yp, inc, &mut out)?;
                routines::asum(n, xp, inc, &mut out)?;
                routines::nrm2(n, xp, inc, &mut out)?;
                routines::iamax(n, xp, inc)?;
            }
            for (m, n) in [(64, 64), (63, 61), (5, 64)] {
                for (t, beta) in [
                    (false, T::ZERO),
                    (false, half),
                    (true, T::ZERO),
                    (true, half),
                ] {
                    for (aoff, lda, inc, alpha) in gemv_cases() {
                        let ap = ap.add(aoff);
                        routines::gemv((t, false), m, n, alpha, ap, lda, xp, inc, beta, yp, inc)?;
                    }
                }
            }
        }
        // 64: columns of whole groups of 4; 63 from offset 1: not.
        for (off, m) in [(0, 64), (1, 63)] {
            let (ap, bp, cp) = (ap.add(off), bp.add(off), cp.add(off));
            for beta in [T::ZERO, T::ONE] {
                for t in [false, true] {
                    for u in [false, true] {
                        let (ta, tb) = (Trans::of(t), Trans::of(u));
                        routines::gemm(ta, tb, m, m, 8, T::ONE, ap, 64, bp, 64, beta, cp, 64)?;
                        let (a, b, c) = ((ap, 64), (bp, 64), (cp, 64));
                        routines::symm((t, false, u), m, m, T::ONE, a, b, beta, c)?;
                        for b in [None, Some(b)] {
                            routines::syrk((t, false), tb, m, 8, T::ONE, a, b, beta, c)?;
                        }
                    }
                }
            }
            for solve in [false, true] {
                for right in [false, true] {
                    for upper in [false, true] {
                        for trans in [false, true] {
                            let sides = (right, upper, Trans::of(trans), false);
                            let (a, b) = ((ap, 64), (cp, 64));
                            routines::triangular(solve, sides, m, m, T::ONE, a, b)?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// The complex routines' calls, with complex elements of `R`: the Level 1 routines, gemm in
/// each pair of N, T and C, gemv in each operation,
/// C read or not (with beta real or not), C's columns whole groups of 4 reals or not; symm and
/// hemm on each side and triangle; trmm and trsm on each side, triangle and operation; syrk,
/// syr2k, herk and her2k on each triangle and operation.
fn each_complex_call<R: Real>() -> Result<()> {
    let fill = |seed: usize| -> Vec<Complex<R>> {
        (0..LEN)
            .map(|i| Complex {
                re: R::from_f64(((i * 7 + seed) % 13) as f64 / 13.0),
                im: R::from_f64(((i * 5 + seed) % 11) as f64 / 11.0 - 0.5),
            })
            .collect()
    };
    let (a, b, mut c) = (fill(1), fill(2), fill(3));
    let i = Complex {
        re: R::ZERO,
        im: R::ONE,
    };
    let ops = [Trans::N, Trans::T, Trans::C];
    // SAFETY: as in `each_call`: matrices of at most 64×64 with leading dimension 64 from
    // offset 1 at most; vectors of 1000 elements at increment 2 at most.
    unsafe {
        // Level 1: axpy (y's increment 0: a sum of x), dotu, dotc, scal with a complex and a
        // real alpha, asum, nrm2 and i?amax.
        let (xp, yp) = (a.as_ptr(), c.as_mut_ptr());
        let (mut out, mut real) = (Complex::ZERO, R::ZERO);
        for inc in [1, -2] {
            routines::axpy(1000, i, xp, inc, yp, inc)?;
            routines::axpy(5, i, xp, inc, yp, 0)?;
            routines::dot(1000, xp, inc, yp, inc, &mut out)?;
            routines::dotc(1000, xp, inc, yp, inc, &mut out)?;
            routines::scal(1000, i, yp, inc.abs())?;
            routines::scal_real(1000, R::from_f64(0.5), yp, inc.abs())?;
            routines::asum(1000, xp, inc.abs(), &mut real)?;
            routines::nrm2(1000, xp, inc, &mut real)?;
            routines::iamax(1000, xp, inc.abs())?;
        }
        for (off, m) in [(0, 64), (1, 63)] {
            let (ap, bp, cp) = (
                a.as_ptr().add(off),
                b.as_ptr().add(off),
                c.as_mut_ptr().add(off),
            );
            for beta in [Complex::ZERO, Complex::ONE, i] {
                let one = Complex::ONE;
                for ta in ops {
                    for tb in ops {
                        routines::gemm(ta, tb, m, m, 8, one, ap, 64, bp, 64, beta, cp, 64)?;
                    }
                }
                let (a, b, c) = ((ap, 64), (bp, 64), (cp, 64));
                for right in [false, true] {
                    for upper in [false, true] {
                        for hermitian in [false, true] {
                            let how = (right, hermitian, upper);
                            routines::symm(how, m, m, one, a, b, beta, c)?;
                        }
                    }
                }
                // gemv in each operation, row-major C's conjugate of A included.
                for op in [(false, false), (true, false), (true, true), (false, true)] {
                    for inc in [1, -2] {
                        routines::gemv(op, m, m, one, ap, 64, bp, inc, beta, cp, inc)?;
                    }
                }
                // herk's and her2k's beta is real.
                let real_beta = Complex::from_real(beta.re);
                for upper in [false, true] {
                    for (hermitian, trans) in [(false, Trans::T), (true, Trans::C)] {
                        let beta = if hermitian { real_beta } else { beta };
                        for op in [Trans::N, trans] {
                            for b in [None, Some(b)] {
                                routines::syrk((upper, hermitian), op, m, 8, one, a, b, beta, c)?;
                            }
                        }
                    }
                }
            }
            // trmm and trsm; trsm's scaling of B by an alpha with an imaginary part.
            for right in [false, true] {
                for upper in [false, true] {
                    for trans in ops {
                        let sides = (right, upper, trans, false);
                        let (a, b) = ((ap, 64), (cp, 64));
                        routines::triangular(false, sides, m, m, Complex::ONE, a, b)?;
                        routines::triangular(true, sides, m, m, i, a, b)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// gemv's operand layouts beyond its vectors' offsets: A's offset and leading dimension (its
/// columns whole texels or not), the vectors' increment, and alpha (0: A is not read).
fn gemv_cases<T: Real>() -> impl Iterator<Item = (usize, i64, i64, T)> {
    [0, 1].into_iter().flat_map(|aoff| {
        [64, 65, 66, 67].into_iter().flat_map(move |lda| {
            [1, -1, 2].into_iter().flat_map(move |inc| {
                [T::ZERO, T::ONE]
                    .into_iter()
                    .map(move |alpha| (aoff, lda, inc, alpha))
            })
        })
    })
}
