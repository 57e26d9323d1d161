//! Observability of the BLAS-compatible calls. `GLBLAS_TRACE=1` writes one line per call to
//! stderr, `GLBLAS_TRACE=/path` appends it to that file; `GLBLAS_PROFILE=1` prints a table per
//! routine at process exit. Without them nothing is printed and a call costs one check.

use std::fs::{File, OpenOptions};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::Duration;

use once_cell::sync::OnceCell;

use super::call::Call;
use super::routine::Routine;
use super::symbol::Symbol;
use crate::unlocked_io;

/// Where a call was answered, and why.
#[derive(Clone, Copy, Debug)]
pub enum Outcome {
    Gl(&'static str),
    Cpu(&'static str),
    /// Invalid argument: the parameter number reported to the error handler.
    Error(i32),
    /// One of the reference's quick returns: nothing to compute, no operand touched.
    Quick,
    /// Nothing could answer (GL failed and there was no CPU BLAS to fall back to).
    Unanswered(&'static str),
}

/// Where trace lines go. Written without a lock (see `unlocked_io`): one write per line.
enum Sink {
    Stderr,
    File(File),
}

fn sink() -> Option<&'static Sink> {
    static SINK: OnceCell<Option<Sink>> = OnceCell::new();
    SINK.get_or_init(|| match std::env::var_os("GLBLAS_TRACE") {
        None => None,
        Some(v) if v.is_empty() || v == "0" => None,
        Some(v) if v == "1" => Some(Sink::Stderr),
        Some(path) => OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
            .map(Sink::File),
    })
    .as_ref()
}

fn profiling() -> bool {
    static ON: OnceCell<bool> = OnceCell::new();
    *ON.get_or_init(|| {
        std::env::var_os("GLBLAS_PROFILE").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

/// Whether calls need timing at all.
pub fn enabled() -> bool {
    sink().is_some() || profiling()
}

/// Records a finished call.
pub fn record(sym: &Symbol, call: &Call, outcome: Outcome, elapsed: Duration) {
    if let Some(sink) = sink() {
        let (route, reason) = match outcome {
            Outcome::Gl(r) => ("gl", r.to_owned()),
            Outcome::Cpu(r) => ("cpu", r.to_owned()),
            Outcome::Error(info) => ("error", format!("param-{info}")),
            Outcome::Quick => ("none", "quick-return".to_owned()),
            Outcome::Unanswered(r) => ("none", r.to_owned()),
        };
        // One write per line, so lines from several threads never interleave.
        let line = format!(
            "glblas-trace: {} {call} route={route} reason={reason} us={}\n",
            sym.name(),
            elapsed.as_micros()
        );
        match sink {
            Sink::Stderr => unlocked_io::to_stderr(&line),
            Sink::File(f) => unlocked_io::write_fd(f.as_raw_fd(), line.as_bytes()),
        }
    }
    if profiling() {
        profile(sym.routine, call.flops(), outcome, elapsed);
    }
}

struct Counters {
    calls: AtomicU64,
    gl: AtomicU64,
    cpu: AtomicU64,
    quick: AtomicU64,
    nanos: AtomicU64,
    flops: AtomicU64,
}

static COUNTERS: [Counters; Routine::ALL.len()] = [const {
    Counters {
        calls: AtomicU64::new(0),
        gl: AtomicU64::new(0),
        cpu: AtomicU64::new(0),
        quick: AtomicU64::new(0),
        nanos: AtomicU64::new(0),
        flops: AtomicU64::new(0),
    }
}; Routine::ALL.len()];

fn profile(routine: Routine, flops: u64, outcome: Outcome, elapsed: Duration) {
    static AT_EXIT: Once = Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: registers a function that lives as long as the process (glblas is never
        // unloaded while its symbols interpose).
        unsafe { libc::atexit(print_profile) };
    });
    let c = &COUNTERS[routine as usize];
    c.calls.fetch_add(1, Ordering::Relaxed);
    match outcome {
        Outcome::Gl(_) => c.gl.fetch_add(1, Ordering::Relaxed),
        Outcome::Cpu(_) => c.cpu.fetch_add(1, Ordering::Relaxed),
        Outcome::Quick => c.quick.fetch_add(1, Ordering::Relaxed),
        Outcome::Error(_) | Outcome::Unanswered(_) => 0,
    };
    c.nanos
        .fetch_add(elapsed.as_nanos() as u64, Ordering::Relaxed);
    // Neither an error nor a quick return computes anything (gemm with alpha = 0 would count).
    if !matches!(outcome, Outcome::Error(_) | Outcome::Quick) {
        c.flops.fetch_add(flops, Ordering::Relaxed);
    }
}

extern "C" fn print_profile() {
    let mut table = String::from(
        "glblas profile:\nroutine      calls       gl      cpu    quick    time_ms    GFLOP/s\n",
    );
    for r in Routine::ALL {
        let c = &COUNTERS[r as usize];
        let calls = c.calls.load(Ordering::Relaxed);
        if calls == 0 {
            continue;
        }
        let nanos = c.nanos.load(Ordering::Relaxed);
        let gflops = if nanos > 0 {
            c.flops.load(Ordering::Relaxed) as f64 / nanos as f64
        } else {
            0.0
        };
        table += &format!(
            "{:<8} {:>9} {:>8} {:>8} {:>8} {:>10.3} {:>10.2}\n",
            r.name(),
            calls,
            c.gl.load(Ordering::Relaxed),
            c.cpu.load(Ordering::Relaxed),
            c.quick.load(Ordering::Relaxed),
            nanos as f64 / 1e6,
            gflops
        );
    }
    unlocked_io::to_stderr(&table);
}
