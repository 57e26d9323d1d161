//! How much one launch may take on ([`Limits`]): what the device allows, lowered by settings
//! so that small operands take the paths large ones take.

use super::device::{limit_setting, DeviceInfo};

/// Largest target side. 4096² floats is 64 MiB: big enough that launches are few, small enough
/// to keep on a small device. Larger outputs are computed in tiles of this size.
pub const MAX_SIDE: i32 = 4096;

/// How much one launch may take on: the largest target side, the most elements one operand
/// window (a buffer texture) holds, the most color attachments one draw writes, and the most
/// rows of C one invocation of the compute gemm holds in registers (`register_rows`).
/// `GLBLAS_LIMIT_TARGET_SIDE`, `GLBLAS_LIMIT_WINDOW`, `GLBLAS_LIMIT_DRAW_BUFFERS` and
/// `GLBLAS_LIMIT_GEMM_ROWS` lower them, so tests can make small operands take the tiled paths
/// that large ones take, and a device take the kernels another device gets.
/// `GLBLAS_GEMM_KERNEL=tiled` or `blocked` chooses the compute gemm's kernel, which the device
/// decides otherwise (see `tuning::Tuning::defaults`).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub target_side: i32,
    pub window: i64,
    pub draw_buffers: i32,
    pub gemm_rows: i64,
    pub gemm_tiled: Option<bool>,
    /// The most flops one gemm dispatch may take, for single precision and for double: the
    /// dispatch budget (`GLBLAS_LIMIT_DISPATCH_MS`, 100 ms by default) at a conservative rate
    /// for the renderer (`gemm_rate`), so that no job outlives a board kernel's watchdog
    /// (Panfrost kills a job after 500 ms, msm after 250 ms without progress).
    pub dispatch_flops: [f64; 2],
    /// The most bytes one dispatch of the kernels over vectors (Level 1, gemv) may move: the
    /// same budget at a conservative bandwidth for the renderer (`bandwidth`).
    pub dispatch_bytes: f64,
}

impl Limits {
    pub fn new(info: &DeviceInfo) -> Limits {
        let side = i64::from(MAX_SIDE.min(info.max_target_side));
        // A window starts at an aligned offset, so it may hold up to alignment - 1 extra texels.
        let slack = if info.texture_buffer_range || info.storage_operands {
            info.window_alignment() / 4 - 1
        } else {
            0
        };
        // Where operands are storage blocks, a window is one block: of doubles, the larger
        // element, so that one bound holds for both precisions.
        let window = if info.storage_operands {
            info.max_storage_block_size / 8 - slack
        } else {
            info.max_texture_buffer_size - slack
        };
        let rows = register_rows(&info.renderer);
        Limits {
            target_side: limit_setting("GLBLAS_LIMIT_TARGET_SIDE")
                .map_or(side, |c| c.clamp(1, side)) as i32,
            window: limit_setting("GLBLAS_LIMIT_WINDOW").map_or(window, |c| c.clamp(1, window)),
            draw_buffers: limit_setting("GLBLAS_LIMIT_DRAW_BUFFERS")
                .map_or(info.max_draw_buffers, |c| {
                    c.clamp(1, i64::from(info.max_draw_buffers)) as i32
                }),
            gemm_rows: limit_setting("GLBLAS_LIMIT_GEMM_ROWS").map_or(rows, |c| c.clamp(1, rows)),
            gemm_tiled: gemm_kernel_setting(std::env::var("GLBLAS_GEMM_KERNEL").ok().as_deref()),
            dispatch_flops: gemm_rate(&info.renderer, info.software)
                .map(|gflops| gflops * 1e6 * dispatch_ms()),
            dispatch_bytes: bandwidth(&info.renderer, info.software) * 1e6 * dispatch_ms(),
        }
    }

    /// Sets the dispatch budget at half the rates the tuner measured on the device, where it
    /// did (`Rates`: gemm's in MFLOP/s per precision, Level 1's in MB/s), in place of the
    /// renderer's assumed ones: half, since calls of other shapes and sizes than the tuner's
    /// run slower.
    pub fn measured(&mut self, gemm: [Option<i64>; 2], level1: Option<i64>) {
        for (flops, rate) in self.dispatch_flops.iter_mut().zip(gemm) {
            if let Some(mflops) = rate {
                *flops = 0.5 * mflops as f64 * 1e3 * dispatch_ms();
            }
        }
        if let Some(mbytes) = level1 {
            self.dispatch_bytes = 0.5 * mbytes as f64 * 1e3 * dispatch_ms();
        }
    }
}

/// The dispatch budget, in milliseconds: `GLBLAS_LIMIT_DISPATCH_MS`, 100 by default.
fn dispatch_ms() -> f64 {
    limit_setting("GLBLAS_LIMIT_DISPATCH_MS").unwrap_or(100) as f64
}

/// A bandwidth, in GB/s, that the kernels over vectors reach at the least: a board's GPU shares
/// a few GB/s of LPDDR with its CPU, and llvmpipe may have one slow core; other GPUs 50.
fn bandwidth(renderer: &str, software: bool) -> f64 {
    if software || board(renderer) {
        1.0
    } else {
        50.0
    }
}

/// Whether the device whose `GL_RENDERER` is `renderer` is one of the boards' GPUs (V3D, Mali,
/// Adreno), whose kernels' watchdogs the budget is for.
fn board(renderer: &str) -> bool {
    ["V3D", "Mali", "FD", "Adreno"]
        .iter()
        .any(|b| renderer.starts_with(b))
}

/// A rate, in GFLOP/s for single and double precision, that the compute gemm reaches on the
/// device whose `GL_RENDERER` is `renderer` at the least: a Raspberry Pi 4's GPU peaks at 32
/// GFLOP/s and a hand-written QPU sgemm reached 3.9, so the boards get 1; llvmpipe on one slow
/// core, 2; other GPUs 50. Doubles a sixteenth of that on a GPU (consumer GPUs run them at
/// 1/32-1/64 of floats), half on a CPU.
fn gemm_rate(renderer: &str, software: bool) -> [f64; 2] {
    match (software, board(renderer)) {
        (true, _) => [2.0, 1.0],
        (false, true) => [1.0, 1.0 / 16.0],
        (false, false) => [50.0, 50.0 / 16.0],
    }
}

/// The most rows of C one invocation of the compute gemm holds in registers on the device whose
/// `GL_RENDERER` is `renderer`: 4 on the boards' GPUs, whose own compilers (Mesa 25.0's, under
/// its drm-shim: `BENCHMARKS.md`, "The boards' own compilers") spilled the 8×8 blocks' 16
/// accumulator vectors to memory on V3D 4.2 and 7.1 (Raspberry Pi 4 and 5) and on Mali's
/// Bifrost and Valhall (G52, G610), and fit 4×4 blocks in registers. No bound elsewhere.
fn register_rows(renderer: &str) -> i64 {
    if renderer.starts_with("V3D") || renderer.starts_with("Mali") {
        4
    } else {
        i64::MAX
    }
}

/// What `GLBLAS_GEMM_KERNEL` asks for: the tiled kernel, the blocked one, or (unset or another
/// value) the device's choice.
pub fn gemm_kernel_setting(value: Option<&str>) -> Option<bool> {
    match value {
        Some("tiled") => Some(true),
        Some("blocked") => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemm_kernel_setting_forces_either_kernel_or_leaves_the_choice() {
        assert_eq!(gemm_kernel_setting(Some("tiled")), Some(true));
        assert_eq!(gemm_kernel_setting(Some("blocked")), Some(false));
        assert_eq!(gemm_kernel_setting(Some("fast")), None);
        assert_eq!(gemm_kernel_setting(None), None);
    }
}
