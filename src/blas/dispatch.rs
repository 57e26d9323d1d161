//! How a BLAS-compatible symbol answers a call. Every export ([`export!`]) goes through
//! [`dispatch`]: check (error exit), the reference's quick returns (`crate::quick`: nothing
//! routed, touched or forwarded), route, run; when GL fails the CPU BLAS answers instead, and a
//! warning is printed once.

use std::cell::Cell;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::abi::Answer;
use super::call::Call;
use super::describe;
use super::fpflags;
use super::route::{self, Route};
use super::symbol::Symbol;
use super::trace::{self, Outcome};
use super::undo::Snapshot;
use super::verify;
use super::xerbla;
use crate::engine::fault;
use crate::status::{Cause, Error, Status};

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
    let on_device = describe::on_device(&operands);
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
            // Checked before it is handed back where GLBLAS_VERIFY asks (`verify`), which puts
            // the outputs back itself where no CPU BLAS will overwrite them.
            let run = || {
                catch_unwind(AssertUnwindSafe(|| unsafe {
                    let restore = saved.is_none();
                    verify::run(
                        &operands,
                        restore,
                        |to| call.checksums(to),
                        || call.run_gl(),
                    )
                }))
            };
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
        Cause::Unverified => (true, "verify-failed"),
        Cause::Lost => (true, "device-lost"),
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

/// The one line a panic prints, once per process: a bug in glblas, which the program survives.
fn warn_of_panic(sym: &Symbol, answered: bool) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    let then = if answered {
        "the CPU BLAS answered it"
    } else {
        "it was left unanswered"
    };
    crate::unlocked_io::warn_once(&WARNED, || {
        format!(
            "glblas: warning: {} panicked (a glblas bug); {then}\n",
            sym.name()
        )
    });
}

/// The one line a failing GL device prints, once per process; the one a result that failed
/// its check prints, once; and the one a device reset prints, once.
fn warn_once(e: &Error, has_cpu: bool) {
    static WARNED: AtomicBool = AtomicBool::new(false);
    static WARNED_UNVERIFIED: AtomicBool = AtomicBool::new(false);
    static WARNED_LOST: AtomicBool = AtomicBool::new(false);
    let (warned, what, then) = match e.cause {
        Cause::Unverified => (
            &WARNED_UNVERIFIED,
            format!("a GL call was wrong: {}", e.detail),
            [
                "the CPU BLAS answers such calls",
                "there is no CPU BLAS to answer such calls",
            ],
        ),
        Cause::Lost => (
            &WARNED_LOST,
            e.detail.clone(),
            [
                "the CPU BLAS answered the call, and later calls make a new context",
                "there is no CPU BLAS to answer the call; later calls make a new context",
            ],
        ),
        _ => (
            &WARNED,
            format!("GL failed ({:?}: {})", e.status, e.detail),
            [
                "BLAS calls it cannot run are answered by the CPU BLAS",
                "there is no CPU BLAS to answer them instead",
            ],
        ),
    };
    let then = then[usize::from(!has_cpu)];
    crate::unlocked_io::warn_once(warned, || format!("glblas: warning: {what}; {then}\n"));
}

/// Defines one exported BLAS-compatible function: `$call` builds its [`Call`] from the
/// arguments, and the CPU BLAS's function of the same name and signature receives them
/// unchanged. Its symbol is `$name`, or `$name` between a prefix and a suffix.
macro_rules! export {
    ($family:ident, $($rest:tt)*) => {
        export!(["", ""] $crate::blas::symbol::Family::$family, $($rest)*);
    };
    ([$prefix:literal, $suffix:literal] $family:expr, $routine:ident,
     fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? = $call:expr) => {
        export!(@symbol [$prefix, $suffix] $family, $routine,
                fn $name($($arg: $ty),*) $(-> $ret)?, |symbol| {
            type CpuFn = unsafe extern "C" fn($($ty),*) $(-> $ret)?;
            $crate::blas::dispatch::dispatch(symbol, || $call, |f| {
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
            let value = $crate::blas::dispatch::dispatch(symbol, || $call, |f| {
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
            static SYMBOL: $crate::blas::symbol::Symbol = $crate::blas::symbol::Symbol::new(
                concat!($prefix, stringify!($name), $suffix, "\0"),
                $crate::blas::routine::Routine::$routine,
                $family,
            );
            let $symbol = &SYMBOL;
            $body
        }
    };
}
pub(crate) use export;
