//! BLAS-compatible calls on glblas device pointers run on GL whatever the backend: here
//! `GLBLAS_BACKEND=cpu`, and the CPU BLAS reading a device pointer (a PROT_NONE reservation)
//! would crash the test; the trace says why each call went to GL. One test: the environment is
//! read once per process.

mod common;

use common::*;
use glblas::blas::cblas::*;

#[test]
fn device_operands_go_to_gl_even_with_the_cpu_backend() {
    std::env::set_var("GLBLAS_BACKEND", "cpu");
    let trace = trace_to_file("device");
    let n = 257;
    let x = fill(n, 1);
    let y = fill(n, 2);
    let (dx, dy) = (Dev::new(&x), Dev::new(&y));
    unsafe {
        assert_sdot(cblas_sdot(n as i32, dx.f(), 1, dy.f(), 1), &x, 1, &y, 1, n);
        cblas_saxpy(n as i32, -2.0, dx.f(), 1, dy.f(), 1);
    }
    let mut want = y.clone();
    saxpy_ref(n, -2.0, &x, 1, &mut want, 1);
    let terms: Vec<f64> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 2.0 * x.abs() as f64 + y.abs() as f64)
        .collect();
    assert_saxpy(&dy.get(n), &want, &terms);

    let (m, k) = (19usize, 23usize);
    let a = fill(m * k, 3);
    let b = fill(k * m, 4);
    let c = fill(m * m, 5);
    let (da, db, dc) = (Dev::new(&a), Dev::new(&b), Dev::new(&c));
    unsafe {
        cblas_sgemm_packed(m, m, k, 1.0, da.f(), db.f(), 0.5, dc.f());
    }
    let want = sgemm_ref(false, false, m, m, k, 1.0, &a, m, &b, k, 0.5, &c, m);
    assert_sgemm(&dc.get(m * m), m, m, m, k, &want);

    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines
            .iter()
            .all(|l| route_of(l) == "gl reason=device-pointer"),
        "{text}"
    );
}
