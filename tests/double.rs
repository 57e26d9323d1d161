//! Double precision through the glblas API: dgemm in every transpose and placement against a
//! reference more precise than double, the reference BLAS's special values, and
//! NOT_SUPPORTED (outputs untouched) where the device cannot compute in double: without the
//! compute pipeline (GLES, GL 3.3, virgl, GLBLAS_PIPELINE=fragment) or fp64 shaders.

mod common;

use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg;
use glblas::status::Status;

const N: OperationArg = OperationArg(0);
const T: OperationArg = OperationArg(1);
const C: OperationArg = OperationArg(2);
/// Unit roundoff of fp64, 2^-53.
const EPS64: f64 = f64::EPSILON / 2.0;

/// Whether this device computes in double: the compute pipeline with fp64 shaders.
fn doubles_here() -> bool {
    let info = glblas::engine::device_info().expect("a GL device");
    glblas::kernels::pipeline() == Some("compute") && info.fp64
}

/// Values with all 53 bits of mantissa in use, in [-1, 1): a computation in single precision
/// misses the tolerances below by a factor of about 2^29.
fn fill64(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    (0..n)
        .map(|_| {
            (rng.below(1 << 30) as f64 * (1u64 << 23) as f64 + rng.below(1 << 23) as f64)
                / (1u64 << 52) as f64
                - 1.0
        })
        .collect()
}

/// s + e = a + b exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let z = s - a;
    (s, (a - (s - z)) + (b - z))
}

/// The sum of `terms`' products, accurate as if computed in twice double precision (Ogita,
/// Rump and Oishi's Dot2: the error of each product and sum is carried along), and the sum
/// of their magnitudes.
fn dot2(terms: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    let (mut s, mut c, mut mag) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in terms {
        let p = x * y;
        let pe = x.mul_add(y, -p);
        let (t, se) = two_sum(s, p);
        s = t;
        c += pe + se;
        mag += p.abs();
    }
    (s + c, mag)
}

/// C := alpha*op(A)*op(B) + beta*C to about 2^-100 relative to the error scale, with the
/// error scale |alpha|*|op(A)||op(B)| + |beta*C| per element; C is not read when beta == 0.
#[allow(clippy::too_many_arguments)]
fn dgemm_ref(
    (ta, tb): (bool, bool),
    (m, n, k): (usize, usize, usize),
    alpha: f64,
    (a, lda): (&[f64], usize),
    (b, ldb): (&[f64], usize),
    beta: f64,
    (c, ldc): (&[f64], usize),
) -> (Vec<f64>, Vec<f64>) {
    let (mut out, mut scale) = (vec![0.0; m * n], vec![0.0; m * n]);
    for j in 0..n {
        for i in 0..m {
            let av = |l: usize| if ta { a[l + i * lda] } else { a[i + l * lda] };
            let bv = |l: usize| if tb { b[j + l * ldb] } else { b[l + j * ldb] };
            let (s, mag) = dot2((0..k).map(|l| (av(l), bv(l))));
            let cv = if beta == 0.0 { 0.0 } else { c[i + j * ldc] };
            let (v, _) = dot2([(alpha, s), (beta, cv)].into_iter());
            out[i + j * m] = v;
            scale[i + j * m] = alpha.abs() * mag + (beta * cv).abs();
        }
    }
    (out, scale)
}

/// Each element of C within (k+2)*u of its error scale (u = 2^-53): fp64 accumulation of k
/// products plus the alpha and beta roundings (gamma_k |A||B|), the reference's own error
/// being far below that.
fn assert_dgemm(
    got: &[f64],
    ldc: usize,
    (m, n, k): (usize, usize, usize),
    want: &(Vec<f64>, Vec<f64>),
) {
    for j in 0..n {
        for i in 0..m {
            let g = got[i + j * ldc];
            let w = want.0[i + j * m];
            let tol = (k as f64 + 2.0) * EPS64 * want.1[i + j * m] + f64::MIN_POSITIVE;
            assert!(
                (g - w).abs() <= tol,
                "C({i},{j}) m={m} n={n} k={k}: got {g}, want {w}, tol {tol:e}"
            );
        }
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn dgemm(
    (ta, tb): (OperationArg, OperationArg),
    (m, n, k): (usize, usize, usize),
    alpha: f64,
    (a, lda): (*const f64, usize),
    (b, ldb): (*const f64, usize),
    beta: f64,
    (c, ldc): (*mut f64, usize),
) -> Status {
    glblasDgemm(
        ta, tb, m as i32, n as i32, k as i32, alpha, a, lda as i32, b, ldb as i32, beta, c,
        ldc as i32,
    )
}

#[test]
fn dgemm_every_transpose_and_placement() {
    if !doubles_here() {
        return not_supported_leaves_c_untouched();
    }
    let ops = [N, T, C];
    // Sizes that do not fill a 4-element group or a block, a single row or column, and one
    // deeper than a block.
    for (m, n, k) in [
        (1usize, 1usize, 1usize),
        (7, 5, 3),
        (17, 13, 11),
        (33, 1, 64),
        (1, 40, 9),
    ] {
        for ta in ops {
            for tb in ops {
                let (tra, trb) = (ta.0 != 0, tb.0 != 0);
                let (ar, ac) = if tra { (k, m) } else { (m, k) };
                let (br, bc) = if trb { (n, k) } else { (k, n) };
                let (lda, ldb, ldc) = (ar + 2, br + 1, m + 3);
                let a = fill64(lda * ac, 11);
                let b = fill64(ldb * bc, 12);
                let c0 = fill64(ldc * n, 13);
                let want = dgemm_ref(
                    (tra, trb),
                    (m, n, k),
                    -1.25,
                    (&a, lda),
                    (&b, ldb),
                    0.5,
                    (&c0, ldc),
                );
                for placement in 0..3 {
                    let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
                    let mut ch = c0.clone();
                    let (ap, bp, cp) = match placement {
                        0 => (a.as_ptr(), b.as_ptr(), ch.as_mut_ptr()),
                        1 => (ad.d().cast_const(), b.as_ptr(), cd.d()),
                        _ => (ad.d().cast_const(), bd.d().cast_const(), ch.as_mut_ptr()),
                    };
                    let s = unsafe {
                        dgemm(
                            (ta, tb),
                            (m, n, k),
                            -1.25,
                            (ap, lda),
                            (bp, ldb),
                            0.5,
                            (cp, ldc),
                        )
                    };
                    assert_eq!(s, Status::Success);
                    let got = if placement == 1 {
                        cd.get_as::<f64>(c0.len())
                    } else {
                        ch
                    };
                    assert_dgemm(&got, ldc, (m, n, k), &want);
                    for j in 0..n {
                        assert_eq!(
                            &got[j * ldc + m..j * ldc + ldc],
                            &c0[j * ldc + m..j * ldc + ldc],
                            "padding rows written"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn dgemm_interior_device_pointers_and_a_large_product() {
    if !doubles_here() {
        return not_supported_leaves_c_untouched();
    }
    // Operands one element into their allocations (8-byte aligned, not 16), and a product
    // over several blocks in each dimension.
    let (m, n, k) = (130, 67, 200);
    let a = fill64(1 + m * k, 21);
    let b = fill64(1 + k * n, 22);
    let c0 = fill64(1 + m * n, 23);
    let want = dgemm_ref(
        (false, false),
        (m, n, k),
        0.75,
        (&a[1..], m),
        (&b[1..], k),
        -2.0,
        (&c0[1..], m),
    );
    let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
    let s = unsafe {
        dgemm(
            (N, N),
            (m, n, k),
            0.75,
            (ad.d().add(1), m),
            (bd.d().add(1), k),
            -2.0,
            (cd.d().add(1), m),
        )
    };
    assert_eq!(s, Status::Success);
    let got = cd.get_as::<f64>(c0.len());
    assert_eq!(got[0], c0[0], "the element before C written");
    assert_dgemm(&got[1..], m, (m, n, k), &want);
    // A device pointer inside a double is refused.
    let s = unsafe {
        dgemm(
            (N, N),
            (m, n, k),
            0.75,
            (ad.f().add(1).cast::<f64>(), m),
            (bd.d(), k),
            0.0,
            (cd.d(), m),
        )
    };
    assert_eq!(s, Status::InvalidValue);
}

#[test]
fn dgemm_beta_zero_overwrites_nan_and_alpha_zero_skips_a_and_b() {
    if !doubles_here() {
        return not_supported_leaves_c_untouched();
    }
    let (m, n, k) = (9, 6, 4);
    let a = fill64(m * k, 14);
    let b = fill64(k * n, 15);
    let mut c = vec![f64::NAN; m * n];
    let s = unsafe {
        dgemm(
            (N, N),
            (m, n, k),
            1.0,
            (a.as_ptr(), m),
            (b.as_ptr(), k),
            0.0,
            (c.as_mut_ptr(), m),
        )
    };
    assert_eq!(s, Status::Success);
    let want = dgemm_ref(
        (false, false),
        (m, n, k),
        1.0,
        (&a, m),
        (&b, k),
        0.0,
        (&c, m),
    );
    assert_dgemm(&c, m, (m, n, k), &want);
    // alpha == 0: C := beta*C, A and B unread (NaN there changes nothing), an infinite alpha
    // not applied.
    let nan = vec![f64::NAN; m * k];
    let c0 = fill64(m * n, 16);
    let mut c = c0.clone();
    let s = unsafe {
        dgemm(
            (N, N),
            (m, n, k),
            0.0,
            (nan.as_ptr(), m),
            (nan.as_ptr(), k),
            0.5,
            (c.as_mut_ptr(), m),
        )
    };
    assert_eq!(s, Status::Success);
    let scaled: Vec<f64> = c0.iter().map(|v| 0.5 * v).collect();
    assert_eq!(c, scaled, "alpha = 0: C := beta*C exactly");
}

/// Where the device cannot compute in double, every dgemm (even an empty one) is
/// NOT_SUPPORTED and C is left as it was.
fn not_supported_leaves_c_untouched() {
    let (m, n, k) = (5, 4, 3);
    let a = fill64(m * k, 31);
    let b = fill64(k * n, 32);
    let c0 = fill64(m * n, 33);
    for (mm, nn) in [(m, n), (0, n)] {
        let mut c = c0.clone();
        let s = unsafe {
            dgemm(
                (N, N),
                (mm, nn, k),
                1.0,
                (a.as_ptr(), m),
                (b.as_ptr(), k),
                1.0,
                (c.as_mut_ptr(), m),
            )
        };
        assert_eq!(s, Status::NotSupported, "m={mm}");
        assert_eq!(c, c0);
    }
}
