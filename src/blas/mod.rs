//! The BLAS-compatible symbols, for programs that call BLAS unchanged (linked, or with glblas
//! in `LD_PRELOAD`): CBLAS and the ILP64 names numpy's wheels call (`cblas.rs`), Fortran 77,
//! also under the names of the OpenBLAS builds pip's scipy and numpy bundle (`fortran.rs`).
//! Unlike the glblas API they never return a status: they behave as the reference BLAS does, and
//! each call is answered by GL or by the CPU BLAS.
//!
//! The modules in layers, bottom to top; each imports only from the layers below it and from
//! modules listed before it in its own layer. `scripts/generate.py` writes `routine.rs`,
//! `args.rs`, `cblas.rs` and `fortran.rs` from its routine table.
//!
//! 1. Values: `options` (layout, trans, side, uplo and diag as the caller gave them), `region`
//!    (the elements of a host operand), `increments` (increments whose byte stride wraps),
//!    `routine` (the routines' names), `cpu` (finding the CPU BLAS's definition of a symbol),
//!    `checksums` (products of host operands with a probe vector, and the bound on a result's).
//! 2. Descriptions: `checks` (what a failing reference argument check reports), `describe` (the
//!    trait each routine is described by once: checks, quick returns, flops, operand uses, GL
//!    execution).
//! 3. Rules per level: `level1`, `level2`, `level3` (each routine's arguments and description).
//! 4. The call: `args` (a call of any routine, one variant per description), `call` (a call in
//!    any precision, with its description's methods).
//! 5. Around a call: `symbol` (an export's name, routine, family and CPU definition), `abi`
//!    (CBLAS scalars and the symbols' return values), `route` (GL or CPU: `GLBLAS_BACKEND`,
//!    thresholds), `undo` (putting back outputs a failed GL attempt partly updated), `fpflags`
//!    (the floating-point exceptions a GL computation could not raise), `mirror` (host copies of
//!    a call's device operands, for the check), `verify`
//!    (`GLBLAS_VERIFY`: a GL result checked by its checksums before it is handed back), `trace`
//!    (`GLBLAS_TRACE`, `GLBLAS_PROFILE`), `xerbla` (error exits).
//! 6. `dispatch`: how every export answers a call (`export!` defines them).
//! 7. The symbols: `cblas`, `fortran`.

pub mod abi;
pub mod args;
pub mod call;
pub mod checks;
pub mod checksums;
pub mod cpu;
pub mod describe;
pub mod dispatch;
mod fpflags;
mod increments;
pub mod level1;
pub mod level2;
pub mod level3;
mod mirror;
pub mod options;
pub mod region;
pub mod route;
pub mod routine;
pub mod symbol;
pub mod trace;
pub mod undo;
pub mod verify;
pub mod xerbla;

pub mod cblas;
pub mod fortran;
