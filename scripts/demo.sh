#!/usr/bin/env bash
# The main job: builds glblas and runs saxpy, sdot, snrm2, isamax, sgemv, sgemm, dgemm and the
# Level 3 cases on the GL device, printing timings, rates and errors against a double-precision
# CPU reference (examples/bench/; a case whose result is wrong prints as an error, and the exit
# status is then nonzero).
#
#   bash scripts/demo.sh [--driver NAME] [--quick] [--json] [--only ROUTINE,...]
#
# --driver NAME runs on the driver configuration NAME of scripts/drivers.sh (llvmpipe, zink,
# virgl, ...), stopping what it started afterwards even if the benchmark fails; without it, the
# default device. Other arguments go to the benchmark. The exit status is the benchmark's, or 1
# if it passed but driver_stop failed.
set -euo pipefail
cd "$(dirname "$0")/.."
driver=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --driver)
      [ $# -ge 2 ] || { echo "demo.sh: --driver needs a configuration name" >&2; exit 2; }
      driver="$2"
      shift 2
      ;;
    --driver=*) driver="${1#--driver=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if [ -n "$driver" ]; then
  source scripts/drivers.sh
  # Refuse an unknown name before the setup and the build.
  case " $DRIVERS " in
    *" $driver "*) ;;
    *) echo "demo.sh: unknown driver configuration '$driver' (one of: $DRIVERS)" >&2; exit 2 ;;
  esac
fi
bash scripts/setup.sh
cargo build --release --example bench
if [ -z "$driver" ]; then
  exec ./target/release/examples/bench ${args[@]+"${args[@]}"}
fi
# From here on every exit, the benchmark's failure included, goes through driver_stop; its
# failure turns a passing run into a failing one.
_demo_stop() {
  local status=$?
  trap - EXIT
  driver_stop || { [ "$status" -ne 0 ] || status=1; }
  exit "$status"
}
trap _demo_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
driver_env "$driver"
./target/release/examples/bench ${args[@]+"${args[@]}"}
