//! No leaks: after one round of every kind of call (so that cached programs, staging and scratch
//! buffers, render targets and the in-place path for large host vectors have all been used) and
//! a warm-up (so that the driver's own caches have filled), two equal spans of calls of the same
//! kinds leave the engine's GL objects exactly as they were after the first round, and end with
//! the heap and resident memory where the first span had them. The kinds: all eight routines on
//! host and device operands, unit and strided, small host vectors (staged) and large unit-stride
//! ones (used in place), sgemm with large host matrices (in place too); device malloc/free,
//! memcpy of every kind, sync. Every kind is checked against a reference in the first round and
//! in every eighth round after it.

mod common;

use common::*;
use glblas::api::*;
use glblas::engine::census::gl_objects;
use glblas::engine::memory::QUARANTINE_RANGES;
use glblas::ffi::{MemcpyKindArg as K, OperationArg as Op};
use glblas::status::Status;

/// Calls before memory is measured. Drivers' caches fill over the first thousands of calls
/// (llvmpipe's GLES context: 1 MiB of resident memory over the first 2,000).
const WARM_UP_CALLS: usize = 15_000;
/// Calls in each measured span. Long enough to hold a whole cycle of zink's own memory (Mesa
/// 22.3 over lavapipe: 2 MiB of heap and of resident memory taken and given back every 30,000
/// calls of this workload), so that each span's least memory is the same low point.
const SPAN_CALLS: usize = 30_000;
/// Rounds (one call of each kind) whose number is a multiple of this are checked.
const CHECKED_ROUND: usize = 8;
/// Small vectors (staged when on the host).
const N: usize = 1001;
/// Unit-stride host vectors of 256 KiB or more are used in place (`engine/staging.rs`).
const PINNED_N: usize = 70_001;
/// The second span's least resident memory may be at most this much above the first's
/// (measured: 0.2-0.7 MiB more on llvmpipe, from 1.1 MiB less to 0.2 MiB more on zink).
/// Resident memory moves in pages and keeps what is freed, so the heap bound below is the finer
/// one.
const RSS_SLACK: u64 = 1 << 20;
/// The second span's least heap in use may be at most this much above the first's (measured:
/// under 2 KiB on llvmpipe, 91 KiB on zink, less than the first on zink's GLES). A leak of 5
/// bytes per call, or of 200 bytes per call of any one kind (680 calls each per span), exceeds
/// it.
const HEAP_SLACK: u64 = 128 << 10;

/// One operand's storage, on the host or the device, and the values it starts from.
struct Buf {
    init: Vec<f32>,
    host: Vec<f32>,
    dev: Option<Dev>,
}

impl Buf {
    fn new(len: usize, seed: u64, device: bool) -> Buf {
        let init = fill(len, seed);
        Buf {
            host: init.clone(),
            dev: device.then(|| Dev::new(&init)),
            init,
        }
    }

    fn ptr(&mut self) -> *mut f32 {
        match &self.dev {
            Some(d) => d.f(),
            None => self.host.as_mut_ptr(),
        }
    }

    /// Back to the initial values.
    fn reset(&mut self) {
        match &self.dev {
            Some(d) => memcpy_ok(d.0, self.init.as_ptr().cast(), self.init.len() * 4, 1),
            None => self.host.copy_from_slice(&self.init),
        }
    }

    fn values(&self) -> Vec<f32> {
        match &self.dev {
            Some(d) => d.get(self.init.len()),
            None => self.host.clone(),
        }
    }
}

fn memcpy_ok(dst: *mut std::ffi::c_void, src: *const std::ffi::c_void, bytes: usize, kind: i32) {
    assert_eq!(
        unsafe { glblasMemcpy(dst, src, bytes, K(kind)) },
        Status::Success
    );
}

#[derive(Clone, Copy, Debug)]
enum Level1 {
    Axpy,
    Dot,
    Scal,
    Copy,
    Swap,
    Asum,
}

const LEVEL1: [Level1; 6] = [
    Level1::Axpy,
    Level1::Dot,
    Level1::Scal,
    Level1::Copy,
    Level1::Swap,
    Level1::Asum,
];

/// Operands of the level-1 calls: x, y and the result of sdot and sasum, all on the host or all
/// on the device.
struct Vectors {
    n: usize,
    incx: i32,
    incy: i32,
    x: Buf,
    y: Buf,
    r: Buf,
}

impl Vectors {
    fn new(n: usize, incx: i32, incy: i32, device: bool) -> Vectors {
        Vectors {
            n,
            incx,
            incy,
            x: Buf::new(span(n, incx), n as u64, device),
            y: Buf::new(span(n, incy), n as u64 + 1, device),
            r: Buf::new(1, 0, device),
        }
    }

    fn call(&mut self, op: Level1, check: bool) {
        if check {
            self.x.reset();
            self.y.reset();
        }
        // Unchecked calls run on what earlier ones left: alpha = -1 keeps the values bounded.
        let alpha = if check { 0.75 } else { -1.0 };
        let (n, incx, incy) = (self.n as i32, self.incx, self.incy);
        let (x, y, r) = (self.x.ptr(), self.y.ptr(), self.r.ptr());
        let s = unsafe {
            match op {
                Level1::Axpy => glblasSaxpy(n, alpha, x, incx, y, incy),
                Level1::Dot => glblasSdot(n, x, incx, y, incy, r),
                Level1::Scal => glblasSscal(n, alpha, x, incx),
                Level1::Copy => glblasScopy(n, x, incx, y, incy),
                Level1::Swap => glblasSswap(n, x, incx, y, incy),
                Level1::Asum => glblasSasum(n, x, incx, r),
            }
        };
        assert_eq!(s, Status::Success, "{op:?}");
        if check {
            self.check(op, alpha);
        }
    }

    fn check(&self, op: Level1, alpha: f32) {
        let (x0, y0, n) = (&self.x.init, &self.y.init, self.n);
        match op {
            Level1::Dot => return assert_sdot(self.r.values()[0], x0, self.incx, y0, self.incy, n),
            Level1::Asum => {
                let abs: f64 = (0..n).map(|i| x0[idx(i, n, self.incx)].abs() as f64).sum();
                let tol = (n as f64 + 1.0) * EPS * abs;
                let got = self.r.values()[0] as f64;
                return assert!((got - abs).abs() <= tol, "sasum: {got} vs {abs}");
            }
            _ => {}
        }
        // What x and y should hold, and per element the magnitude its one or two roundings
        // are relative to (0 where it must be exact: copies and untouched elements).
        let (mut wx, mut wy) = (x0.clone(), y0.clone());
        let (mut tx, mut ty) = (vec![0.0; x0.len()], vec![0.0; y0.len()]);
        let a = alpha as f64;
        for i in 0..n {
            let (p, q) = (idx(i, n, self.incx), idx(i, n, self.incy));
            let (xi, yi) = (x0[p] as f64, y0[q] as f64);
            match op {
                Level1::Axpy => (wy[q], ty[q]) = ((yi + a * xi) as f32, yi.abs() + (a * xi).abs()),
                Level1::Scal => (wx[p], tx[p]) = ((a * xi) as f32, (a * xi).abs()),
                Level1::Copy => wy[q] = x0[p],
                Level1::Swap => (wx[p], wy[q]) = (y0[q], x0[p]),
                Level1::Dot | Level1::Asum => unreachable!("checked above"),
            }
        }
        assert_saxpy(&self.x.values(), &wx, &tx);
        assert_saxpy(&self.y.values(), &wy, &ty);
    }
}

/// An sgemv call: y := op(A) x + 0.5 y, A m×n with lda = m + 2.
struct Gemv {
    trans: bool,
    m: usize,
    n: usize,
    incx: i32,
    incy: i32,
    a: Buf,
    x: Buf,
    y: Buf,
}

impl Gemv {
    fn new(trans: bool, incx: i32, incy: i32, device: bool) -> Gemv {
        let (m, n) = (45, 38);
        let (lenx, leny) = if trans { (m, n) } else { (n, m) };
        Gemv {
            trans,
            m,
            n,
            incx,
            incy,
            a: Buf::new((m + 2) * n, 11, device),
            x: Buf::new(span(lenx, incx), 12, device),
            y: Buf::new(span(leny, incy), 13, device),
        }
    }

    fn call(&mut self, check: bool) {
        if check {
            self.y.reset();
        }
        let lda = self.m + 2;
        let s = unsafe {
            glblasSgemv(
                Op(i32::from(self.trans)),
                self.m as i32,
                self.n as i32,
                1.0,
                self.a.ptr(),
                lda as i32,
                self.x.ptr(),
                self.incx,
                0.5,
                self.y.ptr(),
                self.incy,
            )
        };
        assert_eq!(s, Status::Success, "sgemv");
        if check {
            let (lenx, leny) = if self.trans {
                (self.m, self.n)
            } else {
                (self.n, self.m)
            };
            let (a, x, y0) = (&self.a.init, &self.x.init, &self.y.init);
            let want = sgemv_ref(
                self.trans, self.m, self.n, 1.0, a, lda, x, self.incx, 0.5, y0, self.incy,
            );
            assert_sgemv(&self.y.values(), y0, leny, self.incy, lenx, &want);
        }
    }
}

/// An sgemm call: C := op(A) op(B) + 0.5 C, packed operands.
struct Gemm {
    ta: bool,
    tb: bool,
    m: usize,
    n: usize,
    k: usize,
    a: Buf,
    b: Buf,
    c: Buf,
}

impl Gemm {
    /// `device`: which of A, B and C are device memory.
    fn new(ta: bool, tb: bool, (m, n, k): (usize, usize, usize), device: [bool; 3]) -> Gemm {
        Gemm {
            ta,
            tb,
            m,
            n,
            k,
            a: Buf::new(m * k, 21, device[0]),
            b: Buf::new(k * n, 22, device[1]),
            c: Buf::new(m * n, 23, device[2]),
        }
    }

    fn call(&mut self, check: bool) {
        if check {
            self.c.reset();
        }
        let lda = if self.ta { self.k } else { self.m };
        let ldb = if self.tb { self.n } else { self.k };
        let (a, b, c) = (self.a.ptr(), self.b.ptr(), self.c.ptr());
        let (m, n, k) = (self.m, self.n, self.k);
        let s = unsafe { sgemm_packed((self.ta, self.tb), m, n, k, 1.0, a, b, 0.5, c) };
        assert_eq!(s, Status::Success, "sgemm");
        if check {
            let (a, b, c0) = (&self.a.init, &self.b.init, &self.c.init);
            let want = sgemm_ref(self.ta, self.tb, m, n, k, 1.0, a, lda, b, ldb, 0.5, c0, m);
            assert_sgemm(&self.c.values(), m, m, n, k, &want);
        }
    }
}

/// Copies of every kind between two host arrays and two device buffers, which all hold `data`
/// once the first round has run; a checked copy clears its destination first.
struct Copies {
    data: Vec<f32>,
    zeros: Vec<f32>,
    host: Vec<f32>,
    d1: Dev,
    d2: Dev,
}

impl Copies {
    fn new() -> Copies {
        let zeros = vec![0.0; 40_000];
        Copies {
            data: fill(zeros.len(), 31),
            host: zeros.clone(),
            d1: Dev::new(&zeros),
            d2: Dev::new(&zeros),
            zeros,
        }
    }

    /// Copy number `which`: data to d1, d1 to d2, d2 to the host array (explicit kinds), then
    /// d1 to the host array with the kind inferred.
    fn call(&mut self, which: usize, check: bool) {
        let bytes = self.data.len() * 4;
        let host = self.host.as_mut_ptr().cast();
        let (dst, src, kind) = match which {
            0 => (self.d1.0, self.data.as_ptr().cast(), 1),
            1 => (self.d2.0, self.d1.0.cast_const(), 3),
            2 => (host, self.d2.0.cast_const(), 2),
            _ => (host, self.d1.0.cast_const(), 0),
        };
        if check {
            match which {
                0 | 1 => memcpy_ok(dst, self.zeros.as_ptr().cast(), bytes, 1),
                _ => self.host.fill(0.0),
            }
        }
        memcpy_ok(dst, src, bytes, kind);
        if check {
            let mut got = self.host.clone();
            if which < 2 {
                memcpy_ok(got.as_mut_ptr().cast(), dst, bytes, 2);
            }
            assert!(got == self.data, "memcpy {which}");
        }
    }
}

/// Every kind of call, each with its own operands.
struct Workload {
    vectors: Vec<Vectors>,
    gemvs: Vec<Gemv>,
    gemms: Vec<Gemm>,
    copies: Copies,
}

/// Kinds besides the operand sets': four memcpy, malloc/free, sync.
const OTHER_KINDS: usize = 6;

impl Workload {
    fn new() -> Workload {
        Workload {
            vectors: vec![
                Vectors::new(N, 1, 1, false),
                Vectors::new(N, 3, -2, false),
                Vectors::new(N, 1, 1, true),
                Vectors::new(N, 2, -3, true),
                Vectors::new(PINNED_N, 1, 1, false),
            ],
            gemvs: vec![
                Gemv::new(false, 1, 1, false),
                Gemv::new(true, 2, -1, false),
                Gemv::new(false, -1, 3, true),
                Gemv::new(true, 1, 2, true),
            ],
            gemms: vec![
                Gemm::new(false, false, (33, 17, 29), [false; 3]),
                Gemm::new(true, true, (33, 17, 29), [true; 3]),
                Gemm::new(true, false, (40, 24, 16), [false, true, false]),
                // Host matrices of 256 KiB, used in place: C, then A. Their products are
                // small (k = 4, n = 4), where a 256³ product per round took most of the test's
                // time on llvmpipe-board's 4×4 blocks (92 s there, 42 s on llvmpipe).
                Gemm::new(false, true, (256, 256, 4), [false; 3]),
                Gemm::new(false, true, (256, 4, 256), [false; 3]),
            ],
            copies: Copies::new(),
        }
    }

    fn kinds(&self) -> usize {
        self.vectors.len() * LEVEL1.len() + self.gemvs.len() + self.gemms.len() + OTHER_KINDS
    }

    /// Makes call `i` of a round (one call of each kind), checked against a reference when
    /// `check`.
    fn call(&mut self, i: usize, check: bool) {
        let level1 = self.vectors.len() * LEVEL1.len();
        let gemv = level1 + self.gemvs.len();
        let gemm = gemv + self.gemms.len();
        match i {
            _ if i < level1 => self.vectors[i / LEVEL1.len()].call(LEVEL1[i % LEVEL1.len()], check),
            _ if i < gemv => self.gemvs[i - level1].call(check),
            _ if i < gemm => self.gemms[i - gemv].call(check),
            _ if i < gemm + 4 => self.copies.call(i - gemm, check),
            _ if i == gemm + 4 => {
                let mut p = std::ptr::null_mut();
                let bytes = 4 + 4 * (i * 7919 % 300_000);
                assert_eq!(unsafe { glblasMalloc(&mut p, bytes) }, Status::Success);
                assert_eq!(glblasFree(p), Status::Success);
            }
            _ => assert_eq!(glblasSync(), Status::Success),
        }
    }
}

#[test]
fn mixed_calls_leave_gl_objects_and_memory_as_they_were() {
    let mut w = Workload::new();
    let kinds = w.kinds();
    for i in 0..kinds {
        w.call(i, true);
    }
    let objects = gl_objects().expect("census");
    // The quarantine of freed device ranges grows until it is full, then stays as it is.
    for _ in 0..QUARANTINE_RANGES {
        let mut p = std::ptr::null_mut();
        assert_eq!(unsafe { glblasMalloc(&mut p, 4) }, Status::Success);
        assert_eq!(glblasFree(p), Status::Success);
    }
    let round = |w: &mut Workload, c: usize| {
        let (round, i) = (c / kinds, c % kinds);
        w.call(i, round % CHECKED_ROUND == 0);
    };
    for c in 0..WARM_UP_CALLS {
        round(&mut w, c);
    }
    // Where memory stands in a span: its least (resident, heap) after any of its rounds, with
    // the device idle. A passing peak (a large temporary allocation, a driver's batch not yet
    // recycled) does not raise it; a leak does.
    let t = std::time::Instant::now();
    let mut span = |first: usize| {
        let mut least = (u64::MAX, u64::MAX);
        for c in first..first + SPAN_CALLS {
            round(&mut w, c);
            if c % kinds == kinds - 1 {
                assert_eq!(glblasSync(), Status::Success);
                // Free memory the C heap keeps goes back first, so that resident memory counts
                // what is in use, on the heap or mapped beside it (llvmpipe-board, warm shader
                // cache: resident memory rose 1.6 MiB with the heap in use unchanged, 0.6 MiB
                // with the trim).
                // SAFETY: malloc_trim only returns free memory to the system.
                unsafe { libc::malloc_trim(0) };
                least = (least.0.min(rss()), least.1.min(heap_in_use()));
            }
        }
        least
    };
    let (start, heap) = span(WARM_UP_CALLS);
    let (end, heap_end) = span(WARM_UP_CALLS + SPAN_CALLS);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "2 x {SPAN_CALLS} calls of {kinds} kinds in {secs:.1} s; GL objects {objects:?}; least RSS {} then {} MiB; least heap in use {heap} then {heap_end} bytes",
        mib(start),
        mib(end),
    );
    assert_eq!(gl_objects().expect("census"), objects, "GL objects leaked");
    assert!(
        end <= start + RSS_SLACK,
        "resident memory grew by {} MiB over {SPAN_CALLS} calls",
        mib(end.saturating_sub(start))
    );
    assert!(
        heap_end <= heap + HEAP_SLACK,
        "the heap grew by {} bytes over {SPAN_CALLS} calls",
        heap_end.saturating_sub(heap)
    );
}

fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / MIB)
}
