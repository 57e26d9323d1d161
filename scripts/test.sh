#!/usr/bin/env bash
# Runs every glblas test from a fresh clone: installs prerequisites, builds, checks that the
# committed header matches the code, runs lints, then the suites on each GL configuration of
# scripts/drivers.sh, one after another (the machine has 2 cores; Mesa's shader cache stays
# warm from one to the next).
#
# GLBLAS_TEST_DRIVER=<name> (or a space-separated list) runs only those configurations. What a
# configuration runs (see suite below):
#   llvmpipe: everything: the Rust tests (which include the C programs and the GL regression
#     tests) and pytest (the Python tests and the netlib conformance programs, and
#     `pip install .` into a fresh venv);
#   llvmpipe-gles, llvmpipe-board, llvmpipe-gl33, which differ from llvmpipe only in what the
#     context presents: the Rust tests whose work depends on that (all but HOST_SIDE_TESTS and
#     OWN_CONTEXT_TESTS; on llvmpipe-gles, GLES_LEFT_OUT too), and PYTHON_SUITES;
#   zink, whose difference is the driver (asynchronous, explicit barriers, shaders through
#     SPIR-V): the same, with blas_fault and deferred_compiles (lavapipe compiles on its queue
#     thread: a compile in flight at exit once crashed the first) and without ZINK_LEFT_OUT
#     (the runs of operands beyond one window: tests/tiling.rs takes the same tiled paths; the
#     checked results' and the tuner's tests, whose logic is the host's); PYTHON_SUITES;
#   none runs what repeated_tests names, and only llvmpipe runs netlib's CBLAS testers
#     (BUT_CBLAS_TESTERS) and c_tests' test_routine_table;
#   zink-gles, virgl: the C programs, the API tests, the GL regression tests, the large threaded
#     workload, and PYTHON_SUITES (virgl without the Python tiled-path tests, which once
#     crashed zink-gles, and with the tiled gemm kernel's test, for its doubles);
#   zink, zink-gles, virgl leave out c_tests' scenes_with_slow_fence_signals, which provokes a
#     race in llvmpipe's own rasterizer (docs/drivers.md, "llvmpipe's scene fences"): lavapipe,
#     under zink, has the same race where glblas cannot hold its fences, and under virgl the
#     rasterizer runs in the server, out of the shim's reach;
#   zink, zink-gles run lavapipe without rasterizer threads (LP_NUM_THREADS=0), so that this
#     race, which is lavapipe's, cannot crash a test program (docs/drivers.md, "lavapipe's
#     scene fences, under zink").
#   the boards' own drivers under Mesa's noop drm-shims (v3d-4.2, v3d-7.1, mali-g52, mali-g610,
#     adreno-630, adreno-750; scripts/board_drivers/ builds them once per machine), where jobs do
#     nothing: every program compiled, with its compiler statistics (target/board_stats/), and
#     SHIM_TESTS, whose results do not depend on a job.
# The real clients' suites (client_tests: LAPACK's, numpy's, scipy's and ScaLAPACK's own
# testers under the preload, and the recipes of the README and docs/substitution.md) run on
# llvmpipe: on zink, the recipes and ScaLAPACK's testers took 559 s and numpy.linalg's was still
# running after 900 s (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --exit-code include/ || { echo "include/glblas.h is stale: commit the regenerated header" >&2; exit 1; }
fi
python3 scripts/generate.py --check
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
# Every test binary, built once for all configurations.
cargo test --release --no-run

source scripts/drivers.sh

# The tests read no user's tuning table (a table in target/ that nothing writes; the shipped ones
# still serve): its parameters and crossovers would change the kernels and routes they expect.
export GLBLAS_TUNING="$PWD/target/tuning.txt"

# Mesa's shader cache in the build tree, whatever the machine's home directory or environment
# say: every test process compiles the shaders it uses, and the cache lets a later process load
# them instead (glblasWarm's 103 programs: 165 s of compiles on llvmpipe without it, 2 s with).
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-$PWD/target/mesa_shader_cache}"
export MESA_SHADER_CACHE_DISABLE=false
# llvmpipe and lavapipe (under zink, and virgl's server) compile shaders without LLVM's
# optimization passes: the tests' launches are small, and most of each configuration's time
# went to compiling them (tests/level3.rs and tests/complex.rs from an empty cache: 291 s with
# the passes, 178 s without). The benchmark keeps them.
export GALLIVM_PERF=nopt

# The fuzz and fault tests drawn from the routines' descriptions, and the memory exports' fuzz:
# the rules they check are the host's, and their random calls compile programs no other test
# uses (on llvmpipe from an empty cache, fuzz_described 250 s and fault_described 130 s), so
# they run on llvmpipe only.
DESCRIBED_TESTS="fault_described fuzz_described fuzz_memory"
# The Rust tests of host-side machinery, whose work is the same whatever the context presents:
# argument checks, the CPU BLAS's loading and its answers after injected faults, panics, fork.
HOST_SIDE_TESTS="$DESCRIBED_TESTS blas_cpu_soname blas_fault blas_panic blas_wheel_names
  concurrency_blas deferred_compiles fault_context fork fork_trace no_device gles30
  wrapped_increments"
# The Rust tests that make their own context (the fragment pipeline on llvmpipe's desktop GL
# and GLES), whatever the configuration's.
OWN_CONTEXT_TESTS="fragment_gemm fragment_vectors fragment_vectors_gles"
# The tests the boards' drivers under Mesa's noop drm-shims run, whose results do not depend on
# a job running: the device's report, and no program compiled after glblasWarm.
SHIM_TESTS="device_info warm"
# The tests that check a board driver's own behaviour, on its configuration only (tests_but
# leaves them out): freedreno's fp64, which its compiler emulates.
SHIM_ONLY_TESTS="emulated_fp64"
# The host-side tests zink runs: lavapipe compiles shaders on its queue thread, and a compile
# still in flight at exit crashed blas_fault's process once; deferred_compiles waits on them.
ZINK_HOST_SIDE_TESTS="blas_fault deferred_compiles"
# The checked results' test is left out on zink (70 s in a CI-style run, the most of any
# configuration): its checks are the host's, lavapipe rounds as llvmpipe does, and netlib's
# testers run there with the check on, which is where a false alarm would show. So is the
# tuner's (49 s): its search is host logic over the gemm family's members, which
# tests/gemm_family.rs checks on every configuration; the device's bounds on it are
# llvmpipe-board's to check, and its refusal on the fragment pipeline llvmpipe-gl33's. So is
# the sweep after glblasWarm (tests/warm.rs, 145 s, the most of any test binary there): zink-gles
# runs it through the same compiler and the same workarounds (uniform_variants selects its
# programs), and which programs a double call selects is the rule a single one's follows, which
# llvmpipe's run checks in every precision.
ZINK_LEFT_OUT="beyond_one_window verify_described tuning warm"
# What llvmpipe-gles leaves out, for the same reasons (98 s of a CI-style run): the checked
# results', the tuner's, and the runs of operands beyond one window, whose tiled paths
# tests/tiling.rs takes there (the fragment pipeline's, llvmpipe-gl33's, are its own).
GLES_LEFT_OUT="beyond_one_window verify_described tuning"
# cargo's --skip arguments (which match by substring) for the runs that repeat, on
# configuration $1, what other runs do:
# - c_tests' gles_* take GLES and its gl33_* desktop GL 3.3, whatever the configuration's API:
#   on llvmpipe's emulations they are llvmpipe-gles's plain runs and llvmpipe's gl33_* runs,
#   on zink and zink-gles, zink-gles's plain runs and zink's gl33_* runs;
# - on virgl, the runs with small launch limits or windows (c_tests' *small_limits_*,
#   complex.rs's *_beyond_one_window) repeat the other runs' commands in thousands of
#   launches, each a round trip to the host (300 s for one C program, 33 s on llvmpipe;
#   complex syrk's 220 s), where tests/tiling.rs takes the same tiled paths;
# - on zink, the runs of operands beyond one window (tests/beyond_one_window.rs and complex.rs's
#   *_beyond_one_window): tests/tiling.rs takes the same tiled paths there (complex's took 74 s
#   of its 98 in a CI-style run, compiling programs nothing else on zink used);
# - on virgl, c_tests' gles_* too: the guest's GLES shaders reach the host renderer as the same
#   TGSI the desktop ones do, and GLES itself is llvmpipe-gles's and zink-gles's to check;
# - but on llvmpipe, c_tests' gemm_tiled_small_limits_*: the tiled kernel's passes over k are
#   the kernel's own logic, whose commands and barriers are the other small-limit runs' (the
#   tiled kernel without the limits runs everywhere), and it took about 300 s over the
#   configurations of a CI-style run.
repeated_tests() {
  case "$1" in
    llvmpipe-*) echo --skip gles_test_ --skip gl33_ --skip gemm_tiled_small_limits_ ;;
    zink) echo --skip gles_test_ --skip _beyond_one_window --skip gemm_tiled_small_limits_ ;;
    zink-gles) echo --skip gles_test_ --skip gl33_ --skip gemm_tiled_small_limits_ ;;
    virgl) echo --skip small_limits_ --skip _beyond_one_window --skip gles_test_ ;;
  esac
}
# The tests of tests/ but those named and SHIM_ONLY_TESTS.
tests_but() {
  local name names=()
  set -- "$@" $SHIM_ONLY_TESTS
  for name in "$@"; do
    [ -f "tests/$name.rs" ] || { echo "test.sh names tests/$name.rs, which is gone" >&2; return 1; }
  done
  for name in tests/*.rs; do
    name="$(basename "$name" .rs)"
    case " $* " in *" $name "*) ;; *) names+=("$name") ;; esac
  done
  echo "${names[@]}"
}

# The test binaries that take longest, started first so that none is left running alone at the
# end (tests/ not named here follow, in name order). complex before warm: with warm beside
# c_tests instead, warm compiled alone what complex and c_tests had compiled together into the
# shader cache, and took 443 s on llvmpipe against 183.
LONGEST_TESTS="c_tests complex warm fuzz_described verify_described level3 gemm_family tuning
  leaks beyond_one_window fault_described trsm_backward_error blas_fault fragment_gemm api"

# Runs the test binaries named before "--" (tests/ names, lib for the unit tests) with the
# arguments after it, two at a time, each one's output printed whole when it ends; fails if
# any failed. Two at a time, as pytest's suites run: one binary alone often
# left a core idle (a single test; on virgl, a lone client and the server waiting on each
# other's round trips: netlib's xblat3s took 70 s alone, 19-21 s each with two at once).
cargo_tests() {
  local names=() ordered=() name dir running=0 status=0 longest
  while [ "$1" != -- ]; do names+=("$1"); shift; done
  shift
  longest=" $(echo $LONGEST_TESTS) "
  for name in $longest; do
    case " ${names[*]} " in *" $name "*) ordered+=("$name") ;; esac
  done
  for name in "${names[@]}"; do
    case "$longest" in *" $name "*) ;; *) ordered+=("$name") ;; esac
  done
  dir="$(mktemp -d)"
  for name in "${ordered[@]}"; do
    if [ "$running" -ge 2 ]; then
      wait -n || true
      running=$((running - 1))
    fi
    (
      case "$name" in
        lib) target=(--lib) ;;
        *) target=(--test "$name") ;;
      esac
      start=$SECONDS
      cargo test --release "${target[@]}" -- "$@" >"$dir/$name.log" 2>&1 \
        || touch "$dir/$name.failed"
      echo "=== time: $name $((SECONDS - start)) s" >>"$dir/$name.log"
      flock "$dir" cat "$dir/$name.log"
    ) &
    running=$((running + 1))
  done
  wait
  for name in "${ordered[@]}"; do
    [ ! -e "$dir/$name.failed" ] || { echo "failed: $name" >&2; status=1; }
  done
  rm -rf "$dir"
  return $status
}

# pytest runs without llvmpipe's rasterizer threads on the llvmpipe configurations (the Rust
# tests run with them): the netlib programs and the client suites make hundreds of thousands of
# tiny calls, and waking the threads for each slowed them (xblat3z's test: 9.2 s with them, 4.7 s
# without; xlintstd's input 700 s against 105 s). The GL then runs on the calling thread, as
# lavapipe's does on zink, so pytest spreads its tests over the machine's cores: one process at
# a time left a core idle, and with the threads, two processes would contend for both.
parallel=(-n "$(nproc)")
# pytest's suites on every configuration but llvmpipe: the Python package's other tests call the
# kernels the Rust tests check there.
PYTHON_SUITES="python_tests/test_netlib_conformance.py python_tests/test_api.py
  python_tests/test_tiled_paths.py"
# ...without netlib's CBLAS testers (x?cblat*): with the Fortran testers' inputs (the same
# sizes and scalars), they make the Fortran testers' calls in column-major order and the same
# calls, mapped on the host, in row-major order, so on every configuration but llvmpipe their
# GL work is the Fortran testers' again (on llvmpipe, one process at a time, the CBLAS Level 3
# testers took 357 s, the Fortran ones 458 s).
BUT_CBLAS_TESTERS="not cblat"
# ...and on zink and virgl without the complex Level 3 testers (xblat3c, xblat3z):
# tests/complex.rs runs the complex Level 3 kernels there, on larger operands too, and every
# program the testers' small shapes compile more is compiled there from an empty cache of the
# driver's own (on virgl in the host renderer, one at a time: xblat3z took 208 of virgl's 534 s
# in a CI-style run; zink's pytest took 177 s, of which xblat3c and xblat3z are the longest two
# with a warm cache, 22 and 27 s); their argument checks are the host's, as on every
# configuration, and zink-gles runs xblat3c through zink.
BUT_COMPLEX_LEVEL3="$BUT_CBLAS_TESTERS and not xblat3c and not xblat3z"

# The tests configuration $1 runs, all of them even when one fails; fails if any did.
suite() {
  local status=0 skip
  read -ra skip <<<"$(repeated_tests "$1")"
  case "$1" in
    llvmpipe*) ;;
    *) skip+=(--skip scenes_with_slow_fence_signals) ;;
  esac
  # c_tests' sweep of every routine in every precision from C (test_routine_table) checks the
  # C interface against the reference BLAS, the host's work, as DESCRIBED_TESTS do; its calls
  # compile programs of their own (152 s on llvmpipe from an empty cache, 56 s after
  # fuzz_described and complex had run), where each configuration's kernels are complex's and
  # level3's to check.
  case "$1" in
    llvmpipe) ;;
    *) skip+=(--skip test_routine_table) ;;
  esac
  # c_tests' test_egl_threads, whose program renders with a context of its own on one thread
  # while glblas's works on another, fails on virgl in a quarter of runs under load (the host
  # renderer: "Illegal resource", then the client aborts): Mesa's vtest client (not the
  # virtio-gpu one a VM's guest uses) is not thread-safe across contexts. A program with two
  # threads each copying buffers on a context of its own fails so without glblas, and passes
  # when a lock serializes them (docs/drivers.md).
  [ "$1" != virgl ] || skip+=(--skip test_egl_threads)
  # On virgl, complex.rs's double-complex rank-k updates (zsyrk, zherk, zsyr2k, zher2k: 152 s of
  # its 297 in a CI-style run, the longest test there, compiling a program per triangle,
  # transposition and routine in the host renderer): their rules are the single-complex ones'
  # (csyrk_..., run there), one shader source, and what virgl does to doubles (its guest's
  # NIR-to-TGSI) the zgemm, zsymm, zhemm, ztrmm, ztrsm and tiled dgemm tests take there.
  [ "$1" != virgl ] || skip+=(--skip zsyrk_zherk_zsyr2k_zher2k)
  # lavapipe rasterizes in its queue thread then, which signals and frees each scene's fence
  # itself. suite runs in a pipeline's subshell, so this ends with it.
  case "$1" in
    zink*) export LP_NUM_THREADS=0 ;;
  esac
  case "$1" in
    zink-gles | virgl)
      # On virgl every launch and read-back is a round trip to the host renderer: a C program
      # takes many times as long as on llvmpipe (the one with the smallest launch limits, no
      # longer run there, 300 s against 33), against the C tests' default limit of 300 s.
      [ "$1" = zink-gles ] || export GLBLAS_C_TEST_TIMEOUT=900
      local tests="c_tests api uniform_variants settled_writes workload deferred_compiles
        warm tiling reductions complex kernel_time device_lost corrupt_results"
      # On virgl, warm compiles every shader in the server, on one core: 924 and 1080 s in two
      # CI-style runs, most of virgl's time and of the run's margin. Its sweep's programs on a
      # device with storage-block operands are checked on llvmpipe-board.
      [ "$1" = zink-gles ] || tests="${tests/ warm / }"
      # On virgl, the tiled kernel's dgemm too (tests/gemm_tiled.rs, 13 s): the guest's
      # NIR-to-TGSI, which no other configuration runs, computed garbage for its shared tiles of
      # doubles, and no test above takes that kernel for doubles.
      [ "$1" = zink-gles ] || tests="$tests gemm_tiled"
      # On virgl, Level 1's and gemv's kernels in every workgroup size the tuner may choose
      # (tests/vector_groups.rs, 21 s): the reductions' shared arrays go through that same
      # translation.
      [ "$1" = zink-gles ] || tests="$tests vector_groups"
      cargo_tests $tests -- "${skip[@]}" || status=1
      unset GLBLAS_C_TEST_TIMEOUT
      local suites="$PYTHON_SUITES"
      local netlib="$BUT_COMPLEX_LEVEL3"
      [ "$1" = virgl ] || netlib="$BUT_CBLAS_TESTERS"
      [ "$1" = zink-gles ] || suites="${suites/python_tests\/test_tiled_paths.py/}"
      python3 -m pytest -q "${parallel[@]}" -k "$netlib" $suites || status=1
      ;;
    llvmpipe-*)
      local tests left_out=""
      [ "$1" != llvmpipe-gles ] || left_out="$GLES_LEFT_OUT"
      tests="$(tests_but $HOST_SIDE_TESTS $OWN_CONTEXT_TESTS $left_out)" || return 1
      cargo_tests $tests -- "${skip[@]}" || status=1
      LP_NUM_THREADS=0 python3 -m pytest -q "${parallel[@]}" -k "$BUT_CBLAS_TESTERS" \
        $PYTHON_SUITES || status=1
      ;;
    llvmpipe)
      local tests
      tests="$(tests_but)" || return 1
      cargo_tests lib $tests -- "${skip[@]}" || status=1
      # The packaging test (pip install . into a fresh venv) builds the crate from scratch: once
      # per run.
      GLBLAS_TEST_INSTALL=1 LP_NUM_THREADS=0 \
        python3 -m pytest -q "${parallel[@]}" python_tests || status=1
      LP_NUM_THREADS=0 python3 -m pytest -q "${parallel[@]}" client_tests || status=1
      ;;
    v3d-* | mali-* | adreno-*)
      # Jobs do nothing under a noop drm-shim, so what runs here depends on no result: every
      # program compiles, with the driver's statistics for each (written to
      # target/board_stats/), and the tests of what the device's report says and of which
      # programs its calls select.
      # The tests load the programs the statistics run compiled, from its shader cache.
      mkdir -p target/board_stats
      export MESA_SHADER_CACHE_DIR="$PWD/target/board_stats/$1.cache"
      python3 scripts/board_drivers/stats.py "target/board_stats/$1.md" "$MESA_SHADER_CACHE_DIR" \
        || status=1
      local tests="$SHIM_TESTS" runner
      [ "$1" != adreno-750 ] || tests="$tests emulated_fp64"
      # rustc (which cargo runs) hangs under the shim's preload: cargo runs without it, and
      # runs each test binary with it (cargo's runner).
      runner="CARGO_TARGET_$(LD_PRELOAD="" rustc -vV | sed -n 's/^host: //p' | tr 'a-z-' 'A-Z_')_RUNNER"
      export "$runner=env LD_PRELOAD=$LD_PRELOAD"
      LD_PRELOAD="" cargo_tests $tests -- "${skip[@]}" || status=1
      ;;
    zink)
      local tests
      tests="$(tests_but $HOST_SIDE_TESTS $OWN_CONTEXT_TESTS $ZINK_LEFT_OUT)" || return 1
      cargo_tests $tests $ZINK_HOST_SIDE_TESTS -- "${skip[@]}" || status=1
      python3 -m pytest -q "${parallel[@]}" -k "$BUT_COMPLEX_LEVEL3" $PYTHON_SUITES || status=1
      ;;
  esac
  return $status
}

summary=()
failed=0
for driver in ${GLBLAS_TEST_DRIVER:-$DRIVERS $SHIM_DRIVERS}; do
  echo "=== $driver"
  log="$(mktemp)"
  start=$SECONDS
  status=0
  driver_env "$driver"
  suite "$driver" 2>&1 | tee "$log" || status=1
  driver_stop || status=1
  # Counts from cargo's "test result:" lines and pytest's last line.
  counts="$(awk '
    /^test result:/ { p += $4; f += $6 }
    /^(=+ )?[0-9]+ (passed|failed)/ && /in [0-9.]+s/ {
      for (i = 1; i < NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i }
    }
    END { printf "%d passed, %d failed", p, f }' "$log")"
  rm -f "$log"
  [ "$status" -eq 0 ] || failed=1
  summary+=("$(printf '%-14s %s in %ds%s%s' "$driver" "$counts" $((SECONDS - start)) \
    "$(case "$driver" in
      llvmpipe*) ;;
      v3d-* | mali-* | adreno-*) echo ', results not checked: jobs do nothing under the drm-shim' ;;
      *) echo ', scenes_with_slow_fence_signals left out' ;;
    esac)" \
    "$([ "$status" -eq 0 ] || echo ' FAILED')")")
done
echo "=== summary"
printf '%s\n' "${summary[@]}"
exit $failed
