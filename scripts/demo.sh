#!/usr/bin/env bash
# The main job: builds glblas and runs saxpy, sdot and sgemm on the GL device, printing
# timings, rates and errors against a double-precision CPU reference.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --example bench
./target/release/examples/bench "$@"
