//! Calls to run under injected faults (`glblas::engine::fault`): glblas API calls on host
//! operands, which report a status, and BLAS-compatible calls, which the CPU BLAS must answer;
//! and the loops that fail each allocation or launch of a call in turn.

use std::sync::{Mutex, MutexGuard, PoisonError};

use glblas::api::*;
use glblas::engine::census::{gl_objects, GlObjects};
use glblas::engine::fault::{self, Fault};
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

use super::*;

/// Runs the tests of one process one at a time: faults, their counts and the engine are
/// process-wide.
pub fn serial() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The GL objects alive in the engine's context now.
pub fn census() -> GlObjects {
    gl_objects().expect("census of GL objects")
}

/// Replaces the engine by a fresh one (and disarms faults), so that the next call makes every
/// GL allocation it can make, its cached ones included.
pub fn fresh_engine() {
    fault::clear();
    assert_eq!(glblasShutdown(), Status::Success);
    assert_eq!(glblasInit(), Status::Success);
}

/// Makes a call into the given outputs and returns its status.
type Call = Box<dyn Fn(&mut [f32]) -> Status>;
/// Checks a call's outputs against the reference.
type Check = Box<dyn Fn(&[f32])>;

/// One glblas API call on host operands: its outputs before the call, the call, and the check
/// of its outputs against a double-precision reference.
pub struct ApiCall {
    pub name: &'static str,
    before: Vec<f32>,
    call: Call,
    check: Check,
}

impl ApiCall {
    /// Makes the call on a fresh copy of the outputs: its status and the outputs after it.
    pub fn run(&self) -> (Status, Vec<f32>) {
        let mut out = self.before.clone();
        let status = (self.call)(&mut out);
        (status, out)
    }

    /// Makes the call; it must succeed with the reference result.
    pub fn run_ok(&self) {
        let (status, out) = self.run();
        assert_eq!(status, Status::Success, "{}", self.name);
        (self.check)(&out);
    }

    /// Whether `out` (a successful run's outputs) is the reference result.
    pub fn is_right(&self, out: &[f32]) -> bool {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let right = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.check)(out)));
        std::panic::set_hook(hook);
        right.is_ok()
    }

    /// `ran` (what `run` gave) must be a success with the reference result, or a failure with
    /// `want` that left the outputs bit for bit as they were; whether it failed.
    pub fn assert_right_or(&self, ran: (Status, Vec<f32>), want: Status) -> bool {
        if ran.0 == Status::Success {
            (self.check)(&ran.1);
            return false;
        }
        self.assert_refused(ran, want, "");
        true
    }

    /// Makes the call; it must fail with `want` and leave its outputs bit for bit as they were.
    pub fn run_refused(&self, want: Status) {
        self.assert_refused(self.run(), want, "");
    }

    /// `ran` (what `run` gave) must be a failure with `want` that left the outputs bit for bit
    /// as they were; `what` says which fault, for messages.
    fn assert_refused(&self, (status, out): (Status, Vec<f32>), want: Status, what: &str) {
        assert_eq!(status, want, "{} {what}", self.name);
        let same = out
            .iter()
            .zip(&self.before)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "{} {what}: a refused call wrote an output", self.name);
    }
}

/// glblasSaxpy on n elements: y := 1.5x + y.
pub fn saxpy_call(n: usize) -> ApiCall {
    let x = fill(n, 1);
    let y = fill(n, 2);
    let mut want = y.clone();
    saxpy_ref(n, 1.5, &x, 1, &mut want, 1);
    let terms = saxpy_terms(1.5, &x, &y);
    ApiCall {
        name: "glblasSaxpy",
        before: y,
        call: Box::new(move |y| unsafe {
            glblasSaxpy(n as i32, 1.5, x.as_ptr(), 1, y.as_mut_ptr(), 1)
        }),
        check: Box::new(move |y| assert_saxpy(y, &want, &terms)),
    }
}

/// glblasSdot on n elements, into a result that holds -7 before the call.
pub fn sdot_call(n: usize) -> ApiCall {
    let (x, y) = (fill(n, 3), fill(n, 4));
    let (xc, yc) = (x.clone(), y.clone());
    ApiCall {
        name: "glblasSdot",
        before: vec![-7.0],
        call: Box::new(move |r| unsafe {
            glblasSdot(n as i32, x.as_ptr(), 1, y.as_ptr(), 1, &mut r[0])
        }),
        check: Box::new(move |r| assert_sdot(r[0], &xc, 1, &yc, 1, n)),
    }
}

/// glblasSgemv, A m×n not transposed: y := 1.5Ax + 0.5y.
pub fn sgemv_call(m: usize, n: usize) -> ApiCall {
    let (a, x, y) = (fill(m * n, 5), fill(n, 6), fill(m, 7));
    let want = sgemv_ref(false, m, n, 1.5, &a, m, &x, 1, 0.5, &y, 1);
    let y0 = y.clone();
    ApiCall {
        name: "glblasSgemv",
        before: y,
        call: Box::new(move |y| unsafe {
            glblasSgemv(
                Op(0),
                m as i32,
                n as i32,
                1.5,
                a.as_ptr(),
                m as i32,
                x.as_ptr(),
                1,
                0.5,
                y.as_mut_ptr(),
                1,
            )
        }),
        check: Box::new(move |y| assert_sgemv(y, &y0, m, 1, n, &want)),
    }
}

/// glblasSgemm, packed and not transposed: C := AB + 0.5C.
pub fn sgemm_call(m: usize, n: usize, k: usize) -> ApiCall {
    let (a, b, c) = (fill(m * k, 8), fill(k * n, 9), fill(m * n, 10));
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c, m);
    let (m, n, k) = (m as i32, n as i32, k as i32);
    ApiCall {
        name: "glblasSgemm",
        before: c,
        call: Box::new(move |c| unsafe {
            glblasSgemm(
                Op(0),
                Op(0),
                m,
                n,
                k,
                1.0,
                a.as_ptr(),
                m,
                b.as_ptr(),
                k,
                0.5,
                c.as_mut_ptr(),
                m,
            )
        }),
        check: Box::new(move |c| {
            let (m, n, k) = (m as usize, n as usize, k as usize);
            assert_sgemm(c, m, m, n, k, &want)
        }),
    }
}

/// An API call on device memory: `inputs` copied there once; for each run, the outputs copied
/// there before the call (`call` gets the inputs' device pointers, then the outputs') and back
/// after it.
fn on_device(
    name: &'static str,
    inputs: &[&[f32]],
    before: Vec<f32>,
    call: impl Fn(&[*mut f32], *mut f32) -> Status + 'static,
    check: Check,
) -> ApiCall {
    let inputs: Vec<Dev> = inputs.iter().map(|v| Dev::new(v)).collect();
    ApiCall {
        name,
        before,
        call: Box::new(move |out| {
            let o = Dev::new(out);
            let ins: Vec<*mut f32> = inputs.iter().map(Dev::f).collect();
            let status = call(&ins, o.f());
            out.copy_from_slice(&o.get(out.len()));
            status
        }),
        check,
    }
}

/// glblasSaxpy, glblasSdot (its result in device memory too) and glblasSgemm on device
/// operands, as [`saxpy_call`], [`sdot_call`] and [`sgemm_call`] make them on host operands,
/// on data drawn from `seed`.
pub fn device_calls(seed: u64) -> Vec<ApiCall> {
    let n = 5003;
    let (x, y) = (fill(n, seed + 1), fill(n, seed + 2));
    let mut want = y.clone();
    saxpy_ref(n, 1.5, &x, 1, &mut want, 1);
    let terms = saxpy_terms(1.5, &x, &y);
    let ni = n as i32;
    let saxpy = on_device(
        "glblasSaxpy on device operands",
        &[&x],
        y,
        move |i, y| unsafe { glblasSaxpy(ni, 1.5, i[0], 1, y, 1) },
        Box::new(move |y| assert_saxpy(y, &want, &terms)),
    );

    let (x, y) = (fill(n, seed + 3), fill(n, seed + 4));
    let (xc, yc) = (x.clone(), y.clone());
    let sdot = on_device(
        "glblasSdot on device operands",
        &[&x, &y],
        vec![-7.0],
        move |i, r| unsafe { glblasSdot(ni, i[0], 1, i[1], 1, r) },
        Box::new(move |r| assert_sdot(r[0], &xc, 1, &yc, 1, n)),
    );

    let (m, n, k) = (35, 29, 23);
    let (a, b, c) = (
        fill(m * k, seed + 8),
        fill(k * n, seed + 9),
        fill(m * n, seed + 10),
    );
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c, m);
    let (mi, ni, ki) = (m as i32, n as i32, k as i32);
    let sgemm = on_device(
        "glblasSgemm on device operands",
        &[&a, &b],
        c,
        move |i, c| unsafe {
            glblasSgemm(
                Op(0),
                Op(0),
                mi,
                ni,
                ki,
                1.0,
                i[0],
                mi,
                i[1],
                ki,
                0.5,
                c,
                mi,
            )
        },
        Box::new(move |c| assert_sgemm(c, m, m, n, k, &want)),
    );
    vec![saxpy, sdot, sgemm]
}

/// One call of each routine that has its own kernels, with every host operand small enough to
/// be copied to the device (under the 256 KiB from which host memory is used in place).
pub fn api_calls() -> Vec<ApiCall> {
    vec![
        saxpy_call(5003),
        sdot_call(5003),
        sgemv_call(45, 37),
        sgemm_call(35, 29, 23),
    ]
}

/// Fails the 1st, then the 2nd, ... event of `kind` that `call` meets, `prepare` running before
/// each try: each try must fail with `want` and leave the outputs untouched, and `after` runs
/// then (with the fault disarmed, and what failed, for messages). Stops at the first try that
/// succeeds (its result must be the reference) and returns how many events the call meets.
fn fail_each(
    call: &ApiCall,
    kind: Fault,
    want: Status,
    prepare: impl Fn(),
    after: impl Fn(&str),
) -> u64 {
    for nth in 1.. {
        prepare();
        fault::fail_next(kind, nth);
        let ran = call.run();
        fault::clear();
        if ran.0 == Status::Success {
            (call.check)(&ran.1);
            assert!(nth > 1, "{} met no {kind:?} event", call.name);
            return nth - 1;
        }
        let what = format!("{} with {kind:?} event {nth} failing", call.name);
        call.assert_refused(ran, want, &what);
        after(&what);
    }
    unreachable!()
}

/// Fails each GL allocation `call` makes in turn, each time on a fresh engine so that the call
/// makes all of them (its cached buffers, targets and views included): the call must report
/// ALLOC_FAILED with its outputs untouched, the same call must then succeed, and the engine must
/// then hold exactly as many GL objects as after the call on a fresh engine without a fault (an
/// object left behind by the failed allocation, or by the clean-up of the call, would be one
/// more). Returns how many allocations the call makes.
pub fn fail_each_allocation(call: &ApiCall) -> u64 {
    fresh_engine();
    call.run_ok();
    let clean = census();
    fail_each(
        call,
        Fault::Alloc,
        Status::AllocFailed,
        fresh_engine,
        |what| {
            call.run_ok();
            assert_eq!(census(), clean, "{what}");
        },
    )
}

/// Fails each kernel launch `call` makes in turn, after a warm-up of the same call (its
/// programs and buffers are made): the call must report EXECUTION_FAILED with its outputs
/// untouched, leave the GL objects as they were, and succeed when repeated. Returns how many
/// launches the call makes.
pub fn fail_each_launch(call: &ApiCall) -> u64 {
    call.run_ok();
    let before = census();
    fail_each(
        call,
        Fault::Launch,
        Status::ExecutionFailed,
        || {},
        |what| {
            assert_eq!(census(), before, "{what}");
            call.run_ok();
            assert_eq!(census(), before, "{what}");
        },
    )
}

/// Loses the context in a device reset at each kernel launch `call` makes in turn, after a
/// warm-up of the same call on a fresh engine: the call must report DEVICE_LOST with its outputs
/// untouched, and the same call must then succeed on a new context, which must then hold
/// exactly as many GL objects as the first did after the warm-up (none carried over, none made
/// twice). Returns how many launches the call makes.
pub fn reset_each_launch(call: &ApiCall) -> u64 {
    fresh_engine();
    call.run_ok();
    let clean = census();
    fail_each(
        call,
        Fault::Reset,
        Status::DeviceLost,
        || {},
        |what| {
            call.run_ok();
            assert_eq!(census(), clean, "{what}");
        },
    )
}

/// cblas_saxpy, cblas_sdot, cblas_sgemm and sgemv_ on host operands, each checked against a
/// double-precision reference; `arm` runs before each (to arm the fault it must meet).
pub fn blas_calls_answered(arm: impl Fn()) {
    let n = 1001;
    let (x, y0) = (fill(n, 11), fill(n, 12));

    arm();
    let mut y = y0.clone();
    let mut want = y0.clone();
    saxpy_ref(n, -2.0, &x, 1, &mut want, 1);
    unsafe { glblas::blas::cblas::cblas_saxpy(n as i32, -2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    let terms = saxpy_terms(-2.0, &x, &y0);
    assert_saxpy(&y, &want, &terms);

    arm();
    let dot = unsafe { glblas::blas::cblas::cblas_sdot(n as i32, x.as_ptr(), 1, y0.as_ptr(), 1) };
    assert_sdot(dot, &x, 1, &y0, 1, n);

    arm();
    let (m, n, k) = (33usize, 21usize, 17usize);
    let (a, b) = (fill(m * k, 13), fill(k * n, 14));
    let mut c = fill(m * n, 15);
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c, m);
    unsafe { cblas_sgemm_packed(m, n, k, 1.0, a.as_ptr(), b.as_ptr(), 0.5, c.as_mut_ptr()) };
    assert_sgemm(&c, m, m, n, k, &want);

    arm();
    // y := 1.5 A^T x + 0.5 y with A m×k: y has k elements.
    let (xv, yv0) = (fill(m, 16), fill(k, 17));
    let mut yv = yv0.clone();
    let want = sgemv_ref(true, m, k, 1.5, &a, m, &xv, 1, 0.5, &yv0, 1);
    let (mi, ki, one, alpha, beta) = (m as i32, k as i32, 1i32, 1.5f32, 0.5f32);
    unsafe {
        glblas::blas::fortran::sgemv_(
            c"T".as_ptr(),
            &mi,
            &ki,
            &alpha,
            a.as_ptr(),
            &mi,
            xv.as_ptr(),
            &one,
            &beta,
            yv.as_mut_ptr(),
            &one,
            1,
        )
    };
    assert_sgemv(&yv, &yv0, k, 1, m, &want);
}

/// The symbols [`blas_calls_answered`] calls, in order.
pub const BLAS_SYMBOLS: [&str; 4] = ["cblas_saxpy", "cblas_sdot", "cblas_sgemm", "sgemv_"];

/// `lines` must be the trace of one round of [`blas_calls_answered`], each call with `route`
/// (`route=... reason=...` as `route_of` gives it).
pub fn assert_blas_routes(lines: &[String], route: &str) {
    let text = lines.join("\n");
    assert_eq!(lines.len(), BLAS_SYMBOLS.len(), "{text}");
    for (line, symbol) in lines.iter().zip(BLAS_SYMBOLS) {
        assert!(line.contains(&format!(" {symbol} ")), "{text}");
        assert_eq!(route_of(line), route, "{text}");
    }
}
