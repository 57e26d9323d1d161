//! Where GL starts to beat the CPU BLAS at gemm: both timed on the same host operands (as a
//! BLAS call brings them), in rounds of one call each, at n = 64, 128, ..., with the device's
//! parameters as tuned. The CPU BLAS is the one glblas forwards calls to (`blas::cpu`), through
//! its CBLAS name.

use super::problem::whole_numbers;
use super::Times;
use crate::blas::cpu;
use crate::engine::element::{Precision, Real};
use crate::engine::tuning::Crossover;
use crate::kernels::Trans;
use crate::routines;
use crate::status::{Error, Result, Status};
use std::ffi::c_int;
use std::time::Instant;

/// `cblas_sgemm`'s and `cblas_dgemm`'s type, for `T`.
type CblasGemm<T> = unsafe extern "C" fn(
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    c_int,
    T,
    *const T,
    c_int,
    *const T,
    c_int,
    T,
    *mut T,
    c_int,
) -> ();
const COL_MAJOR: c_int = 102;
const NO_TRANS: c_int = 111;
/// The first side measured.
const FIRST: i64 = 64;
/// No side is measured past one at which a CPU BLAS call took this long.
const LONGEST_CPU_CALL: f64 = 1.0;

/// What was measured: the crossover, the CPU BLAS's library, and at each side the median
/// seconds of GL's call and of the CPU BLAS's.
pub(super) struct Measured {
    pub crossover: Crossover,
    pub library: String,
    pub sides: Vec<(i64, f64, f64)>,
}

/// How many sides [`measure`] may time, up to `cap`.
pub(super) fn sides(cap: i64) -> usize {
    (cap / FIRST).max(1).ilog2() as usize + 1
}

/// GL's gemm in `T` beside the CPU BLAS's, at sides up to `cap`, each timed in `rounds`, until
/// `deadline`; None where there is no CPU BLAS. `step` is called after each side. Both results
/// must agree exactly (whole numbers: `whole_numbers`), else EXECUTION_FAILED.
pub(super) fn measure<T: Real>(
    cap: i64,
    rounds: usize,
    deadline: Instant,
    step: &mut dyn FnMut(),
) -> Result<Option<Measured>> {
    let name = match T::PRECISION {
        Precision::Single => c"cblas_sgemm",
        Precision::Double => c"cblas_dgemm",
    };
    let Some(f) = cpu::resolve(name) else {
        return Ok(None);
    };
    let library = cpu::object_name(f as usize).map_or_else(
        || "the CPU BLAS".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // SAFETY: the CPU BLAS's definition of this CBLAS function, whose type this is.
    let cpu_gemm: CblasGemm<T> = unsafe { std::mem::transmute(f) };
    let mut sides = Vec::new();
    let mut n = FIRST;
    while n <= cap {
        let (a, b) = (whole_numbers::<T>(n * n, 3), whole_numbers::<T>(n * n, 4));
        let mut c = [
            vec![T::ZERO; (n * n) as usize],
            vec![T::ZERO; (n * n) as usize],
        ];
        let side = n as c_int;
        let gl = |c: &mut [T]| -> Result<f64> {
            let start = Instant::now();
            // SAFETY: n × n operands, leading dimension n, in host memory.
            unsafe {
                routines::gemm(
                    Trans::N,
                    Trans::N,
                    n,
                    n,
                    n,
                    T::ONE,
                    a.as_ptr(),
                    n,
                    b.as_ptr(),
                    n,
                    T::ZERO,
                    c.as_mut_ptr(),
                    n,
                )?
            };
            Ok(start.elapsed().as_secs_f64())
        };
        let on_cpu = |c: &mut [T]| {
            let start = Instant::now();
            // SAFETY: as above, through the CBLAS interface.
            unsafe {
                cpu_gemm(
                    COL_MAJOR,
                    NO_TRANS,
                    NO_TRANS,
                    side,
                    side,
                    side,
                    T::ONE,
                    a.as_ptr(),
                    side,
                    b.as_ptr(),
                    side,
                    T::ZERO,
                    c.as_mut_ptr(),
                    side,
                )
            };
            start.elapsed().as_secs_f64()
        };
        // Untimed first calls: the GL kernels' compiles, the CPU BLAS's threads.
        let [c_gl, c_cpu] = &mut c;
        gl(c_gl)?;
        on_cpu(c_cpu);
        if c_gl != c_cpu {
            return Err(Error::new(
                Status::ExecutionFailed,
                format!("GL's gemm at n = {n} differs from the CPU BLAS's, in whole numbers"),
            ));
        }
        let (mut times_gl, mut times_cpu) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            times_gl.push(gl(c_gl)?);
            times_cpu.push(on_cpu(c_cpu));
        }
        let cpu_time = Times::of(times_cpu).median;
        sides.push((n, Times::of(times_gl).median, cpu_time));
        step();
        if cpu_time > LONGEST_CPU_CALL || Instant::now() >= deadline {
            break;
        }
        n *= 2;
    }
    let flops = |n: i64| 2 * (n as u64).pow(3);
    let wins = (0..sides.len()).find(|&i| sides[i..].iter().all(|s| s.1 < s.2));
    let crossover = match wins {
        Some(i) => Crossover::From(flops(sides[i].0)),
        None => Crossover::Never(flops(sides[sides.len() - 1].0)),
    };
    Ok(Some(Measured {
        crossover,
        library,
        sides,
    }))
}
