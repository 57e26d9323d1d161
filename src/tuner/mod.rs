//! The tuner (`glblasTune`, `python -m glblas tune`): the compute gemm's parameters searched
//! on the device in hand, for single and double precision, then the workgroups of Level 1's
//! and gemv's kernels (`vectors`). Each candidate's result is checked exactly before it is
//! timed, and a wrong one is never kept; the fastest right one becomes the device's parameters
//! at once, and its entry in the user's tuning table (`engine::tuning_table`) for the contexts
//! made after. Method and limits: `docs/tuning.md`.

use crate::engine::element::Real;
use crate::engine::tuning::{GemmParams, Tuning, Vectors, TILE_OPTIONS};
use crate::engine::tuning_table::{self, Key};
use crate::engine::{with_engine, Engine};
use crate::kernels::precision_available;
use crate::status::{Error, Result, Status};
use std::time::{Duration, Instant};

mod crossover;
mod problem;
mod small;
mod vectors;

use crate::engine::tuning::Crossover;
use problem::Problem;

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
    /// Called after each step (a candidate checked, a round of timings, a size measured beside
    /// the CPU BLAS) with how many are done and how many there are.
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
    /// For small calls, where a quarter of n is searched.
    small: Option<small::Found>,
    /// Beside the CPU BLAS, where there is one.
    beside: Option<crossover::Measured>,
}

/// Searches the gemm parameters for each precision the device computes, makes the fastest
/// right ones the device's, measures gemm's crossover beside the CPU BLAS, searches the kernels
/// over vectors' workgroups, writes all to the user's table, and returns a summary
/// ([`summarize`]).
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
    let cap = side_cap(software, options.quick);
    let rounds = rounds(software, options.quick);
    let steps = |c: &Vec<GemmParams>| {
        c.len()
            + rounds
            + OPTIONS_STAGE
            + rounds
            + small::steps(c.len(), rounds)
            + crossover::sides(cap)
    };
    let vector_steps = Vectors::ALL.len() * vectors::steps(software, options.quick);
    let mut search = Search {
        quick: options.quick,
        progress: options.progress,
        done: 0,
        total: steps(&single) + double.as_ref().map_or(0, steps) + vector_steps,
    };
    (search.progress)(0, search.total);
    // Of the time: gemm 90%, the kernels over vectors the rest (a few seconds on llvmpipe).
    // Of gemm's, each precision's search 80%, its crossover 20%; single precision's half of
    // that where there are doubles, leaving double's what it does not use.
    let at = |share: f64| start + (deadline - start).mul_f64(share);
    let shares = if double.is_some() {
        [0.36, 0.45]
    } else {
        [0.72, 0.9]
    };
    let mut found = vec![search.gemm::<f32>(&single, at(shares[0]), at(shares[1]))?];
    if let Some(double) = double {
        found.push(search.gemm::<f64>(&double, at(0.81), at(0.9))?);
    }
    let mut vector_found = Vec::new();
    for kind in Vectors::ALL {
        vector_found.push(search.vectors(kind, deadline)?);
    }
    let tuning = with_engine(|e| Ok(e.tuning))?;
    tuning_table::save(&path, &key, &tuning).map_err(|err| {
        Error::new(
            Status::ExecutionFailed,
            format!("cannot write the tuning table {}: {err}", path.display()),
        )
    })?;
    let elapsed = start.elapsed().as_secs_f64();
    Ok(summarize(
        &key,
        elapsed,
        timed_by,
        &found,
        &vector_found,
        &path,
    ))
}

/// The search's summary for people: each precision's rate before and after, its crossover, and
/// the table written.
fn summarize(
    key: &Key,
    elapsed: f64,
    timed_by: &str,
    found: &[Found],
    vector_found: &[vectors::Found],
    path: &std::path::Path,
) -> String {
    let mut summary = format!(
        "glblas tune on {} ({}), {:.0} s, {timed_by}:\n",
        key.renderer, key.driver, elapsed
    );
    for f in found {
        summary.push_str(&format!(
            "  {} n = {}: {:.1} -> {:.1} GFLOP/s ({}; {} candidates timed{}{})\n",
            f.name,
            f.n,
            f.before,
            f.after,
            tuning_table::describe(&f.chosen),
            f.tried,
            rejected(f.wrong),
            unfinished(f.skipped),
        ));
    }
    for f in found {
        if let Some(s) = &f.small {
            summary.push_str(&format!("  {} {}\n", f.name, small_calls(s)));
        }
    }
    for f in found {
        summary.push_str(&format!("  {} {}\n", f.name, beside(f.beside.as_ref())));
    }
    for f in vector_found {
        summary.push_str(&format!(
            "  {} ({}): {:.1} -> {:.1} GB/s (group {}; {} sizes timed{}{})\n",
            f.kind.name(),
            f.what,
            f.before,
            f.after,
            f.chosen,
            f.tried,
            rejected(f.wrong),
            unfinished(f.skipped),
        ));
    }
    summary.push_str(&format!("table: {}\n", path.display()));
    summary
}

/// What a summary says of the small calls' search.
fn small_calls(s: &small::Found) -> String {
    let wrong = rejected(s.wrong);
    match &s.small {
        Some((small, rate)) => format!(
            "n = {}: {:.1} -> {rate:.1} GFLOP/s for C below {} elements ({}{wrong})",
            s.n,
            s.before,
            small.below,
            tuning_table::describe(&small.params),
        ),
        None => format!(
            "n = {}: {:.1} GFLOP/s, no kernel clearly faster there{wrong}",
            s.n, s.before
        ),
    }
}

/// What a summary says of `wrong` candidates.
fn rejected(wrong: usize) -> String {
    match wrong {
        0 => String::new(),
        w => format!(", {w} wrong and rejected"),
    }
}

/// What a summary says of `skipped` candidates.
fn unfinished(skipped: usize) -> String {
    match skipped {
        0 => String::new(),
        s => format!(", {s} left at the time limit"),
    }
}

/// What a summary says of GL beside the CPU BLAS.
fn beside(m: Option<&crossover::Measured>) -> String {
    let Some(m) = m else {
        return "not measured beside a CPU BLAS: there is none".to_string();
    };
    let ms = |s: f64| s * 1e3;
    let at = |n: i64| m.sides.iter().find(|s| s.0 == n).copied();
    let side = |flops: u64| (flops as f64 / 2.0).cbrt().round() as i64;
    match m.crossover {
        Crossover::From(flops) => {
            let (n, gl, cpu) = at(side(flops)).unwrap_or_default();
            format!(
                "beside {} on host operands: GL wins from n = {n} ({:.3} against {:.3} ms)",
                m.library,
                ms(gl),
                ms(cpu)
            )
        }
        Crossover::Never(flops) => {
            let (n, gl, cpu) = at(side(flops)).unwrap_or_default();
            format!(
                "beside {} on host operands: the CPU BLAS wins at every n up to {n} ({:.3} \
                 against {:.3} ms there)",
                m.library,
                ms(gl),
                ms(cpu)
            )
        }
    }
}

/// The largest side searched and measured: what a device is asked to run in one call (half
/// that, `quick`).
fn side_cap(software: bool, quick: bool) -> i64 {
    let cap = if software { 1024 } else { 4096 };
    if quick {
        cap / 2
    } else {
        cap
    }
}

/// The right candidates' median times, and how many were wrong or left at the time limit.
struct Measured<P = GemmParams> {
    timed: Vec<(P, Times)>,
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
    /// size, then the candidates; then, until `end`, the crossover with the parameters chosen.
    fn gemm<T: Real>(
        &mut self,
        candidates: &[GemmParams],
        deadline: Instant,
        end: Instant,
    ) -> Result<Found> {
        let which = T::PRECISION.index();
        let name = ["sgemm", "dgemm"][which];
        let (software, most) = with_engine(|e| Ok((e.ctx.info.software, e.max_window())))?;
        let current = candidates[0];
        // The side where the current parameters take long enough to time well, up to
        // `side_cap` and what one window holds.
        let target = if software { 0.05 } else { 0.01 };
        let cap = side_cap(software, self.quick);
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
        let result = took
            .and_then(|_| self.measure(&problem, candidates, deadline))
            .and_then(|first| self.tile_options(&problem, current, first, deadline));
        problem.free();
        let Measured {
            timed,
            wrong,
            skipped,
        } = result?;
        let Some((fastest, times)) = fastest(&timed) else {
            return Err(Error::new(
                Status::ExecutionFailed,
                format!("no {name} kernel gave a right result"),
            ));
        };
        let before = timed.iter().find(|(p, _)| *p == current).map(|t| t.1);
        let (chosen, best) = match before {
            Some(b) if !times.beat(&b) => (current, b.median),
            _ => (fastest, times.median),
        };
        let flops = 2.0 * (n as f64).powi(3) / 1e9;
        with_engine(|e| {
            e.tuning.gemm[which] = chosen;
            e.tuning.rates.gemm[which] = Some((flops / best * 1e3) as i64).filter(|&r| r > 0);
            Ok(())
        })?;
        let small = self.small::<T>(candidates, chosen, n, software, deadline)?;
        with_engine(|e| {
            e.tuning.gemm_small[which] = small.as_ref().and_then(|s| s.small).map(|s| s.0);
            Ok(())
        })?;
        let rounds = rounds(software, self.quick);
        let mut measured = 0;
        let beside = crossover::measure::<T>(cap, rounds, end, &mut || {
            measured += 1;
            self.advance(1);
        })?;
        self.advance(crossover::sides(cap) - measured);
        if let Some(m) = &beside {
            with_engine(|e| {
                e.tuning.crossover[which] = Some(m.crossover);
                Ok(())
            })?;
        }
        Ok(Found {
            name,
            n,
            before: before.map_or(0.0, |t| flops / t.median),
            after: flops / best,
            chosen,
            tried: timed.len(),
            wrong,
            skipped,
            small,
            beside,
        })
    }

    /// Checks each candidate on `problem`, then times the right ones ([`Search::rounds`]).
    fn measure<T: Real>(
        &mut self,
        problem: &Problem<T>,
        candidates: &[GemmParams],
        deadline: Instant,
    ) -> Result<Measured> {
        let rounds = rounds(problem.software, self.quick);
        let check = |p| problem.check(p);
        self.rounds(candidates, rounds, deadline, check, |p| problem.time(p))
    }

    /// Checks each candidate by `check`, then times the right ones by `time` in `rounds`, each
    /// round one call of each, so that the machine's drift over the search falls on all alike;
    /// returns each right candidate's median time, how many were wrong, and how many were left
    /// unchecked at `deadline` (the rounds after the first are left too).
    fn rounds<P: Copy>(
        &mut self,
        candidates: &[P],
        rounds: usize,
        deadline: Instant,
        mut check: impl FnMut(P) -> Result<bool>,
        mut time: impl FnMut(P) -> Result<f64>,
    ) -> Result<Measured<P>> {
        let (mut right, mut wrong, mut skipped) = (Vec::new(), 0, 0);
        for (i, &p) in candidates.iter().enumerate() {
            if i > 0 && Instant::now() >= deadline {
                skipped = candidates.len() - i;
                self.advance(skipped);
                break;
            }
            match check(p)? {
                true => right.push(p),
                false => wrong += 1,
            }
            self.advance(1);
        }
        let mut times = vec![Vec::with_capacity(rounds); right.len()];
        for round in 0..rounds {
            if round > 0 && Instant::now() >= deadline {
                self.advance(rounds - round);
                break;
            }
            // Forward, then backward: no candidate always follows the same one.
            let order: Vec<usize> = match round % 2 {
                0 => (0..right.len()).collect(),
                _ => (0..right.len()).rev().collect(),
            };
            for i in order {
                times[i].push(time(right[i])?);
            }
            self.advance(1);
        }
        Ok(Measured {
            timed: right
                .into_iter()
                .zip(times.into_iter().map(Times::of))
                .collect(),
            wrong,
            skipped,
        })
    }

    /// The second stage, after `first` (the first's measurements): its fastest tiled kernel
    /// with the other choices of the tiles' options (`TILE_OPTIONS`, those the device allows)
    /// is checked and timed in rounds of its own beside it and the `current` parameters, whose
    /// measurements then replace the first's. The options are searched apart, on the fastest
    /// tiled shape only, rather than multiplying the first stage's tiled candidates.
    fn tile_options<T: Real>(
        &mut self,
        problem: &Problem<T>,
        current: GemmParams,
        first: Measured,
        deadline: Instant,
    ) -> Result<Measured> {
        let tiled: Vec<_> = first.timed.iter().filter(|t| t.0.tiled).copied().collect();
        let best = fastest(&tiled).filter(|_| Instant::now() < deadline);
        let Some((best, _)) = best else {
            self.advance(OPTIONS_STAGE + rounds(problem.software, self.quick));
            return Ok(first);
        };
        let mut stage = vec![current];
        let allowed = |p: &GemmParams| {
            with_engine(|e| Ok(tuning_table::allowed(p, &e.ctx.info, &e.limits, T::SIZE)))
        };
        // Every choice of the options: bit i of `choice` takes option i.
        for choice in 0..1 << TILE_OPTIONS.len() {
            let mut p = best;
            for (i, taken) in p.options_mut().into_iter().enumerate() {
                *taken = choice >> i & 1 == 1;
            }
            if !stage.contains(&p) && allowed(&p)? {
                stage.push(p);
            }
        }
        self.advance(OPTIONS_STAGE - stage.len());
        let second = self.measure(problem, &stage, deadline)?;
        let mut timed = second.timed;
        timed.extend(first.timed.into_iter().filter(|t| !stage.contains(&t.0)));
        Ok(Measured {
            timed,
            wrong: first.wrong + second.wrong,
            skipped: first.skipped + second.skipped,
        })
    }

    fn advance(&mut self, steps: usize) {
        if steps > 0 {
            self.done += steps;
            (self.progress)(self.done, self.total);
        }
    }
}

/// Runs `f` with the device's parameters as `set` changes them, only while the engine's lock is
/// held: they are put back after.
fn with_tuning<R>(
    set: impl FnOnce(&mut Tuning),
    f: impl FnOnce(&mut Engine) -> Result<R>,
) -> Result<R> {
    with_engine(|e| {
        let saved = e.tuning;
        set(&mut e.tuning);
        let result = f(e);
        e.tuning = saved;
        result
    })
}

/// The most candidates of the second stage (`Search::tile_options`): the current parameters,
/// and the fastest tiled kernel with each choice of the tiles' options.
const OPTIONS_STAGE: usize = 1 + (1 << TILE_OPTIONS.len());

/// The fastest of `timed` by median.
fn fastest<P: Copy>(timed: &[(P, Times)]) -> Option<(P, Times)> {
    timed
        .iter()
        .min_by(|x, y| x.1.median.total_cmp(&y.1.median))
        .copied()
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

/// A candidate's times over the rounds.
#[derive(Clone, Copy)]
struct Times {
    median: f64,
    upper_quartile: f64,
}

impl Times {
    /// Of one or more calls' seconds.
    fn of(mut times: Vec<f64>) -> Times {
        times.sort_by(f64::total_cmp);
        Times {
            median: times[times.len() / 2],
            upper_quartile: times[times.len() * 3 / 4],
        }
    }

    /// Whether these times beat `current`'s clearly enough to replace the parameters in use:
    /// a median more than 3% lower, and three quarters of the calls faster than its median.
    /// Closer than that is within the timings' noise: on llvmpipe with 2 cores, one dgemm
    /// kernel's 7 calls at n = 1024 spread over 114-145 ms (BENCHMARKS.md, "Tuning").
    fn beat(&self, current: &Times) -> bool {
        self.median * 1.03 < current.median && self.upper_quartile < current.median
    }
}

/// The family's members the device can run for `T`, its current parameters first: blocked
/// kernels of each block at two workgroup sides, and tiled ones: on a GPU, of each block at
/// two sides and three tile depths (one each, `quick`); on a software rasterizer, whose shared
/// memory is slow (`Tuning::defaults`), of 4×4 and 8×8 blocks at one (none, `quick`). Each
/// within what the device's registers, invocations and shared memory allow.
fn candidates<T: Real>(e: &Engine, quick: bool) -> Vec<GemmParams> {
    let current = e.tuning.gemm[T::PRECISION.index()];
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
                    group,
                    tile_k,
                    ..GemmParams::tiled(block)
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
