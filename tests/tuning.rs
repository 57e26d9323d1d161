//! The tuner (`glblasTune`) and the tuning tables: a quick search reports its progress, rejects
//! a candidate whose launches the driver dropped (its result wrong), keeps the fastest right
//! parameters for this process, searches the tiled kernel's options in a second stage and small
//! calls' parameters at a quarter of its side, measures gemm's crossover beside the CPU BLAS,
//! searches Level 1's and gemv's workgroups (none of whose sizes may be wrong), and writes all
//! as this device's entry, which the next context reads; small calls take their own parameters; a corrupt table, or one tuned with another driver, is not used, and says why;
//! the device's limits (`GLBLAS_LIMIT_GEMM_ROWS` on llvmpipe-board) bound what the search tries
//! and what a table may set; NOT_SUPPORTED on the fragment pipeline (llvmpipe-gl33). Also
//! `glblasDescribeDevice`. One test: the engine and the environment are the process's.

use std::ffi::{c_char, c_int, CStr};
use std::sync::atomic::{AtomicI32, Ordering};

use glblas::api::*;
use glblas::engine::fault::{self, Fault};
use glblas::engine::tuning::{GemmParams, SmallGemm, Vectors, TILE_OPTIONS};
use glblas::engine::tuning_table::{self, Entry, Key};
use glblas::engine::with_engine;
use glblas::ffi::OperationArg as Op;
use glblas::status::Status;

static DONE: AtomicI32 = AtomicI32::new(-1);
static TOTAL: AtomicI32 = AtomicI32::new(-1);

/// glblasTune's progress: after the first candidate, every launch until the second's end is
/// dropped, so that the second's result is wrong.
extern "C" fn progress(done: c_int, total: c_int) {
    assert!(
        done > DONE.load(Ordering::Relaxed) && done <= total,
        "{done}/{total}"
    );
    DONE.store(done, Ordering::Relaxed);
    TOTAL.store(total, Ordering::Relaxed);
    match done {
        1 => (1..=64).for_each(|i| fault::fail_next(Fault::Drop, i)),
        2 => fault::clear(),
        _ => {}
    }
}

fn describe() -> String {
    let mut text: *const c_char = std::ptr::null();
    assert_eq!(unsafe { glblasDescribeDevice(&mut text) }, Status::Success);
    unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}

#[test]
fn tuning_is_searched_checked_kept_and_read_back() {
    let dir = std::env::temp_dir().join(format!("glblas-tuning-{}", std::process::id()));
    let path = dir.join("cache").join("tuning.txt");
    std::env::set_var("GLBLAS_TUNING", &path);
    assert_eq!(glblasInit(), Status::Success);
    let (info, limits, before, untuned) = with_engine(|e| {
        Ok((
            e.ctx.info.clone(),
            e.limits,
            e.tuning,
            e.tuning_source.clone(),
        ))
    })
    .unwrap();
    // No table yet: the shipped entry for this device, or the defaults; nothing to warn of.
    assert!(
        ["shipped", "defaults"].contains(&untuned.as_str()),
        "{untuned}"
    );
    assert!(tuning_table::load(&info, &limits).warning.is_none());
    let text = describe();
    assert!(text.contains(&info.renderer) && text.contains(&format!("tuning:        {untuned}")));
    // Single precision's search from a tiled kernel (within every configuration's limits), so
    // that its second stage, the tiles' options, has one to start from even where the quick
    // search tries no tiled kernel (a software rasterizer's).
    let tiled = GemmParams::tiled([4, 4]);
    with_engine(|e| {
        e.tuning.gemm[0] = tiled;
        Ok(())
    })
    .unwrap();

    let mut summary: *const c_char = std::ptr::null();
    let status = unsafe { glblasTune(1, 120.0, Some(progress), &mut summary) };
    if !info.compute {
        assert_eq!(status, Status::NotSupported);
        assert!(!path.exists());
        return;
    }
    assert_eq!(status, Status::Success);
    let summary = unsafe { CStr::from_ptr(summary) }
        .to_string_lossy()
        .into_owned();
    println!("{summary}");
    assert!(
        summary
            .lines()
            .nth(1)
            .unwrap()
            .contains("1 wrong and rejected"),
        "{summary}"
    );
    assert!(!summary.contains("left at the time limit"), "{summary}");
    // The small calls' search, at a quarter of the main one's side (at least 256).
    let small_line = summary
        .lines()
        .skip(2)
        .any(|l| l.starts_with("  sgemm n = "));
    assert!(small_line, "{summary}");
    assert_eq!(DONE.load(Ordering::Relaxed), TOTAL.load(Ordering::Relaxed));
    // The second stage built the tiled kernel with each option the device allows: unrolling
    // only where the compiler honours the hint (NVIDIA's).
    let programs = with_engine(|e| Ok(e.programs.names())).unwrap();
    for (name, option) in TILE_OPTIONS {
        let built = programs
            .iter()
            .any(|p| p.starts_with("gemm.comp") && p.contains(option) && p.contains("TILED"));
        let allowed = name != "unroll" || info.unroll_hints;
        assert_eq!(built, allowed, "{option} programs: {programs:?}");
    }
    // The kernels over vectors' workgroups, each size right.
    for kind in Vectors::ALL {
        let line = summary
            .lines()
            .find(|l| l.starts_with(&format!("  {} (", kind.name())));
        let line = line.unwrap_or_else(|| panic!("no {} line: {summary}", kind.name()));
        assert!(!line.contains("wrong"), "{line}");
    }
    // gemm beside the CPU BLAS, where there is one (OpenBLAS, in the tests).
    let cpu = glblas::blas::cpu::resolve(c"cblas_sgemm").is_some();
    assert_eq!(summary.contains("sgemm beside "), cpu, "{summary}");

    // The search's choice is the device's now, and its table entry.
    let tuned = with_engine(|e| Ok(e.tuning)).unwrap();
    assert_eq!(tuned.crossover[0].is_some(), cpu);
    let key = Key::of(&info);
    let entries = tuning_table::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(entries, [Entry::new(&key, &tuned)]);
    // Each within the device's limits.
    for (p, size) in tuned.gemm.iter().zip([4, 8]) {
        assert!(tuning_table::allowed(p, &info, &limits, size), "{p:?}");
    }
    if !info.fp64 {
        assert_eq!(tuned.gemm[1], before.gemm[1]);
    }

    // The next context reads it.
    assert_eq!(glblasShutdown(), Status::Success);
    assert_eq!(glblasInit(), Status::Success);
    let (again, source) = with_engine(|e| Ok((e.tuning, e.tuning_source.clone()))).unwrap();
    assert_eq!(again, tuned);
    assert_eq!(source, path.display().to_string());
    assert!(describe().contains(&tuning_table::describe(&tuned.gemm[0])));
    // The rates measured set its dispatch budget: half of them, over the default 100 ms.
    let rate = tuned.rates.gemm[0].expect("single precision's measured rate");
    let level1 = tuned.rates.level1.expect("Level 1's measured rate");
    let budget = with_engine(|e| Ok(e.limits)).unwrap();
    assert_eq!(budget.dispatch_flops[0], 0.5 * rate as f64 * 1e3 * 100.0);
    assert_eq!(budget.dispatch_bytes, 0.5 * level1 as f64 * 1e3 * 100.0);

    // Tables that are not used, and why.
    let load = || tuning_table::load(&info, &limits);
    std::fs::write(&path, "glblas tuning table 1\ndevice\nvendor\n").unwrap();
    let corrupt = load();
    assert!(corrupt.warning.unwrap().contains("is corrupt"));
    assert_eq!((corrupt.tuning, corrupt.source), (before, untuned));
    let other = Key {
        driver: "4.6 (Core Profile) Mesa 99.0.0".into(),
        ..key.clone()
    };
    std::fs::write(&path, tuning_table::format(&[Entry::new(&other, &tuned)])).unwrap();
    let foreign = load();
    let why = foreign.warning.unwrap();
    assert!(
        why.contains("with driver \"4.6 (Core Profile) Mesa 99.0.0\""),
        "{why}"
    );
    assert_eq!(foreign.tuning, before);
    // An entry for this device whose blocks its limits do not allow: the defaults' instead.
    let large = Entry::new(&key, &tuned);
    let text = tuning_table::format(&[large]).replace(
        &format!("gemm single {}", tuning_table::describe(&tuned.gemm[0])),
        "gemm single blocked group 8 block 16 16",
    );
    std::fs::write(&path, text).unwrap();
    let limited = load();
    assert!(limited.warning.is_none());
    let wide = limits.gemm_rows >= 16 && limits.gemm_tiled != Some(true);
    assert_eq!(limited.tuning.gemm[0].block == [16, 16], wide);
    std::env::set_var("GLBLAS_TUNING", "off");
    assert_eq!(load().source, "defaults (GLBLAS_TUNING=off)");
    std::fs::remove_dir_all(&dir).unwrap();
    small_calls_take_their_own_parameters();
}

/// With parameters for small calls, a call whose C is below their size takes them and a larger
/// one the main parameters (told apart by their workgroup side), both right.
fn small_calls_take_their_own_parameters() {
    assert_eq!(glblasShutdown(), Status::Success);
    assert_eq!(glblasInit(), Status::Success);
    let (main, small) = (GemmParams::blocked([4, 4]), GemmParams::blocked([4, 4]));
    let small = GemmParams { group: 16, ..small };
    with_engine(|e| {
        e.tuning.gemm[0] = main;
        e.tuning.gemm_small[0] = Some(SmallGemm {
            params: small,
            below: 100 * 100,
        });
        Ok(())
    })
    .unwrap();
    for (n, group) in [(64, 16), (128, 8)] {
        // Whole numbers from -2 to 2: every product exact.
        let a: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32 - 2.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 3) as f32 - 1.0).collect();
        let mut c = vec![0.0f32; n * n];
        let ni = n as i32;
        let (ap, bp, cp) = (a.as_ptr(), b.as_ptr(), c.as_mut_ptr());
        let status =
            unsafe { glblasSgemm(Op(0), Op(0), ni, ni, ni, 1.0, ap, ni, bp, ni, 0.0, cp, ni) };
        assert_eq!(status, Status::Success);
        for (j, i) in (0..n).flat_map(|j| (0..n).map(move |i| (j, i))) {
            let want: f32 = (0..n).map(|l| a[i + l * n] * b[l + j * n]).sum();
            assert_eq!(c[i + j * n], want, "n = {n}, ({i}, {j})");
        }
        let programs = with_engine(|e| Ok(e.programs.names())).unwrap();
        let built = programs.iter().filter(|p| p.starts_with("gemm.comp"));
        let groups: Vec<i64> = built
            .filter_map(|p| {
                p.split("#define GROUP ")
                    .nth(1)?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .collect();
        assert!(groups.contains(&group), "n = {n}: {programs:?}");
    }
    let programs = with_engine(|e| Ok(e.programs.names())).unwrap();
    assert_eq!(
        programs
            .iter()
            .filter(|p| p.starts_with("gemm.comp"))
            .count(),
        2,
        "{programs:?}"
    );
}
