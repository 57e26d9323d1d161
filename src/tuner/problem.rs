//! The tuner's product: operands in device memory whose right result is known exactly, the
//! check of a result against it, and one call timed.

use super::with_tuning;
use crate::engine::element::Real;
use crate::engine::tuning::GemmParams;
use crate::engine::{with_engine, Engine};
use crate::kernels::gemm;
use crate::kernels::gemm_call::{Gemm, Rules};
use crate::status::Result;
use std::ffi::c_void;
use std::time::Instant;

/// A product to time: A, B and C, n × n, in device memory, of small whole numbers, whose every
/// product is exact in either precision, so that a right result is known exactly: its rows'
/// and columns' sums, plain and weighted, which any wrong element (or NaN) changes. A
/// candidate's check computes a ragged part (edge blocks and tiles), checked with the rest of C
/// untouched, then the whole, checked too.
pub(super) struct Problem<T: Real> {
    pub n: i64,
    pub software: bool,
    ptrs: [*mut c_void; 3],
    /// The right sums of the ragged part and of the whole, computed once for every candidate.
    ragged: Sums,
    whole: Sums,
    _elements: std::marker::PhantomData<T>,
}

/// Each column's sums of a product (plain, and rows weighted i + 1), then each row's (columns
/// weighted j + 1), in double precision: exact for whole numbers.
#[derive(PartialEq)]
struct Sums {
    columns: Vec<[f64; 2]>,
    rows: Vec<[f64; 2]>,
}

impl Sums {
    /// The sums of C's leading `m` × `cols`, its leading dimension `ld`.
    fn of<T: Real>(c: &[T], ld: usize, m: usize, cols: usize) -> Sums {
        let at = |i: usize, j: usize| c[i + j * ld].to_f64();
        let weighted = |s: [f64; 2], v: f64, w: usize| [s[0] + v, s[1] + (w + 1) as f64 * v];
        Sums {
            columns: (0..cols)
                .map(|j| (0..m).fold([0.0; 2], |s, i| weighted(s, at(i, j), i)))
                .collect(),
            rows: (0..m)
                .map(|i| (0..cols).fold([0.0; 2], |s, j| weighted(s, at(i, j), j)))
                .collect(),
        }
    }

    /// The sums of A's leading `m` × `k` times B's leading `k` × `cols` (leading dimension
    /// `ld` both), from A's columns' sums and B's rows' in O(n²).
    fn of_product<T: Real>(a: &[T], b: &[T], ld: usize, [m, cols, k]: [usize; 3]) -> Sums {
        // A's columns' sums (plain, and rows weighted i + 1) and B's rows' (columns weighted
        // j + 1), over the part.
        let a_sums = Sums::of(a, ld, m, k).columns;
        let b_sums = Sums::of(b, ld, k, cols).rows;
        let at = |x: &[T], i: usize, j: usize| x[i + j * ld].to_f64();
        Sums {
            columns: (0..cols)
                .map(|j| {
                    (0..k).fold([0.0; 2], |s, l| {
                        let v = at(b, l, j);
                        [s[0] + a_sums[l][0] * v, s[1] + a_sums[l][1] * v]
                    })
                })
                .collect(),
            rows: (0..m)
                .map(|i| {
                    (0..k).fold([0.0; 2], |s, l| {
                        let v = at(a, i, l);
                        [s[0] + v * b_sums[l][0], s[1] + v * b_sums[l][1]]
                    })
                })
                .collect(),
        }
    }
}

/// The ragged part: rows, columns and steps of k short of n.
const RAGGED: [i64; 3] = [3, 1, 5];
/// What C holds outside the ragged part, which no whole-number result equals.
const UNTOUCHED: f64 = 0.5;

impl<T: Real> Problem<T> {
    pub fn new(n: i64) -> Result<Problem<T>> {
        let (a, b) = (whole_numbers(n * n, 1), whole_numbers(n * n, 2));
        let bytes = (n * n * T::SIZE) as usize;
        let (ptrs, software) = with_engine(|e| {
            let mut ptrs = [std::ptr::null_mut(); 3];
            for (i, p) in ptrs.iter_mut().enumerate() {
                match e.memory.alloc(&e.ctx.gl, &e.ext, bytes) {
                    Ok(q) => *p = q,
                    Err(err) => {
                        for q in &ptrs[..i] {
                            e.memory.free(&e.ctx.gl, &e.ext, *q as usize)?;
                        }
                        return Err(err);
                    }
                }
            }
            e.write(e.mem(ptrs[0].cast::<T>(), n * n)?, &a)?;
            e.write(e.mem(ptrs[1].cast::<T>(), n * n)?, &b)?;
            Ok((ptrs, e.ctx.info.software))
        })?;
        let whole = n as usize;
        let sums = |part: [i64; 3]| Sums::of_product(&a, &b, whole, part.map(|v| v as usize));
        Ok(Problem {
            n,
            software,
            ptrs,
            ragged: sums(RAGGED.map(|r| n - r)),
            whole: sums([n; 3]),
            _elements: std::marker::PhantomData,
        })
    }

    pub fn free(&self) {
        // A failure leaves the allocations to the context's end; the search goes on.
        let _ = with_engine(|e| {
            for p in self.ptrs {
                e.memory.free(&e.ctx.gl, &e.ext, p as usize)?;
            }
            Ok(())
        });
    }

    /// Runs `f` with `p` as the device's parameters for `T` ([`with_tuning`]).
    fn with<R>(&self, p: GemmParams, f: impl FnOnce(&mut Engine) -> Result<R>) -> Result<R> {
        with_tuning(|t| t.gemm[T::PRECISION.index()] = p, f)
    }

    /// Whether `p` computes the ragged part right, leaving the rest of C untouched, then the
    /// whole product (which may take other programs).
    pub fn check(&self, p: GemmParams) -> Result<bool> {
        let n = self.n;
        self.with(p, |e| {
            let c = e.mem(self.ptrs[2].cast::<T>(), n * n)?;
            e.write(c, &vec![T::from_f64(UNTOUCHED); (n * n) as usize])?;
            let [m, cols, k] = RAGGED.map(|r| n - r);
            self.run(e, m, cols, k)?;
            if !self.right(e, [m, cols], &self.ragged)? {
                return Ok(false);
            }
            self.run(e, n, n, n)?;
            self.right(e, [n, n], &self.whole)
        })
    }

    /// The seconds of one call with `p` ([`time_call`]).
    pub fn time(&self, p: GemmParams) -> Result<f64> {
        let n = self.n;
        self.with(p, |e| time_call(e, |e| self.run(e, n, n, n)))
    }

    /// C's leading m × cols := A's m × k times B's k × cols.
    fn run(&self, e: &mut Engine, m: i64, cols: i64, k: i64) -> Result<()> {
        let n = self.n;
        let a = e.matrix(self.ptrs[0].cast_const().cast::<T>(), m, k, n)?;
        let b = e.matrix(self.ptrs[1].cast_const().cast::<T>(), k, cols, n)?;
        let c = e.matrix(self.ptrs[2].cast_const().cast::<T>(), m, cols, n)?;
        gemm::gemm(
            e,
            &Gemm {
                ta: false,
                tb: false,
                m,
                n: cols,
                k,
                alpha: T::ONE,
                beta: T::ZERO,
                ab: Some((a, b)),
                c,
                rules: Rules::default(),
                complex: None,
            },
        )
    }

    /// Whether C's leading m × cols has the product's sums `want`, and C holds [`UNTOUCHED`]
    /// around it.
    fn right(&self, e: &mut Engine, [m, cols]: [i64; 2], want: &Sums) -> Result<bool> {
        let n = self.n as usize;
        let mut c = vec![T::ZERO; n * n];
        e.read(e.mem(self.ptrs[2].cast::<T>(), self.n * self.n)?, &mut c)?;
        let (m, cols) = (m as usize, cols as usize);
        let outside = (0..n)
            .flat_map(|j| (0..n).map(move |i| (i, j)))
            .filter(|&(i, j)| i >= m || j >= cols);
        let untouched = outside
            .into_iter()
            .all(|(i, j)| c[i + j * n].to_f64() == UNTOUCHED);
        Ok(untouched && Sums::of(&c, n, m, cols) == *want)
    }
}

/// The seconds of `call` on the device: its launches' time from timer queries, where the device
/// has them, else the wall time up to a wait for the device.
pub(super) fn time_call(
    e: &mut Engine,
    call: impl FnOnce(&mut Engine) -> Result<()>,
) -> Result<f64> {
    if !e.ctx.info.timer_queries {
        let start = Instant::now();
        call(e)?;
        e.sync()?;
        return Ok(start.elapsed().as_secs_f64());
    }
    e.timer.set(&e.ctx.gl, true)?;
    let run = call(e);
    let time = run.and_then(|()| e.timer.read(&e.ctx.gl));
    let stop = e.timer.set(&e.ctx.gl, false);
    let seconds = time?.seconds;
    stop?;
    Ok(seconds)
}

/// `len` whole numbers from -4 to 4 but 0, from `seed`: every product and sum of up to a million
/// terms of them is exact in single precision, and no term of a sum is missing unnoticed.
pub(super) fn whole_numbers<T: Real>(len: i64, seed: u64) -> Vec<T> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = ((s >> 33) % 8) as i64 - 4;
            T::from_f64((if v >= 0 { v + 1 } else { v }) as f64)
        })
        .collect()
}
