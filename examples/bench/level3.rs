//! The Level 3 cases in either precision: gemm, symm, syrk and trsm of square n×n operands, each
//! timed with host and with device-resident operands and beside the CPU BLAS, and checked on a
//! sample of columns against a reference accurate to about twice double precision (Dot2).

use super::*;

/// The routine of a case, with its flop count as the reference counts it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum L3 {
    Gemm,
    /// Left, lower triangle stored.
    Symm,
    /// Lower triangle of C, A not transposed, k = n.
    Syrk,
    /// Left, lower, not transposed, non-unit diagonal, alpha = 1.
    Trsm,
}

impl L3 {
    pub fn name(self) -> &'static str {
        match self {
            L3::Gemm => "gemm",
            L3::Symm => "symm",
            L3::Syrk => "syrk",
            L3::Trsm => "trsm",
        }
    }

    /// gemm and symm 2n³, syrk n²k and trsm m²n with m = n = k.
    fn flops(self, n: usize) -> f64 {
        let cube = (n * n * n) as f64;
        match self {
            L3::Gemm | L3::Symm => 2.0 * cube,
            L3::Syrk | L3::Trsm => cube,
        }
    }
}

/// The glblas API and CBLAS functions of one precision.
pub trait Level3: Elem {
    const PREFIX: char;
    /// glblas<P><routine> on n×n operands (C is B for trsm), alpha = 1, beta = 0.
    unsafe fn glblas(r: L3, n: i32, a: *const Self, b: *const Self, c: *mut Self) -> Status;
    /// The CPU BLAS's cblas_<p><routine>, if there is one, as a call on the same operands.
    fn cpu(r: L3) -> Option<CpuCall<Self>>;
    fn values(n: usize, seed: u64) -> Vec<Self>;
}

/// A CPU BLAS call on n×n operands A, B, C.
pub type CpuCall<T> = Box<dyn Fn(i32, *const T, *const T, *mut T)>;
type CblasGemm<T> = unsafe extern "C" fn(
    i32,
    i32,
    i32,
    i32,
    i32,
    i32,
    T,
    *const T,
    i32,
    *const T,
    i32,
    T,
    *mut T,
    i32,
);
type CblasSymm<T> =
    unsafe extern "C" fn(i32, i32, i32, i32, i32, T, *const T, i32, *const T, i32, T, *mut T, i32);
type CblasSyrk<T> = unsafe extern "C" fn(i32, i32, i32, i32, i32, T, *const T, i32, T, *mut T, i32);
type CblasTrsm<T> =
    unsafe extern "C" fn(i32, i32, i32, i32, i32, i32, i32, T, *const T, i32, *mut T, i32);

// CBLAS enums: column-major 102, no transpose 111, lower 122, non-unit 131, left 141.
macro_rules! level3 {
    ($t:ty, $p:literal, $gemm:ident, $symm:ident, $syrk:ident, $trsm:ident, $cgemm:literal,
     $csymm:literal, $csyrk:literal, $ctrsm:literal, $values:expr) => {
        impl Level3 for $t {
            const PREFIX: char = $p;
            unsafe fn glblas(r: L3, n: i32, a: *const $t, b: *const $t, c: *mut $t) -> Status {
                let (op, lower, side, diag) = (OperationArg(0), FillArg(0), SideArg(0), DiagArg(0));
                match r {
                    L3::Gemm => $gemm(op, op, n, n, n, 1.0, a, n, b, n, 0.0, c, n),
                    L3::Symm => $symm(side, lower, n, n, 1.0, a, n, b, n, 0.0, c, n),
                    L3::Syrk => $syrk(lower, op, n, n, 1.0, a, n, 0.0, c, n),
                    L3::Trsm => $trsm(side, lower, op, diag, n, n, 1.0, a, n, c, n),
                }
            }
            fn cpu(r: L3) -> Option<CpuCall<$t>> {
                Some(match r {
                    L3::Gemm => {
                        let f = cpu_blas::<CblasGemm<$t>>($cgemm)?;
                        Box::new(move |n, a, b, c| unsafe {
                            f(102, 111, 111, n, n, n, 1.0, a, n, b, n, 0.0, c, n)
                        })
                    }
                    L3::Symm => {
                        let f = cpu_blas::<CblasSymm<$t>>($csymm)?;
                        Box::new(move |n, a, b, c| unsafe {
                            f(102, 141, 122, n, n, 1.0, a, n, b, n, 0.0, c, n)
                        })
                    }
                    L3::Syrk => {
                        let f = cpu_blas::<CblasSyrk<$t>>($csyrk)?;
                        Box::new(move |n, a, _, c| unsafe {
                            f(102, 122, 111, n, n, 1.0, a, n, 0.0, c, n)
                        })
                    }
                    L3::Trsm => {
                        let f = cpu_blas::<CblasTrsm<$t>>($ctrsm)?;
                        Box::new(move |n, a, _, c| unsafe {
                            f(102, 141, 122, 111, 131, n, n, 1.0, a, n, c, n)
                        })
                    }
                })
            }
            fn values(n: usize, seed: u64) -> Vec<$t> {
                $values(n, seed)
            }
        }
    };
}

level3!(
    f32,
    's',
    glblasSgemm,
    glblasSsymm,
    glblasSsyrk,
    glblasStrsm,
    c"cblas_sgemm",
    c"cblas_ssymm",
    c"cblas_ssyrk",
    c"cblas_strsm",
    fill
);
level3!(
    f64,
    'd',
    glblasDgemm,
    glblasDsymm,
    glblasDsyrk,
    glblasDtrsm,
    c"cblas_dgemm",
    c"cblas_dsymm",
    c"cblas_dsyrk",
    c"cblas_dtrsm",
    |n: usize, seed: u64| {
        // Two draws per element, so that all 53 bits of the mantissa are used.
        let (hi, lo) = (fill(n, seed), fill(n, seed ^ 0x5555));
        hi.iter()
            .zip(&lo)
            .map(|(&h, &l)| h as f64 + l as f64 * f64::from(f32::EPSILON))
            .map(|v| v.clamp(-1.0, 1.0))
            .collect::<Vec<f64>>()
    }
);

pub fn bench<T: Level3>(r: L3, n: usize, runs: usize) -> Row {
    Row {
        routine: routine_name::<T>(r),
        shape: format!("{n}x{n}x{n}"),
        pipeline: pipeline(),
        work: r.flops(n),
        unit: "GFLOP/s",
        figures: case::<T>(r, n, runs),
    }
}

/// "sgemm", "dtrsm", ...: names that live as long as the rows.
fn routine_name<T: Level3>(r: L3) -> &'static str {
    Box::leak(format!("{}{}", T::PREFIX, r.name()).into_boxed_str())
}

/// s + e = a + b exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let z = s - a;
    (s, (a - (s - z)) + (b - z))
}

/// Σ x*y as if in twice double precision (Dot2), and Σ |x*y|.
pub fn dot2(terms: impl Iterator<Item = (f64, f64)>) -> (f64, f64) {
    let (mut s, mut c, mut mag) = (0.0f64, 0.0f64, 0.0f64);
    for (x, y) in terms {
        let p = x * y;
        let (t, e) = two_sum(s, p);
        s = t;
        c += x.mul_add(y, -p) + e;
        mag += p.abs();
    }
    (s + c, mag)
}

fn case<T: Level3>(r: L3, n: usize, runs: usize) -> Res<Figures> {
    let mut a = T::values(n * n, 11);
    if r == L3::Trsm {
        // Diagonally dominant, so that the solve is well conditioned: diagonal ±[1, 2), the rest
        // scaled by 1/n.
        for j in 0..n {
            for i in 0..n {
                let v = a[i + j * n].f();
                a[i + j * n] = T::of(if i == j {
                    v.signum() * (1.0 + v.abs())
                } else {
                    v / n as f64
                });
            }
        }
    }
    if matches!(r, L3::Symm | L3::Trsm) {
        // The upper triangle is never read.
        for j in 0..n {
            for i in 0..j {
                a[i + j * n] = T::NAN;
            }
        }
    }
    let b = T::values(n * n, 12);
    let at = |i: usize, l: usize| {
        let (i, l) = if r == L3::Symm && i < l {
            (l, i)
        } else {
            (i, l)
        };
        a[i + l * n].f()
    };
    // Error on a sample of columns relative to the error scale (for trsm, the residual
    // A·X - B relative to |A||X| + |B|), within the routine's bound: (n+2)u for the products,
    // 4(n+2)u for trsm (tests/level3.rs).
    let bound = if r == L3::Trsm { 4.0 } else { 1.0 } * (n + 2) as f64 * T::U;
    let err_of = |c: &[T]| {
        let mut err = 0.0f64;
        for j in (0..n).step_by((n / 8).max(1)) {
            for i in 0..n {
                let (got, (want, scale)) = match r {
                    L3::Gemm | L3::Symm => (
                        c[i + j * n].f(),
                        dot2((0..n).map(|l| (at(i, l), b[l + j * n].f()))),
                    ),
                    L3::Syrk if i < j => continue,
                    L3::Syrk => (c[i + j * n].f(), dot2((0..n).map(|l| (at(i, l), at(j, l))))),
                    L3::Trsm => {
                        let (ax, mag) = dot2((0..=i).map(|l| (at(i, l), c[l + j * n].f())));
                        let bij = b[i + j * n].f();
                        (ax - bij, (0.0, mag + bij.abs()))
                    }
                };
                err = worse(err, (got - want).abs() / scale.max(f64::MIN_POSITIVE));
            }
        }
        err
    };
    let ni = n as i32;
    let name = routine_name::<T>(r);
    let call = |a: *const T, b: *const T, c: *mut T, on: &str| {
        check_call(unsafe { T::glblas(r, ni, a, b, c) }, name, on)
    };
    // The output: C (NaN, never read with beta = 0) or, for trsm, B itself.
    let start = if r == L3::Trsm {
        b.clone()
    } else {
        vec![T::NAN; n * n]
    };
    let written = |which: &str, c: &[T]| {
        if r == L3::Syrk {
            // Only the lower triangle is written.
            all_written(
                which,
                &(0..n)
                    .flat_map(|j| c[j * n + j..(j + 1) * n].to_vec())
                    .collect::<Vec<T>>(),
            )
        } else {
            all_written(which, c)
        }
    };
    let cpu = T::cpu(r).map(|f| Box::new(move |a, b, c| f(ni, a, b, c)) as Cpu<T>);
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
        cpu,
    )
}

/// The CPU BLAS's call of a case on its operands A, B and output.
pub type Cpu<T> = Box<dyn Fn(*const T, *const T, *mut T)>;

/// A case's operands and how its output is judged.
pub struct Case<'a, T> {
    pub operands: [&'a [T]; 2],
    /// The output's value before each call.
    pub start: &'a [T],
    /// Checks that every element the call writes was written.
    pub written: &'a dyn Fn(&str, &[T]) -> Res<()>,
    /// The output's error, relative to its error scale.
    pub err_of: &'a dyn Fn(&[T]) -> f64,
    pub bound: f64,
}

/// Times `call` (A, B, output, where they live) on host operands and on device-resident ones,
/// each result checked first, and the CPU BLAS's `cpu` on the host operands.
pub fn measure<T: Elem>(
    case: Case<T>,
    runs: usize,
    call: impl Fn(*const T, *const T, *mut T, &str) -> Res<()>,
    cpu: Option<Cpu<T>>,
) -> Res<Figures> {
    let [a, b] = case.operands;
    let start = case.start;
    let mut c = start.to_vec();
    call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), "host")?;
    (case.written)("host", &c)?;
    let host_err = within("host", (case.err_of)(&c), case.bound)?;
    let host = median_time(runs, || {
        c.copy_from_slice(start);
        call(a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), "host")
    })?;
    let (da, db) = (Device::upload(a)?, Device::upload(b)?);
    let (dstart, dc) = (Device::upload(start)?, Device::<T>::alloc(start.len())?);
    let (timed, read) = device_time(
        runs,
        || dc.reset_from(&dstart),
        || {
            call(da.f(), db.f(), dc.f(), "device")?;
            sync()?;
            dc.last()
        },
    )?;
    let out = dc.download()?;
    (case.written)("device", &out)?;
    let device_err = within("device", (case.err_of)(&out), case.bound)?;
    finished(&read, out[out.len() - 1])?;
    let cpu = cpu_time(cpu, runs, |f| {
        c.copy_from_slice(start);
        f(a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
    })?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound: case.bound,
    })
}
