"""The reference BLAS's own test programs (netlib's xblat1/2/3 for the Fortran names and the
CBLAS xcblat1/2/3 for the cblas_* names, in single and double precision, and the complex level-1,
level-2 and level-3 ones for every complex level-1 routine, cgemv and every complex level-3
routine, and their z twins, as Debian's libblas-test ships them) run with glblas preloaded and
``GLBLAS_BACKEND=gl``: every computational test and every error exit of the routines glblas
defines must pass as it does without the preload, and the profile must show that GL answered
the calls (the double-precision ones only where the device computes in double: elsewhere the CPU
BLAS answers every one of them; complex ones need the compute pipeline). Both runs use the
reference BLAS itself (Debian's libblas3, not the OpenBLAS that is the system default) for every
routine glblas does not define. The preloaded run checks each GL result before it is handed back
(``GLBLAS_VERIFY=1``): a right result must pass its check, since one that failed would be
answered by the CPU BLAS, which the profile would show."""

import os
import re
import subprocess

import pytest

import glblas
from gl_device import LEVEL3_BEYOND_GEMM, is_glblas_setting, routine_on_gl

BLAS_TESTS = "/usr/lib/x86_64-linux-gnu/blas"
LIB = glblas.library_path()

LEVEL3_S = ["s" + r for r in LEVEL3_BEYOND_GEMM]
LEVEL3_D = ["d" + r for r in LEVEL3_BEYOND_GEMM]
# The complex Level 3 routines glblas defines.
COMPLEX_LEVEL3 = ("gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm")
LEVEL3_C = ["c" + r for r in COMPLEX_LEVEL3]
LEVEL1_C = ["caxpy", "cdotu", "cdotc", "cscal", "csscal", "ccopy", "cswap", "scasum", "scnrm2",
            "icamax"]
LEVEL1_Z = ["zaxpy", "zdotu", "zdotc", "zscal", "zdscal", "zcopy", "zswap", "dzasum", "dznrm2",
            "izamax"]
LEVEL3_Z = ["z" + r for r in COMPLEX_LEVEL3]


def fortran_lines(routines):
    """The lines the Fortran level-2 and level-3 programs print for each routine that passed."""
    return [f"{r.upper():<6} PASSED THE {what}" for r in routines
            for what in ("TESTS OF ERROR-EXITS", "COMPUTATIONAL TESTS")]


def cblas_lines(routines):
    """The lines the CBLAS level-3 program prints for each routine that passed."""
    return [f"{'cblas_' + r:<12} PASSED THE {what}" for r in routines
            for what in ("TESTS OF ERROR-EXITS", "COLUMN-MAJOR COMPUTATIONAL TESTS",
                         "ROW-MAJOR    COMPUTATIONAL TESTS")]


# (program, input file or None, routines of ours it tests, the lines that say each passed)
SUITES = [
    ("xblat1s", None, ["sdot", "saxpy", "scopy", "sswap", "sasum", "sscal", "snrm2", "isamax"], None),
    ("xblat2s", "sblat2.in", ["sgemv"], ["SGEMV  PASSED THE TESTS OF ERROR-EXITS",
                                          "SGEMV  PASSED THE COMPUTATIONAL TESTS"]),
    ("xblat3s", "sblat3.in", ["sgemm", *LEVEL3_S], fortran_lines(["sgemm", *LEVEL3_S])),
    ("xscblat1", None, ["sdot", "saxpy", "scopy", "sswap", "sasum", "sscal", "snrm2", "isamax"], None),
    ("xscblat2", "sin2", ["sgemv"], ["cblas_sgemv  PASSED THE TESTS OF ERROR-EXITS",
                                      "cblas_sgemv  PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS",
                                      "cblas_sgemv  PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"]),
    ("xscblat3", "sin3", ["sgemm", *LEVEL3_S], cblas_lines(["sgemm", *LEVEL3_S])),
    ("xblat1d", None, ["ddot", "daxpy", "dcopy", "dswap", "dasum", "dscal", "dnrm2", "idamax"], None),
    ("xblat2d", "dblat2.in", ["dgemv"], ["DGEMV  PASSED THE TESTS OF ERROR-EXITS",
                                          "DGEMV  PASSED THE COMPUTATIONAL TESTS"]),
    ("xblat3d", "dblat3.in", ["dgemm", *LEVEL3_D], fortran_lines(["dgemm", *LEVEL3_D])),
    ("xdcblat1", None, ["ddot", "daxpy", "dcopy", "dswap", "dasum", "dscal", "dnrm2", "idamax"], None),
    ("xdcblat2", "din2", ["dgemv"], ["cblas_dgemv  PASSED THE TESTS OF ERROR-EXITS",
                                      "cblas_dgemv  PASSED THE COLUMN-MAJOR COMPUTATIONAL TESTS",
                                      "cblas_dgemv  PASSED THE ROW-MAJOR    COMPUTATIONAL TESTS"]),
    ("xdcblat3", "din3", ["dgemm", *LEVEL3_D], cblas_lines(["dgemm", *LEVEL3_D])),
    # Complex: glblas defines Level 1, gemv and Level 3; the reference answers the other
    # routines (the rest of Level 2) in both runs.
    ("xblat1c", None, LEVEL1_C, None),
    ("xccblat1", None, LEVEL1_C, None),
    ("xblat1z", None, LEVEL1_Z, None),
    ("xzcblat1", None, LEVEL1_Z, None),
    ("xblat2c", "cblat2.in", ["cgemv"], fortran_lines(["cgemv"])),
    ("xccblat2", "cin2", ["cgemv"], ["cblas_cgemv  PASSED THE TESTS OF ERROR-EXITS",
                                      "cblas_cgemv  PASSED THE COMPUTATIONAL TESTS"]),
    ("xblat2z", "zblat2.in", ["zgemv"], fortran_lines(["zgemv"])),
    ("xzcblat2", "zin2", ["zgemv"], ["cblas_zgemv  PASSED THE TESTS OF ERROR-EXITS",
                                      "cblas_zgemv  PASSED THE COMPUTATIONAL TESTS"]),
    ("xblat3c", "cblat3.in", LEVEL3_C, fortran_lines(LEVEL3_C)),
    ("xccblat3", "cin3", LEVEL3_C, cblas_lines(LEVEL3_C)),
    ("xblat3z", "zblat3.in", LEVEL3_Z, fortran_lines(LEVEL3_Z)),
    ("xzcblat3", "zin3", LEVEL3_Z, cblas_lines(LEVEL3_Z)),
]

FAILURE = re.compile(r"FAIL|SUSPECT|NOT DETECTED|XERBLA WAS CALLED|\*\*\*\*\*")
PROFILE_ROW = re.compile(r"^(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+$")


def run_suite(program, infile, cwd, preload):
    env = {k: v for k, v in os.environ.items()
           if not is_glblas_setting(k) and k != "LD_PRELOAD"}
    env["LD_LIBRARY_PATH"] = BLAS_TESTS  # where libblas3 puts the reference libblas.so.3
    if preload:
        env.update(LD_PRELOAD=LIB, GLBLAS_BACKEND="gl", GLBLAS_VERIFY="1", GLBLAS_PROFILE="1")
    stdin = open(os.path.join(BLAS_TESTS, infile)) if infile else subprocess.DEVNULL
    try:
        p = subprocess.run([os.path.join(BLAS_TESTS, program)], stdin=stdin, cwd=cwd, env=env,
                           capture_output=True, text=True, timeout=600)
    finally:
        if infile:
            stdin.close()
    # The Fortran level-2/3 programs write their report to the file their input names.
    report = p.stdout
    for name in sorted(os.listdir(cwd)):
        if name.endswith(".out"):
            with open(os.path.join(cwd, name)) as f:
                report += f.read()
    return p, report


@pytest.mark.parametrize("program,infile,routines,passed", SUITES, ids=[s[0] for s in SUITES])
def test_reference_suite_passes_on_gl(tmp_path, program, infile, routines, passed):
    assert os.path.exists(os.path.join(BLAS_TESTS, program)), \
        "netlib BLAS tests missing: the test script installs libblas-test"
    assert os.path.exists(os.path.join(BLAS_TESTS, "libblas.so.3")), \
        "reference BLAS missing: the test script installs libblas3"
    (tmp_path / "plain").mkdir()
    (tmp_path / "gl").mkdir()
    plain, plain_report = run_suite(program, infile, tmp_path / "plain", preload=False)
    assert plain.returncode == 0, plain.stderr
    gl, gl_report = run_suite(program, infile, tmp_path / "gl", preload=True)
    assert gl.returncode == 0, gl.stderr
    assert not FAILURE.search(gl_report), gl_report
    # As many tests passed as without glblas, including those of the routines it does not define.
    count = lambda r: len(re.findall(r"PASS", r))  # noqa: E731
    assert count(plain_report) > 0
    assert count(gl_report) == count(plain_report), gl_report
    for line in passed or []:
        assert line in gl_report, f"missing {line!r}:\n{gl_report}"
    # GL answered every call (none went to the CPU BLAS) but the reference's quick returns,
    # which nothing answers; where the suite counts its computational calls, GL and the quick
    # returns were exactly that many (the rest were error exits). A device that cannot compute
    # in double leaves every double-precision call to the CPU BLAS.
    rows = {m.group(1): tuple(map(int, m.group(2, 3, 4, 5)))
            for m in map(PROFILE_ROW.match, gl.stderr.splitlines()) if m}
    for r in routines:
        calls, on_gl, on_cpu, quick = rows[r]
        if not routine_on_gl(LIB, r):
            assert on_gl == 0 and on_cpu > 0, gl.stderr
            continue
        assert on_gl > 0 and on_cpu == 0, gl.stderr
        computed = [int(n) for n in re.findall(
            rf"{r}\s+PASSED THE .*COMPUTATIONAL TESTS \(\s*(\d+) CALLS\)", gl_report, re.I)]
        if computed:
            assert on_gl + quick == sum(computed), (computed, gl.stderr)
