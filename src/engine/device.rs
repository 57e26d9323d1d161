//! What the GL device is and can do ([`DeviceInfo`]), read once from the current context when it
//! is made, the settings that lower its limits (`GLBLAS_LIMIT_*`), and the storage-block
//! bindings the compute kernels need of it.

use glow::HasContext;

use super::workarounds::Workarounds;

/// What the GL device can do, read once when the context is created.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
    pub vendor: String,
    pub renderer: String,
    pub version: String,
    /// How the display was reached, e.g. "EGL device 0" or "surfaceless".
    pub platform: String,
    pub gles: bool,
    pub major: u32,
    pub minor: u32,
    pub pbuffer: bool,
    /// The largest render target: the texture size and the viewport both bound it.
    pub max_target_side: i32,
    /// Color attachments one draw can write (GL_MAX_DRAW_BUFFERS and GL_MAX_COLOR_ATTACHMENTS:
    /// at least 8 on desktop GL 3.3, 4 on GLES 3.2).
    pub max_draw_buffers: i32,
    /// Texels one buffer texture can address.
    pub max_texture_buffer_size: i64,
    /// `glTexBufferRange` is there (GL 4.3, GLES 3.2), so a window of a large buffer can be bound.
    pub texture_buffer_range: bool,
    pub texture_buffer_offset_alignment: i64,
    pub compute_shaders: bool,
    /// Double-precision shader arithmetic: desktop GL 4.0, or GL_ARB_gpu_shader_fp64 (never on
    /// GLES, which has no doubles), and not a software emulation (`Workarounds::emulated_fp64`)
    /// unless `GLBLAS_EMULATED_FP64=1` asks for it.
    pub fp64: bool,
    /// GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT where compute shaders exist, else 1.
    pub storage_buffer_offset_alignment: i64,
    /// Buffer textures (desktop GL 3.1, GLES 3.2, or GL_OES/EXT_texture_buffer on GLES 3.1):
    /// what the fragment kernels read operands through.
    pub texture_buffers: bool,
    /// On GLES 3.1, whether buffer textures come from GL_OES_texture_buffer (else from
    /// GL_EXT_texture_buffer), which the shaders then enable.
    pub texture_buffer_extension_oes: bool,
    /// The compute limits the kernels fit within (0 without compute shaders): bytes one storage
    /// block may bind (GL_MAX_SHADER_STORAGE_BLOCK_SIZE), storage blocks one compute shader may
    /// use (and binding points, the smaller), invocations per workgroup, and shared memory per
    /// workgroup in bytes. `GLBLAS_LIMIT_STORAGE_BLOCK`, `GLBLAS_LIMIT_STORAGE_BLOCKS`,
    /// `GLBLAS_LIMIT_INVOCATIONS` and `GLBLAS_LIMIT_SHARED_MEMORY` lower them, so that a
    /// large device presents a small one's.
    pub max_storage_block_size: i64,
    pub max_storage_blocks: i64,
    pub max_compute_invocations: i64,
    pub max_shared_memory: i64,
    /// Whether the kernels take the compute pipeline: compute shaders, and a way to read operand
    /// windows within the limits above, unless `GLBLAS_PIPELINE=fragment` keeps every kernel on
    /// the fragment pipeline.
    pub compute: bool,
    /// How the compute kernels read operands: through storage blocks rather than buffer
    /// textures, where windows of a buffer cannot be viewed as textures (no `glTexBufferRange`
    /// or no buffer textures at all: GLES 3.1 boards, and virgl, see
    /// `Workarounds::shared_buffer_views`), where the driver's views go stale (NVIDIA, see
    /// `Workarounds::operands_in_storage_blocks`), or where `GLBLAS_OPERANDS=storage` asks.
    /// Never on the fragment pipeline, which shares the operand bindings (`operand_units`,
    /// `scratch`).
    pub storage_operands: bool,
    /// A software rasterizer (llvmpipe and kin): the CPU runs the shaders.
    pub software: bool,
    /// The shader compiler honours `#pragma optionNV(unroll all)`: NVIDIA's. Elsewhere the
    /// pragma is ignored (GLSL ignores pragmas it does not know), so the tiled gemm's `unroll`
    /// option (`GemmParams`) is tried and taken only here.
    pub unroll_hints: bool,
    /// GL_AMD_pinned_memory: a buffer can be made over host memory, which kernels then use in
    /// place.
    pub pinned_memory: bool,
    /// Immutable buffer storage (GL 4.4 or ARB_buffer_storage on desktop GL), which allows
    /// persistent mappings.
    pub buffer_storage: bool,
    /// KHR_parallel_shader_compile (or its ARB twin): the driver may compile and link in the
    /// background, and says when a program is done without waiting for it (`programs`).
    pub parallel_compile: bool,
    /// GL timer queries (`GL_TIME_ELAPSED`) that time the kernels' launches: desktop GL 3.3, or
    /// GLES with `GL_EXT_disjoint_timer_query` (`kernel_timer`), unless they leave out the
    /// compute pipeline's dispatches where it is the one taken
    /// (`Workarounds::untimed_compute`).
    pub timer_queries: bool,
    /// The entry point that reads whether the device was reset (`resets`), where the context
    /// was made to lose itself on a reset and say so (EGL_EXT_create_context_robustness):
    /// glGetGraphicsResetStatus (GL 4.5, GLES 3.2) or a robustness extension's. None elsewhere,
    /// where a reset shows only as GL errors or wrong results.
    pub reset_status: Option<&'static str>,
    /// The driver faults worked around on this device.
    pub workarounds: Workarounds,
}

impl DeviceInfo {
    /// The pipeline the kernels take (for calls that fit one window): "compute" or "fragment".
    pub fn pipeline(&self) -> &'static str {
        if self.compute {
            "compute"
        } else {
            "fragment"
        }
    }

    /// Whether kernels may read an operand's buffer through an RGBA32F view beside its R32F one
    /// (see `Workarounds::shared_buffer_views`).
    pub fn rgba_operand_views(&self) -> bool {
        !self.workarounds.shared_buffer_views
    }

    /// What every compute shader starts with: its GLSL version, the precisions GLES wants
    /// declared, how operands are read (see `shaders/real.glsl`), and whether uniforms must be
    /// hidden from the compiler (`shaders/compute.glsl`).
    pub fn compute_header(&self) -> String {
        let mut h = String::new();
        if self.gles {
            let samplers = if self.storage_operands {
                ""
            } else {
                "precision highp samplerBuffer;\nprecision highp imageBuffer;\n"
            };
            h += &self.gles_version(!self.storage_operands);
            h += "precision highp float;\nprecision highp int;\n";
            h += samplers;
        } else {
            h += "#version 430 core\n";
        }
        if self.storage_operands {
            h += "#define STORAGE_OPERANDS 1\n";
        }
        if self.workarounds.uniform_variants {
            h += "#define UNIFORM_VARIANTS 1\n";
        }
        h
    }

    /// What every fragment-pipeline shader starts with.
    pub fn fragment_header(&self) -> String {
        if self.gles {
            self.gles_version(true)
                + "precision highp float;\nprecision highp int;\nprecision highp samplerBuffer;\n\
                   precision highp sampler2D;\n"
        } else {
            "#version 330 core\n".into()
        }
    }

    /// A GLES shader's `#version` line, and on GLES 3.1 the extension that brings buffer
    /// textures where the shader uses them.
    fn gles_version(&self, texture_buffers: bool) -> String {
        if (self.major, self.minor) >= (3, 2) {
            "#version 320 es\n".into()
        } else if texture_buffers {
            let ext = if self.texture_buffer_extension_oes {
                "GL_OES_texture_buffer"
            } else {
                "GL_EXT_texture_buffer"
            };
            format!("#version 310 es\n#extension {ext} : require\n")
        } else {
            "#version 310 es\n".into()
        }
    }

    /// Where windows of a buffer may start, in bytes: a multiple of both the buffer-texture and
    /// the storage-buffer offset alignment, and of 16, so that element 0 of a window starts an
    /// RGBA texel in every view of it.
    pub fn window_alignment(&self) -> i64 {
        fn lcm(a: i64, b: i64) -> i64 {
            let (mut x, mut y) = (a, b);
            while y != 0 {
                (x, y) = (y, x % y);
            }
            a / x * b
        }
        lcm(
            lcm(
                self.texture_buffer_offset_alignment,
                self.storage_buffer_offset_alignment,
            ),
            16,
        )
    }
}

/// Where compute kernels that read operands through storage blocks (`DeviceInfo::
/// storage_operands`) find them: the binding of texture unit u's operand is `STORAGE_READS` +
/// u, above the bindings the kernels write through (0..3). Units go up to 4, so a device
/// needs `STORAGE_BINDINGS` blocks per compute shader.
pub const STORAGE_READS: u32 = 4;
pub const STORAGE_BINDINGS: i64 = 9;

/// The positive value of limit setting `name` (`GLBLAS_LIMIT_*`), if it is set to one.
pub fn limit_setting(name: &str) -> Option<i64> {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v > 0)
}

/// What the device of the current context `gl` can do (`platform`: how its display was
/// reached; `pbuffer`: whether the context has one; `robust`: whether it loses itself on a
/// reset); an error where it falls short of glblas's needs.
pub(super) fn read_info(
    gl: &glow::Context,
    platform: &str,
    pbuffer: bool,
    robust: bool,
) -> Result<DeviceInfo, String> {
    let v = gl.version();
    let (major, minor, gles) = (v.major, v.minor, v.is_embedded);
    // The kernels need compute shaders (GLES 3.1), or buffer textures and float render targets
    // (GL 3.3 core).
    let enough = if gles {
        (major, minor) >= (3, 1)
    } else {
        (major, minor) >= (3, 3)
    };
    if !enough {
        return Err(format!(
            "GL {major}.{minor}{} is below the minimum",
            if gles { " ES" } else { "" }
        ));
    }
    let exts = gl.supported_extensions();
    let has = |name: &str| exts.contains(name);
    let ver = |maj, min| (major, minor) >= (maj, min);
    let limit = |name: &str, found: i64| limit_setting(name).map_or(found, |v| v.min(found));
    // SAFETY: the context is current; these are plain queries.
    unsafe {
        let texture_buffers =
            !gles || ver(3, 2) || has("GL_OES_texture_buffer") || has("GL_EXT_texture_buffer");
        let range = if gles {
            texture_buffers
        } else {
            ver(4, 3) || has("GL_ARB_texture_buffer_range")
        };
        let renderer = gl.get_parameter_string(glow::RENDERER);
        let workarounds = Workarounds::of(&renderer);
        // Views that all cover their whole buffer never disagree (see `shared_buffer_views`).
        let range = range && !workarounds.shared_buffer_views;
        let compute_shaders = if gles { ver(3, 1) } else { ver(4, 3) };
        let query = |pname| i64::from(gl.get_parameter_i32(pname));
        let (block_size, blocks, invocations, shared) = if compute_shaders {
            (
                limit(
                    "GLBLAS_LIMIT_STORAGE_BLOCK",
                    query(glow::MAX_SHADER_STORAGE_BLOCK_SIZE),
                ),
                limit(
                    "GLBLAS_LIMIT_STORAGE_BLOCKS",
                    query(glow::MAX_COMPUTE_SHADER_STORAGE_BLOCKS)
                        .min(query(glow::MAX_SHADER_STORAGE_BUFFER_BINDINGS)),
                ),
                limit(
                    "GLBLAS_LIMIT_INVOCATIONS",
                    query(glow::MAX_COMPUTE_WORK_GROUP_INVOCATIONS),
                ),
                limit(
                    "GLBLAS_LIMIT_SHARED_MEMORY",
                    query(glow::MAX_COMPUTE_SHARED_MEMORY_SIZE),
                ),
            )
        } else {
            (0, 0, 0, 0)
        };
        let fragment_only = std::env::var("GLBLAS_PIPELINE").is_ok_and(|v| v == "fragment");
        let storage_wanted = !range
            || workarounds.operands_in_storage_blocks
            || std::env::var("GLBLAS_OPERANDS").is_ok_and(|v| v == "storage");
        // The kernels' workgroups have 64 invocations by default; storage reads bind up to
        // `STORAGE_BINDINGS` blocks, of at least 1 MiB each.
        let compute = !fragment_only
            && compute_shaders
            && invocations >= 64
            && (!storage_wanted || (blocks >= STORAGE_BINDINGS && block_size >= 1 << 20));
        let storage_operands = compute && storage_wanted;
        let vendor = gl.get_parameter_string(glow::VENDOR);
        let info = DeviceInfo {
            software: is_software(&renderer),
            unroll_hints: vendor.starts_with("NVIDIA"),
            pinned_memory: has("GL_AMD_pinned_memory"),
            vendor,
            renderer,
            version: gl.get_parameter_string(glow::VERSION),
            platform: platform.to_string(),
            gles,
            major,
            minor,
            pbuffer,
            max_target_side: {
                let mut viewport = [0i32; 2];
                gl.get_parameter_i32_slice(glow::MAX_VIEWPORT_DIMS, &mut viewport);
                gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE)
                    .min(viewport[0])
                    .min(viewport[1])
            },
            max_draw_buffers: gl
                .get_parameter_i32(glow::MAX_DRAW_BUFFERS)
                .min(gl.get_parameter_i32(glow::MAX_COLOR_ATTACHMENTS)),
            max_texture_buffer_size: if texture_buffers {
                query(glow::MAX_TEXTURE_BUFFER_SIZE)
            } else {
                0
            },
            texture_buffer_range: range,
            texture_buffer_offset_alignment: if range {
                query(glow::TEXTURE_BUFFER_OFFSET_ALIGNMENT).max(1)
            } else {
                1
            },
            compute_shaders,
            fp64: !gles
                && (ver(4, 0) || has("GL_ARB_gpu_shader_fp64"))
                && (!workarounds.emulated_fp64
                    || std::env::var("GLBLAS_EMULATED_FP64").is_ok_and(|v| v == "1")),
            storage_buffer_offset_alignment: if compute_shaders {
                query(glow::SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT).max(1)
            } else {
                1
            },
            texture_buffers,
            texture_buffer_extension_oes: has("GL_OES_texture_buffer"),
            max_storage_block_size: block_size,
            max_storage_blocks: blocks,
            max_compute_invocations: invocations,
            max_shared_memory: shared,
            storage_operands,
            compute,
            buffer_storage: !gles && (ver(4, 4) || has("GL_ARB_buffer_storage")),
            parallel_compile: [
                "GL_KHR_parallel_shader_compile",
                "GL_ARB_parallel_shader_compile",
            ]
            .iter()
            .any(|e| has(e)),
            timer_queries: (!gles || has("GL_EXT_disjoint_timer_query"))
                && !(compute && workarounds.untimed_compute),
            reset_status: if !robust {
                None
            } else if ver(if gles { 3 } else { 4 }, if gles { 2 } else { 5 }) {
                Some("glGetGraphicsResetStatus")
            } else {
                [
                    ("GL_KHR_robustness", "glGetGraphicsResetStatusKHR"),
                    ("GL_ARB_robustness", "glGetGraphicsResetStatusARB"),
                    ("GL_EXT_robustness", "glGetGraphicsResetStatusEXT"),
                ]
                .iter()
                .find(|(e, _)| has(e))
                .map(|&(_, f)| f)
            },
            workarounds,
        };
        while gl.get_error() != glow::NO_ERROR {}
        if !info.compute && !info.texture_buffers {
            return Err(format!(
                "GL {major}.{minor}{} has neither compute shaders within glblas's needs nor \
                 buffer textures",
                if gles { " ES" } else { "" }
            ));
        }
        Ok(info)
    }
}

/// Whether a renderer string names a software rasterizer.
fn is_software(renderer: &str) -> bool {
    let r = renderer.to_lowercase();
    [
        "llvmpipe",
        "softpipe",
        "swrast",
        "software",
        "swiftshader",
        "lavapipe",
    ]
    .iter()
    .any(|s| r.contains(s))
}
