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
    let trace = std::env::temp_dir().join(format!("glblas-soname-{}.trace", std::process::id()));
    std::env::set_var("GLBLAS_TRACE", &trace);
    let (m, n, k) = (13usize, 11usize, 17usize);
    let a = fill(m * k, 1);
    let b = fill(k * n, 2);
    let mut c = fill(m * n, 3);
    let want = sgemm_ref(false, false, m, n, k, 1.5, &a, m, &b, k, 0.25, &c, m);
    let x = fill(k, 4);
    unsafe {
        cblas_sgemm(
            102,
            111,
            111,
            m as i32,
            n as i32,
            k as i32,
            1.5,
            a.as_ptr(),
            m as i32,
            b.as_ptr(),
            k as i32,
            0.25,
            c.as_mut_ptr(),
            m as i32,
        );
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
    let lines = std::fs::read_to_string(&trace).expect("trace file");
    let _ = std::fs::remove_file(&trace);
    assert_eq!(lines.lines().count(), 2, "{lines}");
    assert!(
        lines
            .lines()
            .all(|l| l.contains(" route=cpu reason=backend ")),
        "{lines}"
    );
}
