//! The process's one headless EGL display and GL context, and making it current for one call.
//!
//! Display selection follows the order a headless machine needs: every `EGL_EXT_platform_device`
//! device (the GPU on an NVIDIA machine), then Mesa's surfaceless platform, then the default
//! display. The first one that yields a usable GL context wins.

use std::ffi::c_void;
use std::sync::{Mutex, PoisonError};

use khronos_egl as egl;
use once_cell::sync::OnceCell;

use super::device::{read_info, DeviceInfo};
use super::shader_stats;
use crate::status::{Error, Status};

type Egl = egl::DynamicInstance<egl::EGL1_5>;

// Tokens from EGL extensions that khronos-egl does not name.
const PLATFORM_DEVICE_EXT: egl::Enum = 0x313F;
const PLATFORM_SURFACELESS_MESA: egl::Enum = 0x31DD;
const CONTEXT_OPENGL_CORE_PROFILE_BIT: egl::Int = 0x1;
// EGL_EXT_create_context_robustness.
const CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT: egl::Int = 0x3138;
const LOSE_CONTEXT_ON_RESET_EXT: egl::Int = 0x31BF;

type QueryDevicesExt = unsafe extern "system" fn(egl::Int, *mut *mut c_void, *mut egl::Int) -> u32;

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
                let info = k.make_current().map_err(|e| e.detail).and_then(|_current| {
                    read_info(
                        &k.gl,
                        &k.info.platform,
                        k.surface.is_some(),
                        k.info.reset_status.is_some(),
                    )
                });
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
        let saved = SavedCurrent::save(egl, egl::OPENGL_API);
        let result = Self::try_apis(egl, display, platform);
        saved.restore(egl, None);
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
        // Each first as a robust context, which loses itself on a GPU reset and says so
        // (`resets`), where the display offers one.
        let robust = egl
            .query_string(Some(display), egl::EXTENSIONS)
            .is_ok_and(|e| {
                e.to_string_lossy()
                    .split_ascii_whitespace()
                    .any(|e| e == "EGL_EXT_create_context_robustness")
            });
        let mut last = String::from("no context attempt");
        for (api, bit, attribs) in attempts {
            let mut tries = Vec::with_capacity(2);
            if robust {
                // The strategy before the list's closing EGL_NONE.
                let mut with = attribs.clone();
                let end = with.len() - 1;
                with.splice(
                    end..end,
                    [
                        CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                        LOSE_CONTEXT_ON_RESET_EXT,
                    ],
                );
                tries.push((true, with));
            }
            tries.push((false, attribs));
            for (robust, attribs) in tries {
                match Self::try_context(egl, display, platform, api, bit, &attribs, robust) {
                    Ok(found) => return Ok(found),
                    Err(e) => last = e,
                }
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
        robust: bool,
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
        let mut gl = unsafe {
            glow::Context::from_loader_function_cstr(|name| {
                name.to_str()
                    .ok()
                    .and_then(|n| egl.get_proc_address(n))
                    .map_or(std::ptr::null(), |f| f as *const c_void)
            })
        };
        let info = match read_info(&gl, platform, surface.is_some(), robust) {
            Ok(info) => info,
            Err(e) => return Err(cleanup(e)),
        };
        shader_stats::install(&mut gl);
        let _ = egl.make_current(display, None, None, None);
        Ok((context, surface, api, gl, info))
    }

    /// Makes the context current on the calling thread until the guard drops, when whatever
    /// the thread had current before (its own context, or nothing) is current again.
    pub fn make_current(&self) -> Result<Current, Error> {
        // `save` leaves our API bound.
        let saved = SavedCurrent::save(self.egl, self.api);
        let made =
            self.egl
                .make_current(self.display, self.surface, self.surface, Some(self.context));
        match made {
            Ok(()) => Ok(Current {
                egl: self.egl,
                ours: (self.display, self.api),
                saved: Some(saved),
            }),
            Err(e) => {
                saved.restore(self.egl, None);
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
        self.destroy_or(|ctx| *kept() = Some(ctx));
    }

    /// After a reset: destroys the context and its surface, which are never used again. Where
    /// the device would keep them (`keep_context`, whose destruction hangs a later context) they
    /// are let go without an EGL call instead.
    pub fn abandon(self) {
        self.destroy_or(std::mem::forget);
    }

    fn destroy_or(self, keep: impl FnOnce(GpuContext)) {
        if self.info.workarounds.keep_context {
            keep(self);
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
    /// Our context's display and client API.
    ours: (egl::Display, egl::Enum),
    saved: Option<SavedCurrent>,
}

impl Drop for Current {
    fn drop(&mut self) {
        if let Some(saved) = self.saved.take() {
            saved.restore(self.egl, Some(self.ours));
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
    /// Saves the thread's contexts under each client API, leaving `last` bound (so that making
    /// ours current under it needs no other bind: each EGL call costs a tiny call time).
    fn save(egl: &Egl, last: egl::Enum) -> SavedCurrent {
        let bound_api = egl.query_api();
        let mut per_api = Vec::with_capacity(2);
        // OpenGL and OpenGL ES have separate bindings in EGL; some implementations share one slot,
        // so both are saved and restored.
        let first = match last {
            egl::OPENGL_API => egl::OPENGL_ES_API,
            _ => egl::OPENGL_API,
        };
        for api in [first, last] {
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
        SavedCurrent { bound_api, per_api }
    }

    /// Puts the saved contexts back. `ours`: the display and API of our context, current and
    /// still bound, which is released first; none when ours is not current and the bound API
    /// is not known.
    fn restore(self, egl: &Egl, ours: Option<(egl::Display, egl::Enum)>) {
        let mut bound = None;
        if let Some((display, api)) = ours {
            // Releasing under the bound API releases ours, whether the implementation keeps one
            // current context per API or one per thread.
            let _ = egl.make_current(display, None, None, None);
            bound = Some(api);
        }
        for (api, current) in &self.per_api {
            if let Some((d, draw, read, c)) = current {
                if egl.bind_api(*api).is_ok() {
                    bound = Some(*api);
                    let _ = egl.make_current(*d, *draw, *read, Some(*c));
                }
            }
        }
        if bound != Some(self.bound_api) {
            let _ = egl.bind_api(self.bound_api);
        }
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
