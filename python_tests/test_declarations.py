"""The package's declarations of the glblas API routines (python/glblas/_signatures.py, written by
scripts/generate.py from its routine table) against the prototypes of include/glblas.h (written by
cbindgen from the Rust exports): every routine of the header is declared, with its argument types,
so that neither surface can drift from the other."""

import pathlib
import re
from ctypes import c_double, c_float, c_int, c_void_p

from glblas._signatures import DECLARATIONS

HEADER = pathlib.Path(__file__).resolve().parent.parent / "include" / "glblas.h"
# The functions that are no BLAS routine, declared by hand in _capi.py.
SERVICE = {"glblasInit", "glblasWarm", "glblasShutdown", "glblasGetStatusString",
           "glblasGetDeviceName", "glblasGetDeviceInfo", "glblasMalloc", "glblasFree",
           "glblasMemcpy", "glblasSync", "glblasTimeKernels", "glblasGetKernelTime",
           "glblasTune", "glblasDescribeDevice"}
ENUMS = {"glblasOperation_t", "glblasSideMode_t", "glblasFillMode_t", "glblasDiagType_t"}


def ctype(c):
    """The ctypes type a C parameter declaration is passed as."""
    c = c.strip()
    if "*" in c:
        return c_void_p
    base = c.rsplit(None, 1)[0]
    if base in ENUMS or base == "int":
        return c_int
    return {"float": c_float, "double": c_double}[base]


def routines():
    """The header's routines, by name: the ctypes types of their parameters."""
    text = HEADER.read_text()
    found = {}
    for name, params in re.findall(r"glblasStatus_t (glblas\w+)\(([^)]*)\);", text):
        if name not in SERVICE:
            found[name] = [ctype(p) for p in params.split(",")]
    return found


def test_every_header_routine_is_declared_with_its_types():
    header = routines()
    declared = {symbol: types for _, _, symbol, types in DECLARATIONS}
    assert sorted(declared) == sorted(header)
    for symbol, types in declared.items():
        assert types == header[symbol], symbol


def prototypes(text):
    """The routines' prototypes in `text`, each with its whitespace made single spaces."""
    return {name: " ".join(f"{name}({params});".split())
            for name, params in re.findall(r"glblasStatus_t (glblas\w+)\(([^)]*)\);", text)
            if name not in SERVICE}


def test_the_api_reference_gives_the_header_prototypes():
    """docs/api.md's routine reference (written by scripts/generate.py from its table) declares
    every routine of the header, as the header does."""
    api = prototypes((HEADER.parent.parent / "docs" / "api.md").read_text())
    assert api == prototypes(HEADER.read_text())
