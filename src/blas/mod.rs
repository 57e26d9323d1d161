//! The BLAS-compatible symbols, for programs that call BLAS unchanged (linked, or with glblas
//! in `LD_PRELOAD`): CBLAS and the ILP64 names numpy's wheels call (`cblas.rs`), Fortran 77,
//! also under the names of the OpenBLAS builds pip's scipy and numpy bundle (`fortran.rs`).
//! Unlike the glblas API they never return a status: they behave as the reference BLAS does, and
//! each call is answered by GL or by the CPU BLAS.
//!
//! - `call.rs`: a call in one common form, and the trait (`Describe`) each routine is
//!   described by once: reference argument checks, quick returns, flops, operand uses, GL
//!   execution.
//! - `level1.rs`, `level2.rs`, `level3.rs`: the routines' descriptions.
//! - `route.rs`: GL or CPU (`GLBLAS_BACKEND`, thresholds).
//! - `cblas.rs`, `fortran.rs`, `routine.rs`, `args.rs`: the symbols, the routines' names and
//!   the call of any routine, written by `scripts/generate.py` from its routine table.
//! - `cpu.rs`: finding the CPU BLAS's definition of a symbol.
//! - `xerbla.rs`: error exits.
//! - `trace.rs`: `GLBLAS_TRACE` and `GLBLAS_PROFILE`.
//! - `undo.rs`: putting back outputs a failed GL attempt partly updated.
//! - `fpflags.rs`: the floating-point exceptions a GL computation could not raise.
//! - `region.rs`: the elements of a host operand, for both.
//!
//! Every export goes through [`dispatch`]: check (error exit), the reference's quick returns
//! (`crate::quick`: nothing routed, touched or forwarded), route, run; when GL fails the CPU
//! BLAS answers instead, and a warning is printed once.

use std::cell::Cell;
use std::ffi::{c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use once_cell::sync::OnceCell;

use crate::engine::element::Scalar;
use crate::engine::fault;
use crate::status::{Cause, Error, Status};
use call::{Call, Value};
use route::Route;
use routine::Routine;
use trace::Outcome;
use undo::Snapshot;

pub mod args;
pub mod call;
pub mod cpu;
mod fpflags;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod region;
pub mod route;
pub mod routine;
pub mod trace;
pub mod undo;
pub mod xerbla;

/// Which interface a symbol belongs to: it decides the error handler and how names are shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Family {
    Cblas,
    /// CBLAS with 64-bit integers, under the names numpy's wheels use.
    Ilp64,
    /// Fortran 77 names, `<prefix><routine>_<suffix>`: the plain ones, and those of the wheels'
    /// OpenBLAS builds (`fortran.rs`). The error handler is spelled alike, and its INFO has the
    /// routines' integer width.
    Fortran {
        prefix: &'static str,
        suffix: &'static str,
        int64: bool,
    },
}

/// One exported symbol: its name, routine and family, and its CPU BLAS definition once found.
pub struct Symbol {
    /// NUL-terminated.
    name: &'static str,
    pub routine: Routine,
    pub family: Family,
    cpu: OnceCell<usize>,
}

impl Symbol {
    pub const fn new(name: &'static str, routine: Routine, family: Family) -> Symbol {
        Symbol {
            name,
            routine,
            family,
            cpu: OnceCell::new(),
        }
    }

    pub fn name(&self) -> &str {
        self.name.trim_end_matches('\0')
    }

    /// The CPU BLAS's function of the same name, looked up on first use.
    fn cpu(&self) -> Option<*const c_void> {
        let addr = *self.cpu.get_or_init(|| {
            CStr::from_bytes_with_nul(self.name.as_bytes())
                .ok()
                .and_then(cpu::resolve)
                .map_or(0, |p| p as usize)
        });
        (addr != 0).then_some(addr as *const c_void)
    }
}

/// A symbol's return value: nothing, the result of dot, asum and nrm2 (`Call::run_gl` and
/// `Call::quick_return` give it in double, exactly the float of the `s` routines; complex for
/// cdotu and the like), or the index of i?amax.
pub trait Answer: Default {
    fn from_value(value: Value) -> Self;
}

impl Answer for () {
    fn from_value(_: Value) {}
}

/// A real (its real part) or a complex value, rounded to its type.
impl<T: Scalar> Answer for T {
    fn from_value(value: Value) -> T {
        T::from_f64_parts(value.f64_parts())
    }
}

/// Fortran i?amax's result: the 1-based index.
impl Answer for std::ffi::c_int {
    fn from_value(value: Value) -> std::ffi::c_int {
        value.re as std::ffi::c_int
    }
}

/// The same for the ILP64 Fortran names.
impl Answer for i64 {
    fn from_value(value: Value) -> i64 {
        value.re as i64
    }
}

/// CBLAS's `CBLAS_INDEX` (`size_t`), which cblas_i?amax returns: the 0-based index, 0 also for
/// no elements (the reference CBLAS returns the Fortran index less one, or 0).
#[repr(transparent)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct CblasIndex(pub usize);

impl Answer for CblasIndex {
    fn from_value(value: Value) -> CblasIndex {
        CblasIndex((value.re as usize).saturating_sub(1))
    }
}

/// What a call has done so far, for the answer to a panic: whether outputs may have been
/// written (by GL, by putting saved values back, or by the CPU BLAS), and the value once known.
struct Progress<R> {
    call: Cell<Option<Call>>,
    touched: Cell<bool>,
    value: Cell<Option<R>>,
    outcome: Cell<Option<Outcome>>,
}

/// Answers one call to `sym`: `call` builds its [`Call`] from the arguments, and `forward` calls
/// the CPU BLAS's definition with the caller's own arguments. The whole answer runs inside the
/// panic guard: checks, routing (which may create the GL context), the undo snapshot, the GL
/// run and the trace.
pub fn dispatch<R: Answer + Copy>(
    sym: &'static Symbol,
    call: impl FnOnce() -> Call,
    forward: impl FnOnce(*const c_void) -> R,
) -> R {
    let progress = Progress {
        call: Cell::new(None),
        touched: Cell::new(false),
        value: Cell::new(None),
        outcome: Cell::new(None),
    };
    let mut forward = Some(forward);
    let start = Instant::now();
    let answered = catch_unwind(AssertUnwindSafe(|| {
        let call = call();
        progress.call.set(Some(call));
        fault::panic_point("checking");
        let (value, outcome) = answer(sym, &call, &mut forward, &progress);
        progress.value.set(Some(value));
        progress.outcome.set(Some(outcome));
        if trace::enabled() {
            fault::panic_point("the trace");
            trace::record(sym, &call, outcome, start.elapsed());
        }
        value
    }));
    answered.unwrap_or_else(|_| after_panic(sym, &progress, forward, start))
}

/// The answer to a call that panicked outside its GL run: its value if it had one; else, when
/// no output was touched and every operand is in host memory, the CPU BLAS's. Nothing here may
/// panic out: each step that could is guarded again.
fn after_panic<R: Answer + Copy>(
    sym: &'static Symbol,
    progress: &Progress<R>,
    forward: Option<impl FnOnce(*const c_void) -> R>,
    start: Instant,
) -> R {
    let guarded = |f: &dyn Fn() -> bool| catch_unwind(AssertUnwindSafe(f)).unwrap_or(false);
    let call = progress.call.get();
    let trace = |outcome| {
        guarded(&|| {
            if let (Some(call), true) = (call, trace::enabled()) {
                trace::record(sym, &call, outcome, start.elapsed());
            }
            true
        })
    };
    if let Some(value) = progress.value.get() {
        // Answered before the panic: the value stands, and the trace says how it was found.
        if let Some(outcome) = progress.outcome.get() {
            trace(outcome);
        }
        return value;
    }
    let host_only =
        call.is_some_and(|call| guarded(&|| !call.as_addressed().touches_device_memory()));
    let cpu = catch_unwind(AssertUnwindSafe(|| sym.cpu())).ok().flatten();
    let answer = match (cpu, forward) {
        (Some(f), Some(forward)) if host_only && !progress.touched.get() => Some(forward(f)),
        _ => None,
    };
    guarded(&|| {
        warn_of_panic(sym, answer.is_some());
        true
    });
    trace(match answer {
        Some(_) => Outcome::Cpu("panic"),
        None => Outcome::Unanswered("panic"),
    });
    answer.unwrap_or_default()
}

/// The CPU BLAS's answer: once only, and the call's outputs are then touched.
fn on_cpu<R: Answer + Copy>(
    f: *const c_void,
    forward: &mut Option<impl FnOnce(*const c_void) -> R>,
    progress: &Progress<R>,
) -> R {
    progress.touched.set(true);
    forward.take().map_or_else(R::default, |forward| forward(f))
}

fn answer<R: Answer + Copy>(
    sym: &Symbol,
    call: &Call,
    forward: &mut Option<impl FnOnce(*const c_void) -> R>,
    progress: &Progress<R>,
) -> (R, Outcome) {
    if let Err(fault) = call.check() {
        xerbla::report(sym, &fault, call);
        return (R::default(), Outcome::Error(fault.info));
    }
    let call = &call.as_addressed();
    if let Some(value) = call.quick_return() {
        return (R::from_value(value), Outcome::Quick);
    }
    let cpu = sym.cpu();
    // Described once, for the device check, the undo snapshot and the flags.
    let operands = call.operands();
    let on_device = call::on_device(&operands);
    fault::panic_point("routing");
    let route = route::decide(call, on_device, cpu.is_some());
    let failure = match (route, cpu) {
        (Route::Cpu(reason), Some(f)) => {
            return (on_cpu(f, forward, progress), Outcome::Cpu(reason))
        }
        (Route::GlUnavailable, _) => Error::new(Status::NotInitialized, "no GL device"),
        (Route::Gl(reason) | Route::GlIfReady(reason), _) | (Route::Cpu(reason), None) => {
            // SAFETY: host operands, valid for the checked call (the CPU BLAS would read them
            // too; without one, GL may refuse a NULL operand, which must not be read here).
            fault::panic_point("the undo snapshot");
            let saved = (cpu.is_some() && !on_device).then(|| unsafe { Snapshot::take(&operands) });
            progress.touched.set(true);
            // SAFETY: the call passed the reference checks; operands are the caller's.
            let run = || catch_unwind(AssertUnwindSafe(|| unsafe { call.run_gl() }));
            let ran = match route {
                Route::GlIfReady(_) => crate::engine::programs::unless_compiling(run),
                _ => run(),
            }
            .unwrap_or_else(|_| Err(Error::new(Status::ExecutionFailed, "panic in a GL kernel")));
            match ran {
                Ok(v) => {
                    progress.value.set(Some(R::from_value(v)));
                    progress.outcome.set(Some(Outcome::Gl(reason)));
                    fault::panic_point("after the GL run");
                    if !on_device {
                        // SAFETY: the same call's host operands, which GL has just used.
                        unsafe { fpflags::raise(call, &operands, v, saved.as_ref()) };
                    }
                    return (R::from_value(v), Outcome::Gl(reason));
                }
                Err(e) => {
                    if let Some(saved) = &saved {
                        // SAFETY: the same call's operands.
                        unsafe { saved.restore() };
                    }
                    e
                }
            }
        }
    };
    crate::engine::debug_log(&failure);
    let has_cpu = cpu.is_some();
    // The CPU cannot read device memory, and the caller's refused operand (a NULL or freed
    // pointer, an extent past the end of memory) would crash it.
    let cpu = cpu.filter(|_| !on_device && failure.cause != Cause::Caller);
    let (warn, reason) = match failure.cause {
        Cause::Device => (true, "gl-failed"),
        // Quiet when the CPU BLAS answers as it would have without glblas.
        Cause::Declined(reason) => (cpu.is_none(), reason),
        Cause::Caller => (false, "refused"),
    };
    if warn {
        warn_once(&failure, has_cpu);
    }
    match cpu {
        Some(f) => (on_cpu(f, forward, progress), Outcome::Cpu(reason)),
        None => (R::default(), Outcome::Unanswered(reason)),
    }
}

/// Prints `line()` on stderr the first time `warned` is asked.
fn warn_once_of(warned: &AtomicBool, line: impl FnOnce() -> String) {
    if !warned.swap(true, Ordering::Relaxed) {
        crate::unlocked_io::to_stderr(&line());
    }
}

/// The one line a panic prints, once per process: a bug in glblas, which the program survives.
fn warn_of_panic(sym: &Symbol, answered: bool) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let then = if answered {
        "the CPU BLAS answered it"
    } else {
        "it was left unanswered"
    };
    warn_once_of(&WARNED, || {
        format!(
            "glblas: warning: {} panicked (a glblas bug); {then}\n",
            sym.name()
        )
    });
}

/// The one line a failing GL device prints, once per process.
fn warn_once(e: &Error, has_cpu: bool) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let then = if has_cpu {
        "BLAS calls it cannot run are answered by the CPU BLAS"
    } else {
        "there is no CPU BLAS to answer them instead"
    };
    warn_once_of(&WARNED, || {
        format!(
            "glblas: warning: GL failed ({:?}: {}); {then}\n",
            e.status, e.detail
        )
    });
}

/// Defines one exported BLAS-compatible function: `$call` builds its [`Call`] from the
/// arguments, and the CPU BLAS's function of the same name and signature receives them
/// unchanged. Its symbol is `$name`, or `$name` between a prefix and a suffix.
macro_rules! export {
    ($family:ident, $($rest:tt)*) => {
        export!(["", ""] $crate::blas::Family::$family, $($rest)*);
    };
    ([$prefix:literal, $suffix:literal] $family:expr, $routine:ident,
     fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $call:expr) => {
        export!(@symbol [$prefix, $suffix] $family, $routine,
                fn $name($($arg: $ty),*) $(-> $ret)?, |symbol| {
            type CpuFn = unsafe extern "C" fn($($ty),*) $(-> $ret)?;
            $crate::blas::dispatch(symbol, || $call, |f| {
                // SAFETY: `f` is the CPU BLAS's definition of this very symbol.
                let f: CpuFn = unsafe { std::mem::transmute(f) };
                unsafe { f($($arg),*) }
            })
        });
    };
    // A value returned through the last argument, `$out` (CBLAS's `cblas_cdotu_sub`).
    ([$prefix:literal, $suffix:literal] $family:expr, $routine:ident,
     fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $out:ident = $call:expr) => {
        export!(@symbol [$prefix, $suffix] $family, $routine, fn $name($($arg: $ty),*), |symbol| {
            type CpuFn = unsafe extern "C" fn($($ty),*);
            let value = $crate::blas::dispatch(symbol, || $call, |f| {
                // SAFETY: `f` is the CPU BLAS's definition of this very symbol, which writes
                // the value to `$out`.
                let f: CpuFn = unsafe { std::mem::transmute(f) };
                unsafe {
                    f($($arg),*);
                    $out.read()
                }
            });
            if !$out.is_null() {
                // SAFETY: where the caller asked for the value.
                unsafe { $out.write(value) };
            }
        });
    };
    // The function itself, its `Symbol` bound to `$symbol` in `$body`.
    (@symbol [$prefix:literal, $suffix:literal] $family:expr, $routine:ident,
     fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?, |$symbol:ident| $body:block) => {
        /// # Safety
        /// The arguments must be valid for the BLAS routine of this name.
        #[export_name = concat!($prefix, stringify!($name), $suffix)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            static SYMBOL: $crate::blas::Symbol = $crate::blas::Symbol::new(
                concat!($prefix, stringify!($name), $suffix, "\0"),
                $crate::blas::routine::Routine::$routine,
                $family,
            );
            let $symbol = &SYMBOL;
            $body
        }
    };
}

pub mod cblas;
pub mod fortran;
