/*
 * test_complex.c - the complex routines of the glblas API from C: glblasCgemm and glblasZgemm
 * with every pair of N, T and C and complex alpha and beta, glblasCcopy and glblasZswap, and
 * (`vector_routines`) glblasCgemv, glblasZdotc, glblasCaxpy, glblasCsscal, glblasScnrm2 and
 * glblasIzamax, on
 * C99 `float _Complex` / `double _Complex` arrays passed as glblasComplex / glblasDoubleComplex
 * (the header's {re, im} structs share their layout), host and device operands.
 *
 * - The reference is computed in long double complex from parts of 24 significant bits, whose
 *   products are exact there. Each part of an element of C is a real sum of 2k products (and
 *   the alpha and beta products), so within BOUND_FACTOR * (2k + 6) * u of the sum of
 *   |alpha| |a| |b| + |beta| |c| over its terms (moduli), u the unit roundoff of the type.
 * - The padding rows of C are sentinels and must come back bit for bit.
 * - Complex needs the compute pipeline (and double complex fp64 too): elsewhere every call must
 *   answer NOT_SUPPORTED with its outputs untouched.
 */
#include <complex.h>
#include <float.h>

#include "check.h"

/* Whether this device computes in single (dbl 0) or double (1) complex. */
static int complex_here(int dbl)
{
    glblasDeviceInfo_t info;
    CHECK_OK(glblasGetDeviceInfo(&info));
    return strcmp(info.pipeline, "compute") == 0 && (!dbl || info.fp64);
}

static long double _Complex crand(rng_t *r)
{
    float re = rng_float(r), im = rng_float(r);
    return (long double)re + (long double)im * I;
}

/* op(X)(i, l) of stored x (leading dimension ld): X, X^T or X^H. */
static long double _Complex op_at(const long double _Complex *x, size_t ld, int op, size_t i,
                                  size_t l)
{
    if (op == GLBLAS_OP_N)
        return x[i + l * ld];
    return op == GLBLAS_OP_C ? conjl(x[l + i * ld]) : x[l + i * ld];
}

/* One gemm in precision `dbl` with operations (ta, tb) on m x n x k, host or device C. */
static void gemm_case(int dbl, int ta, int tb, size_t m, size_t n, size_t k, int device)
{
    char label[96];
    rng_t r = rng_seed(1000 * m + 100 * n + 10 * k + (size_t)(3 * ta + tb));
    size_t ar = ta == GLBLAS_OP_N ? m : k, ac = ta == GLBLAS_OP_N ? k : m;
    size_t br = tb == GLBLAS_OP_N ? k : n, bc = tb == GLBLAS_OP_N ? n : k;
    size_t lda = ar + 1, ldb = br + 2, ldc = m + 3, i, j, l;
    size_t es = dbl ? sizeof(double _Complex) : sizeof(float _Complex);
    long double _Complex *a = xmalloc(lda * ac * sizeof *a), *b = xmalloc(ldb * bc * sizeof *b);
    long double _Complex *c = xmalloc(ldc * n * sizeof *c);
    long double _Complex alpha = -0.75L + 0.5L * I, beta = 0.25L - 1.5L * I;
    void *ha = xmalloc(lda * ac * es), *hb = xmalloc(ldb * bc * es), *hc = xmalloc(ldc * n * es);
    void *c0 = xmalloc(ldc * n * es), *got = xmalloc(ldc * n * es);
    void *dc = NULL;
    glblasStatus_t st;
    int able = complex_here(dbl);
    snprintf(label, sizeof label, "%s op %d,%d %lux%lux%lu %s", dbl ? "zgemm" : "cgemm", ta, tb,
             (unsigned long)m, (unsigned long)n, (unsigned long)k, device ? "device" : "host");
    for (i = 0; i < lda * ac; ++i)
        a[i] = crand(&r);
    for (i = 0; i < ldb * bc; ++i)
        b[i] = crand(&r);
    for (i = 0; i < ldc * n; ++i)
        c[i] = i % ldc < m ? crand(&r) : SENTINEL + SENTINEL * I;
    /* The operands in the call's type. */
    for (i = 0; i < lda * ac; ++i) {
        if (dbl)
            ((double _Complex *)ha)[i] = (double _Complex)a[i];
        else
            ((float _Complex *)ha)[i] = (float _Complex)a[i];
    }
    for (i = 0; i < ldb * bc; ++i) {
        if (dbl)
            ((double _Complex *)hb)[i] = (double _Complex)b[i];
        else
            ((float _Complex *)hb)[i] = (float _Complex)b[i];
    }
    for (i = 0; i < ldc * n; ++i) {
        if (dbl)
            ((double _Complex *)hc)[i] = (double _Complex)c[i];
        else
            ((float _Complex *)hc)[i] = (float _Complex)c[i];
    }
    memcpy(c0, hc, ldc * n * es);
    if (device) {
        CHECK_OK(glblasMalloc(&dc, ldc * n * es));
        CHECK_OK(glblasMemcpy(dc, hc, ldc * n * es, glblasMemcpyHostToDevice));
    }
    if (dbl) {
        double _Complex al = (double _Complex)alpha, be = (double _Complex)beta;
        st = glblasZgemm(ta, tb, (int)m, (int)n, (int)k, (const glblasDoubleComplex *)&al,
                         (const glblasDoubleComplex *)ha, (int)lda,
                         (const glblasDoubleComplex *)hb, (int)ldb,
                         (const glblasDoubleComplex *)&be,
                         (glblasDoubleComplex *)(device ? dc : hc), (int)ldc);
    } else {
        float _Complex al = (float _Complex)alpha, be = (float _Complex)beta;
        st = glblasCgemm(ta, tb, (int)m, (int)n, (int)k, (const glblasComplex *)&al,
                         (const glblasComplex *)ha, (int)lda, (const glblasComplex *)hb,
                         (int)ldb, (const glblasComplex *)&be,
                         (glblasComplex *)(device ? dc : hc), (int)ldc);
    }
    if (device) {
        CHECK_OK(glblasMemcpy(got, dc, ldc * n * es, glblasMemcpyDeviceToHost));
        CHECK_OK(glblasFree(dc));
    } else {
        memcpy(got, hc, ldc * n * es);
    }
    if (!able) {
        CHECK_STATUS(st, GLBLAS_STATUS_NOT_SUPPORTED);
        CHECK(memcmp(got, c0, ldc * n * es) == 0, "%s: C written by a refused call", label);
    } else {
        long double u = dbl ? DBL_EPSILON / 2.0L : FLT_EPSILON / 2.0L;
        CHECK_STATUS(st, GLBLAS_STATUS_SUCCESS);
        for (j = 0; j < n; ++j) {
            for (i = 0; i < ldc; ++i) {
                size_t at = i + j * ldc;
                long double _Complex want = beta * c[at], v;
                long double scale = cabsl(beta) * cabsl(c[at]), bound;
                if (i >= m) {
                    CHECK(memcmp((char *)got + at * es, (char *)c0 + at * es, es) == 0,
                          "%s: padding (%lu, %lu) written", label, (unsigned long)i,
                          (unsigned long)j);
                    continue;
                }
                for (l = 0; l < k; ++l) {
                    long double _Complex t = alpha * op_at(a, lda, ta, i, l) * op_at(b, ldb, tb, l, j);
                    want += t;
                    scale += cabsl(alpha) * cabsl(op_at(a, lda, ta, i, l)) *
                             cabsl(op_at(b, ldb, tb, l, j));
                }
                v = dbl ? (long double _Complex)((double _Complex *)got)[at]
                        : (long double _Complex)((float _Complex *)got)[at];
                bound = BOUND_FACTOR * (2.0L * k + 6.0L) * u * scale;
                CHECK(fabsl(creall(v) - creall(want)) <= bound &&
                          fabsl(cimagl(v) - cimagl(want)) <= bound,
                      "%s: C(%lu, %lu) = %.9Lg%+.9Lgi, want %.9Lg%+.9Lgi (bound %.3Lg)", label,
                      (unsigned long)i, (unsigned long)j, creall(v), cimagl(v), creall(want),
                      cimagl(want), bound);
            }
        }
    }
    free(a);
    free(b);
    free(c);
    free(ha);
    free(hb);
    free(hc);
    free(c0);
    free(got);
}

/* ccopy with a stride and zswap with a negative increment: exact moves. */
static void copy_and_swap(void)
{
    float _Complex x[7], y[7], y0[7];
    double _Complex u[5], v[5], u0[5], v0[5];
    glblasStatus_t st;
    int i;
    for (i = 0; i < 7; ++i) {
        x[i] = (float)i + (float)(10 * i) * I;
        y[i] = y0[i] = -1.0f - 1.0f * I;
    }
    st = glblasCcopy(3, (const glblasComplex *)x, 2, (glblasComplex *)y, 3);
    if (!complex_here(0)) {
        CHECK_STATUS(st, GLBLAS_STATUS_NOT_SUPPORTED);
        CHECK(memcmp(y, y0, sizeof y) == 0, "ccopy: y written by a refused call");
    } else {
        CHECK_STATUS(st, GLBLAS_STATUS_SUCCESS);
        for (i = 0; i < 7; ++i) {
            float _Complex want = i % 3 == 0 ? x[2 * (i / 3)] : y0[i];
            CHECK(y[i] == want, "ccopy: y[%d] = %g%+gi", i, crealf(y[i]), cimagf(y[i]));
        }
    }
    for (i = 0; i < 5; ++i) {
        u[i] = u0[i] = (double)i + 0.5 * I;
        v[i] = v0[i] = -(double)i - 0.25 * I;
    }
    st = glblasZswap(5, (glblasDoubleComplex *)u, 1, (glblasDoubleComplex *)v, -1);
    if (!complex_here(1)) {
        CHECK_STATUS(st, GLBLAS_STATUS_NOT_SUPPORTED);
        CHECK(memcmp(u, u0, sizeof u) == 0 && memcmp(v, v0, sizeof v) == 0,
              "zswap: written by a refused call");
    } else {
        CHECK_STATUS(st, GLBLAS_STATUS_SUCCESS);
        /* A negative increment runs v from its far end: u[i] <-> v[4 - i]. */
        for (i = 0; i < 5; ++i)
            CHECK(u[i] == v0[4 - i] && v[4 - i] == u0[i], "zswap: element %d", i);
    }
}

/* Whether got is within bound of want in each part. */
static int near(long double _Complex got, long double _Complex want, long double bound)
{
    return fabsl(creall(got) - creall(want)) <= bound && fabsl(cimagl(got) - cimagl(want)) <= bound;
}

/* cgemv with C (y := alpha A^H x + beta y), zdotc with a negative increment, caxpy with a
 * stride, csscal, scnrm2 and izamax; bounds as gemm's, each part a sum of 2k real products
 * and the scalars' (moduli). */
static void vector_routines(void)
{
    float _Complex a[12], x[4], y[3], y0[3], w[6], w0[6];
    float _Complex al = 0.5f - 1.0f * I, be = 2.0f * I;
    double _Complex p[5], q[5], dot = 0.0, z[4] = {1.0 + 2.0 * I, -4.0 + 0.5 * I, 3.0 - 3.0 * I,
                                                    0.25 - 5.0 * I};
    long double u = FLT_EPSILON / 2.0L, ud = DBL_EPSILON / 2.0L;
    long double _Complex want = 0.0L;
    long double scale = 0.0L;
    float norm = -1.0f, half = 0.5f;
    int i, j, index = -1, single = complex_here(0), dbl = complex_here(1);
    glblasStatus_t st;
    for (i = 0; i < 12; ++i)
        a[i] = (float)(i % 5) - 2.0f + (float)(i % 3) * I;
    for (i = 0; i < 4; ++i)
        x[i] = 1.0f - (float)i * 0.5f * I;
    for (i = 0; i < 3; ++i)
        y[i] = y0[i] = (float)i + 1.0f * I;
    st = glblasCgemv(GLBLAS_OP_C, 4, 3, (const glblasComplex *)&al, (const glblasComplex *)a, 4,
                     (const glblasComplex *)x, 1, (const glblasComplex *)&be, (glblasComplex *)y,
                     1);
    CHECK_STATUS(st, single ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    for (j = 0; j < 3 && single; ++j) {
        want = (long double _Complex)be * y0[j];
        scale = cabsl(be) * cabsl(y0[j]);
        for (i = 0; i < 4; ++i) {
            want += (long double _Complex)al * conjl(a[i + 4 * j]) * x[i];
            scale += cabsl(al) * cabsl(a[i + 4 * j]) * cabsl(x[i]);
        }
        CHECK(near(y[j], want, BOUND_FACTOR * 14.0L * u * scale), "cgemv C: y[%d] = %g%+gi", j,
              crealf(y[j]), cimagf(y[j]));
    }
    CHECK(single || memcmp(y, y0, sizeof y) == 0, "cgemv: y written by a refused call");
    /* y := 0.5 x + y over every other element of w; the elements between stay. */
    for (i = 0; i < 6; ++i)
        w[i] = w0[i] = (float)i - 0.5f * (float)i * I;
    st = glblasCaxpy(3, (const glblasComplex *)&al, (const glblasComplex *)x, 1,
                     (glblasComplex *)w, 2);
    CHECK_STATUS(st, single ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    for (i = 0; i < 6 && single; ++i) {
        want = i % 2 ? w0[i] : w0[i] + (long double _Complex)al * x[i / 2];
        CHECK(near(w[i], want, BOUND_FACTOR * 4.0L * u * (cabsl(w0[i]) + 2.0L * cabsl(x[i / 2]))),
              "caxpy: w[%d] = %g%+gi", i, crealf(w[i]), cimagf(w[i]));
    }
    /* Each part halved, exactly. */
    st = glblasCsscal(2, &half, (glblasComplex *)y0, 1);
    CHECK_STATUS(st, single ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    CHECK(!single || (y0[0] == 0.5f * I && y0[1] == 0.5f + 0.5f * I && y0[2] == 2.0f + I),
          "csscal: %g%+gi", crealf(y0[1]), cimagf(y0[1]));
    st = glblasScnrm2(4, (const glblasComplex *)x, 1, &norm);
    CHECK_STATUS(st, single ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    /* |x|^2 = 4 + 3.5 = 7.5: sum of (1 + (i/2)^2). */
    CHECK(!single || fabsl(norm - sqrtl(7.5L)) <= BOUND_FACTOR * 10.0L * u * sqrtl(7.5L),
          "scnrm2 = %g", norm);
    for (i = 0; i < 5; ++i) {
        p[i] = (double)i - 1.5 * I;
        q[i] = 0.25 * (double)i + (double)(i % 2) * I;
    }
    st = glblasZdotc(5, (const glblasDoubleComplex *)p, 1, (const glblasDoubleComplex *)q, -1,
                     (glblasDoubleComplex *)&dot);
    CHECK_STATUS(st, dbl ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    /* A negative increment runs q from its far end. */
    want = 0.0L;
    scale = 0.0L;
    for (i = 0; i < 5; ++i) {
        want += conjl(p[i]) * q[4 - i];
        scale += cabsl(p[i]) * cabsl(q[4 - i]);
    }
    CHECK(!dbl || near(dot, want, BOUND_FACTOR * 12.0L * ud * scale), "zdotc = %g%+gi",
          creal(dot), cimag(dot));
    /* |re| + |im|: 3, 4.5, 6, 5.25: element 3, though element 4 has the largest modulus. */
    st = glblasIzamax(4, (const glblasDoubleComplex *)z, 1, &index);
    CHECK_STATUS(st, dbl ? GLBLAS_STATUS_SUCCESS : GLBLAS_STATUS_NOT_SUPPORTED);
    CHECK(!dbl || index == 3, "izamax = %d", index);
}

int main(void)
{
    static const int ops[3] = {GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C};
    int dbl, ta, tb, device;
    CHECK_OK(glblasInit());
    for (dbl = 0; dbl < 2; ++dbl)
        for (ta = 0; ta < 3; ++ta)
            for (tb = 0; tb < 3; ++tb)
                for (device = 0; device < 2; ++device) {
                    gemm_case(dbl, ops[ta], ops[tb], 9, 6, 5, device);
                    gemm_case(dbl, ops[ta], ops[tb], 1, 13, 17, device);
                }
    copy_and_swap();
    vector_routines();
    CHECK_OK(glblasShutdown());
    return check_finish("test_complex");
}
