//! `GLBLAS_VERIFY` (`blas::verify`): each GL result checked by its checksums before it is handed
//! back, for every routine in every precision the device computes, through its CBLAS, Fortran
//! and glblas API names. Calls are drawn as in `fuzz_described.rs`, valid, with host operands,
//! and through the API with each operand in host or device memory (a device operand is checked
//! on a copy read back); the data's small integers make the reference's results exact.
//!
//! - Right results pass: with nothing injected, every call is answered on GL as the reference
//!   answers it, and the trace holds no `verify-failed`.
//! - Wrong results do not reach the caller: each call is made again with every kernel launch it
//!   makes dropped (fault `drop`: not run, and nothing says so, as a driver that loses a job),
//!   after calls that leave NaNs where operands are staged; and again with every result it
//!   reads back from the device corrupted (fault `corrupt`, as a driver that returns garbage;
//!   not on device operands, whose check reads them back).
//!   Without the check, where that hands back a wrong result (at least once per routine and
//!   fault), with it the call is caught: a
//!   BLAS-compatible one is answered by the CPU BLAS as the reference answers it
//!   (`reason=verify-failed`), a glblas API one returns EXECUTION_FAILED with every operand as
//!   it was (in device memory too).
//!
//! One test: the environment is read once per process.

mod common;
mod described;

use std::panic::{catch_unwind, AssertUnwindSafe};

use common::{
    assert_saxpy, doubles_here, fill, idx, reference_path, saxpy_in_place, trace_to_file, Place,
    Rng,
};
use described::cases::{reference, Case, Iface};
use described::{Exports, Got, EXPORTS};
use glblas::api::{
    glblasDaxpy, glblasDscal, glblasSaxpy, glblasScopy, glblasSdot, glblasSgemm, glblasSswap,
};
use glblas::blas::verify;
use glblas::engine::fault::{self, Fault};
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

/// Valid cases per routine, precision and interface.
const CASES: usize = 2;
/// More launches, and read-backs, than any drawn call makes.
const FAULTS: u64 = 1 << 16;

/// Valid calls of `x` through `f`, with host operands, or through the glblas API with each
/// operand in host or device memory.
fn cases<'x>(r: &mut Rng, x: &'x Exports, f: Iface) -> Vec<Case<'x>> {
    let places = if f == Iface::Api {
        &[Place::Host, Place::Device][..]
    } else {
        &[Place::Host]
    };
    let mut cases = Vec::new();
    while cases.len() < CASES {
        let c = Case::draw(r, x, f, places);
        // An operand too long for the host is placed on the device, and is not whole there: the
        // API refuses it where the call needs it, and a BLAS name, which the CPU BLAS must be
        // able to answer, takes host operands only.
        let on_host = c.stores.iter().flatten().all(|s| s.place == Place::Host);
        if c.fault.is_some() || c.quick || c.refused(None) || (f != Iface::Api && !on_host) {
            continue;
        }
        cases.push(c);
    }
    cases
}

/// Puts every operand of `c` back as it was drawn (the calls below write them).
fn reset(c: &Case) {
    for s in c.stores.iter().flatten() {
        s.reset();
    }
}

/// Fills the device memory calls stage their operands in with NaNs, through calls on host
/// operands small enough to be staged (not used in place): what a dropped launch leaves in an
/// output it was to write is then garbage, as on a device, not the last call's result (often
/// the same call's, here).
fn scrub() {
    let n = 100;
    let nan = vec![f32::NAN; n * n];
    let mut out = vec![0.0f32; n * n];
    let ni = n as i32;
    let mut other = vec![f32::NAN; n * n];
    let mut dot = 0.0f32;
    // SAFETY: host operands of the sizes given. Each upload fills a unit (x and y of the saxpy,
    // C of the gemm), and none computes much (the gemm's k is 1); on the fragment pipeline the
    // dot and the swap fill the render targets its reductions and swaps read back.
    unsafe {
        let (x, y, z) = (nan.as_ptr(), out.as_mut_ptr(), other.as_mut_ptr());
        assert_eq!(glblasSaxpy(ni * ni, 1.0, x, 1, y, 1), Status::Success);
        let s = glblasSgemm(Op(0), Op(0), ni, ni, 1, 1.0, x, ni, x, 1, 1.0, y, ni);
        assert_eq!(s, Status::Success);
        assert_eq!(glblasSdot(ni * ni, x, 1, x, 1, &mut dot), Status::Success);
        assert_eq!(glblasSswap(ni * ni, y, 1, z, 1), Status::Success);
    }
}

/// The call on its operands as drawn, with every event of `kind` it meets failing: every kernel
/// launch dropped, or every read-back corrupted.
fn faulted(c: &Case, kind: Fault) -> Got {
    if kind == Fault::Drop {
        scrub();
    }
    reset(c);
    fault::fail_from_next(kind, FAULTS);
    let got = c.on_glblas();
    fault::clear();
    got
}

/// Whether `got` is what the reference answers.
fn as_reference(c: &Case, got: Got, lib: *mut std::ffi::c_void) -> bool {
    catch_unwind(AssertUnwindSafe(|| c.assert_as_reference(got, lib))).is_ok()
}

fn status(got: Got) -> Status {
    match got {
        Got::Status(s) | Got::Result(s, _) => s,
        other => panic!("the API returned {other:?}"),
    }
}

/// The trace written since `from` bytes into it.
fn trace_since(path: &std::path::Path, from: &mut usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let new = text[*from..].to_string();
    *from = text.len();
    new
}

#[test]
fn wrong_results_are_caught_and_right_ones_pass() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_CPU_BLAS", reference_path());
    let trace = trace_to_file("verify-described");
    let mut read = 0;
    let lib = reference();
    let supported = described::cases::supported;
    let mut r = Rng(0x5e1f_c4ec);
    const KINDS: [Fault; 2] = [Fault::Drop, Fault::Corrupt];
    // Routines and faults for which no call without the check handed back a wrong result.
    let mut never_wrong = Vec::new();
    for x in EXPORTS.iter().filter(|x| supported(x.letter)) {
        let mut wrong = [0; KINDS.len()];
        for f in [Iface::Api, Iface::Cblas, Iface::Fortran] {
            for c in cases(&mut r, x, f) {
                // A right result passes its check.
                verify::set_enabled(true);
                reset(&c);
                let got = c.on_glblas();
                if f == Iface::Api {
                    assert_eq!(status(got), Status::Success, "{}", c.what);
                }
                c.assert_as_reference(got, lib);
                let right = trace_since(&trace, &mut read);
                assert!(!right.contains("verify-failed"), "{right}");

                let on_device = c.stores.iter().flatten().any(|s| s.place == Place::Device);
                for (k, &kind) in KINDS.iter().enumerate() {
                    // A device operand is checked on a copy read back, which a read-back that
                    // corrupts corrupts too: a flipped exponent bit makes the sums no bound.
                    if kind == Fault::Corrupt && on_device {
                        continue;
                    }
                    // Without the check, the faults reach the caller...
                    verify::set_enabled(false);
                    let hook = std::panic::take_hook();
                    std::panic::set_hook(Box::new(|_| {}));
                    let got = faulted(&c, kind);
                    let reached = !as_reference(&c, got, lib);
                    std::panic::set_hook(hook);
                    wrong[k] += usize::from(reached);

                    // ...and with it, none does.
                    verify::set_enabled(true);
                    reset(&c);
                    let before = c.snapshot();
                    trace_since(&trace, &mut read);
                    let got = faulted(&c, kind);
                    if f == Iface::Api {
                        match status(got) {
                            Status::ExecutionFailed => {
                                c.assert_untouched(&before, "a result that failed its check")
                            }
                            Status::Success if !reached => c.assert_as_reference(got, lib),
                            s => panic!("{} ({kind:?}): {s:?}", c.what),
                        }
                    } else {
                        c.assert_as_reference(got, lib);
                        let caught = trace_since(&trace, &mut read);
                        assert!(
                            !reached || caught.contains("route=cpu reason=verify-failed"),
                            "{} ({kind:?}): a wrong result not caught:\n{caught}",
                            c.what
                        );
                    }
                }
            }
        }
        for (kind, wrong) in KINDS.iter().zip(wrong) {
            if wrong == 0 {
                never_wrong.push((x.name, kind));
            }
        }
    }
    assert!(
        never_wrong.is_empty(),
        "no faulted call handed back a wrong result: {never_wrong:?}"
    );
    let _ = std::fs::remove_file(&trace);
    verify::set_enabled(true);
    overlapping_operands_pass();
    null_operands_are_refused();
    long_sums_pass();
    verify::set_enabled(false);
}

/// Level 1 on operands that overlap runs as the reference's sequential loop, each step reading
/// what an earlier one wrote, which sums taken before the call do not predict: such calls are
/// not checked, so their right results pass (an saxpy on y = x shifted by one failed its check
/// so before).
fn overlapping_operands_pass() {
    let n = 50;
    for (ox, oy, incx, incy) in [(0usize, 1usize, 1, 1), (1, 0, 1, 1), (0, 3, 2, -1)] {
        let data = fill(200, 8);
        let mut want = data.clone();
        saxpy_in_place(&mut want, n, 0.5, (ox, incx), (oy, incy));
        let mut got = data.clone();
        let p = got.as_mut_ptr();
        // SAFETY: both vectors lie in `got`.
        let s = unsafe { glblasSaxpy(n as i32, 0.5, p.add(ox), incx, p.add(oy), incy) };
        assert_eq!(s, Status::Success, "saxpy {ox} {oy} {incx} {incy}");
        assert_saxpy(&got, &want, &vec![3.0 * n as f64; 200]);

        let mut want = data.clone();
        for i in 0..n {
            want[oy + idx(i, n, incy)] = want[ox + idx(i, n, incx)];
        }
        let mut got = data.clone();
        let p = got.as_mut_ptr();
        // SAFETY: as above.
        let s = unsafe { glblasScopy(n as i32, p.add(ox), incx, p.add(oy), incy) };
        assert_eq!(s, Status::Success, "scopy {ox} {oy} {incx} {incy}");
        assert!(got == want, "scopy {ox} {oy} {incx} {incy}");
    }
}

/// A NULL operand the call needs is INVALID_VALUE with the check on too: the sums before the call
/// never read it (they did, and the process crashed, for an API sgemm's A).
fn null_operands_are_refused() {
    let (a, null) = (vec![1.0f32; 4], std::ptr::null::<f32>());
    let mut c = vec![7.0f32; 4];
    // SAFETY: 2×2 operands, or NULL.
    unsafe {
        let cp = c.as_mut_ptr();
        let s = glblasSgemm(
            Op(0),
            Op(0),
            2,
            2,
            2,
            1.0,
            null,
            2,
            a.as_ptr(),
            2,
            0.0,
            cp,
            2,
        );
        assert_eq!(s, Status::InvalidValue, "sgemm, A NULL");
        let s = glblasSgemm(
            Op(0),
            Op(0),
            2,
            2,
            2,
            1.0,
            a.as_ptr(),
            2,
            null,
            2,
            0.0,
            cp,
            2,
        );
        assert_eq!(s, Status::InvalidValue, "sgemm, B NULL");
        let s = glblasSaxpy(4, 1.0, null, 1, cp, 1);
        assert_eq!(s, Status::InvalidValue, "saxpy, x NULL");
        let mut dot = 0.0f32;
        let s = glblasSdot(4, a.as_ptr(), 1, null, 1, &mut dot);
        assert_eq!(s, Status::InvalidValue, "sdot, y NULL");
    }
    assert!(c.iter().all(|&v| v == 7.0), "a refused call wrote C");
}

/// The check's own sums in double round as their length says: a daxpy and a dscal of 2^22
/// positive elements, right, failed their checks when the bound left that out (their sums'
/// rounding grows with n, the GPU's with an element's few terms).
fn long_sums_pass() {
    if !doubles_here() {
        return;
    }
    let n = 1 << 22;
    let mut r = Rng(0x1_0e55);
    let x: Vec<f64> = (0..n)
        .map(|_| r.below(1 << 20) as f64 / 1048576.0 + 0.5)
        .collect();
    let y0: Vec<f64> = (0..n)
        .map(|_| r.below(1 << 20) as f64 / 1024.0 + 1.0)
        .collect();
    let mut y = y0.clone();
    // SAFETY: vectors of n elements.
    unsafe {
        let s = glblasDaxpy(n as i32, 0.7, x.as_ptr(), 1, y.as_mut_ptr(), 1);
        assert_eq!(s, Status::Success, "daxpy of 2^22 positive elements");
        let s = glblasDscal(n as i32, 1.0 / 3.0, y.as_mut_ptr(), 1);
        assert_eq!(s, Status::Success, "dscal of 2^22 positive elements");
    }
    for i in (0..n).step_by(4099) {
        let want = (0.7 * x[i] + y0[i]) / 3.0;
        assert!((y[i] - want).abs() <= 4.0 * f64::EPSILON * want, "y[{i}]");
    }
}
