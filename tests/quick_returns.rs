//! The reference BLAS's quick returns (issue 32): every routine's no-op cases, in single and
//! double precision, through the Fortran, CBLAS (both layouts) and ILP64 names and the glblas
//! API, with every operand the reference leaves alone in memory mapped PROT_NONE, so that a
//! call touching one dies. Each `GLBLAS_BACKEND` setting (auto, gl, cpu) runs in a child
//! process of its own (this test again, with `QUICK_RETURNS_BACKEND` set), so a crash names its
//! backend. The trace must show every BLAS-name call as `route=none reason=quick-return`:
//! nothing routed, so nothing forwarded to the CPU BLAS either.

mod common;

use std::ffi::{c_char, c_int, c_void};

use common::{doubles_here, run_in_child, take_trace};
use glblas::api::*;
use glblas::blas::{abi::CblasIndex, cblas::*, fortran::*};
use glblas::ffi::{DiagArg, FillArg, OperationArg, SideArg};
use glblas::status::Status;

const CHILD: &str = "QUICK_RETURNS_BACKEND";
const TEST: &str = "quick_returns_touch_no_operand_under_every_backend";

#[test]
fn quick_returns_touch_no_operand_under_every_backend() {
    if let Ok(backend) = std::env::var(CHILD) {
        return child(&backend);
    }
    let mut failed = String::new();
    for backend in ["auto", "gl", "cpu"] {
        let env = [(CHILD, backend), ("GLBLAS_BACKEND", backend)];
        if let Err(e) = run_in_child(TEST, &env) {
            // SIGSEGV (signal 11): an operand was touched.
            failed += &format!("GLBLAS_BACKEND={backend}: {e}\n");
        }
    }
    assert!(failed.is_empty(), "{failed}");
}

/// Memory no access is allowed to: a call that reads or writes it gets SIGSEGV.
struct NoAccess(*mut c_void);

const NO_ACCESS_BYTES: usize = 1 << 20;

impl NoAccess {
    fn new() -> NoAccess {
        // SAFETY: a fresh anonymous mapping, used only through its address.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                NO_ACCESS_BYTES,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        NoAccess(p)
    }
}

impl Drop for NoAccess {
    fn drop(&mut self) {
        // SAFETY: our own mapping.
        unsafe { libc::munmap(self.0, NO_ACCESS_BYTES) };
    }
}

fn child(backend: &str) {
    let trace = common::trace_to_file(&format!("quick-{backend}"));
    let none = NoAccess::new();
    let doubles = doubles_here();
    let mut calls = 0;
    // SAFETY: the calls are the reference's quick returns, which touch none of their operands.
    // Where the device cannot compute in double the API answers NOT_SUPPORTED, still
    // touching nothing.
    unsafe {
        calls += single_cases(none.0.cast(), true);
        calls += double_cases(none.0.cast(), doubles);
    }
    let (lines, text) = take_trace(&trace);
    assert_eq!(
        lines.len(),
        calls,
        "one trace line per BLAS-name call:\n{text}"
    );
    for l in &lines {
        assert_eq!(
            common::route_of(l),
            "none reason=quick-return",
            "GLBLAS_BACKEND={backend}: {l}"
        );
    }
}

fn ch(c: u8) -> c_char {
    c as c_char
}

const COL: c_int = 102;
const ROW: c_int = 101;
const NO_TRANS: c_int = 111;
const TRANS: c_int = 112;

/// (m, n, k, alpha, beta) of gemm calls the reference returns from at once, with lda, ldb, ldc
/// valid for the column-major NN call: empty C, k = 0 or alpha = 0 with beta = 1 (alpha = -0
/// is zero too).
const GEMM: [(i32, i32, i32, f64, f64); 5] = [
    (0, 8, 8, 1.0, 0.0),
    (8, 0, 8, 1.0, 0.0),
    (8, 8, 0, 2.0, 1.0),
    (8, 8, 8, 0.0, 1.0),
    (64, 64, 8, -0.0, 1.0),
];
/// (m, n, alpha, beta) of gemv and symm: empty output, or alpha = 0 with beta = 1.
const GEMV: [(i32, i32, f64, f64); 3] = [(0, 8, 1.0, 0.0), (8, 0, 1.0, 0.0), (8, 8, 0.0, 1.0)];
/// (n, k, alpha, beta) of syrk and syr2k: empty C, k = 0 or alpha = 0 with beta = 1.
const SYRK: [(i32, i32, f64, f64); 3] = [(0, 8, 1.0, 0.0), (8, 0, 2.0, 1.0), (8, 8, 0.0, 1.0)];
/// (m, n) of trmm and trsm: an empty B (alpha = 0 too).
const TRI: [(i32, i32); 2] = [(0, 8), (8, 0)];
/// (n, incx) of asum (and of scal with alpha 2): no elements, non-positive increment.
const ONE_VECTOR: [(i32, i32); 4] = [(0, 1), (-1, 1), (5, 0), (5, -1)];

/// Every routine's quick returns in precision `$t` through all four interfaces, the
/// untouched operands at `p` (no access); the number of BLAS-name calls made.
macro_rules! precision {
    ($name:ident, $t:ty, [$axpy_:ident, $dot_:ident, $scal_:ident, $copy_:ident,
      $swap_:ident, $asum_:ident, $nrm2_:ident, $iamax_:ident, $gemv_:ident, $gemm_:ident,
      $symm_:ident, $syrk_:ident, $syr2k_:ident, $trmm_:ident, $trsm_:ident],
     [$cblas_axpy:ident, $cblas_dot:ident, $cblas_scal:ident, $cblas_copy:ident,
      $cblas_swap:ident, $cblas_asum:ident, $cblas_nrm2:ident, $cblas_iamax:ident,
      $cblas_gemv:ident, $cblas_gemm:ident, $cblas_symm:ident, $cblas_syrk:ident,
      $cblas_syr2k:ident, $cblas_trmm:ident, $cblas_trsm:ident],
     [$i_axpy:ident, $i_dot:ident, $i_scal:ident, $i_copy:ident, $i_swap:ident,
      $i_asum:ident, $i_nrm2:ident, $i_iamax:ident, $i_gemv:ident, $i_gemm:ident,
      $i_symm:ident, $i_syrk:ident, $i_syr2k:ident, $i_trmm:ident, $i_trsm:ident],
     [$g_axpy:ident, $g_dot:ident, $g_scal:ident, $g_copy:ident, $g_swap:ident,
      $g_asum:ident, $g_nrm2:ident, $g_iamax:ident, $g_gemv:ident, $g_gemm:ident,
      $g_symm:ident, $g_syrk:ident, $g_syr2k:ident, $g_trmm:ident, $g_trsm:ident]) => {
        /// # Safety
        /// `p` is the start of a [`NoAccess`] mapping.
        unsafe fn $name(p: *mut $t, supported: bool) -> usize {
            let q = p.cast_const();
            let mut calls = 0;
            let api = |what: &str, s: Status| {
                let want = if supported {
                    Status::Success
                } else {
                    Status::NotSupported
                };
                assert_eq!(s, want, "{what}");
            };
            let zero: $t = 0.0;
            // Level 1: no elements; axpy with alpha = 0; scal with incx <= 0 or alpha = 1.
            for n in [0, -1] {
                let n64 = i64::from(n);
                $axpy_(&n, &2.0, q, &1, p, &1);
                $cblas_axpy(n, 2.0, q, 1, p, 1);
                $i_axpy(n64, 2.0, q, 1, p, 1);
                api("axpy", $g_axpy(n, 2.0, q, 1, p, 1));
                assert_eq!($dot_(&n, q, &1, q, &1), zero);
                assert_eq!($cblas_dot(n, q, 1, q, 1), zero);
                assert_eq!($i_dot(n64, q, 1, q, 1), zero);
                let mut r: $t = 7.0;
                api("dot", $g_dot(n, q, 1, q, 1, &mut r));
                assert!(r == zero || !supported, "dot n={n}: {r}");
                $copy_(&n, q, &1, p, &1);
                $cblas_copy(n, q, 1, p, 1);
                $i_copy(n64, q, 1, p, 1);
                api("copy", $g_copy(n, q, 1, p, 1));
                $swap_(&n, p, &1, p, &1);
                $cblas_swap(n, p, 1, p, 1);
                $i_swap(n64, p, 1, p, 1);
                api("swap", $g_swap(n, p, 1, p, 1));
                assert_eq!($nrm2_(&n, q, &1), zero);
                assert_eq!($cblas_nrm2(n, q, 1), zero);
                assert_eq!($i_nrm2(n64, q, 1), zero);
                let mut r: $t = 7.0;
                api("nrm2", $g_nrm2(n, q, 1, &mut r));
                assert!(r == zero || !supported, "nrm2 n={n}: {r}");
                calls += 15;
            }
            for alpha in [0.0, -0.0] {
                $axpy_(&5, &alpha, q, &1, p, &1);
                $cblas_axpy(5, alpha, q, 1, p, 1);
                $i_axpy(5, alpha, q, 1, p, 1);
                api("axpy alpha = 0", $g_axpy(5, alpha, q, 1, p, 1));
                calls += 3;
            }
            for (n, inc, alpha) in [
                (0, 1, 2.0),
                (-1, 1, 2.0),
                (5, 0, 2.0),
                (5, -1, 2.0),
                (5, 1, 1.0),
            ] {
                $scal_(&n, &alpha, p, &inc);
                $cblas_scal(n, alpha, p, inc);
                $i_scal(n.into(), alpha, p, inc.into());
                api("scal", $g_scal(n, alpha, p, inc));
                calls += 3;
            }
            for (n, inc) in ONE_VECTOR {
                assert_eq!($asum_(&n, q, &inc), zero);
                assert_eq!($cblas_asum(n, q, inc), zero);
                assert_eq!($i_asum(n.into(), q, inc.into()), zero);
                let mut r: $t = 7.0;
                api("asum", $g_asum(n, q, inc, &mut r));
                assert!(r == zero || !supported, "asum n={n} incx={inc}: {r}");
                calls += 3;
            }
            // i?amax: 0 for none, the first (1-based; CBLAS 0) for one element, unread.
            for (n, inc, index) in [(0, 1, 0), (5, 0, 0), (5, -1, 0), (1, 1, 1), (1, 3, 1)] {
                let cblas = CblasIndex((index as usize).saturating_sub(1));
                assert_eq!($iamax_(&n, q, &inc), index, "n={n} incx={inc}");
                assert_eq!($cblas_iamax(n, q, inc), cblas, "n={n} incx={inc}");
                assert_eq!($i_iamax(n.into(), q, inc.into()), cblas, "n={n} incx={inc}");
                let mut r: c_int = 7;
                api("iamax", $g_iamax(n, q, inc, &mut r));
                assert!(r == index || !supported, "iamax n={n} incx={inc}: {r}");
                calls += 3;
            }
            for (m, n, alpha, beta) in GEMV {
                let (alpha, beta) = (alpha as $t, beta as $t);
                let lda = m.max(1);
                for (t, op) in [(b'N', NO_TRANS), (b'T', TRANS)] {
                    $gemv_(&ch(t), &m, &n, &alpha, q, &lda, q, &1, &beta, p, &1, 1);
                    $cblas_gemv(COL, op, m, n, alpha, q, lda, q, 1, beta, p, 1);
                    $cblas_gemv(ROW, op, n, m, alpha, q, lda, q, 1, beta, p, 1);
                    $i_gemv(
                        COL,
                        op,
                        m.into(),
                        n.into(),
                        alpha,
                        q,
                        lda.into(),
                        q,
                        1,
                        beta,
                        p,
                        1,
                    );
                    let trans = OperationArg(i32::from(t == b'T'));
                    api(
                        "gemv",
                        $g_gemv(trans, m, n, alpha, q, lda, q, 1, beta, p, 1),
                    );
                    calls += 4;
                }
            }
            for (m, n, k, alpha, beta) in GEMM {
                let (alpha, beta) = (alpha as $t, beta as $t);
                let (lda, ldb) = (m.max(1), k.max(1));
                let (m64, n64, k64) = (m.into(), n.into(), k.into());
                let n_ = ch(b'N');
                $gemm_(
                    &n_, &n_, &m, &n, &k, &alpha, q, &lda, q, &ldb, &beta, p, &lda, 1, 1,
                );
                $cblas_gemm(
                    COL, NO_TRANS, NO_TRANS, m, n, k, alpha, q, lda, q, ldb, beta, p, lda,
                );
                // Row-major: C is m×n with ldc >= n, A m×k with lda >= k, B k×n with ldb >= n.
                let (rlda, rldb) = (k.max(1), n.max(1));
                $cblas_gemm(
                    ROW, NO_TRANS, NO_TRANS, m, n, k, alpha, q, rlda, q, rldb, beta, p, rldb,
                );
                $i_gemm(
                    COL,
                    NO_TRANS,
                    NO_TRANS,
                    m64,
                    n64,
                    k64,
                    alpha,
                    q,
                    lda.into(),
                    q,
                    ldb.into(),
                    beta,
                    p,
                    lda.into(),
                );
                let nn = OperationArg(0);
                api(
                    "gemm",
                    $g_gemm(nn, nn, m, n, k, alpha, q, lda, q, ldb, beta, p, lda),
                );
                calls += 4;
            }
            for (m, n, alpha, beta) in GEMV {
                let (alpha, beta) = (alpha as $t, beta as $t);
                // A on the left (m×m), B and C m×n.
                let ld = m.max(1);
                let (l, u) = (ch(b'L'), ch(b'U'));
                $symm_(&l, &u, &m, &n, &alpha, q, &ld, q, &ld, &beta, p, &ld, 1, 1);
                $cblas_symm(COL, 141, 121, m, n, alpha, q, ld, q, ld, beta, p, ld);
                let rld = n.max(1);
                $cblas_symm(ROW, 142, 121, m, n, alpha, q, rld, q, rld, beta, p, rld);
                $i_symm(
                    COL,
                    141,
                    121,
                    m.into(),
                    n.into(),
                    alpha,
                    q,
                    ld.into(),
                    q,
                    ld.into(),
                    beta,
                    p,
                    ld.into(),
                );
                let s = $g_symm(
                    SideArg(0),
                    FillArg(0),
                    m,
                    n,
                    alpha,
                    q,
                    ld,
                    q,
                    ld,
                    beta,
                    p,
                    ld,
                );
                api("symm", s);
                calls += 4;
            }
            for (n, k, alpha, beta) in SYRK {
                let (alpha, beta) = (alpha as $t, beta as $t);
                let (lda, ldc) = (n.max(1), n.max(1));
                let (u, n_) = (ch(b'U'), ch(b'N'));
                $syrk_(&u, &n_, &n, &k, &alpha, q, &lda, &beta, p, &ldc, 1, 1);
                $syr2k_(
                    &u, &n_, &n, &k, &alpha, q, &lda, q, &lda, &beta, p, &ldc, 1, 1,
                );
                $cblas_syrk(COL, 121, NO_TRANS, n, k, alpha, q, lda, beta, p, ldc);
                $cblas_syr2k(
                    COL, 121, NO_TRANS, n, k, alpha, q, lda, q, lda, beta, p, ldc,
                );
                // Row-major, no transpose: A is n×k with lda >= k.
                let rlda = k.max(1);
                $cblas_syrk(ROW, 122, NO_TRANS, n, k, alpha, q, rlda, beta, p, ldc);
                $cblas_syr2k(
                    ROW, 122, NO_TRANS, n, k, alpha, q, rlda, q, rlda, beta, p, ldc,
                );
                let (n64, k64, lda64, ldc64) = (n.into(), k.into(), lda.into(), ldc.into());
                $i_syrk(
                    COL, 121, NO_TRANS, n64, k64, alpha, q, lda64, beta, p, ldc64,
                );
                $i_syr2k(
                    COL, 121, NO_TRANS, n64, k64, alpha, q, lda64, q, lda64, beta, p, ldc64,
                );
                let (up, nt) = (FillArg(0), OperationArg(0));
                api("syrk", $g_syrk(up, nt, n, k, alpha, q, lda, beta, p, ldc));
                api(
                    "syr2k",
                    $g_syr2k(up, nt, n, k, alpha, q, lda, q, lda, beta, p, ldc),
                );
                calls += 8;
            }
            for (m, n) in TRI {
                for alpha in [1.0, 0.0] {
                    let ld = m.max(1);
                    let (l, u, n_) = (ch(b'L'), ch(b'U'), ch(b'N'));
                    $trmm_(&l, &u, &n_, &n_, &m, &n, &alpha, q, &ld, p, &ld, 1, 1, 1, 1);
                    $trsm_(&l, &u, &n_, &n_, &m, &n, &alpha, q, &ld, p, &ld, 1, 1, 1, 1);
                    let how = (141, 121, NO_TRANS, 131);
                    $cblas_trmm(COL, how.0, how.1, how.2, how.3, m, n, alpha, q, ld, p, ld);
                    $cblas_trsm(COL, how.0, how.1, how.2, how.3, m, n, alpha, q, ld, p, ld);
                    let rld = n.max(1);
                    $cblas_trmm(ROW, 142, how.1, how.2, how.3, m, n, alpha, q, rld, p, rld);
                    $cblas_trsm(ROW, 142, how.1, how.2, how.3, m, n, alpha, q, rld, p, rld);
                    let (m64, n64, ld64) = (m.into(), n.into(), ld.into());
                    $i_trmm(
                        COL, how.0, how.1, how.2, how.3, m64, n64, alpha, q, ld64, p, ld64,
                    );
                    $i_trsm(
                        COL, how.0, how.1, how.2, how.3, m64, n64, alpha, q, ld64, p, ld64,
                    );
                    let g = (SideArg(0), FillArg(0), OperationArg(0), DiagArg(0));
                    api(
                        "trmm",
                        $g_trmm(g.0, g.1, g.2, g.3, m, n, alpha, q, ld, p, ld),
                    );
                    api(
                        "trsm",
                        $g_trsm(g.0, g.1, g.2, g.3, m, n, alpha, q, ld, p, ld),
                    );
                    calls += 8;
                }
            }
            calls
        }
    };
}

precision!(
    single_cases,
    f32,
    [
        saxpy_, sdot_, sscal_, scopy_, sswap_, sasum_, snrm2_, isamax_, sgemv_, sgemm_, ssymm_,
        ssyrk_, ssyr2k_, strmm_, strsm_
    ],
    [
        cblas_saxpy,
        cblas_sdot,
        cblas_sscal,
        cblas_scopy,
        cblas_sswap,
        cblas_sasum,
        cblas_snrm2,
        cblas_isamax,
        cblas_sgemv,
        cblas_sgemm,
        cblas_ssymm,
        cblas_ssyrk,
        cblas_ssyr2k,
        cblas_strmm,
        cblas_strsm
    ],
    [
        scipy_cblas_saxpy64_,
        scipy_cblas_sdot64_,
        scipy_cblas_sscal64_,
        scipy_cblas_scopy64_,
        scipy_cblas_sswap64_,
        scipy_cblas_sasum64_,
        scipy_cblas_snrm264_,
        scipy_cblas_isamax64_,
        scipy_cblas_sgemv64_,
        scipy_cblas_sgemm64_,
        scipy_cblas_ssymm64_,
        scipy_cblas_ssyrk64_,
        scipy_cblas_ssyr2k64_,
        scipy_cblas_strmm64_,
        scipy_cblas_strsm64_
    ],
    [
        glblasSaxpy,
        glblasSdot,
        glblasSscal,
        glblasScopy,
        glblasSswap,
        glblasSasum,
        glblasSnrm2,
        glblasIsamax,
        glblasSgemv,
        glblasSgemm,
        glblasSsymm,
        glblasSsyrk,
        glblasSsyr2k,
        glblasStrmm,
        glblasStrsm
    ]
);

precision!(
    double_cases,
    f64,
    [
        daxpy_, ddot_, dscal_, dcopy_, dswap_, dasum_, dnrm2_, idamax_, dgemv_, dgemm_, dsymm_,
        dsyrk_, dsyr2k_, dtrmm_, dtrsm_
    ],
    [
        cblas_daxpy,
        cblas_ddot,
        cblas_dscal,
        cblas_dcopy,
        cblas_dswap,
        cblas_dasum,
        cblas_dnrm2,
        cblas_idamax,
        cblas_dgemv,
        cblas_dgemm,
        cblas_dsymm,
        cblas_dsyrk,
        cblas_dsyr2k,
        cblas_dtrmm,
        cblas_dtrsm
    ],
    [
        scipy_cblas_daxpy64_,
        scipy_cblas_ddot64_,
        scipy_cblas_dscal64_,
        scipy_cblas_dcopy64_,
        scipy_cblas_dswap64_,
        scipy_cblas_dasum64_,
        scipy_cblas_dnrm264_,
        scipy_cblas_idamax64_,
        scipy_cblas_dgemv64_,
        scipy_cblas_dgemm64_,
        scipy_cblas_dsymm64_,
        scipy_cblas_dsyrk64_,
        scipy_cblas_dsyr2k64_,
        scipy_cblas_dtrmm64_,
        scipy_cblas_dtrsm64_
    ],
    [
        glblasDaxpy,
        glblasDdot,
        glblasDscal,
        glblasDcopy,
        glblasDswap,
        glblasDasum,
        glblasDnrm2,
        glblasIdamax,
        glblasDgemv,
        glblasDgemm,
        glblasDsymm,
        glblasDsyrk,
        glblasDsyr2k,
        glblasDtrmm,
        glblasDtrsm
    ]
);
