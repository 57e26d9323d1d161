//! Compiles and runs the C test programs in `c_tests/` against the cdylib
//! (`target/<profile>/deps/libglblas.so`) that cargo builds for this test run.
//!
//! Every `c_tests/*.c` is one program (one `#[test]` below; `every_c_file_is_listed`
//! fails if a file is missing from the list). Each is compiled with
//! `-std=c99 -Wall -Wextra -Werror -pedantic`, `-I include -I c_tests`, linked with
//! `-lglblas` and an rpath to the library directory, plus the flags its first line
//! names in a `// link: ...` comment (e.g. `// link: -pthread` or `// link: -lEGL -lGL`).
//! The program must exit with status 0; otherwise the test fails and shows the
//! compiler's or the program's output. Some programs run again with other settings, and
//! under LeakSanitizer, where a leak from glblas fails the test (see below).
//!
//! Run: `cargo test --release --test c_tests` (or `cargo test`).
//! `GLBLAS_C_TEST_TIMEOUT` (seconds, default 300) bounds each program's run time.

mod common;

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// One #[test] per C program; C_TESTS lists the same names.
macro_rules! c_tests {
    ($($name:ident),* $(,)?) => {
        const C_TESTS: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                run_c_test(stringify!($name), stringify!($name), &[]);
            }
        )*
    };
}

c_tests!(
    test_init_status,
    test_memory,
    test_bad_args,
    test_saxpy,
    test_sdot,
    test_level1_more,
    test_sgemm,
    test_sgemm_special,
    test_sgemv,
    test_threads,
    test_shutdown,
    test_egl_context,
    test_egl_threads,
    test_scenes,
    test_every_routine_both_precisions,
    test_complex,
    test_routine_table,
);

// The same programs again with the library's launch limits lowered
// (GLBLAS_LIMIT_TARGET_SIDE: largest render-target side, GLBLAS_LIMIT_WINDOW: most
// elements of one operand window), so that the small operands of the tests take the
// tiled / k-chunked / multi-window paths large operands take; GLBLAS_C_TEST_LIMITS_LOWERED tells
// the programs so (check.h, `limits_lowered`), and test_sgemm leaves out its two largest
// shapes, thousands of launches there.
const SMALL_LIMITS: &[(&str, &str)] = &[
    ("GLBLAS_LIMIT_TARGET_SIDE", "16"),
    ("GLBLAS_LIMIT_WINDOW", "1000"),
    ("GLBLAS_C_TEST_LIMITS_LOWERED", "1"),
];

macro_rules! c_tests_with_env {
    ($env:expr; $($test:ident => $program:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                run_c_test(stringify!($test), stringify!($program), $env);
            }
        )*
    };
}

// The library on OpenGL ES instead of desktop OpenGL (GLBLAS_GL_API=gles); with
// test_egl_context the program's desktop-GL context and the library's GLES context
// (a different bound EGL API) then alternate on one thread.
const GLES: &[(&str, &str)] = &[("GLBLAS_GL_API", "gles")];

c_tests_with_env!(GLES;
    gles_test_sgemm => test_sgemm,
    gles_test_sdot => test_sdot,
    gles_test_saxpy => test_saxpy,
    gles_test_level1_more => test_level1_more,
    gles_test_sgemv => test_sgemv,
    gles_test_egl_context => test_egl_context,
    gles_test_egl_threads => test_egl_threads,
);

// The fragment pipeline where the compute one would run (`common::fragment_env`): sgemm's
// fragment kernel on desktop GL, which otherwise only takes calls too large for compute.
c_tests_with_env!(&common::fragment_env();
    fragment_test_sgemm => test_sgemm,
    fragment_test_sgemm_special => test_sgemm_special,
);

// The compute sgemm's 8×8 blocks (which GPUs get) where llvmpipe gets 16×16.
const GEMM_ROWS_8: &[(&str, &str)] = &[("GLBLAS_LIMIT_GEMM_ROWS", "8")];

c_tests_with_env!(GEMM_ROWS_8;
    gemm_rows_8_test_sgemm => test_sgemm,
    gemm_rows_8_test_sgemm_special => test_sgemm_special,
);

// The compute sgemm's shared-memory tiled kernel (GPUs take it for single precision, llvmpipe
// does not), alone and with the small launch limits (k cut into passes of a few steps).
const GEMM_TILED: &[(&str, &str)] = &[("GLBLAS_GEMM_KERNEL", "tiled")];

c_tests_with_env!(GEMM_TILED;
    gemm_tiled_test_sgemm => test_sgemm,
    gemm_tiled_test_sgemm_special => test_sgemm_special,
);

c_tests_with_env!(&[GEMM_TILED, SMALL_LIMITS].concat();
    gemm_tiled_small_limits_test_sgemm => test_sgemm,
);

c_tests_with_env!(SMALL_LIMITS;
    small_limits_test_sgemm => test_sgemm,
    small_limits_test_sgemm_special => test_sgemm_special,
    small_limits_test_sdot => test_sdot,
    small_limits_test_saxpy => test_saxpy,
    small_limits_test_level1_more => test_level1_more,
    small_limits_test_sgemv => test_sgemv,
    small_limits_test_threads => test_threads,
);

// The GL 3.3 baseline (`common::GL33_BASELINE`: no glTexBufferRange, compute shaders or buffer
// storage, as Mesa presents it when told to): whole-buffer texture views (a window of a buffer
// too large for one copied into a buffer of its own), fragment kernels only; then again with the
// small launch limits.
c_tests_with_env!(common::GL33_BASELINE;
    gl33_test_memory => test_memory,
    gl33_test_saxpy => test_saxpy,
    gl33_test_sdot => test_sdot,
    gl33_test_level1_more => test_level1_more,
    gl33_test_sgemv => test_sgemv,
    gl33_test_sgemm => test_sgemm,
    gl33_test_sgemm_special => test_sgemm_special,
);

c_tests_with_env!(&[common::GL33_BASELINE, SMALL_LIMITS].concat();
    gl33_small_limits_test_saxpy => test_saxpy,
    gl33_small_limits_test_sdot => test_sdot,
    gl33_small_limits_test_sgemv => test_sgemv,
    gl33_small_limits_test_sgemm => test_sgemm,
);

/// llvmpipe's scene-fence race (`src/engine/scene_fences.rs`): `test_scenes` on the fragment
/// pipeline with 16-texel targets (many small scenes in flight), its rasterizer threads slowed
/// inside the fence signal by `c_tests/handlers/slow_broadcast.c`, and freed memory poisoned
/// (`MALLOC_PERTURB_`), so that a fence freed while signalled hangs or crashes the program.
/// Without glblas's held fences it hung in 3 runs out of 3; with them it runs in about 5 s.
#[test]
fn scenes_with_slow_fence_signals() {
    let shim = common::build_handler("slow_broadcast");
    let src_path = manifest_dir().join("c_tests").join("test_scenes.c");
    let exe = compile("slow_fences_test_scenes", &src_path, &[]);
    let preload = shim.to_str().expect("a UTF-8 path");
    let env = [
        &[
            ("LD_PRELOAD", preload),
            ("MALLOC_PERTURB_", "165"),
            ("GLBLAS_LIMIT_TARGET_SIDE", "16"),
        ],
        &common::fragment_env()[..],
    ]
    .concat();
    let output = run("slow_fences_test_scenes", &exe, &env);
    // The shim must have slowed some signals, or this was a plain run.
    let slowed = output
        .lines()
        .find_map(|l| l.strip_prefix("slow_broadcast: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|v| v.parse::<u64>().ok());
    assert!(
        slowed.is_some_and(|v| v > 0),
        "the shim slowed no broadcast:\n{output}"
    );
}

// The programs under LeakSanitizer (compiled with -fsanitize=leak, which tracks every heap
// allocation of the process: the program's, glblas's and the GL driver's). A definite or
// indirect leak with a frame in libglblas.so fails the test; leaks wholly inside Mesa, LLVM or
// EGL are not glblas's, and are only printed. LeakSanitizer rather than valgrind: on llvmpipe
// test_shutdown runs in 0.4 s under it and in about 4 minutes under valgrind, which finds the
// same (nothing definite or indirect).
macro_rules! c_tests_leak_checked {
    ($($test:ident => $program:ident),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                run_leak_checked(stringify!($test), stringify!($program));
            }
        )*
    };
}

c_tests_leak_checked!(
    leaks_test_shutdown => test_shutdown,
    leaks_test_memory => test_memory,
    leaks_test_saxpy => test_saxpy,
    leaks_test_sdot => test_sdot,
    leaks_test_level1_more => test_level1_more,
    leaks_test_sgemv => test_sgemv,
    leaks_test_sgemm => test_sgemm,
    leaks_test_sgemm_special => test_sgemm_special,
    leaks_test_bad_args => test_bad_args,
    leaks_test_threads => test_threads,
);

/// LeakSanitizer reports leaks without failing the program (the test decides whose they are),
/// naming each frame's module.
const LSAN_OPTIONS: &str = "exitcode=0:stack_trace_format='    #%n %p %F (%m)'";

fn run_leak_checked(test: &str, program: &str) {
    let src_path = manifest_dir().join("c_tests").join(format!("{program}.c"));
    let exe = compile(test, &src_path, &["-fsanitize=leak"]);
    let output = run(test, &exe, &[("LSAN_OPTIONS", LSAN_OPTIONS)]);
    let (ours, others): (Vec<&str>, Vec<&str>) = leak_reports(&output)
        .into_iter()
        .partition(|r| r.contains("/libglblas.so)"));
    println!("{test}: {} leak(s) outside glblas", others.len());
    assert!(
        ours.is_empty(),
        "{test}: memory leaked from glblas:\n{}",
        ours.join("\n\n")
    );
}

/// LeakSanitizer's leak reports in a program's output: each a "Direct leak" or "Indirect leak"
/// line and its stack.
fn leak_reports(output: &str) -> Vec<&str> {
    output
        .split("\n\n")
        .map(str::trim)
        .filter(|b| b.starts_with("Direct leak") || b.starts_with("Indirect leak"))
        .collect()
}

/// The leak checker works on this machine, so that a clean report means something: a program
/// that loses one block gets exactly one report, naming the program as the block's allocator.
#[test]
fn leak_checker_reports_a_lost_block() {
    let src = out_dir().join("leak_canary.c");
    fs::write(
        &src,
        "#include <stdlib.h>\n\
         int main(void) { volatile char *p = malloc(77); p[0] = 1; p = 0; return 0; }\n",
    )
    .expect("writing the canary program");
    let exe = compile("leak_canary", &src, &["-fsanitize=leak"]);
    let output = run("leak_canary", &exe, &[("LSAN_OPTIONS", LSAN_OPTIONS)]);
    let reports = leak_reports(&output);
    assert!(
        reports.len() == 1
            && reports[0].starts_with("Direct leak of 77 byte(s)")
            && reports[0].contains("/leak_canary)"),
        "{output}"
    );
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of this test executable: `target/<profile>/deps`.
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.parent()
        .expect("test executable has a parent directory")
        .to_path_buf()
}

/// The cdylib cargo built for this test run. Cargo leaves it in `target/<profile>/deps`
/// (only `cargo build` copies it up to `target/<profile>`, where it may be stale), so
/// that copy comes first.
fn library_dir() -> PathBuf {
    let name = format!(
        "{}glblas{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let deps = deps_dir();
    let mut candidates = vec![deps.clone()];
    if let Some(profile) = deps.parent() {
        candidates.push(profile.to_path_buf());
    }
    for dir in &candidates {
        if dir.join(&name).exists() {
            return dir.clone();
        }
    }
    panic!("{name} not found in {candidates:?}: cargo should build the cdylib for the test run");
}

fn target_triple() -> String {
    let arch = std::env::consts::ARCH;
    let os = std::env::consts::OS;
    let env = if cfg!(target_env = "musl") {
        "musl"
    } else {
        "gnu"
    };
    match os {
        "linux" => format!("{arch}-unknown-linux-{env}"),
        "freebsd" => format!("{arch}-unknown-freebsd"),
        "macos" => format!("{arch}-apple-darwin"),
        _ => format!("{arch}-unknown-{os}"),
    }
}

/// Flags named on the first line of the C file, as `// link: -lEGL -lGL`.
fn link_flags(src: &str) -> Vec<String> {
    let first = src.lines().next().unwrap_or("");
    match first.trim().strip_prefix("// link:") {
        Some(rest) => rest.split_whitespace().map(str::to_owned).collect(),
        None => Vec::new(),
    }
}

/// Compiles `c_tests/<program>.c` into `target/<profile>/c_tests/<test>` and runs it
/// with the extra environment `env`.
fn run_c_test(test: &str, program: &str, env: &[(&str, &str)]) {
    let src_path = manifest_dir().join("c_tests").join(format!("{program}.c"));
    let exe = compile(test, &src_path, &[]);
    run(test, &exe, env);
}

/// The directory the C programs are built and run in: `target/<profile>/c_tests`.
fn out_dir() -> PathBuf {
    let deps = deps_dir();
    let out_dir = deps.parent().unwrap_or(&deps).join("c_tests");
    fs::create_dir_all(&out_dir).expect("creating the C test output directory");
    out_dir
}

/// Compiles and links C program `src_path` (with `extra` compiler flags) into
/// `target/<profile>/c_tests/<test>` and returns its path.
fn compile(test: &str, src_path: &Path, extra: &[&str]) -> PathBuf {
    let root = manifest_dir();
    let src = fs::read_to_string(src_path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", src_path.display()));
    let header = root.join("include").join("glblas.h");
    assert!(
        header.exists(),
        "{} is missing (the build script generates it)",
        header.display()
    );

    let lib_dir = library_dir();
    let out_dir = out_dir();
    let exe = out_dir.join(test);

    // Compile and link in one step. cc gets a scratch directory of its own per
    // program, since the tests run in parallel.
    let cc_dir = out_dir.join(format!("{test}.cc"));
    fs::create_dir_all(&cc_dir).expect("creating the cc scratch directory");
    let triple = target_triple();
    let compiler = cc::Build::new()
        .target(&triple)
        .host(&triple)
        .opt_level(1)
        .debug(true)
        .out_dir(&cc_dir)
        .cargo_metadata(false)
        .cargo_warnings(false)
        .emit_rerun_if_env_changed(false)
        .warnings(false)
        .get_compiler();
    let mut cmd = compiler.to_command();
    cmd.args([
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-D_POSIX_C_SOURCE=200809L",
    ])
    .arg("-I")
    .arg(root.join("include"))
    .arg("-I")
    .arg(root.join("c_tests"))
    .args(extra)
    .arg(src_path)
    .arg("-o")
    .arg(&exe)
    .arg("-L")
    .arg(&lib_dir)
    .arg("-lglblas")
    .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
    // DT_RPATH, which the loader searches before LD_LIBRARY_PATH, where cargo test puts
    // target/<profile> and with it a copy of the library that may be stale.
    .arg("-Wl,--disable-new-dtags")
    .args(link_flags(&src))
    .arg("-lm");
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("running the C compiler {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "compiling {} failed ({}):\n{cmd:?}\n{}{}",
            src_path.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    exe
}

/// Runs C program `exe` with the extra environment `env`, with stdout and stderr into one log
/// file, under a time limit; fails unless it exits with status 0. Returns its output.
fn run(test: &str, exe: &Path, env: &[(&str, &str)]) -> String {
    let root = manifest_dir();
    let log_path = out_dir().join(format!("{test}.log"));
    let timeout = std::env::var("GLBLAS_C_TEST_TIMEOUT")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(300);
    let log = File::create(&log_path).expect("creating the log file");
    let log2 = log.try_clone().expect("cloning the log file handle");
    let start = Instant::now();
    let mut child = Command::new(exe)
        .current_dir(&root)
        // every_routine.h's reference.
        .env("GLBLAS_TEST_REFERENCE_BLAS", common::reference_path())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::from(log))
        .stderr(Stdio::from(log2))
        .spawn()
        .unwrap_or_else(|e| panic!("starting {}: {e}", exe.display()));
    let status = loop {
        if let Some(st) = child.try_wait().expect("waiting for the C test") {
            break Some(st);
        }
        if start.elapsed() > Duration::from_secs(timeout) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let output = fs::read_to_string(&log_path).unwrap_or_default();
    let secs = start.elapsed().as_secs_f64();
    match status {
        Some(st) if st.success() => {
            println!("{test}: passed in {secs:.1} s\n{output}");
            output
        }
        Some(st) => panic!("{test} failed ({st}) after {secs:.1} s; its output:\n{output}"),
        None => panic!(
            "{test} did not finish within {timeout} s (killed); its output so far:\n{output}"
        ),
    }
}

/// Every C program in c_tests/ must be in the list above (so none is silently skipped).
#[test]
fn every_c_file_is_listed() {
    let dir = manifest_dir().join("c_tests");
    let mut missing = Vec::new();
    for entry in fs::read_dir(&dir).expect("reading c_tests/") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if !C_TESTS.contains(&stem.as_str()) {
                missing.push(stem);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "C test programs not listed in tests/c_tests.rs: {missing:?}"
    );
}

/// The header is valid C and C++ (its `extern "C"` guards), with the same warnings as errors,
/// after the system headers a program is likely to include first: it declares only glblas's own
/// names, so nothing in it can clash with theirs (it once declared libc's `fegetenv`).
#[test]
fn header_compiles_as_c_and_cpp_after_system_headers() {
    let root = manifest_dir();
    let triple = target_triple();
    let dir = deps_dir().join("cpp_header_check");
    fs::create_dir_all(&dir).expect("creating the scratch directory");
    for (cpp, lang) in [(false, "c"), (true, "c++")] {
        let compiler = cc::Build::new()
            .cpp(cpp)
            .target(&triple)
            .host(&triple)
            .opt_level(0)
            .out_dir(&dir)
            .cargo_metadata(false)
            .cargo_warnings(false)
            .emit_rerun_if_env_changed(false)
            .warnings(false)
            .get_compiler();
        let mut cmd = compiler.to_command();
        cmd.args(["-x", lang, "-Wall", "-Wextra", "-Werror", "-pedantic"]);
        for system in ["fenv.h", "stdlib.h", "math.h", "dlfcn.h", "pthread.h"] {
            cmd.args(["-include", system]);
        }
        cmd.arg("-fsyntax-only")
            .arg(root.join("include").join("glblas.h"));
        let out = cmd
            .output()
            .unwrap_or_else(|e| panic!("running the compiler {cmd:?}: {e}"));
        assert!(
            out.status.success(),
            "{cmd:?}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
