"""What a board's own GPU compiler made of every program glblasWarm compiles.

    python3 scripts/board_drivers/stats.py TABLE.md [CACHE]

Run on a board configuration of scripts/drivers.sh (v3d, panfrost or freedreno under Mesa's
noop drm-shim, where jobs do nothing and results mean nothing): it compiles every program with
GLBLAS_SHADER_STATS set, into an empty Mesa shader cache (the directory CACHE, emptied first,
where later processes may load them; else a temporary one), so that the driver compiles each
one and reports its statistics; fails unless the driver reported every program, none of them
spills registers to memory, and real gemm's kernels leave room for a second thread on V3D and
Mali (MIN_THREADS); and writes a Markdown table of them (instructions, threads or
waves, registers, spills and fills) to TABLE.md, with a summary on stdout."""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

# Each driver's statistics message (Mesa 25.0), as the fields of the table.
FORMATS = [
    # v3d: "CS shader: 1649 inst, 2 threads, 0 loops, 35 uniforms, 60 max-temps, 103:70
    # spills:fills, ..."
    ("v3d", re.compile(r"(?P<inst>\d+) inst, (?P<threads>\d+) threads, .*?"
                       r"(?P<registers>\d+) max-temps, (?P<spills>\d+):(?P<fills>\d+) spills:fills")),
    # Mali, Bifrost and Valhall: "... N inst, ..., T threads, L loops, S:F spills:fills"
    ("mali", re.compile(r"(?P<inst>\d+) inst, .*?(?P<threads>\d+) threads, .*?"
                        r"(?P<spills>\d+):(?P<fills>\d+) spills:fills")),
    # Adreno's ir3: "compute shader: N inst, ..., H half, F full, ..., S stp, L ldp, ..., W
    # waves": private-memory stores and loads (stp, ldp) are its spills and fills.
    ("ir3", re.compile(r"(?P<inst>\d+) inst, .*?(?P<registers>\d+) full, .*?"
                       r"(?P<spills>\d+) stp, (?P<fills>\d+) ldp, .*?(?P<threads>\d+) waves")),
]
FIELDS = ("inst", "threads", "registers", "spills", "fills")
# What GLBLAS_SHADER_STATS names a shader of the driver's own.
DRIVERS_OWN = "(the driver's own)"
# What `python -m glblas warm` says.
WARMED = re.compile(r"glblas: (?P<count>\d+) shader programs compiled on (?P<device>.*) in "
                    r"(?P<seconds>[0-9.]+) s")


# Where a core runs more than one thread only if a program's registers leave room for it
# (V3D: 2 or 4 threads per QPU; Mali's Bifrost and Valhall: 2 per core with at most 32 work
# registers), the fewest threads real gemm's kernels (sgemm's, dgemm's and the real Level 3
# routines': gemm.comp without COMPLEX_C) may run: a thread hides another's memory waits.
MIN_THREADS = {"v3d": 2, "mali": 2}
GEMM_REAL = re.compile(r"^gemm\.comp(?!.*COMPLEX_C)")


def parse(message):
    """The statistics in one of the drivers' messages, and the driver's name (FORMATS), or
    None."""
    for driver, pattern in FORMATS:
        m = pattern.search(message)
        if m:
            s = {f: int(m.group(f)) if m.groupdict().get(f) else None for f in FIELDS}
            return dict(s, driver=driver)
    return None


def read(path):
    """{program: statistics} from a GLBLAS_SHADER_STATS file; a program compiled in several
    stages or variants keeps its worst: the most spills, then the fewest threads, then the
    most instructions."""
    stats = {}
    for line in pathlib.Path(path).read_text().splitlines():
        program, _, message = line.partition("\t")
        s = parse(message)
        if s is None:
            continue
        key = lambda t: (t["spills"], -(t["threads"] or 0), t["inst"])  # noqa: E731
        if program not in stats or key(s) > key(stats[program]):
            stats[program] = s
    return stats


def table(device, stats, seconds):
    rows = [f"Programs glblasWarm compiled on {device}, {len(stats)} in {seconds:.0f} s "
            "(from an empty shader cache):", "",
            "| program | instructions | threads | registers | spills | fills |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for program, s in sorted(stats.items()):
        cells = ["" if s[f] is None else str(s[f]) for f in FIELDS]
        rows.append(f"| `{program}` | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def main(out, cache=None):
    root = pathlib.Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as directory:
        record = pathlib.Path(directory) / "stats"
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, GLBLAS_SHADER_STATS=str(record), MESA_SHADER_CACHE_DISABLE="false",
                   MESA_SHADER_CACHE_DIR=cache or str(pathlib.Path(directory) / "cache"),
                   PYTHONPATH=str(root / "python"))
        env.setdefault("GLBLAS_LIBRARY", str(root / "target" / "release" / "libglblas.so"))
        # In a process of its own, whose exit waits for the driver's cache writes.
        p = subprocess.run([sys.executable, "-m", "glblas", "warm"], env=env,
                           capture_output=True, text=True)
        m = WARMED.search(p.stdout)
        if p.returncode != 0 or not m:
            print(f"python -m glblas warm failed:\n{p.stdout}{p.stderr}", file=sys.stderr)
            return 1
        count, device, seconds = int(m["count"]), m["device"], float(m["seconds"])
        stats = read(record) if record.exists() else {}
    configuration = os.environ.get("GLBLAS_DRIVER")
    if configuration:
        device = f"{device} (`{configuration}`)"
    pathlib.Path(out).write_text(table(device, stats, seconds))
    # A shader of the driver's own (src/engine/shader_stats.rs) is in the table, not the count.
    ours = {p: s for p, s in stats.items() if p != DRIVERS_OWN}
    spilling = sorted(p for p, s in ours.items() if s["spills"] or s["fills"])
    least = max((MIN_THREADS.get(s["driver"], 1) for s in ours.values()), default=1)
    crowded = sorted(p for p, s in ours.items() if GEMM_REAL.match(p) and s["threads"] < least)
    print(f"{device}: {count} programs in {seconds:.0f} s, statistics for {len(ours)}, "
          f"{len(spilling)} spill, {len(crowded)} of real gemm's below {least} threads"
          + "".join(f"\n  spills: {p}" for p in spilling)
          + "".join(f"\n  too few threads: {p}" for p in crowded))
    if len(ours) != count:
        print(f"the driver reported {len(ours)} of the {count} programs", file=sys.stderr)
        return 1
    # The programs glblas chooses on the device must fit its registers.
    return 1 if spilling or crowded else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
