#!/usr/bin/env python3
"""Writes every surface of the BLAS routines from one table, ROUTINES below (CLBlast's
scripts/generator is the model):

- src/blas/cblas.rs: the CBLAS symbols and their ILP64 names (numpy's wheels);
- src/blas/fortran.rs: the Fortran 77 symbols, under the plain names and the wheels' spellings;
- src/blas/routine.rs: the `Routine` list (trace, profile, error reports);
- src/blas/args.rs: `Args`, a call of any routine, and `each_routine!`, which dispatches on it;
- src/api/routines.rs: the glblas API's routines (and so include/glblas.h's prototypes);
- python/glblas/_signatures.py: the ctypes argument types of every glblas API routine;
- tests/described/exports.rs: every routine's arguments and kinds, and a caller per interface
  that makes a call from argument values and gives its description, for the tests that take
  their rules from the descriptions (`tests/fuzz_described.rs`);
- c_tests/routines.h: every routine of the glblas API with its arguments' kinds, and C callers of
  its glblas function and of its Fortran function in another BLAS, for the C tests' sweeps of
  every routine (`c_tests/every_routine.h`);
- README.md: the table of routines by precision (between its routine-list marks);
- docs/api.md: the C API's reference of every routine, its prototypes in every precision from the
  table and its description (between its reference marks), with the notes of NOTES.

What each routine computes, checks and reads is described once in Rust
(`blas::describe::Describe`, `src/blas/level{1,2,3}.rs`); this table gives its name, its arguments
in the reference order and their kinds, and which description the surfaces build from them.
`--check` writes nothing and fails when a committed file differs from what the table gives (the
test command runs it).
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Argument kinds, each with how every surface spells and converts it:
#   layout       CBLAS only: the storage order (Fortran calls are column-major);
#   op           trans: CBLAS enum, Fortran character, glblasOperation_t;
#   side, uplo, diag   the same, with the values of `options::SIDE`, `UPLO`, `DIAG`;
#   int          a size, increment or leading dimension;
#   scalar       alpha, beta;
#   real_scalar  a real alpha or beta of a complex routine (herk's, her2k's beta): CBLAS passes
#                it by value, the glblas API by pointer, as cuBLAS does;
#   in, out      an operand read only, or written (`out_read`: written but described as read
#                only, swap's x, whose description holds it as `*const`).


class Routine:
    """One BLAS routine: `name` with `{p}` for the precision letter (`{p}axpy`, `i{p}amax`) and
    `{q}` for its real type's (`{q}{p}asum`: scasum);
    `args` its arguments in the reference order as `name:kind`; `variant` the `blas::args::Args`
    variant and `struct` the description it holds, whose fields are the arguments (`fields`
    overrides or adds some, `{arg}` standing for an argument's value; `omit` leaves arguments
    out; `generics` its type's parameters, `about` a line on a variant several routines share);
    `returns` None, "value" (dot, asum, nrm2), "real" (its real type's: scasum, scnrm2) or
    "index" (i?amax); `sub` names the last argument through which CBLAS returns the value
    instead (`cblas_cdotu_sub`'s `dotu`), the symbol's name ending `_sub`; `python` the name
    the Python package looks it up by, with the precision (its name without the letters, unless
    given). The glblas API function
    has `doc` (`{name}` the routine's name in the precision) and `safety` as its documentation;
    it runs `api`, a function of `crate::routines` that takes the arguments and the result
    pointer, or where there is none, checks and runs the description (`api::run`)."""

    def __init__(self, name, args, variant, struct, doc, safety, returns=None, fields=None,
                 omit=(), api=None, generics="<T>", about=None, types="sd", sub=None,
                 python=None):
        self.name = name
        self.sub = sub
        self.python = python or name.format(p="", q="")
        self.types = types
        self.generics = generics
        self.about = about
        self.doc = doc
        self.safety = safety
        self.api = api
        self.args = [tuple(a.split(":")) for a in args.split()]
        self.variant = variant
        self.struct = struct
        self.returns = returns
        self.fields = fields or {}
        self.omit = set(omit)

    def named(self, p):
        """The name in precision `p` (a letter)."""
        return self.name.format(p=p, q=REAL_LETTER.get(p, ""))

    def key(self):
        """The name of the routine's macros: `{q}` as `r` (`rasum`: asum of a complex
        vector, whose result is real) keeps them apart from the real routines'."""
        return self.name.format(p="", q="r")

    def precisions(self):
        """The precisions the routine is in."""
        return [p for p in PRECISIONS if p.letter in self.types]


VECTORS = "Host vectors must hold the elements BLAS addresses for `n` and the increments."
VECTOR = "A host vector must hold the elements BLAS addresses for `n` and the increment."
VECTOR_RESULT = "A host vector must hold the elements BLAS addresses; `result` one {result}."
VECTOR_RESULTS = "Host vectors must hold the elements BLAS addresses; `result` one {result}."
NRM2 = ("*result := the Euclidean norm of x, computed without overflow or underflow (scaled as "
        "the reference {name} scales); 0 when `n <= 0`; a negative `incx` gives the norm of the "
        "same elements, a zero one |x[0]|·sqrt(n) (reference BLAS). `result` may be a device "
        "pointer.")
MATRICES = "Host matrices must hold the elements their dimensions and leading dimensions address."
ROUTINES = [
    Routine("{p}axpy", "n:int alpha:scalar x:in incx:int y:out incy:int", "Axpy", "Axpy",
            "y := alpha*x + y.", VECTORS, api="axpy", types="sdcz"),
    Routine("{p}dot", "n:int x:in incx:int y:in incy:int", "Dot", "Dot",
            "*result := x·y. `result` may be a device pointer.", VECTOR_RESULTS,
            returns="value", api="dot", fields={"conjugate": "false"},
            about="dot, dotu, and dotc with `conjugate`."),
    Routine("{p}dotu", "n:int x:in incx:int y:in incy:int", "Dot", "Dot",
            "*result := x·y, unconjugated. `result` may be a device pointer.", VECTOR_RESULTS,
            returns="value", sub="dotu", api="dot", fields={"conjugate": "false"}, types="cz"),
    Routine("{p}dotc", "n:int x:in incx:int y:in incy:int", "Dot", "Dot",
            "*result := conj(x)·y. `result` may be a device pointer.", VECTOR_RESULTS,
            returns="value", sub="dotc", api="dotc", fields={"conjugate": "true"}, types="cz"),
    Routine("{p}scal", "n:int alpha:scalar x:out incx:int", "Scal", "Scal",
            "x := alpha*x. `n <= 0` or `incx <= 0` does nothing (reference BLAS).", VECTOR,
            api="scal", fields={"real": "false"}, types="sdcz",
            about="scal, or with `real` csscal and zdscal."),
    Routine("{p}{q}scal", "n:int alpha:real_scalar x:out incx:int", "Scal", "Scal",
            "x := alpha*x, alpha real (by pointer), each part of x scaled as the reference "
            "{name} scales it. `n <= 0` or `incx <= 0` does nothing (reference BLAS).", VECTOR,
            api="scal_real", fields={"real": "true"}, types="cz", python="scal_real"),
    Routine("{p}copy", "n:int x:in incx:int y:out incy:int", "Copy", "Move", "y := x.",
            VECTORS, api="copy", generics="<T, false>", types="sdcz"),
    Routine("{p}swap", "n:int x:out_read incx:int y:out incy:int", "Swap", "Move", "x <-> y.",
            VECTORS, api="swap", generics="<T, true>", types="sdcz"),
    Routine("{p}asum", "n:int x:in incx:int", "Reduce", "Reduce",
            "*result := sum of |x[i]|; 0 when `n <= 0` or `incx <= 0` (reference BLAS). "
            "`result` may be a device pointer.", VECTOR_RESULT, returns="value",
            fields={"what": "Reduction::Asum"}, api="asum", about="asum, nrm2 and i?amax."),
    Routine("{q}{p}asum", "n:int x:in incx:int", "Reduce", "Reduce",
            "*result := sum of |re(x[i])| + |im(x[i])|; 0 when `n <= 0` or `incx <= 0` "
            "(reference BLAS). `result` may be a device pointer.", VECTOR_RESULT, returns="real",
            fields={"what": "Reduction::Asum"}, api="asum", types="cz"),
    Routine("{p}nrm2", "n:int x:in incx:int", "Reduce", "Reduce",
            NRM2, VECTOR_RESULT, returns="value", fields={"what": "Reduction::Nrm2"},
            api="nrm2"),
    Routine("{q}{p}nrm2", "n:int x:in incx:int", "Reduce", "Reduce",
            NRM2, VECTOR_RESULT, returns="real", fields={"what": "Reduction::Nrm2"},
            api="nrm2", types="cz"),
    Routine("i{p}amax", "n:int x:in incx:int", "Reduce", "Reduce",
            "*result := the 1-based index of the first largest |x[i]| (|re| + |im| for complex "
            "x), as cublas{Name}; 0 when `n <= 0` or `incx <= 0`. A NaN is never the largest, "
            "except as element 1, which is kept (reference {name}). `result` (an int) may be a "
            "device pointer.", VECTOR_RESULT, returns="index",
            fields={"what": "Reduction::Iamax"}, api="iamax_into", types="sdcz"),
    Routine("{p}gemv", "layout:layout trans:op m:int n:int alpha:scalar a:in lda:int x:in "
            "incx:int beta:scalar y:out incy:int", "Gemv", "GemvArgs",
            "y := alpha*op(A)*x + beta*y, column-major A (m×n).",
            "Host operands must hold the elements their dimensions, `lda` and increments "
            "address.", types="sdcz"),
    Routine("{p}gemm", "layout:layout transa:op transb:op m:int n:int k:int alpha:scalar a:in "
            "lda:int b:in ldb:int beta:scalar c:out ldc:int", "Gemm", "GemmArgs",
            "C := alpha*op(A)*op(B) + beta*C, column-major.", MATRICES, types="sdcz"),
    Routine("{p}symm", "layout:layout side:side uplo:uplo m:int n:int alpha:scalar a:in "
            "lda:int b:in ldb:int beta:scalar c:out ldc:int", "Symm", "SymmArgs",
            "C := alpha*A*B + beta*C (`side` LEFT) or alpha*B*A + beta*C (RIGHT), A symmetric "
            "with its `uplo` triangle stored (the other is never read).", MATRICES,
            fields={"hermitian": "false"}, types="sdcz",
            about="symm, or hemm with `hermitian`."),
    Routine("{p}hemm", "layout:layout side:side uplo:uplo m:int n:int alpha:scalar a:in "
            "lda:int b:in ldb:int beta:scalar c:out ldc:int", "Hemm", "SymmArgs",
            "C := alpha*A*B + beta*C (`side` LEFT) or alpha*B*A + beta*C (RIGHT), A Hermitian "
            "with its `uplo` triangle stored (the other is never read, nor the imaginary parts "
            "of its diagonal).", MATRICES, fields={"hermitian": "true"}, types="cz"),
    Routine("{p}syrk", "layout:layout uplo:uplo trans:op n:int k:int alpha:scalar a:in "
            "lda:int beta:scalar c:out ldc:int", "Syrk", "SyrkArgs",
            "C := alpha*op(A)*op(A)^T + beta*C, op(A) n×k (A, or A^T with `trans` T, or C for "
            "real data), only C's `uplo` triangle read and written.", MATRICES,
            fields={"hermitian": "false", "b": "None"}, types="sdcz",
            about="syrk, or syr2k when `b` is given; herk and her2k with `hermitian`."),
    Routine("{p}syr2k", "layout:layout uplo:uplo trans:op n:int k:int alpha:scalar a:in "
            "lda:int b:in ldb:int beta:scalar c:out ldc:int", "Syr2k", "SyrkArgs",
            "C := alpha*op(A)*op(B)^T + alpha*op(B)*op(A)^T + beta*C, op(A) and op(B) n×k, only "
            "C's `uplo` triangle read and written.", MATRICES,
            fields={"hermitian": "false", "b": "Some(({b}, {ldb}))"}, omit=("b", "ldb"),
            types="sdcz"),
    Routine("{p}herk", "layout:layout uplo:uplo trans:op n:int k:int alpha:real_scalar a:in "
            "lda:int beta:real_scalar c:out ldc:int", "Herk", "SyrkArgs",
            "C := alpha*op(A)*op(A)^H + beta*C, op(A) n×k (A, or A^H with `trans` C), alpha and "
            "beta real (by pointer), only C's `uplo` triangle read and written, its diagonal's "
            "imaginary parts set to 0.", MATRICES, fields={"hermitian": "true", "b": "None"},
            types="cz"),
    Routine("{p}her2k", "layout:layout uplo:uplo trans:op n:int k:int alpha:scalar a:in "
            "lda:int b:in ldb:int beta:real_scalar c:out ldc:int", "Her2k", "SyrkArgs",
            "C := alpha*op(A)*op(B)^H + conj(alpha)*op(B)*op(A)^H + beta*C, op(A) and op(B) n×k "
            "(`trans` N or C), beta real (by pointer), only C's `uplo` triangle read and "
            "written, its diagonal's imaginary parts set to 0.", MATRICES,
            fields={"hermitian": "true", "b": "Some(({b}, {ldb}))"}, omit=("b", "ldb"),
            types="cz"),
    Routine("{p}trmm", "layout:layout side:side uplo:uplo transa:op diag:diag m:int n:int "
            "alpha:scalar a:in lda:int b:out ldb:int", "Trmm", "Trmm",
            "B := alpha*op(A)*B (`side` LEFT) or alpha*B*op(A) (RIGHT), A triangular with its "
            "`uplo` triangle stored and a `diag` diagonal (UNIT: ones, not read), in place in B "
            "as the reference BLAS (and cuBLAS's legacy API) does.", MATRICES, types="sdcz"),
    Routine("{p}trsm", "layout:layout side:side uplo:uplo transa:op diag:diag m:int n:int "
            "alpha:scalar a:in lda:int b:out ldb:int", "Trsm", "Trsm",
            "Solves op(A)*X = alpha*B (`side` LEFT) or X*op(A) = alpha*B (RIGHT) for X, which "
            "overwrites B; A triangular with its `uplo` triangle stored and a `diag` diagonal "
            "(UNIT: ones, not read).", MATRICES, types="sdcz"),
]



class Precision:
    """One of BLAS's four: its letter, its Rust type (the symbols') and the glblas API's, the
    ctypes type of a scalar in the glblas API (a complex one is passed by pointer), and the
    `Args` enum its calls are (real and complex routines are described apart)."""

    def __init__(self, letter, rust, api, ctype, args, words):
        self.letter = letter
        self.real = {"s": "f32", "d": "f64", "c": "f32", "z": "f64"}[letter]
        self.rust = rust
        self.api = api
        self.ctype = ctype
        self.args = args
        self.words = words

    @property
    def complex(self):
        return self.letter in "cz"


PRECISIONS = [
    Precision("s", "f32", "f32", "c_float", "Args", "single precision"),
    Precision("d", "f64", "f64", "c_double", "Args",
              "double precision (NOT_SUPPORTED on a device without fp64 shaders or the compute "
              "pipeline)"),
    Precision("c", "Complex<f32>", "glblasComplex", "p", "ComplexArgs",
              "single-precision complex, scalars by pointer (NOT_SUPPORTED on a device without "
              "the compute pipeline)"),
    Precision("z", "Complex<f64>", "glblasDoubleComplex", "p", "ComplexArgs",
              "double-precision complex, scalars by pointer (NOT_SUPPORTED on a device without "
              "fp64 shaders or the compute pipeline)"),
]

FLAGS = {"side": "SIDE", "uplo": "UPLO", "diag": "DIAG"}
# The letter of each complex precision's real type.
REAL_LETTER = {"c": "s", "z": "d"}
# The real type of the glblas API's complex types.
REAL_OF = {p.api: p.real for p in PRECISIONS if p.complex}
# The glblas API's enum arguments, as `crate::ffi` receives them.
API_ENUMS = {"op": "OperationArg", "side": "SideArg", "uplo": "FillArg", "diag": "DiagArg"}
HEADER = ("// Generated by scripts/generate.py from its routine table: edit the table, not this "
          "file.\n")


def variant_name(name):
    return name[0].upper() + name[1:]


def c_type(kind, t, fortran, int_t, api=False):
    """The Rust type a symbol (or a glblas API function, `api`) declares for an argument of
    `kind`."""
    if kind == "layout":
        return "c_int"
    if kind in ("op",) + tuple(FLAGS):
        return API_ENUMS[kind] if api else "*const c_char" if fortran else "c_int"
    if kind == "int":
        return f"*const {int_t}" if fortran else int_t
    if kind == "scalar":
        if fortran:
            return f"*const {t}"
        if api:
            return f"*const {t}" if t.startswith("glblas") else t
        return f"<{t} as CblasScalar>::Arg"
    if kind == "real_scalar":
        if api:
            return f"*const {REAL_OF[t]}"
        real = f"<{t} as Scalar>::Real"
        return f"*const {real}" if fortran else real
    if kind == "in":
        return f"*const {t}"
    return f"*mut {t}"


def value(name, kind, fortran, api=False):
    """The description field's value for argument `name` as the symbol received it (a glblas
    API function's when `api`)."""
    if kind == "layout":
        return "Layout::from_cblas(layout)"
    if kind == "op":
        if api:
            return f"Op::from_glblas({name}.0)"
        return f"Op::from_fortran({name})" if fortran else f"Op::from_cblas({name})"
    if kind in FLAGS:
        if api:
            return f"Flag::from_glblas(&{FLAGS[kind]}, {name}.0)"
        how = "from_fortran" if fortran else "from_cblas"
        return f"Flag::{how}(&{FLAGS[kind]}, {name})"
    if kind == "int":
        return f"(*{name}).into()" if fortran else f"{name}.into()"
    if kind == "scalar":
        if fortran:
            return f"*{name}"
        if api:
            return f'scalar({name}, "{name}")?' if api == "complex" else name
        return f"<$t as CblasScalar>::read({name})"
    if kind == "real_scalar":
        if api:
            return f'Scalar::from_real(scalar({name}, "{name}")?)'
        return f"<$t as Scalar>::from_real({'*' if fortran else ''}{name})"
    if kind == "out_read":
        return f"{name}.cast_const()"
    return name


def description(r, fortran, api=False):
    """The fields of routine `r`'s description as a symbol (or a glblas API function, `api`)
    received its arguments."""
    values = {name: value(name, kind, fortran, api) for name, kind in r.args}
    fields = []
    if (fortran or api) and any(kind == "layout" for _, kind in r.args):
        fields.append("layout: Layout::Fortran")
    for name, kind in r.args:
        if name in r.omit or ((fortran or api) and kind == "layout"):
            continue
        v = values[name]
        fields.append(name if v == name else f"{name}: {v}")
    for name, v in r.fields.items():
        fields.append(f"{name}: {v.format(**values)}")
    return fields


def construction(r, fortran):
    """The `Args` expression a symbol of routine `r` hands to `dispatch`."""
    return wrapped(f"$args::{r.variant}({r.struct} {{ ", description(r, fortran),
                   " }).into()", 14)


def wrapped(head, items, tail, indent):
    """`head`, the items separated by commas, then `tail`, in lines that fit 100 columns after
    `indent` spaces, continuations indented four more: rustfmt leaves macro arguments alone."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + (", " if i + 1 < len(items) else tail)
        if len(line) + len(piece) > 100 - indent:
            lines.append(line.rstrip())
            line = "    "
        line += piece
    return ("\n" + " " * indent).join(lines + [line])


def signature(r, t, fortran, int_t):
    args = [(name, c_type(kind, t, fortran, int_t)) for name, kind in r.args
            if not (fortran and kind == "layout")]
    if fortran:
        args += [(f"{name}_len", "usize") for name, kind in r.args
                 if kind in ("op",) + tuple(FLAGS)]
    ret = ""
    if r.sub and not fortran:
        args.append((r.sub, f"*mut {t}"))
    elif r.returns == "value":
        ret = f" -> {t}"
    elif r.returns == "real":
        ret = f" -> <{t} as Scalar>::Real"
    elif r.returns == "index":
        ret = f" -> {int_t}" if fortran else " -> CblasIndex"
    return [f"{n}: {ty}" for n, ty in args], ret


def macro(r, fortran):
    """A macro that defines routine `r`'s symbol for one precision (`$t`) and integer width:
    CBLAS's from a family and a name, Fortran's from a spelling of its names."""
    params, ret = signature(r, "$t", fortran, "$int")
    if fortran:
        head = ("[$prefix:literal, $suffix:literal] $int:ty, $t:ty, $args:ident $routine:ident "
                "$name:ident")
        family = "[$prefix, $suffix] FAMILY"
    else:
        head = "$family:ident, $int:ty, $t:ty, $args:ident $routine:ident $name:ident"
        family = "$family"
    # A value returned through the last argument (`sub`) is written there.
    out = f" => {r.sub}" if r.sub and not fortran else ""
    return (f"/// `{r.name.format(p='?', q='?')}`.\n"
            f"macro_rules! {r.key()} {{\n"
            f"    ({head}) => {{\n"
            f"        export!({family}, $routine,\n"
            f"            {wrapped('fn $name(', params, ')' + ret + out, 12)}\n"
            f"            = {construction(r, fortran)});\n"
            f"    }};\n}}\n")


def cblas_rs():
    out = [HEADER]
    out.append('''\
//! The CBLAS symbols (`cblas.h` signatures, 32-bit integers) and the same routines under the
//! ILP64 names numpy's pip wheels call (`scipy_cblas_*64_`, 64-bit integers): one macro per
//! routine, instantiated for each integer width and precision.

use std::ffi::c_int;

use super::abi::{CblasIndex, CblasScalar};
use super::args::{Args, ComplexArgs};
use super::dispatch::export;
use super::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use super::level2::GemvArgs;
use super::level3::{GemmArgs, SymmArgs, SyrkArgs, Trmm, Trsm};
use super::options::{Flag, Layout, Op, DIAG, SIDE, UPLO};
use crate::engine::element::{Complex, Scalar};
''')
    for r in ROUTINES:
        out.append("\n" + macro(r, False))
        for family, int_t, spell in (("Cblas", "c_int", "cblas_{}"),
                                     ("Ilp64", "i64", "scipy_cblas_{}64_")):
            for p in r.precisions():
                out.append(f"{r.key()}!({family}, {int_t}, {p.rust}, {p.args} "
                           f"{variant_name(r.named(p.letter))} "
                           f"{spell.format(r.named(p.letter) + ('_sub' if r.sub else ''))});\n")
    return "".join(out)


def fortran_rs():
    out = [HEADER]
    out.append('''\
//! The Fortran 77 symbols, gfortran calling convention: every argument by reference, and after
//! the others one hidden length per character argument (passed on to the CPU BLAS as received).
//! One macro per routine, instantiated for each precision and each spelling of the names: the
//! plain ones (`sgemm_`), and those of the OpenBLAS builds that pip's wheels bundle and call,
//! scipy's LP64 `scipy_sgemm_` ([`scipy`]) and numpy's ILP64 `scipy_sgemm_64_` ([`scipy64`]).

use std::ffi::{c_char, c_int};

use super::args::{Args, ComplexArgs};
use super::dispatch::export;
use super::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use super::level2::GemvArgs;
use super::level3::{GemmArgs, SymmArgs, SyrkArgs, Trmm, Trsm};
use super::options::{Flag, Layout, Op, DIAG, SIDE, UPLO};
use super::symbol::Family;
use crate::engine::element::{Complex, Scalar};
''')
    for r in ROUTINES:
        out.append("\n" + macro(r, True))
    out.append('''
/// Every routine under the names `<prefix><routine>_<suffix>` with `$int` integers. The
/// symbols' Rust names are the plain ones, so each spelling is a module of its own.
macro_rules! fortran_interface {
    ([$prefix:literal, $suffix:literal] $int:ty) => {
        const FAMILY: Family = Family::Fortran {
            prefix: $prefix,
            suffix: $suffix,
            int64: std::mem::size_of::<$int>() == 8,
        };
''')
    for r in ROUTINES:
        for p in r.precisions():
            out.append(f"        {r.key()}!([$prefix, $suffix] $int, {p.rust}, {p.args} "
                       f"{variant_name(r.named(p.letter))} {r.named(p.letter)}_);\n")
    out.append('''    };
}

fortran_interface!(["", ""] c_int);

/// The names pip's scipy calls in the OpenBLAS its wheel bundles (`scipy_sgemm_`, ...): LP64,
/// the plain names' conventions.
pub mod scipy {
    use super::*;
    fortran_interface!(["scipy_", ""] c_int);
}

/// The names of the ILP64 OpenBLAS that pip's numpy bundles (`scipy_sgemm_64_`, ...: 64-bit
/// integers); numpy.linalg copies its operands through `scipy_dcopy_64_`.
pub mod scipy64 {
    use super::*;
    fortran_interface!(["scipy_", "64_"] i64);
}
''')
    return "".join(out)



def api_rs():
    """The glblas API's routines: the BLAS arguments without the layout, scalars by value, enums
    as glblas's, and a result (dot, asum, nrm2, i?amax) through a last pointer."""
    out = [HEADER]
    out.append('''\
//! The glblas API's routines, one function per routine and precision. Level 1 runs its routine
//! of `crate::routines` (which writes a result to host or device memory), checked against its
//! description where GLBLAS_VERIFY asks ([`super::level1`]); the others check their arguments
//! as the reference BLAS does and run on GL ([`super::run`]).

#![allow(clippy::too_many_arguments)]

use std::ffi::c_int;

use super::{element, index, level1, level1_value, run, scalar};
use crate::blas::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use crate::blas::level2::GemvArgs;
use crate::blas::level3::{GemmArgs, SymmArgs, SyrkArgs, Trmm, Trsm};
use crate::blas::options::{Flag, Layout, Op, DIAG, SIDE, UPLO};
use crate::engine::element::Scalar;
use crate::ffi::{
    glblasComplex, glblasDoubleComplex, guard, DiagArg, FillArg, OperationArg, SideArg,
};
use crate::routines;
use crate::status::glblasStatus_t;
''')
    for r in ROUTINES:
        for p in r.precisions():
            name, t = r.named(p.letter), p.api
            params = [(n, c_type(kind, t, False, "c_int", api=True))
                      for n, kind in r.args if kind != "layout"]
            real_word = "float" if p.real == "f32" else "double"
            result = {"value": (f"*mut {t}", real_word if not p.complex else t),
                      "real": (f"*mut {p.real}", real_word),
                      "index": ("*mut c_int", "int")}.get(r.returns)
            if result:
                params.append(("result", result[0]))
            doc = r.doc.format(name=name, Name=variant_name(name))
            doc = doc[:-1] + f"; {p.words}."
            safety = r.safety.format(result=result[1] if result else "")
            out.append("\n" + "".join(f"///{' ' if line else ''}{line}\n"
                                        for line in lines(doc) + ["", "# Safety"] +
                                        lines(safety)))
            out.append("#[no_mangle]\n")
            out.append(f"pub unsafe extern \"C\" fn glblas{variant_name(name)}(")
            out.append(", ".join(f"{n}: {ty}" for n, ty in params) + ") -> glblasStatus_t {\n")
            if r.api:
                # A complex routine's scalars come by pointer.
                args = [f"{n}.into()" if kind == "int" else
                        f'scalar({n}, "{n}")?' if p.complex and "scalar" in kind else n
                        for n, kind in r.args]
                args += ["result"] if result else []
                api = "complex" if p.complex else True
                fields = ", ".join(description(r, False, api=api))
                # A const parameter (copy's or swap's `Move`) is not inferred from the fields.
                struct = r.struct + ("" if r.generics == "<T>" else
                                     "::" + r.generics.replace("<T", "<_"))
                checked = ("level1_value" if result else "level1") + f"({struct} {{ {fields} }}, "
                if result:
                    checked += "result, " + ("index" if r.returns == "index" else "element") + ", "
                out.append(f"    guard(|| {checked}|| routines::{r.api}({', '.join(args)})))\n}}\n")
            else:
                names = ", ".join(f'"{n}"' for n, kind in r.args if kind != "layout")
                api = "complex" if p.complex else True
                fields = ", ".join(description(r, False, api=api))
                out.append(f"    run(&[{names}], || Ok({r.struct} {{ {fields} }}))\n}}\n")
    return "".join(out)


def lines(text, width=96):
    """`text` in lines of at most `width` characters."""
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + [line]


def args_rs():
    """The call of any routine in one type per kind of element (real routines and complex ones
    are described apart), and the macros that run code on its description."""
    def enum(name, bound, complex_):
        variants = {}
        for r in ROUTINES:
            if any(p.complex == complex_ for p in r.precisions()):
                variants.setdefault(r.variant, r)
        generics = (lambda g: g.replace("<T", "<Complex<T>")) if complex_ else (lambda g: g)
        items = "".join((f"    /// {r.about}\n" if r.about else "") +
                        f"    {v}({r.struct}{generics(r.generics)}),\n"
                        for v, r in variants.items())
        arms = "".join(f"            {name}::{v}($r) => {{\n"
                       f"                let $wrap = Self::{v};\n"
                       f"                $body\n            }}\n" for v in variants)
        macro = "each_complex_routine" if complex_ else "each_routine"
        return (f"#[derive(Clone, Copy, Debug)]\npub enum {name}<T: {bound}> {{\n{items}}}\n\n"
                f"/// Runs `$body` with `$r` bound to the routine's description, and `$wrap` the "
                f"variant that\n/// holds it (inside `impl {name}`).\n"
                f"macro_rules! {macro} {{\n"
                f"    ($args:expr, $r:ident, $wrap:ident => $body:expr) => {{\n"
                f"        match $args {{\n{arms}        }}\n    }};\n}}\n"
                f"pub(crate) use {macro};\n")
    return (HEADER + '''\
//! A BLAS-compatible call's routine and arguments as given: one variant per description
//! (`describe::Describe`), in real precision `T` (`Args`) or of complex elements of `T`
//! (`ComplexArgs`).

use super::level1::{Axpy, Dot, Move, Reduce, Scal};
use super::level2::GemvArgs;
use super::level3::{GemmArgs, SymmArgs, SyrkArgs, Trmm, Trsm};
use crate::engine::element::{Complex, Real};

''' + enum("Args", "Real", False) + "\n" + enum("ComplexArgs", "Real", True))


def routines_rs():
    names = [r.named(p.letter) for r in ROUTINES for p in r.precisions()]
    variants = "".join(f"    {variant_name(n)},\n" for n in names)
    all_ = "".join(f"        Routine::{variant_name(n)},\n" for n in names)
    arms = "".join(f"            Routine::{variant_name(n)} => \"{n}\",\n" for n in names)
    return (HEADER + f'''\
//! The BLAS routines by name, each precision its own: for the trace, the profile and error
//! reports.

/// One routine in one precision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Routine {{
{variants}}}

impl Routine {{
    pub const ALL: [Routine; {len(names)}] = [
{all_}    ];

    pub fn name(self) -> &'static str {{
        match self {{
{arms}        }}
    }}
}}
''')


def signatures_py():
    """The glblas API's routines take the BLAS arguments without the layout, scalars by value
    and enums as ints, and write a result (dot, asum, nrm2, i?amax) through a last pointer."""
    out = [HEADER.replace("//", "#"),
           '"""Every glblas API routine: (precision letter, routine name, C symbol, ctypes\n'
           'argument types)."""\n\n'
           "from ctypes import c_double, c_float, c_int, c_void_p\n\n"
           "i, p = c_int, c_void_p\n"
           "DECLARATIONS = [\n"]
    for r in ROUTINES:
        for p in r.precisions():
            types = []
            for _, kind in r.args:
                if kind == "layout":
                    continue
                types.append(p.ctype if kind == "scalar" else
                             "p" if kind in ("in", "out", "out_read", "real_scalar") else "i")
            if r.returns:
                types.append("p")
            symbol = "glblas" + variant_name(r.named(p.letter))
            out.append(f'    ("{p.letter.upper()}", "{r.python}", "{symbol}", '
                       f'[{", ".join(types)}]),\n')
    out.append("]\n")
    return "".join(out)


README_BEGIN = "<!-- routines: generated by scripts/generate.py -->\n"
README_END = "<!-- end of routines -->\n"
API_BEGIN = "<!-- routine reference: generated by scripts/generate.py -->\n"
API_END = "<!-- end of routine reference -->\n"
# Routines listed with another in the README's table and the reference (dotu and dotc with dot,
# hemm with symm, herk with syrk, her2k with syr2k); the others by their own name.
FAMILY = {"dotu": "dot", "dotc": "dot", "hemm": "symm", "herk": "syrk", "her2k": "syr2k"}


def between(text, begin, end, body, path):
    """`text` with `body` between its marks `begin` and `end`."""
    if begin not in text or end not in text:
        sys.exit(f"{path} has lost its marks {begin.strip()} and {end.strip()}")
    return text[:text.index(begin) + len(begin)] + body + text[text.index(end):]


def family(r):
    """The name routine `r` is listed under: the README's row, the reference's heading."""
    name = r.name.format(p="", q="")
    return "i?amax" if name == "iamax" else FAMILY.get(name, name)


def level_of(r):
    if r.variant in ("Gemv",):
        return 2
    if any(kind == "layout" for _, kind in r.args):
        return 3
    return 1


def families():
    """The families in the table's order, each with its routines."""
    out = {}
    for r in ROUTINES:
        out.setdefault(family(r), []).append(r)
    return out


def slug(heading):
    """The anchor GitHub makes of a heading's text (lower case, punctuation but `-` and `_` gone,
    spaces as `-`)."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def readme(text):
    """The README's table of routines: each family's names in each precision, linked to the
    family's reference in docs/api.md."""
    rows = ["| routine | level | single | double | complex | double complex |\n",
            "| --- | --- | --- | --- | --- | --- |\n"]
    for name, routines in families().items():
        cells = []
        for p in PRECISIONS:
            names = [r.named(p.letter) for r in routines if p.letter in r.types]
            cells.append(", ".join(f"`{n}`" for n in names) or "—")
        rows.append(f"| [{name}](docs/api.md#{slug(name)}) | {level_of(routines[0])} | "
                    + " | ".join(cells) + " |\n")
    return between(text, README_BEGIN, README_END, "".join(rows), "README.md")


C_ENUMS = {"op": "glblasOperation_t", "side": "glblasSideMode_t", "uplo": "glblasFillMode_t",
           "diag": "glblasDiagType_t"}
OPS = {"N": "`GLBLAS_OP_N`", "T": "`GLBLAS_OP_T`", "C": "`GLBLAS_OP_C`"}


def c_prototype(r, p):
    """Routine `r`'s glblas API function in precision `p`, as include/glblas.h declares it."""
    t, real = C_API_TYPES[p.letter], C_REAL_TYPES[p.letter]
    params = []
    for n, k in r.args:
        if k == "layout":
            continue
        if k == "int":
            params.append(f"int {n}")
        elif k in C_ENUMS:
            params.append(f"{C_ENUMS[k]} {n}")
        elif k == "scalar":
            params.append(f"const {t} *{n}" if p.complex else f"{t} {n}")
        elif k == "real_scalar":
            params.append(f"const {real} *{n}")
        elif k == "in":
            params.append(f"const {t} *{n}")
        else:
            params.append(f"{t} *{n}")
    if r.returns:
        params.append({"value": f"{t} *result", "real": f"{real} *result",
                       "index": "int *result"}[r.returns])
    return wrapped(f"glblasStatus_t glblas{variant_name(r.named(p.letter))}(", params, ");", 0)


# What the reference adds to a routine's description (which is also its comment in the header),
# by the routine table's name.
NOTES = {
    "{p}axpy": "Complex products are Fortran's, `(ar·xr − ai·xi, ar·xi + ai·xr)`.",
    "{p}dot": "`n <= 0` writes 0. A `result` in device memory stays on the device.",
    "{p}dotu": "`n <= 0` writes 0.",
    "{p}dotc": "`n <= 0` writes 0.",
    "{p}scal": "`alpha == 1` does nothing either (a quick return); otherwise x is multiplied "
               "even by 0 (NaN stays NaN), as the reference does.",
    "{p}{q}scal": "Each part is scaled alone, so an infinite part gives no NaN in the other.",
    "{p}nrm2": "Scaled by powers of two, as the reference (BLAS 3.10+) scales: 1e20 and 1e-25, "
               "subnormals included, square without loss. NaN if x holds one, else infinity if "
               "it holds one. A zero `incx`'s `|x[0]|·sqrt(n)` is computed as that product on the "
               "host, rather than by reading x[0] n times. "
               "Within `((n+1)/2 + 3)·u` relative of the exact norm (`tests/reductions.rs`).",
    "{q}{p}nrm2": "The norm of all the parts of x, computed as `glblasSnrm2` computes it.",
    "i{p}amax": "Magnitudes are compared by their bits, so subnormals rank right even where a "
                "device flushes them; complex x is compared by `|re| + |im|` as the reference's "
                "icamax does (not the modulus).",
    "{p}gemv": "For complex data `GLBLAS_OP_C` is `y := alpha*A^H*x + beta*y`.",
    "{p}gemm": "`GLBLAS_OP_C` is the conjugate transpose (for real data, the transpose). A "
               "complex alpha or beta is passed by pointer, as cuBLAS passes it; a NULL one is "
               "`INVALID_VALUE`.",
    "{p}hemm": "The other triangle is the stored one's conjugate mirror; the diagonal's "
               "imaginary parts are taken as 0.",
    "{p}trmm": "`GLBLAS_OP_C` conjugates complex data.",
    "{p}trsm": "`GLBLAS_OP_C` conjugates complex data.",
}


def markdown(text, indent=0):
    """`text` with its `*` taken literally outside code spans, in lines of at most 100 columns,
    those after the first indented by `indent`."""
    parts = text.split("`")
    text = "`".join(part if i % 2 else part.replace("*", "\\*") for i, part in enumerate(parts))
    return ("\n" + " " * indent).join(lines(text, 100 - indent)) + "\n"


def operations(r):
    """The operations routine `r` takes, where some precision takes fewer than N, T and C."""
    real = {valid_ops(r, p) for p in r.precisions() if not p.complex}
    cplx = {valid_ops(r, p) for p in r.precisions() if p.complex}
    if not any(k == "op" for _, k in r.args) or real | cplx == {"NTC"}:
        return ""
    def spell(ops):
        return ", ".join(OPS[o] for o in ops[:-1]) + " or " + OPS[ops[-1]]

    if not real:
        return f" `trans`: {spell(cplx.pop())}."
    return f" `trans`: {spell(real.pop())}; on complex data {spell(cplx.pop())}."


def api_md(text):
    """The reference of every glblas API routine: its description, what host operands must hold,
    the operations it takes, and its prototype in each precision."""
    out = ["Each routine in each precision it has. What the letters mean:\n\n"]
    for p in PRECISIONS:
        out.append(markdown(f"- `glblas{p.letter.upper()}...`: {p.words}.", 2))
    for name, routines in families().items():
        out.append(f"\n### {name}\n")
        for r in routines:
            named = r.named(r.precisions()[0].letter)
            doc = r.doc.format(name=named, Name=variant_name(named)) + operations(r)
            if r.name in NOTES:
                doc += " " + NOTES[r.name]
            safety = r.safety.format(result="element" if r.returns else "")
            names = ", ".join(f"`{r.named(p.letter)}`" for p in r.precisions())
            out.append("\n" + markdown(f"{names}: {doc} {safety}") + "\n```c\n")
            out += [c_prototype(r, p) + "\n" for p in r.precisions()]
            out.append("```\n")
    return between(text, API_BEGIN, API_END, "".join(out), "docs/api.md")


# The interfaces a test calls each routine through: the glblas API, CBLAS (32-bit integers),
# Fortran 77, and CBLAS's ILP64 names.
TEST_IFACES = (("Api", None), ("Cblas", "c_int"), ("Fortran", "c_int"), ("Ilp64", "i64"))


def symbol(r, p, iface):
    """The exported name of routine `r` in precision `p` through `iface`."""
    name = r.named(p.letter)
    if iface == "Api":
        return "glblas" + variant_name(name)
    if iface == "Fortran":
        return name + "_"
    sub = "_sub" if r.sub else ""
    return f"cblas_{name}{sub}" if iface == "Cblas" else f"scipy_cblas_{name}{sub}64_"


def test_caller(r, p, iface, int_t):
    """A function that calls routine `r` in precision `p` through `iface` (glblas's export, or
    the function `target` names, of the same name and signature) with the arguments in `v`, and
    gives the call's description with what it returned (only the description, for
    `Target::Describe`)."""
    api, fortran = iface == "Api", iface == "Fortran"
    t = p.api if api else p.rust
    if api:
        params = [c_type(kind, t, False, "c_int", api=True) for _, kind in r.args
                  if kind != "layout"]
        ret = " -> glblasStatus_t"
    else:
        sig, ret = signature(r, t, fortran, int_t)
        params = [s.split(": ", 1)[1] for s in sig]
    body = []
    args = []
    for i, (name, kind) in enumerate(r.args):
        if kind == "layout" and (api or fortran):
            continue
        enum = kind in ("layout", "op") + tuple(FLAGS)
        if enum and api:
            body.append(f"let {name} = {API_ENUMS[kind]}(v[{i}].int32());")
        elif enum and fortran:
            body.append(f"let {name}_c = v[{i}].int32() as c_char;")
            body.append(f"let {name} = &{name}_c as *const c_char;")
        elif enum:
            body.append(f"let {name} = v[{i}].int32();")
        elif kind == "int":
            get = "int64" if int_t == "i64" else "int32"
            if fortran:
                body.append(f"let {name}_v = v[{i}].{get}();")
                body.append(f"let {name} = &{name}_v as *const {int_t};")
            else:
                body.append(f"let {name} = v[{i}].{get}();")
        elif kind == "scalar":
            body.append(f"let {name}_v: {t} = v[{i}].scalar();")
            if fortran or (api and p.complex):
                body.append(f"let {name} = &{name}_v as *const {t};")
            elif api:
                body.append(f"let {name} = {name}_v;")
            else:
                body.append(f"let {name} = <{t} as ScalarArg>::arg(&{name}_v);")
        elif kind == "real_scalar":
            body.append(f"let {name}_v: {p.real} = v[{i}].scalar();")
            body.append(f"let {name} = &{name}_v as *const {p.real};" if fortran or api
                        else f"let {name} = {name}_v;")
        elif kind == "in":
            body.append(f"let {name} = v[{i}].ptr() as *const {t};")
        else:
            body.append(f"let {name} = v[{i}].ptr() as *mut {t};")
        args.append(name)
    if fortran:
        args += ["1" for _, kind in r.args if kind in ("op",) + tuple(FLAGS)]
    result = None
    if api and r.returns:
        result = {"value": t, "real": p.real, "index": "c_int"}[r.returns]
        params.append(f"*mut {result}")
        body.append(f"let mut result_v = <{result} as Returned>::unset();")
        args.append("&mut result_v")
    if r.sub and not fortran and not api:
        body.append(f"let mut {r.sub}_v = <{t} as Returned>::unset();")
        args.append(f"&mut {r.sub}_v")
    fields = description(r, fortran, api="complex" if api and p.complex else api)
    struct = wrapped(f"{p.args}::{r.variant}({r.struct} {{ ", fields, " })", 8)
    struct = struct.replace("$t", t).replace("$args", p.args)
    fn_type = f"unsafe extern \"C\" fn({', '.join(params)}){ret}"
    pick = (f"let f: F = target.function().map_or({symbol(r, p, iface)} as F, |f| "
            f"std::mem::transmute::<*const c_void, F>(f));")
    returned = (f"Got::Status(got)" if api else
                f"{r.sub}_v.got()" if r.sub and not fortran else "got.got()")
    if api and r.returns:
        returned = "Got::Result(got, result_v.got_value())"
    lines_ = [f"type F = {fn_type};", pick] + body + [
        f"let call: Call = (|| Some({struct}.into()))().expect(\"a scalar\");",
        "if target.describe_only() {", "    return Done { call, got: Got::Nothing };", "}",
        f"let got = f({', '.join(args)});",
        f"Done {{ call, got: {returned} }}"]
    name = f"{r.named(p.letter)}_{iface.lower()}"
    return (f"unsafe fn {name}(target: Target, v: &[Raw]) -> Done {{\n"
            + "".join(f"    {line}\n" for line in lines_) + "}\n")


def described_rs():
    """For tests that take their rules from the routines' descriptions: every routine's
    arguments and kinds, and a caller per interface that gives the call's description too."""
    out = [HEADER, '''\
//! Every routine of the table through each interface, as data: its arguments' names and
//! kinds, and per interface a function that makes the call from argument values and gives
//! its description (`blas::call::Call`, built from the values as the symbol builds it) with
//! what it returned (see `mod.rs`).

#![allow(clippy::all, unused_variables, unused_unsafe)]

use std::ffi::{c_char, c_int, c_void};

use glblas::api::*;
use glblas::blas::abi::{CblasIndex, CblasScalar};
use glblas::blas::args::{Args, ComplexArgs};
use glblas::blas::call::Call;
use glblas::blas::cblas::*;
use glblas::blas::fortran::*;
use glblas::blas::level1::{Axpy, Dot, Move, Reduce, Reduction, Scal};
use glblas::blas::level2::GemvArgs;
use glblas::blas::level3::{GemmArgs, SymmArgs, SyrkArgs, Trmm, Trsm};
use glblas::blas::options::{Flag, Layout, Op, DIAG, SIDE, UPLO};
use glblas::engine::element::{Complex, Scalar};
use glblas::ffi::{glblasComplex, glblasDoubleComplex, DiagArg, FillArg, OperationArg, SideArg};
use glblas::status::glblasStatus_t;

use super::{Done, Exports, Got, Kind, Raw, Returned, ScalarArg, Target};

/// A complex routine's scalar passed by pointer to the glblas API (never NULL here).
fn scalar<T: Copy>(p: *const T, _name: &str) -> Option<T> {
    // SAFETY: the callers pass pointers to their own locals.
    Some(unsafe { *p })
}
''']
    kinds = {"layout": "Layout", "op": "Op", "side": "Side", "uplo": "Uplo", "diag": "Diag",
             "int": "Int", "scalar": "Scalar", "real_scalar": "RealScalar", "in": "In",
             "out": "Out", "out_read": "Out"}
    table = []
    for r in ROUTINES:
        for p in r.precisions():
            for iface, int_t in TEST_IFACES:
                out.append("\n" + test_caller(r, p, iface, int_t))
            args = ", ".join(f'("{n}", Kind::{kinds[k]})' for n, k in r.args)
            name = r.named(p.letter)
            callers = ", ".join(f"{name}_{iface.lower()}" for iface, _ in TEST_IFACES)
            symbols = ", ".join(f'"{symbol(r, p, i)}"' for i, _ in TEST_IFACES)
            table.append(f'    Exports {{ name: "{name}", letter: \'{p.letter}\', '
                         f'args: &[{args}], symbols: [{symbols}], '
                         f'callers: [{callers}] }},\n')
    out.append("\n/// Every routine in every precision.\npub const EXPORTS: &[Exports] = &[\n")
    out += table
    out.append("];\n")
    return "".join(out)


# C types of the elements of each precision: the glblas API's and a Fortran function's value.
C_API_TYPES = {"s": "float", "d": "double", "c": "glblasComplex", "z": "glblasDoubleComplex"}
C_VALUE_TYPES = {"s": "float", "d": "double", "c": "float _Complex", "z": "double _Complex"}
C_REAL_TYPES = {"s": "float", "d": "double", "c": "float", "z": "double"}
# Each enum kind's glblas value as the Fortran character that means it.
FORTRAN_CHARS = {"op": "NTC", "side": "LR", "uplo": "LU", "diag": "NU"}


def valid_ops(r, p):
    """The operations routine `r` accepts in precision `p`: the Hermitian rank updates N and
    C, the complex symmetric ones N and T, the rest N, T and C."""
    if r.name in ("{p}herk", "{p}her2k"):
        return "NC"
    if p.complex and r.name in ("{p}syrk", "{p}syr2k"):
        return "NT"
    return "NTC"


def c_callers(r, p):
    """C functions that call routine `r` in precision `p` with the argument values `v` (layout
    left out): its glblas API function, and a Fortran interface's function `f` (the reference
    BLAS's, from dlsym), each writing a returned value to `result`."""
    args = [(n, k) for n, k in r.args if k != "layout"]
    t, real = C_API_TYPES[p.letter], C_REAL_TYPES[p.letter]
    name = r.named(p.letter)
    api_lines, api_args, ref_lines, ref_args, lengths = [], [], [], [], []
    for i, (n, k) in enumerate(args):
        if k == "int":
            api_args.append(f"v[{i}].i")
            ref_lines.append(f"int {n} = v[{i}].i;")
            ref_args.append(f"&{n}")
        elif k in FORTRAN_CHARS:
            enum = {"op": "glblasOperation_t", "side": "glblasSideMode_t",
                    "uplo": "glblasFillMode_t", "diag": "glblasDiagType_t"}[k]
            api_args.append(f"({enum})v[{i}].i")
            ref_lines.append(f'char {n} = "{FORTRAN_CHARS[k]}"[v[{i}].i];')
            ref_args.append(f"&{n}")
            lengths.append("(size_t)1")
        elif k == "scalar":
            parts = f"({real})v[{i}].s[0], ({real})v[{i}].s[1]"
            if p.complex:
                api_lines.append(f"{t} {n} = {{{parts}}};")
                api_args.append(f"&{n}")
            else:
                api_args.append(f"({real})v[{i}].s[0]")
            ref_lines.append(f"{real} {n}[2] = {{{parts}}};")
            ref_args.append(n)
        elif k == "real_scalar":
            api_lines.append(f"{real} {n} = ({real})v[{i}].s[0];")
            api_args.append(f"&{n}")
            ref_lines.append(f"{real} {n} = ({real})v[{i}].s[0];")
            ref_args.append(f"&{n}")
        else:
            const = "const " if k == "in" else ""
            api_args.append(f"({const}{t} *)v[{i}].p")
            ref_args.append(f"v[{i}].p")
    if r.returns:
        api_args.append("result")
    ret = {None: "void", "value": C_VALUE_TYPES[p.letter], "real": real,
           "index": "int"}[r.returns]
    params = ["const void *"] * len(ref_args) + ["size_t"] * len(lengths)
    fn_type = wrapped(f"typedef {ret} (*fortran_{name}_t)(", params, ");", 0)
    head = f"*({ret} *)result = " if r.returns else ""
    ref_lines.append(wrapped(f"{head}((fortran_{name}_t)f)(", ref_args + lengths, ");", 4))
    api = "glblas" + variant_name(name)
    unused = [] if r.returns else ["(void)result;"]
    body = "".join(f"    {line}\n" for line in api_lines + unused)
    call = wrapped(f"return {api}(", api_args, ");", 4)
    out = (f"static glblasStatus_t call_api_{name}(const arg_t *v, void *result)\n{{\n{body}"
           f"    {call}\n}}\n\n{fn_type}\n\n")
    body = "".join(f"    {line}\n" for line in unused + ref_lines)
    return (out + f"static void call_fortran_{name}(blas_fn_t f, const arg_t *v, void *result)\n"
            f"{{\n{body}}}\n")


def c_routines_h():
    """For the C tests: every routine of the table in every precision (`ROUTINES`), with its
    arguments and callers (`c_callers`)."""
    out = [f"/* {HEADER[3:].strip()} */\n", '''/*
 * routines.h - every routine of the glblas API in every precision, as data: its arguments'
 * names and kinds, the operations it accepts, what it returns, and two callers that take the
 * argument values as an array: one calls its glblas function, the other the routine's Fortran
 * function in a BLAS library (the reference BLAS, through dlsym). every_routine.h draws the
 * values and compares the two.
 */
#ifndef GLBLAS_C_TESTS_ROUTINES_H
#define GLBLAS_C_TESTS_ROUTINES_H

#include <stddef.h>

#include "glblas.h"

/* An argument's kind, as in the routine table (an out_read operand is read, then written). */
typedef enum {
    K_INT,
    K_OP,
    K_SIDE,
    K_UPLO,
    K_DIAG,
    K_SCALAR,
    K_REAL_SCALAR,
    K_IN,
    K_OUT,
    K_OUT_READ
} kind_t;

/* What a routine returns: nothing, a value of its precision, of its real type, or an index. */
typedef enum { R_NONE, R_VALUE, R_REAL, R_INDEX } returns_t;

/* An argument's value: an int or enum, a scalar's parts, or an operand. */
typedef union {
    int i;
    double s[2];
    void *p;
} arg_t;

typedef void (*blas_fn_t)(void);

typedef struct {
    const char *name;   /* the Fortran name without its underscore: "cgemm" */
    const char *api;    /* the glblas function: "glblasCgemm" */
    char letter;        /* the precision: s, d, c or z */
    int nargs;
    const char *const *names;
    const kind_t *kinds;
    const char *ops;    /* the operations its op arguments accept, as Fortran letters */
    returns_t returns;
    glblasStatus_t (*call_api)(const arg_t *v, void *result);
    void (*call_fortran)(blas_fn_t f, const arg_t *v, void *result);
} routine_t;
''']
    kinds = {"int": "K_INT", "op": "K_OP", "side": "K_SIDE", "uplo": "K_UPLO",
             "diag": "K_DIAG", "scalar": "K_SCALAR", "real_scalar": "K_REAL_SCALAR",
             "in": "K_IN", "out": "K_OUT", "out_read": "K_OUT_READ"}
    returns = {None: "R_NONE", "value": "R_VALUE", "real": "R_REAL", "index": "R_INDEX"}
    table = []
    for r in ROUTINES:
        args = [(n, k) for n, k in r.args if k != "layout"]
        for p in r.precisions():
            name = r.named(p.letter)
            names = [f'"{n}"' for n, _ in args]
            out.append("\n" + wrapped(f"static const char *const NAMES_{name}[] = {{", names,
                                      "};", 0) + "\n")
            out.append(wrapped(f"static const kind_t KINDS_{name}[] = {{",
                               [kinds[k] for _, k in args], "};", 0) + "\n\n")
            out.append(c_callers(r, p))
            fields = [f'"{name}"', f'"glblas{variant_name(name)}"', f"'{p.letter}'",
                      str(len(args)), f"NAMES_{name}", f"KINDS_{name}", f'"{valid_ops(r, p)}"',
                      returns[r.returns], f"call_api_{name}", f"call_fortran_{name}"]
            table.append("    " + wrapped("{", fields, "},", 4) + "\n")
    out.append("\n/* Every routine in every precision. */\nstatic const routine_t ROUTINES[] = {\n")
    out += table
    out.append("};\n\nenum { ROUTINE_COUNT = sizeof ROUTINES / sizeof ROUTINES[0] };\n\n"
               "#endif /* GLBLAS_C_TESTS_ROUTINES_H */\n")
    return "".join(out)


def rustfmt(text):
    """`text` as `cargo fmt` leaves it, so that the two never disagree."""
    return subprocess.run(["rustfmt", "--edition", "2021", "--emit", "stdout"], input=text,
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def outputs():
    return {
        "src/blas/cblas.rs": rustfmt(cblas_rs()),
        "src/blas/fortran.rs": rustfmt(fortran_rs()),
        "src/blas/routine.rs": rustfmt(routines_rs()),
        "src/blas/args.rs": rustfmt(args_rs()),
        "src/api/routines.rs": rustfmt(api_rs()),
        "tests/described/exports.rs": rustfmt(described_rs()),
        "c_tests/routines.h": c_routines_h(),
        "python/glblas/_signatures.py": signatures_py(),
        "README.md": readme(read("README.md")),
        "docs/api.md": api_md(read("docs/api.md")),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if a generated file differs from the committed one")
    args = parser.parse_args()
    stale = []
    for path, text in outputs().items():
        full = os.path.join(ROOT, path)
        old = open(full).read() if os.path.exists(full) else None
        if old == text:
            continue
        if args.check:
            stale.append(path)
        else:
            with open(full, "w") as f:
                f.write(text)
    if stale:
        sys.exit("generated files are stale (run scripts/generate.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
