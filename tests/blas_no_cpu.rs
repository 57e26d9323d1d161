//! The BLAS-compatible symbols of every family, computed on GL: with `GLBLAS_CPU_BLAS=none`
//! there is no CPU BLAS, so even `GLBLAS_BACKEND=cpu` must leave every call to GL (a call
//! forwarded nowhere would leave its output unchanged and fail the checks), which the trace
//! confirms. One test: the environment is read once per process.

mod common;

use common::*;
use glblas::blas::{cblas::*, fortran::*};

const ROW: i32 = 101;
const COL: i32 = 102;
const NO: i32 = 111;
const TR: i32 = 112;

#[test]
fn every_family_answers_on_gl_without_a_cpu_blas() {
    std::env::set_var("GLBLAS_CPU_BLAS", "none");
    std::env::set_var("GLBLAS_BACKEND", "cpu");
    let trace = trace_to_file("no-cpu");
    unsafe {
        row_major_cblas_sgemm();
        fortran_sgemm_with_lowercase_characters();
        ilp64_sgemv_with_a_negative_increment();
        dots_return_their_value();
        level1_updates();
    }
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 14, "one trace line per call:\n{text}");
    for l in &lines {
        // sasum of a negative increment is one of the reference's quick returns: not routed.
        let want = if l.starts_with("glblas-trace: scipy_cblas_sasum64_ n=1000 incx=-1 ") {
            "none reason=quick-return"
        } else {
            "gl reason=no-cpu-blas"
        };
        assert_eq!(route_of(l), want, "{l}");
    }
    assert!(
        lines[0].starts_with("glblas-trace: cblas_sgemm layout=row transa=N transb=N m=5 n=7 k=9 ")
    );
    assert!(lines[4].starts_with(
        "glblas-trace: sgemm_ transa=T transb=T m=6 n=4 k=3 alpha=2 lda=4 ldb=4 beta=0 ldc=8 "
    ));
}

unsafe fn row_major_cblas_sgemm() {
    // Row-major C (m×n) = op(A) op(B) is column-major C^T = op(B)^T op(A)^T.
    let (m, n, k) = (5usize, 7usize, 9usize);
    for (ta, tb) in [(false, false), (false, true), (true, false), (true, true)] {
        let lda = if ta { m } else { k } + 2;
        let ldb = if tb { k } else { n } + 1;
        let ldc = n + 3;
        let a = fill(if ta { k } else { m } * lda, 1);
        let b = fill(if tb { n } else { k } * ldb, 2);
        let mut c = fill(m * ldc, 3);
        let want = sgemm_ref(tb, ta, n, m, k, 0.5, &b, ldb, &a, lda, -1.5, &c, ldc);
        let op = |t: bool| if t { TR } else { NO };
        cblas_sgemm(
            ROW,
            op(ta),
            op(tb),
            m as i32,
            n as i32,
            k as i32,
            0.5,
            a.as_ptr(),
            lda as i32,
            b.as_ptr(),
            ldb as i32,
            -1.5,
            c.as_mut_ptr(),
            ldc as i32,
        );
        assert_sgemm(&c, ldc, n, m, k, &want);
    }
}

unsafe fn fortran_sgemm_with_lowercase_characters() {
    let (m, n, k) = (6i32, 4i32, 3i32);
    let (lda, ldb, ldc) = (k + 1, n, m + 2);
    let a = fill((lda * m) as usize, 4);
    let b = fill((ldb * k) as usize, 5);
    let mut c = vec![f32::NAN; (ldc * n) as usize];
    let want = sgemm_ref(true, true, 6, 4, 3, 2.0, &a, 4, &b, 4, 0.0, &c, 8);
    call_fortran_sgemm(
        sgemm_,
        [b't'; 2],
        [m, n, k],
        (2.0, 0.0),
        (&a, lda),
        (&b, ldb),
        (&mut c, ldc),
    );
    // beta == 0: the NaNs in C are never read.
    assert_sgemm(&c, 8, 6, 4, 3, &want);
}

unsafe fn ilp64_sgemv_with_a_negative_increment() {
    let (m, n, lda) = (7usize, 5usize, 9usize);
    let a = fill(lda * n, 6);
    let x = fill(2 * n, 7);
    let mut y = fill(m, 8);
    let want = sgemv_ref(false, m, n, 1.25, &a, lda, &x, -2, 0.5, &y, 1);
    scipy_cblas_sgemv64_(
        COL,
        NO,
        m as i64,
        n as i64,
        1.25,
        a.as_ptr(),
        lda as i64,
        x.as_ptr(),
        -2,
        0.5,
        y.as_mut_ptr(),
        1,
    );
    for (i, got) in y.iter().enumerate() {
        let tol = (n as f64 + 2.0) * EPS * want.1[i] + f64::from(f32::MIN_POSITIVE);
        let w = want.0[i];
        assert!((*got as f64 - w).abs() <= tol, "y[{i}] = {got}, want {w}");
    }
}

unsafe fn dots_return_their_value() {
    let n = 1000;
    let x = fill(3 * n, 9);
    let y = fill(n, 10);
    assert_sdot(
        cblas_sdot(n as i32, x.as_ptr(), 3, y.as_ptr(), 1),
        &x,
        3,
        &y,
        1,
        n,
    );
    let (nn, inc) = (n as i32, -3i32);
    let one = 1i32;
    assert_sdot(
        sdot_(&nn, x.as_ptr(), &inc, y.as_ptr(), &one),
        &x,
        -3,
        &y,
        1,
        n,
    );
    let want: f64 = x.iter().step_by(3).map(|v| v.abs() as f64).sum();
    let got = scipy_cblas_sasum64_(n as i64, x.as_ptr(), 3) as f64;
    assert!(
        (got - want).abs() <= n as f64 * EPS * want,
        "sasum {got} vs {want}"
    );
    assert_eq!(
        scipy_cblas_sasum64_(n as i64, x.as_ptr(), -1),
        0.0,
        "incx <= 0 gives 0"
    );
}

unsafe fn level1_updates() {
    let n = 300;
    let x = fill(n, 11);
    let mut y = fill(2 * n, 12);
    let mut want = y.clone();
    saxpy_ref(n, 0.75, &x, 1, &mut want, -2);
    cblas_saxpy(n as i32, 0.75, x.as_ptr(), 1, y.as_mut_ptr(), -2);
    let terms: Vec<f64> = want.iter().map(|v| v.abs() as f64 + 1.0).collect();
    assert_saxpy(&y, &want, &terms);

    let mut z = vec![0.0f32; n];
    scipy_cblas_scopy64_(n as i64, x.as_ptr(), 1, z.as_mut_ptr(), 1);
    assert_eq!(z, x);
    let alpha = 3.0f32;
    let (nn, one) = (n as i32, 1i32);
    sscal_(&nn, &alpha, z.as_mut_ptr(), &one);
    assert!(z.iter().zip(&x).all(|(z, x)| *z == 3.0 * x));
    let mut w = fill(n, 13);
    let (w0, z0) = (w.clone(), z.clone());
    cblas_sswap(n as i32, z.as_mut_ptr(), 1, w.as_mut_ptr(), 1);
    assert_eq!((z, w), (w0, z0));
}
