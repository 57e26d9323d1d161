//! Where a BLAS-compatible call runs. `GLBLAS_BACKEND=gl` sends every call to GL, `cpu` every
//! call to the CPU BLAS, and `auto` (the default) sends a call to GL only when it is large enough
//! to win there. Whatever the mode, an operand in device memory means GL (the CPU cannot read
//! it), and no CPU BLAS means GL.
//!
//! The `auto` thresholds, in flops (`Call::flops`):
//! - On a software rasterizer (llvmpipe and kin) GL never wins: the benchmark on Mesa llvmpipe
//!   (2 cores) measured sgemm at 22 GFLOP/s against OpenBLAS's ~180, and every level-1/2
//!   routine 8-100 times slower than the CPU BLAS. So no call goes there.
//! - On a GPU, level-1 and level-2 calls on host memory move as many bytes across the bus as the
//!   CPU reads from memory to do the whole call, so they stay on the CPU; sgemm goes to GL from
//!   [`GPU_GEMM_FLOPS`] (a 512³ product). Measured on an NVIDIA H200 beside 16 cores of an AMD
//!   EPYC (`BENCHMARKS.md`, "NVIDIA H200"), host operands: against Debian's OpenBLAS, GL lost at
//!   n = 256 (0.28 against 0.25 ms) and won from 512 (0.85 against 1.58 ms); against the
//!   OpenBLAS of numpy's wheel it won only from 2048. The other Level 3 routines use the same
//!   threshold on their reference flop counts; there, at n = 1024, ssymm, ssyrk, dgemm, cgemm,
//!   zgemm and zherk won on GL (2-4×), and strsm, dtrsm and ctrsm lost (3-8×: their diagonal
//!   blocks are solved in many small steps), as strsm did at n = 4096 (0.5% of cuBLAS's rate
//!   on device operands). So trsm stays on the CPU BLAS (`Describe::GPU_WINS_WHEN_LARGE`).
//! - Where the device's tuning table holds gemm's crossover for the call's precision (measured
//!   by the tuner beside the CPU BLAS: `engine::tuning::Crossover`), a Level 3 call whose routine
//!   wins on a GPU goes to GL from it instead, whatever the device (`reason=tuned` either way).
//!   Routing learns the device, and so its table, at the first call over the estimate above
//!   (which creates the context), and from then on the crossover applies to every call.
//! - `GLBLAS_GL_MIN_FLOPS=n` replaces all of this: every call of at least n flops goes to GL.

use once_cell::sync::OnceCell;

use super::call::Call;
use crate::engine;
use crate::engine::tuning::Crossover;

/// sgemm size from which a GPU wins over the CPU BLAS with host operands (2·512³ flops; see the
/// module's notes for the measurement).
pub const GPU_GEMM_FLOPS: u64 = 2 * 512 * 512 * 512;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Backend {
    Auto,
    Gl,
    Cpu,
}

fn backend() -> Backend {
    static B: OnceCell<Backend> = OnceCell::new();
    *B.get_or_init(|| match std::env::var("GLBLAS_BACKEND").as_deref() {
        Ok("gl") => Backend::Gl,
        Ok("cpu") => Backend::Cpu,
        _ => Backend::Auto,
    })
}

fn min_flops_override() -> Option<u64> {
    static V: OnceCell<Option<u64>> = OnceCell::new();
    *V.get_or_init(|| {
        std::env::var("GLBLAS_GL_MIN_FLOPS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
    })
}

/// Where a call goes, with the reason the trace gives.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Route {
    Gl(&'static str),
    /// `auto` chose GL for a call the CPU BLAS answers in about a second at most: where a shader
    /// the call needs is still compiling, the CPU BLAS answers instead of waiting for it.
    GlIfReady(&'static str),
    Cpu(&'static str),
    /// `auto` wanted GL but the device cannot be used at all.
    GlUnavailable,
}

/// Picks the route of a checked call; `on_device` tells whether an operand is in device memory,
/// `has_cpu` whether a CPU BLAS defines its symbol.
pub fn decide(call: &Call, on_device: bool, has_cpu: bool) -> Route {
    if on_device {
        return Route::Gl("device-pointer");
    }
    if !has_cpu {
        return Route::Gl("no-cpu-blas");
    }
    match backend() {
        Backend::Gl => Route::Gl("backend"),
        Backend::Cpu => Route::Cpu("backend"),
        Backend::Auto => {
            let size = Size {
                level: call.level(),
                flops: call.flops(),
                gpu_wins_when_large: call.gpu_wins_when_large(),
                doubles: call.doubles(),
            };
            auto(size, |learn| match learn {
                true => learn_device(),
                false => DEVICE.get().copied(),
            })
        }
    }
}

/// The most flops of a call that `auto` sends to the CPU BLAS while a kernel it needs is still
/// compiling: about a second of a CPU BLAS on a small board (10 GFLOP/s), where a compile takes
/// from tens of milliseconds to a few seconds. A larger call waits for the compile.
const MOST_FLOPS_WHILE_COMPILING: u64 = 10_000_000_000;

/// GL, for a call `auto` sends there for `reason`: unless its kernel is still compiling, for a
/// call the CPU BLAS answers sooner than a compile would end.
fn large(flops: u64, reason: &'static str) -> Route {
    if flops <= MOST_FLOPS_WHILE_COMPILING {
        Route::GlIfReady(reason)
    } else {
        Route::Gl(reason)
    }
}

/// What `auto` weighs of a call.
#[derive(Clone, Copy)]
struct Size {
    level: u8,
    flops: u64,
    gpu_wins_when_large: bool,
    doubles: bool,
}

/// `auto`'s route for a call; `device(learn)` is what routing knows of the device: learnt now
/// (creating the context) where `learn`, else only if learnt before.
fn auto(s: Size, device: impl FnOnce(bool) -> Option<Device>) -> Route {
    if let Some(min) = min_flops_override() {
        return if s.flops >= min {
            large(s.flops, "large")
        } else {
            Route::Cpu("small")
        };
    }
    // Level 3 is packing plus the gemm kernel (trsm adds small diagonal solves): gemm's
    // threshold on each routine's reference flop count, an estimate not measured (nor for
    // double: GPUs' fp64 rates range from 1/64 of fp32 to 1/2), unless the tuner measured it.
    if s.level < 3 {
        return Route::Cpu("small");
    }
    let device = device(s.flops >= GPU_GEMM_FLOPS);
    let tuned = device.and_then(|d| d.crossover[usize::from(s.doubles)]);
    match tuned {
        Some(c) if s.gpu_wins_when_large => match c {
            Crossover::From(from) if s.flops >= from => large(s.flops, "tuned"),
            _ => Route::Cpu("tuned"),
        },
        _ if s.flops < GPU_GEMM_FLOPS => Route::Cpu("small"),
        _ => large_call(device.map(|d| d.software), s.gpu_wins_when_large, s.flops),
    }
}

/// Where `auto` sends a call large enough for a GPU, by the device (`software`, None without
/// one) and whether the routine wins on a GPU.
fn large_call(software: Option<bool>, gpu_wins_when_large: bool, flops: u64) -> Route {
    match software {
        None => Route::GlUnavailable,
        Some(true) => Route::Cpu("software-renderer"),
        Some(false) if !gpu_wins_when_large => Route::Cpu("slow-on-gpu"),
        Some(false) => large(flops, "large"),
    }
}

/// What routing knows of the device: whether it is a software rasterizer, and gemm's crossovers
/// from its tuning table.
#[derive(Clone, Copy)]
struct Device {
    software: bool,
    crossover: [Option<Crossover>; 2],
}

/// The device, once learnt.
static DEVICE: OnceCell<Device> = OnceCell::new();

/// The device, learnt once (creating the context); None while there is none.
fn learn_device() -> Option<Device> {
    DEVICE
        .get_or_try_init(|| {
            let software = engine::device_info().ok_or(())?.software;
            let crossover = engine::tuning().ok_or(())?.crossover;
            Ok::<_, ()>(Device {
                software,
                crossover,
            })
        })
        .ok()
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_calls_go_to_a_gpu_unless_their_routine_loses_there() {
        let flops = GPU_GEMM_FLOPS;
        assert_eq!(large_call(Some(false), true, flops), large(flops, "large"));
        assert_eq!(
            large_call(Some(false), false, flops),
            Route::Cpu("slow-on-gpu")
        );
        assert_eq!(
            large_call(Some(true), true, flops),
            Route::Cpu("software-renderer")
        );
        assert_eq!(large_call(None, true, flops), Route::GlUnavailable);
    }

    #[test]
    fn a_tuned_crossover_replaces_the_estimate_once_the_device_is_known() {
        let size = |flops, doubles, gpu_wins_when_large| Size {
            level: 3,
            flops,
            gpu_wins_when_large,
            doubles,
        };
        let from = 2 * 128 * 128 * 128;
        let device = |software| Device {
            software,
            crossover: [Some(Crossover::From(from)), Some(Crossover::Never(1 << 40))],
        };
        let known = |d: Device| move |_: bool| Some(d);
        // Single precision: GL from the crossover, on a GPU or a CPU rasterizer alike.
        for software in [false, true] {
            let d = device(software);
            assert_eq!(
                auto(size(from, false, true), known(d)),
                large(from, "tuned")
            );
            let below = auto(size(from - 1, false, true), known(d));
            assert_eq!(below, Route::Cpu("tuned"));
            // Double precision: never, however large.
            let huge = auto(size(1 << 50, true, true), known(d));
            assert_eq!(huge, Route::Cpu("tuned"));
            // trsm loses on a GPU whatever gemm's crossover.
            let trsm = auto(size(1 << 40, false, false), known(d));
            assert_ne!(trsm, large(1 << 40, "tuned"));
        }
        // A call below the estimate does not learn the device, and so goes by the estimate.
        let unknown = |learn: bool| learn.then(|| device(false));
        assert_eq!(auto(size(from, false, true), unknown), Route::Cpu("small"));
        // A device without a measured crossover: the estimate.
        let untuned = Device {
            software: false,
            crossover: [None; 2],
        };
        assert_eq!(
            auto(size(GPU_GEMM_FLOPS, false, true), known(untuned)),
            large(GPU_GEMM_FLOPS, "large")
        );
        assert_eq!(
            auto(size(from, false, true), known(untuned)),
            Route::Cpu("small")
        );
    }
}
