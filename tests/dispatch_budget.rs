//! The dispatch budget (`GLBLAS_LIMIT_DISPATCH_MS`, `Limits::dispatch_flops` and `dispatch_bytes`):
//! under a budget of 5 ms, an sgemm (square, thin, and wide with a packing that moves more bytes
//! than a budget), an strsm's block solve, a saxpy and an sgemv run in at least as many launches as
//! their work takes budgets at the device's assumed rate, with right results (whole numbers:
//! exact); where the device times its kernels, no launch takes longer than the budget. A CPU
//! rasterizer shares the machine's cores with the test binary that `scripts/test.sh` runs beside
//! this one, and its timer queries count the time it was not scheduled: it is allowed three times
//! the budget, and each call is timed in three rounds, the least of their longest launches judged.
//! A single round saw a 22.5 ms sgemm launch on zink; with the neighbour busy throughout, the best
//! of three rounds in a CI-style run read 12.8 ms on llvmpipe-gl33 for a launch of 4.4 ms alone.
//! The overruns this test found read 17.6 ms and more alone: a launch holding more than its budget
//! of work is long in every round.

use glblas::api::*;
use glblas::engine::fault;
use glblas::engine::with_engine;
use glblas::ffi::{DiagArg, FillArg, OperationArg as Op, SideArg};
use glblas::status::Status;

const BUDGET_MS: f64 = 5.0;

const ROUNDS: usize = 3;

/// The launches `call` made, and, where the device times kernels, the least over `ROUNDS`
/// rounds of the longest launch's seconds; after a first call, which compiles the programs
/// (zink's timer queries count a pipeline's creation at its first dispatch).
fn launches(mut call: impl FnMut()) -> (u64, Option<f64>) {
    call();
    let timed = glblasTimeKernels(1) == Status::Success;
    let mut made = Vec::new();
    let mut longest = f64::INFINITY;
    for _ in 0..if timed { ROUNDS } else { 1 } {
        let before = fault::launches();
        call();
        made.push(fault::launches() - before);
        if timed {
            let round = glblas::engine::kernel_time().expect("the kernels' time");
            longest = longest.min(round.longest);
        }
    }
    if timed {
        assert_eq!(glblasTimeKernels(0), Status::Success);
    }
    assert!(made.iter().all(|&m| m == made[0]), "launches: {made:?}");
    (made[0], timed.then_some(longest))
}

/// What a call's launches must keep to: `most` seconds each where timed.
struct Judge {
    most: f64,
}

impl Judge {
    /// `made` launches must be at least `least`, and the longest (where timed) within `most`.
    fn launches(&self, what: &str, (made, longest): (u64, Option<f64>), least: u64) {
        println!("{what}: {made} launches, the longest {longest:?} s");
        assert!(
            made >= least,
            "{what}: {made} launches, {least} budgets of work"
        );
        if let Some(longest) = longest {
            assert!(longest <= self.most, "{what}: a launch of {longest} s");
        }
    }
}

/// An sgemm of small integers (exact), C = A·B with A m×k and B k×n: its launches, and C
/// checked in every `step`-th column.
fn sgemm(m: usize, n: usize, k: usize, step: usize) -> (u64, Option<f64>) {
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32 - 1.0).collect();
    let mut c = vec![0.0f32; m * n];
    let made = launches(|| {
        let (mi, ni, ki) = (m as i32, n as i32, k as i32);
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        let s = unsafe { glblasSgemm(Op(0), Op(0), mi, ni, ki, 1.0, ap, mi, bp, ki, 0.0, cp, mi) };
        assert_eq!(s, Status::Success);
    });
    for j in (0..n).step_by(step) {
        for i in 0..m {
            let want: f32 = (0..k).map(|l| a[i + l * m] * b[l + j * k]).sum();
            assert_eq!(c[i + j * m], want, "sgemm {m}×{n}×{k} ({i}, {j})");
        }
    }
    made
}

#[test]
fn gemm_and_vectors_keep_within_the_dispatch_budget() {
    std::env::set_var("GLBLAS_LIMIT_DISPATCH_MS", format!("{BUDGET_MS}"));
    assert_eq!(glblasInit(), Status::Success);
    let (limits, software, compute) =
        with_engine(|e| Ok((e.limits, e.ctx.info.software, e.ctx.info.compute))).unwrap();
    let judge = Judge {
        most: BUDGET_MS * 1e-3 * if software { 3.0 } else { 1.0 },
    };
    let flop_budgets = |m: usize, n: usize, k: usize| {
        (2.0 * (m * n * k) as f64 / limits.dispatch_flops[0]).ceil() as u64
    };
    judge.launches(
        "sgemm",
        sgemm(512, 512, 512, 37),
        flop_budgets(512, 512, 512),
    );
    // A thin product: its workgroups compute whole tiles, n = 4 padded to a tile's columns,
    // which the budget counts (at n = 4's own flops, zink ran a launch of 17.6 ms).
    let (m, n, k) = (2048, 4, 2048);
    judge.launches("thin sgemm", sgemm(m, n, k, 1), flop_budgets(m, n, k));
    // A wide product: its workgroups' rows each fit the budget with the whole depth, so a pass
    // takes all of k, and packing op(B) for it moves more bytes than a budget's.
    let (m, n, k) = (64, 16384, 512);
    judge.launches("wide sgemm", sgemm(m, n, k, 97), flop_budgets(m, n, k));

    // One diagonal block (64 rows: no update between blocks) for many right-hand sides, solved
    // in launches of columns (each counted at four times its flops, `SOLVE_COST`: at least the
    // flops' budgets). A is lower bidiagonal, all ones, so that the solve of B = A·X in
    // small integers is exact.
    let (m, n) = (64, 16384);
    let mut a = vec![0.0f32; m * m];
    for i in 0..m {
        a[i + i * m] = 1.0;
        if i + 1 < m {
            a[i + 1 + i * m] = 1.0;
        }
    }
    let x: Vec<f32> = (0..m * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let b0: Vec<f32> = (0..m * n)
        .map(|i| x[i] + if i % m > 0 { x[i - 1] } else { 0.0 })
        .collect();
    let mut b = b0.clone();
    let made = launches(|| {
        b.copy_from_slice(&b0);
        let (left, lower, nonunit) = (SideArg(0), FillArg(0), DiagArg(0));
        let (mi, ni) = (m as i32, n as i32);
        let (ap, bp) = (a.as_ptr(), b.as_mut_ptr());
        let s = unsafe { glblasStrsm(left, lower, Op(0), nonunit, mi, ni, 1.0, ap, mi, bp, mi) };
        assert_eq!(s, Status::Success);
    });
    assert!(b == x, "strsm");
    // About m² multiply-adds per column (the fragment pipeline solves on the host).
    let least = ((m * m * n) as f64 / limits.dispatch_flops[0]).floor() as u64;
    judge.launches("strsm", made, if compute { least } else { 0 });

    let len = 1 << 22;
    let x: Vec<f32> = (0..len).map(|i| (i % 7) as f32 - 3.0).collect();
    let y0: Vec<f32> = (0..len).map(|i| (i % 4) as f32).collect();
    let mut y = y0.clone();
    let made = launches(|| {
        y.copy_from_slice(&y0);
        let s = unsafe { glblasSaxpy(len as i32, 2.0, x.as_ptr(), 1, y.as_mut_ptr(), 1) };
        assert_eq!(s, Status::Success);
    });
    assert!((0..len).all(|i| y[i] == 2.0 * x[i] + y0[i]), "saxpy");
    let least = (3.0 * 4.0 * len as f64 / limits.dispatch_bytes).floor() as u64;
    judge.launches("saxpy", made, least);

    // The compute kernel cuts the inner dimension, the fragment one y first (each element's
    // sum whole), then the inner dimension.
    let (m, k) = (2048, 2048);
    let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32 - 2.0).collect();
    let x: Vec<f32> = (0..k).map(|i| (i % 3) as f32 - 1.0).collect();
    let mut y = vec![0.0f32; m];
    let made = launches(|| {
        let (mi, ki, ap, xp, yp) = (m as i32, k as i32, a.as_ptr(), x.as_ptr(), y.as_mut_ptr());
        let s = unsafe { glblasSgemv(Op(0), mi, ki, 1.0, ap, mi, xp, 1, 0.0, yp, 1) };
        assert_eq!(s, Status::Success);
    });
    for (i, got) in y.iter().enumerate() {
        let want: f32 = (0..k).map(|l| a[i + l * m] * x[l]).sum();
        assert_eq!(*got, want, "sgemv, y[{i}]");
    }
    let least = (4.0 * (m * k + k + 2 * m) as f64 / limits.dispatch_bytes).floor() as u64;
    judge.launches("sgemv", made, least);
}
