"""glblas beside PyTorch/cuBLAS on a GPU machine (issue 14), in one run; scripts/gpu/run.sh calls
it as ``compare.py RELEASE_DIR OUT_DIR`` (RELEASE_DIR holds libglblas.so and one_sgemm).

Every glblas figure comes from a result checked against a double-precision computation within
the routine's error bound (16 sampled elements of a product, every element of a vector), both
after the first call and after the timed ones (each output first reset, so that a call that
writes nothing is seen); a wrong result or an error prints as such, with no rate. PyTorch runs
with TF32 off, so cuBLAS computes in fp32 as glblas does. Sections:
- sgemm kernel-only (device operands, a wait for the result in each timed call), n = 256..8192:
  cuBLAS, and glblas's register-blocked kernel and its tiled one (GLBLAS_GEMM_KERNEL),
  each in a process of its own, since the library reads the variable once;
- saxpy and sdot on device operands (n = 2^24, 2^26), in bytes moved per second, beside the
  device-to-device copy bandwidth PyTorch measures (bytes read plus bytes written);
- the time of a tiny call (saxpy of one element, waited for) beside a tiny PyTorch operation;
- whole processes: one process doing a single sgemm of n = 64..4096 on host matrices end to end
  (one_sgemm), beside a Python process doing the same through PyTorch (import, transfers, the
  product, the result back), the median of 3 after one untimed run of each (shader and kernel
  caches warm);
- the routing crossover: sgemm on host operands, glblas against the CPU BLAS (numpy's matmul,
  float32), n = 64..2048;
- dgemm, strsm (left, lower, no transpose, non-unit) and ssyrk (lower, no transpose) at
  n = 4096 on device operands, beside cuBLAS (PyTorch's float64 matmul, its solve_triangular, and
  CuPy's cublas.syrk), in GFLOP/s as the benchmark counts them (2n³, n³, n³).
Writes compare.txt (the tables) and compare.json (every figure) to OUT_DIR. COMPARE_QUICK=1 takes
small sizes only, for a trial of the script on a machine without a GPU. COMPARE_ONLY=vectors,level3
runs those of glblas's sections only (gemm, vectors, level3, process), for a lease that measures
what changed since the last one.
"""

import contextlib
import ctypes as C
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

U = 2.0**-24
DEVICE_TO_DEVICE = 3  # glblasMemcpyDeviceToDevice
QUICK = os.environ.get("COMPARE_QUICK") == "1"
GEMM_SIZES = [64, 256] if QUICK else [256, 512, 1024, 2048, 4096, 8192]
PROCESS_SIZES = [64, 256] if QUICK else [64, 256, 1024, 4096]
CROSSOVER_SIZES = [64, 256] if QUICK else [64, 128, 256, 384, 512, 768, 1024, 1536, 2048]
VECTOR_SIZES = [1 << 16] if QUICK else [1 << 24, 1 << 26]
LEVEL3_N = 128 if QUICK else 4096
SECTIONS = os.environ.get("COMPARE_ONLY", "gemm,vectors,level3,process").split(",")
TORCH_PROCESS = """
import sys, torch
torch.backends.cuda.matmul.allow_tf32 = False
n = int(sys.argv[1])
g = torch.Generator().manual_seed(1)
a = torch.rand(n, n, generator=g) * 2 - 1
b = torch.rand(n, n, generator=g) * 2 - 1
c = (a.cuda() @ b.cuda()).cpu()
print("torch", n, float(c[0, 0]))
"""


def median_time(f, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def checked_time(checked, timed):
    """timed()'s seconds between two runs of checked() (each resets the output, makes one call and
    returns its error relative to the bound: above 1, or NaN, is wrong), and the worse error; no
    time where the first check already fails."""
    err = checked()
    if not err <= 1:
        return None, err
    t = timed()
    after = checked()
    return t, (err if after <= err else after)


def reps_for(n):
    return 10 if n <= 1024 else (5 if n <= 4096 else 3)


def glblas_package():
    """The repository's glblas package (python/), on the library GLBLAS_LIBRARY names, started."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import glblas
    glblas.check(glblas.lib.glblasInit(), "glblasInit")
    return glblas


def addresses(stack, *arrays):
    """The device addresses of DeviceArrays, kept valid until ``stack`` closes."""
    return [stack.enter_context(d.address()) for d in arrays]


def gemm_error(a, b, c, rng):
    """The largest error of 16 sampled elements of c = a @ b relative to sgemm's bound
    (n + 2) u (|a| @ |b|); above 1 is wrong."""
    n = a.shape[1]
    worst = 0.0
    for i, j in zip(rng.integers(0, a.shape[0], 16), rng.integers(0, b.shape[1], 16)):
        if not np.isfinite(c[i, j]):
            return np.inf
        p = a[i, :].astype(np.float64) * b[:, j].astype(np.float64)
        bound = (n + 2) * U * np.abs(p).sum()
        err = abs(float(c[i, j]) - p.sum())
        worst = max(worst, err / bound if bound > 0 else (0.0 if err == 0 else np.inf))
    return worst


def child_gemm():
    """One glblas sgemm sweep on device operands (this process's GLBLAS_GEMM_KERNEL), a JSON
    line per size: GFLOP/s, or the error."""
    gl = glblas_package()
    rng = np.random.default_rng(1)
    for n in GEMM_SIZES:
        a = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        b = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        c = np.asfortranarray(np.full((n, n), np.nan, np.float32))
        try:
            with contextlib.ExitStack() as stack:
                da, db, dc, dn = (stack.enter_context(gl.to_device(m)) for m in (a, b, c, c))
                pa, pb, pc, pn = addresses(stack, da, db, dc, dn)

                def call():
                    gl.check(gl.lib.glblasSgemm(0, 0, n, n, n, 1.0, pa, n, pb, n, 0.0, pc, n),
                             "glblasSgemm")
                    gl.sync()

                def checked():
                    gl.check(gl.lib.glblasMemcpy(pc, pn, c.nbytes, DEVICE_TO_DEVICE), "reset")
                    call()
                    return gemm_error(a, b, dc.get(), rng)
                t, err = checked_time(checked, lambda: median_time(call, reps_for(n)))
                if not err <= 1:
                    row = {"n": n, "error": f"wrong result ({err:.2g} of the bound)"}
                else:
                    row = {"n": n, "ms": t * 1e3, "gflops": 2 * n**3 / t / 1e9, "err": err}
        except gl.GlblasError as e:
            row = {"n": n, "error": str(e)}
        print(json.dumps(row), flush=True)


def child_vectors():
    """saxpy, sdot (device operands), the tiny call and the host-operand crossover, as JSON
    lines."""
    gl = glblas_package()
    rng = np.random.default_rng(2)
    alpha = 0.5
    for n in VECTOR_SIZES:
        x = rng.uniform(-1, 1, n).astype(np.float32)
        y = rng.uniform(-1, 1, n).astype(np.float32)
        try:
            with contextlib.ExitStack() as stack:
                dx, dy, dy0 = (stack.enter_context(gl.to_device(v)) for v in (x, y, y))
                px, py, py0 = addresses(stack, dx, dy, dy0)

                def axpy():
                    gl.check(gl.lib.glblasSaxpy(n, alpha, px, 1, py, 1), "glblasSaxpy")
                    gl.sync()
                want = alpha * x.astype(np.float64) + y
                bound = 2 * U * (abs(alpha * x.astype(np.float64)) + abs(y))

                def checked():
                    gl.check(gl.lib.glblasMemcpy(py, py0, y.nbytes, DEVICE_TO_DEVICE), "reset")
                    axpy()
                    return 0.0 if np.all(np.abs(dy.get() - want) <= bound) else np.inf
                row = {"routine": "saxpy", "n": n}
                t, err = checked_time(checked, lambda: median_time(axpy, 10))
                if err <= 1:
                    row.update(ms=t * 1e3, gbs=3 * 4 * n / t / 1e9)
                else:
                    row["error"] = "wrong result"
                print(json.dumps(row), flush=True)
                out = C.c_float()

                def dot():
                    gl.check(gl.lib.glblasSdot(n, px, 1, py0, 1, C.addressof(out)), "glblasSdot")
                p = x.astype(np.float64) * y

                def checked():
                    out.value = np.nan
                    dot()
                    return abs(out.value - p.sum()) / ((n + 2) * U * np.abs(p).sum())
                row = {"routine": "sdot", "n": n}
                t, err = checked_time(checked, lambda: median_time(dot, 10))
                if err <= 1:
                    row.update(ms=t * 1e3, gbs=2 * 4 * n / t / 1e9)
                else:
                    row["error"] = f"wrong result ({out.value} against {p.sum()})"
                print(json.dumps(row), flush=True)
        except gl.GlblasError as e:
            print(json.dumps({"routine": "saxpy/sdot", "n": n, "error": str(e)}), flush=True)
    try:
        with contextlib.ExitStack() as stack:
            dx, dy = (stack.enter_context(gl.to_device(np.ones(1, np.float32))) for _ in range(2))
            px, py = addresses(stack, dx, dy)

            def tiny():
                gl.check(gl.lib.glblasSaxpy(1, 1.0, px, 1, py, 1), "glblasSaxpy")
                gl.sync()
            tiny()
            t = median_time(tiny, 200)
            got = dy.get()[0]
            row = {"routine": "tiny saxpy", "us": t * 1e6}
            if got != 202:  # 1, plus 1 in the untimed call and in each of the 200 timed ones
                row = {"routine": "tiny saxpy", "error": f"wrong result {got}"}
    except gl.GlblasError as e:
        row = {"routine": "tiny saxpy", "error": str(e)}
    print(json.dumps(row), flush=True)
    # The routing crossover: host operands against numpy's CPU BLAS.
    for n in CROSSOVER_SIZES:
        a = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        b = np.asfortranarray(rng.uniform(-1, 1, (n, n)).astype(np.float32))
        c = np.asfortranarray(np.zeros((n, n), np.float32))

        def host():
            gl.check(gl.lib.glblasSgemm(0, 0, n, n, n, 1.0, a.ctypes.data, n, b.ctypes.data, n, 0.0,
                                        c.ctypes.data, n), "glblasSgemm")
        def checked():
            c[:] = np.nan
            host()
            return gemm_error(a, b, c, rng)
        row = {"routine": "host sgemm", "n": n}
        try:
            t, err = checked_time(checked, lambda: median_time(host, reps_for(n)))
            if err <= 1:
                row.update(gl_ms=t * 1e3, cpu_ms=median_time(lambda: a @ b, reps_for(n)) * 1e3)
            else:
                row["error"] = f"wrong result ({err:.2g} of the bound)"
        except gl.GlblasError as e:
            row["error"] = str(e)
        print(json.dumps(row), flush=True)


def level3_operands(routine, n, rng):
    """A, B (float64) for one Level 3 case, built as examples/bench/level3.rs builds them: trsm's A
    diagonally dominant (diagonal ±[1, 2), the rest scaled by 1/n), so the solve is well
    conditioned."""
    a = rng.uniform(-1, 1, (n, n))
    if routine == "strsm":
        a /= n
        d = rng.uniform(-1, 1, n)
        a[np.arange(n), np.arange(n)] = np.sign(d) * (1 + np.abs(d))
        a = np.tril(a)
    return a, rng.uniform(-1, 1, (n, n))


def level3_error(routine, a, b, c, rng):
    """The largest error of 16 sampled elements relative to the routine's bound (above 1 is
    wrong): (n + 2) u Σ|terms| for dgemm and ssyrk (lower triangle), and for strsm the residual
    (A X - B) relative to 4 (n + 2) u (|A| |X| + |B|), as examples/bench/level3.rs bounds them.
    dgemm's reference sums in long double."""
    n = a.shape[0]
    u = 2.0**-53 if routine == "dgemm" else U
    worst = 0.0
    for i, j in zip(rng.integers(0, n, 16), rng.integers(0, n, 16)):
        if routine == "ssyrk" and i < j:
            i, j = j, i
        if routine == "strsm":
            x = c[:, j].astype(np.float64)
            if not np.all(np.isfinite(x)):
                return np.inf
            p = a[i, :] * x
            err = abs(p.sum() - b[i, j])
            bound = 4 * (n + 2) * u * (np.abs(p).sum() + abs(b[i, j]))
        else:
            if not np.isfinite(c[i, j]):
                return np.inf
            other = a[j, :] if routine == "ssyrk" else b[:, j]
            p = a[i, :].astype(np.longdouble) * other.astype(np.longdouble)
            err = float(abs(np.longdouble(c[i, j]) - p.sum()))
            bound = (n + 2) * u * float(np.abs(p).sum())
        worst = max(worst, err / bound if bound > 0 else (0.0 if err == 0 else np.inf))
    return worst


def child_level3():
    """dgemm, strsm and ssyrk at LEVEL3_N on device operands, a JSON line each: GFLOP/s, or the
    error."""
    gl = glblas_package()
    rng = np.random.default_rng(3)
    n = LEVEL3_N
    for routine, dtype, flops in (("dgemm", np.float64, 2 * n**3), ("strsm", np.float32, n**3),
                                  ("ssyrk", np.float32, n**3)):
        a64, b64 = level3_operands(routine, n, rng)
        a, b = (np.asfortranarray(m.astype(dtype)) for m in (a64, b64))
        # What the routine overwrites starts as NaN (trsm's B is its input, restored per call).
        c = np.asfortranarray(np.full((n, n), np.nan, dtype))
        row = {"routine": routine, "n": n}
        try:
            with contextlib.ExitStack() as stack:
                da, db, dc, dn = (stack.enter_context(gl.to_device(m)) for m in (a, b, c, c))
                pa, pb, pc, pn = addresses(stack, da, db, dc, dn)

                def call():
                    if routine == "dgemm":
                        s = gl.lib.glblasDgemm(0, 0, n, n, n, 1.0, pa, n, pb, n, 0.0, pc, n)
                    elif routine == "strsm":
                        s = gl.lib.glblasStrsm(0, 0, 0, 0, n, n, 1.0, pa, n, pc, n)
                    else:
                        s = gl.lib.glblasSsyrk(0, 0, n, n, 1.0, pa, n, 0.0, pc, n)
                    gl.check(s, f"glblas {routine}")
                    gl.sync()

                def fresh():
                    # trsm solves in place: B again; else NaN, so unwritten elements show.
                    src = pb if routine == "strsm" else pn
                    gl.check(gl.lib.glblasMemcpy(pc, src, c.nbytes, DEVICE_TO_DEVICE), "reset")
                    gl.sync()

                def checked():
                    fresh()
                    call()
                    return level3_error(routine, a.astype(np.float64), b.astype(np.float64),
                                        dc.get(), rng)
                def timed():
                    times = []
                    for _ in range(3):
                        fresh()
                        times.append(median_time(call, 1))
                    return statistics.median(times)
                t, err = checked_time(checked, timed)
                if not err <= 1:
                    row["error"] = f"wrong result ({err:.2g} of the bound)"
                else:
                    row.update(ms=t * 1e3, gflops=flops / t / 1e9, err=err)
        except gl.GlblasError as e:
            row["error"] = str(e)
        print(json.dumps(row), flush=True)


def run_child(lib_path, what, env_extra, timeout):
    env = {k: v for k, v in os.environ.items() if k != "GLBLAS_GEMM_KERNEL"}
    env.update(env_extra, GLBLAS_LIBRARY=lib_path)
    rows = []
    try:
        p = subprocess.run([sys.executable, __file__, "--child", what],
                           env=env, capture_output=True, text=True, timeout=timeout)
        out, note = p.stdout, (f"exit {p.returncode}: {p.stderr.strip()[-500:]}" if p.returncode else "")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        note = f"stopped after {timeout} s"
    for line in out.splitlines():
        if line.startswith("{"):
            rows.append(json.loads(line))
    return rows, note


def torch_figures():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    res = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "gemm": {}}

    def cuda_time(f, reps):
        def waited():
            f()
            torch.cuda.synchronize()
        waited()
        return median_time(waited, reps)
    for n in GEMM_SIZES:
        a = torch.rand(n, n, device=dev) * 2 - 1
        b = torch.rand(n, n, device=dev) * 2 - 1
        t = cuda_time(lambda: a @ b, reps_for(n) * 2)
        res["gemm"][n] = 2 * n**3 / t / 1e9
    n = VECTOR_SIZES[-1]
    x = torch.rand(n, device=dev)
    y = torch.rand(n, device=dev)
    res["copy_gbs"] = 2 * 4 * n / cuda_time(lambda: y.copy_(x), 20) / 1e9
    res["axpy_gbs"] = 3 * 4 * n / cuda_time(lambda: y.add_(x, alpha=0.5), 20) / 1e9
    res["dot_gbs"] = 2 * 4 * n / cuda_time(lambda: torch.dot(x, y).item(), 20) / 1e9
    x1 = torch.ones(1, device=dev)
    y1 = torch.ones(1, device=dev)
    res["tiny_us"] = cuda_time(lambda: y1.add_(x1), 200) * 1e6
    n = LEVEL3_N
    a = torch.rand(n, n, device=dev, dtype=torch.float64) * 2 - 1
    b = torch.rand(n, n, device=dev, dtype=torch.float64) * 2 - 1
    res["level3"] = {"dgemm": 2 * n**3 / cuda_time(lambda: a @ b, 5) / 1e9}
    lower = torch.tril(a.float() / n) + torch.diag(1 + torch.rand(n, device=dev))
    bf = b.float()
    res["level3"]["strsm"] = n**3 / cuda_time(
        lambda: torch.linalg.solve_triangular(lower, bf, upper=False), 5) / 1e9
    try:
        import cupy
        import cupy.cublas
        af = cupy.asarray(bf.cpu().numpy(), order="F")
        out = cupy.zeros((n, n), np.float32, order="F")

        def syrk():
            cupy.cublas.syrk("N", af, out=out, lower=True)
            cupy.cuda.Device().synchronize()
        res["level3"]["ssyrk"] = n**3 / median_time(syrk, 5) / 1e9
    except Exception as e:  # no CuPy: the row shows glblas alone
        res["level3"]["ssyrk_error"] = repr(e)
    return res


class ProcessFailed(Exception):
    pass


def process_time(cmd, reps=3):
    """The median seconds of ``reps`` runs of cmd after one untimed run, or None and why a run
    failed: its last line of output, its exit status, or the time limit."""
    def run():
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise ProcessFailed("stopped after 120 s")
        except OSError as e:
            raise ProcessFailed(str(e))
        if p.returncode != 0:
            raise ProcessFailed(((p.stderr or p.stdout).strip().splitlines() or [f"exit {p.returncode}"])[-1])
    try:
        run()
        return median_time(run, reps), ""
    except ProcessFailed as e:
        return None, str(e)


def main(release, out_dir):
    figures = {}
    lib_path = os.path.join(release, "libglblas.so")
    # Both files are rewritten as each section ends, so a run stopped at its time limit still
    # returns what it measured.
    text = open(os.path.join(out_dir, "compare.txt"), "w")

    def say(s=""):
        print(s, flush=True)
        text.write(s + "\n")
        text.flush()
        with open(os.path.join(out_dir, "compare.json"), "w") as f:
            json.dump(figures, f, indent=1, default=str)
    try:
        tf = torch_figures()
    except Exception as e:  # no PyTorch or no CUDA: glblas's side still runs
        tf = {"error": repr(e), "gemm": {}}
    figures["torch"] = tf
    say(f"PyTorch: {tf.get('torch', '-')} on {tf.get('device', '-')} (TF32 off) {tf.get('error', '')}")
    if "gemm" in SECTIONS:
        kernels = {}
        for name in ("blocked", "tiled"):
            env = {"GLBLAS_GEMM_KERNEL": name}
            rows, note = run_child(lib_path, "gemm", env, 150)
            kernels[name] = {r["n"]: r for r in rows}
            figures[f"sgemm_{name}"] = {"rows": rows, "note": note}
            if note:
                say(f"glblas sgemm ({name}): {note}")
        say("\nsgemm, device operands, GFLOP/s (share of cuBLAS)")
        say(f"{'n':>6} {'cuBLAS':>10} {'glblas blocked':>20} {'glblas tiled':>20}")
        for n in GEMM_SIZES:
            cu = tf["gemm"].get(n)
            cells = []
            for name in ("blocked", "tiled"):
                r = kernels[name].get(n)
                if r is None:
                    cells.append("not run")
                elif "error" in r:
                    cells.append(r["error"][:20])
                else:
                    share = f" ({100 * r['gflops'] / cu:.0f}%)" if cu else ""
                    cells.append(f"{r['gflops']:.0f}{share}")
            say(f"{n:>6} {f'{cu:.0f}' if cu else '-':>10} {cells[0]:>20} {cells[1]:>20}")

    if "vectors" in SECTIONS:
        rows, note = run_child(lib_path, "vectors", {}, 150)
        figures["vectors"] = {"rows": rows, "note": note}
        say(f"\nsaxpy/sdot, device operands, GB/s (share of PyTorch's copy, {tf.get('copy_gbs', 0):.0f} GB/s) {note}")
        for r in rows:
            if r["routine"] in ("saxpy", "sdot", "saxpy/sdot"):
                if "error" in r:
                    say(f"  {r['routine']} n={r['n']}: {r['error']}")
                else:
                    cp = tf.get("copy_gbs")
                    share = f" ({100 * r['gbs'] / cp:.0f}%)" if cp else ""
                    say(f"  {r['routine']} n={r['n']}: {r['gbs']:.0f}{share}")
        say(f"  PyTorch: axpy {tf.get('axpy_gbs', 0):.0f}, dot {tf.get('dot_gbs', 0):.0f}")
        for r in rows:
            if r["routine"] == "tiny saxpy":
                gl = r["error"] if "error" in r else f"{r['us']:.1f} us"
                say(f"\ntiny call (waited for): glblas {gl}, PyTorch {tf.get('tiny_us', 0):.1f} us")
        say("\nrouting crossover, host operands: glblas ms against numpy's CPU BLAS ms")
        for r in rows:
            if r["routine"] == "host sgemm":
                if "error" in r:
                    say(f"  n={r['n']}: {r['error']}")
                else:
                    say(f"  n={r['n']}: glblas {r['gl_ms']:.2f}, CPU {r['cpu_ms']:.2f}")

    if "level3" in SECTIONS:
        rows, note = run_child(lib_path, "level3", {}, 120)
        figures["level3"] = {"rows": rows, "note": note}
        cu3 = tf.get("level3", {})
        say(f"\nLevel 3 at n = {LEVEL3_N}, device operands, GFLOP/s (share of cuBLAS) {note}")
        for r in rows:
            cu = cu3.get(r["routine"])
            if "error" in r:
                cell = r["error"]
            else:
                cell = f"{r['gflops']:.0f}" + (f" ({100 * r['gflops'] / cu:.0f}%)" if cu else "")
            say(f"  {r['routine']}: glblas {cell}; cuBLAS {f'{cu:.0f}' if cu else '-'}")
        if "ssyrk_error" in cu3:
            say(f"  (cuBLAS ssyrk not measured: {cu3['ssyrk_error']})")

    if "process" in SECTIONS:
        say("\nwhole process, one sgemm of host matrices end to end, seconds (median of 3, warm caches)")
        figures["process"] = []
        for n in PROCESS_SIZES:
            g, gerr = process_time([os.path.join(release, "one_sgemm"), str(n)])
            t, terr = process_time([sys.executable, "-c", TORCH_PROCESS, str(n)])
            figures["process"].append({"n": n, "glblas_s": g, "torch_s": t, "errors": [gerr, terr]})
            say(f"  n={n:>5}: glblas {g if g is None else f'{g:.3f}'} {gerr}  PyTorch "
                f"{t if t is None else f'{t:.3f}'} {terr}")
    say()
    text.close()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        {"gemm": child_gemm, "vectors": child_vectors, "level3": child_level3}[sys.argv[2]]()
    elif len(sys.argv) == 3:
        main(sys.argv[1], sys.argv[2])
    else:
        sys.exit("usage: compare.py RELEASE_DIR OUT_DIR")
