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
type CblasTrsm<T> =
    unsafe extern "C" fn(i32, i32, i32, i32, i32, i32, i32, *const T, *const T, i32, *mut T, i32);
/// cblas_?herk: alpha and beta real, by value.
type CblasHerk<T, R> =
    unsafe extern "C" fn(i32, i32, i32, i32, i32, R, *const T, i32, R, *mut T, i32);

/// The complex cases, as LAPACK counts their flops (a complex multiply-add is 8).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Case3 {
    Gemm,
    /// Left, lower, not transposed, non-unit diagonal, alpha = 1.
    Trsm,
    /// Lower triangle of C, A not transposed, k = n, alpha = 1, beta = 0.
    Herk,
}

impl Case3 {
    fn name(self) -> &'static str {
        match self {
            Case3::Gemm => "gemm",
            Case3::Trsm => "trsm",
            Case3::Herk => "herk",
        }
    }

    fn flops(self, n: usize) -> f64 {
        let cube = (n * n * n) as f64;
        match self {
            Case3::Gemm => 8.0 * cube,
            Case3::Trsm | Case3::Herk => 4.0 * cube,
        }
    }
}

/// What differs between c and z.
pub trait ComplexElem: Elem {
    const PREFIX: char;
    fn new(re: f64, im: f64) -> Self;
    fn parts(self) -> (f64, f64);
    /// glblas<P><case> on n×n operands (B is the output for trsm), alpha 1, beta 0.
    unsafe fn glblas(r: Case3, n: i32, a: *const Self, b: *const Self, c: *mut Self) -> Status;
    /// The CPU BLAS's cblas_<p><case>, if there is one.
    fn cpu(r: Case3, n: i32) -> Option<Cpu<Self>>;
}

// CBLAS enums: column-major 102, no transpose 111, lower 122, non-unit 131, left 141.
macro_rules! complex_elem {
    ($t:ty, $real:ty, $p:literal, $gemm:ident, $trsm:ident, $herk:ident, $cgemm:literal,
     $ctrsm:literal, $cherk:literal) => {
        impl ComplexElem for $t {
            const PREFIX: char = $p;
            fn new(re: f64, im: f64) -> Self {
                Self {
                    re: re as $real,
                    im: im as $real,
                }
            }
            fn parts(self) -> (f64, f64) {
                (self.re.into(), self.im.into())
            }
            unsafe fn glblas(
                r: Case3,
                n: i32,
                a: *const Self,
                b: *const Self,
                c: *mut Self,
            ) -> Status {
                let (one, zero) = (Self::new(1.0, 0.0), Self::new(0.0, 0.0));
                let (op, lower, side, diag) = (OperationArg(0), FillArg(0), SideArg(0), DiagArg(0));
                let (r1, r0): ($real, $real) = (1.0, 0.0);
                match r {
                    Case3::Gemm => $gemm(op, op, n, n, n, &one, a, n, b, n, &zero, c, n),
                    Case3::Trsm => $trsm(side, lower, op, diag, n, n, &one, a, n, c, n),
                    Case3::Herk => $herk(lower, op, n, n, &r1, a, n, &r0, c, n),
                }
            }
            fn cpu(r: Case3, n: i32) -> Option<Cpu<Self>> {
                let (one, zero) = (Self::new(1.0, 0.0), Self::new(0.0, 0.0));
                Some(match r {
                    Case3::Gemm => {
                        let f = cpu_blas::<CblasGemm<Self>>($cgemm)?;
                        Box::new(move |a, b, c| unsafe {
                            f(102, 111, 111, n, n, n, &one, a, n, b, n, &zero, c, n)
                        })
                    }
                    Case3::Trsm => {
                        let f = cpu_blas::<CblasTrsm<Self>>($ctrsm)?;
                        Box::new(move |a, _, c| unsafe {
                            f(102, 141, 122, 111, 131, n, n, &one, a, n, c, n)
                        })
                    }
                    Case3::Herk => {
                        let f = cpu_blas::<CblasHerk<Self, $real>>($cherk)?;
                        Box::new(move |a, _, c| unsafe {
                            f(102, 122, 111, n, n, 1.0, a, n, 0.0, c, n)
                        })
                    }
                })
            }
        }
    };
}

complex_elem!(
    glblasComplex,
    f32,
    'c',
    glblasCgemm,
    glblasCtrsm,
    glblasCherk,
    c"cblas_cgemm",
    c"cblas_ctrsm",
    c"cblas_cherk"
);
complex_elem!(
    glblasDoubleComplex,
    f64,
    'z',
    glblasZgemm,
    glblasZtrsm,
    glblasZherk,
    c"cblas_zgemm",
    c"cblas_ztrsm",
    c"cblas_zherk"
);

pub fn bench<T: ComplexElem>(r: Case3, n: usize, runs: usize) -> Row {
    Row {
        routine: Box::leak(format!("{}{}", T::PREFIX, r.name()).into_boxed_str()),
        shape: format!("{n}x{n}x{n}"),
        pipeline: pipeline(),
        work: r.flops(n),
        unit: "GFLOP/s",
        figures: case::<T>(r, n, runs),
    }
}

/// n×n complex values with both parts in [-1, 1) (in double, all 53 bits of the mantissa used).
fn values<T: ComplexElem>(n: usize, seed: u64) -> Vec<T> {
    let (hi, lo) = (fill(2 * n * n, seed), fill(2 * n * n, seed ^ 0x5555));
    let eps = f64::from(f32::EPSILON);
    let part = |i: usize| (f64::from(hi[i]) + f64::from(lo[i]) * eps).clamp(-1.0, 1.0);
    (0..n * n)
        .map(|i| T::new(part(2 * i), part(2 * i + 1)))
        .collect()
}

/// Σ x*y of complex terms as if in twice double precision (each part a Dot2 of real
/// products), and Σ |x||y| in moduli |re| + |im|.
fn complex_dot(terms: impl Iterator<Item = ((f64, f64), (f64, f64))> + Clone) -> ((f64, f64), f64) {
    let (re, _) = dot2(
        terms
            .clone()
            .flat_map(|((xr, xi), (yr, yi))| [(xr, yr), (-xi, yi)]),
    );
    let (im, _) = dot2(
        terms
            .clone()
            .flat_map(|((xr, xi), (yr, yi))| [(xr, yi), (xi, yr)]),
    );
    let mag = terms
        .map(|((xr, xi), (yr, yi))| (xr.abs() + xi.abs()) * (yr.abs() + yi.abs()))
        .sum();
    ((re, im), mag)
}

fn case<T: ComplexElem>(r: Case3, n: usize, runs: usize) -> Res<Figures> {
    let mut a = values::<T>(n, 31);
    let b = values::<T>(n, 32);
    if r == Case3::Trsm {
        // Diagonally dominant (diagonal moduli in [1, 2], the rest scaled by 1/n), so that the
        // solve is well conditioned; the upper triangle, never read, NaN.
        for j in 0..n {
            for i in 0..n {
                let (re, im) = a[i + j * n].parts();
                a[i + j * n] = if i < j {
                    T::NAN
                } else if i == j {
                    let m = (re * re + im * im).sqrt().max(1e-3);
                    T::new(re / m * (1.0 + m), im / m * (1.0 + m))
                } else {
                    T::new(re / n as f64, im / n as f64)
                };
            }
        }
    }
    let conj = |(re, im): (f64, f64)| (re, -im);
    // Each part is a real sum of 2n products (the 1m method, kernels/gemm.rs): within (2n+2)u
    // of Σ|a||b|; trsm's residual A·X - B within 4(2n+2)u of |A||X| + |B| (tests/complex.rs).
    let bound = if r == Case3::Trsm { 4.0 } else { 1.0 } * (2 * n + 2) as f64 * T::U;
    let err_of = |c: &[T]| {
        let mut err = 0.0f64;
        for j in (0..n).step_by((n / 8).max(1)) {
            for i in 0..n {
                let ((want_re, want_im), scale) = match r {
                    Case3::Gemm => {
                        complex_dot((0..n).map(|l| (a[i + l * n].parts(), b[l + j * n].parts())))
                    }
                    Case3::Herk if i < j => continue,
                    Case3::Herk => complex_dot(
                        (0..n).map(|l| (a[i + l * n].parts(), conj(a[j + l * n].parts()))),
                    ),
                    Case3::Trsm => {
                        let ((ar, ai), mag) = complex_dot(
                            (0..=i).map(|l| (a[i + l * n].parts(), c[l + j * n].parts())),
                        );
                        let (br, bi) = b[i + j * n].parts();
                        // The residual against 0.
                        ((ar - br, ai - bi), mag + br.abs() + bi.abs())
                    }
                };
                let (gr, gi) = match r {
                    Case3::Trsm => (0.0, 0.0),
                    _ => c[i + j * n].parts(),
                };
                let e =
                    (gr - want_re).abs().max((gi - want_im).abs()) / scale.max(f64::MIN_POSITIVE);
                err = worse(err, if e.is_nan() { f64::NAN } else { e });
            }
        }
        err
    };
    let ni = n as i32;
    let name = Box::leak(format!("{}{}", T::PREFIX, r.name()).into_boxed_str());
    let call = |a: *const T, b: *const T, c: *mut T, on: &str| {
        check_call(unsafe { T::glblas(r, ni, a, b, c) }, name, on)
    };
    // The output: C (NaN, never read with beta = 0) or, for trsm, B itself.
    let start = if r == Case3::Trsm {
        b.clone()
    } else {
        vec![T::NAN; n * n]
    };
    let written = |which: &str, c: &[T]| {
        if r == Case3::Herk {
            // Only the lower triangle is written.
            let lower: Vec<T> = (0..n)
                .flat_map(|j| c[j * n + j..(j + 1) * n].to_vec())
                .collect();
            all_written(which, &lower)
        } else {
            all_written(which, c)
        }
    };
    measure(
        Case {
            operands: [&a, &b],
            start: &start,
            written: &written,
            err_of: &err_of,
            bound,
        },
        runs,
        call,
        T::cpu(r, ni),
    )
}
