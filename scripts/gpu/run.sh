#!/usr/bin/env bash
# Runs glblas's tests and benchmarks on a lent GPU machine (issue 14), from the repository's copy
# there, with what scripts/gpu/prepare.sh packed here (.gpu, .gl: see it for the device call).
# Each phase fits one device call (10 minutes) and writes its results under $OUT (at most 8
# files come back), where the call returns them:
#   probe   the machine: GPU, driver, compilers, Python packages, glblas's device (probe.txt)
#   rust    every Rust test binary, three at a time, each under a time limit, the C programs
#           among them (rust.log, and one line per binary in rust.txt); binaries not started
#           within the phase's budget are listed as such
#   python  the Python tests: API, netlib's testers under the preload, LAPACK (python.log)
#   tune    the tuner (python -m glblas tune, at most 2 minutes on a GPU: tune.txt), its table
#           kept on the machine for the later phases and returned (tuning.txt, for
#           tuning/shipped.txt), then the benchmark's table with it (bench.txt)
#   bench   the benchmark's full table (bench.txt; arguments after the phase go to it, e.g.
#           --quick), then scripts/gpu/compare.py: glblas beside PyTorch/cuBLAS (compare.txt,
#           compare.json); both with the tuned table where the tune phase ran on this machine
#   all     the four in one call of at most 560 s, for a lease too short for four: the probe
#           (stopping there if glblas finds no device), compare.py on the idle GPU, the Rust and
#           Python tests side by side, then the benchmark's table in what time is left
#   exec    the command after the phase, in the environment the others run in (a trial of a
#           few tests: TESTS=$TARGET_DIR/release/deps holds the test binaries)
# RUN_ONLY=<substring> limits rust and python to matching binaries and tests (trial runs).
set -uo pipefail
cd "$(dirname "$0")/../.."
phase="${1:-}"
shift || true
OUT="${OUT:-/tmp/gpu-out}"
mkdir -p "$OUT"
[ -f .gpu/paths.env ] || { echo "run.sh: no .gpu/paths.env: run scripts/gpu/prepare.sh here first and carry .gpu" >&2; exit 2; }
source .gpu/paths.env

# NVIDIA's EGL vendor file sits where the carried loader does not look.
nv=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ ! -e "$nv" ] || export __EGL_VENDOR_LIBRARY_FILENAMES="$nv"

# The test binaries name the crate's folder (C sources, shaders for the build script's header
# check) and their target folder by the absolute paths they were built at: recreate both.
if [ ! -e "$MANIFEST_DIR/Cargo.toml" ]; then
  mkdir -p "$(dirname "$MANIFEST_DIR")"
  ln -sfn "$PWD" "$MANIFEST_DIR"
fi
release="$TARGET_DIR/release"
if [ ! -e "$release/libglblas.so" ]; then
  mkdir -p "$TARGET_DIR"
  tar -C "$TARGET_DIR" -xzf .gpu/kit.tar.gz
fi
mkdir -p "$TARGET_DIR/tmp"
# The reference BLAS and LAPACK where the Python tests look for them, gfortran's runtime found
# by the loader, OpenBLAS found by glblas's CPU routing (libopenblas.so.0) in this process tree.
kit=/opt/gpukit
if [ ! -d "$kit" ]; then
  mkdir -p "$kit"
  for f in .gpu/debs/*.deb; do dpkg -x "$f" "$kit"; done
  lib=/usr/lib/x86_64-linux-gnu
  for d in blas lapack; do [ -e "$lib/$d" ] || ln -s "$kit$lib/$d" "$lib/$d"; done
  if ! ldconfig -p | grep -q 'libgfortran\.so\.5 '; then
    echo "$kit$lib" >/etc/ld.so.conf.d/gpukit.conf
    ldconfig
  fi
fi
export LD_LIBRARY_PATH="$kit/usr/lib/x86_64-linux-gnu/openblas-pthread${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The C programs that make their own EGL context compile against the kit's headers and link
# the loaders .gl put in / (the kit's libEGL.so and libGL.so point at them).
for l in EGL GL; do ln -sfn "/usr/lib/x86_64-linux-gnu/lib$l.so.1" "$kit/usr/lib/x86_64-linux-gnu/lib$l.so"; done
export C_INCLUDE_PATH="$kit/usr/include${C_INCLUDE_PATH:+:$C_INCLUDE_PATH}"
export LIBRARY_PATH="$kit/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
export GLBLAS_LIBRARY="$release/libglblas.so" PYTHONUNBUFFERED=1
# The tune phase's table, outside $OUT so that the machine keeps it for later calls while warm.
tuned=/tmp/glblas-tuning.txt
[ ! -f "$tuned" ] || export GLBLAS_TUNING="$tuned"

run_probe() {
    {
      date -u
      nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
      uname -a
      for c in cc gcc rustc cargo python3; do echo "$c: $(command -v $c || echo missing)"; done
      cc --version 2>&1 | head -1
      python3 -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__, torch.cuda.get_device_name(0))' 2>&1
      echo "__EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES-}"
      PYTHONPATH=python timeout 120 python3 -m glblas 2>&1
    } >"$OUT/probe.txt" 2>&1
    local status=$?
    cat "$OUT/probe.txt"
    return $status
}

run_rust() {
    # $1 binaries at a time (the machine has 16 cores; each binary runs its tests on threads of
    # its own), within $2 seconds: each gets what is left, at most 240 s. The llvmpipe test of
    # Mesa's scene fences is left out (it provokes a race in llvmpipe's own rasterizer), and so
    # are the C programs' LeakSanitizer runs (checks of glblas's host memory, which CI makes:
    # under the NVIDIA driver each took over 60 s, and c_tests ran past its 240 s).
    local budget_end=$((SECONDS + $2)) logs t name left
    logs="$(mktemp -d)"
    run_one() {
      local t="$1" name start status result
      name="$(basename "$t")"
      start=$SECONDS
      timeout "$2" "$t" --skip scenes_with_slow_fence_signals --skip leaks_test_ \
        >"$logs/$name.log" 2>&1
      status=$?
      result="$(grep -a '^test result:' "$logs/$name.log" | tail -1)"
      echo "$name: exit $status in $((SECONDS - start)) s; ${result:-no result line}" >"$logs/$name.txt"
    }
    for t in "$release"/deps/*; do
      name="$(basename "$t")"
      [ -x "$t" ] && [ -f "$t" ] || continue
      [ -z "${RUN_ONLY-}" ] || [[ "$name" == *"$RUN_ONLY"* ]] || continue
      while [ "$(jobs -rp | wc -l)" -ge "$1" ]; do wait -n; done
      left=$((budget_end - SECONDS))
      if [ "$left" -lt 20 ]; then
        echo "$name: not started (phase budget spent)" >"$logs/$name.txt"
        continue
      fi
      run_one "$t" "$((left < 240 ? left : 240))" &
    done
    wait
    for f in "$logs"/*.txt; do
      name="$(basename "$f" .txt)"
      [ ! -f "$logs/$name.log" ] || { echo "=== $name"; cat "$logs/$name.log"; } >>"$OUT/rust.log"
    done
    cat "$logs"/*.txt >"$OUT/rust.txt"
    grep -a -h -E '^test .* FAILED$|^---- ' "$logs"/*.log 2>/dev/null | sort -u >>"$OUT/rust.txt"
    rm -rf "$logs"
    cat "$OUT/rust.txt"
}

run_python() {
    # Within $1 seconds; on $2 workers of pytest-xdist where the machine has it (the tests are
    # independent processes' work, and one worker would not finish within a shared call).
    local workers=()
    if [ "$2" -gt 1 ] && python3 -c 'import xdist' 2>/dev/null; then workers=(-n "$2"); fi
    # SIGINT at the limit: pytest then still prints its summary, one line per failure.
    timeout -s INT "$1" python3 -m pytest -q -p no:cacheprovider -rfE --tb=line "${workers[@]}" \
      ${RUN_ONLY:+-k "$RUN_ONLY"} python_tests >"$OUT/python.log" 2>&1
    echo "pytest exit $?" >>"$OUT/python.log"
    tail -40 "$OUT/python.log"
}

run_bench() {
    timeout "$1" "$release/examples/bench" "${@:2}" >"$OUT/bench.txt" 2>&1
    echo "bench exit $?" >>"$OUT/bench.txt"
    cat "$OUT/bench.txt"
}

case "$phase" in
  probe) run_probe ;;
  tune)
    GLBLAS_TUNING="$tuned" PYTHONPATH=python timeout 240 python3 -m glblas tune \
      >"$OUT/tune.txt" 2>&1
    echo "tune exit $?" >>"$OUT/tune.txt"
    cat "$OUT/tune.txt"
    [ ! -f "$tuned" ] || cp "$tuned" "$OUT/tuning.txt"
    GLBLAS_TUNING="$tuned" run_bench 320 "$@"
    ;;
  rust) run_rust 3 540 ;;
  python) run_python 560 1 ;;
  bench)
    run_bench 240 "$@"
    timeout 330 python3 scripts/gpu/compare.py "$release" "$OUT"
    ;;
  all)
    end=$((SECONDS + 560))
    if ! run_probe && grep -q 'no device' "$OUT/probe.txt"; then
      echo "run.sh all: glblas found no device; stopping after the probe" >&2
      exit 1
    fi
    timeout 220 python3 scripts/gpu/compare.py "$release" "$OUT"
    left=$((end - SECONDS - 60))
    run_python "$left" 6 >/dev/null &
    run_rust 4 "$left"
    wait
    tail -5 "$OUT/python.log"
    left=$((end - SECONDS))
    [ "$left" -lt 20 ] || run_bench "$left" "$@"
    ;;
  exec) TESTS="$release/deps" "$@" ;;
  *)
    echo "usage: run.sh probe|tune|rust|python|bench|all|exec" >&2
    exit 2
    ;;
esac
