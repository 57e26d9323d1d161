//! GL failing part-way through a call, for every routine in every precision through its CBLAS
//! and Fortran names: the CPU BLAS answers instead, from outputs the undo snapshot put back, so
//! that the caller gets the reference BLAS's result. Calls are drawn as in
//! `fuzz_described.rs`, from the routines' descriptions, valid and with host operands (the CPU
//! BLAS cannot read device memory; the ILP64 names have no CPU BLAS here to answer them); one
//! of the call's first three kernel launches fails (`engine::fault`, as a lost context). The CPU
//! BLAS is the reference BLAS (Debian's netlib build), and each result must equal the same call
//! on the reference, made on copies of the operands: with the data's small integers, exactly.
//! The trace shows that GL failed and the CPU BLAS answered, at least once per routine and
//! interface (a call of fewer launches than the one that fails runs on GL, and is checked
//! alike). One test: the environment is read once per process.

mod common;
mod described;

use std::collections::BTreeMap;

use common::{reference_path, take_trace, trace_to_file, Place, Rng};
use described::cases::{reference, Case, Iface};
use described::EXPORTS;
use glblas::engine::fault::{self, Fault};

/// Valid cases per routine, precision and interface.
const CASES_PER_EXPORT: usize = 6;

#[test]
fn a_failing_gl_run_is_answered_by_the_cpu_blas_as_the_reference_answers() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_CPU_BLAS", reference_path());
    let trace = trace_to_file("fault-described");
    let lib = reference();
    let supported = described::cases::supported;
    let mut r = Rng(0xfa17_d35c);
    for x in EXPORTS.iter().filter(|x| supported(x.letter)) {
        for f in [Iface::Cblas, Iface::Fortran] {
            let mut valid = 0;
            while valid < CASES_PER_EXPORT {
                let c = Case::draw(&mut r, x, f, &[Place::Host]);
                // An operand too large for host memory is made a device one (past its end).
                let on_host = c.stores.iter().flatten().all(|s| s.place == Place::Host);
                if c.fault.is_some() || c.quick || !on_host {
                    continue;
                }
                valid += 1;
                // Each routine's first case fails at its first launch, which every call makes.
                let nth = if valid == 1 { 1 } else { 1 + r.below(3) as u64 };
                fault::fail_next(Fault::Launch, nth);
                let got = c.on_glblas();
                fault::clear();
                c.assert_as_reference(got, lib);
            }
        }
    }
    let (lines, text) = take_trace(&trace);
    let mut answered: BTreeMap<&str, usize> = BTreeMap::new();
    for line in &lines {
        let name = line.split_whitespace().nth(1).unwrap_or("");
        if line.contains("route=cpu reason=gl-failed") {
            *answered.entry(name).or_default() += 1;
        }
    }
    for x in EXPORTS.iter().filter(|x| supported(x.letter)) {
        for symbol in [x.symbols[1], x.symbols[2]] {
            assert!(
                answered.contains_key(symbol),
                "no call of {symbol} failed on GL and was answered by the CPU BLAS:\n{text}"
            );
        }
    }
}
