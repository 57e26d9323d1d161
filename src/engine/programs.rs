//! Shader programs: sources assembled from `shaders/` plus `#define`s, compiled once, cached.

use std::collections::HashMap;
use std::sync::Arc;

use glow::HasContext;

use super::element::Real;
use crate::status::{Error, Result, Status};

/// The vertex stage every fragment kernel shares: one triangle covering the viewport.
const FULLSCREEN_VERT: &str = include_str!("../../shaders/fullscreen.vert");
/// Helpers every fragment kernel includes: operand fetches and the output index mapping.
const COMMON: &str = include_str!("../../shaders/common.glsl");
/// What every compute kernel includes: uniforms no driver may compile into a shader variant.
const COMPUTE_COMMON: &str = include_str!("../../shaders/compute.glsl");
/// The element type of a compute kernel: `REAL` and its texel access (see `element.rs`).
const REAL: &str = include_str!("../../shaders/real.glsl");

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

    /// Sets a `REAL_UNIFORM` of `shaders/real.glsl`.
    pub fn set_real<T: Real>(&self, gl: &glow::Context, name: &str, v: T) {
        // SAFETY: as above.
        unsafe { T::set_uniform(gl, self.uniforms.get(name), v) }
    }
}

#[derive(Default)]
pub struct Programs {
    cache: HashMap<(&'static str, String), Arc<Program>>,
}

impl Programs {
    /// Returns the program for fragment source `frag` (a file of `shaders/`, named `name`) with
    /// `defines`, compiling it on first use, and binds it.
    pub fn use_program(
        &mut self,
        gl: &glow::Context,
        gles: bool,
        name: &'static str,
        frag: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        self.use_stages(gl, name, defines, |defines| {
            vec![
                (
                    glow::VERTEX_SHADER,
                    format!("{}{FULLSCREEN_VERT}", header(gles)),
                ),
                (
                    glow::FRAGMENT_SHADER,
                    format!("{}{defines}{COMMON}{frag}", header(gles)),
                ),
            ]
        })
    }

    /// Returns the compute program for source `comp` (desktop GL 4.3), compiling it on first
    /// use, and binds it.
    pub fn use_compute(
        &mut self,
        gl: &glow::Context,
        name: &'static str,
        comp: &'static str,
        defines: &[(&str, String)],
    ) -> Result<Arc<Program>> {
        self.use_stages(gl, name, defines, |defines| {
            vec![(
                glow::COMPUTE_SHADER,
                format!("#version 430 core\n{defines}{COMPUTE_COMMON}{REAL}{comp}"),
            )]
        })
    }

    fn use_stages(
        &mut self,
        gl: &glow::Context,
        name: &'static str,
        defines: &[(&str, String)],
        stages: impl FnOnce(&str) -> Vec<(u32, String)>,
    ) -> Result<Arc<Program>> {
        let key_defines: String = defines
            .iter()
            .map(|(k, v)| format!("#define {k} {v}\n"))
            .collect();
        let key = (name, key_defines);
        if !self.cache.contains_key(&key) {
            let program = compile(gl, name, stages(&key.1))?;
            // The compiler may have set up static data whose destructors exit runs before
            // handlers registered earlier.
            super::exit::register();
            self.cache.insert(key.clone(), Arc::new(program));
        }
        let p = Arc::clone(&self.cache[&key]);
        // SAFETY: the program is a live, linked program of the current context.
        unsafe { gl.use_program(Some(p.program)) };
        Ok(p)
    }

    pub fn delete_all(&mut self, gl: &glow::Context) {
        for (_, p) in self.cache.drain() {
            // SAFETY: the context is current; the program belongs to it.
            unsafe { gl.delete_program(p.program) };
        }
    }
}

fn header(gles: bool) -> &'static str {
    if gles {
        "#version 320 es\nprecision highp float;\nprecision highp int;\nprecision highp samplerBuffer;\nprecision highp sampler2D;\n"
    } else {
        "#version 330 core\n"
    }
}

fn compile(gl: &glow::Context, name: &str, stages: Vec<(u32, String)>) -> Result<Program> {
    let fail = |what: &str, log: String| {
        Error::new(Status::ExecutionFailed, format!("{name}: {what}: {log}"))
    };
    // SAFETY: the context is current; every object created here is deleted on failure.
    unsafe {
        let program = gl.create_program().map_err(|e| fail("create program", e))?;
        let mut shaders = Vec::new();
        let mut error = None;
        for (stage, source) in stages {
            match gl.create_shader(stage) {
                Ok(s) => {
                    gl.shader_source(s, &source);
                    gl.compile_shader(s);
                    if !gl.get_shader_compile_status(s) {
                        error = Some(fail("compile", gl.get_shader_info_log(s)));
                    }
                    gl.attach_shader(program, s);
                    shaders.push(s);
                }
                Err(e) => error = Some(fail("create shader", e)),
            }
        }
        if error.is_none() {
            gl.link_program(program);
            if !gl.get_program_link_status(program) {
                error = Some(fail("link", gl.get_program_info_log(program)));
            }
        }
        for s in shaders {
            gl.detach_shader(program, s);
            gl.delete_shader(s);
        }
        if let Some(e) = error {
            gl.delete_program(program);
            return Err(e);
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
