//! The Fortran names of the wheels' OpenBLAS builds that no test client calls otherwise: numpy's
//! ILP64 ones (`scipy_sgemm_64_`, 64-bit integers by reference, an INTEGER*8 i?amax result),
//! answered on GL, and their error exit. scipy's LP64 names are run by pip's scipy itself
//! (`python_tests/test_preload_scipy.py`). One test: the environment is read once per process.

mod common;

use common::*;
use glblas::blas::fortran::scipy64;

#[test]
fn ilp64_fortran_names_answer_on_gl() {
    std::env::set_var("GLBLAS_BACKEND", "cpu");
    let trace = trace_to_file("wheel-names");
    let (m, n, k) = (6i64, 5i64, 7i64);
    let (lda, ldb, ldc) = (k + 2, n + 1, m + 3);
    let a = fill((lda * m) as usize, 1);
    let b = fill((ldb * k) as usize, 2);
    let mut c = fill((ldc * n) as usize, 3);
    let want = sgemm_ref(true, true, 6, 5, 7, 0.5, &a, 9, &b, 6, -1.5, &c, 9);
    let x = fill(301, 4);
    let sgemm = |rows: i64, c: &mut [f32]| unsafe {
        let scalars = (0.5, -1.5);
        let dims = [rows, n, k];
        call_fortran_sgemm(
            scipy64::sgemm_,
            *b"tt",
            dims,
            scalars,
            (&a, lda),
            (&b, ldb),
            (c, ldc),
        );
    };
    sgemm(m, &mut c);
    // SAFETY: x holds 301 floats.
    let biggest = unsafe { scipy64::isamax_(&301, x.as_ptr(), &1) };
    // M < 0: the error exit, which leaves C alone.
    let before = c.clone();
    sgemm(-1, &mut c);
    assert_eq!(c, before);
    assert_sgemm(&c, 9, 6, 5, 7, &want);
    let first_max = x.iter().enumerate().fold(
        0,
        |best, (i, v)| if v.abs() > x[best].abs() { i } else { best },
    );
    assert_eq!(
        biggest,
        first_max as i64 + 1,
        "the 1-based index, as an INTEGER*8"
    );

    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 3, "one trace line per call:\n{text}");
    assert!(lines[0].starts_with(
        "glblas-trace: scipy_sgemm_64_ transa=T transb=T m=6 n=5 k=7 alpha=0.5 lda=9 ldb=6 "
    ));
    assert!(lines[1].starts_with("glblas-trace: scipy_isamax_64_ n=301 incx=1 "));
    // Nothing in this process defines these names but glblas: even under GLBLAS_BACKEND=cpu,
    // GL answers for want of a CPU BLAS.
    for l in &lines[..2] {
        assert_eq!(route_of(l), "gl reason=no-cpu-blas", "{l}");
    }
    assert_eq!(route_of(&lines[2]), "error reason=param-3", "{}", lines[2]);
}
