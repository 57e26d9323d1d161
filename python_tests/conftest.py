"""pytest configuration: the tests use the glblas package from <repo>/python on the library
built at <repo>/target/release/libglblas.so, so that they exercise the current build
($GLBLAS_LIBRARY, which the package reads, overrides it). The session fixture ``lib`` is the
library with its C functions declared (``glblas.lib``), initialised for the session."""

import os
import pathlib
import sys
import zlib

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
os.environ.setdefault("GLBLAS_LIBRARY", str(ROOT / "target" / "release" / "libglblas.so"))
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python_tests"))

import glblas  # noqa: E402


@pytest.fixture(scope="session")
def lib():
    glblas.check(glblas.lib.glblasInit(), "glblasInit")
    yield glblas.lib
    glblas.shutdown()


@pytest.fixture
def rng(request):
    """A per-test generator with a fixed seed derived from the test name (incl. parameters), so
    every test is reproducible on its own and independent of execution order."""
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))
