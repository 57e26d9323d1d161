# The OpenGL implementations glblas is tested and measured on, each by one name. Sourced by
# scripts/test.sh and scripts/demo.sh, which call:
#   driver_env NAME   install what configuration NAME needs, start its services and export its
#                     environment (for this shell and what it runs);
#   driver_stop       stop what driver_env started and restore the environment; fails if
#                     virgl's renderer rejected a command meanwhile (a rejected command kills
#                     the client process, so it must never be sent).
#
#   llvmpipe       Mesa's software rasterizer: desktop GL 4.5 core (the default device).
#   llvmpipe-gles  llvmpipe through OpenGL ES 3.2 (GLBLAS_GL_API=gles).
#   llvmpipe-board llvmpipe presenting what an ARM board's driver does (Raspberry Pi 4/5 on V3D,
#                  Mali on Panfrost): OpenGL ES 3.1 and desktop GL 3.1, no buffer textures and
#                  no buffer storage (Mesa's version and extension overrides), and a board's
#                  compute limits (glblas's limit settings): 256 invocations per workgroup,
#                  32 KiB of shared memory, 128 MiB per storage block, and gemm's 4×4 blocks
#                  of C per invocation, which their compilers fit in registers.
#   llvmpipe-gl33  llvmpipe presenting the GL 3.3 baseline: no glTexBufferRange, compute shaders
#                  or buffer storage (Mesa's version and extension overrides), taken as desktop
#                  GL only (GLBLAS_GL_API=desktop; llvmpipe's GLES would come first): the
#                  fragment pipeline.
#   zink           Mesa's OpenGL 4.6 on Vulkan (zink), over lavapipe: asynchronous, explicit
#                  barriers, no pinned memory, shaders through SPIR-V.
#   zink-gles      zink through OpenGL ES 3.2.
#   virgl          the OpenGL a virtual machine with a virtio-gpu device sees: Mesa's virgl
#                  driver, whose commands virglrenderer's test server validates and replays
#                  with the host's EGL (llvmpipe here).
#
# The boards' own drivers, built by scripts/board_drivers/build.sh (Mesa 25.0) and loaded under
# Mesa's noop drm-shims: each driver's own compiler builds every shader, but jobs do nothing, so
# results mean nothing there (SHIM_DRIVERS):
#   v3d-4.2, v3d-7.1       Broadcom's V3D: Raspberry Pi 4, Raspberry Pi 5 (OpenGL ES 3.1).
#   mali-g52, mali-g610    panfrost: Mali-G52 (Bifrost), Mali-G610 (Valhall, RK3588) (GLES 3.1).
#   adreno-630, adreno-750 freedreno: Adreno 630 through OpenGL ES 3.2, Adreno 750 through
#                          desktop GL 4.6.

DRIVERS="llvmpipe llvmpipe-gles llvmpipe-board llvmpipe-gl33 zink zink-gles virgl"
SHIM_DRIVERS="v3d-4.2 v3d-7.1 mali-g52 mali-g610 adreno-630 adreno-750"
_drivers_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Variables a configuration may set; driver_stop unsets them again.
DRIVER_VARS="GALLIUM_DRIVER LIBGL_ALWAYS_SOFTWARE GLBLAS_GL_API MESA_GL_VERSION_OVERRIDE
  MESA_GLES_VERSION_OVERRIDE MESA_GLSL_VERSION_OVERRIDE MESA_EXTENSION_OVERRIDE
  GLBLAS_LIMIT_INVOCATIONS GLBLAS_LIMIT_SHARED_MEMORY GLBLAS_LIMIT_STORAGE_BLOCK
  GLBLAS_LIMIT_GEMM_ROWS XDG_RUNTIME_DIR
  GLBLAS_DRIVER LD_PRELOAD LD_LIBRARY_PATH __EGL_VENDOR_LIBRARY_FILENAMES V3D_GPU_VERSION PAN_GPU_ID
  FD_GPU_ID V3D_DEBUG FD_MESA_DEBUG GALLIUM_THREAD"

_driver_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! dpkg -s "$@" >/dev/null 2>&1; then
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  fi
}

driver_env() {
  local name="$1"
  _driver_saved_xdg="${XDG_RUNTIME_DIR-}"
  _driver_saved_preload="${LD_PRELOAD-}"
  _driver_saved_libs="${LD_LIBRARY_PATH-}"
  case "$name" in
    llvmpipe) ;;
    llvmpipe-gles) export GLBLAS_GL_API=gles ;;
    llvmpipe-board)
      export MESA_GLES_VERSION_OVERRIDE=3.1 MESA_GL_VERSION_OVERRIDE=3.1
      export MESA_EXTENSION_OVERRIDE="-GL_OES_texture_buffer -GL_EXT_texture_buffer -GL_ARB_buffer_storage -GL_EXT_buffer_storage"
      export GLBLAS_LIMIT_INVOCATIONS=256 GLBLAS_LIMIT_SHARED_MEMORY=32768
      export GLBLAS_LIMIT_STORAGE_BLOCK=134217728 GLBLAS_LIMIT_GEMM_ROWS=4
      ;;
    llvmpipe-gl33)
      export MESA_GL_VERSION_OVERRIDE=3.3 MESA_GLSL_VERSION_OVERRIDE=330 GLBLAS_GL_API=desktop
      export MESA_EXTENSION_OVERRIDE="-GL_ARB_texture_buffer_range -GL_ARB_buffer_storage -GL_ARB_compute_shader"
      ;;
    zink | zink-gles)
      _driver_install mesa-vulkan-drivers libvulkan1
      export GALLIUM_DRIVER=zink LIBGL_ALWAYS_SOFTWARE=1
      # zink's window-system code wants a runtime directory, even without windows.
      if [ -z "${XDG_RUNTIME_DIR-}" ]; then
        XDG_RUNTIME_DIR="$(mktemp -d)"
        _driver_made_xdg="$XDG_RUNTIME_DIR"
        export XDG_RUNTIME_DIR
      fi
      [ "$name" = zink ] || export GLBLAS_GL_API=gles
      ;;
    virgl)
      _driver_install virgl-server
      # The server renders with the host's EGL: none of this shell's driver settings. It
      # listens on the socket Mesa's client always connects to, so only one can serve at a
      # time: any other is stopped (a process name is cut to 15 characters, hence -f), and a
      # socket left behind is removed, so that the wait below sees this server's. It forks a
      # renderer per client.
      pkill -f '^virgl_test_server' 2>/dev/null || true
      rm -f /tmp/.virgl_test
      _driver_server_log="$(mktemp)"
      env -u GALLIUM_DRIVER -u LIBGL_ALWAYS_SOFTWARE virgl_test_server --use-egl-surfaceless \
        >"$_driver_server_log" 2>&1 &
      _driver_server=$!
      local i
      for i in $(seq 50); do
        [ -S /tmp/.virgl_test ] && break
        sleep 0.1
      done
      [ -S /tmp/.virgl_test ] || { echo "virgl_test_server did not start:" >&2; cat "$_driver_server_log" >&2; return 1; }
      export GALLIUM_DRIVER=virpipe LIBGL_ALWAYS_SOFTWARE=1
      ;;
    v3d-* | mali-* | adreno-*)
      local prefix shim
      prefix="$(bash "$_drivers_dir/board_drivers/build.sh")" || return 1
      case "$name" in
        v3d-4.2) shim=v3d; export V3D_GPU_VERSION=42 ;;
        v3d-7.1) shim=v3d; export V3D_GPU_VERSION=71 ;;
        mali-g52) shim=panfrost; export PAN_GPU_ID=7212 ;;
        mali-g610) shim=panfrost; export PAN_GPU_ID=a867 ;;
        adreno-630) shim=freedreno; export FD_GPU_ID=630 GLBLAS_GL_API=gles ;;
        adreno-750) shim=freedreno; export FD_GPU_ID=750 GLBLAS_GL_API=desktop ;;
        *)
          echo "unknown driver configuration '$name' (one of: $DRIVERS $SHIM_DRIVERS)" >&2
          return 1
          ;;
      esac
      # glvnd's EGL takes this build's Mesa only, whose libraries come first.
      export LD_PRELOAD="$prefix/lib/lib${shim}_noop_drm_shim.so${LD_PRELOAD:+ $LD_PRELOAD}"
      export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      export __EGL_VENDOR_LIBRARY_FILENAMES="$prefix/share/glvnd/egl_vendor.d/50_mesa.json"
      # v3d compiles a compute shader when the program links, not at its first dispatch, so
      # that its statistics name the program (src/engine/shader_stats.rs); freedreno reports
      # statistics only when asked, and, as Mesa's threaded context drops a synchronous
      # debug callback, only without it.
      export V3D_DEBUG=precompile FD_MESA_DEBUG=shaderdb GALLIUM_THREAD=0
      ;;
    *)
      echo "unknown driver configuration '$name' (one of: $DRIVERS $SHIM_DRIVERS)" >&2
      return 1
      ;;
  esac
  # The configuration's name, for what reports which one it ran on (the benchmark).
  export GLBLAS_DRIVER="$name"
}

driver_stop() {
  local status=0
  if [ -n "${_driver_server-}" ]; then
    kill "$_driver_server" 2>/dev/null || true
    wait "$_driver_server" 2>/dev/null || true
    if grep -q "context error" "$_driver_server_log"; then
      echo "virgl's renderer rejected commands:" >&2
      grep "context error" "$_driver_server_log" | sort | uniq -c >&2
      status=1
    fi
    rm -f "$_driver_server_log"
    _driver_server=""
  fi
  [ -z "${_driver_made_xdg-}" ] || rm -rf "$_driver_made_xdg"
  _driver_made_xdg=""
  local v
  for v in $DRIVER_VARS; do unset "$v"; done
  [ -z "${_driver_saved_xdg-}" ] || export XDG_RUNTIME_DIR="$_driver_saved_xdg"
  [ -z "${_driver_saved_preload-}" ] || export LD_PRELOAD="$_driver_saved_preload"
  [ -z "${_driver_saved_libs-}" ] || export LD_LIBRARY_PATH="$_driver_saved_libs"
  return $status
}
