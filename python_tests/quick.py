"""The reference BLAS's quick returns, read from a call's trace fields: calls with these
arguments touch nothing, are routed nowhere and are traced ``route=none reason=quick-return``
(docs/api.md, "Quick returns"; src/quick.rs). Written from netlib's sources, independently of the
library, so that a test checks the library's rule against the reference's."""

QUICK = ("none", "quick-return")


def routine(symbol):
    """The routine without precision or interface: cblas_sgemm, dgemm_, scipy_cblas_isamax64_,
    scipy_dgemm_64_ -> gemm, gemm, iamax, gemm; cblas_cdotu_sub, zdotc_ -> dot; scasum, dznrm2,
    zdscal -> asum, nrm2, scal; nrm2 and syr2k keep their digit."""
    name = symbol
    for prefix in ("scipy_", "cblas_"):
        name = name[len(prefix):] if name.startswith(prefix) else name
    name = name.rstrip("_")
    if name.endswith("64"):
        name = name[:-2].rstrip("_")
    name = name[:-len("_sub")] if name.endswith("_sub") else name
    if name.startswith(("isamax", "idamax", "icamax", "izamax")):
        return "iamax"
    if name.startswith(("scasum", "dzasum", "scnrm2", "dznrm2", "csscal", "zdscal")):
        return name[2:]
    return {"dotu": "dot", "dotc": "dot"}.get(name[1:], name[1:])


def number(text):
    """A trace field's value: a real, or a complex one, which the trace writes as re+imi."""
    return complex(text[:-1] + "j") if text.endswith("i") else float(text)


def is_quick(symbol, fields):
    """Whether the reference returns at once from `symbol` called with `fields` (the trace's
    key=value pairs, values as text)."""
    f = {k: number(v) for k, v in fields.items() if k not in ("layout", "trans", "transa",
                                                                "transb", "side", "uplo", "diag")}
    n, m, k = f.get("n"), f.get("m"), f.get("k")
    alpha, beta = f.get("alpha"), f.get("beta")
    r = routine(symbol)
    if r in ("dot", "copy", "swap", "nrm2"):
        return n <= 0
    if r == "axpy":
        return n <= 0 or alpha == 0
    if r == "scal":
        return n <= 0 or f["incx"] <= 0 or alpha == 1  # alpha = 1 since LAPACK 3.12
    if r == "asum":
        return n <= 0 or f["incx"] <= 0
    if r == "iamax":
        return n <= 1 or f["incx"] <= 0
    if r in ("gemv", "symm", "hemm"):
        return m == 0 or n == 0 or (alpha == 0 and beta == 1)
    if r == "gemm":
        return m == 0 or n == 0 or ((alpha == 0 or k == 0) and beta == 1)
    if r in ("syrk", "syr2k", "herk", "her2k"):
        return n == 0 or ((alpha == 0 or k == 0) and beta == 1)
    if r in ("trmm", "trsm"):
        return m == 0 or n == 0
    raise ValueError(f"no quick-return rule for {symbol}")
