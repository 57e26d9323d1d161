//! Driver faults glblas works around, decided once from the renderer string when the context is
//! made (as wgpu-hal's `Workarounds`), so that no other code tests renderer strings. Each field
//! says which driver, and where the fault and what is done about it are described.

/// What each workaround answers for this device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Workarounds {
    /// llvmpipe frees a scene's fence while a rasterizer thread still signals it: glblas holds a
    /// reference of its own on every scene's fence (`scene_fences`).
    pub hold_scene_fences: bool,
    /// zink over lavapipe loses device writes to later reads: the host waits for the device
    /// after it wrote, before reading back and before letting the context go
    /// (`barriers::Barriers::new`).
    pub settle_writes: bool,
    /// All buffer textures over one buffer share one texture on the device, so each buffer must
    /// only ever be viewed one way. virgl's host renderer (virglrenderer 0.10) keeps one GL
    /// texture per buffer resource and points it at a view's range and format when the view is
    /// bound, skipping views already bound: two views of one buffer (an R32F and an RGBA32F one,
    /// or two ranges) in one draw both read through the last one set, and a view still bound
    /// from an earlier draw reads through whatever view of its buffer was set since
    /// (`tests/api.rs`, `saxpy_every_placement_and_stride`, read x at the wrong elements). Where
    /// this holds, glblas views every buffer whole (as without `texture_buffer_range`) and
    /// reads operands as R32F only (`DeviceInfo::rgba_operand_views`); panels, which are only
    /// ever RGBA32F, keep their RGBA views.
    pub shared_buffer_views: bool,
    /// glblasShutdown keeps the context for the next initialisation instead of destroying it.
    /// On zink (Mesa 22.3), a context made after another on the same display was destroyed hung
    /// now and then in a driver mutex while creating a buffer (`c_tests/test_shutdown`, 4 runs
    /// in 12; the main thread waits in `pthread_mutex_lock` under `glBufferStorage` with every
    /// driver thread idle, as on a freed lock); never with the context kept, and not
    /// in a program that only cycles contexts. Every GL object is still deleted.
    pub keep_context: bool,
    /// Staging uploads go through `glBufferSubData` rather than a write mapping: on virgl a
    /// mapping of a buffer the device used waits for the host renderer, a round trip per
    /// operand per call (`BENCHMARKS.md`, "Platforms"). Not elsewhere: on zink (Mesa 22.3) an
    /// upload so made was seen by a dispatch issued before it (zink reorders transfers, see
    /// `settle_writes`): sgemv in parts on zink's GLES (`python_tests/test_tiled_paths.py`)
    /// read wrong elements, and the run took more than 300 s against 12.
    pub upload_with_sub_data: bool,
    /// The compute kernels read their operands through storage blocks, not buffer textures (as
    /// `GLBLAS_OPERANDS=storage` asks). On NVIDIA's driver (580.159.04, an H200), kernels that
    /// read device operands through buffer-texture views and wrote one of them were right on
    /// the first call and left their output unchanged on later ones (saxpy at unit and other
    /// strides, sgemv N and T, on device vectors: `BENCHMARKS.md`, "NVIDIA H200"); read through
    /// storage blocks, every one of those cases was right. The cause was not isolated.
    pub operands_in_storage_blocks: bool,
    /// The compute shaders' loop counts and branches must not depend on uniforms alone
    /// (`UNIFORM_VARIANTS` in `shaders/compute.glsl`): zink on a CPU device (Mesa 22.3)
    /// compiles a variant of a shader per value of such a uniform and can run the variant of an
    /// earlier value (`tests/uniform_variants.rs`). Not elsewhere: the zero that hides the
    /// uniforms holds a register for the whole shader, and on Mali (Mesa 25.0's Bifrost and
    /// Valhall compilers) that register kept gemm's 4×4 kernel at one thread per core where
    /// it fits two (`BENCHMARKS.md`, "The boards' own compilers").
    pub uniform_variants: bool,
    /// The driver's timer queries leave compute dispatches out: llvmpipe's measure its
    /// rasterizer's scenes (Mesa's `lp_query.c` takes their start and end from the rasterizer
    /// threads), which dispatches are no part of, and read about 0 for any compute kernel
    /// (a 128³ sgemm: 0.000 of its 0.37 ms). So too virgl over a host llvmpipe (whose renderer
    /// virgl names in capitals). Where the
    /// kernels take the compute pipeline, the device then reports no timer queries
    /// (`DeviceInfo::timer_queries`); the fragment pipeline's draws are timed.
    pub untimed_compute: bool,
    /// The driver has fp64 only as a software emulation in the shader: Adreno's (freedreno's
    /// ir3 lowers every double operation to integer code, Mesa 25.0's `ir3_compiler.c`), where
    /// its compiler built dgemm's kernels into 9,500-61,000 instructions that spill
    /// (`BENCHMARKS.md`, "The boards' own compilers"). The device then reports no fp64, and
    /// double precision goes to the CPU BLAS, unless `GLBLAS_EMULATED_FP64=1` (`DeviceInfo`).
    pub emulated_fp64: bool,
}

impl Workarounds {
    /// The workarounds the device whose `GL_RENDERER` is `renderer` needs.
    pub fn of(renderer: &str) -> Workarounds {
        Workarounds {
            hold_scene_fences: renderer.starts_with("llvmpipe"),
            settle_writes: renderer.starts_with("zink (llvmpipe"),
            shared_buffer_views: renderer.starts_with("virgl"),
            keep_context: renderer.starts_with("zink"),
            upload_with_sub_data: renderer.starts_with("virgl"),
            operands_in_storage_blocks: renderer.starts_with("NVIDIA"),
            uniform_variants: renderer.starts_with("zink"),
            untimed_compute: renderer.starts_with("llvmpipe")
                || renderer.starts_with("virgl (LLVMPIPE"),
            emulated_fp64: renderer.starts_with("FD") || renderer.starts_with("Adreno"),
        }
    }
    /// The names of those in use (for `glblasDescribeDevice`).
    pub fn names(&self) -> Vec<&'static str> {
        let Workarounds {
            hold_scene_fences,
            settle_writes,
            shared_buffer_views,
            keep_context,
            upload_with_sub_data,
            operands_in_storage_blocks,
            uniform_variants,
            untimed_compute,
            emulated_fp64,
        } = *self;
        let all = [
            (hold_scene_fences, "hold_scene_fences"),
            (settle_writes, "settle_writes"),
            (shared_buffer_views, "shared_buffer_views"),
            (keep_context, "keep_context"),
            (upload_with_sub_data, "upload_with_sub_data"),
            (operands_in_storage_blocks, "operands_in_storage_blocks"),
            (uniform_variants, "uniform_variants"),
            (untimed_compute, "untimed_compute"),
            (emulated_fp64, "emulated_fp64"),
        ];
        all.into_iter().filter(|w| w.0).map(|w| w.1).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_driver_gets_its_own() {
        let llvmpipe = Workarounds::of("llvmpipe (LLVM 15.0.6, 256 bits)");
        assert_eq!(
            llvmpipe,
            Workarounds {
                hold_scene_fences: true,
                untimed_compute: true,
                ..Workarounds::default()
            }
        );
        let zink = Workarounds::of("zink (llvmpipe (LLVM 15.0.6, 256 bits))");
        assert_eq!(
            zink,
            Workarounds {
                settle_writes: true,
                keep_context: true,
                uniform_variants: true,
                ..Workarounds::default()
            }
        );
        let zink_on_a_gpu = Workarounds::of("zink (AMD RADV NAVI21)");
        assert!(zink_on_a_gpu.keep_context && !zink_on_a_gpu.settle_writes);
        assert!(zink_on_a_gpu.uniform_variants);
        let virgl = Workarounds::of("virgl (LLVMPIPE (LLVM 15.0.6, 256 bits))");
        assert_eq!(
            virgl,
            Workarounds {
                shared_buffer_views: true,
                upload_with_sub_data: true,
                untimed_compute: true,
                ..Workarounds::default()
            }
        );
        assert_eq!(
            Workarounds::of("FD750"),
            Workarounds {
                emulated_fp64: true,
                ..Workarounds::default()
            }
        );
        assert_eq!(
            Workarounds::of("NVIDIA H200/PCIe/SSE2"),
            Workarounds {
                operands_in_storage_blocks: true,
                ..Workarounds::default()
            }
        );
    }
}
