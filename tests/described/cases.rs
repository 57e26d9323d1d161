//! Calls drawn at random for any routine through any of its exports, laid out from the
//! routine's description (`Case`), and the same call on the reference BLAS: for the tests that
//! take their rules from the descriptions.

use std::ffi::{c_void, CString};

use super::{Exports, Got, Kind, Raw, Target};
use crate::common::{reference_path, Place, Rng};
use glblas::api::*;
use glblas::blas::call::Call;
use glblas::blas::describe::Use;
use glblas::ffi::MemcpyKindArg;
use glblas::status::Status;

/// Elements of guard zone on each side of every operand, checked like the operand itself.
pub const GUARD: usize = 2;
/// Operands larger than this (elements) only arise from huge sizes: they are never placed in
/// host memory, and a device allocation holding one is never made (it is then past the end).
pub const HOST_MAX: u128 = 1 << 12;

/// The interfaces, in the order of `Exports::callers`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Iface {
    Api,
    Cblas,
    Fortran,
    Ilp64,
}

pub const IFACES: [Iface; 4] = [Iface::Api, Iface::Cblas, Iface::Fortran, Iface::Ilp64];

impl Iface {
    pub fn cblas(self) -> bool {
        matches!(self, Iface::Cblas | Iface::Ilp64)
    }
}

/// An enum argument: mostly a valid value as the interface encodes it, sometimes an invalid one.
/// `letters` are the Fortran characters, `cblas` and `glblas` the values, in the same order.
pub fn choice(r: &mut Rng, f: Iface, letters: &[u8], cblas: &[i64], glblas: &[i64]) -> i64 {
    let valid = r.chance(90);
    match f {
        Iface::Fortran if valid => {
            let c = r.pick(letters);
            i64::from(if r.chance(50) {
                c.to_ascii_lowercase()
            } else {
                c
            })
        }
        Iface::Fortran => i64::from(r.pick(b"X \0?")),
        Iface::Api if valid => r.pick(glblas),
        Iface::Api => r.pick(&[-1, 3, 7]),
        _ if valid => r.pick(cblas),
        _ => r.pick(&[0, 100, 120, 130, 140, 143]),
    }
}

/// An integer argument by its name: an increment, a leading dimension or a size; now and then an
/// extreme (beyond 32 bits for ILP64). No increment's byte stride wraps past 64 bits
/// (`tests/wrapped_increments.rs` covers those).
pub fn integer(r: &mut Rng, f: Iface, name: &str) -> i64 {
    const WIDE32: [i64; 4] = [i32::MAX as i64, i32::MIN as i64, 1 << 30, -(1 << 30)];
    const WIDE64: [i64; 5] = [1 << 32, (1 << 32) + 3, 3 - (1 << 32), 1 << 40, -(1 << 40)];
    if r.chance(5) {
        return if f == Iface::Ilp64 && r.chance(60) {
            r.pick(&WIDE64)
        } else {
            r.pick(&WIDE32)
        };
    }
    if name.starts_with("inc") {
        r.range(-3, 3)
    } else if name.starts_with("ld") {
        r.range(0, 11)
    } else {
        r.range(-1, 9)
    }
}

/// A scalar with integer parts (a real routine takes the real part).
pub fn scalar(r: &mut Rng) -> Raw {
    let (re, im) = r.pick(&[
        (0, 0),
        (1, 0),
        (-1, 0),
        (0, 1),
        (2, -1),
        (-1, 2),
        (3, 1),
        (0, -2),
    ]);
    Raw::Scalar(re.into(), im.into())
}

/// A placeholder for pointer argument `i` while the description is built (never dereferenced):
/// the operands the description lists are matched to their arguments by it.
pub fn placeholder(i: usize) -> *mut c_void {
    ((i + 1) << 36) as *mut c_void
}

/// The draw of argument `index`, of kind `kind` named `name`.
pub fn draw(r: &mut Rng, f: Iface, (name, kind): (&str, Kind), index: usize) -> Raw {
    Raw::Int(match kind {
        Kind::Layout if f.cblas() && r.chance(95) => r.pick(&[101, 102]),
        Kind::Layout if f.cblas() => r.pick(&[0, 100, 103]),
        Kind::Layout => 102,
        Kind::Op => choice(r, f, b"NTC", &[111, 112, 113], &[0, 1, 2]),
        Kind::Side => choice(r, f, b"LR", &[141, 142], &[0, 1]),
        Kind::Uplo => choice(r, f, b"UL", &[121, 122], &[1, 0]),
        Kind::Diag => choice(r, f, b"NU", &[131, 132], &[0, 1]),
        Kind::Int => integer(r, f, name),
        Kind::Scalar => return scalar(r),
        Kind::RealScalar => return Raw::Scalar(r.pick(&[0.0, 1.0, -1.0, 2.0, -3.0]), 0.0),
        Kind::In | Kind::Out => return Raw::Ptr(placeholder(index)),
    })
}

/// The Fortran character of a glblas API enum's valid value (for the reference's call).
pub fn letter(kind: Kind, v: i64) -> i64 {
    let letters: &[u8] = match kind {
        Kind::Op => b"NTC",
        Kind::Side => b"LR",
        Kind::Uplo => b"LU",
        Kind::Diag => b"NU",
        _ => return v,
    };
    i64::from(letters[usize::try_from(v).expect("a valid value")])
}

/// How one precision's elements are stored: bytes per part, parts per element.
#[derive(Clone, Copy)]
pub struct Elem {
    pub part: usize,
    pub parts: usize,
}

impl Elem {
    pub fn of(letter: char) -> Elem {
        match letter {
            's' => Elem { part: 4, parts: 1 },
            'd' => Elem { part: 8, parts: 1 },
            'c' => Elem { part: 4, parts: 2 },
            _ => Elem { part: 8, parts: 2 },
        }
    }

    pub fn size(self) -> usize {
        self.part * self.parts
    }

    pub fn put(self, bytes: &mut [u8], part: usize, v: f64) {
        let at = part * self.part;
        match self.part {
            4 => bytes[at..at + 4].copy_from_slice(&(v as f32).to_ne_bytes()),
            _ => bytes[at..at + 8].copy_from_slice(&v.to_ne_bytes()),
        }
    }

    pub fn get(self, bytes: &[u8], part: usize) -> f64 {
        let at = part * self.part;
        match self.part {
            4 => f32::from_ne_bytes(bytes[at..at + 4].try_into().expect("4 bytes")).into(),
            _ => f64::from_ne_bytes(bytes[at..at + 8].try_into().expect("8 bytes")),
        }
    }

    /// Unit roundoff.
    pub fn u(self) -> f64 {
        if self.part == 4 {
            f64::from(f32::EPSILON) / 2.0
        } else {
            f64::EPSILON / 2.0
        }
    }
}

/// What the description says of one pointer argument: its regions (several for an argument the
/// call uses twice), and whether the call needs it (reads or writes elements of it).
#[derive(Default)]
pub struct Uses {
    /// (rows, cols, ld, triangle, read) of each region.
    pub regions: Vec<(usize, usize, usize, Option<bool>, bool)>,
    /// Elements from the pointer to the region's end, the largest.
    pub span: u128,
    pub needed: bool,
}

/// Each pointer argument's uses, from the description's operands (matched by placeholder).
pub fn uses(call: &Call, args: &[(&str, Kind)]) -> Vec<Uses> {
    let mut out: Vec<Uses> = args.iter().map(|_| Uses::default()).collect();
    for op in call.operands() {
        let g = &op.region;
        let i = (0..args.len())
            .find(|&i| std::ptr::eq(placeholder(i).cast(), g.base))
            .expect("each operand is one of the pointer arguments");
        let span = if g.rows == 0 || g.cols == 0 {
            0
        } else {
            (g.cols as u128 - 1) * g.ld as u128 + g.rows as u128
        };
        let u = &mut out[i];
        let read = matches!(op.usage, Use::Read | Use::Written { reads: true, .. });
        u.regions.push((g.rows, g.cols, g.ld, g.triangle, read));
        u.span = u.span.max(span);
        u.needed |= op.usage != Use::Unread && span > 0;
    }
    out
}

/// The contents of an operand of `len` elements with `GUARD` on each side: NaN everywhere but in
/// the regions the call reads, which hold small integers (a triangle: a diagonal of unit
/// modulus, off-diagonal elements 0, ±1 or ±i).
pub fn contents(r: &mut Rng, e: Elem, len: usize, uses: &Uses) -> Vec<u8> {
    let mut bytes = vec![0u8; (len + 2 * GUARD) * e.size()];
    for p in 0..(len + 2 * GUARD) * e.parts {
        e.put(&mut bytes, p, f64::NAN);
    }
    for &(rows, cols, ld, triangle, read) in &uses.regions {
        // A zero increment addresses one element however many it counts; counted more than
        // HOST_MAX times, it holds 0, so that the sums it enters stay exact.
        let repeated = ld == 0 && cols as u128 > HOST_MAX;
        let cols = if ld == 0 { cols.min(1) } else { cols };
        if !read || rows == 0 || (cols as u128 - 1) * ld as u128 + rows as u128 > len as u128 {
            continue;
        }
        for c in 0..cols {
            let (lo, hi) = match triangle {
                None => (0, rows),
                Some(true) => (0, (c + 1).min(rows)),
                Some(false) => (c.min(rows), rows),
            };
            for row in lo..hi {
                let at = GUARD + c * ld + row;
                let value: [f64; 2] = match triangle {
                    Some(_) if row == c => {
                        let one = r.pick(&[1.0, -1.0]);
                        if e.parts == 2 && r.chance(50) {
                            [0.0, one]
                        } else {
                            [one, 0.0]
                        }
                    }
                    Some(_) => {
                        let v = r.pick(&[0.0, 0.0, 1.0, -1.0]);
                        if e.parts == 2 && r.chance(50) {
                            [0.0, v]
                        } else {
                            [v, 0.0]
                        }
                    }
                    None => [r.range(-3, 3) as f64, r.range(-3, 3) as f64],
                };
                let value = if repeated { [0.0; 2] } else { value };
                for (p, &v) in value.iter().take(e.parts).enumerate() {
                    e.put(&mut bytes, at * e.parts + p, v);
                }
            }
        }
    }
    bytes
}

pub fn malloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
    p
}

pub fn memcpy(dst: *mut c_void, src: *const c_void, bytes: usize, kind: i32) {
    let s = unsafe { glblasMemcpy(dst, src, bytes, MemcpyKindArg(kind)) };
    assert_eq!(s, Status::Success);
}

/// One pointer argument's memory: `data` (guards, operand, guards) in host memory, or its first
/// `alloc` bytes in a device allocation, or nowhere.
pub struct Store {
    pub place: Place,
    /// What the call gets.
    pub ptr: *mut c_void,
    pub data: Vec<u8>,
    /// `data` as first laid out (a host store's `data` is the operand the call writes).
    pub initial: Vec<u8>,
    device: Option<(*mut c_void, usize)>,
    /// Elements from `ptr` to the end of its device allocation.
    room: u128,
}

impl Store {
    pub fn new(r: &mut Rng, e: Elem, uses: &Uses, places: &[Place]) -> Store {
        let mut place = r.pick(places);
        let len = if uses.span <= HOST_MAX {
            uses.span as usize
        } else {
            if place == Place::Host {
                place = Place::Device;
            }
            8
        };
        let mut data = contents(r, e, len, uses);
        let size = e.size();
        let mut store = Store {
            place,
            ptr: std::ptr::null_mut(),
            data: Vec::new(),
            initial: data.clone(),
            device: None,
            room: 0,
        };
        match place {
            Place::Null => {}
            Place::Host => store.ptr = data[GUARD * size..].as_mut_ptr().cast(),
            _ => {
                // Past the end: the allocation stops short of the operand (or of its first
                // element); an operand too large for the host is never whole on the device.
                let elems = match place {
                    Place::PastEnd => GUARD + len.saturating_sub(r.range(1, 3) as usize),
                    _ if uses.span > HOST_MAX => GUARD + len,
                    _ => data.len() / size,
                };
                let bytes = elems * size;
                let base = malloc(bytes);
                memcpy(base, data.as_ptr().cast(), bytes, 1);
                let skew = if place == Place::Misaligned {
                    r.range(1, 3) as usize
                } else {
                    0
                };
                store.ptr = base.cast::<u8>().wrapping_add(GUARD * size + skew).cast();
                store.room = (elems - GUARD) as u128;
                if place == Place::Freed {
                    assert_eq!(glblasFree(base), Status::Success);
                } else {
                    store.device = Some((base, bytes));
                }
            }
        }
        store.data = data;
        store
    }

    pub fn usable(&self, need: u128) -> bool {
        match self.place {
            Place::Host => true,
            Place::Device | Place::PastEnd => need <= self.room,
            Place::Null | Place::Misaligned | Place::Freed => false,
        }
    }

    /// Puts the operand back as it was first laid out (a call writes it).
    pub fn reset(&self) {
        match (self.place, self.device) {
            // SAFETY: a host store's operand is its `data`, as long as `initial`.
            (Place::Host, _) => unsafe {
                std::ptr::copy_nonoverlapping(
                    self.initial.as_ptr(),
                    self.data.as_ptr().cast_mut(),
                    self.initial.len(),
                )
            },
            (_, Some((base, bytes))) => memcpy(base, self.initial.as_ptr().cast(), bytes, 1),
            _ => {}
        }
    }

    /// The bytes as they are now: the host store's, or the device allocation's.
    pub fn now(&self) -> Vec<u8> {
        match (self.place, self.device) {
            (Place::Host, _) => self.data.clone(),
            (_, Some((base, bytes))) => {
                let mut out = vec![0u8; bytes];
                memcpy(out.as_mut_ptr().cast(), base, bytes, 2);
                out
            }
            _ => Vec::new(),
        }
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        if let Some((base, _)) = self.device {
            assert_eq!(glblasFree(base), Status::Success);
        }
    }
}

/// The reference BLAS, loaded with its own symbols first so that its CBLAS calls its own
/// Fortran routines, never glblas's.
pub fn reference() -> *mut c_void {
    let path = reference_path();
    let c = CString::new(path.as_str()).expect("no NUL");
    let flags = libc::RTLD_NOW | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND;
    // SAFETY: a library with no initialisers of note, kept for the process.
    let h = unsafe { libc::dlopen(c.as_ptr(), flags) };
    assert!(!h.is_null(), "dlopen {path}");
    h
}

/// Whether this device computes in the precision of `letter` (`kernels::precision_available`).
pub fn supported(letter: char) -> bool {
    let compute = glblas::kernels::pipeline() == Some("compute");
    let fp64 = glblas::engine::device_info().expect("a GL device").fp64;
    match letter {
        's' => true,
        'c' => compute,
        _ => compute && fp64,
    }
}

pub fn symbol(lib: *mut c_void, name: &str) -> *const c_void {
    let c = CString::new(name).expect("no NUL");
    // SAFETY: a valid handle and name.
    let p = unsafe { libc::dlsym(lib, c.as_ptr()) };
    assert!(!p.is_null(), "the reference BLAS defines {name}");
    p.cast_const()
}

/// Equal, or both NaN.
pub fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// The value of what a call returned, for comparing an API result with the Fortran name's.
pub fn value(got: Got) -> Option<[f64; 2]> {
    match got {
        Got::Value(v) | Got::Result(_, v) => Some(v),
        Got::Index(i) => Some([i as f64, 0.0]),
        Got::Nothing | Got::Status(_) => None,
    }
}

/// One call drawn for a routine through an interface: its argument values, the description
/// they make, and the operands laid out from it.
pub struct Case<'x> {
    pub x: &'x Exports,
    pub f: Iface,
    /// The interface's index in `Exports::callers`.
    i: usize,
    pub v: Vec<Raw>,
    /// The description as the call is made (increments as their byte strides wrap).
    pub call: Call,
    /// The parameter number of the first invalid argument.
    pub fault: Option<i32>,
    pub quick: bool,
    pub uses: Vec<Uses>,
    pub stores: Vec<Option<Store>>,
    pub e: Elem,
    /// The arguments, for messages.
    pub what: String,
}

impl<'x> Case<'x> {
    /// Draws a call of `x` through `f`, its operands placed at random among `places`.
    pub fn draw(r: &mut Rng, x: &'x Exports, f: Iface, places: &[Place]) -> Case<'x> {
        let i = IFACES.iter().position(|&g| g == f).expect("an interface");
        let mut v: Vec<Raw> = x
            .args
            .iter()
            .enumerate()
            .map(|(k, &a)| draw(r, f, a, k))
            .collect();
        // SAFETY: only the description is built.
        let described = unsafe { (x.callers[i])(Target::Describe, &v) }.call;
        let fault = described.check().err().map(|f| f.info);
        let call = described.as_addressed();
        let quick = fault.is_none() && call.quick_return().is_some();
        let e = Elem::of(x.letter);
        let uses = uses(&call, x.args);
        let stores: Vec<Option<Store>> = x
            .args
            .iter()
            .zip(&uses)
            .map(|(&(_, kind), u)| {
                matches!(kind, Kind::In | Kind::Out).then(|| Store::new(r, e, u, places))
            })
            .collect();
        for (k, s) in stores.iter().enumerate() {
            if let Some(s) = s {
                v[k] = Raw::Ptr(s.ptr);
            }
        }
        let args: Vec<String> = x
            .args
            .iter()
            .zip(&v)
            .zip(&stores)
            .map(|((&(name, _), v), s)| match (v, s) {
                (_, Some(s)) => format!("{name}={:?}", s.place),
                (Raw::Int(n), _) => format!("{name}={n}"),
                (Raw::Scalar(re, im), _) => format!("{name}={re}{im:+}i"),
                (Raw::Ptr(_), None) => unreachable!("pointers have stores"),
            })
            .collect();
        let what = format!("{} {}", x.symbols[i], args.join(" "));
        Case {
            x,
            f,
            i,
            v,
            call,
            fault,
            quick,
            uses,
            stores,
            e,
            what,
        }
    }

    /// Whether the call needs operand `k`: it reads or writes elements of it.
    pub fn needs(&self, k: usize) -> bool {
        !self.quick && self.uses[k].needed
    }

    /// Whether an operand the call needs cannot be used (`place` given: one there).
    pub fn refused(&self, place: Option<Place>) -> bool {
        self.stores.iter().enumerate().any(|(k, s)| {
            s.as_ref().is_some_and(|s| {
                self.needs(k) && place.map_or(!s.usable(self.uses[k].span), |p| s.place == p)
            })
        })
    }

    /// Every operand's bytes as they are now.
    pub fn snapshot(&self) -> Vec<Vec<u8>> {
        self.stores
            .iter()
            .map(|s| s.as_ref().map_or(Vec::new(), Store::now))
            .collect()
    }

    /// Makes the call on glblas.
    pub fn on_glblas(&self) -> Got {
        // SAFETY: the operands hold what their regions address, or are pointers glblas must
        // refuse.
        unsafe { (self.x.callers[self.i])(Target::Glblas, &self.v) }.got
    }

    /// Asserts that every operand is as `before`.
    pub fn assert_untouched(&self, before: &[Vec<u8>], why: &str) {
        for (k, s) in self.stores.iter().enumerate() {
            if let Some(s) = s {
                let touched = s.now() != before[k];
                let what = &self.what;
                assert!(
                    !touched,
                    "{what}: {why}, yet {} was touched",
                    self.x.args[k].0
                );
            }
        }
    }

    /// Asserts that the call, which returned `got`, did as the same call does on the reference
    /// BLAS `lib` on copies of the operands as they were: the API's through the Fortran name,
    /// ILP64's through the 32-bit CBLAS one.
    pub fn assert_as_reference(&self, got: Got, lib: *mut c_void) {
        let (x, e, what) = (self.x, self.e, &self.what);
        let mut copies: Vec<Vec<u8>> = self
            .stores
            .iter()
            .map(|s| s.as_ref().map_or(Vec::new(), |s| s.initial.clone()))
            .collect();
        let mut w = self.v.clone();
        for (k, &(_, kind)) in x.args.iter().enumerate() {
            w[k] = match (kind, w[k]) {
                (Kind::In | Kind::Out, _) => {
                    Raw::Ptr(copies[k][GUARD * e.size()..].as_mut_ptr().cast())
                }
                (_, Raw::Int(n)) if self.f == Iface::Api => Raw::Int(letter(kind, n)),
                // An ILP64 call that runs uses no value beyond 32 bits: such a leading dimension
                // or increment belongs to a matrix of one column or a vector of one element.
                (_, Raw::Int(n)) if self.f == Iface::Ilp64 => {
                    Raw::Int(n.clamp(i32::MIN.into(), i32::MAX.into()))
                }
                (_, raw) => raw,
            };
        }
        let ri = match self.f {
            Iface::Api => 2,
            Iface::Ilp64 => 1,
            _ => self.i,
        };
        let target = Target::Other(symbol(lib, x.symbols[ri]));
        // SAFETY: a valid call (checked, its operands usable), on the reference's own copies.
        let want = unsafe { (x.callers[ri])(target, &w) }.got;
        let (got_value, want_value) = (value(got), value(want));
        if x.name.contains("nrm2") {
            // Each within (n + 2)·u of the exact norm (sums of squares, one square root).
            let n = self.v[0].int64();
            let (g, w) = (
                got_value.expect("a norm")[0],
                want_value.expect("a norm")[0],
            );
            let tol = 2.0 * (n as f64 + 2.0) * e.u() * w.abs();
            assert!(
                same(g, w) || (g - w).abs() <= tol,
                "{what}: nrm2 {g}, the reference's {w}"
            );
        } else {
            let same_value = match (got_value, want_value) {
                (Some(g), Some(w)) => same(g[0], w[0]) && same(g[1], w[1]),
                (None, None) => true,
                _ => false,
            };
            assert!(
                same_value,
                "{what}: returned {got:?}, the reference {want:?}"
            );
        }
        for (k, s) in self.stores.iter().enumerate() {
            let Some(s) = s else { continue };
            let now = s.now();
            let want = &copies[k][..now.len()];
            for p in 0..now.len() / e.part {
                let (a, b) = (e.get(&now, p), e.get(want, p));
                assert!(
                    same(a, b),
                    "{what}: {} element {} part {}: {a}, the reference's {b}",
                    x.args[k].0,
                    (p / e.parts) as i64 - GUARD as i64,
                    p % e.parts
                );
            }
        }
    }
}
