//! The kernels' parameters on this device ([`Tuning`]), decided once when the context is made:
//! the defaults for its kind of device, as the measurements recorded with them chose, unless a
//! tuning table has the device's own (`tuning_table`). A kernel adapts them to each call where
//! the call or the device's limits need it (`gemm_compute::Kernel::of`).

use super::device::DeviceInfo;
use super::limits::Limits;

/// How the compute gemm (`shaders/gemm.comp`) runs: each invocation computes a `block[0]` ×
/// `block[1]` block of C (4, 8 or 16 each), in workgroups of `group` × `group` invocations;
/// `tiled`, the workgroup shares its rows of the panels through shared memory, `tile_k` steps
/// of k at a time (4, 8, 16 or 32), and, tiled only:
/// - `strided`: each invocation's groups of 4 rows (columns) lie `group` groups apart in the
///   workgroup's tile rather than side by side (CLBlast's STRM and STRN), so that neighbouring
///   invocations read neighbouring texels of shared memory and store neighbouring groups of C;
/// - `prefetch`: the next tile's loads are held in registers while the current tile's products
///   run (double buffering), so that their latency is hidden behind them;
/// - `unroll`: the compiler is asked to unroll every loop (`#pragma optionNV(unroll all)`),
///   where it honours that (`DeviceInfo::unroll_hints`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmParams {
    pub tiled: bool,
    pub group: i64,
    pub block: [i64; 2],
    pub tile_k: i64,
    pub strided: bool,
    pub prefetch: bool,
    pub unroll: bool,
}

/// The tiled kernel's options, as tables write them and as gemm.comp's defines name them, in
/// the order of [`GemmParams::options`].
pub const TILE_OPTIONS: [(&str, &str); 3] = [
    ("strided", "STRIDED"),
    ("prefetch", "PREFETCH"),
    ("unroll", "UNROLL"),
];

impl GemmParams {
    /// Which of [`TILE_OPTIONS`] are taken.
    pub fn options(&self) -> [bool; 3] {
        [self.strided, self.prefetch, self.unroll]
    }

    /// The same, to set.
    pub fn options_mut(&mut self) -> [&mut bool; 3] {
        [&mut self.strided, &mut self.prefetch, &mut self.unroll]
    }

    /// The blocked kernel (no shared memory) with `block`: workgroups of 8×8.
    pub fn blocked(block: [i64; 2]) -> GemmParams {
        GemmParams {
            tiled: false,
            group: 8,
            block,
            tile_k: 0,
            strided: false,
            prefetch: false,
            unroll: false,
        }
    }

    /// The tiled kernel with `block`: workgroups of 16×16, 16 steps of k per tile.
    pub fn tiled(block: [i64; 2]) -> GemmParams {
        GemmParams {
            tiled: true,
            group: 16,
            block,
            tile_k: 16,
            strided: false,
            prefetch: false,
            unroll: false,
        }
    }

    /// Whether gemm.comp can be built with these parameters at all (its register loops unroll
    /// 1, 2 or 4 groups of 4 rows or columns; its tiles take whole steps of the loops that
    /// load them; only they have the tiles' options).
    pub fn valid(&self) -> bool {
        let blocks = self.block.iter().all(|b| [4, 8, 16].contains(b));
        let group = [4, 8, 16, 32].contains(&self.group);
        let tiles = match self.tiled {
            true => [4, 8, 16, 32].contains(&self.tile_k),
            false => self.options() == [false; TILE_OPTIONS.len()],
        };
        blocks && group && tiles
    }

    /// Loads of each panel's tile per invocation, for `which` panel (0: op(A)'s, 1: op(B)'s):
    /// `tile_k` steps of `group` blocks' groups of 4, shared among the workgroup's invocations
    /// (gemm.comp's LOADS_A and LOADS_B).
    pub fn tile_loads(&self, which: usize) -> i64 {
        let invocations = self.group * self.group;
        (self.tile_k * self.group * self.block[which] / 4 + invocations - 1) / invocations
    }

    /// Whether the device runs these parameters as they are: the tiled kernel's workgroup and
    /// tiles, for elements of `size` bytes, within its invocations and shared memory.
    pub fn fit(&self, info: &DeviceInfo, size: i64) -> bool {
        !self.tiled
            || (self.group * self.group <= info.max_compute_invocations
                && self.shared_bytes(size) <= info.max_shared_memory)
    }

    /// Bytes of shared memory the tiled kernel's tiles take, of elements `size` bytes each:
    /// `tile_k` steps of both panels' tiles of `group` blocks.
    pub fn shared_bytes(&self, size: i64) -> i64 {
        if self.tiled {
            self.tile_k * self.group * (self.block[0] + self.block[1]) * size
        } else {
            0
        }
    }
}

/// The compute gemm's parameters for calls whose C is small, where the tuner found others faster
/// there than the device's main ones (more workgroups for a small grid, on a GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallGemm {
    pub params: GemmParams,
    /// For calls whose C has fewer elements (m·n) than this.
    pub below: i64,
}

/// Where GL, on host operands, starts to beat the CPU BLAS at gemm, as the tuner measured it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossover {
    /// From calls of this many flops: 2n³ for the first n at which GL won, and won at every
    /// larger n measured.
    From(u64),
    /// GL won at no n measured, up to calls of this many flops.
    Never(u64),
}

/// The kernels' parameters on one device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// The compute gemm's, for single precision and for double (complex gemm runs on the real
    /// kernels: the 1m method).
    pub gemm: [GemmParams; 2],
    /// The compute gemm's for small calls, for single precision and for double, where the tuner
    /// found them.
    pub gemm_small: [Option<SmallGemm>; 2],
    /// gemm's crossover, for single precision and for double, where it was measured.
    pub crossover: [Option<Crossover>; 2],
    /// Invocations per workgroup of the kernels over vectors, in every precision, for each of
    /// [`Vectors`]: one of [`VECTOR_GROUPS`].
    pub vector_group: [i64; 2],
    /// The rates the tuner measured, where it did: the dispatch budget's (`Limits::measured`).
    pub rates: Rates,
}

/// The rates the tuner measured with the parameters it chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    /// The compute gemm's, in MFLOP/s, for single precision and for double.
    pub gemm: [Option<i64>; 2],
    /// Level 1's, in MB/s moved.
    pub level1: Option<i64>,
}

/// The kernels over vectors whose workgroups are tuned apart, in `Tuning::vector_group`'s
/// order, as tables name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vectors {
    /// Level 1's: `elementwise.comp`, `reduce.comp`, `reduce_abs.comp`.
    Level1,
    /// gemv's: `gemv.comp`.
    Gemv,
}

impl Vectors {
    pub const ALL: [Vectors; 2] = [Vectors::Level1, Vectors::Gemv];

    pub fn name(self) -> &'static str {
        match self {
            Vectors::Level1 => "level1",
            Vectors::Gemv => "gemv",
        }
    }
}

/// The workgroup sizes the kernels over vectors are built with (their shaders' GROUP: a power
/// of 2, for the reductions' trees), each only where the device runs that many invocations.
pub const VECTOR_GROUPS: [i64; 4] = [32, 64, 128, 256];

/// Whether the device runs the kernels over vectors in workgroups of `group`.
pub fn vector_group_fits(group: i64, info: &DeviceInfo) -> bool {
    VECTOR_GROUPS.contains(&group) && group <= info.max_compute_invocations
}

impl Tuning {
    /// The defaults for a device, a software rasterizer or not, with `limits`. The compute gemm:
    ///
    /// - On a software rasterizer, the blocked kernel: 16×16 blocks of floats (on llvmpipe,
    ///   n = 256-2048, alternating calls in one process, they ran 4-25% faster than 16×8, which
    ///   ran 12-23% faster than 8×8: fewer loads per multiply-add, at the cost of registers a
    ///   CPU spills cheaply; 32×16 and 8×16 were slower; 16×16 takes 4 s to compile cold, 16×8
    ///   2 s) and 16×8 blocks of doubles, whose best block depends on the CPU behind the
    ///   rasterizer (dgemm at n = 1024, share of sgemm's rate, alternating calls, medians):
    ///
    ///   | llvmpipe on | 8×8 | 16×8 | 16×16 |
    ///   | --- | --- | --- | --- |
    ///   | an earlier machine | 23% | 32-33% | 32-33% |
    ///   | AMD EPYC with AVX2 (2 runs of 31 rounds) | 34-36% | 33-35% | 31% |
    ///
    ///   16×8 is within a point or two of the best on both at n = 1024 (on the EPYC at
    ///   n = 2048, 8×8 ran at 42% against 35% for 16×8, in 7 rounds; on zink over lavapipe at
    ///   n = 1024, 8×8 at 41% against 28% for 16×16 in one run, and 34%, 33% and 32% for 8×8,
    ///   16×8 and 16×16 in one beside a test run). Not the tiled kernel: there shared memory is
    ///   10-20× slower than buffer-texture loads.
    /// - On a GPU, 8×8 blocks (unmeasured: GPUs have fewer registers per invocation to spare),
    ///   4×4 where `Limits::gemm_rows` says fewer than 8 (the boards' GPUs, whose compilers
    ///   spill 8×8 blocks: `BENCHMARKS.md`, "The boards' own compilers"); the tiled kernel for
    ///   single precision, which on NVIDIA's H200 ran 6-25% faster than the blocked one from
    ///   n = 512 (equal at 256; `BENCHMARKS.md`, "NVIDIA H200"); unmeasured for doubles there,
    ///   and on other GPUs.
    /// - Where `Limits::gemm_rows` says fewer than 16, no larger blocks than it allows;
    ///   `Limits::gemm_tiled` (`GLBLAS_GEMM_KERNEL`) takes or leaves the tiled kernel, with the
    ///   GPU's blocks.
    ///
    /// The panels are read through buffer textures, doubles as two RGBA32UI texels per group.
    /// Storage blocks of `dvec4` (one load per group, which gallivm runs lane by lane) were
    /// measured too, with 16×16 blocks: they took dgemm from 32% to 38% of sgemm's rate on the
    /// earlier machine's llvmpipe, but from 30% to 13% on the AMD EPYC's (and 8×8 blocks from
    /// 36% to 8%), and from 15.5 to 11 GFLOP/s on zink over lavapipe.
    pub fn defaults(software: bool, limits: &Limits) -> Tuning {
        let side = if limits.gemm_rows >= 8 { 8 } else { 4 };
        let gemm = |single: bool| {
            let tiled = limits.gemm_tiled.unwrap_or(!software && single);
            if tiled {
                GemmParams::tiled([side, side])
            } else if software && limits.gemm_rows >= 16 {
                GemmParams::blocked(if single { [16, 16] } else { [16, 8] })
            } else {
                GemmParams::blocked([side, side])
            }
        };
        Tuning {
            gemm: [gemm(true), gemm(false)],
            gemm_small: [None; 2],
            crossover: [None; 2],
            // The size the kernels over vectors had before it was tuned: unmeasured against
            // others but on the tuner's searches (docs/tuning.md).
            vector_group: [64; 2],
            rates: Rates::default(),
        }
    }

    /// The compute gemm's parameters for precision `which` (`Precision::index`) and a C of
    /// `elements` (m·n).
    pub fn gemm_for(&self, which: usize, elements: i64) -> GemmParams {
        match self.gemm_small[which] {
            Some(small) if elements < small.below => small.params,
            _ => self.gemm[which],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(gemm_rows: i64, gemm_tiled: Option<bool>) -> Limits {
        Limits {
            target_side: 4096,
            window: 1 << 27,
            draw_buffers: 8,
            gemm_rows,
            gemm_tiled,
            dispatch_flops: [1e12; 2],
            dispatch_bytes: 1e12,
        }
    }

    #[test]
    fn each_kind_of_device_gets_its_own() {
        let llvmpipe = Tuning::defaults(true, &limits(i64::MAX, None));
        assert_eq!(
            llvmpipe.gemm,
            [GemmParams::blocked([16, 16]), GemmParams::blocked([16, 8])]
        );
        let gpu = Tuning::defaults(false, &limits(i64::MAX, None));
        assert_eq!(
            gpu.gemm,
            [GemmParams::tiled([8, 8]), GemmParams::blocked([8, 8])]
        );
        let board = Tuning::defaults(false, &limits(4, None));
        assert_eq!(
            board.gemm,
            [GemmParams::tiled([4, 4]), GemmParams::blocked([4, 4])]
        );
        // GLBLAS_GEMM_KERNEL=tiled on llvmpipe: the GPU's blocks, tiled.
        let forced = Tuning::defaults(true, &limits(i64::MAX, Some(true)));
        assert_eq!(forced.gemm, [GemmParams::tiled([8, 8]); 2]);
        // GLBLAS_LIMIT_GEMM_ROWS=8 on llvmpipe: no 16-row blocks.
        let rows_8 = Tuning::defaults(true, &limits(8, None));
        assert_eq!(rows_8.gemm, [GemmParams::blocked([8, 8]); 2]);
        assert!(llvmpipe.gemm.iter().chain(&gpu.gemm).all(GemmParams::valid));
    }

    #[test]
    fn tiles_take_their_panels_rows_in_shared_memory() {
        // 16 steps of two tiles of 16 blocks of 8 rows, of floats: 16 KiB.
        assert_eq!(GemmParams::tiled([8, 8]).shared_bytes(4), 16 << 10);
        assert_eq!(GemmParams::blocked([8, 8]).shared_bytes(4), 0);
    }
}
