#!/usr/bin/env bash
# Packs what a run of glblas on a lent GPU machine needs (issue 14), for scripts/gpu/run.sh to
# use there. That machine reaches no package registry and may have no Rust toolchain, so all of
# it is built and fetched here, into two folders .gitignore keeps out of commits:
#   .gpu/kit.tar.gz  the release library, the benchmark, every Rust test binary (stripped) and
#                    one_sgemm (scripts/gpu/one_sgemm.c), laid out as cargo's target/release
#   .gpu/paths.env   the absolute paths the test binaries were built with (the crate's folder,
#                    which the C tests read their sources from, and cargo's target folder)
#   .gpu/debs/       Debian packages run.sh unpacks under /opt/gpukit (never /): the reference
#                    BLAS with netlib's test programs, the reference LAPACK, gfortran's runtime,
#                    OpenBLAS (the CPU BLAS beside the benchmark and the routing crossovers),
#                    and the EGL and GL headers of the C programs that make their own context
#   .gl/             the EGL/GL loaders the device tool's README names, unpacked into / there
# Then each device call carries both and runs, from the repository's root:
#   for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; bash scripts/gpu/run.sh PHASE
# (PHASE: probe, rust, python, bench or all; see run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
cargo build --release --example bench
# Every test binary, as cargo names it for this build.
tests="$(cargo test --release --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("profile", {}).get("test") and m.get("executable"):
        print(m["executable"])')"
target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"

rm -rf .gpu
stage=.gpu/stage/release
mkdir -p "$stage/deps" "$stage/examples" .gpu/debs .gl
cp "$target/release/libglblas.so" "$stage/"
cp "$target/release/examples/bench" "$stage/examples/"
for t in $tests; do cp "$t" "$stage/deps/"; done
cc -O2 -std=c99 -Wall -Werror -Iinclude -Ic_tests -o "$stage/one_sgemm" scripts/gpu/one_sgemm.c \
  -L"$stage" -lglblas -lm -Wl,-rpath,'$ORIGIN'
strip "$stage"/deps/* "$stage/examples/bench" "$stage/one_sgemm"
tar -C .gpu/stage -czf .gpu/kit.tar.gz release
rm -rf .gpu/stage
{
  echo "MANIFEST_DIR=$PWD"
  echo "TARGET_DIR=$target"
} >.gpu/paths.env

(cd .gpu/debs && apt-get download libblas3 libblas-test liblapack3 libgfortran5 libquadmath0 \
  libopenblas0-pthread libegl-dev libgl-dev >/dev/null)
# The loaders, as the device tool's README fetches them (amd64 whatever this machine is).
mkdir -p /tmp/amd64/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
if ! ls .gl/*.deb >/dev/null 2>&1; then
  apt-get $o update -qq
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null)
fi
du -sh .gpu .gl
echo "carry [\".gl\", \".gpu\"]: for f in .gl/*.deb; do dpkg -x \$f /; done; ldconfig; bash scripts/gpu/run.sh PHASE"
