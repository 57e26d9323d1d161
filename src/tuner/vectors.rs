//! The tuner's search of the kernels over vectors' workgroups (`Tuning::vector_group`), in
//! single precision (one size serves every precision): Level 1's timed by saxpy and sdot,
//! gemv's by sgemv and its transpose, on device operands of ±1, whose right results are whole
//! numbers below 2^24 and so known exactly. isamax checks Level 1's reductions over |x[i]| too.

use super::problem::time_call;
use super::{fastest, rounds, with_tuning, Measured, Search, Times};
use crate::engine::tuning::{vector_group_fits, Vectors, VECTOR_GROUPS};
use crate::engine::{with_engine, Engine};
use crate::kernels::gemv_call::Gemv;
use crate::kernels::{dot, gemv, level1};
use crate::status::{Error, Result, Status};
use std::ffi::c_void;
use std::time::Instant;

/// One kind's search.
pub(super) struct Found {
    pub kind: Vectors,
    /// What was timed, for the summary.
    pub what: String,
    /// GB/s moved with the workgroups in use before, and with those chosen.
    pub before: f64,
    pub after: f64,
    pub chosen: i64,
    pub tried: usize,
    pub wrong: usize,
    pub skipped: usize,
}

/// Steps of one kind's search, for the progress: each candidate checked, then each round.
pub(super) fn steps(software: bool, quick: bool) -> usize {
    VECTOR_GROUPS.len() + rounds(software, quick)
}

/// The operands of one kind's calls, in device memory, and their values on the host.
struct Operands {
    kind: Vectors,
    /// Level 1: x and y of n; gemv: A (n × n), x and y of n.
    n: i64,
    x: Vec<f32>,
    y: Vec<f32>,
    a: Vec<f32>,
    /// x, y, then A where there is one.
    ptrs: Vec<*mut c_void>,
}

impl Operands {
    fn new(kind: Vectors, software: bool, quick: bool) -> Result<Operands> {
        // Level 1: a few ms a call on llvmpipe, tens of µs on a GPU, and x·(2x + y) of terms
        // ±1 and ±3 below 2^24. gemv: A of 4 MiB on llvmpipe, 64 MiB on a GPU.
        let n: i64 = match (kind, software) {
            (Vectors::Level1, true) => 1 << 20,
            (Vectors::Level1, false) => 1 << 22,
            (Vectors::Gemv, true) => 1024,
            (Vectors::Gemv, false) => 4096,
        };
        let n = if quick { n / 2 } else { n };
        let signs = |len: i64, seed: u64| -> Vec<f32> {
            let whole = super::problem::whole_numbers::<f32>(len, seed);
            whole.iter().map(|v| v.signum()).collect()
        };
        let (x, y) = (signs(n, 3), signs(n, 4));
        let a = match kind {
            Vectors::Level1 => Vec::new(),
            Vectors::Gemv => signs(n * n, 5),
        };
        let ptrs = with_engine(|e| {
            let mut ptrs = Vec::new();
            for data in [&x, &y, &a].into_iter().filter(|d| !d.is_empty()) {
                let bytes = data.len() * std::mem::size_of::<f32>();
                let p = e.memory.alloc(&e.ctx.gl, &e.ext, bytes);
                let p = p.and_then(|p| {
                    ptrs.push(p);
                    let len = data.len() as i64;
                    e.write(e.mem(p.cast::<f32>(), len)?, data).map(|()| p)
                });
                if let Err(err) = p {
                    for q in &ptrs {
                        e.memory.free(&e.ctx.gl, &e.ext, *q as usize)?;
                    }
                    return Err(err);
                }
            }
            Ok(ptrs)
        })?;
        Ok(Operands {
            kind,
            n,
            x,
            y,
            a,
            ptrs,
        })
    }

    fn free(&self) {
        // A failure leaves the allocations to the context's end; the search goes on.
        let _ = with_engine(|e| {
            for p in &self.ptrs {
                e.memory.free(&e.ctx.gl, &e.ext, *p as usize)?;
            }
            Ok(())
        });
    }

    /// Bytes one timed call moves: saxpy's three vectors and sdot's two, or both gemvs' A
    /// and vectors.
    fn bytes(&self) -> f64 {
        let n = self.n as f64;
        match self.kind {
            Vectors::Level1 => 5.0 * n * 4.0,
            Vectors::Gemv => 2.0 * (n * n + 2.0 * n) * 4.0,
        }
    }

    fn what(&self) -> String {
        match self.kind {
            Vectors::Level1 => format!("saxpy and sdot, n = {}", self.n),
            Vectors::Gemv => format!("sgemv and its transpose, n = {}", self.n),
        }
    }

    /// Runs `f` with workgroups of `group` for this kind ([`with_tuning`]).
    fn with<R>(&self, group: i64, f: impl FnOnce(&mut Engine) -> Result<R>) -> Result<R> {
        with_tuning(|t| t.vector_group[self.kind as usize] = group, f)
    }

    fn vector(&self, e: &Engine, which: usize) -> Result<crate::engine::operand::Vector<f32>> {
        e.vector(self.ptrs[which].cast_const().cast::<f32>(), self.n, 1)
    }

    /// Level 1: y := 2x + y, then sdot(x, y) into `dot`; gemv: y := op(A) x.
    fn call(&self, e: &mut Engine, trans: bool, dot_result: &mut f32) -> Result<()> {
        let (x, y) = (self.vector(e, 0)?, self.vector(e, 1)?);
        match self.kind {
            Vectors::Level1 => {
                level1::axpy(e, 2.0, &x, &y)?;
                let result = e.mem(std::ptr::from_mut(dot_result).cast_const(), 1)?;
                dot::dot(e, &x, &y, false, result)
            }
            Vectors::Gemv => {
                let n = self.n;
                let a = e.matrix(self.ptrs[2].cast_const().cast::<f32>(), n, n, n)?;
                let g = Gemv {
                    trans,
                    conjugate: false,
                    alpha: 1.0,
                    beta: 0.0,
                    ax: Some((a, x)),
                    y,
                };
                gemv::gemv(e, &g)
            }
        }
    }

    /// Whether workgroups of `group` give the right results: from y as made, Level 1's y,
    /// sdot and isamax; gemv's y with A and with its transpose.
    fn check(&self, group: i64) -> Result<bool> {
        let n = self.n as usize;
        self.with(group, |e| {
            let y = e.mem(self.ptrs[1].cast::<f32>(), self.n)?;
            e.write(y, &self.y)?;
            let mut got = vec![0.0f32; n];
            match self.kind {
                Vectors::Level1 => {
                    let mut d = f32::NAN;
                    self.call(e, false, &mut d)?;
                    e.read(y, &mut got)?;
                    let want: Vec<f32> = (0..n).map(|i| 2.0 * self.x[i] + self.y[i]).collect();
                    let dot: f64 = (0..n).map(|i| f64::from(self.x[i] * want[i])).sum();
                    let largest = want.iter().fold(0.0f32, |m, v| m.max(v.abs()));
                    let first_largest = want.iter().position(|v| v.abs() == largest);
                    let index = dot::iamax(e, &self.vector(e, 1)?)?;
                    Ok(got == want
                        && f64::from(d) == dot
                        && first_largest.map(|i| i as i64 + 1) == Some(index))
                }
                Vectors::Gemv => {
                    for trans in [false, true] {
                        self.call(e, trans, &mut 0.0)?;
                        e.read(y, &mut got)?;
                        let at = |i: usize, j: usize| match trans {
                            false => self.a[i + j * n],
                            true => self.a[j + i * n],
                        };
                        let right = (0..n).all(|i| {
                            let want: f32 = (0..n).map(|j| at(i, j) * self.x[j]).sum();
                            got[i] == want
                        });
                        if !right {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
            }
        })
    }

    /// The seconds of one timed call with workgroups of `group`: Level 1's saxpy and sdot,
    /// gemv's two.
    fn time(&self, group: i64) -> Result<f64> {
        self.with(group, |e| {
            time_call(e, |e| match self.kind {
                Vectors::Level1 => self.call(e, false, &mut 0.0),
                Vectors::Gemv => {
                    self.call(e, false, &mut 0.0)?;
                    self.call(e, true, &mut 0.0)
                }
            })
        })
    }
}

impl Search<'_> {
    /// `kind`'s search among the workgroup sizes the device runs (the current one first),
    /// until `deadline`: each checked, the right ones timed in rounds, the fastest kept where
    /// it beats the current one clearly (`Times::beat`) and made the device's.
    pub(super) fn vectors(&mut self, kind: Vectors, deadline: Instant) -> Result<Found> {
        let which = kind as usize;
        let (current, software, candidates) = with_engine(|e| {
            let current = e.tuning.vector_group[which];
            let mut all = vec![current];
            let fits = VECTOR_GROUPS
                .iter()
                .filter(|&&g| g != current && vector_group_fits(g, &e.ctx.info));
            all.extend(fits);
            Ok((current, e.ctx.info.software, all))
        })?;
        let operands = Operands::new(kind, software, self.quick)?;
        self.advance(VECTOR_GROUPS.len() - candidates.len());
        let rounds = rounds(software, self.quick);
        let check = |g| operands.check(g);
        let result = self.rounds(&candidates, rounds, deadline, check, |g| operands.time(g));
        operands.free();
        let Measured {
            timed,
            wrong,
            skipped,
        } = result?;
        let before = timed.iter().find(|t| t.0 == current).map(|t| t.1);
        let (chosen, best) = match (before, fastest(&timed)) {
            (_, None) => {
                return Err(Error::new(
                    Status::ExecutionFailed,
                    format!("no {} workgroup size gave a right result", kind.name()),
                ))
            }
            (Some(b), Some((g, t))) if t.beat(&b) => (g, t),
            (Some(b), _) => (current, b),
            // The current size was wrong: the fastest right one.
            (None, Some((g, t))) => (g, t),
        };
        let gbs = |t: &Times| operands.bytes() / t.median / 1e9;
        with_engine(|e| {
            e.tuning.vector_group[which] = chosen;
            if kind == Vectors::Level1 {
                e.tuning.rates.level1 = Some((gbs(&best) * 1e3) as i64).filter(|&r| r > 0);
            }
            Ok(())
        })?;
        Ok(Found {
            kind,
            what: operands.what(),
            before: before.as_ref().map_or(0.0, gbs),
            after: gbs(&best),
            chosen,
            tried: timed.len(),
            wrong,
            skipped,
        })
    }
}
