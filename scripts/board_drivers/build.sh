#!/usr/bin/env bash
# Builds Mesa's drivers for the boards' GPUs with their noop drm-shims: v3d (Raspberry Pi 4 and
# 5), panfrost (Mali) and freedreno (Adreno). Under a shim the driver loads on a machine without
# the hardware and its own compiler builds every shader; jobs do nothing. Prints the install
# prefix (scripts/drivers.sh's board configurations use it).
#
# Mesa's source comes from Debian's source package, the build is cached outside the clone,
# keyed by Mesa's version (GLBLAS_BOARD_DRIVERS, default ~/.cache/glblas/board-drivers), so that
# a machine builds it once (about 4 minutes on 2 cores). The v3d shim gains compute dispatch and
# V3D 7.1 (v3d_noop.patch).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
MESA_VERSION=25.0.7
MESA_SHA256=592272df3cf01e85e7db300c449df5061092574d099da275d19e97ef0510f8a6
root="${GLBLAS_BOARD_DRIVERS:-${XDG_CACHE_HOME:-$HOME/.cache}/glblas/board-drivers}"
prefix="$root/mesa-$MESA_VERSION"
if [ -e "$prefix/built" ]; then
  echo "$prefix"
  exit 0
fi

packages="libdrm-dev libexpat1-dev zlib1g-dev libglvnd-dev flex bison pkg-config xz-utils curl"
if ! dpkg -s $packages >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $packages >&2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
tarball="mesa_$MESA_VERSION.orig.tar.xz"
curl -sSfL -o "$tarball" "http://deb.debian.org/debian/pool/main/m/mesa/$tarball" >&2
echo "$MESA_SHA256  $tarball" | sha256sum -c --quiet - >&2
tar xf "$tarball"
cd "mesa-$MESA_VERSION"
patch -p1 -s <"$here/v3d_noop.patch" >&2
# Mesa 25.0 wants a newer meson than Debian 12's, and mako and PyYAML for its generators.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q meson ninja mako pyyaml packaging >&2
export PATH="$work/venv/bin:$PATH"
rm -rf "$prefix"
# Only what the shims and glblas's headless EGL need: no LLVM, no window systems, no Vulkan.
# At -O1, without assertions: the compilers' statistics for every program are the same as at
# -O3, and the compile step took 206 s here, where the whole -O3 build took about 370 s of a
# CI-style run (most of the board configurations' share).
meson setup build --prefix "$prefix" --libdir lib -Dbuildtype=plain -Dc_args=-O1 -Dcpp_args=-O1 \
  -Db_ndebug=true \
  -Dgallium-drivers=v3d,panfrost,freedreno -Dvulkan-drivers= -Dplatforms= -Dtools=drm-shim \
  -Degl=enabled -Dglvnd=enabled -Dgbm=disabled -Dglx=disabled -Dgles1=disabled -Dgles2=enabled \
  -Dllvm=disabled -Dvalgrind=disabled -Dlibunwind=disabled -Dlmsensors=disabled \
  -Dgallium-va=disabled -Dgallium-vdpau=disabled -Dgallium-xa=disabled -Dvideo-codecs= \
  -Dbuild-tests=false --wrap-mode=nodownload >&2
ninja -C build install >&2
touch "$prefix/built"
echo "$prefix"
