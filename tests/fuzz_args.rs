//! Randomized bad input for every export (issue 5, property 4; issue 15). A seeded generator
//! throws argument combinations at the glblas API and at the BLAS-compatible symbols (CBLAS in
//! both layouts and invalid ones, Fortran with any character, ILP64 with sizes beyond 32 bits):
//! negative and huge sizes, zero and negative increments, leading dimensions too small, invalid
//! enums (op, side, uplo, diag), and operands in host memory, in device memory at an offset,
//! past the end of their allocation, misaligned, freed, or NULL. The routines: saxpy, sdot,
//! sscal, scopy, sswap, sasum, sgemv and sgemm (`CASES_PER_ROUTINE_EXPORT` cases per export),
//! and snrm2, isamax, ssymm, ssyrk, ssyr2k, strmm, strsm and dgemm (`CASES_PER_LATER_EXPORT`,
//! from a generator of their own), each through all four interfaces. An oracle written from
//! the documented rules (README "API" and its semantics bullets; the reference BLAS's and
//! reference CBLAS's argument checks and parameter numbers, row-major calls checked as the
//! column-major call they become) decides each outcome, and the test checks: the status (or
//! the error report, and no report otherwise); that a refused call leaves every byte of every
//! operand and of the guard zones around them alone (host and device); that an accepted call
//! matches a double-precision reference (for dgemm, one more precise than double) within the
//! README's bounds and touches nothing else (syrk's and syr2k's C outside its triangle
//! included). NaN where a call must not read proves it does not: C with beta = 0, the triangle
//! of A that symm, trmm and trsm do not use, and a unit diagonal. Where the device cannot run a
//! routine (double without the compute pipeline and fp64 shaders, as glblasGetDeviceInfo
//! tells), the API answers NOT_SUPPORTED and the BLAS names, with no CPU
//! BLAS to forward to, return with their outputs untouched and no error report.
//!
//! The BLAS symbols' error reports are observed through handlers of the program's own:
//! `c_tests/handlers/record_xerbla.c`, built into a shared object and loaded RTLD_GLOBAL, where
//! glblas's call-time lookup finds it. (A handler defined in this test binary would be passed
//! over, since glblas is linked into the binary, which therefore defines the BLAS symbols too.)
//! Everything runs on GL (`GLBLAS_BACKEND=gl`, `GLBLAS_CPU_BLAS=none`), so that the results are
//! glblas's own. One test: the environment is read once per process, and the shutdowns would
//! disturb a test running beside it.

mod common;

use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::OnceLock;

use common::xerbla::Handlers;
use common::{
    dgemm_ref, fill, fill64, idx, sgemm_ref, sgemv_ref, solve_with_bound, trsm_terms, EPS, EPS64,
};
use glblas::api::*;
use glblas::blas::cblas::*;
use glblas::blas::fortran::*;
use glblas::ffi::{DiagArg, FillArg, MemcpyKindArg, OperationArg, SideArg, StatusArg};
use glblas::status::Status;

/// Cases per export of the first eight BLAS routines (saxpy ... sgemm, × 4 interfaces).
const CASES_PER_ROUTINE_EXPORT: usize = 1200;
/// Cases per export of the routines added later (snrm2, isamax, Level 3 beyond gemm, dgemm):
/// fewer, to keep the test's time modest in each of CI's GL configurations.
const CASES_PER_LATER_EXPORT: usize = 300;
/// Cases per memory export (glblasMalloc, glblasFree, glblasMemcpy) and glblasGetStatusString.
const CASES_PER_MEMORY_EXPORT: usize = 1000;
/// Floats of guard zone on each side of every operand, checked like the operand itself.
const GUARD: usize = 4;
/// Operands larger than this (elements) only arise from huge sizes: they are never placed in
/// host memory, and a device allocation holding one is never made (it is then past the end).
const HOST_MAX: u128 = 1 << 14;

/// splitmix64: deterministic, and enough for choosing arguments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }

    /// A size, increment or leading dimension: mostly `lo..=hi`, sometimes an extreme (beyond
    /// 32 bits for the ILP64 names, with low halves that are small valid values).
    fn int(&mut self, f: Iface, lo: i64, hi: i64) -> i64 {
        const WIDE32: [i64; 6] = [
            i32::MAX as i64,
            i32::MIN as i64,
            1 << 30,
            -(1 << 30),
            1 << 16,
            -(1 << 16),
        ];
        const WIDE64: [i64; 7] = [
            1 << 32,
            (1 << 32) + 3,
            3 - (1 << 32),
            1 << 31,
            i64::MAX,
            i64::MIN,
            (1 << 40) + 1,
        ];
        if !self.percent(8) {
            // Near a 32-bit limit (a leading dimension just above i32::MAX rows), stay in range.
            let v = self.range(lo, hi);
            if f == Iface::Ilp64 {
                v
            } else {
                v.clamp(i32::MIN.into(), i32::MAX.into())
            }
        } else if f == Iface::Ilp64 && self.percent(60) {
            self.pick(&WIDE64)
        } else {
            self.pick(&WIDE32)
        }
    }

    /// An increment: as `int`, but never one whose byte stride wraps past 64 bits (i64::MAX,
    /// i64::MIN), which the BLAS names read as the increment it wraps to
    /// (`tests/wrapped_increments.rs`); the largest that does not stands for it, its extent still
    /// past 64 bits.
    fn inc(&mut self, f: Iface) -> i64 {
        let v = self.int(f, -3, 3);
        if v.checked_mul(8).is_some() {
            v
        } else {
            v.signum() * (i64::MAX / 8)
        }
    }

    /// alpha or beta: the values with special meanings, or any.
    fn scalar(&mut self) -> f32 {
        match self.below(6) {
            0 => 0.0,
            1 => 1.0,
            2 => -1.0,
            _ => fill(1, self.next())[0] * 2.0,
        }
    }

    /// An operation argument as `f` passes it: a valid one, or any other value.
    fn op(&mut self, f: Iface) -> i64 {
        let (valid, other): (&[i64], i64) = match f {
            Iface::Api => (&[0, 1, 2], self.range(-5, 200)),
            Iface::Cblas | Iface::Ilp64 => (&[111, 112, 113], self.range(-5, 200)),
            Iface::Fortran => (&[78, 110, 84, 116, 67, 99], self.range(0, 255)),
        };
        if self.percent(90) {
            self.pick(valid)
        } else {
            other
        }
    }

    /// A CBLAS layout: column- or row-major, or any other value.
    fn layout(&mut self) -> c_int {
        match self.below(20) {
            0 => self.range(-3, 200) as c_int,
            1..=7 => 101,
            _ => 102,
        }
    }
}

/// Which set of exports a case calls.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Iface {
    Api,
    Cblas,
    Fortran,
    Ilp64,
}

const IFACES: [Iface; 4] = [Iface::Api, Iface::Cblas, Iface::Fortran, Iface::Ilp64];

impl Iface {
    /// The exported name of `routine` ("sgemm") in this interface.
    fn export(self, routine: &str) -> String {
        match self {
            Iface::Api => {
                let mut name = routine.to_string();
                name[..1].make_ascii_uppercase();
                format!("glblas{name}")
            }
            Iface::Cblas => format!("cblas_{routine}"),
            Iface::Fortran => format!("{routine}_"),
            Iface::Ilp64 => format!("scipy_cblas_{routine}64_"),
        }
    }

    /// The routine name the error handler receives.
    fn reported(self, routine: &str) -> String {
        match self {
            Iface::Fortran => format!("{:<6}", routine.to_uppercase()),
            _ => self.export(routine),
        }
    }

    fn cblas(self) -> bool {
        matches!(self, Iface::Cblas | Iface::Ilp64)
    }

    /// Whether op argument `v` means the transpose; None when it is no operation.
    fn transposed(self, v: i64) -> Option<bool> {
        match (self, v) {
            (Iface::Api, 0) | (Iface::Cblas | Iface::Ilp64, 111) => Some(false),
            (Iface::Api, 1 | 2) | (Iface::Cblas | Iface::Ilp64, 112 | 113) => Some(true),
            (Iface::Fortran, c) => match c as u8 {
                b'N' | b'n' => Some(false),
                b'T' | b't' | b'C' | b'c' => Some(true),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A 32-bit argument of a 32-bit interface (generated in range for those).
fn i32_of(v: i64) -> i32 {
    i32::try_from(v).expect("32-bit interfaces get 32-bit values")
}

/// Elements a BLAS vector spans from its lowest element.
fn vspan(n: i64, inc: i64) -> u128 {
    if n <= 0 {
        0
    } else {
        (n as u128 - 1) * u128::from(inc.unsigned_abs()) + 1
    }
}

/// Elements a column-major rows×cols matrix with leading dimension ld spans.
fn mspan(rows: i64, cols: i64, ld: i64) -> u128 {
    if rows <= 0 || cols <= 0 {
        0
    } else {
        (cols as u128 - 1) * ld.max(0) as u128 + rows as u128
    }
}

/// The increment as the common references take it: for one element it is never applied, and
/// for more, a valid call's increment stays inside a small operand, so it fits 32 bits.
fn inc32(n: i64, inc: i64) -> i32 {
    if n <= 1 {
        1
    } else {
        i32_of(inc)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Null,
    Host,
    Device,
    PastEnd,
    Misaligned,
    Freed,
}

/// Host memory most often, then device memory, then each kind of bad pointer.
const PLACES: [Place; 20] = {
    use Place::*;
    [
        Host, Host, Host, Host, Host, Host, Host, Host, Device, Device, Device, Device, Device,
        Device, PastEnd, PastEnd, Misaligned, Freed, Freed, Null,
    ]
};

enum Store {
    Nothing,
    Host(Vec<f32>),
    Device { base: *mut c_void, floats: usize },
}

/// One pointer argument and the memory around it: `GUARD` floats, the operand, `GUARD` floats.
struct Operand {
    place: Place,
    ptr: *mut f32,
    /// Floats of the operand's region (those a valid call may address).
    len: usize,
    /// Floats per element: 1, or 2 for a double.
    width: usize,
    /// Elements from `ptr` to the end of its device allocation.
    room: u128,
    store: Store,
}

fn malloc(floats: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    assert_eq!(unsafe { glblasMalloc(&mut p, floats * 4) }, Status::Success);
    p
}

fn upload(dst: *mut c_void, data: &[f32]) {
    let s = unsafe { glblasMemcpy(dst, data.as_ptr().cast(), data.len() * 4, MemcpyKindArg(1)) };
    assert_eq!(s, Status::Success);
}

fn download(src: *const c_void, bytes: usize) -> Vec<u8> {
    let mut out = vec![0u8; bytes];
    let s = unsafe { glblasMemcpy(out.as_mut_ptr().cast(), src, bytes, MemcpyKindArg(2)) };
    assert_eq!(s, Status::Success);
    out
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_ne_bytes(b.try_into().expect("4 bytes")))
        .collect()
}

impl Operand {
    /// An operand for `need` elements of `width` floats, its contents from `seed` (doubles as
    /// pairs of floats), then changed by `prep` (which sees only the operand's own floats).
    fn new(
        r: &mut Rng,
        (need, width): (u128, usize),
        seed: u64,
        prep: impl FnOnce(&mut [f32]),
    ) -> Operand {
        let mut place = r.pick(&PLACES);
        let len = width
            * if need <= HOST_MAX {
                need as usize
            } else {
                if place == Place::Host {
                    place = Place::Device;
                }
                8
            };
        let mut data = match width {
            1 => fill(len + 2 * GUARD, seed),
            _ => fill64((len + 2 * GUARD) / 2, seed)
                .into_iter()
                .flat_map(|v| {
                    let bits = v.to_bits();
                    [bits as u32, (bits >> 32) as u32].map(f32::from_bits)
                })
                .collect(),
        };
        prep(&mut data[GUARD..GUARD + len]);
        let mut op = Operand {
            place,
            ptr: std::ptr::null_mut(),
            len,
            width,
            room: 0,
            store: Store::Nothing,
        };
        match place {
            Place::Null => {}
            Place::Host => {
                op.ptr = data[GUARD..].as_mut_ptr();
                // The system allocator's blocks are 16-byte aligned: doubles may live here.
                assert_eq!(op.ptr as usize % (4 * width), 0, "aligned host operand");
                op.store = Store::Host(data);
            }
            Place::Device | Place::Misaligned | Place::PastEnd | Place::Freed => {
                // Past the end: the allocation stops short of the operand, or the pointer lies
                // beyond it (in the reserved page after it).
                let (floats, skip) = match place {
                    Place::PastEnd if len > 0 => {
                        (GUARD + len - r.range(1, len.min(3) as i64) as usize, 0)
                    }
                    Place::PastEnd => (GUARD, r.range(0, 3) as usize),
                    _ => (data.len(), 0),
                };
                let base = malloc(floats);
                upload(base, &data[..floats]);
                let bytes = 4 * (GUARD + skip)
                    + if place == Place::Misaligned {
                        r.range(1, 3) as usize
                    } else {
                        0
                    };
                op.ptr = base.cast::<u8>().wrapping_add(bytes).cast();
                op.room = ((floats - GUARD) / width) as u128;
                if place == Place::Freed {
                    assert_eq!(glblasFree(base), Status::Success);
                } else {
                    op.store = Store::Device { base, floats };
                }
            }
        }
        op
    }

    /// Whether a call that needs `need` elements here can have them.
    fn usable(&self, need: u128) -> bool {
        match self.place {
            Place::Host => true,
            Place::Device => need <= self.room,
            _ => false,
        }
    }

    /// Every float of the store, guards included.
    fn contents(&self) -> Vec<f32> {
        match &self.store {
            Store::Nothing => Vec::new(),
            Store::Host(v) => v.clone(),
            Store::Device { base, floats } => floats_of_device(*base, *floats),
        }
    }
}

fn floats_of_device(base: *mut c_void, n: usize) -> Vec<f32> {
    floats(&download(base, n * 4))
}

impl Drop for Operand {
    fn drop(&mut self) {
        if let Store::Device { base, .. } = self.store {
            assert_eq!(glblasFree(base), Status::Success);
        }
    }
}

/// What the oracle expects of a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// An invalid argument, at this parameter number of the interface called.
    Fault(i32),
    /// A pointer the call needs is NULL, freed, misaligned or too short.
    Refused,
    /// It runs (perhaps as a quick return).
    Runs,
    /// The device cannot run it: NOT_SUPPORTED from the API; the BLAS names, with no CPU BLAS
    /// to answer, return without a report. Outputs untouched either way.
    Unsupported,
}

impl Verdict {
    /// A level-2/3 call's verdict: its argument fault if any, else whether it can run.
    fn of(fault: Option<i32>, runs: bool) -> Verdict {
        match fault {
            Some(info) => Verdict::Fault(info),
            None if runs => Verdict::Runs,
            None => Verdict::Refused,
        }
    }
}

/// One element a call is expected to write: operand, storage index from its pointer, value
/// and tolerance.
struct Change {
    op: usize,
    at: usize,
    want: f64,
    tol: f64,
}

/// What a call returned: a status, or nothing but a value (the BLAS symbols).
enum Got {
    Status(Status),
    Value(f32),
}

/// One call under test: its operands, their contents before the call, and its description.
struct Case<'h> {
    what: String,
    iface: Iface,
    routine: &'static str,
    ops: Vec<Operand>,
    before: Vec<Vec<f32>>,
    reports: c_int,
    handlers: &'h Handlers,
    /// The oracle's verdict, once checked.
    verdict: Option<Verdict>,
    /// Floats per element of the operands added from now on (2 for double routines).
    width: usize,
}

impl<'h> Case<'h> {
    fn new(h: &'h Handlers, iface: Iface, routine: &'static str, what: String) -> Case<'h> {
        Case {
            what: format!("{} {what}", iface.export(routine)),
            iface,
            routine,
            ops: Vec::new(),
            before: Vec::new(),
            reports: 0,
            handlers: h,
            verdict: None,
            width: 1,
        }
    }

    /// Adds an operand of `need` elements (all NaN when `nan`); its index.
    fn add(&mut self, r: &mut Rng, need: u128, nan: bool) -> usize {
        let label = if nan { " NaN" } else { "" };
        self.add_with(r, need, label, |d| {
            if nan {
                d.fill(f32::NAN)
            }
        })
    }

    /// Adds an operand of `need` elements whose contents `prep` shapes (`label` says how).
    fn add_with(
        &mut self,
        r: &mut Rng,
        need: u128,
        label: &str,
        prep: impl FnOnce(&mut [f32]),
    ) -> usize {
        let seed = r.next();
        let op = Operand::new(r, (need, self.width), seed, prep);
        self.what += &format!(" [{:?}{label}]", op.place);
        self.ops.push(op);
        self.ops.len() - 1
    }

    fn ptr(&self, i: usize) -> *mut f32 {
        self.ops[i].ptr
    }

    /// Whether every (operand, elements needed) pair is usable.
    fn usable(&self, needs: &[(usize, u128)]) -> bool {
        needs.iter().all(|&(i, need)| self.ops[i].usable(need))
    }

    /// Records the contents and the handler count before the call.
    fn start(&mut self) {
        self.before = self.ops.iter().map(Operand::contents).collect();
        self.reports = self.handlers.reports();
    }

    /// The operand's elements as they were before the call.
    fn data(&self, i: usize) -> &[f32] {
        let len = self.ops[i].len;
        // Empty for an operand with no memory (never read by a call that runs).
        self.before[i].get(GUARD..GUARD + len).unwrap_or(&[])
    }

    /// The operand's elements as they were before the call, as doubles.
    fn data64(&self, i: usize) -> Vec<f64> {
        elements(self.data(i), 2).into_iter().map(|e| e.1).collect()
    }

    /// Checks the outcome against the verdict; `expected` gives a call that runs its writes and
    /// (for the BLAS sdot and sasum) its value with tolerance.
    fn check(
        &mut self,
        got: Got,
        verdict: Verdict,
        expected: impl FnOnce(&Case) -> (Vec<Change>, (f64, f64)),
    ) {
        self.verdict = Some(verdict);
        let what = &self.what;
        let new_reports = self.handlers.reports() - self.reports;
        match (&got, verdict) {
            (Got::Status(s), Verdict::Runs) => assert_eq!(*s, Status::Success, "{what}"),
            (Got::Status(s), Verdict::Unsupported) => {
                assert_eq!(*s, Status::NotSupported, "{what}")
            }
            (Got::Status(s), _) => assert_eq!(*s, Status::InvalidValue, "{what}"),
            (Got::Value(_), Verdict::Fault(info)) => {
                assert_eq!(new_reports, 1, "{what}: one error report");
                let want = (
                    self.iface.reported(self.routine),
                    info,
                    self.iface == Iface::Fortran,
                );
                assert_eq!(self.handlers.last(), want, "{what}");
            }
            (Got::Value(_), _) => assert_eq!(new_reports, 0, "{what}: no error report"),
        }
        let (changes, value) = if verdict == Verdict::Runs {
            expected(self)
        } else {
            (Vec::new(), (0.0, 0.0))
        };
        if let Got::Value(v) = got {
            let (want, tol) = value;
            assert!(
                (f64::from(v) - want).abs() <= tol,
                "{what}: returned {v}, want {want} (tol {tol:e})"
            );
        }
        for (i, op) in self.ops.iter().enumerate() {
            let w = op.width;
            let after = elements(&op.contents(), w);
            let before = elements(&self.before[i], w);
            let guard = GUARD / w;
            let mut expect: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
            for c in changes.iter().filter(|c| c.op == i) {
                expect.insert(guard + c.at, (c.want, c.tol));
            }
            for (p, ((a_bits, a), (b_bits, b))) in after.iter().zip(&before).enumerate() {
                match expect.get(&p) {
                    Some(&(want, tol)) => assert!(
                        (a - want).abs() <= tol,
                        "{what}: operand {i} element {}: got {a}, want {want} (tol {tol:e})",
                        p as i64 - guard as i64
                    ),
                    None => assert_eq!(
                        a_bits,
                        b_bits,
                        "{what}: operand {i} element {} touched ({b} -> {a})",
                        p as i64 - guard as i64
                    ),
                }
            }
        }
    }
}

/// The elements of `floats` (`width` floats each: a double is two): their bits and values.
fn elements(floats: &[f32], width: usize) -> Vec<(u64, f64)> {
    floats
        .chunks_exact(width)
        .map(|e| match *e {
            [f] => (u64::from(f.to_bits()), f64::from(f)),
            [lo, hi] => {
                let bits = u64::from(lo.to_bits()) | u64::from(hi.to_bits()) << 32;
                (bits, f64::from_bits(bits))
            }
            _ => unreachable!("a width of 1 or 2"),
        })
        .collect()
}

/// Tolerance of a value accumulated from `terms` fp32 operations on magnitudes summing to
/// `scale` (README "Accuracy": (terms + 1) roundings of the magnitudes).
fn tol(terms: usize, scale: f64) -> f64 {
    (terms as f64 + 1.0) * EPS * scale + f64::from(f32::MIN_POSITIVE)
}

/// Level 1 on two vectors (saxpy, scopy, sswap): n, x, incx, y, incy, and the operands.
struct TwoVectors {
    n: i64,
    incx: i64,
    incy: i64,
    x: usize,
    y: usize,
}

impl TwoVectors {
    fn new(r: &mut Rng, c: &mut Case) -> TwoVectors {
        let f = c.iface;
        let (n, incx, incy) = (r.int(f, -2, 40), r.inc(f), r.inc(f));
        c.what += &format!(" n={n} incx={incx} incy={incy}");
        let x = c.add(r, vspan(n, incx), false);
        let y = c.add(r, vspan(n, incy), false);
        TwoVectors {
            n,
            incx,
            incy,
            x,
            y,
        }
    }

    /// Level 1 has no invalid arguments; n <= 0 returns at once; else both must be usable.
    fn verdict(&self, c: &Case) -> Verdict {
        let needs = [
            (self.x, vspan(self.n, self.incx)),
            (self.y, vspan(self.n, self.incy)),
        ];
        if self.n > 0 && !c.usable(&needs) {
            Verdict::Refused
        } else {
            Verdict::Runs
        }
    }

    /// Runs the reference BLAS's loop on both vectors' f32 contents with `step(x_i, y_i)`;
    /// the elements it wrote, exactly.
    fn sequential(&self, c: &Case, step: impl Fn(&mut f32, &mut f32)) -> Vec<Change> {
        let (mut x, mut y) = (c.data(self.x).to_vec(), c.data(self.y).to_vec());
        let n = self.n.max(0) as usize;
        for i in 0..n {
            step(&mut x[idx(i, n, self.incx)], &mut y[idx(i, n, self.incy)]);
        }
        let mut changes = Vec::new();
        for (op, v, inc) in [(self.x, &x, self.incx), (self.y, &y, self.incy)] {
            // A zero increment writes element 0 only, however large n is (up to 2^31 - 1).
            let count = if inc == 0 { n.min(1) } else { n };
            let written: std::collections::BTreeSet<usize> =
                (0..count).map(|i| idx(i, n, inc)).collect();
            changes.extend(written.into_iter().map(|k| Change {
                op,
                at: k,
                want: f64::from(v[k]),
                tol: 0.0,
            }));
        }
        changes
    }
}

fn fuzz_saxpy(r: &mut Rng, c: &mut Case) {
    let alpha = r.scalar();
    c.what += &format!(" alpha={alpha}");
    let v = TwoVectors::new(r, c);
    // alpha = 0 is a quick return: neither vector is looked at.
    let verdict = if alpha == 0.0 {
        Verdict::Runs
    } else {
        v.verdict(c)
    };
    c.start();
    let (n, incx, incy, x, y) = (v.n, v.incx, v.incy, c.ptr(v.x), c.ptr(v.y));
    let got = unsafe {
        match c.iface {
            Iface::Api => Got::Status(glblasSaxpy(
                i32_of(n),
                alpha,
                x,
                i32_of(incx),
                y,
                i32_of(incy),
            )),
            Iface::Cblas => {
                blas(|| cblas_saxpy(i32_of(n), alpha, x, i32_of(incx), y, i32_of(incy)))
            }
            Iface::Fortran => {
                blas(|| saxpy_(&i32_of(n), &alpha, x, &i32_of(incx), y, &i32_of(incy)))
            }
            Iface::Ilp64 => blas(|| scipy_cblas_saxpy64_(n, alpha, x, incx, y, incy)),
        }
    };
    c.check(got, verdict, |c| {
        if alpha == 0.0 || v.n <= 0 {
            return (Vec::new(), (0.0, 0.0));
        }
        // y(i) += alpha*x(i) in order; a zero increment adds every term into y(0).
        let (x, y) = (c.data(v.x), c.data(v.y));
        let n = v.n as usize;
        let mut acc: BTreeMap<usize, (f64, f64, usize)> = BTreeMap::new();
        for i in 0..n {
            let k = idx(i, n, v.incy);
            let e = acc
                .entry(k)
                .or_insert((f64::from(y[k]), f64::from(y[k]).abs(), 0));
            let term = f64::from(alpha) * f64::from(x[idx(i, n, v.incx)]);
            *e = (e.0 + term, e.1 + term.abs(), e.2 + 1);
        }
        let changes = acc
            .into_iter()
            .map(|(k, (want, scale, terms))| Change {
                op: v.y,
                at: k,
                want,
                tol: tol(terms, scale),
            })
            .collect();
        (changes, (0.0, 0.0))
    });
}

/// A fuzzer for scopy or sswap: the same arguments, and the reference loop's `step`.
macro_rules! two_vector_fuzzer {
    ($fuzz:ident, $api:ident, $cblas:ident, $fortran:ident, $ilp64:ident, $step:expr) => {
        fn $fuzz(r: &mut Rng, c: &mut Case) {
            let v = TwoVectors::new(r, c);
            let verdict = v.verdict(c);
            c.start();
            let (n, incx, incy, x, y) = (v.n, v.incx, v.incy, c.ptr(v.x), c.ptr(v.y));
            // 32-bit arguments only for the 32-bit interfaces (ILP64 ones may not fit).
            let n32 = || (i32_of(n), i32_of(incx), i32_of(incy));
            let got = unsafe {
                match c.iface {
                    Iface::Api => {
                        let (n, incx, incy) = n32();
                        Got::Status($api(n, x, incx, y, incy))
                    }
                    Iface::Cblas => {
                        let (n, incx, incy) = n32();
                        blas(|| $cblas(n, x, incx, y, incy))
                    }
                    Iface::Fortran => {
                        let (n, incx, incy) = n32();
                        blas(|| $fortran(&n, x, &incx, y, &incy))
                    }
                    Iface::Ilp64 => blas(|| $ilp64(n, x, incx, y, incy)),
                }
            };
            c.check(got, verdict, |c| (v.sequential(c, $step), (0.0, 0.0)));
        }
    };
}

two_vector_fuzzer!(
    fuzz_scopy,
    glblasScopy,
    cblas_scopy,
    scopy_,
    scipy_cblas_scopy64_,
    |x: &mut f32, y: &mut f32| *y = *x
);
two_vector_fuzzer!(
    fuzz_sswap,
    glblasSswap,
    cblas_sswap,
    sswap_,
    scipy_cblas_sswap64_,
    std::mem::swap
);

/// The sum the reductions compute and its tolerance: (n+1) roundings of the magnitudes.
fn reduction(terms: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut s, mut a, mut n) = (0.0, 0.0, 0);
    for t in terms {
        s += t;
        a += t.abs();
        n += 1;
    }
    (s, tol(n, a))
}

/// The result argument of glblasSdot / glblasSasum (the API only; the BLAS names return it).
fn result_operand(r: &mut Rng, c: &mut Case) -> Option<usize> {
    (c.iface == Iface::Api).then(|| c.add(r, 1, false))
}

/// A reduction's outcome: the API writes it into the result operand, the BLAS names return it.
fn reduced(result: Option<usize>, value: (f64, f64)) -> (Vec<Change>, (f64, f64)) {
    match result {
        Some(op) => (
            vec![Change {
                op,
                at: 0,
                want: value.0,
                tol: value.1,
            }],
            (0.0, 0.0),
        ),
        None => (Vec::new(), value),
    }
}

fn fuzz_sdot(r: &mut Rng, c: &mut Case) {
    let v = TwoVectors::new(r, c);
    let result = result_operand(r, c);
    // The result is always written (0 for n <= 0), so it must always be usable.
    let verdict = match (v.verdict(c), result) {
        (Verdict::Runs, Some(res)) if !c.usable(&[(res, 1)]) => Verdict::Refused,
        (verdict, _) => verdict,
    };
    c.start();
    let (n, incx, incy, x, y) = (v.n, v.incx, v.incy, c.ptr(v.x), c.ptr(v.y));
    let got = unsafe {
        match c.iface {
            Iface::Api => Got::Status(glblasSdot(
                i32_of(n),
                x,
                i32_of(incx),
                y,
                i32_of(incy),
                c.ptr(result.expect("api")),
            )),
            Iface::Cblas => Got::Value(cblas_sdot(i32_of(n), x, i32_of(incx), y, i32_of(incy))),
            Iface::Fortran => Got::Value(sdot_(&i32_of(n), x, &i32_of(incx), y, &i32_of(incy))),
            Iface::Ilp64 => Got::Value(scipy_cblas_sdot64_(n, x, incx, y, incy)),
        }
    };
    c.check(got, verdict, |c| {
        let n = v.n.max(0) as usize;
        let (x, y) = (c.data(v.x), c.data(v.y));
        let terms =
            (0..n).map(|i| f64::from(x[idx(i, n, v.incx)]) * f64::from(y[idx(i, n, v.incy)]));
        reduced(result, reduction(terms))
    });
}

/// A one-vector reduction's verdict: x (n elements, increment incx) must be usable when it is
/// read (`active`), the API's result always (it is always written).
fn reduction_verdict(
    c: &Case,
    (x, n, incx): (usize, i64, i64),
    active: bool,
    result: Option<usize>,
) -> Verdict {
    let mut needs = vec![];
    if active {
        needs.push((x, vspan(n, incx)));
    }
    needs.extend(result.map(|res| (res, 1)));
    Verdict::of(None, c.usable(&needs))
}

/// sasum's or snrm2's exports.
struct ReductionExports {
    api: unsafe extern "C" fn(c_int, *const f32, c_int, *mut f32) -> Status,
    cblas: unsafe extern "C" fn(c_int, *const f32, c_int) -> f32,
    fortran: unsafe extern "C" fn(*const c_int, *const f32, *const c_int) -> f32,
    ilp64: unsafe extern "C" fn(i64, *const f32, i64) -> f32,
}

/// A reduction of one vector (sasum, snrm2): x is read when `reads(n, incx)`, else the value
/// is 0; the result is always written. `value` gives the value and its tolerance from x, n and
/// incx when x is read.
fn fuzz_reduction(
    r: &mut Rng,
    c: &mut Case,
    e: &ReductionExports,
    reads: fn(i64, i64) -> bool,
    value: fn(&[f32], usize, i64) -> (f64, f64),
) {
    let f = c.iface;
    let (n, incx) = (r.int(f, -2, 40), r.inc(f));
    c.what += &format!(" n={n} incx={incx}");
    let x = c.add(r, vspan(n, incx), false);
    let result = result_operand(r, c);
    let active = reads(n, incx);
    let verdict = reduction_verdict(c, (x, n, incx), active, result);
    c.start();
    let xp = c.ptr(x);
    let got = unsafe {
        match f {
            Iface::Api => Got::Status((e.api)(
                i32_of(n),
                xp,
                i32_of(incx),
                c.ptr(result.expect("api")),
            )),
            Iface::Cblas => Got::Value((e.cblas)(i32_of(n), xp, i32_of(incx))),
            Iface::Fortran => Got::Value((e.fortran)(&i32_of(n), xp, &i32_of(incx))),
            Iface::Ilp64 => Got::Value((e.ilp64)(n, xp, incx)),
        }
    };
    c.check(got, verdict, |c| {
        let v = if active {
            value(c.data(x), n as usize, incx)
        } else {
            (0.0, 0.0)
        };
        reduced(result, v)
    });
}

fn fuzz_sasum(r: &mut Rng, c: &mut Case) {
    let exports = ReductionExports {
        api: glblasSasum,
        cblas: cblas_sasum,
        fortran: sasum_,
        ilp64: scipy_cblas_sasum64_,
    };
    // x is read only for n > 0 and incx > 0 (else the sum is 0).
    fuzz_reduction(
        r,
        c,
        &exports,
        |n, incx| n > 0 && incx > 0,
        |xs, n, incx| reduction((0..n).map(|i| f64::from(xs[idx(i, n, incx)]).abs())),
    );
}

fn fuzz_sscal(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let (n, incx, alpha) = (r.int(f, -2, 40), r.inc(f), r.scalar());
    c.what += &format!(" n={n} alpha={alpha} incx={incx}");
    let x = c.add(r, vspan(n, incx), false);
    // n <= 0, incx <= 0 or alpha = 1 does nothing (reference BLAS, LAPACK 3.12).
    let active = n > 0 && incx > 0 && alpha != 1.0;
    let verdict = if !active || c.usable(&[(x, vspan(n, incx))]) {
        Verdict::Runs
    } else {
        Verdict::Refused
    };
    c.start();
    let xp = c.ptr(x);
    let got = unsafe {
        match f {
            Iface::Api => Got::Status(glblasSscal(i32_of(n), alpha, xp, i32_of(incx))),
            Iface::Cblas => blas(|| cblas_sscal(i32_of(n), alpha, xp, i32_of(incx))),
            Iface::Fortran => blas(|| sscal_(&i32_of(n), &alpha, xp, &i32_of(incx))),
            Iface::Ilp64 => blas(|| scipy_cblas_sscal64_(n, alpha, xp, incx)),
        }
    };
    c.check(got, verdict, |c| {
        if !active {
            return (Vec::new(), (0.0, 0.0));
        }
        let n = n as usize;
        let xs = c.data(x);
        let changes = (0..n)
            .map(|i| {
                let k = idx(i, n, incx);
                let want = f64::from(alpha) * f64::from(xs[k]);
                Change {
                    op: x,
                    at: k,
                    want,
                    tol: tol(0, want.abs()),
                }
            })
            .collect();
        (changes, (0.0, 0.0))
    });
}

/// The reference SGEMV's checks, in order: the parameter number of the first failure.
fn sgemv_info(t: Option<bool>, m: i64, n: i64, lda: i64, incx: i64, incy: i64) -> Option<i32> {
    if t.is_none() {
        Some(1)
    } else if m < 0 {
        Some(2)
    } else if n < 0 {
        Some(3)
    } else if lda < m.max(1) {
        Some(6)
    } else if incx == 0 {
        Some(8)
    } else if incy == 0 {
        Some(11)
    } else {
        None
    }
}

/// The reference SGEMM's checks, in order.
#[allow(clippy::too_many_arguments)]
fn sgemm_info(
    ta: Option<bool>,
    tb: Option<bool>,
    m: i64,
    n: i64,
    k: i64,
    lda: i64,
    ldb: i64,
    ldc: i64,
) -> Option<i32> {
    let Some(ta) = ta else { return Some(1) };
    let Some(tb) = tb else { return Some(2) };
    let rows_a = if ta { k } else { m };
    let rows_b = if tb { n } else { k };
    if m < 0 {
        Some(3)
    } else if n < 0 {
        Some(4)
    } else if k < 0 {
        Some(5)
    } else if lda < rows_a.max(1) {
        Some(8)
    } else if ldb < rows_b.max(1) {
        Some(10)
    } else if ldc < m.max(1) {
        Some(13)
    } else {
        None
    }
}

/// The reference CBLAS's own checks before the Fortran routine's: the layout (1), then the
/// operation enums at their C positions. Ok(row-major) when they pass.
fn cblas_checks(f: Iface, layout: c_int, ops: &[(Option<bool>, i32)]) -> Result<bool, i32> {
    if !f.cblas() {
        return Ok(false);
    }
    let row = match layout {
        101 => true,
        102 => false,
        _ => return Err(1),
    };
    match ops.iter().find(|(t, _)| t.is_none()) {
        Some(&(_, info)) => Err(info),
        None => Ok(row),
    }
}

fn fuzz_sgemv(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let layout = r.layout();
    let trans = r.op(f);
    let (m, n) = (r.int(f, -1, 9), r.int(f, -1, 9));
    let (incx, incy) = (r.inc(f), r.inc(f));
    let (alpha, beta) = (r.scalar(), r.scalar());
    let t = f.transposed(trans);
    // The column-major call this is: row-major A is the transpose (M and N exchanged).
    let row = f.cblas() && layout == 101;
    let (ct, cm, cn) = if row {
        (t.map(|t| !t), n, m)
    } else {
        (t, m, n)
    };
    let lda = r.ld(f, cm);
    c.what += &format!(" layout={layout} trans={trans} m={m} n={n} alpha={alpha} lda={lda} incx={incx} beta={beta} incy={incy}");
    let (lenx, leny) = if ct == Some(true) { (cm, cn) } else { (cn, cm) };
    let a = c.add(r, mspan(cm, cn, lda), false);
    let x = c.add(r, vspan(lenx, incx), false);
    let nan = beta == 0.0 && r.percent(50);
    let y = c.add(r, vspan(leny, incy), nan);
    let fault = match cblas_checks(f, layout, &[(t, 2)]) {
        Err(info) => Some(info),
        Ok(_) => sgemv_info(ct, cm, cn, lda, incx, incy).map(|i| i + i32::from(f.cblas())),
    };
    let quick = cm == 0 || cn == 0 || (alpha == 0.0 && beta == 1.0);
    // A and x are read only when alpha != 0; y whenever the call does not return at once.
    let mut needs = vec![(y, vspan(leny, incy))];
    if alpha != 0.0 {
        needs.extend([(a, mspan(cm, cn, lda)), (x, vspan(lenx, incx))]);
    }
    let verdict = Verdict::of(fault, quick || c.usable(&needs));
    c.start();
    let (ap, xp, yp) = (c.ptr(a), c.ptr(x), c.ptr(y));
    let got = unsafe {
        match f {
            Iface::Api => Got::Status(glblasSgemv(
                OperationArg(i32_of(trans)),
                i32_of(m),
                i32_of(n),
                alpha,
                ap,
                i32_of(lda),
                xp,
                i32_of(incx),
                beta,
                yp,
                i32_of(incy),
            )),
            Iface::Cblas => blas(|| {
                cblas_sgemv(
                    layout,
                    i32_of(trans),
                    i32_of(m),
                    i32_of(n),
                    alpha,
                    ap,
                    i32_of(lda),
                    xp,
                    i32_of(incx),
                    beta,
                    yp,
                    i32_of(incy),
                )
            }),
            Iface::Fortran => {
                let ch = trans as c_char;
                blas(|| {
                    sgemv_(
                        &ch,
                        &i32_of(m),
                        &i32_of(n),
                        &alpha,
                        ap,
                        &i32_of(lda),
                        xp,
                        &i32_of(incx),
                        &beta,
                        yp,
                        &i32_of(incy),
                        1,
                    )
                })
            }
            Iface::Ilp64 => blas(|| {
                scipy_cblas_sgemv64_(
                    layout,
                    i32_of(trans),
                    m,
                    n,
                    alpha,
                    ap,
                    lda,
                    xp,
                    incx,
                    beta,
                    yp,
                    incy,
                )
            }),
        }
    };
    c.check(got, verdict, |c| {
        if quick {
            return (Vec::new(), (0.0, 0.0));
        }
        let tr = ct == Some(true);
        // With alpha == 0 neither A nor x is read: the reference then has no inner dimension.
        let (rm, rn) = match (alpha == 0.0, tr) {
            (false, _) => (cm, cn),
            (true, true) => (0, cn),
            (true, false) => (cm, 0),
        };
        let (ad, xd) = if alpha == 0.0 {
            (&[][..], &[][..])
        } else {
            (c.data(a), c.data(x))
        };
        let lenx = if tr { rm } else { rn };
        let leny = leny as usize;
        let want = sgemv_ref(
            tr,
            rm as usize,
            rn as usize,
            alpha,
            ad,
            lda as usize,
            xd,
            inc32(lenx, incx),
            beta,
            c.data(y),
            inc32(leny as i64, incy),
        );
        let changes = (0..leny)
            .map(|i| Change {
                op: y,
                at: idx(i, leny, incy),
                want: want.0[i],
                tol: (lenx as f64 + 2.0) * EPS * want.1[i] + f64::from(f32::MIN_POSITIVE),
            })
            .collect();
        (changes, (0.0, 0.0))
    });
}

/// glblasSgemm's or glblasDgemm's signature.
type ApiGemm<T> = unsafe extern "C" fn(
    OperationArg,
    OperationArg,
    c_int,
    c_int,
    c_int,
    T,
    *const T,
    c_int,
    *const T,
    c_int,
    T,
    *mut T,
    c_int,
) -> Status;
/// cblas_sgemm's or cblas_dgemm's (`I = c_int`), or their ILP64 names'.
type CblasGemm<T, I> =
    unsafe extern "C" fn(c_int, c_int, c_int, I, I, I, T, *const T, I, *const T, I, T, *mut T, I);
/// sgemm_'s or dgemm_'s.
type FortranGemm<T> = unsafe extern "C" fn(
    *const c_char,
    *const c_char,
    *const c_int,
    *const c_int,
    *const c_int,
    *const T,
    *const T,
    *const c_int,
    *const T,
    *const c_int,
    *const T,
    *mut T,
    *const c_int,
    usize,
    usize,
);

/// What the gemm fuzzer needs of a precision: its exports, scalars and reference.
trait GemmPrecision: Copy + PartialEq + std::fmt::Display {
    const PRECISION: Precision;
    const ZERO: Self;
    const ONE: Self;
    const API: ApiGemm<Self>;
    const CBLAS: CblasGemm<Self, c_int>;
    const FORTRAN: FortranGemm<Self>;
    const ILP64: CblasGemm<Self, i64>;
    fn scalar(r: &mut Rng) -> Self;
    /// An operand's elements as they were before the call.
    fn data(c: &Case, op: usize) -> Vec<Self>;
    /// C := alpha*op(A)*op(B) + beta*C with its error scale (`common::sgemm_ref`'s form).
    #[allow(clippy::too_many_arguments)]
    fn reference(
        t: (bool, bool),
        mnk: (usize, usize, usize),
        alpha: Self,
        a: (&[Self], usize),
        b: (&[Self], usize),
        beta: Self,
        c: (&[Self], usize),
    ) -> (Vec<f64>, Vec<f64>);
}

impl GemmPrecision for f32 {
    const PRECISION: Precision = SINGLE;
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const API: ApiGemm<f32> = glblasSgemm;
    const CBLAS: CblasGemm<f32, c_int> = cblas_sgemm;
    const FORTRAN: FortranGemm<f32> = sgemm_;
    const ILP64: CblasGemm<f32, i64> = scipy_cblas_sgemm64_;
    fn scalar(r: &mut Rng) -> f32 {
        r.scalar()
    }
    fn data(c: &Case, op: usize) -> Vec<f32> {
        c.data(op).to_vec()
    }
    fn reference(
        (ta, tb): (bool, bool),
        (m, n, k): (usize, usize, usize),
        alpha: f32,
        (a, lda): (&[f32], usize),
        (b, ldb): (&[f32], usize),
        beta: f32,
        (c, ldc): (&[f32], usize),
    ) -> (Vec<f64>, Vec<f64>) {
        sgemm_ref(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }
}

impl GemmPrecision for f64 {
    const PRECISION: Precision = DOUBLE;
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    const API: ApiGemm<f64> = glblasDgemm;
    const CBLAS: CblasGemm<f64, c_int> = cblas_dgemm;
    const FORTRAN: FortranGemm<f64> = dgemm_;
    const ILP64: CblasGemm<f64, i64> = scipy_cblas_dgemm64_;
    /// The special values, or any double (all 53 bits in use, so a single-precision
    /// computation misses the tolerance).
    fn scalar(r: &mut Rng) -> f64 {
        match r.below(6) {
            0 => 0.0,
            1 => 1.0,
            2 => -1.0,
            _ => fill64(1, r.next())[0] * 2.0,
        }
    }
    fn data(c: &Case, op: usize) -> Vec<f64> {
        c.data64(op)
    }
    fn reference(
        t: (bool, bool),
        mnk: (usize, usize, usize),
        alpha: f64,
        a: (&[f64], usize),
        b: (&[f64], usize),
        beta: f64,
        c: (&[f64], usize),
    ) -> (Vec<f64>, Vec<f64>) {
        dgemm_ref(t, mnk, alpha, a, b, beta, c)
    }
}

/// sgemm (`T = f32`) or dgemm.
fn fuzz_gemm<T: GemmPrecision>(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    c.width = T::PRECISION.width;
    let layout = r.layout();
    let (transa, transb) = (r.op(f), r.op(f));
    let (m, n, k) = (r.int(f, -1, 9), r.int(f, -1, 9), r.int(f, -1, 9));
    let (alpha, beta) = (T::scalar(r), T::scalar(r));
    let (ta, tb) = (f.transposed(transa), f.transposed(transb));
    // The column-major call this is: row-major C = op(A)op(B) is C^T = op(B)^T op(A)^T.
    let row = f.cblas() && layout == 101;
    let (cta, ctb, cm, cn) = if row { (tb, ta, n, m) } else { (ta, tb, m, n) };
    // (rows, cols) of the column-major call's A and B as stored.
    let shape = |t: Option<bool>, r: i64, c: i64| if t == Some(true) { (c, r) } else { (r, c) };
    let (sa, sb) = (shape(cta, cm, k), shape(ctb, k, cn));
    let (clda, cldb, ldc) = (r.ld(f, sa.0), r.ld(f, sb.0), r.ld(f, cm));
    // Operands and leading dimensions as passed: row-major passes B's where the call takes A's.
    let (lda, ldb) = if row { (cldb, clda) } else { (clda, cldb) };
    c.what += &format!(" layout={layout} transa={transa} transb={transb} m={m} n={n} k={k} alpha={alpha} lda={lda} ldb={ldb} beta={beta} ldc={ldc}");
    let ca = c.add(r, mspan(sa.0, sa.1, clda), false);
    let cb = c.add(r, mspan(sb.0, sb.1, cldb), false);
    let nan = beta == T::ZERO && r.percent(50);
    let cc = c.add(r, mspan(cm, cn, ldc), nan);
    let (a, b) = if row { (cb, ca) } else { (ca, cb) };
    let fault = match cblas_checks(f, layout, &[(ta, 2), (tb, 3)]) {
        Err(info) => Some(info),
        Ok(_) => sgemm_info(cta, ctb, cm, cn, k, clda, cldb, ldc).map(|i| i + i32::from(f.cblas())),
    };
    // The reference's quick return: C untouched, nothing read.
    let quick = cm == 0 || cn == 0 || ((alpha == T::ZERO || k == 0) && beta == T::ONE);
    let reads_ab = k > 0 && alpha != T::ZERO;
    let mut needs = vec![];
    if !quick {
        needs.push((cc, mspan(cm, cn, ldc)));
        if reads_ab {
            needs.extend([(ca, mspan(sa.0, sa.1, clda)), (cb, mspan(sb.0, sb.1, cldb))]);
        }
    }
    let verdict = verdict_on_device(c, fault, &needs, T::PRECISION.supported());
    c.start();
    let (ap, bp, cp) = (
        c.ptr(a).cast::<T>(),
        c.ptr(b).cast::<T>(),
        c.ptr(cc).cast::<T>(),
    );
    let got = unsafe {
        match f {
            Iface::Api => Got::Status((T::API)(
                OperationArg(i32_of(transa)),
                OperationArg(i32_of(transb)),
                i32_of(m),
                i32_of(n),
                i32_of(k),
                alpha,
                ap,
                i32_of(lda),
                bp,
                i32_of(ldb),
                beta,
                cp,
                i32_of(ldc),
            )),
            Iface::Cblas => blas(|| {
                (T::CBLAS)(
                    layout,
                    i32_of(transa),
                    i32_of(transb),
                    i32_of(m),
                    i32_of(n),
                    i32_of(k),
                    alpha,
                    ap,
                    i32_of(lda),
                    bp,
                    i32_of(ldb),
                    beta,
                    cp,
                    i32_of(ldc),
                )
            }),
            Iface::Fortran => {
                let (cha, chb) = (transa as c_char, transb as c_char);
                blas(|| {
                    (T::FORTRAN)(
                        &cha,
                        &chb,
                        &i32_of(m),
                        &i32_of(n),
                        &i32_of(k),
                        &alpha,
                        ap,
                        &i32_of(lda),
                        bp,
                        &i32_of(ldb),
                        &beta,
                        cp,
                        &i32_of(ldc),
                        1,
                        1,
                    )
                })
            }
            Iface::Ilp64 => blas(|| {
                (T::ILP64)(
                    layout,
                    i32_of(transa),
                    i32_of(transb),
                    m,
                    n,
                    k,
                    alpha,
                    ap,
                    lda,
                    bp,
                    ldb,
                    beta,
                    cp,
                    ldc,
                )
            }),
        }
    };
    c.check(got, verdict, |c| {
        if quick {
            return (Vec::new(), (0.0, 0.0));
        }
        // Without alpha*A*B the reference has no inner dimension (A and B are not read).
        let (rk, ad, bd) = if reads_ab {
            (k, T::data(c, ca), T::data(c, cb))
        } else {
            (0, Vec::new(), Vec::new())
        };
        let (um, un, ldc) = (cm as usize, cn as usize, ldc as usize);
        let want = T::reference(
            (cta == Some(true), ctb == Some(true)),
            (um, un, rk as usize),
            alpha,
            (&ad, clda as usize),
            (&bd, cldb as usize),
            beta,
            (&T::data(c, cc), ldc),
        );
        let (dims, terms) = ((um, un, ldc), rk as usize);
        let changes = matrix_changes(cc, dims, &want, (terms, T::PRECISION), |_, _| true);
        (changes, (0.0, 0.0))
    });
}

fn fuzz_sgemm(r: &mut Rng, c: &mut Case) {
    fuzz_gemm::<f32>(r, c)
}

fn fuzz_dgemm(r: &mut Rng, c: &mut Case) {
    fuzz_gemm::<f64>(r, c)
}

/// A precision's element width and rounding, for tolerances.
#[derive(Clone, Copy)]
struct Precision {
    /// Floats per element.
    width: usize,
    /// Unit roundoff.
    u: f64,
    /// The smallest normal value (an absolute floor for results near zero).
    tiny: f64,
    double: bool,
}

const SINGLE: Precision = Precision {
    width: 1,
    u: EPS,
    tiny: f32::MIN_POSITIVE as f64,
    double: false,
};
const DOUBLE: Precision = Precision {
    width: 2,
    u: EPS64,
    tiny: f64::MIN_POSITIVE,
    double: true,
};

impl Precision {
    /// Whether the device computes in this precision: single everywhere, double on the
    /// compute pipeline with fp64 shaders (README "Double precision").
    fn supported(self) -> bool {
        !self.double || *DOUBLES.get().expect("set before the first case")
    }
}

/// Whether the device computes in double, from glblasGetDeviceInfo: the compute pipeline with
/// fp64 shaders.
static DOUBLES: OnceLock<bool> = OnceLock::new();

/// A side, uplo or diag argument: the values meaning false and true in each interface.
struct FlagKind {
    api: [i64; 2],
    cblas: [i64; 2],
    fortran: [u8; 2],
}

/// Whether A is on the right.
const SIDE_RIGHT: FlagKind = FlagKind {
    api: [0, 1],
    cblas: [141, 142],
    fortran: *b"LR",
};
/// Whether the upper triangle is the stored one.
const UPLO_UPPER: FlagKind = FlagKind {
    api: [0, 1],
    cblas: [122, 121],
    fortran: *b"LU",
};
/// Whether the diagonal is unit (not read).
const DIAG_UNIT: FlagKind = FlagKind {
    api: [0, 1],
    cblas: [131, 132],
    fortran: *b"NU",
};

impl FlagKind {
    /// What `v` means as `f` passes it; None when it is neither value.
    fn of(&self, f: Iface, v: i64) -> Option<bool> {
        match f {
            Iface::Api => self.api.iter().position(|&a| a == v),
            Iface::Cblas | Iface::Ilp64 => self.cblas.iter().position(|&a| a == v),
            // Fortran takes either case.
            Iface::Fortran => self
                .fortran
                .iter()
                .position(|&a| u8::try_from(v).is_ok_and(|c| c.to_ascii_uppercase() == a)),
        }
        .map(|i| i == 1)
    }
}

impl Rng {
    /// A side, uplo or diag argument as `f` passes it: a valid one, or any other value.
    fn flag(&mut self, f: Iface, k: &FlagKind) -> i64 {
        if !self.percent(90) {
            return match f {
                Iface::Fortran => self.range(0, 255),
                _ => self.range(-5, 200),
            };
        }
        let i = self.below(2) as usize;
        match f {
            Iface::Api => k.api[i],
            Iface::Cblas | Iface::Ilp64 => k.cblas[i],
            Iface::Fortran if self.percent(50) => i64::from(k.fortran[i].to_ascii_lowercase()),
            Iface::Fortran => i64::from(k.fortran[i]),
        }
    }

    /// A leading dimension for a matrix of `rows` rows: near the smallest valid one.
    fn ld(&mut self, f: Iface, rows: i64) -> i64 {
        self.int(
            f,
            rows.max(1).saturating_sub(2),
            rows.max(1).saturating_add(2),
        )
    }
}

/// The first failing check of a reference routine's list, in order: its parameter number.
fn first_failure(checks: &[(bool, i32)]) -> Option<i32> {
    checks.iter().find(|c| c.0).map(|c| c.1)
}

/// The reference SSYMM's checks (side: A on the right; uplo: upper).
fn ssymm_info(side: Option<bool>, uplo: Option<bool>, mn: [i64; 2], ld: [i64; 3]) -> Option<i32> {
    let ([m, n], [lda, ldb, ldc]) = (mn, ld);
    let nrowa = if side == Some(true) { n } else { m };
    first_failure(&[
        (side.is_none(), 1),
        (uplo.is_none(), 2),
        (m < 0, 3),
        (n < 0, 4),
        (lda < nrowa.max(1), 7),
        (ldb < m.max(1), 9),
        (ldc < m.max(1), 12),
    ])
}

/// The reference SSYRK's (`ldb` None) or SSYR2K's checks.
fn ssyrk_info(
    uplo: Option<bool>,
    trans: Option<bool>,
    nk: [i64; 2],
    (lda, ldb, ldc): (i64, Option<i64>, i64),
) -> Option<i32> {
    let [n, k] = nk;
    let nrowa = if trans == Some(true) { k } else { n };
    first_failure(&[
        (uplo.is_none(), 1),
        (trans.is_none(), 2),
        (n < 0, 3),
        (k < 0, 4),
        (lda < nrowa.max(1), 7),
        (ldb.is_some_and(|ldb| ldb < nrowa.max(1)), 9),
        (ldc < n.max(1), if ldb.is_some() { 12 } else { 10 }),
    ])
}

/// The reference STRMM's and STRSM's checks (side, uplo, transa, diag as meanings).
fn stri_info(how: [Option<bool>; 4], mn: [i64; 2], [lda, ldb]: [i64; 2]) -> Option<i32> {
    let ([side, uplo, trans, diag], [m, n]) = (how, mn);
    let nrowa = if side == Some(true) { n } else { m };
    first_failure(&[
        (side.is_none(), 1),
        (uplo.is_none(), 2),
        (trans.is_none(), 3),
        (diag.is_none(), 4),
        (m < 0, 5),
        (n < 0, 6),
        (lda < nrowa.max(1), 9),
        (ldb < m.max(1), 11),
    ])
}

/// A level-3 call's verdict: its argument fault if any; where the device cannot run it
/// (`supported` false), NOT_SUPPORTED, except that the API refuses a NULL pointer the call needs
/// first (the NULL checks come before the device's); else whether its operands can be used.
/// `needs` is empty for a quick return.
fn verdict_on_device(
    c: &Case,
    fault: Option<i32>,
    needs: &[(usize, u128)],
    supported: bool,
) -> Verdict {
    let api_null =
        c.iface == Iface::Api && needs.iter().any(|&(i, _)| c.ops[i].place == Place::Null);
    match fault {
        Some(info) => Verdict::Fault(info),
        None if !(supported || api_null) => Verdict::Unsupported,
        None => Verdict::of(None, c.usable(needs)),
    }
}

/// Puts NaN where a call must not read: the triangle of an order×order matrix (leading
/// dimension `ld`) other than the `upper` (else lower) one, and the diagonal when `diagonal`.
fn poison(d: &mut [f32], order: i64, ld: i64, upper: bool, diagonal: bool) {
    for (i, j, at) in square(d, order, ld) {
        if (i == j && diagonal) || (i != j && (i < j) != upper) {
            d[at] = f32::NAN;
        }
    }
}

/// The (row, column, index) of each element of an order×order matrix held in `d` (nothing
/// for an operand too large to be held: it is never read).
fn square(d: &[f32], order: i64, ld: i64) -> Vec<(usize, usize, usize)> {
    let (order, ld) = (order.max(0) as usize, ld.max(0) as usize);
    if order > 64 || mspan(order as i64, order as i64, ld as i64) > d.len() as u128 {
        return Vec::new();
    }
    (0..order)
        .flat_map(|j| (0..order).map(move |i| (i, j, i + j * ld)))
        .collect()
}

/// A's stored triangle (order×order, leading dimension `lda`) as a full matrix (leading
/// dimension `order`): mirrored when `symmetric`, else triangular, zero outside the triangle
/// and, with a `unit` diagonal, ones on it. Every value is an f32 of A, 0 or 1, so the gemm
/// reference takes it as it is.
fn expand(
    a: &[f32],
    order: usize,
    lda: usize,
    upper: bool,
    symmetric: bool,
    unit: bool,
) -> Vec<f32> {
    let stored = |i: usize, j: usize| if upper { i <= j } else { i >= j };
    let mut full = vec![0.0; order * order];
    for j in 0..order {
        for i in 0..order {
            full[i + j * order] = if i == j && unit {
                1.0
            } else if stored(i, j) {
                a[i + j * lda]
            } else if symmetric {
                a[j + i * lda]
            } else {
                0.0
            };
        }
    }
    full
}

/// C := beta*C in double precision with its error scale: the reference of a call without
/// alpha's product (which reads neither A nor B).
fn beta_c(m: usize, n: usize, beta: f32, c: &[f32], ldc: usize) -> (Vec<f64>, Vec<f64>) {
    sgemm_ref(false, false, m, n, 0, 0.0, &[], 1, &[], 1, beta, c, ldc)
}

/// The elements of an m×n column-major output (leading dimension `ld`) that `keep` selects,
/// expected as a reference (value, error scale) says, within (terms + 2)·u of the scale.
fn matrix_changes(
    op: usize,
    (m, n, ld): (usize, usize, usize),
    want: &(Vec<f64>, Vec<f64>),
    (terms, p): (usize, Precision),
    keep: impl Fn(usize, usize) -> bool,
) -> Vec<Change> {
    let mut changes = Vec::new();
    for j in 0..n {
        for i in (0..m).filter(|&i| keep(i, j)) {
            let e = i + j * m;
            changes.push(Change {
                op,
                at: i + j * ld,
                want: want.0[e],
                tol: (terms as f64 + 2.0) * p.u * want.1[e] + p.tiny,
            });
        }
    }
    changes
}

fn fuzz_ssymm(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let layout = r.layout();
    let (side, uplo) = (r.flag(f, &SIDE_RIGHT), r.flag(f, &UPLO_UPPER));
    let (m, n) = (r.int(f, -1, 9), r.int(f, -1, 9));
    let (alpha, beta) = (r.scalar(), r.scalar());
    let (right, upper) = (SIDE_RIGHT.of(f, side), UPLO_UPPER.of(f, uplo));
    // The column-major call this is: row-major swaps side and uplo and exchanges M and N.
    let row = f.cblas() && layout == 101;
    let flip = |v: Option<bool>| if row { v.map(|v| !v) } else { v };
    let (cright, cupper) = (flip(right), flip(upper));
    let (cm, cn) = if row { (n, m) } else { (m, n) };
    let ka = if cright == Some(true) { cn } else { cm };
    let (lda, ldb, ldc) = (r.ld(f, ka), r.ld(f, cm), r.ld(f, cm));
    c.what += &format!(" layout={layout} side={side} uplo={uplo} m={m} n={n} alpha={alpha} lda={lda} ldb={ldb} beta={beta} ldc={ldc}");
    // NaN in the triangle that is not stored proves it is not read.
    let hide = cupper.filter(|_| r.percent(30));
    let a = c.add_with(
        r,
        mspan(ka, ka, lda),
        if hide.is_some() { " NaN outside" } else { "" },
        |d| {
            if let Some(u) = hide {
                poison(d, ka, lda, u, false)
            }
        },
    );
    let b = c.add(r, mspan(cm, cn, ldb), false);
    let nan = beta == 0.0 && r.percent(50);
    let cc = c.add(r, mspan(cm, cn, ldc), nan);
    let fault = match cblas_checks(f, layout, &[(right, 2), (upper, 3)]) {
        Err(info) => Some(info),
        Ok(_) => {
            ssymm_info(cright, cupper, [cm, cn], [lda, ldb, ldc]).map(|i| i + i32::from(f.cblas()))
        }
    };
    let quick = cm == 0 || cn == 0 || (alpha == 0.0 && beta == 1.0);
    let mut needs = vec![];
    if !quick {
        needs.push((cc, mspan(cm, cn, ldc)));
        if alpha != 0.0 {
            needs.extend([(a, mspan(ka, ka, lda)), (b, mspan(cm, cn, ldb))]);
        }
    }
    let verdict = verdict_on_device(c, fault, &needs, SINGLE.supported());
    c.start();
    let args = MmArgs {
        layout,
        enums: [side, uplo],
        dims: [m, n],
        scalars: (alpha, beta),
        a: (a, lda),
        b: Some((b, ldb)),
        c: (cc, ldc),
    };
    let got = call_mm(c, &SSYMM, &args);
    c.check(got, verdict, |c| {
        if quick {
            return (Vec::new(), (0.0, 0.0));
        }
        let (um, un, uka) = (cm as usize, cn as usize, ka as usize);
        let (cd, ldc) = (c.data(cc), ldc as usize);
        // Without alpha*A*B the reference has no inner dimension (A and B are not read).
        let (rk, want) = if alpha == 0.0 {
            (0, beta_c(um, un, beta, cd, ldc))
        } else {
            let full = expand(
                c.data(a),
                uka,
                lda as usize,
                cupper == Some(true),
                true,
                false,
            );
            let (bd, ldb) = (c.data(b), ldb as usize);
            let want = if cright == Some(true) {
                sgemm_ref(
                    false, false, um, un, uka, alpha, bd, ldb, &full, uka, beta, cd, ldc,
                )
            } else {
                sgemm_ref(
                    false, false, um, un, uka, alpha, &full, uka, bd, ldb, beta, cd, ldc,
                )
            };
            (uka, want)
        };
        (
            matrix_changes(cc, (um, un, ldc), &want, (rk, SINGLE), |_, _| true),
            (0.0, 0.0),
        )
    });
}

/// ssyrk, or ssyr2k when `two`.
fn fuzz_syrk_or_syr2k(r: &mut Rng, c: &mut Case, two: bool) {
    let f = c.iface;
    let layout = r.layout();
    let (uplo, trans) = (r.flag(f, &UPLO_UPPER), r.op(f));
    let (n, k) = (r.int(f, -1, 9), r.int(f, -1, 9));
    let (alpha, beta) = (r.scalar(), r.scalar());
    let (upper, t) = (UPLO_UPPER.of(f, uplo), f.transposed(trans));
    // Row-major C is stored as C^T (the other triangle) and op(A) is read as the other op.
    let row = f.cblas() && layout == 101;
    let flip = |v: Option<bool>| if row { v.map(|v| !v) } else { v };
    let (cupper, ct) = (flip(upper), flip(t));
    let (rows, cols) = if ct == Some(true) { (k, n) } else { (n, k) };
    let (lda, ldb, ldc) = (r.ld(f, rows), r.ld(f, rows), r.ld(f, n));
    let ldb = two.then_some(ldb);
    c.what += &format!(" layout={layout} uplo={uplo} trans={trans} n={n} k={k} alpha={alpha} lda={lda} ldb={ldb:?} beta={beta} ldc={ldc}");
    let a = c.add(r, mspan(rows, cols, lda), false);
    let b = ldb.map(|ldb| (c.add(r, mspan(rows, cols, ldb), false), ldb));
    let nan = beta == 0.0 && r.percent(50);
    let cc = c.add(r, mspan(n, n, ldc), nan);
    // The reference CBLAS reports a bad uplo of a row-major call as parameter 3.
    let fault = match cblas_checks(f, layout, &[(upper, if row { 3 } else { 2 }), (t, 3)]) {
        Err(info) => Some(info),
        Ok(_) => ssyrk_info(cupper, ct, [n, k], (lda, ldb, ldc)).map(|i| i + i32::from(f.cblas())),
    };
    let quick = n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0);
    let reads_ab = alpha != 0.0 && k > 0;
    let mut needs = vec![];
    if !quick {
        needs.push((cc, mspan(n, n, ldc)));
        if reads_ab {
            needs.push((a, mspan(rows, cols, lda)));
            needs.extend(b.map(|(b, ldb)| (b, mspan(rows, cols, ldb))));
        }
    }
    let verdict = verdict_on_device(c, fault, &needs, SINGLE.supported());
    c.start();
    let args = MmArgs {
        layout,
        enums: [uplo, trans],
        dims: [n, k],
        scalars: (alpha, beta),
        a: (a, lda),
        b,
        c: (cc, ldc),
    };
    let got = call_mm(c, if two { &SSYR2K } else { &SSYRK }, &args);
    c.check(got, verdict, |c| {
        if quick {
            return (Vec::new(), (0.0, 0.0));
        }
        let (un, uk, tr) = (n as usize, k as usize, ct == Some(true));
        let (cd, ldc) = (c.data(cc), ldc as usize);
        // op(X)op(Y)^T is gemm with op and its transpose (not reading A or B without them).
        let gemm = |x: &[f32], ldx: usize, y: &[f32], ldy: usize, beta: f32| {
            sgemm_ref(tr, !tr, un, un, uk, alpha, x, ldx, y, ldy, beta, cd, ldc)
        };
        let (terms, want) = match b {
            _ if !reads_ab => (0, beta_c(un, un, beta, cd, ldc)),
            None => (
                uk,
                gemm(c.data(a), lda as usize, c.data(a), lda as usize, beta),
            ),
            Some((b, ldb)) => {
                let (ad, bd, lda) = (c.data(a), c.data(b), lda as usize);
                let (ab, ba) = (
                    gemm(ad, lda, bd, ldb as usize, beta),
                    gemm(bd, ldb as usize, ad, lda, 0.0),
                );
                let sum = |x: &[f64], y: &[f64]| x.iter().zip(y).map(|(x, y)| x + y).collect();
                (2 * uk, (sum(&ab.0, &ba.0), sum(&ab.1, &ba.1)))
            }
        };
        // Only C's stored triangle may change.
        let upper = cupper == Some(true);
        let keep = |i: usize, j: usize| if upper { i <= j } else { i >= j };
        (
            matrix_changes(cc, (un, un, ldc), &want, (terms, SINGLE), keep),
            (0.0, 0.0),
        )
    });
}

fn fuzz_ssyrk(r: &mut Rng, c: &mut Case) {
    fuzz_syrk_or_syr2k(r, c, false)
}

fn fuzz_ssyr2k(r: &mut Rng, c: &mut Case) {
    fuzz_syrk_or_syr2k(r, c, true)
}

/// Makes A well conditioned for strsm: the stored diagonal at least order+1 in magnitude
/// (diagonally dominant), or, with a unit diagonal, off-diagonal elements below 1/order.
fn condition(d: &mut [f32], order: i64, ld: i64, unit: bool) {
    for (i, j, at) in square(d, order, ld) {
        if i == j && !unit {
            d[at] = (order as f32 + 1.0 + d[at].abs()).copysign(d[at]);
        } else if i != j && unit {
            d[at] /= order as f32;
        }
    }
}

/// strmm, or strsm when `solve`.
fn fuzz_triangular(r: &mut Rng, c: &mut Case, solve: bool) {
    let f = c.iface;
    let layout = r.layout();
    let (side, uplo) = (r.flag(f, &SIDE_RIGHT), r.flag(f, &UPLO_UPPER));
    let (transa, diag) = (r.op(f), r.flag(f, &DIAG_UNIT));
    let (m, n) = (r.int(f, -1, 9), r.int(f, -1, 9));
    let alpha = r.scalar();
    let (right, upper) = (SIDE_RIGHT.of(f, side), UPLO_UPPER.of(f, uplo));
    let (t, unit) = (f.transposed(transa), DIAG_UNIT.of(f, diag));
    // The column-major call: row-major swaps side and uplo and exchanges M and N.
    let row = f.cblas() && layout == 101;
    let flip = |v: Option<bool>| if row { v.map(|v| !v) } else { v };
    let (cright, cupper) = (flip(right), flip(upper));
    let (cm, cn) = if row { (n, m) } else { (m, n) };
    let ka = if cright == Some(true) { cn } else { cm };
    let (lda, ldb) = (r.ld(f, ka), r.ld(f, cm));
    c.what += &format!(" layout={layout} side={side} uplo={uplo} transa={transa} diag={diag} m={m} n={n} alpha={alpha} lda={lda} ldb={ldb}");
    // NaN outside the stored triangle (and on a unit diagonal) proves those are not read.
    let hide = cupper.zip(unit).filter(|_| r.percent(30));
    let label = if hide.is_some() { " NaN outside" } else { "" };
    let a = c.add_with(r, mspan(ka, ka, lda), label, |d| {
        if let (true, Some(unit)) = (solve, unit) {
            condition(d, ka, lda, unit);
        }
        if let Some((u, unit)) = hide {
            poison(d, ka, lda, u, unit)
        }
    });
    let b = c.add(r, mspan(cm, cn, ldb), false);
    let fault = match cblas_checks(f, layout, &[(right, 2), (upper, 3), (t, 4), (unit, 5)]) {
        Err(info) => Some(info),
        Ok(_) => stri_info([cright, cupper, t, unit], [cm, cn], [lda, ldb])
            .map(|i| i + i32::from(f.cblas())),
    };
    let quick = cm == 0 || cn == 0;
    let mut needs = vec![];
    if !quick {
        needs.push((b, mspan(cm, cn, ldb)));
        if alpha != 0.0 {
            needs.push((a, mspan(ka, ka, lda)));
        }
    }
    let verdict = verdict_on_device(c, fault, &needs, SINGLE.supported());
    c.start();
    let exports = if solve { &STRSM } else { &STRMM };
    let (ap, bp) = (c.ptr(a).cast_const(), c.ptr(b));
    let enums = [side, uplo, transa, diag].map(i32_of);
    let got = {
        match f {
            Iface::Ilp64 => (exports.ilp64)(layout, enums, [m, n], alpha, (ap, lda), (bp, ldb)),
            _ => {
                let call = match f {
                    Iface::Api => exports.api,
                    Iface::Cblas => exports.cblas,
                    _ => exports.fortran,
                };
                let [m, n, lda, ldb] = [m, n, lda, ldb].map(i32_of);
                call(layout, enums, [m, n], alpha, (ap, lda), (bp, ldb))
            }
        }
    };
    c.check(got, verdict, |c| {
        if quick {
            return (Vec::new(), (0.0, 0.0));
        }
        let (um, un, uka, ldb) = (cm as usize, cn as usize, ka as usize, ldb as usize);
        let dims = (um, un, ldb);
        if alpha == 0.0 {
            // B := 0, A not read.
            let zero = (vec![0.0; um * un], vec![0.0; um * un]);
            return (
                matrix_changes(b, dims, &zero, (0, SINGLE), |_, _| true),
                (0.0, 0.0),
            );
        }
        let (tr, bd) = (t == Some(true), c.data(b));
        let full = expand(
            c.data(a),
            uka,
            lda as usize,
            cupper == Some(true),
            false,
            unit == Some(true),
        );
        if !solve {
            let want = if cright == Some(true) {
                sgemm_ref(
                    false,
                    tr,
                    um,
                    un,
                    uka,
                    alpha,
                    bd,
                    ldb,
                    &full,
                    uka,
                    0.0,
                    &[],
                    1,
                )
            } else {
                sgemm_ref(
                    tr,
                    false,
                    um,
                    un,
                    uka,
                    alpha,
                    &full,
                    uka,
                    bd,
                    ldb,
                    0.0,
                    &[],
                    1,
                )
            };
            return (
                matrix_changes(b, dims, &want, (uka, SINGLE), |_, _| true),
                (0.0, 0.0),
            );
        }
        // op(A)·X = alpha·B column by column; X·op(A) = alpha·B is op(A)^T·X^T = alpha·B^T,
        // row by row. `s` is the matrix solved with, op(A) or op(A)^T.
        let right = cright == Some(true);
        let s_trans = tr != right;
        let s: Vec<f64> = (0..uka * uka)
            .map(|e| {
                let (i, j) = (e % uka, e / uka);
                f64::from(if s_trans {
                    full[j + i * uka]
                } else {
                    full[i + j * uka]
                })
            })
            .collect();
        let s_upper = (cupper == Some(true)) != s_trans;
        let mut want = (vec![0.0; um * un], vec![0.0; um * un]);
        let (lines, along) = if right { (um, un) } else { (un, um) };
        for line in 0..lines {
            let at = |p: usize| if right { (line, p) } else { (p, line) };
            let rhs: Vec<f64> = (0..along)
                .map(|p| {
                    let (i, j) = at(p);
                    f64::from(alpha) * f64::from(bd[i + j * ldb])
                })
                .collect();
            let (x, bound) = solve_with_bound(&s, uka, s_upper, &rhs);
            for p in 0..along {
                let (i, j) = at(p);
                want.0[i + j * um] = x[p];
                want.1[i + j * um] = bound[p];
            }
        }
        (
            matrix_changes(b, dims, &want, (trsm_terms(uka), SINGLE), |_, _| true),
            (0.0, 0.0),
        )
    });
}

/// A trmm- or trsm-shaped call: layout, side, uplo, transa, diag, m, n, alpha, A, B, with `I`
/// integers; each export adapted to it.
type TriCall<I> = fn(c_int, [c_int; 4], [I; 2], f32, (*const f32, I), (*mut f32, I)) -> Got;

/// The four exports of strmm or strsm.
struct TriExports {
    api: TriCall<c_int>,
    cblas: TriCall<c_int>,
    fortran: TriCall<c_int>,
    ilp64: TriCall<i64>,
}

/// strmm's or strsm's exports, adapted to `TriCall`.
macro_rules! tri_exports {
    ($api:ident, $cblas:ident, $fortran:ident, $ilp64:ident) => {
        TriExports {
            api: |_, [s, u, t, d], [m, n], al, (a, lda), (b, ldb)| {
                let (s, u, t, d) = (SideArg(s), FillArg(u), OperationArg(t), DiagArg(d));
                Got::Status(unsafe { $api(s, u, t, d, m, n, al, a, lda, b, ldb) })
            },
            cblas: |l, [s, u, t, d], [m, n], al, (a, lda), (b, ldb)| {
                blas(|| unsafe { $cblas(l, s, u, t, d, m, n, al, a, lda, b, ldb) })
            },
            fortran: |_, e, [m, n], al, (a, lda), (b, ldb)| {
                let [s, u, t, d] = e.map(|v| v as c_char);
                blas(|| unsafe {
                    $fortran(&s, &u, &t, &d, &m, &n, &al, a, &lda, b, &ldb, 1, 1, 1, 1)
                })
            },
            ilp64: |l, [s, u, t, d], [m, n], al, (a, lda), (b, ldb)| {
                blas(|| unsafe { $ilp64(l, s, u, t, d, m, n, al, a, lda, b, ldb) })
            },
        }
    };
}

const STRMM: TriExports = tri_exports!(glblasStrmm, cblas_strmm, strmm_, scipy_cblas_strmm64_);
const STRSM: TriExports = tri_exports!(glblasStrsm, cblas_strsm, strsm_, scipy_cblas_strsm64_);

/// A symm-shaped call (symm, syrk, syr2k): layout, two enum arguments, two sizes, alpha, A, B,
/// beta, C, with `I` integers; each export adapted to it (syrk's ignoring B).
type MmCall<I> =
    fn(c_int, [c_int; 2], [I; 2], f32, (*const f32, I), (*const f32, I), f32, (*mut f32, I)) -> Got;

/// The four exports of ssymm, ssyrk or ssyr2k.
struct MmExports {
    api: MmCall<c_int>,
    cblas: MmCall<c_int>,
    fortran: MmCall<c_int>,
    ilp64: MmCall<i64>,
}

/// The exports of a routine with symm's arguments (ssymm; ssyr2k, whose enums are uplo and
/// trans), adapted to `MmCall`.
macro_rules! mm_exports {
    ($api:ident($e0:ident, $e1:ident), $cblas:ident, $fortran:ident, $ilp64:ident) => {
        MmExports {
            api: |_, [x, y], [m, n], al, (a, lda), (b, ldb), be, (c, ldc)| {
                let (x, y) = ($e0(x), $e1(y));
                Got::Status(unsafe { $api(x, y, m, n, al, a, lda, b, ldb, be, c, ldc) })
            },
            cblas: |l, [x, y], [m, n], al, (a, lda), (b, ldb), be, (c, ldc)| {
                blas(|| unsafe { $cblas(l, x, y, m, n, al, a, lda, b, ldb, be, c, ldc) })
            },
            fortran: |_, e, [m, n], al, (a, lda), (b, ldb), be, (c, ldc)| {
                let [x, y] = e.map(|v| v as c_char);
                blas(|| unsafe {
                    $fortran(&x, &y, &m, &n, &al, a, &lda, b, &ldb, &be, c, &ldc, 1, 1)
                })
            },
            ilp64: |l, [x, y], [m, n], al, (a, lda), (b, ldb), be, (c, ldc)| {
                blas(|| unsafe { $ilp64(l, x, y, m, n, al, a, lda, b, ldb, be, c, ldc) })
            },
        }
    };
}

const SSYMM: MmExports = mm_exports!(
    glblasSsymm(SideArg, FillArg),
    cblas_ssymm,
    ssymm_,
    scipy_cblas_ssymm64_
);
const SSYR2K: MmExports = mm_exports!(
    glblasSsyr2k(FillArg, OperationArg),
    cblas_ssyr2k,
    ssyr2k_,
    scipy_cblas_ssyr2k64_
);
/// ssyrk's exports take the same arguments but B.
const SSYRK: MmExports = MmExports {
    api: |_, [u, t], [n, k], al, (a, lda), _, be, (c, ldc)| {
        let (u, t) = (FillArg(u), OperationArg(t));
        Got::Status(unsafe { glblasSsyrk(u, t, n, k, al, a, lda, be, c, ldc) })
    },
    cblas: |l, [u, t], [n, k], al, (a, lda), _, be, (c, ldc)| {
        blas(|| unsafe { cblas_ssyrk(l, u, t, n, k, al, a, lda, be, c, ldc) })
    },
    fortran: |_, e, [n, k], al, (a, lda), _, be, (c, ldc)| {
        let [u, t] = e.map(|v| v as c_char);
        blas(|| unsafe { ssyrk_(&u, &t, &n, &k, &al, a, &lda, &be, c, &ldc, 1, 1) })
    },
    ilp64: |l, [u, t], [n, k], al, (a, lda), _, be, (c, ldc)| {
        blas(|| unsafe { scipy_cblas_ssyrk64_(l, u, t, n, k, al, a, lda, be, c, ldc) })
    },
};

/// A symm-shaped case's arguments: operands by index with their leading dimensions.
struct MmArgs {
    layout: c_int,
    enums: [i64; 2],
    dims: [i64; 2],
    scalars: (f32, f32),
    a: (usize, i64),
    b: Option<(usize, i64)>,
    c: (usize, i64),
}

/// Calls the export of `c`'s interface (32-bit integers but for ILP64); no B is NULL.
fn call_mm(c: &Case, e: &MmExports, x: &MmArgs) -> Got {
    let ((a, lda), (cc, ldc), (alpha, beta)) = (x.a, x.c, x.scalars);
    let (b, ldb) = x.b.map_or((std::ptr::null(), 1), |(b, ldb)| {
        (c.ptr(b).cast_const(), ldb)
    });
    let (ap, cp) = (c.ptr(a).cast_const(), c.ptr(cc));
    let enums = x.enums.map(i32_of);
    {
        match c.iface {
            Iface::Ilp64 => (e.ilp64)(
                x.layout,
                enums,
                x.dims,
                alpha,
                (ap, lda),
                (b, ldb),
                beta,
                (cp, ldc),
            ),
            f => {
                let call = match f {
                    Iface::Api => e.api,
                    Iface::Cblas => e.cblas,
                    _ => e.fortran,
                };
                let [m, n, lda, ldb, ldc] = [x.dims[0], x.dims[1], lda, ldb, ldc].map(i32_of);
                call(
                    x.layout,
                    enums,
                    [m, n],
                    alpha,
                    (ap, lda),
                    (b, ldb),
                    beta,
                    (cp, ldc),
                )
            }
        }
    }
}

fn fuzz_strmm(r: &mut Rng, c: &mut Case) {
    fuzz_triangular(r, c, false)
}

fn fuzz_strsm(r: &mut Rng, c: &mut Case) {
    fuzz_triangular(r, c, true)
}

fn fuzz_snrm2(r: &mut Rng, c: &mut Case) {
    let exports = ReductionExports {
        api: glblasSnrm2,
        cblas: cblas_snrm2,
        fortran: snrm2_,
        ilp64: scipy_cblas_snrm264_,
    };
    // x is read for n > 0, whatever the increment: a negative one gives the same elements'
    // norm, a zero one repeats x_0 (n may be 2^32 + 3), |x_0|·sqrt(n).
    fuzz_reduction(
        r,
        c,
        &exports,
        |n, _| n > 0,
        |xs, n, incx| {
            let norm = if incx == 0 {
                f64::from(xs[0]).abs() * (n as f64).sqrt()
            } else {
                (0..n)
                    .map(|i| f64::from(xs[idx(i, n, incx)]).powi(2))
                    .sum::<f64>()
                    .sqrt()
            };
            // README: within ((n+1)/2 + 3)·u relative of the exact norm.
            let tol = ((n as f64 + 1.0) / 2.0 + 3.0) * EPS * norm + f64::from(f32::MIN_POSITIVE);
            (norm, tol)
        },
    );
}

fn fuzz_isamax(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let (n, incx) = (r.int(f, -2, 40), r.inc(f));
    c.what += &format!(" n={n} incx={incx}");
    // Some NaN (never the largest, but kept as element 1) and some ties (the first one wins).
    let (nans, ties) = (
        r.percent(20).then(|| r.next()),
        r.percent(30).then(|| r.next()),
    );
    let label = match (nans, ties) {
        (Some(_), Some(_)) => " NaN, ties",
        (Some(_), None) => " NaN",
        (None, Some(_)) => " ties",
        (None, None) => "",
    };
    let x = c.add_with(r, vspan(n, incx), label, |d| {
        let len = d.len() as u64;
        if len == 0 {
            return;
        }
        if let Some(s) = ties {
            d[(s % len) as usize] = -d[((s >> 32) % len) as usize];
        }
        if let Some(s) = nans {
            d[(s % len) as usize] = f32::NAN;
            d[((s >> 16) % len.min(4)) as usize] = f32::NAN;
        }
    });
    let result = result_operand(r, c);
    // One element is index 1 without reading x (reference BLAS).
    let active = n > 1 && incx > 0;
    let verdict = reduction_verdict(c, (x, n, incx), active, result);
    c.start();
    let xp = c.ptr(x);
    let got = unsafe {
        match f {
            Iface::Api => Got::Status(glblasIsamax(
                i32_of(n),
                xp,
                i32_of(incx),
                c.ptr(result.expect("api")).cast(),
            )),
            Iface::Cblas => Got::Value(cblas_isamax(i32_of(n), xp, i32_of(incx)).0 as f32),
            Iface::Fortran => Got::Value(isamax_(&i32_of(n), xp, &i32_of(incx)) as f32),
            Iface::Ilp64 => Got::Value(scipy_cblas_isamax64_(n, xp, incx).0 as f32),
        }
    };
    c.check(got, verdict, |c| {
        // The reference loop: the 1-based index of the first |x_i| greater than all before.
        let mut index = usize::from(n == 1 && incx > 0);
        if active {
            let (xs, un) = (c.data(x), n as usize);
            let mut max = xs[0].abs();
            index = 1;
            for i in 1..un {
                let v = xs[idx(i, un, incx)].abs();
                if v > max {
                    (max, index) = (v, i + 1);
                }
            }
        }
        let want = match f {
            // The int result, compared as the float with its bits.
            Iface::Api => f64::from(f32::from_bits(index as u32)),
            // CBLAS_INDEX is 0-based (0 also for no elements).
            Iface::Cblas | Iface::Ilp64 => index.saturating_sub(1) as f64,
            Iface::Fortran => index as f64,
        };
        reduced(result, (want, 0.0))
    });
}

/// A BLAS name of a routine without a result, called: its "value" is 0.
fn blas(call: impl FnOnce()) -> Got {
    call();
    Got::Value(0.0)
}

type Fuzzer = fn(&mut Rng, &mut Case);

/// The first eight routines, with `CASES_PER_ROUTINE_EXPORT` cases per export.
const ROUTINES: [(&str, Fuzzer); 8] = [
    ("saxpy", fuzz_saxpy),
    ("sdot", fuzz_sdot),
    ("sscal", fuzz_sscal),
    ("scopy", fuzz_scopy),
    ("sswap", fuzz_sswap),
    ("sasum", fuzz_sasum),
    ("sgemv", fuzz_sgemv),
    ("sgemm", fuzz_sgemm),
];

/// The routines added later, with `CASES_PER_LATER_EXPORT` cases per export, drawn from a
/// generator of their own (so the first eight keep their cases).
const LATER_ROUTINES: [(&str, Fuzzer); 8] = [
    ("snrm2", fuzz_snrm2),
    ("isamax", fuzz_isamax),
    ("ssymm", fuzz_ssymm),
    ("ssyrk", fuzz_ssyrk),
    ("ssyr2k", fuzz_ssyr2k),
    ("strmm", fuzz_strmm),
    ("strsm", fuzz_strsm),
    ("dgemm", fuzz_dgemm),
];

/// Bytes of guard zone around glblasMemcpy's operands.
const GUARD_BYTES: usize = 8;

/// glblasMemcpy's view of memory: byte stores, host or device.
struct ByteStore {
    host: Vec<u8>,
    device: Option<*mut c_void>,
}

impl ByteStore {
    fn new(r: &mut Rng, bytes: usize, device: bool) -> ByteStore {
        let host: Vec<u8> = (0..bytes).map(|_| r.next() as u8).collect();
        let device = device.then(|| {
            let mut p = std::ptr::null_mut();
            assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
            let s = unsafe { glblasMemcpy(p, host.as_ptr().cast(), bytes, MemcpyKindArg(1)) };
            assert_eq!(s, Status::Success);
            p
        });
        ByteStore { host, device }
    }

    fn base(&mut self) -> *mut u8 {
        self.device.map_or(self.host.as_mut_ptr(), |p| p.cast())
    }

    fn contents(&self) -> Vec<u8> {
        match self.device {
            Some(p) => download(p, self.host.len()),
            None => self.host.clone(),
        }
    }
}

impl Drop for ByteStore {
    fn drop(&mut self) {
        if let Some(p) = self.device {
            assert_eq!(glblasFree(p), Status::Success);
        }
    }
}

/// One pointer argument of glblasMemcpy: its place, the store and byte offset it points into,
/// and the bytes from it to the end of a device allocation.
struct Side {
    place: Place,
    ptr: *mut c_void,
    at: Option<(usize, usize)>,
    room: i128,
}

impl Side {
    fn null(place: Place, ptr: *mut c_void) -> Side {
        Side {
            place,
            ptr,
            at: None,
            room: 0,
        }
    }

    fn into_store(place: Place, stores: &mut [ByteStore], s: usize, off: usize) -> Side {
        let size = stores[s].host.len();
        Side {
            place,
            ptr: stores[s].base().wrapping_add(off).cast(),
            at: Some((s, off)),
            room: size as i128 - off as i128,
        }
    }
}

/// A glblasMemcpy pointer for a `len`-byte copy; `stores` receives its memory. A device
/// pointer may be misaligned (a byte copy allows it), past the end, or freed; `share`, when
/// given, is a device store the pointer may land in instead (overlapping copies).
fn memcpy_side(r: &mut Rng, stores: &mut Vec<ByteStore>, len: usize, share: Option<usize>) -> Side {
    let place = r.pick(&PLACES);
    if place == Place::Null {
        return Side::null(place, std::ptr::null_mut());
    }
    if let (Some(s), Place::Device) = (share, place) {
        let off = r.range(0, stores[s].host.len() as i64) as usize;
        return Side::into_store(place, stores, s, off);
    }
    let off = GUARD_BYTES
        + if place == Place::Misaligned {
            r.range(1, 3) as usize
        } else {
            0
        };
    // Past the end: the allocation stops 1 to 4 bytes short of the copy's end.
    let size = match place {
        Place::PastEnd => (off + len).saturating_sub(r.range(1, 4) as usize).max(1),
        _ => off + len + GUARD_BYTES,
    };
    stores.push(ByteStore::new(r, size, place != Place::Host));
    let last = stores.len() - 1;
    let side = Side::into_store(place, stores, last, off);
    if place != Place::Freed {
        return side;
    }
    let store = stores.pop().expect("just pushed");
    let p = store.device.expect("device memory");
    std::mem::forget(store);
    assert_eq!(glblasFree(p), Status::Success);
    Side::null(place, side.ptr)
}

/// glblasMemcpy with any kind, NULL, host-to-host, freed, misaligned, overlapping and
/// past-the-end pointers, and byte counts up to usize::MAX.
fn fuzz_memcpy(r: &mut Rng) {
    let bytes = if r.percent(8) {
        r.pick(&[1 << 40, isize::MAX as usize + 1, usize::MAX])
    } else {
        r.range(0, 40) as usize
    };
    // Host memory holds the copy whenever it could happen; huge copies are refused anyway.
    let len = if bytes > 1 << 20 { 8 } else { bytes };
    let kind = if r.percent(85) {
        r.range(0, 3) as c_int
    } else {
        r.range(-3, 300) as c_int
    };
    let mut stores = Vec::new();
    let dst = memcpy_side(r, &mut stores, len, None);
    let share = dst
        .at
        .map(|(s, _)| s)
        .filter(|&s| stores[s].device.is_some() && r.percent(30));
    let src = memcpy_side(r, &mut stores, len, share);
    let what = format!(
        "glblasMemcpy bytes={bytes} kind={kind} dst={:?} src={:?}",
        dst.place, src.place
    );
    let is_device = |s: &Side| s.at.is_some_and(|(i, _)| stores[i].device.is_some());
    // README: no device pointer, freed, or past the end of an allocation: INVALID_VALUE; an
    // explicit kind must agree with the pointers.
    let fits = |s: &Side| match s.place {
        Place::Freed => false,
        _ if is_device(s) => bytes as i128 <= s.room,
        _ => true,
    };
    let inferred = match (is_device(&dst), is_device(&src)) {
        (true, false) => Some(1),
        (false, true) => Some(2),
        (true, true) => Some(3),
        (false, false) => None,
    };
    let ok = (0..=3).contains(&kind)
        && !(bytes > 0 && (dst.ptr.is_null() || src.ptr.is_null()))
        && bytes <= isize::MAX as usize
        && fits(&dst)
        && fits(&src)
        && inferred.is_some_and(|k| kind == 0 || kind == k);
    let before: Vec<Vec<u8>> = stores.iter().map(ByteStore::contents).collect();
    let s = unsafe { glblasMemcpy(dst.ptr, src.ptr, bytes, MemcpyKindArg(kind)) };
    assert_eq!(
        s,
        if ok {
            Status::Success
        } else {
            Status::InvalidValue
        },
        "{what}"
    );
    let mut want = before.clone();
    if ok && bytes > 0 {
        let ((d, dof), (s, sof)) = (dst.at.expect("copied"), src.at.expect("copied"));
        want[d][dof..dof + bytes].copy_from_slice(&before[s][sof..sof + bytes]);
    }
    for (i, store) in stores.iter().enumerate() {
        assert!(
            store.contents() == want[i],
            "{what}: store {i} differs from the expected bytes"
        );
    }
}

/// glblasFree on NULL, live allocations, interior and past-the-end pointers, host pointers,
/// and pointers already freed (double frees); then every allocation the oracle thinks live
/// still works and every freed one is refused.
fn fuzz_free(r: &mut Rng) -> usize {
    let sizes: Vec<usize> = (0..3).map(|_| r.range(1, 64) as usize).collect();
    let bases: Vec<*mut c_void> = sizes
        .iter()
        .map(|&s| ByteStore::new(r, s, true))
        .map(|mut s| {
            let p = s.base().cast();
            std::mem::forget(s);
            p
        })
        .collect();
    let mut live = vec![true; bases.len()];
    let mut host = [0u8; 16];
    let mut calls = 0;
    for _ in 0..6 {
        let i = r.below(bases.len() as u64) as usize;
        let (p, ok) = match r.below(5) {
            0 => (std::ptr::null_mut(), true),
            1 => (
                host.as_mut_ptr()
                    .wrapping_add(r.range(0, 15) as usize)
                    .cast(),
                false,
            ),
            2 => (
                bases[i]
                    .cast::<u8>()
                    .wrapping_add(r.range(1, sizes[i] as i64) as usize)
                    .cast(),
                false,
            ),
            _ => (bases[i], live[i]),
        };
        let s = glblasFree(p);
        assert_eq!(
            s,
            if ok {
                Status::Success
            } else {
                Status::InvalidValue
            },
            "glblasFree {p:?}"
        );
        if p == bases[i] {
            live[i] = false;
        }
        calls += 1;
    }
    for (i, &p) in bases.iter().enumerate() {
        let s = unsafe { glblasMemcpy(host.as_mut_ptr().cast(), p, 1, MemcpyKindArg(0)) };
        assert_eq!(
            s,
            if live[i] {
                Status::Success
            } else {
                Status::InvalidValue
            },
            "use after the frees"
        );
        if live[i] {
            assert_eq!(glblasFree(p), Status::Success);
        }
        assert_eq!(glblasFree(p), Status::InvalidValue, "double free");
        calls += 1 + usize::from(live[i]);
    }
    calls
}

/// glblasMalloc with NULL, zero, ordinary and impossible sizes.
fn fuzz_malloc(r: &mut Rng) {
    let bytes = match r.below(10) {
        0 => 0,
        1 => r.pick(&[usize::MAX, isize::MAX as usize, 1 << 62, (1 << 62) + 1]),
        _ => r.range(1, 5000) as usize,
    };
    let sentinel = 0x5eed_usize as *mut c_void;
    let mut p = sentinel;
    let null_arg = r.percent(10);
    let s = unsafe {
        glblasMalloc(
            if null_arg {
                std::ptr::null_mut()
            } else {
                &mut p
            },
            bytes,
        )
    };
    let what = format!("glblasMalloc bytes={bytes} devPtr NULL={null_arg}");
    match (null_arg, bytes) {
        (true, _) => assert_eq!(s, Status::InvalidValue, "{what}"),
        (false, 0) => assert_eq!((s, p), (Status::Success, std::ptr::null_mut()), "{what}"),
        // More than any address space: the reservation itself fails.
        (false, b) if b >= 1 << 62 => assert_eq!((s, p), (Status::AllocFailed, sentinel), "{what}"),
        (false, b) => {
            assert_eq!(s, Status::Success, "{what}");
            let data: Vec<u8> = (0..b).map(|_| r.next() as u8).collect();
            assert_eq!(
                unsafe { glblasMemcpy(p, data.as_ptr().cast(), b, MemcpyKindArg(0)) },
                Status::Success
            );
            assert!(download(p, b) == data, "{what}: contents");
            assert_eq!(glblasFree(p), Status::Success);
        }
    }
    if null_arg {
        assert_eq!(p, sentinel);
    }
}

/// glblasGetStatusString with any int: never NULL; its status's text, or the unknown one.
fn fuzz_status_string(r: &mut Rng) {
    let v = if r.percent(30) {
        r.range(-1, 7) as c_int
    } else {
        r.next() as c_int
    };
    let text = unsafe { CStr::from_ptr(glblasGetStatusString(StatusArg(v))) }
        .to_string_lossy()
        .into_owned();
    match Status::ALL.iter().find(|s| **s as c_int == v) {
        Some(s) => assert!(text.starts_with(&format!("{s:?}")), "{v}: {text}"),
        None => assert_eq!(text, "unknown glblasStatus_t value", "{v}"),
    }
}

/// Device pointers from before a glblasShutdown are no allocations any more: every use is
/// INVALID_VALUE (the BLAS names leave their outputs alone), a second free too.
fn stale_after_shutdown(r: &mut Rng) -> usize {
    let p = malloc(16);
    assert_eq!(glblasShutdown(), Status::Success);
    let mut host = fill(16, r.next());
    let before = host.clone();
    let hp = host.as_mut_ptr();
    unsafe {
        assert_eq!(glblasFree(p), Status::InvalidValue);
        assert_eq!(
            glblasMemcpy(hp.cast(), p, 4, MemcpyKindArg(0)),
            Status::InvalidValue
        );
        assert_eq!(
            glblasSaxpy(4, 1.0, p.cast(), 1, hp, 1),
            Status::InvalidValue
        );
        assert_eq!(cblas_sdot(4, p.cast(), 1, hp, 1), 0.0);
        cblas_scopy(4, p.cast(), 1, hp, 1);
    }
    assert!(host
        .iter()
        .zip(&before)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(!glblasGetDeviceName().is_null());
    assert_eq!(glblasInit(), Status::Success);
    7
}

#[test]
fn every_export_gets_its_documented_outcome_for_random_arguments() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    std::env::set_var("GLBLAS_CPU_BLAS", "none");
    let handlers = Handlers::load();
    let mut r = Rng(0x6c62_6c61_7335);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut count = |name: &str, n: usize| *counts.entry(name.to_string()).or_insert(0) += n;
    let mut verdicts: BTreeMap<&str, usize> = BTreeMap::new();
    let start = std::time::Instant::now();
    assert_eq!(glblasInit(), Status::Success);
    count("glblasInit", 1);
    let mut info = std::mem::MaybeUninit::<glblasDeviceInfo_t>::uninit();
    assert_eq!(
        unsafe { glblasGetDeviceInfo(info.as_mut_ptr()) },
        Status::Success
    );
    // SAFETY: filled in by the successful call.
    let info = unsafe { info.assume_init() };
    let pipeline = unsafe { CStr::from_ptr(info.pipeline) }.to_string_lossy();
    println!("fuzz_args: {pipeline} pipeline, fp64 {}", info.fp64);
    DOUBLES
        .set(pipeline == "compute" && info.fp64 == 1)
        .expect("set once");
    count("glblasGetDeviceInfo", 1);
    let mut later = Rng(0x6c33_6e72_6d32);
    for round in 0..CASES_PER_ROUTINE_EXPORT {
        let later_rounds = (round < CASES_PER_LATER_EXPORT).then_some(&LATER_ROUTINES[..]);
        for f in IFACES {
            let first = ROUTINES.iter().map(|&(name, fuzz)| (name, fuzz, false));
            let added = later_rounds.unwrap_or_default().iter();
            for (name, fuzz, is_later) in first.chain(added.map(|&(n, z)| (n, z, true))) {
                let mut c = Case::new(&handlers, f, name, String::new());
                fuzz(if is_later { &mut later } else { &mut r }, &mut c);
                count(&f.export(name), 1);
                let verdict = c.verdict.expect("every case is checked");
                let kind = match verdict {
                    Verdict::Fault(_) if f == Iface::Api => {
                        "(verdict: INVALID_VALUE for an argument)"
                    }
                    Verdict::Fault(_) => "(verdict: error report)",
                    Verdict::Refused => "(verdict: refused pointer, outputs untouched)",
                    Verdict::Runs => "(verdict: runs, checked against the reference)",
                    Verdict::Unsupported => "(verdict: unsupported by the device, untouched)",
                };
                *verdicts.entry(kind).or_insert(0) += 1;
            }
        }
        if round % 10 == 0 {
            assert_eq!(glblasSync(), Status::Success);
            assert!(!glblasGetDeviceName().is_null());
            count("glblasSync", 1);
            count("glblasGetDeviceName", 1);
        }
    }
    for _ in 0..CASES_PER_MEMORY_EXPORT {
        fuzz_memcpy(&mut r);
        fuzz_malloc(&mut r);
        fuzz_status_string(&mut r);
        let frees = fuzz_free(&mut r);
        count("glblasMemcpy", 1);
        count("glblasMalloc", 1);
        count("glblasGetStatusString", 1);
        count("glblasFree", frees);
    }
    for _ in 0..5 {
        let uses = stale_after_shutdown(&mut r);
        count("glblasShutdown", 1);
        count("stale pointer uses after glblasShutdown", uses);
    }
    let total: usize = counts.values().sum();
    println!(
        "fuzz_args: {total} calls in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    let rows = counts.iter().map(|(k, v)| (k.as_str(), v));
    for (name, n) in rows.chain(verdicts.iter().map(|(k, v)| (*k, v))) {
        println!("  {name:<40} {n}");
    }
}
