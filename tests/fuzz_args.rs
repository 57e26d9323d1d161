//! Randomized bad input for every export (issue 5, property 4). A seeded generator throws
//! argument combinations at the glblas API and at the BLAS-compatible symbols (CBLAS in both
//! layouts and invalid ones, Fortran with any character, ILP64 with sizes beyond 32 bits):
//! negative and huge sizes, zero and negative increments, leading dimensions too small, invalid
//! enums, and operands in host memory, in device memory at an offset, past the end of their
//! allocation, misaligned, freed, or NULL. An oracle written from the documented rules (README
//! "API" and its semantics bullets; the reference BLAS's argument checks and parameter numbers)
//! decides each outcome, and the test checks: the status (or the error report, and no report
//! otherwise); that a refused call leaves every byte of every operand and of the guard zones
//! around them alone (host and device); that an accepted call matches a double-precision
//! reference within the README's fp32 bounds and touches nothing else.
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

use common::{fill, idx, sgemm_ref, sgemv_ref, EPS};
use glblas::api::*;
use glblas::blas::cblas::*;
use glblas::blas::fortran::*;
use glblas::ffi::{MemcpyKindArg, OperationArg, StatusArg};
use glblas::status::Status;

/// Cases per export of the BLAS routines (8 routines × 4 interfaces).
const CASES_PER_ROUTINE_EXPORT: usize = 1200;
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
    /// Floats from `ptr` to the end of its device allocation.
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
    /// An operand for `need` elements, its contents from `seed` (NaN inside when `nan`).
    fn new(r: &mut Rng, need: u128, seed: u64, nan: bool) -> Operand {
        let mut place = r.pick(&PLACES);
        let len = if need <= HOST_MAX {
            need as usize
        } else {
            if place == Place::Host {
                place = Place::Device;
            }
            8
        };
        let mut data = fill(len + 2 * GUARD, seed);
        if nan {
            data[GUARD..GUARD + len].fill(f32::NAN);
        }
        let mut op = Operand {
            place,
            ptr: std::ptr::null_mut(),
            len,
            room: 0,
            store: Store::Nothing,
        };
        match place {
            Place::Null => {}
            Place::Host => {
                op.ptr = data[GUARD..].as_mut_ptr();
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
                op.room = (floats - GUARD) as u128;
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

/// The error handlers' records (see `record_xerbla.c`).
struct Handlers {
    reports: *const c_int,
    info: *const c_int,
    fortran: *const c_int,
    routine: *const c_char,
}

impl Handlers {
    /// Builds and loads the handlers' object.
    fn load() -> Handlers {
        let lib = common::build_handler("record_xerbla");
        let path = std::ffi::CString::new(lib.to_str().expect("utf-8 path")).expect("no NUL");
        // SAFETY: a plain object with no initialisers; kept loaded for the process.
        let h = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
        assert!(!h.is_null(), "dlopen {}", lib.display());
        let sym = |name: &CStr| {
            // SAFETY: a valid handle and name.
            let p = unsafe { libc::dlsym(h, name.as_ptr()) };
            assert!(!p.is_null(), "{name:?}");
            p
        };
        Handlers {
            reports: sym(c"fuzz_reports").cast(),
            info: sym(c"fuzz_info").cast(),
            fortran: sym(c"fuzz_fortran").cast(),
            routine: sym(c"fuzz_routine").cast(),
        }
    }

    fn reports(&self) -> c_int {
        unsafe { self.reports.read_volatile() }
    }

    /// The last report: routine name, parameter number, whether through `xerbla_`.
    fn last(&self) -> (String, c_int, bool) {
        unsafe {
            (
                CStr::from_ptr(self.routine).to_string_lossy().into_owned(),
                self.info.read_volatile(),
                self.fortran.read_volatile() == 1,
            )
        }
    }
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
        }
    }

    /// Adds an operand of `need` elements; its index.
    fn add(&mut self, r: &mut Rng, need: u128, nan: bool) -> usize {
        let seed = r.next();
        let op = Operand::new(r, need, seed, nan);
        self.what += &format!(" [{:?}{}]", op.place, if nan { " NaN" } else { "" });
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
            let after = op.contents();
            let mut expect: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
            for c in changes.iter().filter(|c| c.op == i) {
                expect.insert(GUARD + c.at, (c.want, c.tol));
            }
            for (p, (a, b)) in after.iter().zip(&self.before[i]).enumerate() {
                match expect.get(&p) {
                    Some(&(want, tol)) => assert!(
                        (f64::from(*a) - want).abs() <= tol,
                        "{what}: operand {i} element {}: got {a}, want {want} (tol {tol:e})",
                        p as i64 - GUARD as i64
                    ),
                    None => assert_eq!(
                        a.to_bits(),
                        b.to_bits(),
                        "{what}: operand {i} float {} touched ({b} -> {a})",
                        p as i64 - GUARD as i64
                    ),
                }
            }
        }
    }
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
        let (n, incx, incy) = (r.int(f, -2, 40), r.int(f, -3, 3), r.int(f, -3, 3));
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
            for i in 0..n {
                let k = idx(i, n, inc);
                changes.push(Change {
                    op,
                    at: k,
                    want: f64::from(v[k]),
                    tol: 0.0,
                });
            }
        }
        changes
    }
}

fn fuzz_saxpy(r: &mut Rng, c: &mut Case) {
    let alpha = r.scalar();
    c.what += &format!(" alpha={alpha}");
    let v = TwoVectors::new(r, c);
    let verdict = v.verdict(c);
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

fn fuzz_sasum(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let (n, incx) = (r.int(f, -2, 40), r.int(f, -3, 3));
    c.what += &format!(" n={n} incx={incx}");
    let x = c.add(r, vspan(n, incx), false);
    let result = result_operand(r, c);
    // x is read only for n > 0 and incx > 0 (else the sum is 0); the result is always written.
    let active = n > 0 && incx > 0;
    let mut needs = vec![];
    if active {
        needs.push((x, vspan(n, incx)));
    }
    needs.extend(result.map(|res| (res, 1)));
    let verdict = if c.usable(&needs) {
        Verdict::Runs
    } else {
        Verdict::Refused
    };
    c.start();
    let xp = c.ptr(x);
    let got = unsafe {
        match f {
            Iface::Api => Got::Status(glblasSasum(
                i32_of(n),
                xp,
                i32_of(incx),
                c.ptr(result.expect("api")),
            )),
            Iface::Cblas => Got::Value(cblas_sasum(i32_of(n), xp, i32_of(incx))),
            Iface::Fortran => Got::Value(sasum_(&i32_of(n), xp, &i32_of(incx))),
            Iface::Ilp64 => Got::Value(scipy_cblas_sasum64_(n, xp, incx)),
        }
    };
    c.check(got, verdict, |c| {
        let n = if active { n as usize } else { 0 };
        let xs = c.data(x);
        reduced(
            result,
            reduction((0..n).map(|i| f64::from(xs[idx(i, n, incx)]).abs())),
        )
    });
}

fn fuzz_sscal(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let (n, incx, alpha) = (r.int(f, -2, 40), r.int(f, -3, 3), r.scalar());
    c.what += &format!(" n={n} alpha={alpha} incx={incx}");
    let x = c.add(r, vspan(n, incx), false);
    // n <= 0 or incx <= 0 does nothing (reference BLAS).
    let active = n > 0 && incx > 0;
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
    let (incx, incy) = (r.int(f, -3, 3), r.int(f, -3, 3));
    let (alpha, beta) = (r.scalar(), r.scalar());
    let t = f.transposed(trans);
    // The column-major call this is: row-major A is the transpose (M and N exchanged).
    let row = f.cblas() && layout == 101;
    let (ct, cm, cn) = if row {
        (t.map(|t| !t), n, m)
    } else {
        (t, m, n)
    };
    let lda = r.int(f, cm.max(1).saturating_sub(2), cm.max(1).saturating_add(2));
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

fn fuzz_sgemm(r: &mut Rng, c: &mut Case) {
    let f = c.iface;
    let layout = r.layout();
    let (transa, transb) = (r.op(f), r.op(f));
    let (m, n, k) = (r.int(f, -1, 9), r.int(f, -1, 9), r.int(f, -1, 9));
    let (alpha, beta) = (r.scalar(), r.scalar());
    let (ta, tb) = (f.transposed(transa), f.transposed(transb));
    // The column-major call this is: row-major C = op(A)op(B) is C^T = op(B)^T op(A)^T.
    let row = f.cblas() && layout == 101;
    let (cta, ctb, cm, cn) = if row { (tb, ta, n, m) } else { (ta, tb, m, n) };
    // (rows, cols) of the column-major call's A and B as stored.
    let shape = |t: Option<bool>, r: i64, c: i64| if t == Some(true) { (c, r) } else { (r, c) };
    let (sa, sb) = (shape(cta, cm, k), shape(ctb, k, cn));
    let near = |r: &mut Rng, rows: i64| {
        r.int(
            f,
            rows.max(1).saturating_sub(2),
            rows.max(1).saturating_add(2),
        )
    };
    let (clda, cldb, ldc) = (near(r, sa.0), near(r, sb.0), near(r, cm));
    // Operands and leading dimensions as passed: row-major passes B's where the call takes A's.
    let (lda, ldb) = if row { (cldb, clda) } else { (clda, cldb) };
    c.what += &format!(" layout={layout} transa={transa} transb={transb} m={m} n={n} k={k} alpha={alpha} lda={lda} ldb={ldb} beta={beta} ldc={ldc}");
    let ca = c.add(r, mspan(sa.0, sa.1, clda), false);
    let cb = c.add(r, mspan(sb.0, sb.1, cldb), false);
    let nan = beta == 0.0 && r.percent(50);
    let cc = c.add(r, mspan(cm, cn, ldc), nan);
    let (a, b) = if row { (cb, ca) } else { (ca, cb) };
    let fault = match cblas_checks(f, layout, &[(ta, 2), (tb, 3)]) {
        Err(info) => Some(info),
        Ok(_) => sgemm_info(cta, ctb, cm, cn, k, clda, cldb, ldc).map(|i| i + i32::from(f.cblas())),
    };
    let empty = cm == 0 || cn == 0;
    let reads_ab = k > 0 && alpha != 0.0;
    let mut needs = vec![(cc, mspan(cm, cn, ldc))];
    if reads_ab {
        needs.extend([(ca, mspan(sa.0, sa.1, clda)), (cb, mspan(sb.0, sb.1, cldb))]);
    }
    let verdict = Verdict::of(fault, empty || c.usable(&needs));
    c.start();
    let (ap, bp, cp) = (c.ptr(a), c.ptr(b), c.ptr(cc));
    let got = unsafe {
        match f {
            Iface::Api => Got::Status(glblasSgemm(
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
                cblas_sgemm(
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
                    sgemm_(
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
                scipy_cblas_sgemm64_(
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
        if empty {
            return (Vec::new(), (0.0, 0.0));
        }
        // Without alpha*A*B the reference has no inner dimension (A and B are not read).
        let (rk, ad, bd) = if reads_ab {
            (k, c.data(ca), c.data(cb))
        } else {
            (0, &[][..], &[][..])
        };
        let (tra, trb) = (cta == Some(true), ctb == Some(true));
        let (um, un) = (cm as usize, cn as usize);
        let want = sgemm_ref(
            tra,
            trb,
            um,
            un,
            rk as usize,
            alpha,
            ad,
            clda as usize,
            bd,
            cldb as usize,
            beta,
            c.data(cc),
            ldc as usize,
        );
        let mut changes = Vec::new();
        for j in 0..un {
            for i in 0..um {
                let e = i + j * um;
                let t = (rk as f64 + 2.0) * EPS * want.1[e] + f64::from(f32::MIN_POSITIVE);
                changes.push(Change {
                    op: cc,
                    at: i + j * ldc as usize,
                    want: want.0[e],
                    tol: t,
                });
            }
        }
        (changes, (0.0, 0.0))
    });
}

/// A BLAS name of a routine without a result, called: its "value" is 0.
fn blas(call: impl FnOnce()) -> Got {
    call();
    Got::Value(0.0)
}

type Fuzzer = fn(&mut Rng, &mut Case);

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
    for round in 0..CASES_PER_ROUTINE_EXPORT {
        for f in IFACES {
            for (name, fuzz) in ROUTINES {
                let mut c = Case::new(&handlers, f, name, String::new());
                fuzz(&mut r, &mut c);
                count(&f.export(name), 1);
                let verdict = c.verdict.expect("every case is checked");
                let kind = match verdict {
                    Verdict::Fault(_) if f == Iface::Api => {
                        "(verdict: INVALID_VALUE for an argument)"
                    }
                    Verdict::Fault(_) => "(verdict: error report)",
                    Verdict::Refused => "(verdict: refused pointer, outputs untouched)",
                    Verdict::Runs => "(verdict: runs, checked against the reference)",
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
