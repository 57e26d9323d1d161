//! A call `auto` sends to GL does not wait for a shader still compiling in the background: the
//! CPU BLAS answers it, with the reason in the trace, and GL answers the calls after the compile
//! is done. A call too large for the CPU BLAS to answer sooner than a compile would end, and a
//! call that must be GL's (here the glblas API's), wait instead. The driver's "not yet" is
//! injected (`compiling` faults): llvmpipe and virgl link before `glLinkProgram` returns (zink
//! links in its own threads, and says "not yet" itself). Where the driver cannot compile in
//! the background (no `KHR_parallel_shader_compile`), nothing is deferred and GL answers every
//! call.

mod common;

use std::time::{Duration, Instant};

use common::*;
use glblas::api::glblasSaxpy;
use glblas::engine::fault::{self, Fault};
use glblas::status::Status;

/// How long a background compile may take.
const LIMIT: Duration = Duration::from_secs(60);

/// `auto`, with every call large enough for GL.
#[test]
fn a_compile_in_progress_sends_the_call_to_the_cpu_blas_under_auto_only() {
    std::env::set_var("GLBLAS_BACKEND", "auto");
    std::env::set_var("GLBLAS_GL_MIN_FLOPS", "0");
    let trace = trace_to_file("deferred");
    let parallel = glblas::engine::device_info()
        .expect("a GL device")
        .parallel_compile;

    // sgemm: its first program is "still compiling" when asked, twice, whatever the driver
    // says; after that the driver's own answer counts (zink's compile runs on its threads, and
    // may take a few calls more). Every call's result is the reference's.
    let (m, n, k) = (13usize, 11usize, 7usize);
    let a = fill(m * k, 1);
    let b = fill(k * n, 2);
    let c0 = fill(m * n, 3);
    let want = sgemm_ref(false, false, m, n, k, 1.0, &a, m, &b, k, 0.5, &c0, m);
    fault::fail_next(Fault::Compiling, 1);
    fault::fail_next(Fault::Compiling, 2);
    let start = Instant::now();
    let mut routes = Vec::new();
    while routes.last().is_none_or(|r| r != "gl reason=large") {
        assert!(start.elapsed() < LIMIT, "GL never answered: {routes:?}");
        let mut c = c0.clone();
        unsafe { cblas_sgemm_packed(m, n, k, 1.0, a.as_ptr(), b.as_ptr(), 0.5, c.as_mut_ptr()) };
        assert_sgemm(&c, m, m, n, k, &want);
        // The trace file stays open in glblas: read, not taken.
        let text = std::fs::read_to_string(&trace).expect("trace file");
        routes = text.lines().map(|l| route_of(l).to_owned()).collect();
    }
    let compiling = routes.len() - 1;
    assert!(
        routes[..compiling]
            .iter()
            .all(|r| r == "cpu reason=compiling"),
        "{routes:?}"
    );
    if parallel {
        assert!(compiling >= 2, "{routes:?}");
    } else {
        assert_eq!(compiling, 0, "{routes:?}");
    }

    // sgemm of 2·1712³ flops, past what `auto` sends to the CPU BLAS meanwhile: it waits for
    // its (new: C in groups of 4) kernel. B = I, so C = A exactly.
    let n = 1712;
    let a = fill(n * n, 6);
    let mut b = vec![0.0f32; n * n];
    for i in 0..n {
        b[i * n + i] = 1.0;
    }
    let mut c = vec![f32::NAN; n * n];
    fault::fail_next(Fault::Compiling, 1);
    unsafe { cblas_sgemm_packed(n, n, n, 1.0, a.as_ptr(), b.as_ptr(), 0.0, c.as_mut_ptr()) };
    fault::clear();
    assert!(c == a, "C is not A");
    let text = std::fs::read_to_string(&trace).expect("trace file");
    let _ = std::fs::remove_file(&trace);
    let last = text.lines().last().expect("a trace line");
    assert_eq!(route_of(last), "gl reason=large", "{text}");

    // saxpy through the glblas API, a new program: the API has no other BLAS to answer, and
    // waits for the compile (declined, it would return NOT_SUPPORTED).
    let len = 300;
    let x = fill(len, 4);
    let y0 = fill(len, 5);
    let mut want = y0.clone();
    saxpy_ref(len, 2.0, &x, 1, &mut want, 1);
    fault::fail_next(Fault::Compiling, 1);
    let mut y = y0.clone();
    let s = unsafe { glblasSaxpy(len as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
    fault::clear();
    assert_eq!(s, Status::Success);
    assert_saxpy(&y, &want, &saxpy_terms(2.0, &x, &y0));
}
