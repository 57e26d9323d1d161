//! Randomized arguments for every routine in every precision through each of its exports (the
//! glblas API, CBLAS in both layouts and invalid ones, Fortran with any character, ILP64 CBLAS
//! with sizes beyond 32 bits), with the oracle taken from the routine's own description
//! (`blas::describe::Describe`) rather than from a second copy of the rules: the exports and their
//! callers are generated from the routine table (`tests/described/`), and each caller gives
//! the description its symbol builds from the same arguments. The description says:
//!
//! - whether the arguments are invalid, and the parameter number the error report carries (the
//!   API answers INVALID_VALUE);
//! - whether the call is a quick return;
//! - each operand's elements (its region: a vector's, a matrix's within its leading dimension,
//!   or a triangle's) and whether the call reads or writes them.
//!
//! From it the test lays out each operand: data inside its region, NaN everywhere else (the
//! padding between columns, the triangle not referenced, between a vector's elements) and in
//! every operand the call must not read (an output not read first, such as C with beta = 0; A
//! and B with alpha = 0), with guard elements on both sides; in host memory, in device memory,
//! or as a pointer the call cannot use (NULL, freed, misaligned, past the end of its
//! allocation). Then:
//!
//! - invalid arguments: one error report with the described parameter number (the BLAS names)
//!   or INVALID_VALUE (the API), and every byte of every operand and guard untouched;
//! - an operand the call needs that it cannot use: INVALID_VALUE from the API, and from the
//!   BLAS names (with no CPU BLAS to forward to) no report; untouched;
//! - a device that cannot compute the precision (complex without the compute pipeline, double
//!   without fp64 too): NOT_SUPPORTED from the API (INVALID_VALUE for a NULL operand it needs,
//!   which it checks first), and from the BLAS names no report; untouched. A quick return is
//!   still one for the BLAS names;
//! - otherwise the same call on the reference BLAS (Debian's netlib build, loaded alone),
//!   through the same interface on copies of the same operands (the API's call through the
//!   Fortran name; ILP64's through the 32-bit CBLAS name with its unused extremes narrowed),
//!   must leave every element and guard as glblas leaves it and return the same value. The data
//!   are small integers (and triangles with a diagonal of unit modulus and off-diagonal parts in
//!   {-1, 0, 1}; a vector's element that a zero increment counts thousands of times, 0), so that
//!   every sum, product and quotient a valid call computes is exact in either order: equality
//!   is the bound. nrm2, whose square root rounds, is compared within both results' error
//!   bounds.
//!
//! Everything runs on GL (`GLBLAS_BACKEND=gl`, `GLBLAS_CPU_BLAS=none`), so that the results are
//! glblas's own. One test: the environment is read once per process.

mod common;
mod described;

use std::ffi::c_void;

use common::xerbla::Handlers;
use common::{Place, Rng, PLACES};
use described::cases::{reference, supported, Case, Iface, IFACES};
use described::{Exports, Got, EXPORTS};
use glblas::status::Status;

/// Cases per routine, precision and interface.
const CASES_PER_EXPORT: usize = 40;

/// What the description decides of a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// An invalid argument, at this parameter number of the interface called.
    Fault(i32),
    /// The device cannot compute the precision.
    Unsupported,
    /// An operand the call needs cannot be used.
    Refused,
    /// It runs (a quick return when `quick`): as the reference BLAS runs it.
    Runs { quick: bool },
}

struct Fuzz<'a> {
    handlers: &'a Handlers,
    reference: *mut c_void,
}

impl Fuzz<'_> {
    /// One case of routine `x` through interface `f`.
    fn case(&self, r: &mut Rng, x: &Exports, f: Iface) {
        let c = Case::draw(r, x, f, &PLACES);
        let what = &c.what;
        let verdict = match c.fault {
            Some(info) => Verdict::Fault(info),
            None if f != Iface::Api && c.quick => Verdict::Runs { quick: true },
            // The API checks NULL before the device.
            None if !supported(x.letter) && f == Iface::Api && c.refused(Some(Place::Null)) => {
                Verdict::Refused
            }
            None if !supported(x.letter) => Verdict::Unsupported,
            None if c.refused(None) => Verdict::Refused,
            None => Verdict::Runs { quick: c.quick },
        };
        let before = c.snapshot();
        let reports = self.handlers.reports();
        let got = c.on_glblas();
        let new_reports = self.handlers.reports() - reports;
        match (f, verdict) {
            (Iface::Api, _) => {
                let status = match got {
                    Got::Status(s) | Got::Result(s, _) => s,
                    other => panic!("{what}: the API returned {other:?}"),
                };
                let want = match verdict {
                    Verdict::Runs { .. } => Status::Success,
                    Verdict::Unsupported => Status::NotSupported,
                    Verdict::Fault(_) | Verdict::Refused => Status::InvalidValue,
                };
                assert_eq!(status, want, "{what}: {verdict:?}");
            }
            (_, Verdict::Fault(info)) => {
                assert_eq!(new_reports, 1, "{what}: one error report");
                let i = IFACES.iter().position(|&g| g == f).expect("an interface");
                let name = match f {
                    Iface::Fortran => format!("{:<6}", x.name.to_uppercase()),
                    _ => x.symbols[i].to_string(),
                };
                let want = (name, info, f == Iface::Fortran);
                assert_eq!(self.handlers.last(), want, "{what}");
            }
            _ => assert_eq!(new_reports, 0, "{what}: no error report ({verdict:?})"),
        }
        match verdict {
            Verdict::Runs { quick: false } => c.assert_as_reference(got, self.reference),
            Verdict::Runs { quick: true } => {
                c.assert_untouched(&before, "a quick return");
                // The description's value (0, or i?amax's 1-based index), as each interface
                // returns it.
                let q = c.call.quick_return().expect("a quick return");
                let want = match got {
                    Got::Index(_) if f.cblas() => Got::Index((q.re as i64 - 1).max(0)),
                    Got::Index(_) => Got::Index(q.re as i64),
                    Got::Value(_) => Got::Value([q.re, q.im]),
                    Got::Result(s, _) => Got::Result(s, [q.re, q.im]),
                    other => other,
                };
                assert_eq!(got, want, "{what}: a quick return");
            }
            _ => c.assert_untouched(&before, &format!("{verdict:?}")),
        }
    }
}

#[test]
fn every_routine_meets_its_description_through_every_export() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_CPU_BLAS", "none");
    let fuzz = Fuzz {
        handlers: &Handlers::load(),
        reference: reference(),
    };
    let mut r = Rng(0x5eed_d35c);
    for x in EXPORTS {
        for f in IFACES {
            for _ in 0..CASES_PER_EXPORT {
                fuzz.case(&mut r, x, f);
            }
        }
    }
}
