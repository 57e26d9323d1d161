//! glblas: BLAS whose kernels run as OpenGL shaders on a headless EGL context, as a C library.
//!
//! - [`api`]: the exported C functions (thin: argument checks, pointer resolution, status).
//! - [`blas`]: the BLAS-compatible symbols (CBLAS, Fortran, ILP64), routed to GL or the CPU BLAS.
//! - [`routines`]: the routines on the engine, shared by both C surfaces.
//! - [`quick`]: the reference BLAS's quick returns, taken by both C surfaces.
//! - [`ffi`]: the C boundary's machinery (panic guard, enum arguments, checks).
//! - [`status`]: status codes and the error type.
//! - [`unlocked_io`]: diagnostics written without locks, so that they are safe across fork().
//! - [`engine`]: the GL side: context, device memory, operands, programs, render targets.
//! - [`kernels`]: the operations, each choosing its launches and owning its shaders.
//! - [`warm`]: every shader variant compiled ahead, for the driver's disk cache.
//! - [`tuner`]: the kernels' parameters searched on the device, for its tuning table.

pub mod api;
pub mod blas;
pub mod engine;
pub mod ffi;
pub mod kernels;
pub mod quick;
pub mod routines;
pub mod status;
pub mod tuner;
pub mod unlocked_io;
pub mod warm;
