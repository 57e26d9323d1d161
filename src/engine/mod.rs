//! The GL engine: one process-wide context behind a mutex, device memory, and the resources the
//! kernels share. Every entry point runs through [`with_engine`], which serializes callers,
//! initialises lazily, and makes the context current on the calling thread for the call only.

pub mod barriers;
pub mod buffers;
pub mod census;
pub mod context;
pub mod device;
pub mod element;
mod exit;
pub mod fault;
mod fences;
mod fork;
pub mod fpenv;
pub mod gl_errors;
pub mod gl_ext;
pub mod limits;
pub mod memory;
pub mod operand;
pub mod programs;
mod scene_fences;
pub mod scratch;
pub mod staging;
pub mod targets;
pub mod transfer;
pub mod workarounds;

use std::cell::Cell;
use std::ffi::{CStr, CString};
use std::sync::Arc;

use glow::HasContext;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::status::{Cause, Error, Result, Status};
use context::GpuContext;
use device::DeviceInfo;
use element::Element;
use gl_errors::{check_gl, drain_gl_errors};
use gl_ext::GlExt;
use limits::Limits;
use memory::{DeviceMemory, Location};
use operand::{Matrix, Mem, OperandUnits, OutLayout, Vector};
use programs::{Program, Programs};
use staging::Staging;
use targets::{Kind, Targets};

/// Everything that lives in the GL context.
pub struct Engine {
    pub ctx: GpuContext,
    pub ext: GlExt,
    pub memory: DeviceMemory,
    pub programs: Programs,
    pub targets: Targets,
    pub staging: Staging,
    pub scratch: scratch::Scratch,
    pub units: OperandUnits,
    pub limits: Limits,
    vao: glow::VertexArray,
}

enum Slot {
    Uninit,
    /// Context creation failed (why); calls answer NOT_INITIALIZED until `glblasInit` retries.
    Failed(String),
    Ready(Box<Engine>),
    /// GL is not used in this process any more, and the context, if any, is left alone.
    Retired(Retirement),
}

#[derive(Clone, Copy)]
enum Retirement {
    /// This process is a fork() child of one that had set up GL: the context is the parent's
    /// (see `fork`).
    Forked,
    /// exit() has begun: the driver's libraries may be torn down at any moment (see `exit`).
    Exiting,
}

/// A std mutex, not parking_lot's: after fork() the child must be able to release it even if a
/// parent thread was queued on it (parking_lot may hand the lock to that thread, which does not
/// exist in the child).
static ENGINE: Mutex<Slot> = Mutex::new(Slot::Uninit);

/// The engine slot, locked (a panic caught while it was held leaves it usable).
fn lock_engine() -> MutexGuard<'static, Slot> {
    ENGINE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `f` on the engine, creating it on first use.
pub fn with_engine<T>(f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    if matches!(*slot, Slot::Uninit) {
        *slot = create_slot();
    }
    let engine = match &mut *slot {
        Slot::Ready(engine) => engine,
        Slot::Retired(why) => return Err(retired(*why)),
        Slot::Failed(why) => return Err(no_context(why)),
        Slot::Uninit => return Err(no_context("")),
    };
    let _current = engine.ctx.make_current()?;
    drain_gl_errors(&engine.ctx.gl);
    let result = f(engine);
    // Before the context is let go (see `barriers::Barriers::new`).
    engine.ext.barriers.settle(&engine.ctx.gl);
    engine.staging.end_call(&engine.ctx.gl, &engine.ext);
    engine.units.end_call(&engine.ctx.gl, &engine.ext);
    engine.ext.scenes.release(&engine.ctx.gl, false);
    // A GL error the kernel did not check itself still fails the call.
    let result = match (result, check_gl(&engine.ctx.gl, "call")) {
        (Ok(v), Ok(())) => Ok(v),
        (Err(e), _) | (Ok(_), Err(e)) => Err(e),
    };
    if result.is_err() {
        // The launches a failed call made before it failed may still be running: the CPU BLAS
        // answers the call next, from the caller's operands, which no launch may write after
        // that; and zink runs them on lavapipe's queue thread, compiling their shaders in LLVM,
        // which crashes the process if it exits meanwhile (a fence made later, at exit, on
        // another thread, does not wait for them there).
        fences::finish(&engine.ctx.gl);
    }
    result
}

thread_local! {
    /// Set by `unless_compiling` for the calls it runs.
    static UNLESS_COMPILING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, whose GL calls decline (`Error::compiling`) where a program they need is still
/// compiling in the background, rather than wait for it: for calls another BLAS can answer.
pub fn unless_compiling<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            UNLESS_COMPILING.set(self.0);
        }
    }
    let _restore = Restore(UNLESS_COMPILING.replace(true));
    f()
}

/// Creates the engine if there is none, retrying after an earlier failure.
pub fn init() -> Result<()> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    if matches!(*slot, Slot::Uninit | Slot::Failed(_)) {
        *slot = create_slot();
    }
    match &*slot {
        Slot::Ready(_) => Ok(()),
        Slot::Retired(why) => Err(retired(*why)),
        Slot::Failed(why) => Err(no_context(why)),
        Slot::Uninit => Err(no_context("")),
    }
}

/// A call's error where no context could be made (`why`, if it was tried).
fn no_context(why: &str) -> Error {
    let detail = if why.is_empty() {
        "no GL context".to_string()
    } else {
        format!("no GL context: {why}")
    };
    Error::new(Status::NotInitialized, detail)
}

/// Frees every GL object and the context; the next call initialises again.
pub fn shutdown() -> Result<()> {
    let _fp = fpenv::SavedFpEnv::save();
    let mut slot = lock_engine();
    match std::mem::replace(&mut *slot, Slot::Uninit) {
        Slot::Ready(engine) => engine.destroy(),
        retired @ Slot::Retired(_) => *slot = retired,
        Slot::Uninit | Slot::Failed(_) => {}
    }
    Ok(())
}

/// What the device is and can do, if a context exists or can be created.
pub fn device_info() -> Option<DeviceInfo> {
    with_engine(|e| Ok(e.ctx.info.clone())).ok()
}

/// The GL renderer string, if a context exists or can be created. It never dangles, even
/// across shutdown (see [`intern`]).
pub fn device_name() -> Option<&'static CStr> {
    with_engine(|e| Ok(intern(&e.ctx.info.renderer))).ok()
}

/// What `glblasGetDeviceInfo` reports: the renderer, the GL version and the pipeline (kept for
/// the life of the process, see [`intern`]), whether the context is GLES, whether shaders have
/// doubles, and how many device allocations are live.
pub struct Report {
    pub renderer: &'static CStr,
    pub version: &'static CStr,
    pub pipeline: &'static CStr,
    pub gles: bool,
    pub fp64: bool,
    pub allocations: usize,
}

/// The device's [`Report`], creating the context if there is none.
pub fn report() -> Result<Report> {
    with_engine(|e| {
        let info = &e.ctx.info;
        Ok(Report {
            renderer: intern(&info.renderer),
            version: intern(&info.version),
            pipeline: intern(crate::kernels::pipeline_on(e)),
            gles: info.gles,
            fp64: info.fp64,
            allocations: e.memory.count(),
        })
    })
}

/// `text` as a C string that lives as long as the process, so that one handed to C never
/// dangles, even across shutdown; one copy is kept per distinct text (a few device names and
/// versions).
fn intern(text: &str) -> &'static CStr {
    // Locked only inside the engine's lock, which fork's handlers hold across fork(): never held
    // there by another thread.
    static TEXTS: Mutex<Vec<&'static CStr>> = Mutex::new(Vec::new());
    let text = CString::new(text).unwrap_or_default();
    let mut texts = TEXTS.lock().unwrap_or_else(PoisonError::into_inner);
    match texts.iter().find(|t| **t == text.as_c_str()) {
        Some(t) => t,
        None => {
            let leaked: &'static CStr = Box::leak(text.into_boxed_c_str());
            texts.push(leaked);
            leaked
        }
    }
}

fn retired(why: Retirement) -> Error {
    match why {
        Retirement::Forked => Error::new(
            Status::NotInitialized,
            "GL is not available in a child created by fork() after the parent used it",
        ),
        // Not a failing device: a call made while the process exits (from an atexit handler,
        // a destructor, another thread) is simply not GL's any more.
        Retirement::Exiting => Error {
            cause: Cause::Declined("exiting"),
            ..Error::new(Status::NotInitialized, "the process is exiting")
        },
    }
}

fn create_slot() -> Slot {
    fork::register();
    match Engine::create() {
        Ok(e) => {
            // After the driver's libraries are loaded, so that it runs before their destructors.
            exit::register();
            Slot::Ready(Box::new(e))
        }
        Err(e) => {
            debug_log(&e);
            Slot::Failed(e.detail)
        }
    }
}

/// `GLBLAS_DEBUG=1` prints why a call failed; without it the library prints nothing.
pub fn debug_log(e: &Error) {
    if std::env::var_os("GLBLAS_DEBUG").is_some_and(|v| v != "0") {
        crate::unlocked_io::to_stderr(&format!("glblas: {:?}: {}\n", e.status, e.detail));
    }
}

impl Engine {
    fn create() -> Result<Engine> {
        let ctx = GpuContext::create()?;
        let made = ctx
            .make_current()
            .and_then(|_current| Self::create_resources(&ctx));
        match made {
            Ok((ext, units, vao)) => Ok(Engine {
                limits: Limits::new(&ctx.info),
                ctx,
                ext,
                memory: DeviceMemory::default(),
                programs: Programs::default(),
                targets: Targets::default(),
                staging: Staging::default(),
                scratch: scratch::Scratch::default(),
                units,
                vao,
            }),
            Err(e) => {
                ctx.destroy();
                Err(e)
            }
        }
    }

    fn create_resources(ctx: &GpuContext) -> Result<(GlExt, OperandUnits, glow::VertexArray)> {
        let gl = &ctx.gl;
        let ext = GlExt::load(|name| ctx.proc_address(name), &ctx.info).ok_or_else(|| {
            Error::new(Status::NotSupported, "a required GL entry point is missing")
        })?;
        let units = OperandUnits::create(gl, &ctx.info)?;
        // SAFETY: the context is current.
        let vao = match unsafe { gl.create_vertex_array() } {
            Ok(v) => v,
            Err(e) => {
                units.delete(gl, &ext);
                return Err(Error::new(Status::AllocFailed, e));
            }
        };
        // An allocation like the operand textures (the setup's only one where there are none).
        fault::allocation();
        if let Err(e) = check_gl(gl, "vertex array") {
            units.delete(gl, &ext);
            // SAFETY: the context is current; the VAO is ours.
            unsafe { gl.delete_vertex_array(vao) };
            return Err(e);
        }
        // SAFETY: the context is current; these set state for our context only.
        unsafe {
            gl.bind_vertex_array(Some(vao));
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
        }
        Ok((ext, units, vao))
    }

    fn destroy(mut self) {
        let current = self.ctx.make_current();
        if current.is_err() {
            self.memory.free_all(None);
        } else {
            let gl = &self.ctx.gl;
            self.memory.free_all(Some((gl, &self.ext)));
            self.programs.delete_all(gl);
            self.targets.delete_all(gl);
            self.staging.delete_all(gl, &self.ext);
            self.scratch.delete_all(gl, &self.ext);
            self.ext.scenes.delete_all(gl);
            self.units.delete(gl, &self.ext);
            // SAFETY: the context is current; the VAO is ours.
            unsafe { gl.delete_vertex_array(self.vao) };
        }
        drop(current);
        self.ctx.destroy();
    }

    /// Compiles (once) and binds the program for fragment kernel `frag` with `defines`; the
    /// binds that follow are its launch's (see `barriers`).
    pub fn program(
        &mut self,
        name: &'static str,
        frag: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        if !self.ctx.info.texture_buffers {
            return Err(operand::no_buffer_textures());
        }
        self.ext.barriers.new_launch();
        let defer = self.defer_compiles();
        self.programs
            .use_program(&self.ctx.gl, (&self.ctx.info, defer), name, frag, defines)
    }

    /// Compiles (once) and binds compute program `name` from source `comp` with `defines`; the
    /// binds that follow are its dispatch's (see `barriers`).
    pub fn compute_program(
        &mut self,
        name: &'static str,
        comp: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        self.ext.barriers.new_launch();
        let defer = self.defer_compiles();
        self.programs
            .use_compute(&self.ctx.gl, (&self.ctx.info, defer), name, comp, defines)
    }

    /// Whether this call declines, rather than waits for, a program still compiling: inside
    /// `unless_compiling`, where the driver compiles in the background.
    fn defer_compiles(&self) -> bool {
        self.ctx.info.parallel_compile && UNLESS_COMPILING.get()
    }

    /// Binds R32F render target `slot`, at least `width`×`height`, with the viewport set.
    pub fn target(&mut self, slot: usize, width: i32, height: i32) -> Result<()> {
        self.target_of(slot, Kind::R32F, width, height)
    }

    /// Binds render target `slot` of `kind`, at least `width`×`height`, with the viewport set.
    pub fn target_of(&mut self, slot: usize, kind: Kind, width: i32, height: i32) -> Result<()> {
        self.targets
            .bind(&self.ctx.gl, slot, kind, width, height)
            .map(|_| ())
    }

    /// The texture of render target `slot` (which must exist), for a later pass to sample.
    pub fn target_texture(&self, slot: usize) -> Option<glow::Texture> {
        self.targets.textures(slot).first().copied()
    }

    /// The textures of render target `slot`, one per attachment.
    pub fn target_textures(&self, slot: usize) -> &[glow::Texture] {
        self.targets.textures(slot)
    }

    /// Binds a 2D texture (a previous pass's target) to texture unit `unit`.
    pub fn bind_texture_2d(&self, unit: usize, texture: Option<glow::Texture>) {
        // SAFETY: the context is current.
        unsafe {
            self.ctx.gl.active_texture(glow::TEXTURE0 + unit as u32);
            self.ctx.gl.bind_texture(glow::TEXTURE_2D, texture);
        }
    }

    /// Makes `v` readable by kernels: host vectors are uploaded into staging buffer `unit`.
    pub fn upload_vector<T: Element>(&mut self, unit: usize, v: &Vector<T>) -> Result<Vector<T>> {
        self.staging
            .upload_vector(&self.ctx.gl, &self.ext, unit, v, 0)
    }

    /// As `upload_vector`, with the lowest element of a host vector placed `pad` elements into
    /// the staging buffer (to share another operand's alignment).
    pub fn upload_vector_padded<T: Element>(
        &mut self,
        unit: usize,
        v: &Vector<T>,
        pad: i64,
    ) -> Result<Vector<T>> {
        self.staging
            .upload_vector(&self.ctx.gl, &self.ext, unit, v, pad)
    }

    /// A unit-stride host vector as device memory over the caller's own storage, where the
    /// device allows and it is worth it (see `Staging::pin`); kernels may write it in place.
    pub fn pin_vector<T: Element>(&mut self, v: &Vector<T>) -> Option<Vector<T>> {
        match v.mem {
            Mem::Host(p) if v.inc.abs() == 1 => {
                let mem = self
                    .staging
                    .pin(&self.ctx.gl, &self.ext, &self.ctx.info, p, v.span())?;
                Some(Vector { mem, ..*v })
            }
            _ => None,
        }
    }

    /// A host matrix as device memory over the caller's own storage (see `pin_vector`).
    pub fn pin_matrix<T: Element>(&mut self, m: &Matrix<T>) -> Option<Matrix<T>> {
        match m.mem {
            Mem::Host(p) => {
                let mem = self
                    .staging
                    .pin(&self.ctx.gl, &self.ext, &self.ctx.info, p, m.span())?;
                Some(Matrix { mem, ..*m })
            }
            Mem::Device { .. } => None,
        }
    }

    /// Makes `m` readable by kernels: host matrices are uploaded (packed) into staging buffer `unit`.
    pub fn upload_matrix<T: Element>(&mut self, unit: usize, m: &Matrix<T>) -> Result<Matrix<T>> {
        self.staging
            .upload_matrix(&self.ctx.gl, &self.ext, unit, m, m.rows)
    }

    /// As `upload_matrix`, with a host matrix's columns a multiple of 4 floats apart, so that
    /// each starts an RGBA texel.
    pub fn upload_matrix_texels(&mut self, unit: usize, m: &Matrix) -> Result<Matrix> {
        let ld = (m.rows + 3) / 4 * 4;
        self.staging
            .upload_matrix(&self.ctx.gl, &self.ext, unit, m, ld)
    }

    /// Binds device vector `v` to texture `unit` as operand `name` of program `p`.
    pub fn bind_vector<T: Element>(
        &self,
        p: &Program,
        unit: usize,
        name: &str,
        v: &Vector<T>,
    ) -> Result<()> {
        self.units
            .bind_vector(&self.ctx.gl, &self.ext, &self.ctx.info, p, unit, name, v)
    }

    /// Binds device matrix `m` (transposed when `t`) to texture `unit` as operand `name` of `p`.
    pub fn bind_matrix<T: Element>(
        &self,
        p: &Program,
        unit: usize,
        name: &str,
        m: &Matrix<T>,
        t: bool,
    ) -> Result<()> {
        self.units
            .bind_matrix(&self.ctx.gl, &self.ext, &self.ctx.info, p, unit, name, m, t)
    }

    /// Most elements one operand window holds (see `Limits`).
    pub fn max_window(&self) -> i64 {
        self.limits.window
    }

    /// Largest render target side (see `Limits`).
    pub fn target_side(&self) -> i32 {
        self.limits.target_side
    }

    /// Stores the bound target's vector result into `dst`.
    pub fn store_vector(&self, layout: &OutLayout, dst: &Vector) -> Result<()> {
        layout.store(&self.ctx.gl, &self.ext, dst)
    }

    /// Stores the bound target's corner into matrix `m`.
    pub fn store_matrix(&self, m: &Matrix) -> Result<()> {
        operand::store_matrix(&self.ctx.gl, &self.ext, m)
    }

    /// Stores the bound `cols`-attachment RGBA target's whole texels into matrix `m` (see
    /// `operand::store_blocks`).
    pub fn store_blocks(&self, m: &Matrix, cols: i64) -> Result<()> {
        operand::store_blocks(&self.ctx.gl, &self.ext, m, cols)
    }

    /// Stores the bound RGBA target's `width`×`height` texels into `dst`, packed.
    pub fn store_texels(&self, dst: Mem, width: i32, height: i32) -> Result<()> {
        operand::store_texels(&self.ctx.gl, &self.ext, dst, width, height)
    }

    /// Stores attachment `attachment` of the bound RGBA target's run of `n` elements into `dst` (see
    /// `operand::store_texel_run`; device memory needs scratch buffer `EDGES` made beforehand,
    /// by `edge_buffer`).
    pub fn store_texel_run(
        &self,
        attachment: u32,
        dst: Mem,
        n: i64,
        shift: i64,
        width: i32,
    ) -> Result<()> {
        let edges = self.scratch.existing(scratch::EDGES);
        let gl = &self.ctx.gl;
        // SAFETY: the context is current; the bound target has the attachment.
        unsafe { gl.read_buffer(glow::COLOR_ATTACHMENT0 + attachment) };
        let stored = operand::store_texel_run(gl, &self.ext, dst, n, shift, width, edges);
        // SAFETY: as above.
        unsafe { gl.read_buffer(glow::COLOR_ATTACHMENT0) };
        stored
    }

    /// Makes the scratch buffer that device stores of partial texels pass through (before the
    /// first store of a launch, so that a failed allocation leaves the outputs untouched).
    pub fn edge_buffer(&mut self) -> Result<()> {
        self.scratch
            .buffer(&self.ctx.gl, &self.ext, scratch::EDGES, 8)
            .map(|_| ())
    }

    /// Draws the bound program into the `width`×`height` texels of the bound target from
    /// (x, y) (the viewport stays there until the next target is bound).
    pub fn draw_in(&self, x: i32, y: i32, width: i32, height: i32) -> Result<()> {
        // SAFETY: the context is current.
        unsafe { self.ctx.gl.viewport(x, y, width, height) };
        self.draw()
    }

    /// Draws the full-viewport triangle with the bound program and target (a scene of its own
    /// on llvmpipe, whose fence is held: see `scene_fences`), after the barriers its operands
    /// need.
    pub fn draw(&self) -> Result<()> {
        let gl = &self.ctx.gl;
        self.ext.barriers.launch(gl, || {
            // SAFETY: the context is current; program, target and operands were bound by the
            // kernel.
            fault::launch(|| unsafe {
                gl.bind_vertex_array(Some(self.vao));
                gl.draw_arrays(glow::TRIANGLES, 0, 3);
            })
        });
        self.ext.scenes.hold(gl);
        check_gl(gl, "draw")
    }

    /// Dispatches the bound compute program over `x`×`y` workgroups (one in z, which the
    /// shaders' `RUNTIME_ZERO` counts on: see `programs`), after the barriers its operands need.
    pub fn dispatch(&self, x: i64, y: i64, what: &str) -> Result<()> {
        let gl = &self.ctx.gl;
        self.ext.barriers.launch(gl, || {
            // SAFETY: the context is current; the kernel bound the program and its operands.
            fault::launch(|| unsafe { gl.dispatch_compute(x as u32, y as u32, 1) })
        });
        check_gl(gl, what)
    }

    /// Resolves a pointer argument covering `elems` elements from it: host memory, or a device
    /// buffer with enough room (an out-of-range or misaligned device pointer is INVALID_VALUE).
    pub fn mem<T: Element>(&self, ptr: *const T, elems: i64) -> Result<Mem<T>> {
        self.resolve(ptr, Some(elems))
    }

    /// As `mem`, for an extent that may be beyond 64-bit arithmetic (`None`). An extent no
    /// address space can hold runs past the end of any device allocation (INVALID_VALUE), and
    /// in host memory is DIMENSION_OVERFLOW: it is never wrapped to a smaller one.
    fn resolve<T: Element>(&self, ptr: *const T, elems: Option<i64>) -> Result<Mem<T>> {
        let need = elems
            .and_then(|e| e.checked_mul(T::SIZE))
            .filter(|&b| (ptr as usize).checked_add(b as usize).is_some());
        match self.memory.locate(ptr as usize) {
            Location::Host(_) => match need {
                Some(_) => Ok(Mem::Host(ptr.cast_mut())),
                None => Err(Error::unaddressable(
                    "operand extent overflows the address space",
                )),
            },
            Location::Freed => Err(Error::invalid("device pointer was freed")),
            Location::Device {
                buffer,
                offset,
                available,
            } => {
                if offset % T::SIZE as usize != 0 {
                    return Err(Error::invalid(
                        "device pointer is not aligned to an element",
                    ));
                }
                if need.is_none_or(|need| need as i128 > available as i128) {
                    return Err(Error::invalid(
                        "operand extends past the end of its device allocation",
                    ));
                }
                let len = (offset as i64 + available as i64) / T::SIZE;
                Ok(Mem::Device {
                    buffer,
                    offset: offset as i64 / T::SIZE,
                    len,
                })
            }
        }
    }

    /// Resolves a BLAS vector argument, its extent in checked 64-bit arithmetic (see
    /// `resolve`). The increment of a vector of at most one element is never applied, so it
    /// is kept to its sign (any value there, even i64::MIN, is valid).
    pub fn vector<T: Element>(&self, ptr: *const T, n: i64, inc: i64) -> Result<Vector<T>> {
        let inc = if n <= 1 { inc.signum() } else { inc };
        let span = match n {
            ..=0 => Some(0),
            _ => inc
                .checked_abs()
                .and_then(|step| (n - 1).checked_mul(step))
                .and_then(|s| s.checked_add(1)),
        };
        Ok(Vector {
            mem: self.resolve(ptr, span)?,
            n,
            inc,
        })
    }

    /// Resolves a column-major matrix argument, its extent in checked 64-bit arithmetic. The
    /// leading dimension of a single column is never applied, so it is replaced by the row
    /// count: kernels then never see a value beyond 32 bits there.
    pub fn matrix<T: Element>(
        &self,
        ptr: *const T,
        rows: i64,
        cols: i64,
        ld: i64,
    ) -> Result<Matrix<T>> {
        let ld = if cols <= 1 { rows.max(1) } else { ld };
        let span = match (rows, cols) {
            (..=0, _) | (_, ..=0) => Some(0),
            _ => (cols - 1).checked_mul(ld).and_then(|s| s.checked_add(rows)),
        };
        Ok(Matrix {
            mem: self.resolve(ptr, span)?,
            rows,
            cols,
            ld,
        })
    }
}
