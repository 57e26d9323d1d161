//! glblas: BLAS whose kernels run as OpenGL shaders on a headless EGL context, as a C library.
//!
//! - [`api`]: the exported C functions (thin: argument checks, pointer resolution, status).
//! - [`ffi`]: the C boundary's machinery (panic guard, enum arguments, checks).
//! - [`status`]: status codes and the error type.
//! - [`engine`]: the GL side: context, device memory, operands, programs, render targets.
//! - [`kernels`]: the operations, each choosing its launches and owning its shaders.

pub mod api;
pub mod engine;
pub mod ffi;
pub mod kernels;
pub mod status;
