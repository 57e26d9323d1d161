//! The engine: the GL context and everything that lives in it ([`Engine`]), and what kernels do
//! through it: compile and bind programs, bind render targets, upload and bind operands, launch,
//! and store results.

use std::sync::Arc;

use glow::HasContext;

use super::context::GpuContext;
use super::element::Element;
use super::fault;
use super::gl_errors::check_gl;
use super::gl_ext::GlExt;
use super::jobs::{Jobs, Work};
use super::kernel_timer::KernelTimer;
use super::limits::Limits;
use super::memory::{DeviceMemory, Location};
use super::operand::{Matrix, Mem, Vector};
use super::operand_units::{no_buffer_textures, OperandUnits};
use super::programs::{Program, Programs, UNLESS_COMPILING};
use super::resets::Resets;
use super::scratch::{Scratch, EDGES};
use super::staging::Staging;
use super::stores::{self, OutLayout};
use super::targets::{Kind, Targets};
use super::tuning::Tuning;
use super::tuning_table;
use crate::status::{Error, Result, Status};

/// Everything that lives in the GL context.
pub struct Engine {
    pub ctx: GpuContext,
    pub ext: GlExt,
    pub memory: DeviceMemory,
    pub programs: Programs,
    pub targets: Targets,
    pub staging: Staging,
    pub scratch: Scratch,
    pub units: OperandUnits,
    pub limits: Limits,
    /// The kernels' parameters; the tests and the tuner may set others.
    pub tuning: Tuning,
    /// Where `tuning` came from (`tuning_table::Loaded::source`).
    pub tuning_source: String,
    pub timer: KernelTimer,
    pub resets: Resets,
    jobs: Jobs,
    vao: glow::VertexArray,
}

impl Engine {
    /// Makes the context and what lives in it; `on_compile` runs after each shader compile is
    /// started (see `Programs::new`).
    pub(super) fn create(on_compile: fn()) -> Result<Engine> {
        let ctx = GpuContext::create()?;
        let made = ctx
            .make_current()
            .and_then(|_current| Self::create_resources(&ctx));
        match made {
            Ok((ext, units, vao, resets)) => {
                let mut limits = Limits::new(&ctx.info);
                let loaded = tuning_table::load(&ctx.info, &limits);
                let rates = loaded.tuning.rates;
                limits.measured(rates.gemm, rates.level1);
                if let Some(why) = &loaded.warning {
                    warn_of_table(why);
                }
                Ok(Engine {
                    tuning: loaded.tuning,
                    tuning_source: loaded.source,
                    limits,
                    timer: KernelTimer::new(&ctx.info),
                    resets,
                    jobs: Jobs::default(),
                    ctx,
                    ext,
                    memory: DeviceMemory::default(),
                    programs: Programs::new(on_compile),
                    targets: Targets::default(),
                    staging: Staging::default(),
                    scratch: Scratch::default(),
                    units,
                    vao,
                })
            }
            Err(e) => {
                ctx.destroy();
                Err(e)
            }
        }
    }

    /// What the context holds from the start; it is current.
    fn create_resources(
        ctx: &GpuContext,
    ) -> Result<(GlExt, OperandUnits, glow::VertexArray, Resets)> {
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
        Ok((ext, units, vao, Resets::new(ctx)))
    }

    pub(super) fn destroy(self) {
        self.destroy_with(DeviceMemory::free_all, GpuContext::destroy);
    }

    /// After a reset: the device allocations are lost (`DeviceMemory::lose_all`), and the
    /// context abandoned (`GpuContext::abandon`). Its objects are deleted first, as on shutdown:
    /// a lost context ignores the commands, and one that is not (an injected reset) frees them.
    pub(super) fn abandon(self) {
        self.destroy_with(DeviceMemory::lose_all, GpuContext::abandon);
    }

    fn destroy_with(
        mut self,
        end_memory: fn(&mut DeviceMemory, Option<(&glow::Context, &GlExt)>),
        end_context: fn(GpuContext),
    ) {
        let current = self.ctx.make_current();
        if current.is_err() {
            end_memory(&mut self.memory, None);
        } else {
            let gl = &self.ctx.gl;
            end_memory(&mut self.memory, Some((gl, &self.ext)));
            self.programs.delete_all(gl);
            self.targets.delete_all(gl);
            self.staging.delete_all(gl, &self.ext);
            self.scratch.delete_all(gl, &self.ext);
            self.ext.scenes.delete_all(gl);
            self.timer.delete_all(gl);
            self.units.delete(gl, &self.ext);
            // SAFETY: the context is current; the VAO is ours.
            unsafe { gl.delete_vertex_array(self.vao) };
        }
        drop(current);
        end_context(self.ctx);
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
            return Err(no_buffer_textures());
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
        stores::store_matrix(&self.ctx.gl, &self.ext, m)
    }

    /// Stores the bound `cols`-attachment RGBA target's whole texels into matrix `m` (see
    /// `stores::store_blocks`).
    pub fn store_blocks(&self, m: &Matrix, cols: i64) -> Result<()> {
        stores::store_blocks(&self.ctx.gl, &self.ext, m, cols)
    }

    /// Stores the bound RGBA target's `width`×`height` texels into `dst`, packed.
    pub fn store_texels(&self, dst: Mem, width: i32, height: i32) -> Result<()> {
        stores::store_texels(&self.ctx.gl, &self.ext, dst, width, height)
    }

    /// Stores attachment `attachment` of the bound RGBA target's run of `n` elements into `dst` (see
    /// `stores::store_texel_run`; device memory needs scratch buffer `EDGES` made beforehand,
    /// by `edge_buffer`).
    pub fn store_texel_run(
        &self,
        attachment: u32,
        dst: Mem,
        n: i64,
        shift: i64,
        width: i32,
    ) -> Result<()> {
        let edges = self.scratch.existing(EDGES);
        let gl = &self.ctx.gl;
        // SAFETY: the context is current; the bound target has the attachment.
        unsafe { gl.read_buffer(glow::COLOR_ATTACHMENT0 + attachment) };
        let stored = stores::store_texel_run(gl, &self.ext, dst, n, shift, width, edges);
        // SAFETY: as above.
        unsafe { gl.read_buffer(glow::COLOR_ATTACHMENT0) };
        stored
    }

    /// Makes the scratch buffer that device stores of partial texels pass through (before the
    /// first store of a launch, so that a failed allocation leaves the outputs untouched).
    pub fn edge_buffer(&mut self) -> Result<()> {
        self.scratch
            .buffer(&self.ctx.gl, &self.ext, EDGES, 8)
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
                self.timer
                    .time(gl, || gl.draw_arrays(glow::TRIANGLES, 0, 3));
            })
        });
        self.ext.scenes.hold(gl);
        check_gl(gl, "draw")
    }

    /// Dispatches the bound compute program over `x`×`y` workgroups (one in z, which the
    /// shaders' `RUNTIME_ZERO` counts on: see `programs`), after the barriers its operands need;
    /// `work` is what the launch does (see `spend`).
    pub fn dispatch(&self, x: i64, y: i64, work: Work, what: &str) -> Result<()> {
        self.spend(work);
        let gl = &self.ctx.gl;
        self.ext.barriers.launch(gl, || {
            // SAFETY: the context is current; the kernel bound the program and its operands.
            fault::launch(|| {
                self.timer
                    .time(gl, || unsafe { gl.dispatch_compute(x as u32, y as u32, 1) })
            })
        });
        check_gl(gl, what)
    }

    /// Counts a launch of `work` into the device's current job, which is flushed first where
    /// the launch would take it past the dispatch budget (`jobs`). Every dispatch does; draws
    /// that may take long do before they draw.
    pub fn spend(&self, work: Work) {
        self.jobs.launch(&self.ctx.gl, &self.limits, work);
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
            Location::Lost => Err(Error::lost_operand()),
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

/// The one line a user's tuning table that cannot be used prints, once per process.
fn warn_of_table(why: &str) {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    crate::unlocked_io::warn_once(&WARNED, || {
        format!("glblas: warning: tuning table: {why}\n")
    });
}
