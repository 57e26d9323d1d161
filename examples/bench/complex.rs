//! The complex cases: cgemm and zgemm of square n×n operands, timed with host and with
//! device-resident operands and beside the CPU BLAS, checked on a sample of columns against a
//! reference accurate to about twice double precision (Dot2). Flops as LAPACK counts them: 8
//! per complex multiply-add.

use glblas::ffi::{glblasComplex, glblasDoubleComplex};

use super::level3::{dot2, measure, Case, Cpu};
use super::*;

impl Elem for glblasComplex {
    const SIZE: usize = 8;
    const U: f64 = U;
    const NAN: Self = glblasComplex {
        re: f32::NAN,
        im: f32::NAN,
    };
    /// Both parts at once: NaN or infinite when either is.
    fn f(self) -> f64 {
        f64::from(self.re) + f64::from(self.im)
    }
    fn of(v: f64) -> Self {
        glblasComplex {
            re: v as f32,
            im: 0.0,
        }
    }
}

impl Elem for glblasDoubleComplex {
    const SIZE: usize = 16;
    const U: f64 = f64::EPSILON / 2.0;
    const NAN: Self = glblasDoubleComplex {
        re: f64::NAN,
        im: f64::NAN,
    };
    fn f(self) -> f64 {
        self.re + self.im
    }
    fn of(v: f64) -> Self {
        glblasDoubleComplex { re: v, im: 0.0 }
    }
}

type CblasGemm<T> = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    i32,
    i32,
    i32,
    *const T,
    *const T,
    i32,
    *const T,
    i32,
    *const T,
    *mut T,
    i32,
);
type GlblasGemm<T> = unsafe extern "C" fn(
    OperationArg,
    OperationArg,
    i32,
    i32,
    i32,
    *const T,
    *const T,
    i32,
    *const T,
    i32,
    *const T,
    *mut T,
    i32,
) -> Status;

/// What differs between c and z.
pub trait ComplexElem: Elem {
    const NAME: &'static str;
    const GLBLAS: GlblasGemm<Self>;
    const CBLAS: &'static CStr;
    fn new(re: f64, im: f64) -> Self;
    fn parts(self) -> (f64, f64);
}

impl ComplexElem for glblasComplex {
    const NAME: &'static str = "cgemm";
    const GLBLAS: GlblasGemm<Self> = glblasCgemm;
    const CBLAS: &'static CStr = c"cblas_cgemm";
    fn new(re: f64, im: f64) -> Self {
        glblasComplex {
            re: re as f32,
            im: im as f32,
        }
    }
    fn parts(self) -> (f64, f64) {
        (self.re.into(), self.im.into())
    }
}

impl ComplexElem for glblasDoubleComplex {
    const NAME: &'static str = "zgemm";
    const GLBLAS: GlblasGemm<Self> = glblasZgemm;
    const CBLAS: &'static CStr = c"cblas_zgemm";
    fn new(re: f64, im: f64) -> Self {
        glblasDoubleComplex { re, im }
    }
    fn parts(self) -> (f64, f64) {
        (self.re, self.im)
    }
}

pub fn bench_gemm<T: ComplexElem>(n: usize, runs: usize) -> Row {
    Row {
        routine: T::NAME,
        shape: format!("{n}x{n}x{n}"),
        pipeline: pipeline(),
        work: 8.0 * (n * n * n) as f64,
        unit: "GFLOP/s",
        figures: gemm::<T>(n, runs),
    }
}

/// n×n complex values with both parts in [-1, 1) (in double, all 53 bits of the mantissa used).
fn values<T: ComplexElem>(n: usize, seed: u64) -> Vec<T> {
    let (hi, lo) = (fill(2 * n * n, seed), fill(2 * n * n, seed ^ 0x5555));
    let part =
        |i: usize| (f64::from(hi[i]) + f64::from(lo[i]) * f64::from(f32::EPSILON)).clamp(-1.0, 1.0);
    (0..n * n)
        .map(|i| T::new(part(2 * i), part(2 * i + 1)))
        .collect()
}

fn gemm<T: ComplexElem>(n: usize, runs: usize) -> Res<Figures> {
    let (a, b) = (values::<T>(n, 31), values::<T>(n, 32));
    let (one, zero) = (T::new(1.0, 0.0), T::new(0.0, 0.0));
    // Each part of C is a real dot product of 2n terms (the 1m method, kernels/gemm.rs), within
    // (2n+2)u of Σ|a||b|, magnitudes |re| + |im|.
    let bound = (2 * n + 2) as f64 * T::U;
    let err_of = |c: &[T]| {
        let mut err = 0.0f64;
        for j in (0..n).step_by((n / 8).max(1)) {
            for i in 0..n {
                let ab = |l: usize| (a[i + l * n].parts(), b[l + j * n].parts());
                let (re, _) = dot2((0..n).flat_map(|l| {
                    let ((ar, ai), (br, bi)) = ab(l);
                    [(ar, br), (-ai, bi)]
                }));
                let (im, _) = dot2((0..n).flat_map(|l| {
                    let ((ar, ai), (br, bi)) = ab(l);
                    [(ar, bi), (ai, br)]
                }));
                let scale: f64 = (0..n)
                    .map(|l| {
                        let ((ar, ai), (br, bi)) = ab(l);
                        (ar.abs() + ai.abs()) * (br.abs() + bi.abs())
                    })
                    .sum();
                let (gr, gi) = c[i + j * n].parts();
                let e = (gr - re).abs().max((gi - im).abs()) / scale.max(f64::MIN_POSITIVE);
                err = worse(
                    err,
                    if gr.is_nan() || gi.is_nan() {
                        f64::NAN
                    } else {
                        e
                    },
                );
            }
        }
        err
    };
    let ni = n as i32;
    let op = OperationArg(0);
    let call = |a: *const T, b: *const T, c: *mut T, on: &str| {
        let s = unsafe { T::GLBLAS(op, op, ni, ni, ni, &one, a, ni, b, ni, &zero, c, ni) };
        check_call(s, T::NAME, on)
    };
    let start = vec![T::NAN; n * n];
    let cpu = cpu_blas::<CblasGemm<T>>(T::CBLAS).map(|f| {
        // CBLAS enums: column-major 102, no transpose 111.
        Box::new(move |a, b, c| unsafe {
            f(102, 111, 111, ni, ni, ni, &one, a, ni, b, ni, &zero, c, ni)
        }) as Cpu<T>
    });
    measure(
        Case {
            operands: [&a, &b],
            start: &start,
            written: &all_written,
            err_of: &err_of,
            bound,
        },
        runs,
        call,
        cpu,
    )
}
