//! The floating-point exception flags of the BLAS names answered on GL (issue 32, part 2), as
//! `fetestexcept` sees them after each kind of routine (level 1, gemv, gemm, syrk, trsm), with
//! `GLBLAS_BACKEND=gl` (the trace shows GL answered every call): invalid where an output is
//! NaN and no input was (inf - inf, 0 * inf), overflow where an output is infinite from finite
//! inputs, as a CPU BLAS raises them; neither for finite data, for NaN or infinity carried from
//! an input, nor from the driver's own work (the first call creates the context and compiles
//! its shaders); and the caller's other flags stay as they were. One test: the environment is
//! read once per process.

mod common;

use std::ffi::{c_char, c_int};

use common::{doubles_here, route_of, take_trace, trace_to_file};
use glblas::blas::{cblas::*, fortran::*};
use glblas::engine::fpenv::{FE_INVALID, FE_OVERFLOW};

extern "C" {
    fn feclearexcept(excepts: c_int) -> c_int;
    fn fetestexcept(excepts: c_int) -> c_int;
    fn feraiseexcept(excepts: c_int) -> c_int;
}

/// FE_DIVBYZERO on x86, a flag no BLAS call here raises.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
const FE_DIVBYZERO: c_int = 0x04;
#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
const FE_DIVBYZERO: c_int = 0x02;
const ALL: c_int = FE_INVALID | FE_OVERFLOW | FE_DIVBYZERO;

/// Which flags: (invalid, overflow).
type Flags = (bool, bool);
const NONE: Flags = (false, false);
const INVALID: Flags = (true, false);
const OVERFLOW: Flags = (false, true);

/// The flags `call` leaves raised, from none; `call` returns the value a test looks at.
fn raised<V>(call: impl FnOnce() -> V) -> (Flags, V) {
    // SAFETY (both): the calling thread's flags only.
    unsafe { feclearexcept(ALL) };
    let value = call();
    let f = unsafe { fetestexcept(ALL) };
    ((f & FE_INVALID != 0, f & FE_OVERFLOW != 0), value)
}

fn ch(c: u8) -> c_char {
    c as c_char
}

const INF: f32 = f32::INFINITY;

#[test]
fn gl_calls_raise_the_flags_ieee_arithmetic_would() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("fp-flags");
    let mut calls = 0;
    unsafe {
        calls += single();
        if doubles_here() {
            calls += double();
        }
        calls += keeps_the_callers_flags();
    }
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), calls, "{text}");
    for l in &lines {
        assert_eq!(route_of(l), "gl reason=backend", "{l}");
    }
}

/// C := A B through sgemm_, all three 2×2 and column-major.
unsafe fn sgemm_2x2(a: &[f32; 4], b: &[f32; 4], c: &mut [f32; 4]) {
    let (n, two) = (ch(b'N'), 2);
    let (pa, pb, pc) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    sgemm_(
        &n, &n, &two, &two, &two, &1.0, pa, &two, pb, &two, &0.0, pc, &two, 1, 1,
    );
}

/// Level 1, gemv, gemm, syrk and trsm in single precision; the number of calls.
unsafe fn single() -> usize {
    let one = 1;
    // First, finite data: the context's creation and the shader compiles raise nothing.
    let (a, b) = ([1.0f32, 2.0, 3.0, 4.0], [0.5f32, -1.0, 2.0, 1.0]);
    let mut c = [0.0f32; 4];
    let nn = ch(b'N');
    let (f, ()) = raised(|| sgemm_2x2(&a, &b, &mut c));
    assert_eq!(f, NONE, "sgemm of finite data: {c:?}");
    let (f, v) = raised(|| cblas_sdot(4, a.as_ptr(), 1, b.as_ptr(), 1));
    assert_eq!((f, v), (NONE, 8.5), "sdot of finite data");

    // dot: [1, 1]·[-inf, inf] is NaN (invalid); 1e20² overflows; NaN and inf carried raise nothing.
    let ones = [1.0f32, 1.0];
    let (f, v) = raised(|| sdot_(&2, ones.as_ptr(), &one, [-INF, INF].as_ptr(), &one));
    assert!(f == INVALID && v.is_nan(), "sdot inf - inf: {f:?} {v}");
    let big = [1e20f32, 1e20];
    let (f, v) = raised(|| cblas_sdot(2, big.as_ptr(), 1, big.as_ptr(), 1));
    assert!(f == OVERFLOW && v == INF, "sdot overflow: {f:?} {v}");
    let (f, v) = raised(|| cblas_sdot(2, ones.as_ptr(), 1, [f32::NAN, 1.0].as_ptr(), 1));
    assert!(f == NONE && v.is_nan(), "sdot NaN carried: {f:?}");
    let (f, v) = raised(|| cblas_sdot(2, ones.as_ptr(), 1, [INF, 1.0].as_ptr(), 1));
    assert!(f == NONE && v == INF, "sdot inf carried: {f:?}");
    // asum overflows; nrm2 of finite values never does (scaled), and carries inf.
    let huge = [3e38f32, 3e38];
    let (f, v) = raised(|| sasum_(&2, huge.as_ptr(), &one));
    assert!(f == OVERFLOW && v == INF, "sasum overflow: {f:?} {v}");
    let large = [1e38f32, 1e38];
    let (f, v) = raised(|| snrm2_(&2, large.as_ptr(), &one));
    assert!(f == NONE && v.is_finite(), "snrm2 scaled: {f:?} {v}");
    let (f, v) = raised(|| cblas_snrm2(2, [INF, 1.0].as_ptr(), 1));
    assert!(f == NONE && v == INF, "snrm2 inf carried: {f:?}");
    // axpy: inf + (-inf) (y's inf read before written); 3e38 + 3e38; scal: 0 * inf.
    let mut y = [INF, 1.0];
    let (f, ()) = raised(|| saxpy_(&2, &1.0, [-INF, 1.0].as_ptr(), &one, y.as_mut_ptr(), &one));
    assert!(
        f == INVALID && y[0].is_nan(),
        "saxpy inf - inf: {f:?} {y:?}"
    );
    let mut y = [3e38f32, 1.0];
    let (f, ()) = raised(|| saxpy_(&2, &1.0, huge.as_ptr(), &one, y.as_mut_ptr(), &one));
    assert!(f == OVERFLOW && y[0] == INF, "saxpy overflow: {f:?} {y:?}");
    let mut y = [f32::NAN, 1.0];
    let (f, ()) = raised(|| cblas_saxpy(2, 2.0, ones.as_ptr(), 1, y.as_mut_ptr(), 1));
    assert!(f == NONE && y[0].is_nan(), "saxpy NaN carried in y: {f:?}");
    let mut x = [INF, 1.0];
    let (f, ()) = raised(|| sscal_(&2, &0.0, x.as_mut_ptr(), &one));
    assert!(f == INVALID && x[0].is_nan(), "sscal 0 * inf: {f:?} {x:?}");

    // gemv: y = A x with A = [inf, -inf] (1×2), x = [1, 1]; and 3e38 * 10.
    let mut y = [0.0f32];
    let a1 = [INF, -INF];
    let (pa, px, py) = (a1.as_ptr(), ones.as_ptr(), y.as_mut_ptr());
    let (f, ()) = raised(|| cblas_sgemv(102, 111, 1, 2, 1.0, pa, 1, px, 1, 0.0, py, 1));
    assert!(f == INVALID && y[0].is_nan(), "sgemv inf - inf: {f:?}");
    let (a1, x1) = ([3e38f32], [10.0f32]);
    let (pa, px, py) = (a1.as_ptr(), x1.as_ptr(), y.as_mut_ptr());
    let (f, ()) = raised(|| sgemv_(&nn, &1, &1, &1.0, pa, &1, px, &one, &0.0, py, &one, 1));
    assert!(f == OVERFLOW && y[0] == INF, "sgemv overflow: {f:?}");

    // gemm: [[1, 1], [1, 1]] @ [[-inf, 0], [inf, 0]] (numpy's case; column-major below).
    let (f, ()) = raised(|| sgemm_2x2(&[1.0; 4], &[-INF, INF, 0.0, 0.0], &mut c));
    let sum = (c[0], c[2]);
    assert!(
        f == INVALID && sum.0.is_nan() && sum.1 == 0.0,
        "sgemm inf - inf: {f:?} {c:?}"
    );
    let (a1, b1) = ([1e20f32; 4], [1.0f32; 4]);
    let (pa, pb, pc) = (a1.as_ptr(), b1.as_ptr(), c.as_mut_ptr());
    let (f, ()) = raised(|| cblas_sgemm(102, 111, 111, 2, 2, 2, 1e20, pa, 2, pb, 2, 0.0, pc, 2));
    assert!(f == OVERFLOW && c[0] == INF, "sgemm overflow: {f:?} {c:?}");
    // C's own infinity, carried by beta = 1, is no overflow.
    let mut c = [INF, 0.0, 0.0, 0.0];
    let (pa, pb, pc) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    let (f, ()) = raised(|| cblas_sgemm(102, 111, 111, 2, 2, 2, 1.0, pa, 2, pb, 2, 1.0, pc, 2));
    assert!(f == NONE && c[0] == INF, "sgemm inf carried in C: {f:?}");

    // syrk: C := A A^T + C with A = [inf], C = [-inf]: inf - inf; 1e20² overflows.
    let mut c1 = [-INF];
    let u = ch(b'U');
    let a1 = [INF];
    let (pa, pc) = (a1.as_ptr(), c1.as_mut_ptr());
    let (f, ()) = raised(|| ssyrk_(&u, &nn, &1, &1, &1.0, pa, &1, &1.0, pc, &1, 1, 1));
    assert!(f == INVALID && c1[0].is_nan(), "ssyrk inf - inf: {f:?}");
    let a1 = [1e20f32];
    let (pa, pc) = (a1.as_ptr(), c1.as_mut_ptr());
    let (f, ()) = raised(|| cblas_ssyrk(102, 121, 111, 1, 1, 1.0, pa, 1, 0.0, pc, 1));
    assert!(f == OVERFLOW && c1[0] == INF, "ssyrk overflow: {f:?}");

    // trsm: 1e-30 x = 1e10 overflows.
    let mut b1 = [1e10f32];
    let a1 = [1e-30f32];
    let (l, pa, pb) = (ch(b'L'), a1.as_ptr(), b1.as_mut_ptr());
    let (f, ()) = raised(|| strsm_(&l, &u, &nn, &nn, &1, &1, &1.0, pa, &1, pb, &1, 1, 1, 1, 1));
    assert!(
        f == OVERFLOW && b1[0] == INF,
        "strsm overflow: {f:?} {b1:?}"
    );
    21
}

/// numpy's double-precision cases: dot of 1e200s overflows, [1, 1]·[-inf, inf] and the gemm
/// above are invalid; the number of calls.
unsafe fn double() -> usize {
    let (big, inf) = ([1e200f64, 1e200], f64::INFINITY);
    let (f, v) = raised(|| ddot_(&2, big.as_ptr(), &1, big.as_ptr(), &1));
    assert!(f == OVERFLOW && v == inf, "ddot overflow: {f:?} {v}");
    let (f, v) = raised(|| cblas_ddot(2, [1.0, 1.0].as_ptr(), 1, [-inf, inf].as_ptr(), 1));
    assert!(f == INVALID && v.is_nan(), "ddot inf - inf: {f:?} {v}");
    // Row-major, as numpy calls it.
    let mut c = [0.0f64; 4];
    let (a1, b1) = ([1.0f64; 4], [-inf, 0.0, inf, 0.0]);
    let (pa, pb, pc) = (a1.as_ptr(), b1.as_ptr(), c.as_mut_ptr());
    let (f, ()) = raised(|| cblas_dgemm(101, 111, 111, 2, 2, 2, 1.0, pa, 2, pb, 2, 0.0, pc, 2));
    assert!(
        f == INVALID && c[0].is_nan() && c[1] == 0.0,
        "dgemm: {f:?} {c:?}"
    );
    let mut y = [0.0f64; 1];
    let (a1, x1) = ([1e200f64], [1.0f64]);
    let (pa, px, py) = (a1.as_ptr(), x1.as_ptr(), y.as_mut_ptr());
    let (f, ()) = raised(|| cblas_dgemv(102, 111, 1, 1, 1e200, pa, 1, px, 1, 0.0, py, 1));
    assert!(f == OVERFLOW && y[0] == inf, "dgemv overflow: {f:?}");
    4
}

/// A flag the caller had raised stays raised, and a clean call adds none; the number of calls.
unsafe fn keeps_the_callers_flags() -> usize {
    feclearexcept(ALL);
    feraiseexcept(FE_DIVBYZERO);
    let x = [1.0f32, 2.0];
    let v = cblas_sdot(2, x.as_ptr(), 1, x.as_ptr(), 1);
    assert_eq!(v, 5.0);
    assert_eq!(
        fetestexcept(ALL),
        FE_DIVBYZERO,
        "the caller's flag stays, none is added"
    );
    let v = cblas_sdot(2, x.as_ptr(), 1, [INF, -INF].as_ptr(), 1);
    assert!(v.is_nan());
    assert_eq!(fetestexcept(ALL), FE_DIVBYZERO | FE_INVALID);
    2
}
