//! The tuner's product: operands in device memory whose right result is known exactly, the
//! check of a result against it, and one call timed.

use crate::engine::element::{Precision, Real};
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
/// candidate's first call computes a ragged part (edge blocks and tiles), which is checked with
/// the rest of C untouched; its last timed call the whole, checked too.
pub(super) struct Problem<T: Real> {
    pub n: i64,
    pub software: bool,
    ptrs: [*mut c_void; 3],
    a: Vec<T>,
    b: Vec<T>,
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
        Ok(Problem {
            n,
            software,
            ptrs,
            a,
            b,
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

    /// Runs `f` with `p` as the device's parameters for `T`, only while the engine's lock is
    /// held.
    fn with<R>(&self, p: GemmParams, f: impl FnOnce(&mut Engine) -> Result<R>) -> Result<R> {
        let which = usize::from(T::PRECISION != Precision::Single);
        with_engine(|e| {
            let saved = e.tuning.gemm[which];
            e.tuning.gemm[which] = p;
            let result = f(e);
            e.tuning.gemm[which] = saved;
            result
        })
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
            if !self.right(e, m, cols, k)? {
                return Ok(false);
            }
            self.run(e, n, n, n)?;
            self.right(e, n, n, n)
        })
    }

    /// The seconds of one call with `p`: the device's time in its launches, from timer
    /// queries, where it has them, else the wall time up to a wait for the device.
    pub fn time(&self, p: GemmParams) -> Result<f64> {
        let n = self.n;
        self.with(p, |e| {
            let gl = &e.ctx.gl;
            if !e.ctx.info.timer_queries {
                let start = Instant::now();
                self.run(e, n, n, n)?;
                e.sync()?;
                return Ok(start.elapsed().as_secs_f64());
            }
            e.timer.set(gl, true)?;
            let run = self.run(e, n, n, n);
            let time = run.and_then(|()| e.timer.read(&e.ctx.gl));
            let stop = e.timer.set(&e.ctx.gl, false);
            let (seconds, _) = time?;
            stop?;
            Ok(seconds)
        })
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

    /// Whether C holds the m × cols product over k steps, and [`UNTOUCHED`] around it.
    fn right(&self, e: &mut Engine, m: i64, cols: i64, k: i64) -> Result<bool> {
        let n = self.n as usize;
        let mut c = vec![T::ZERO; n * n];
        e.read(e.mem(self.ptrs[2].cast::<T>(), self.n * self.n)?, &mut c)?;
        let (m, cols, k) = (m as usize, cols as usize, k as usize);
        let at = |x: &[T], i: usize, j: usize| x[i + j * n].to_f64();
        // A's columns' sums (plain, and rows weighted i + 1) and B's rows' (columns weighted
        // j + 1), over the part.
        let mut a_sums = vec![[0.0; 2]; k];
        let mut b_sums = vec![[0.0; 2]; k];
        for l in 0..k {
            for i in 0..m {
                let v = at(&self.a, i, l);
                a_sums[l][0] += v;
                a_sums[l][1] += (i + 1) as f64 * v;
            }
            for j in 0..cols {
                let v = at(&self.b, l, j);
                b_sums[l][0] += v;
                b_sums[l][1] += (j + 1) as f64 * v;
            }
        }
        for j in 0..n {
            for i in 0..n {
                let inside = i < m && j < cols;
                if !inside && at(&c, i, j) != UNTOUCHED {
                    return Ok(false);
                }
            }
        }
        let columns = (0..cols).all(|j| {
            let want = (0..k).fold([0.0; 2], |s, l| {
                let v = at(&self.b, l, j);
                [s[0] + a_sums[l][0] * v, s[1] + a_sums[l][1] * v]
            });
            let got = (0..m).fold([0.0; 2], |s, i| {
                let v = at(&c, i, j);
                [s[0] + v, s[1] + (i + 1) as f64 * v]
            });
            got == want
        });
        let rows = (0..m).all(|i| {
            let want = (0..k).fold([0.0; 2], |s, l| {
                let v = at(&self.a, i, l);
                [s[0] + v * b_sums[l][0], s[1] + v * b_sums[l][1]]
            });
            let got = (0..cols).fold([0.0; 2], |s, j| {
                let v = at(&c, i, j);
                [s[0] + v, s[1] + (j + 1) as f64 * v]
            });
            got == want
        });
        Ok(columns && rows)
    }
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
