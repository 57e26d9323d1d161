//! Increments whose byte stride overflows 64 bits, through the ILP64 Fortran names: numpy's
//! linalg passes them for reversed arrays (the negative byte stride divided by the element size
//! as unsigned, 2^61 − 4 for −4 doubles) and every CPU BLAS addresses element i at
//! x + i·inc·size modulo 2^64, the vector of the increment the stride wraps to. Each routine
//! that takes a vector, in single and double precision, must answer as the same call with that
//! increment (from the vector's far end) does, on GL or by the reference's quick return, not
//! refuse the call. One test: the environment is read once per process.

mod common;

use common::*;
use glblas::blas::fortran::scipy64;

const N: i64 = 5;
/// The increment the vectors run with: negative, as numpy's reversed arrays.
const STEP: i64 = -3;

/// numpy's increment for `step` elements of `size` bytes: the byte stride divided as unsigned.
fn numpy_increment(step: i64, size: i64) -> i64 {
    ((step * size) as u64 / size as u64) as i64
}

macro_rules! precision {
    ($t:ty, $fill:expr, $copy:ident, $dot:ident, $axpy:ident, $scal:ident, $swap:ident,
     $asum:ident, $nrm2:ident, $iamax:ident, $gemv:ident) => {{
        let wrapped = numpy_increment(STEP, std::mem::size_of::<$t>() as i64);
        assert!(
            wrapped > 0,
            "the increment numpy passes is positive: {wrapped}"
        );
        let span = ((N - 1) * -STEP + 1) as usize;
        let x: Vec<$t> = $fill(span, 1);
        // The vector's first element is the far end of the buffer, and it runs downwards.
        let first = (span - 1) as isize;
        let at = |v: &[$t]| unsafe { v.as_ptr().offset(first) };
        let at_mut = |v: &mut [$t]| unsafe { v.as_mut_ptr().offset(first) };
        let want: Vec<$t> = (0..N as usize).map(|i| x[span - 1 - 3 * i]).collect();
        let one = 1i64;
        unsafe {
            // copy: x by the wrapped increment into a packed y.
            let mut y = vec![0.0 as $t; N as usize];
            scipy64::$copy(&N, at(&x), &wrapped, y.as_mut_ptr(), &one);
            assert_eq!(y, want, "copy");
            // The same with the increment it wraps to, from the buffer's start (BLAS counts a
            // negative increment from the far end): every other routine is checked against it.
            let mut same = vec![0.0 as $t; N as usize];
            scipy64::$copy(&N, x.as_ptr(), &STEP, same.as_mut_ptr(), &one);
            assert_eq!(same, want, "copy with the negative increment");

            let d = scipy64::$dot(&N, at(&x), &wrapped, y.as_ptr(), &one);
            assert_eq!(
                d,
                scipy64::$dot(&N, x.as_ptr(), &STEP, y.as_ptr(), &one),
                "dot"
            );
            assert_eq!(
                scipy64::$asum(&N, at(&x), &wrapped),
                scipy64::$asum(&N, x.as_ptr(), &STEP),
                "asum"
            );
            assert_eq!(
                scipy64::$nrm2(&N, at(&x), &wrapped),
                scipy64::$nrm2(&N, x.as_ptr(), &STEP),
                "nrm2"
            );
            assert_eq!(
                scipy64::$iamax(&N, at(&x), &wrapped),
                scipy64::$iamax(&N, x.as_ptr(), &STEP),
                "iamax"
            );

            // axpy, scal and swap write the wrapped vector.
            let (mut w, mut v) = (x.clone(), x.clone());
            let alpha: $t = 0.75;
            scipy64::$axpy(&N, &alpha, y.as_ptr(), &one, at_mut(&mut w), &wrapped);
            scipy64::$axpy(&N, &alpha, y.as_ptr(), &one, v.as_mut_ptr(), &STEP);
            assert_eq!(w, v, "axpy");
            assert_ne!(w, x, "axpy wrote");
            scipy64::$scal(&N, &alpha, at_mut(&mut w), &wrapped);
            scipy64::$scal(&N, &alpha, v.as_mut_ptr(), &STEP);
            assert_eq!(w, v, "scal");
            let (mut p, mut q) = (y.clone(), y.clone());
            scipy64::$swap(&N, at_mut(&mut w), &wrapped, p.as_mut_ptr(), &one);
            scipy64::$swap(&N, v.as_mut_ptr(), &STEP, q.as_mut_ptr(), &one);
            assert_eq!((&w, &p), (&v, &q), "swap");

            // gemv: x and y both wrapped.
            let a: Vec<$t> = $fill((N * N) as usize, 2);
            let beta: $t = 0.5;
            let (mut w, mut v) = (x.clone(), x.clone());
            let gemv = |x: *const $t, y: *mut $t, inc: i64| {
                let t = b"T".as_ptr().cast();
                scipy64::$gemv(
                    t,
                    &N,
                    &N,
                    &alpha,
                    a.as_ptr(),
                    &N,
                    x,
                    &inc,
                    &beta,
                    y,
                    &inc,
                    1,
                )
            };
            gemv(at(&x), at_mut(&mut w), wrapped);
            gemv(x.as_ptr(), v.as_mut_ptr(), STEP);
            assert_eq!(w, v, "gemv");
        }
    }};
}

#[test]
fn wrapped_increments_address_as_the_cpu_blas_does() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("wrapped-increments");
    precision!(f32, fill, scopy_, sdot_, saxpy_, sscal_, sswap_, sasum_, snrm2_, isamax_, sgemv_);
    let doubles = doubles_here();
    if doubles {
        precision!(
            f64, fill64, dcopy_, ddot_, daxpy_, dscal_, dswap_, dasum_, dnrm2_, idamax_, dgemv_
        );
    }
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), if doubles { 36 } else { 18 }, "{text}");
    // Each call with the wrapped increment, then the same with the negative one.
    for pair in lines.chunks(2) {
        assert_eq!(route_of(&pair[0]), route_of(&pair[1]), "{text}");
        assert_ne!(route_of(&pair[0]), "none reason=refused", "{text}");
    }
    let on_gl = lines
        .iter()
        .filter(|l| route_of(l).starts_with("gl "))
        .count();
    assert_eq!(
        on_gl,
        if doubles { 24 } else { 12 },
        "all but asum, iamax and scal, which do nothing with a negative increment: {text}"
    );
}
