#!/usr/bin/env bash
# Runs every glblas test from a fresh clone: installs prerequisites, builds, checks that the
# committed header matches the code, runs lints, the Rust and C tests (cargo test) and the
# Python tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --exit-code include/ || { echo "include/glblas.h is stale: commit the regenerated header" >&2; exit 1; }
fi
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
python3 -m pytest -q python_tests
