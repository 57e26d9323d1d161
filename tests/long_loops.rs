//! Inner dimensions longer than one shader loop may run (`MAX_LOOP_ITERATIONS`; llvmpipe ends
//! any loop after 65535 iterations without an error): sgemm's k and sgemv's inner dimension
//! (both the plain and the transposed case) around that length and a few times it, where the
//! kernels cut it into chunks (beta applying to the first, later ones adding into the output
//! so far), on host and device operands. The data are ±1 and C's
//! and y's initial values ±2, so every result is an integer far below 2^24, exact in fp32 in any
//! summation order, and must equal the double-precision reference exactly.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg as Op;
use glblas::kernels::MAX_LOOP_ITERATIONS;
use glblas::status::Status;

const LOOP: usize = MAX_LOOP_ITERATIONS as usize;

/// Initial values of an output: ±2.
fn twos(n: usize, seed: u64) -> Vec<f32> {
    signs(n, seed).iter().map(|s| 2.0 * s).collect()
}

/// `got` equals the exact reference `want`, element for element.
fn assert_exact(got: &[f32], want: &[f64], what: &str) {
    let bad = got.iter().zip(want).position(|(g, w)| *g as f64 != *w);
    assert!(
        bad.is_none(),
        "{what}: first wrong element {bad:?} of {}",
        want.len()
    );
}

#[test]
fn sgemm_with_long_k() {
    let (m, n) = (8, 5);
    for (ta, k) in [
        (false, LOOP),
        (false, LOOP + 1),
        (true, 2 * LOOP + 2),
        (false, 3 * LOOP + 7),
    ] {
        let a = signs(m * k, 1);
        let b = signs(k * n, 2);
        let c0 = twos(m * n, 3);
        let mut c = c0.clone();
        let s = unsafe {
            sgemm_packed(
                (ta, false),
                m,
                n,
                k,
                1.0,
                a.as_ptr(),
                b.as_ptr(),
                -1.0,
                c.as_mut_ptr(),
            )
        };
        let lda = if ta { k } else { m };
        assert_eq!(s, Status::Success);
        let (want, _) = sgemm_ref(ta, false, m, n, k, 1.0, &a, lda, &b, k, -1.0, &c0, m);
        assert_exact(&c, &want, &format!("sgemm ta={ta} k={k}"));
    }
}

/// Device operands, C written in place: with beta = 0 C's NaNs must not be read by the first
/// chunk, while later chunks read back what the first wrote there. At 16×16, op(A) = A and
/// op(B) = B^T are read in place (gemm_compute's `Source`), each chunk from its own columns.
#[test]
fn sgemm_with_long_k_on_device_operands() {
    let k = 2 * LOOP + 3;
    for (m, n, ta, tb) in [
        (13, 6, false, false),
        (13, 6, true, true),
        (16, 16, false, false),
        (16, 16, false, true),
    ] {
        let a = signs(m * k, 7);
        let b = signs(k * n, 8);
        let (da, db) = (Dev::new(&a), Dev::new(&b));
        let dc = Dev::new(&vec![f32::NAN; m * n]);
        let s = unsafe { sgemm_packed((ta, tb), m, n, k, 1.0, da.f(), db.f(), 0.0, dc.f()) };
        assert_eq!(s, Status::Success);
        let (lda, ldb) = (if ta { k } else { m }, if tb { n } else { k });
        let zeros = vec![0.0; m * n];
        let (want, _) = sgemm_ref(ta, tb, m, n, k, 1.0, &a, lda, &b, ldb, 0.0, &zeros, m);
        assert_exact(
            &dc.get(m * n),
            &want,
            &format!("device sgemm ta={ta} tb={tb}"),
        );
    }
}

#[test]
fn sgemv_with_a_long_inner_dimension() {
    for (trans, m, n) in [
        (false, 9, LOOP),
        (false, 9, LOOP + 1),
        (false, 9, 3 * LOOP + 7),
        (true, LOOP + 1, 6),
        (true, 4 * LOOP + 8, 6),
    ] {
        let a = signs(m * n, 4);
        let (lenx, leny) = if trans { (m, n) } else { (n, m) };
        let x = signs(lenx, 5);
        let y0 = twos(leny, 6);
        let mut y = y0.clone();
        let s = unsafe {
            glblasSgemv(
                Op(i32::from(trans)),
                m as i32,
                n as i32,
                1.0,
                a.as_ptr(),
                m as i32,
                x.as_ptr(),
                1,
                -1.0,
                y.as_mut_ptr(),
                1,
            )
        };
        assert_eq!(s, Status::Success);
        let (want, _) = sgemv_ref(trans, m, n, 1.0, &a, m, &x, 1, -1.0, &y0, 1);
        assert_exact(&y, &want, &format!("sgemv trans={trans} {m}x{n}"));
    }
}
