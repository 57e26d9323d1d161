"""pytest configuration: loads libglblas with ctypes ($GLBLAS_LIB, else
<repo>/target/release/libglblas.so relative to this file) and exposes it as the session fixture
``lib`` (a ctypes.CDLL with argtypes/restype declared for every function, see glblas_ctypes)."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import glblas_ctypes as g  # noqa: E402


@pytest.fixture(scope="session")
def lib():
    path = g.default_library_path()
    assert os.path.exists(path), f"libglblas not found at {path} (build it or set GLBLAS_LIB)"
    lib = g.load_library(path)
    g.check(lib, lib.glblasInit(), "glblasInit")
    yield lib
    g.check(lib, lib.glblasShutdown(), "glblasShutdown")


@pytest.fixture
def rng(request):
    """A per-test generator with a fixed seed derived from the test name (incl. parameters), so every test is
    reproducible on its own and independent of execution order."""
    import zlib
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))
