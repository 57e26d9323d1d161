//! The CPU BLAS found by soname: this test program links no BLAS, so neither `RTLD_NEXT` nor the
//! loaded objects provide `cblas_sgemm`; with `GLBLAS_BACKEND=cpu` the call must still reach the
//! CPU BLAS, through `libopenblas.so.0` or `libblas.so.3` (which the test script installs), and
//! never glblas's own definition. One test: the environment is read once per process.

mod common;

use common::*;
use glblas::blas::cblas::*;

#[test]
fn the_usual_sonames_provide_the_cpu_blas() {
    std::env::set_var("GLBLAS_BACKEND", "cpu");
    let trace = trace_to_file("soname");
    let (m, n, k) = (13usize, 11usize, 17usize);
    let a = fill(m * k, 1);
    let b = fill(k * n, 2);
    let mut c = fill(m * n, 3);
    let want = sgemm_ref(false, false, m, n, k, 1.5, &a, m, &b, k, 0.25, &c, m);
    let x = fill(k, 4);
    unsafe {
        cblas_sgemm_packed(m, n, k, 1.5, a.as_ptr(), b.as_ptr(), 0.25, c.as_mut_ptr());
        assert_sdot(
            cblas_sdot(k as i32, x.as_ptr(), 1, x.as_ptr(), 1),
            &x,
            1,
            &x,
            1,
            k,
        );
    }
    assert_sgemm(&c, m, m, n, k, &want);
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines.iter().all(|l| route_of(l) == "cpu reason=backend"),
        "{text}"
    );
}
