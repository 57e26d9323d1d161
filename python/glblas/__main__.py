"""python -m glblas: what the device is, and matmul timed against numpy's (each result checked
against a float64 reference before its rate is printed; a wrong one fails the run).
python -m glblas warm: compiles every shader glblas uses, once, into the driver's disk cache.
python -m glblas tune: searches the gemm kernels' parameters on this device, keeps the fastest
right ones in the user's tuning table, and prints each precision's rate before and after.
python -m glblas info: the device, its pipeline and limits, its driver workarounds, and the
kernels' parameters with the table they came from."""

import argparse
import statistics
import sys
import time

import numpy as np

import glblas

UNIT_ROUNDOFF = {np.dtype(np.float32): 2.0**-24, np.dtype(np.float64): 2.0**-53}


def timed(f, runs):
    """The median seconds of ``runs`` calls of f (after one untimed call: context creation and
    shader compilation are not the rate), and f's last result."""
    f()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def outside_bound(got, a, b):
    """None if ``got`` is within the error bound of a k-term dot product per element,
    |error| <= 2 k u (|a| @ |b|), else a description of the worst element."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    err = np.abs(got - a64 @ b64)
    bound = 2 * a.shape[1] * UNIT_ROUNDOFF[a.dtype] * (np.abs(a64) @ np.abs(b64))
    if np.all(err <= bound):
        return None
    i = np.unravel_index(np.argmax(err - bound), err.shape)
    return f"error {err[i]:.3g} at {tuple(map(int, i))}, bound {bound[i]:.3g}"


def bench(n, dtype, runs):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    flops = 2.0 * n**3
    with glblas.to_device(a) as da, glblas.to_device(b) as db, glblas.empty((n, n), dtype) as dc:
        def on_device():
            glblas.matmul(da, db, out=dc)
            glblas.sync()
        t_device, _ = timed(on_device, runs)
        device_result = dc.get()
    t_host, host_result = timed(lambda: glblas.matmul(a, b), runs)
    t_numpy, _ = timed(lambda: a @ b, runs)
    for what, got in (("device arrays", device_result), ("numpy arrays", host_result)):
        wrong = outside_bound(got, a, b)
        if wrong:
            return f"glblas's result on {what} is outside its error bound: {wrong}", False
    rate = lambda t: f"{flops / t / 1e9:.1f} GFLOP/s"  # noqa: E731
    return (f"glblas {rate(t_device)} (device arrays), {rate(t_host)} (numpy arrays); "
            f"numpy {rate(t_numpy)}"), True


def progress_bar(stream):
    """A progress callback drawing a bar on ``stream`` if it is a terminal, else None."""
    if not stream.isatty():
        return None

    def draw(done, total):
        width = 40
        filled = width * done // max(total, 1)
        end = "\n" if done == total else ""
        stream.write(f"\rtuning [{'#' * filled}{' ' * (width - filled)}] {done}/{total}{end}")
        stream.flush()
    return draw


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m glblas", description=__doc__)
    parser.add_argument("-n", type=int, default=1024, help="matrix side (default 1024)")
    parser.add_argument("--runs", type=int, default=5, help="timed calls per case (default 5)")
    parser.add_argument("command", nargs="?", choices=["warm", "tune", "info"],
                        help="warm: compile every shader into the driver's disk cache; tune: "
                        "search the kernels' parameters on this device; info: describe it")
    parser.add_argument("--quick", action="store_true",
                        help="tune: fewer candidates, in a quarter of the time")
    parser.add_argument("--seconds", type=float, default=0.0,
                        help="tune: the time limit (default 120 on a GPU, 600 on a CPU "
                        "rasterizer)")
    args = parser.parse_args(argv)
    if args.command in ("tune", "info"):
        try:
            if args.command == "info":
                print(glblas.describe_device(), end="")
            else:
                print(glblas.tune(args.quick, args.seconds, progress_bar(sys.stderr)), end="")
        except glblas.GlblasError as e:
            print(f"glblas: {args.command}: {e}", file=sys.stderr)
            return 1
        return 0
    if args.command == "warm":
        start = time.perf_counter()
        try:
            count = glblas.warm()
        except glblas.GlblasError as e:
            print(f"glblas: warm: {e}", file=sys.stderr)
            return 1
        print(f"glblas: {count} shader programs compiled on {glblas.device_name()} in "
              f"{time.perf_counter() - start:.1f} s")
        return 0
    try:
        info = glblas.device_info()
    except glblas.GlblasError as e:
        print(f"glblas: no device: {e}", file=sys.stderr)
        return 1
    print(f"glblas on {info['renderer']}")
    print(f"  GL version: {info['version']}{' (OpenGL ES)' if info['gles'] else ''}")
    print(f"  pipeline:   {info['pipeline']}")
    print(f"  fp64:       {'yes' if info['fp64'] else 'no'}")
    print(f"  library:    {glblas.library_path()}")
    print(f"matmul {args.n}x{args.n}x{args.n}, median of {args.runs} calls:")
    ok = True
    for dtype in (np.float32, np.float64):
        name = np.dtype(dtype).name
        if not glblas.supports("gemm", dtype):
            print(f"  {name:8} not in this library yet")
            continue
        try:
            line, good = bench(args.n, dtype, args.runs)
        except glblas.GlblasError as e:
            # Double precision where the device cannot (no fp64 shaders or no compute pipeline)
            # is NOT_SUPPORTED, not a failure.
            doubles = info["fp64"] and info["pipeline"] == "compute"
            good = e.status == glblas.GLBLAS_STATUS_NOT_SUPPORTED and not doubles
            line = str(e)
        print(f"  {name:8} {line}")
        ok = ok and good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
