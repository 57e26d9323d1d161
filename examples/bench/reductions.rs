//! snrm2 and isamax: one vector read, one number out, each timed with host and device-resident
//! operands and beside the CPU BLAS, and checked against a double-precision computation (nrm2)
//! or the exact first index of the largest magnitude (isamax).

use super::*;

type Snrm2 = unsafe extern "C" fn(i32, *const f32, i32) -> f32;
/// `cblas_isamax` returns the 0-based CBLAS_INDEX (a size_t).
type Isamax = unsafe extern "C" fn(i32, *const f32, i32) -> usize;

/// Rows of `routine` on n elements, in GB/s of x read.
fn row(routine: &'static str, n: usize, figures: Res<Figures>) -> Row {
    Row {
        routine,
        shape: format!("n={n}"),
        pipeline: pipeline(),
        work: 4.0 * n as f64,
        unit: "GB/s",
        figures,
    }
}

pub fn bench_snrm2(n: usize, runs: usize) -> Row {
    row("snrm2", n, snrm2(n, runs))
}

pub fn bench_isamax(n: usize, runs: usize) -> Row {
    row("isamax", n, isamax(n, runs))
}

/// Times `call` (which writes its result through the pointer it is given) on host and on
/// device-resident x; `err_of` judges a result against `bound`. The result goes to host memory,
/// so each call returns once it has been read back; it starts as NaN so that a call that stored
/// nothing is seen. `cpu`: the CPU BLAS's time for the same call.
fn timed<R: Elem>(
    x: &[f32],
    runs: usize,
    call: impl Fn(*const f32, &mut R, &str) -> Res<()>,
    err_of: impl Fn(R) -> f64,
    bound: f64,
    cpu: Option<f64>,
) -> Res<Figures> {
    let mut r = R::NAN;
    call(x.as_ptr(), &mut r, "host")?;
    let host_err = within("host", err_of(r), bound)?;
    let host = median_time(runs, || call(x.as_ptr(), &mut r, "host"))?;
    let dx = Device::upload(x)?;
    let mut rd = R::NAN;
    let (timed, read) = device_time(
        runs,
        || Ok(()),
        || {
            rd = R::NAN;
            call(dx.f(), &mut rd, "device")?;
            sync()?;
            Ok(rd)
        },
    )?;
    let device_err = within("device", err_of(rd), bound)?;
    finished(&read, rd)?;
    Ok(Figures {
        device: timed.device,
        kernel: timed.kernel,
        host,
        cpu,
        err: worse(host_err, device_err),
        bound,
    })
}

fn snrm2(n: usize, runs: usize) -> Res<Figures> {
    let x = fill(n, 9);
    let exact = x.iter().map(|&v| v as f64 * v as f64).sum::<f64>().sqrt();
    // docs/api.md, Accuracy: snrm2 within ((n+1)/2 + 3)u relative of the exact norm.
    let bound = ((n + 1) as f64 / 2.0 + 3.0) * U;
    let call = |x: *const f32, r: &mut f32, on: &str| unsafe {
        check_call(glblasSnrm2(n as i32, x, 1, r), "glblasSnrm2", on)
    };
    let cpu = cpu_time(cpu_blas::<Snrm2>(c"cblas_snrm2"), runs, |f| {
        std::hint::black_box(unsafe { f(n as i32, x.as_ptr(), 1) });
    })?;
    timed(
        &x,
        runs,
        call,
        |r| (r as f64 - exact).abs() / exact,
        bound,
        cpu,
    )
}

fn isamax(n: usize, runs: usize) -> Res<Figures> {
    let x = fill(n, 10);
    // The first index of the largest magnitude (no NaN here), 1-based.
    let (want, _) = x.iter().enumerate().fold((0, -1.0f32), |(w, m), (i, v)| {
        if v.abs() > m {
            (i + 1, v.abs())
        } else {
            (w, m)
        }
    });
    // The index travels as an f64 (exact) so that it is read and compared as the others are.
    let call = |x: *const f32, r: &mut f64, on: &str| {
        let mut index = -1;
        let s = unsafe { glblasIsamax(n as i32, x, 1, &mut index) };
        *r = f64::from(index);
        check_call(s, "glblasIsamax", on)
    };
    // An index is right or wrong: the error is 0 or infinite, the bound 0.
    let err_of = |r: f64| if r == want as f64 { 0.0 } else { f64::INFINITY };
    let cpu = cpu_time(cpu_blas::<Isamax>(c"cblas_isamax"), runs, |f| {
        std::hint::black_box(unsafe { f(n as i32, x.as_ptr(), 1) });
    })?;
    timed(&x, runs, call, err_of, 0.0, cpu)
}
