//! The tuner (`glblasTune`, `python -m glblas tune`): the compute gemm's parameters searched
//! on the device in hand, for single and double precision. Each candidate's result is checked
//! exactly before it is timed, and a wrong one is never kept; the fastest right one becomes the
//! device's parameters at once, and its entry in the user's tuning table
//! (`engine::tuning_table`) for the contexts made after. Method and limits: `docs/tuning.md`.

use crate::engine::element::{Precision, Real};
use crate::engine::tuning::GemmParams;
use crate::engine::tuning_table::{self, Key};
use crate::engine::{with_engine, Engine};
use crate::kernels::gemm_call::{Gemm, Rules};
use crate::kernels::{gemm, precision_available};
use crate::status::{Error, Result, Status};
use std::ffi::c_void;
use std::time::{Duration, Instant};

/// What one search costs at most, by default: on a GPU, and on a software rasterizer.
const GPU_SECONDS: f64 = 120.0;
const SOFTWARE_SECONDS: f64 = 600.0;
/// `--quick`'s share of those.
const QUICK_SHARE: f64 = 0.25;

/// How to search.
pub struct Options<'a> {
    /// A shorter search: fewer candidates and a quarter of the time.
    pub quick: bool,
    /// The most seconds the search may take, or 0 for the default.
    pub seconds: f64,
    /// Called after each candidate with how many are done and how many there are.
    pub progress: &'a mut dyn FnMut(usize, usize),
}

/// One precision's search.
struct Found {
    name: &'static str,
    n: i64,
    before: f64,
    after: f64,
    chosen: GemmParams,
    tried: usize,
    wrong: usize,
    skipped: usize,
}

/// Searches the gemm parameters for each precision the device computes, makes the fastest
/// right ones the device's, writes them to the user's table, and returns a summary (lines of
/// text: each precision's rate before and after, and the table written).
pub fn tune(options: Options) -> Result<String> {
    let start = Instant::now();
    let (software, key, timed_by, doubles) = with_engine(|e| {
        if !e.ctx.info.compute {
            return Err(Error::unsupported(
                "no-compute",
                "the fragment pipeline's kernels have no parameters to tune",
            ));
        }
        let info = &e.ctx.info;
        let timed_by = if info.timer_queries {
            "kernel time from GL timer queries"
        } else {
            "wall time (the device's timer queries leave out compute dispatches)"
        };
        let doubles = precision_available::<f64>(e).is_ok();
        Ok((info.software, Key::of(info), timed_by, doubles))
    })?;
    let Some(path) = tuning_table::user_table() else {
        return Err(Error::invalid(
            "no table to write: GLBLAS_TUNING is off, and neither XDG_CACHE_HOME nor HOME is set",
        ));
    };
    let full = if software {
        SOFTWARE_SECONDS
    } else {
        GPU_SECONDS
    };
    let seconds = match options.seconds {
        s if s > 0.0 => s,
        _ if options.quick => full * QUICK_SHARE,
        _ => full,
    };
    let deadline = start + Duration::from_secs_f64(seconds);
    let (single, double) = with_engine(|e| {
        let double = doubles.then(|| candidates::<f64>(e, options.quick));
        Ok((candidates::<f32>(e, options.quick), double))
    })?;
    let mut search = Search {
        quick: options.quick,
        progress: options.progress,
        done: 0,
        total: [Some(&single), double.as_ref()]
            .iter()
            .flatten()
            .map(|c| c.len() + rounds(software, options.quick))
            .sum(),
    };
    (search.progress)(0, search.total);
    // Single precision's search may take the first half (all, without doubles), and leaves
    // double's what it does not use.
    let first = match double {
        Some(_) => start + (deadline - start) / 2,
        None => deadline,
    };
    let mut found = vec![search.gemm::<f32>(&single, first)?];
    if let Some(double) = double {
        found.push(search.gemm::<f64>(&double, deadline)?);
    }
    let tuning = with_engine(|e| Ok(e.tuning))?;
    tuning_table::save(&path, &key, &tuning).map_err(|err| {
        Error::new(
            Status::ExecutionFailed,
            format!("cannot write the tuning table {}: {err}", path.display()),
        )
    })?;
    let mut summary = format!(
        "glblas tune on {} ({}), {:.0} s, {timed_by}:\n",
        key.renderer,
        key.driver,
        start.elapsed().as_secs_f64()
    );
    for f in &found {
        let rejected = match f.wrong {
            0 => String::new(),
            w => format!(", {w} wrong and rejected"),
        };
        let unfinished = match f.skipped {
            0 => String::new(),
            s => format!(", {s} left at the time limit"),
        };
        summary.push_str(&format!(
            "  {} n = {}: {:.1} -> {:.1} GFLOP/s ({}; {} candidates timed{rejected}{unfinished})\n",
            f.name,
            f.n,
            f.before,
            f.after,
            tuning_table::describe(&f.chosen),
            f.tried,
        ));
    }
    summary.push_str(&format!("table: {}\n", path.display()));
    Ok(summary)
}

/// The right candidates' median times, and how many were wrong or left at the time limit.
struct Measured {
    timed: Vec<(GemmParams, f64)>,
    wrong: usize,
    skipped: usize,
}

struct Search<'a> {
    quick: bool,
    progress: &'a mut dyn FnMut(usize, usize),
    done: usize,
    total: usize,
}

impl Search<'_> {
    /// `T`'s search among `candidates` (the current parameters first), until `deadline`: the
    /// size, then the candidates.
    fn gemm<T: Real>(&mut self, candidates: &[GemmParams], deadline: Instant) -> Result<Found> {
        let which = usize::from(T::PRECISION != Precision::Single);
        let name = ["sgemm", "dgemm"][which];
        let (software, most) = with_engine(|e| Ok((e.ctx.info.software, e.max_window())))?;
        let current = candidates[0];
        // The side where the current parameters take long enough to time well, up to what a
        // device is asked to run in one call (half that, `quick`) and one window holds.
        let (target, cap) = if software { (0.05, 1024) } else { (0.01, 4096) };
        let cap = if self.quick { cap / 2 } else { cap };
        let mut n = 256;
        let mut problem = Problem::<T>::new(n)?;
        let probe = |problem: &Problem<T>| -> Result<Option<f64>> {
            match problem.check(current)? {
                true => problem.time(current).map(Some),
                false => Ok(None),
            }
        };
        let mut took = probe(&problem);
        while matches!(took, Ok(Some(t)) if t < target)
            && n < cap
            && 4 * n * n <= most
            && Instant::now() < deadline
        {
            n *= 2;
            problem.free();
            problem = Problem::new(n)?;
            took = probe(&problem);
        }
        let result = took.and_then(|_| self.measure(&problem, candidates, deadline));
        problem.free();
        let Measured {
            timed,
            wrong,
            skipped,
        } = result?;
        let Some(&fastest) = timed.iter().min_by(|x, y| x.1.total_cmp(&y.1)) else {
            return Err(Error::new(
                Status::ExecutionFailed,
                format!("no {name} kernel gave a right result"),
            ));
        };
        let before = timed.iter().find(|(p, _)| *p == current).map(|t| t.1);
        let (chosen, best) = match before {
            Some(t) if t <= fastest.1 * KEEP => (current, t),
            _ => fastest,
        };
        with_engine(|e| {
            e.tuning.gemm[which] = chosen;
            Ok(())
        })?;
        let flops = 2.0 * (n as f64).powi(3) / 1e9;
        Ok(Found {
            name,
            n,
            before: before.map_or(0.0, |t| flops / t),
            after: flops / best,
            chosen,
            tried: timed.len(),
            wrong,
            skipped,
        })
    }

    /// Checks each candidate on `problem`, then times the right ones in [`rounds`], each
    /// round one call of each, so that the machine's drift over the search falls on all alike;
    /// returns each right candidate's median time, how many were wrong, and how many were left
    /// unchecked at `deadline` (the rounds after the first are left too).
    fn measure<T: Real>(
        &mut self,
        problem: &Problem<T>,
        candidates: &[GemmParams],
        deadline: Instant,
    ) -> Result<Measured> {
        let (mut right, mut wrong, mut skipped) = (Vec::new(), 0, 0);
        for (i, &p) in candidates.iter().enumerate() {
            if i > 0 && Instant::now() >= deadline {
                skipped = candidates.len() - i;
                self.advance(skipped);
                break;
            }
            match problem.check(p)? {
                true => right.push(p),
                false => wrong += 1,
            }
            self.advance(1);
        }
        let rounds = rounds(problem.software, self.quick);
        let mut times = vec![Vec::with_capacity(rounds); right.len()];
        for round in 0..rounds {
            if round > 0 && Instant::now() >= deadline {
                self.advance(rounds - round);
                break;
            }
            for (&p, t) in right.iter().zip(&mut times) {
                t.push(problem.time(p)?);
            }
            self.advance(1);
        }
        let medians = times.into_iter().map(|mut t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        });
        Ok(Measured {
            timed: right.into_iter().zip(medians).collect(),
            wrong,
            skipped,
        })
    }

    fn advance(&mut self, steps: usize) {
        self.done += steps;
        (self.progress)(self.done, self.total);
    }
}

/// Timing rounds: more on a software rasterizer, whose times vary more (it shares the CPU's
/// cores with everything else); 3 with `quick`.
fn rounds(software: bool, quick: bool) -> usize {
    match (software, quick) {
        (_, true) => 3,
        (true, false) => 7,
        (false, false) => 5,
    }
}

/// The current parameters are kept unless a candidate is faster by more than this factor:
/// closer than that is within the timings' noise.
const KEEP: f64 = 1.03;

/// The family's members the device can run for `T`, its current parameters first: blocked
/// kernels of each block at two workgroup sides, and tiled ones: on a GPU, of each block at
/// two sides and three tile depths (one each, `quick`); on a software rasterizer, whose shared
/// memory is slow (`Tuning::defaults`), of 4×4 and 8×8 blocks at one (none, `quick`). Each
/// within what the device's registers, invocations and shared memory allow.
fn candidates<T: Real>(e: &Engine, quick: bool) -> Vec<GemmParams> {
    let current = e.tuning.gemm[usize::from(T::PRECISION != Precision::Single)];
    let info = &e.ctx.info;
    let blocks: &[[i64; 2]] = if info.software {
        &[[4, 4], [8, 8], [16, 8], [8, 16], [16, 16]]
    } else {
        &[[4, 4], [8, 4], [4, 8], [8, 8], [16, 8], [8, 16], [16, 16]]
    };
    let (groups, depths): (&[i64], &[i64]) = match (info.software, quick) {
        (false, false) => (&[8, 16], &[8, 16, 32]),
        (false, true) => (&[16], &[16]),
        (true, false) => (&[8], &[16]),
        (true, true) => (&[], &[]),
    };
    let mut all = vec![current];
    for &block in blocks {
        for group in [8, 16] {
            all.push(GemmParams {
                group,
                ..GemmParams::blocked(block)
            });
        }
        let tiled = !info.software || block[0] <= 8;
        for &group in groups.iter().filter(|_| tiled) {
            for &tile_k in depths {
                all.push(GemmParams {
                    tiled: true,
                    group,
                    block,
                    tile_k,
                });
            }
        }
    }
    let mut unique: Vec<GemmParams> = Vec::new();
    for p in all {
        let pads = p
            .block
            .iter()
            .all(|b| !p.tiled || b * p.group <= e.max_window());
        let allowed = tuning_table::allowed(&p, info, &e.limits, T::SIZE);
        if p.valid() && allowed && pads && !unique.contains(&p) {
            unique.push(p);
        }
    }
    unique
}

/// A product to time: A, B and C, n × n, in device memory, of small whole numbers, whose every
/// product is exact in either precision, so that a right result is known exactly: its rows'
/// and columns' sums, plain and weighted, which any wrong element (or NaN) changes. A
/// candidate's first call computes a ragged part (edge blocks and tiles), which is checked with
/// the rest of C untouched; its last timed call the whole, checked too.
struct Problem<T: Real> {
    n: i64,
    software: bool,
    ptrs: [*mut c_void; 3],
    a: Vec<T>,
    b: Vec<T>,
}

/// The ragged part: rows, columns and steps of k short of n.
const RAGGED: [i64; 3] = [3, 1, 5];
/// What C holds outside the ragged part, which no whole-number result equals.
const UNTOUCHED: f64 = 0.5;

impl<T: Real> Problem<T> {
    fn new(n: i64) -> Result<Problem<T>> {
        let values = |seed: u64| {
            let mut s = seed;
            (0..n * n)
                .map(|_| {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let v = ((s >> 33) % 8) as i64 - 4;
                    // -4..=4 without 0: no term of a sum is missing unnoticed.
                    T::from_f64((if v >= 0 { v + 1 } else { v }) as f64)
                })
                .collect::<Vec<T>>()
        };
        let (a, b) = (values(1), values(2));
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

    fn free(&self) {
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
    fn check(&self, p: GemmParams) -> Result<bool> {
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
    fn time(&self, p: GemmParams) -> Result<f64> {
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
