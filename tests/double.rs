//! Double precision through the glblas API: daxpy, ddot, dscal, dcopy, dswap, dasum and dgemv
//! over every size class, increment and placement of `common::vector_cases`, dgemm in every
//! transpose and placement, all against a reference more precise than double (data with all
//! 53 bits of mantissa in use, so that a computation in single precision fails every bound
//! here), the reference BLAS's special values, and
//! NOT_SUPPORTED (outputs untouched) where the device cannot compute in double: without the
//! compute pipeline (GLES, GL 3.3, virgl, GLBLAS_PIPELINE=fragment) or fp64 shaders.

mod common;

use common::vector_cases::{for_pairs, offsets, place, Operand, INCS, INCS_AND_ZERO, SIZES};
use common::*;
use glblas::api::*;
use glblas::ffi::OperationArg;
use glblas::status::Status;

const N: OperationArg = OperationArg(0);
const T: OperationArg = OperationArg(1);
const C: OperationArg = OperationArg(2);

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

/// Device operands whose stored groups of 4 rows are the kernel's (op(A) = A, op(B) = B^T;
/// whole blocks of rows, ld and start multiples of 4) are read in place (`gemm_compute::Source`),
/// here from 4 elements into their allocations, with NaN in the padding rows, which no
/// product may read.
#[test]
fn dgemm_device_operands_read_in_place() {
    if !doubles_here() {
        return not_supported_leaves_c_untouched();
    }
    let (m, n, k) = (32, 48, 40);
    for (ta, tb) in [(N, N), (N, T), (T, N), (T, T)] {
        let (tra, trb) = (ta.0 != 0, tb.0 != 0);
        let (ar, ac) = if tra { (k, m) } else { (m, k) };
        let (br, bc) = if trb { (n, k) } else { (k, n) };
        let (lda, ldb, ldc) = (ar + 4, br + 4, m + 4);
        let padded = |rows: usize, ld: usize, cols: usize, seed: u64| {
            let v = fill64(4 + ld * cols, seed);
            (0..v.len())
                .map(|q| {
                    if q >= 4 && (q - 4) % ld >= rows {
                        f64::NAN
                    } else {
                        v[q]
                    }
                })
                .collect::<Vec<f64>>()
        };
        let (a, b) = (padded(ar, lda, ac, 31), padded(br, ldb, bc, 32));
        let c0 = fill64(4 + ldc * n, 33);
        let want = dgemm_ref(
            (tra, trb),
            (m, n, k),
            1.5,
            (&a[4..], lda),
            (&b[4..], ldb),
            -0.5,
            (&c0[4..], ldc),
        );
        let (ad, bd, cd) = (Dev::new(&a), Dev::new(&b), Dev::new(&c0));
        let s = unsafe {
            dgemm(
                (ta, tb),
                (m, n, k),
                1.5,
                (ad.d().add(4).cast_const(), lda),
                (bd.d().add(4).cast_const(), ldb),
                -0.5,
                (cd.d().add(4), ldc),
            )
        };
        assert_eq!(s, Status::Success);
        let got = cd.get_as::<f64>(c0.len());
        assert_dgemm(&got[4..], ldc, (m, n, k), &want);
    }
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

/// The exact value of `terms`' sum of products, to about 2^-100 relative to its magnitudes.
fn exact(terms: impl Iterator<Item = (f64, f64)>) -> f64 {
    dot2(terms).0
}

#[test]
fn daxpy_dcopy_dswap_every_size_increment_and_placement() {
    if !doubles_here() {
        return level1_not_supported();
    }
    let alpha = -0.8125f64;
    for_pairs::<f64>(&INCS_AND_ZERO, &INCS_AND_ZERO, |what, x, y| {
        let (xv, yv) = (x.values(), y.values());
        let s = unsafe { glblasDaxpy(x.n as i32, alpha, x.ptr(), x.inc, y.ptr(), y.inc) };
        assert_eq!(s, Status::Success, "daxpy {what}");
        let n = x.n;
        let (want, tol): (Vec<f64>, Vec<f64>) = if y.inc == 0 {
            // Every term lands in y[0]: y[0] + alpha*sum(x), a sum of n terms and 2 roundings.
            let terms = || xv.iter().map(|&v| (alpha, v)).chain([(1.0, yv[0])]);
            let scale: f64 = terms().map(|(a, b)| (a * b).abs()).sum();
            let w = exact(terms());
            (vec![w; n], vec![(n as f64 + 2.0) * EPS64 * scale; n])
        } else {
            xv.iter()
                .zip(&yv)
                .map(|(&a, &b)| {
                    let w = exact([(alpha, a), (1.0, b)].into_iter());
                    (w, 2.0 * EPS64 * ((alpha * a).abs() + b.abs()))
                })
                .unzip()
        };
        y.check(&format!("daxpy {what}"), &want, &tol);
        x.unchanged(&format!("daxpy x {what}"));
    });
    for_pairs::<f64>(&INCS_AND_ZERO, &INCS, |what, x, y| {
        let xv = x.values();
        let s = unsafe { glblasDcopy(x.n as i32, x.ptr(), x.inc, y.ptr(), y.inc) };
        assert_eq!(s, Status::Success, "dcopy {what}");
        y.check(&format!("dcopy {what}"), &xv, &vec![0.0; x.n]);
        x.unchanged(&format!("dcopy x {what}"));
    });
    for_pairs::<f64>(&INCS, &INCS, |what, x, y| {
        let (xv, yv) = (x.values(), y.values());
        let s = unsafe { glblasDswap(x.n as i32, x.ptr(), x.inc, y.ptr(), y.inc) };
        assert_eq!(s, Status::Success, "dswap {what}");
        y.check(&format!("dswap y {what}"), &xv, &vec![0.0; x.n]);
        x.check(&format!("dswap x {what}"), &yv, &vec![0.0; x.n]);
    });
}

#[test]
fn ddot_dasum_dscal_every_size_increment_and_placement() {
    if !doubles_here() {
        return level1_not_supported();
    }
    for_pairs::<f64>(&INCS_AND_ZERO, &INCS_AND_ZERO, |what, x, y| {
        // The result in host memory, or in device memory one double into an allocation.
        let mut r = Operand::<f64>::new(1, 1, 1, 0, x.dev.is_some() != y.dev.is_some());
        let s = unsafe { glblasDdot(x.n as i32, x.ptr(), x.inc, y.ptr(), y.inc, r.ptr()) };
        assert_eq!(s, Status::Success, "ddot {what}");
        let (want, scale) = dot2(x.values().into_iter().zip(y.values()));
        let tol = (x.n as f64 + 1.0) * EPS64 * scale;
        r.check(&format!("ddot {what}"), &[want], &[tol]);
        x.unchanged(&format!("ddot x {what}"));
        y.unchanged(&format!("ddot y {what}"));
    });
    for_pairs::<f64>(&INCS_AND_ZERO, &[1], |what, x, r| {
        let xv = x.values();
        let mut res = Operand::<f64>::new(1, 1, r.off, 0, r.dev.is_some());
        let s = unsafe { glblasDasum(x.n as i32, x.ptr(), x.inc, res.ptr()) };
        assert_eq!(s, Status::Success, "dasum {what}");
        let (want, tol) = if x.inc > 0 {
            let (w, scale) = dot2(xv.iter().map(|v| (v.abs(), 1.0)));
            (w, (x.n as f64 + 1.0) * EPS64 * scale)
        } else {
            (0.0, 0.0)
        };
        res.check(&format!("dasum {what}"), &[want], &[tol]);
        let s = unsafe { glblasDscal(x.n as i32, -1.375, x.ptr(), x.inc) };
        assert_eq!(s, Status::Success, "dscal {what}");
        if x.inc > 0 {
            let want: Vec<f64> = xv
                .iter()
                .map(|v| exact([(-1.375, *v)].into_iter()))
                .collect();
            let tol: Vec<f64> = want.iter().map(|w| EPS64 * w.abs()).collect();
            x.check(&format!("dscal {what}"), &want, &tol);
        } else {
            x.unchanged(&format!("dscal {what}"));
        }
    });
}

#[test]
fn level1_special_values_and_a_long_vector() {
    if !doubles_here() {
        return level1_not_supported();
    }
    // alpha = 0: daxpy reads nothing (NaN in x changes nothing).
    let nan = [f64::NAN; 9];
    let y0 = fill64(9, 41);
    let mut y = y0.clone();
    let s = unsafe { glblasDaxpy(9, 0.0, nan.as_ptr(), 1, y.as_mut_ptr(), 1) };
    assert_eq!(s, Status::Success);
    assert_eq!(y, y0, "daxpy with alpha = 0 changed y");
    // dscal by 0 multiplies, as the reference does: NaN stays NaN, the rest become 0.
    let mut x = vec![1.5, f64::NAN, -2.0];
    let s = unsafe { glblasDscal(3, 0.0, x.as_mut_ptr(), 1) };
    assert_eq!(s, Status::Success);
    assert!(x[0] == 0.0 && x[1].is_nan() && x[2] == 0.0, "{x:?}");
    // Empty calls: dot and asum give 0 without reading anything.
    let mut r = 7.0f64;
    let s = unsafe { glblasDdot(0, std::ptr::null(), 1, std::ptr::null(), 1, &mut r) };
    assert_eq!((s, r), (Status::Success, 0.0));
    let mut r = 7.0f64;
    let s = unsafe { glblasDasum(5, nan.as_ptr(), -1, &mut r) };
    assert_eq!((s, r), (Status::Success, 0.0), "dasum with incx <= 0 is 0");
    // A vector over many workgroups, its device copy one double into its allocation.
    let n = 200_003;
    let x = fill64(n + 1, 42);
    let y = fill64(n, 43);
    let xd = Dev::new(&x);
    let mut r = 0.0f64;
    let s = unsafe { glblasDdot(n as i32, xd.d().add(1), 1, y.as_ptr(), 1, &mut r) };
    assert_eq!(s, Status::Success);
    let (want, scale) = dot2(x[1..].iter().copied().zip(y.iter().copied()));
    assert!(
        (r - want).abs() <= (n as f64 + 1.0) * EPS64 * scale,
        "ddot n={n}: got {r}, want {want}"
    );
    let mut yy = y.clone();
    let s = unsafe { glblasDaxpy(n as i32, 0.5, xd.d().add(1), 1, yy.as_mut_ptr(), 1) };
    assert_eq!(s, Status::Success);
    for i in 0..n {
        let w = exact([(0.5, x[i + 1]), (1.0, y[i])].into_iter());
        assert!(
            (yy[i] - w).abs() <= 2.0 * EPS64 * ((0.5 * x[i + 1]).abs() + y[i].abs()),
            "daxpy element {i}: got {}, want {w}",
            yy[i]
        );
    }
}

/// y := alpha*op(A)*x + beta*y to about 2^-100, and each element's error scale
/// |alpha|·|op(A)||x| + |beta·y|; y is not read when beta == 0.
#[allow(clippy::too_many_arguments)]
fn dgemv_ref(
    trans: bool,
    (m, n): (usize, usize),
    alpha: f64,
    (a, lda): (&[f64], usize),
    x: &[f64],
    beta: f64,
    y: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let (lenx, leny) = if trans { (m, n) } else { (n, m) };
    (0..leny)
        .map(|i| {
            let av = |l: usize| {
                if trans {
                    a[l + i * lda]
                } else {
                    a[i + l * lda]
                }
            };
            let (s, mag) = dot2((0..lenx).map(|l| (av(l), x[l])));
            let yv = if beta == 0.0 { 0.0 } else { y[i] };
            let w = exact([(alpha, s), (beta, yv)].into_iter());
            (w, alpha.abs() * mag + (beta * yv).abs())
        })
        .unzip()
}

#[test]
fn dgemv_every_transpose_increment_and_placement() {
    if !doubles_here() {
        return level1_not_supported();
    }
    let mut k = 0;
    for (s, &m) in SIZES.iter().enumerate() {
        let n = SIZES[(s + SIZES.len() / 2) % SIZES.len()];
        for op in [N, T, C] {
            let trans = op.0 != 0;
            let (lenx, leny) = if trans { (m, n) } else { (n, m) };
            for (&incx, &incy) in INCS.iter().zip(INCS.iter().cycle().skip(k % 4)) {
                for placement in 0..8 {
                    k += 1;
                    let (adev, xdev, ydev) =
                        (placement & 1 != 0, placement & 2 != 0, placement & 4 != 0);
                    let lda = m + k % 3;
                    let (ao, (xo, yo)) = (k % 4, offsets(k));
                    let beta = if k % 3 == 0 { 0.0 } else { 1.25 };
                    // A's padding rows hold NaN: never read.
                    let mut av = fill64((n - 1) * lda + m, 3 * k as u64);
                    for (p, v) in av.iter_mut().enumerate() {
                        if p % lda >= m {
                            *v = f64::NAN;
                        }
                    }
                    let mut a = Operand::of(&av, 1, ao, adev);
                    let mut x = Operand::<f64>::new(lenx, incx, xo, 3 * k as u64 + 1, xdev);
                    let y0 = if beta == 0.0 {
                        vec![f64::NAN; leny]
                    } else {
                        fill64(leny, 3 * k as u64 + 2)
                    };
                    let mut y = Operand::of(&y0, incy, yo, ydev);
                    let what = format!(
                        "{} m={m} n={n} lda={lda} incx={incx} incy={incy} beta={beta} A {} +{ao}, x {} +{xo}, y {} +{yo}",
                        op.0,
                        place(adev),
                        place(xdev),
                        place(ydev)
                    );
                    let s = unsafe {
                        glblasDgemv(
                            op,
                            m as i32,
                            n as i32,
                            0.5,
                            a.ptr(),
                            lda as i32,
                            x.ptr(),
                            incx,
                            beta,
                            y.ptr(),
                            incy,
                        )
                    };
                    assert_eq!(s, Status::Success, "{what}");
                    let (want, scale) =
                        dgemv_ref(trans, (m, n), 0.5, (&av, lda), &x.values(), beta, &y0);
                    let tol: Vec<f64> = scale
                        .iter()
                        .map(|w| (lenx as f64 + 2.0) * EPS64 * w)
                        .collect();
                    y.check(&format!("dgemv {what}"), &want, &tol);
                    a.unchanged(&format!("dgemv A {what}"));
                    x.unchanged(&format!("dgemv x {what}"));
                }
            }
        }
    }
}

#[test]
fn dgemv_special_values_and_argument_errors() {
    // Argument errors come first, on every device.
    let a = fill64(12, 51);
    let x = fill64(4, 52);
    let mut y = fill64(4, 53);
    let call = |op, m, lda, incx, incy, y: &mut [f64]| unsafe {
        glblasDgemv(
            op,
            m,
            3,
            1.0,
            a.as_ptr(),
            lda,
            x.as_ptr(),
            incx,
            0.5,
            y.as_mut_ptr(),
            incy,
        )
    };
    assert_eq!(call(N, 4, 3, 1, 1, &mut y), Status::InvalidValue, "lda < m");
    assert_eq!(
        call(N, 3, 3, 0, 1, &mut y),
        Status::InvalidValue,
        "incx = 0"
    );
    assert_eq!(
        call(N, 3, 3, 1, 0, &mut y),
        Status::InvalidValue,
        "incy = 0"
    );
    assert_eq!(
        call(OperationArg(7), 3, 3, 1, 1, &mut y),
        Status::InvalidValue,
        "trans"
    );
    if !doubles_here() {
        return level1_not_supported();
    }
    let (m, n) = (7, 5);
    let nan_a = vec![f64::NAN; m * n];
    let nan_x = vec![f64::NAN; n];
    for (trans, len) in [(N, m), (T, n)] {
        let y0 = fill64(len, 54);
        // alpha = 0: y := beta*y, A and x unread (beta = 1: a quick return); with beta = 0,
        // y := 0 over NaN.
        for (beta, y_in) in [
            (1.0, y0.clone()),
            (-0.75, y0.clone()),
            (0.0, vec![f64::NAN; len]),
        ] {
            let mut y = y_in.clone();
            let s = unsafe {
                glblasDgemv(
                    trans,
                    m as i32,
                    n as i32,
                    0.0,
                    nan_a.as_ptr(),
                    m as i32,
                    nan_x.as_ptr(),
                    -1,
                    beta,
                    y.as_mut_ptr(),
                    -1,
                )
            };
            assert_eq!(s, Status::Success);
            let want: Vec<f64> = if beta == 0.0 {
                vec![0.0; len]
            } else {
                y_in.iter()
                    .map(|v| exact([(beta, *v)].into_iter()))
                    .collect()
            };
            for (g, w) in y.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= EPS64 * w.abs(),
                    "alpha = 0, beta = {beta}: {y:?}"
                );
            }
        }
    }
}

/// Where the device cannot compute in double, every level-1 and level-2 double routine (even
/// an empty call) is NOT_SUPPORTED and its outputs are left as they were.
fn level1_not_supported() {
    let x0 = fill64(9, 61);
    let y0 = fill64(9, 62);
    let a = fill64(81, 63);
    for n in [9, 0] {
        let (mut x, mut y) = (x0.clone(), y0.clone());
        let mut r = 3.25f64;
        let (px, py) = (x.as_mut_ptr(), y.as_mut_ptr());
        let results = unsafe {
            [
                ("daxpy", glblasDaxpy(n, 2.0, px, 1, py, 1)),
                ("ddot", glblasDdot(n, px, 1, py, 1, &mut r)),
                ("dscal", glblasDscal(n, 2.0, px, 1)),
                ("dcopy", glblasDcopy(n, px, 1, py, 1)),
                ("dswap", glblasDswap(n, px, 1, py, 1)),
                ("dasum", glblasDasum(n, px, 1, &mut r)),
                (
                    "dgemv",
                    glblasDgemv(N, n, n, 2.0, a.as_ptr(), 9, px, 1, 0.5, py, 1),
                ),
            ]
        };
        for (name, s) in results {
            assert_eq!(s, Status::NotSupported, "{name} n={n}");
        }
        assert_eq!((x, y, r), (x0.clone(), y0.clone(), 3.25), "n={n}");
    }
}
