//! Shader programs: sources assembled from `shaders/` plus `#define`s, compiled once, cached.
//!
//! A call that the CPU BLAS can answer instead (`auto` routing) does not wait for a compile:
//! where the driver compiles in the background (`KHR_parallel_shader_compile`), a program still
//! linking declines the call (`Error::compiling`) and is looked at again by the next call that
//! needs it. Every other call waits. Drivers that compile at the first launch instead (llvmpipe
//! builds its machine code then) stall that launch whatever is done here; `glblasWarm` fills
//! their disk cache ahead.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

use glow::HasContext;

use super::device::DeviceInfo;
use super::element::Scalar;
use super::shader_stats;
use crate::status::{Error, Result, Status};

/// The vertex stage every fragment kernel shares: one triangle covering the viewport.
const FULLSCREEN_VERT: &str = include_str!("../../shaders/fullscreen.vert");
/// Helpers every fragment kernel includes: operand fetches and the output index mapping.
const COMMON: &str = include_str!("../../shaders/common.glsl");
/// What every compute kernel includes: uniforms no driver may compile into a shader variant.
const COMPUTE_COMMON: &str = include_str!("../../shaders/compute.glsl");
/// The element type of a compute kernel: `REAL` and its texel access (see `element.rs`).
const REAL: &str = include_str!("../../shaders/real.glsl");

thread_local! {
    /// Set by `unless_compiling` for the calls it runs.
    pub(super) static UNLESS_COMPILING: Cell<bool> = const { Cell::new(false) };
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

/// A linked program and its active uniforms.
pub struct Program {
    pub program: glow::Program,
    uniforms: HashMap<String, glow::UniformLocation>,
}

impl Program {
    // Uniforms the compiler removed (unused in a variant) have no location; setting them is a no-op,
    // as with location -1 in GL.
    pub fn set_i32(&self, gl: &glow::Context, name: &str, v: i32) {
        // SAFETY: the program is bound by the caller; the location belongs to it.
        unsafe { gl.uniform_1_i32(self.uniforms.get(name), v) }
    }

    pub fn set_f32(&self, gl: &glow::Context, name: &str, v: f32) {
        // SAFETY: as above.
        unsafe { gl.uniform_1_f32(self.uniforms.get(name), v) }
    }

    /// Sets a `REAL_UNIFORM` (an `ELEM_UNIFORM` for a complex `T`) of `shaders/real.glsl`.
    pub fn set_real<T: Scalar>(&self, gl: &glow::Context, name: &str, v: T) {
        // SAFETY: as above.
        unsafe { T::set_uniform(gl, self.uniforms.get(name), v) }
    }
}

/// Shaders compiling and a program linking, none of them queried yet (a query waits for the
/// compile).
struct Linking {
    program: glow::Program,
    shaders: Vec<glow::Shader>,
}

enum Entry {
    Ready(Arc<Program>),
    Linking(Linking),
}

pub struct Programs {
    cache: HashMap<(&'static str, String), Entry>,
    /// Run after each compile is started (see `new`).
    on_compile: fn(),
}

impl Programs {
    /// No programs yet; `on_compile` runs after each compile is started: the engine registers
    /// its exit handler again there (see `exit`), since the compiler may have set up static data
    /// whose destructors exit runs before handlers registered earlier.
    pub fn new(on_compile: fn()) -> Programs {
        Programs {
            cache: HashMap::new(),
            on_compile,
        }
    }

    /// Returns the program for fragment source `frag` (a file of `shaders/`, named `name`) with
    /// `defines`, compiling it on first use, and binds it.
    pub fn use_program(
        &mut self,
        gl: &glow::Context,
        (info, defer): (&DeviceInfo, bool),
        name: &'static str,
        frag: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        self.use_stages(gl, defer, name, defines, |defines| {
            let header = info.fragment_header();
            vec![
                (glow::VERTEX_SHADER, format!("{header}{FULLSCREEN_VERT}")),
                (
                    glow::FRAGMENT_SHADER,
                    format!("{header}{defines}{COMMON}{frag}"),
                ),
            ]
        })
    }

    /// Returns the compute program for source `comp`, compiling it on first use, and binds it.
    pub fn use_compute(
        &mut self,
        gl: &glow::Context,
        (info, defer): (&DeviceInfo, bool),
        name: &'static str,
        comp: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        self.use_stages(gl, defer, name, defines, |defines| {
            vec![(
                glow::COMPUTE_SHADER,
                format!(
                    "{}{defines}{COMPUTE_COMMON}{REAL}{comp}",
                    info.compute_header()
                ),
            )]
        })
    }

    /// `defer`: a program still linking declines the call rather than being waited for (only
    /// where the driver links in the background).
    fn use_stages(
        &mut self,
        gl: &glow::Context,
        defer: bool,
        name: &'static str,
        defines: &[(&str, String)],
        stages: impl FnOnce(&str) -> Vec<(u32, String)>,
    ) -> Result<Arc<Program>> {
        let key_defines: String = defines
            .iter()
            .map(|(k, v)| format!("#define {k} {v}\n"))
            .collect();
        let key = (name, key_defines);
        let p = match self.cache.get(&key) {
            Some(Entry::Ready(p)) => Arc::clone(p),
            _ => self.link(gl, defer, key, stages)?,
        };
        // SAFETY: the program is a live, linked program of the current context.
        unsafe { gl.use_program(Some(p.program)) };
        Ok(p)
    }

    /// The program of `key`, not ready yet: linking since an earlier call, or new (then started
    /// from `stages`); declined while linking where `defer`.
    fn link(
        &mut self,
        gl: &glow::Context,
        defer: bool,
        key: (&'static str, String),
        stages: impl FnOnce(&str) -> Vec<(u32, String)>,
    ) -> Result<Arc<Program>> {
        let name = key.0;
        let linking = match self.cache.remove(&key) {
            Some(Entry::Linking(l)) => l,
            _ => {
                let linking = shader_stats::compiling(
                    || label(name, &key.1),
                    || start(gl, name, stages(&key.1)),
                )?;
                (self.on_compile)();
                linking
            }
        };
        if defer && !linked(gl, &linking) {
            self.cache.insert(key, Entry::Linking(linking));
            return Err(Error::compiling(name));
        }
        let p = Arc::new(finish(gl, name, linking)?);
        self.cache.insert(key, Entry::Ready(Arc::clone(&p)));
        Ok(p)
    }

    /// Each program created, linked or not: its source's name and defines.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .cache
            .keys()
            .map(|(name, defines)| label(name, defines))
            .collect();
        names.sort();
        names
    }

    pub fn delete_all(&mut self, gl: &glow::Context) {
        for (_, entry) in self.cache.drain() {
            match entry {
                // SAFETY: the context is current; the program belongs to it.
                Entry::Ready(p) => unsafe { gl.delete_program(p.program) },
                Entry::Linking(l) => discard(gl, l),
            }
        }
    }
}

/// A program's source name and its defines, on one line.
fn label(name: &str, defines: &str) -> String {
    format!("{name} {}", defines.replace('\n', " "))
        .trim()
        .to_owned()
}

/// Starts compiling `stages` and linking them into a program, without waiting for either.
fn start(gl: &glow::Context, name: &str, stages: Vec<(u32, String)>) -> Result<Linking> {
    // SAFETY: the context is current; every object created here is deleted on failure.
    unsafe {
        let program = gl
            .create_program()
            .map_err(|e| failed(name, "create program", e))?;
        let mut linking = Linking {
            program,
            shaders: Vec::new(),
        };
        for (stage, source) in stages {
            match gl.create_shader(stage) {
                Ok(s) => {
                    gl.shader_source(s, &source);
                    gl.compile_shader(s);
                    gl.attach_shader(program, s);
                    linking.shaders.push(s);
                }
                Err(e) => {
                    discard(gl, linking);
                    return Err(failed(name, "create shader", e));
                }
            }
        }
        gl.link_program(program);
        Ok(linking)
    }
}

/// Whether a program has finished linking (`KHR_parallel_shader_compile`'s query, which does not
/// wait).
fn linked(gl: &glow::Context, l: &Linking) -> bool {
    // SAFETY: the context is current and has the extension (the caller's `defer`).
    !super::fault::compiling() && unsafe { gl.get_program_completion_status(l.program) }
}

/// Waits for the program to link, and reads its uniforms; a failed compile or link is
/// EXECUTION_FAILED, with the compiler's log.
fn finish(gl: &glow::Context, name: &str, l: Linking) -> Result<Program> {
    // SAFETY: the context is current; the objects are the linking program's.
    unsafe {
        if !gl.get_program_link_status(l.program) {
            let compile_log = l
                .shaders
                .iter()
                .find(|&&s| !gl.get_shader_compile_status(s))
                .map(|&s| ("compile", gl.get_shader_info_log(s)));
            let (what, log) =
                compile_log.unwrap_or_else(|| ("link", gl.get_program_info_log(l.program)));
            discard(gl, l);
            return Err(failed(name, what, log));
        }
        let program = l.program;
        for s in l.shaders {
            gl.detach_shader(program, s);
            gl.delete_shader(s);
        }
        let mut uniforms = HashMap::new();
        for i in 0..gl.get_active_uniforms(program) {
            if let Some(u) = gl.get_active_uniform(program, i) {
                if let Some(loc) = gl.get_uniform_location(program, &u.name) {
                    uniforms.insert(u.name, loc);
                }
            }
        }
        Ok(Program { program, uniforms })
    }
}

fn discard(gl: &glow::Context, l: Linking) {
    // SAFETY: the context is current; the objects are the linking program's.
    unsafe {
        for s in l.shaders {
            gl.detach_shader(l.program, s);
            gl.delete_shader(s);
        }
        gl.delete_program(l.program);
    }
}

fn failed(name: &str, what: &str, log: String) -> Error {
    Error::new(Status::ExecutionFailed, format!("{name}: {what}: {log}"))
}
