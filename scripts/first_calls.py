"""First-call times of each routine in each precision on the GL device, each in a fresh process
calling the Fortran name through ctypes with GLBLAS_BACKEND=gl (n = 64: vectors of 4096):

- cold: Mesa's shader cache off, as a machine's first process;
- warmed: after `python -m glblas warm` filled the cache (in a directory of its own);
- then: the same call again, in the warmed process.

Usage: python3 scripts/first_calls.py [path/to/libglblas.so] [routine,...]"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(HERE, "..", "target", "release", "libglblas.so"))
ROUTINES = ["axpy", "dot", "nrm2", "iamax", "gemv", "gemm", "symm", "syrk", "syr2k", "trmm",
            "trsm"]

CHILD = r'''
import ctypes, json, sys, time
import numpy as np
lib = ctypes.CDLL(sys.argv[1])
p, name, n = sys.argv[2], sys.argv[3], 64
dt, R = (np.float32, ctypes.c_float) if p == "s" else (np.float64, ctypes.c_double)
I = lambda v: ctypes.byref(ctypes.c_int(v))
S = lambda v: ctypes.byref(R(v))
C = lambda c: ctypes.c_char_p(c.encode())
rng = np.random.default_rng(0)
mat = lambda: np.asfortranarray(rng.standard_normal((n, n)).astype(dt))
A, B, Cm = mat() + n * np.eye(n, dtype=dt), mat(), mat()
x, y = rng.standard_normal(n * n).astype(dt), rng.standard_normal(n * n).astype(dt)
P = lambda a: a.ctypes.data_as(ctypes.c_void_p)
f = lambda s: getattr(lib, p + s + "_")
N, abc = n * n, (I(n), I(n), S(1), P(A), I(n), P(B), I(n), S(1), P(Cm), I(n))
calls = {
    "axpy": lambda: f("axpy")(I(N), S(0.5), P(x), I(1), P(y), I(1)),
    "dot": lambda: f("dot")(I(N), P(x), I(1), P(y), I(1)),
    "nrm2": lambda: f("nrm2")(I(N), P(x), I(1)),
    "iamax": lambda: getattr(lib, "i" + p + "amax_")(I(N), P(x), I(1)),
    "gemv": lambda: f("gemv")(C("N"), I(n), I(n), S(1), P(A), I(n), P(x), I(1), S(1), P(y),
                              I(1)),
    "gemm": lambda: f("gemm")(C("N"), C("N"), I(n), *abc),
    "symm": lambda: f("symm")(C("L"), C("U"), *abc),
    "syrk": lambda: f("syrk")(C("U"), C("N"), I(n), I(n), S(1), P(A), I(n), S(1), P(Cm), I(n)),
    "syr2k": lambda: f("syr2k")(C("U"), C("N"), *abc),
    "trmm": lambda: f("trmm")(C("L"), C("U"), C("N"), C("N"), *abc[:7]),
    "trsm": lambda: f("trsm")(C("L"), C("L"), C("N"), C("N"), *abc[:7]),
}
lib.glblasInit()
times = []
for _ in range(2):
    start = time.perf_counter()
    calls[name]()
    times.append(time.perf_counter() - start)
print(json.dumps(times))
'''


def first_calls(p, name, env):
    out = subprocess.run([sys.executable, "-c", CHILD, LIB, p, name], env=env,
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    names = sys.argv[2].split(",") if len(sys.argv) > 2 else ROUTINES
    env = dict(os.environ, GLBLAS_BACKEND="gl", GLBLAS_LIBRARY=LIB,
               PYTHONPATH=os.path.join(HERE, "..", "python"))
    cold = dict(env, MESA_SHADER_CACHE_DISABLE="true")
    with tempfile.TemporaryDirectory() as cache:
        warmed = dict(env, MESA_SHADER_CACHE_DIR=cache, MESA_SHADER_CACHE_DISABLE="false")
        warm = subprocess.run([sys.executable, "-m", "glblas", "warm"], env=warmed, check=True,
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        print(warm)
        print(f"{'routine':<9}{'cold':>10}{'warmed':>10}{'then':>10}   (ms, first calls)")
        for p in "sd":
            for name in names:
                c = first_calls(p, name, cold)[0]
                w, then = first_calls(p, name, warmed)
                print(f"{p + name:<9}{c * 1e3:>10.0f}{w * 1e3:>10.1f}{then * 1e3:>10.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
