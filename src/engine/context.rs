//! The process's one headless EGL display and GL context, and making it current for one call.
//!
//! Display selection follows the order a headless machine needs: every `EGL_EXT_platform_device`
//! device (the GPU on an NVIDIA machine), then Mesa's surfaceless platform, then the default
//! display. The first one that yields a usable GL context wins.

use std::ffi::c_void;
use std::sync::{Mutex, PoisonError};

use glow::HasContext;
use khronos_egl as egl;
use once_cell::sync::OnceCell;

use super::workarounds::Workarounds;
use crate::status::{Error, Status};

type Egl = egl::DynamicInstance<egl::EGL1_5>;

// Tokens from EGL extensions that khronos-egl does not name.
const PLATFORM_DEVICE_EXT: egl::Enum = 0x313F;
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
const CONTEXT_OPENGL_CORE_PROFILE_BIT: egl::Int = 0x1;

type QueryDevicesExt = unsafe extern "system" fn(egl::Int, *mut *mut c_void, *mut egl::Int) -> u32;

/// What the GL device can do, read once when the context is created.
#[derive(Debug, Clone)]
pub struct DeviceInfo {
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
    /// GLES, which has no doubles).
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
    /// Never on the fragment pipeline, which shares the operand bindings (`operand`, `scratch`).
    pub storage_operands: bool,
    /// A software rasterizer (llvmpipe and kin): the CPU runs the shaders.
    pub software: bool,
    /// GL_AMD_pinned_memory: a buffer can be made over host memory, which kernels then use in
    /// place.
    pub pinned_memory: bool,
    /// Immutable buffer storage (GL 4.4 or ARB_buffer_storage on desktop GL), which allows
    /// persistent mappings.
    pub buffer_storage: bool,
    /// KHR_parallel_shader_compile (or its ARB twin): the driver may compile and link in the
    /// background, and says when a program is done without waiting for it (`programs`).
    pub parallel_compile: bool,
    /// The driver faults worked around on this device.
    pub workarounds: Workarounds,
}

impl DeviceInfo {
    /// Whether kernels may read an operand's buffer through an RGBA32F view beside its R32F one
    /// (see `Workarounds::shared_buffer_views`).
    pub fn rgba_operand_views(&self) -> bool {
        !self.workarounds.shared_buffer_views
    }

    /// What every compute shader starts with: its GLSL version, the precisions GLES wants
    /// declared, and how operands are read (see `shaders/real.glsl`).
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

/// A context made on a display: the context, its pbuffer (none when surfaceless), its API,
/// the GL functions and what the device can do.
type Created = (
    egl::Context,
    Option<egl::Surface>,
    egl::Enum,
    glow::Context,
    DeviceInfo,
);

/// The environment a context was chosen by (`GLBLAS_GL_API`, `GLBLAS_EGL_DEVICE`): a kept
/// context is only taken again for the same choice.
type Request = [Option<String>; 2];

fn request() -> Request {
    ["GLBLAS_GL_API", "GLBLAS_EGL_DEVICE"].map(|name| std::env::var(name).ok())
}

/// The context glblasShutdown kept (see `Workarounds::keep_context`). Only touched under the
/// engine's lock, which fork's handlers hold across fork(), so the child can forget it.
static KEPT: Mutex<Option<GpuContext>> = Mutex::new(None);

fn kept() -> std::sync::MutexGuard<'static, Option<GpuContext>> {
    KEPT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// In a fork() child: the kept context is the parent's, and is forgotten without an EGL call.
pub(super) fn forget_kept() {
    std::mem::forget(kept().take());
}

/// An EGL display with a GL context (and pbuffer) on it.
pub struct GpuContext {
    request: Request,
    egl: &'static Egl,
    display: egl::Display,
    context: egl::Context,
    surface: Option<egl::Surface>,
    api: egl::Enum,
    pub gl: glow::Context,
    pub info: DeviceInfo,
}

// SAFETY: the context is only used by the thread that holds the engine mutex, and it is made
// current on that thread (and released) inside that critical section.
unsafe impl Send for GpuContext {}

impl GpuContext {
    /// Finds a display and creates the context, trying each candidate in turn.
    pub fn create() -> Result<GpuContext, Error> {
        super::fault::context_creation()?;
        let request = request();
        let mut kept = kept();
        if kept.as_ref().is_some_and(|k| k.request == request) {
            if let Some(mut k) = kept.take() {
                // What the device offers is read again: the settings that shape it (the
                // pipeline, the limits) may have changed since.
                let info = k
                    .make_current()
                    .map_err(|e| e.detail)
                    .and_then(|_current| read_info(&k.gl, &k.info.platform, k.surface.is_some()));
                return match info {
                    Ok(info) => {
                        k.info = info;
                        Ok(k)
                    }
                    Err(e) => {
                        *kept = Some(k);
                        Err(Error::new(Status::NotInitialized, e))
                    }
                };
            }
        }
        drop(kept);
        let egl = load_egl()?;
        let mut failures = Vec::new();
        for (platform, display) in candidate_displays(egl) {
            match Self::create_on(egl, display, &platform) {
                Ok((context, surface, api, gl, info)) => {
                    return Ok(GpuContext {
                        request,
                        egl,
                        display,
                        context,
                        surface,
                        api,
                        gl,
                        info,
                    });
                }
                Err(e) => failures.push(format!("{platform}: {e}")),
            }
        }
        if failures.is_empty() {
            failures.push("no EGL display".into());
        }
        Err(Error::new(Status::NotInitialized, failures.join("; ")))
    }

    fn create_on(egl: &Egl, display: egl::Display, platform: &str) -> Result<Created, String> {
        // Displays are never terminated: a platform display is shared with the host program,
        // and terminating it would destroy the host's own contexts.
        egl.initialize(display)
            .map_err(|e| format!("eglInitialize: {e}"))?;
        let saved = SavedCurrent::save(egl);
        let result = Self::try_apis(egl, display, platform);
        saved.restore(egl);
        result
    }

    fn try_apis(egl: &Egl, display: egl::Display, platform: &str) -> Result<Created, String> {
        let api = std::env::var("GLBLAS_GL_API").unwrap_or_default();
        let (gles, desktop_gl) = if api.eq_ignore_ascii_case("gles") {
            (true, false)
        } else if api.eq_ignore_ascii_case("desktop") {
            (false, true)
        } else {
            (true, true)
        };
        // The contexts with compute shaders first: desktop core profiles from the newest down to
        // 4.3, then GLES 3.2 and 3.1 (ARM boards); then desktop 3.3, where the fragment kernels
        // run.
        let desktop = |major, minor| {
            (
                egl::OPENGL_API,
                egl::OPENGL_BIT,
                vec![
                    egl::CONTEXT_MAJOR_VERSION,
                    major,
                    egl::CONTEXT_MINOR_VERSION,
                    minor,
                    egl::CONTEXT_OPENGL_PROFILE_MASK,
                    CONTEXT_OPENGL_CORE_PROFILE_BIT,
                    egl::NONE,
                ],
            )
        };
        let es = |minor| {
            (
                egl::OPENGL_ES_API,
                egl::OPENGL_ES3_BIT,
                vec![
                    egl::CONTEXT_MAJOR_VERSION,
                    3,
                    egl::CONTEXT_MINOR_VERSION,
                    minor,
                    egl::NONE,
                ],
            )
        };
        let mut attempts: Vec<(egl::Enum, egl::Int, Vec<egl::Int>)> = Vec::new();
        if desktop_gl {
            attempts.extend([desktop(4, 6), desktop(4, 5), desktop(4, 3)]);
        }
        if gles {
            attempts.extend([es(2), es(1)]);
        }
        if desktop_gl {
            attempts.push(desktop(3, 3));
        }
        let mut last = String::from("no context attempt");
        for (api, bit, attribs) in attempts {
            match Self::try_context(egl, display, platform, api, bit, &attribs) {
                Ok(found) => return Ok(found),
                Err(e) => last = e,
            }
        }
        Err(format!(
            "no context with compute shaders (desktop GL 4.3+, GLES 3.1+) nor desktop GL 3.3 core \
             for the fragment pipeline (last attempt: {last})"
        ))
    }

    fn try_context(
        egl: &Egl,
        display: egl::Display,
        platform: &str,
        api: egl::Enum,
        renderable: egl::Int,
        attribs: &[egl::Int],
    ) -> Result<Created, String> {
        egl.bind_api(api).map_err(|e| format!("eglBindAPI: {e}"))?;
        let pbuffer_config = egl
            .choose_first_config(
                display,
                &[
                    egl::SURFACE_TYPE,
                    egl::PBUFFER_BIT,
                    egl::RENDERABLE_TYPE,
                    renderable,
                    egl::NONE,
                ],
            )
            .ok()
            .flatten();
        // Without a pbuffer-capable config, a surfaceless context is the fallback.
        let config = match pbuffer_config {
            Some(c) => c,
            None => egl
                .choose_first_config(display, &[egl::RENDERABLE_TYPE, renderable, egl::NONE])
                .ok()
                .flatten()
                .ok_or("no EGL config for this API")?,
        };
        let context = egl
            .create_context(display, config, None, attribs)
            .map_err(|e| format!("eglCreateContext: {e}"))?;
        let surface = match pbuffer_config {
            Some(c) => match egl.create_pbuffer_surface(
                display,
                c,
                &[egl::WIDTH, 1, egl::HEIGHT, 1, egl::NONE],
            ) {
                Ok(s) => Some(s),
                Err(e) => {
                    let _ = egl.destroy_context(display, context);
                    return Err(format!("eglCreatePbufferSurface: {e}"));
                }
            },
            None => None,
        };
        let cleanup = |why: String| {
            let _ = egl.make_current(display, None, None, None);
            if let Some(s) = surface {
                let _ = egl.destroy_surface(display, s);
            }
            let _ = egl.destroy_context(display, context);
            why
        };
        if let Err(e) = egl.make_current(display, surface, surface, Some(context)) {
            return Err(cleanup(format!("eglMakeCurrent: {e}")));
        }
        // SAFETY: the context is current on this thread; the loader returns EGL's entry points.
        let gl = unsafe {
            glow::Context::from_loader_function_cstr(|name| {
                name.to_str()
                    .ok()
                    .and_then(|n| egl.get_proc_address(n))
                    .map_or(std::ptr::null(), |f| f as *const c_void)
            })
        };
        let info = match read_info(&gl, platform, surface.is_some()) {
            Ok(info) => info,
            Err(e) => return Err(cleanup(e)),
        };
        let _ = egl.make_current(display, None, None, None);
        Ok((context, surface, api, gl, info))
    }

    /// Makes the context current on the calling thread until the guard drops, when whatever
    /// the thread had current before (its own context, or nothing) is current again.
    pub fn make_current(&self) -> Result<Current, Error> {
        let saved = SavedCurrent::save(self.egl);
        let made = self.egl.bind_api(self.api).and_then(|()| {
            self.egl
                .make_current(self.display, self.surface, self.surface, Some(self.context))
        });
        match made {
            Ok(()) => Ok(Current {
                egl: self.egl,
                saved: Some(saved),
            }),
            Err(e) => {
                saved.restore(self.egl);
                Err(Error::new(
                    Status::ExecutionFailed,
                    format!("eglMakeCurrent: {e}"),
                ))
            }
        }
    }

    /// Destroys the context and its surface, or keeps it for the next `create` where the
    /// device needs that (replacing, unreleased, any context kept before). GL objects must
    /// have been deleted while current.
    pub fn destroy(self) {
        if self.info.workarounds.keep_context {
            *kept() = Some(self);
            return;
        }
        if let Some(s) = self.surface {
            let _ = self.egl.destroy_surface(self.display, s);
        }
        let _ = self.egl.destroy_context(self.display, self.context);
    }

    /// A GL entry point, for those glow does not wrap.
    pub fn proc_address(&self, name: &str) -> *const c_void {
        self.egl
            .get_proc_address(name)
            .map_or(std::ptr::null(), |f| f as *const c_void)
    }
}

/// libEGL, loaded once per process and never unloaded (the host program may use it too).
fn load_egl() -> Result<&'static Egl, Error> {
    static EGL: OnceCell<std::result::Result<Egl, String>> = OnceCell::new();
    EGL.get_or_init(|| {
        // SAFETY: loading libEGL runs its initialisers, which is what every EGL user does.
        unsafe { Egl::load_required() }.map_err(|e| format!("cannot load libEGL: {e}"))
    })
    .as_ref()
    .map_err(|e| Error::new(Status::NotInitialized, e.clone()))
}

/// The context is current on this thread while this lives.
pub struct Current {
    egl: &'static Egl,
    saved: Option<SavedCurrent>,
}

impl Drop for Current {
    fn drop(&mut self) {
        if let Some(saved) = self.saved.take() {
            saved.restore(self.egl);
        }
    }
}

/// A context made current on a thread: its display, draw and read surfaces.
type ThreadCurrent = (
    egl::Display,
    Option<egl::Surface>,
    Option<egl::Surface>,
    egl::Context,
);

/// What one thread had current, per client API, so it can be put back exactly.
struct SavedCurrent {
    bound_api: egl::Enum,
    per_api: Vec<(egl::Enum, Option<ThreadCurrent>)>,
}

impl SavedCurrent {
    fn save(egl: &Egl) -> SavedCurrent {
        let bound_api = egl.query_api();
        let mut per_api = Vec::with_capacity(2);
        // OpenGL and OpenGL ES have separate bindings in EGL; some implementations share one slot,
        // so both are saved and restored.
        for api in [egl::OPENGL_API, egl::OPENGL_ES_API] {
            if egl.bind_api(api).is_err() {
                continue;
            }
            let current = egl.get_current_context().and_then(|c| {
                let d = egl.get_current_display()?;
                Some((
                    d,
                    egl.get_current_surface(egl::DRAW),
                    egl.get_current_surface(egl::READ),
                    c,
                ))
            });
            per_api.push((api, current));
        }
        let _ = egl.bind_api(bound_api);
        SavedCurrent { bound_api, per_api }
    }

    fn restore(self, egl: &Egl) {
        // Release ours first (under each API), then put back the thread's own contexts.
        for (api, _) in &self.per_api {
            if egl.bind_api(*api).is_ok() {
                if let Some(d) = egl.get_current_display() {
                    let _ = egl.make_current(d, None, None, None);
                }
            }
        }
        for (api, current) in &self.per_api {
            if let Some((d, draw, read, c)) = current {
                if egl.bind_api(*api).is_ok() {
                    let _ = egl.make_current(*d, *draw, *read, Some(*c));
                }
            }
        }
        let _ = egl.bind_api(self.bound_api);
    }
}

fn client_extensions(egl: &Egl) -> String {
    // SAFETY: EGL_NO_DISPLAY asks for client extensions (EGL 1.5 / EXT_client_extensions).
    let no_display = unsafe { egl::Display::from_ptr(egl::NO_DISPLAY) };
    egl.query_string(Some(no_display), egl::EXTENSIONS)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn candidate_displays(egl: &Egl) -> Vec<(String, egl::Display)> {
    let exts = client_extensions(egl);
    let has = |name: &str| exts.split_ascii_whitespace().any(|e| e == name);
    let mut out = Vec::new();
    let wanted: Option<usize> = std::env::var("GLBLAS_EGL_DEVICE")
        .ok()
        .and_then(|v| v.trim().parse().ok());
    if has("EGL_EXT_platform_device") {
        for (i, device) in query_devices(egl).into_iter().enumerate() {
            if wanted.is_some_and(|w| w != i) {
                continue;
            }
            // SAFETY: `device` is an EGLDeviceEXT returned by eglQueryDevicesEXT.
            if let Ok(d) = unsafe {
                egl.get_platform_display(PLATFORM_DEVICE_EXT, device, &[egl::ATTRIB_NONE])
            } {
                out.push((format!("EGL device {i}"), d));
            }
        }
    }
    if wanted.is_none() {
        if has("EGL_MESA_platform_surfaceless") {
            // SAFETY: the surfaceless platform takes EGL_DEFAULT_DISPLAY as its native display.
            if let Ok(d) = unsafe {
                egl.get_platform_display(
                    PLATFORM_SURFACELESS_MESA,
                    egl::DEFAULT_DISPLAY,
                    &[egl::ATTRIB_NONE],
                )
            } {
                out.push(("surfaceless".into(), d));
            }
        }
        // SAFETY: EGL_DEFAULT_DISPLAY is always a valid argument.
        if let Some(d) = unsafe { egl.get_display(egl::DEFAULT_DISPLAY) } {
            out.push(("default display".into(), d));
        }
    }
    out
}

fn query_devices(egl: &Egl) -> Vec<*mut c_void> {
    let Some(f) = egl.get_proc_address("eglQueryDevicesEXT") else {
        return Vec::new();
    };
    // SAFETY: eglQueryDevicesEXT has this signature (EGL_EXT_device_enumeration).
    let query: QueryDevicesExt =
        unsafe { std::mem::transmute::<extern "system" fn(), QueryDevicesExt>(f) };
    let mut count: egl::Int = 0;
    // SAFETY: a null array asks for the count only.
    if unsafe { query(0, std::ptr::null_mut(), &mut count) } == 0 || count <= 0 {
        return Vec::new();
    }
    let mut devices = vec![std::ptr::null_mut(); count as usize];
    // SAFETY: `devices` holds `count` slots.
    if unsafe { query(count, devices.as_mut_ptr(), &mut count) } == 0 {
        return Vec::new();
    }
    devices.truncate(count.max(0) as usize);
    devices
}

fn read_info(gl: &glow::Context, platform: &str, pbuffer: bool) -> Result<DeviceInfo, String> {
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
    let limit = |name: &str, found: i64| {
        super::targets::limit_setting(name).map_or(found, |v| v.min(found))
    };
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
        // Every kernel's workgroups have 64 invocations; storage reads bind up to
        // `operand::STORAGE_BINDINGS` blocks, of at least 1 MiB each.
        let compute = !fragment_only
            && compute_shaders
            && invocations >= 64
            && (!storage_wanted
                || (blocks >= super::operand::STORAGE_BINDINGS && block_size >= 1 << 20));
        let storage_operands = compute && storage_wanted;
        let info = DeviceInfo {
            software: is_software(&renderer),
            pinned_memory: has("GL_AMD_pinned_memory"),
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
            fp64: !gles && (ver(4, 0) || has("GL_ARB_gpu_shader_fp64")),
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
