#!/usr/bin/env bash
# Installs what building and testing glblas needs on a fresh Debian/Ubuntu machine with a Rust
# toolchain: the EGL/GL loaders and Mesa's software driver (llvmpipe) as the fallback device, C and
# C++ compilers, EGL/GL headers and LeakSanitizer's runtime (liblsan0) for the C tests, numpy,
# pytest and pytest-xdist (its tests on every core) for the Python tests, venv for the packaging
# test, pip's scipy (its wheel calls its own OpenBLAS through scipy_-prefixed names, which the
# preload test checks glblas answers); for the drop-in tests, a system BLAS (OpenBLAS, which Debian
# also installs as libblas.so.3), gfortran, Debian's numpy (which calls the plain cblas_* names,
# where pip's numpy calls ILP64 ones), and the reference BLAS with its own test programs (netlib's
# BLAS and CBLAS conformance suites), and the reference LAPACK (a LAPACK program runs on the
# preloaded library); for the real clients' suites (client_tests/), LAPACK's testers
# (liblapack-test), ScaLAPACK's on Open MPI (scalapack-mpi-test, openmpi-bin), R and Octave (the
# recipes of the README and docs/substitution.md; without their recommended packages, which are
# most of their size), and hypothesis, which numpy's own tests import.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
packages="libegl1 libegl-mesa0 libgl1-mesa-dri libgles2 libegl-dev libgl-dev gcc g++ liblsan0
  libopenblas-dev gfortran python3-numpy python3-venv libblas3 libblas-test liblapack3
  liblapack-test scalapack-mpi-test openmpi-bin"
lean="r-base-core octave"
if ! dpkg -s $packages $lean >/dev/null 2>&1; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $lean
fi
if ! python3 -c 'import numpy, pytest, xdist, scipy, hypothesis' 2>/dev/null; then
  # One resolution, so that scipy's wheel is one built for this numpy.
  python3 -m pip install -q numpy pytest pytest-xdist scipy hypothesis
fi
