//! nrm2 and i?amax under their BLAS-compatible names, every family (Fortran `snrm2_`,
//! `isamax_`…, CBLAS `cblas_snrm2`, `cblas_isamax`…, ILP64 `scipy_cblas_snrm264_`…), with
//! `GLBLAS_BACKEND=gl`: Fortran's index is 1-based, CBLAS's `CBLAS_INDEX` 0-based, both 0 for
//! no elements or a non-positive increment; nrm2 of a zero increment is |x[0]|·sqrt(n), of a
//! negative one the norm of the same elements (reference BLAS 3.10+). The trace must show GL
//! answered every call (where the device computes in double, for the double ones), but for
//! i?amax's quick returns, which nothing answers. One test:
//! the environment is read once per process.

mod common;

use common::*;
use glblas::blas::{abi::CblasIndex, cblas::*, fortran::*};

#[test]
fn every_family_answers_on_gl() {
    std::env::set_var("GLBLAS_BACKEND", "gl");
    let trace = trace_to_file("reductions");
    let x: Vec<f32> = vec![3.0, -4.0, 12.0, 0.0, 0.0, 1e20];
    let xd: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let (n, px, pd) = (5, x.as_ptr(), xd.as_ptr());
    let mut calls = 0;
    unsafe {
        // Fortran: 1-based.
        assert_eq!(snrm2_(&n, px, &1), 13.0);
        assert_eq!(snrm2_(&2, px, &-2), 12.369317);
        assert_eq!(snrm2_(&4, px, &0), 6.0);
        assert_eq!(isamax_(&n, px, &1), 3);
        assert_eq!(isamax_(&3, px, &2), 2);
        assert_eq!(isamax_(&n, px, &0), 0);
        assert_eq!(isamax_(&0, px, &1), 0);
        calls += 7;
        // CBLAS: 0-based.
        assert_eq!(cblas_snrm2(n, px, 1), 13.0);
        assert_eq!(cblas_snrm2(6, px, 1), 1e20, "no overflow in the squares");
        assert_eq!(cblas_isamax(n, px, 1), CblasIndex(2));
        assert_eq!(cblas_isamax(6, px, 1), CblasIndex(5));
        assert_eq!(cblas_isamax(n, px, -1), CblasIndex(0));
        assert_eq!(cblas_isamax(0, px, 1), CblasIndex(0));
        calls += 6;
        // ILP64.
        assert_eq!(scipy_cblas_snrm264_(n.into(), px, 1), 13.0);
        assert_eq!(scipy_cblas_isamax64_(n.into(), px, 1), CblasIndex(2));
        assert_eq!(scipy_cblas_isamax64_(3, px, 2), CblasIndex(1));
        calls += 3;
    }
    unsafe {
        assert_eq!(dnrm2_(&n, pd, &1), 13.0);
        // A CPU BLAS may differ here (OpenBLAS 0.3.21 gives 0 for a zero increment).
        let zero_inc = dnrm2_(&4, pd, &0);
        assert!(zero_inc == 6.0 || !doubles_here(), "{zero_inc}");
        assert_eq!(idamax_(&n, pd, &1), 3);
        assert_eq!(idamax_(&n, pd, &-1), 0);
        assert_eq!(cblas_dnrm2(6, pd, 1), xd[5]);
        assert_eq!(cblas_idamax(n, pd, 1), CblasIndex(2));
    }
    let (lines, text) = take_trace(&trace);
    assert_eq!(lines.len(), calls + 6, "one trace line per call:\n{text}");
    assert_eq!(lines.iter().filter(|l| quick(l)).count(), 5, "{text}");
    for l in lines.iter().filter(|l| quick(l)) {
        assert_eq!(route_of(l), "none reason=quick-return", "{l}");
    }
    for l in lines[..calls].iter().filter(|l| !quick(l)) {
        // The ILP64 names have no CPU definition here (the reference BLAS is LP64).
        let route = route_of(l);
        assert!(
            route == "gl reason=backend" || route == "gl reason=no-cpu-blas",
            "{l}"
        );
    }
    assert!(
        lines[0].starts_with("glblas-trace: snrm2_ n=5 incx=1 "),
        "{text}"
    );
    assert!(
        lines[3].starts_with("glblas-trace: isamax_ n=5 incx=1 "),
        "{text}"
    );

    let lines = &lines[calls..];
    // Without double precision on GL the CPU BLAS answers (the same values).
    let want = if doubles_here() {
        "gl reason=backend"
    } else {
        "cpu reason=no-double"
    };
    for l in lines.iter().filter(|l| !quick(l)) {
        assert_eq!(route_of(l), want, "{l}");
    }
    if doubles_here() {
        // No CPU BLAS has these: only a GL that computes in double answers them.
        unsafe {
            assert_eq!(scipy_cblas_dnrm264_(n.into(), pd, -1), 13.0);
            assert_eq!(scipy_cblas_idamax64_(6, pd, 1), CblasIndex(5));
        }
    }
}

/// i?amax of no elements or a non-positive increment is one of the reference's quick returns:
/// nothing routed (nrm2 computes those increments).
fn quick(line: &str) -> bool {
    line.contains("amax")
        && [" n=0 ", " incx=0 ", " incx=-"]
            .iter()
            .any(|s| line.contains(s))
}
