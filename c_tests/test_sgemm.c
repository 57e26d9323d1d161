/*
 * test_sgemm.c - glblasSgemm results against a double-precision reference.
 *
 * - all 9 transpose pairs (N,T,C) x (N,T,C) for m x n x k in
 *   1x1x1, 7x5x3, 17x13x11, 33x65x31 and 128x127x129, with lda/ldb/ldc larger
 *   than needed, all operands on the host and all on the device;
 * - all 8 host/device placements of A, B, C (17x13x11, every transpose pair);
 * - interior pointers: A, B, C as sub-matrices (row 3, column 10) of larger
 *   matrices, on the device (dA + 3 + 10*lda) and on the host;
 * - A, B and C at disjoint places of one device allocation;
 * - leading dimensions 500 / 1000 beyond the rows, and ld == rows;
 * - thin and larger shapes (m or n == 1, long k, ~300; the two largest not where
 *   tests/c_tests.rs lowers the launch limits: check.h's limits_lowered);
 * - several alpha / beta values; whenever beta == 0 the C sub-matrix holds
 *   NaN on entry (C must not be read);
 * - padding rows of A and B (rows beyond op's extent, and everything around
 *   an interior sub-matrix) hold NaN, so reading them would show up;
 * - padding rows of C (rows m..ldc-1) and everything around an interior C
 *   hold a sentinel and must come back bit-identical (host and device C);
 * - A and B must come back unchanged.
 * The tolerance is derived in check.h (ref_sgemm).
 */
#include "check.h"

enum { A_DEV = 1, B_DEV = 2, C_DEV = 4, ONE_ALLOC = 8 };

static const glblasOperation_t OPS[3] = { GLBLAS_OP_N, GLBLAS_OP_T, GLBLAS_OP_C };

typedef struct {
    size_t len; /* floats in the whole buffer */
    size_t off; /* element where the matrix starts */
    int ld;
} layout_t;

/* A rows x cols matrix with leading dimension rows + pad (+ 3 when interior),
 * placed at row 3, column 10 of a larger buffer when interior. */
static layout_t make_layout(int rows, int cols, int pad, int interior)
{
    layout_t L;
    int r0 = interior ? 3 : 0, c0 = interior ? 10 : 0;
    L.ld = (rows > 1 ? rows : 1) + pad + r0;
    L.off = (size_t)r0 + (size_t)c0 * (size_t)L.ld;
    L.len = (size_t)L.ld * (size_t)(cols + c0) + (interior ? 7 : 0);
    return L;
}

/* Buffer of L.len floats: `outside` everywhere, random inside the matrix. */
static float *make_matrix(rng_t *rng, layout_t L, int rows, int cols, float outside, int inside_nan)
{
    float *h = (float *)xmalloc(L.len * sizeof(float));
    int i, j;
    fill_const(h, L.len, outside);
    for (j = 0; j < cols; ++j)
        for (i = 0; i < rows; ++i)
            h[L.off + (size_t)i + (size_t)j * (size_t)L.ld] = inside_nan ? NAN : rng_float(rng);
    return h;
}

static void run_case(rng_t *rng, glblasOperation_t ta, glblasOperation_t tb, int m, int n, int k,
                     float alpha, float beta, int pad, unsigned where, int interior)
{
    char label[256];
    int rA = op_is_trans(ta) ? k : m, cA = op_is_trans(ta) ? m : k;
    int rB = op_is_trans(tb) ? n : k, cB = op_is_trans(tb) ? k : n;
    layout_t LA = make_layout(rA, cA, pad, interior);
    layout_t LB = make_layout(rB, cB, pad + 1, interior);
    layout_t LC = make_layout(m, n, pad + 2, interior);
    float *hA = make_matrix(rng, LA, rA, cA, NAN, 0);
    float *hB = make_matrix(rng, LB, rB, cB, NAN, 0);
    float *hC = make_matrix(rng, LC, m, n, SENTINEL, beta == 0.0f);
    float *A0 = fdup(hA, LA.len), *B0 = fdup(hB, LB.len), *C0 = fdup(hC, LC.len);
    double *ref = (double *)xmalloc((size_t)m * (size_t)n * sizeof(double));
    double *tol = (double *)xmalloc((size_t)m * (size_t)n * sizeof(double));
    float *dA = NULL, *dB = NULL, *dC = NULL;
    const float *pA, *pB;
    float *pC;
    glblasStatus_t st;

    snprintf(label, sizeof label,
             "sgemm(%s,%s) m=%d n=%d k=%d alpha=%g beta=%g lda=%d ldb=%d ldc=%d A:%s B:%s C:%s%s%s",
             op_name(ta), op_name(tb), m, n, k, (double)alpha, (double)beta, LA.ld, LB.ld, LC.ld,
             (where & (A_DEV | ONE_ALLOC)) ? "dev" : "host", (where & (B_DEV | ONE_ALLOC)) ? "dev" : "host",
             (where & (C_DEV | ONE_ALLOC)) ? "dev" : "host",
             (where & ONE_ALLOC) ? " (A, B, C in one allocation)" : "", interior ? " interior" : "");

    ref_sgemm(ta, tb, m, n, k, alpha, hA + LA.off, LA.ld, hB + LB.off, LB.ld, beta, hC + LC.off, LC.ld, ref, tol);

    if (where & ONE_ALLOC) {
        /* A, B and C at disjoint places of ONE device allocation, C first */
        dC = dev_alloc(LC.len + LA.len + LB.len);
        dA = dC + LC.len;
        dB = dA + LA.len;
        dev_write(dA, hA, LA.len);
        dev_write(dB, hB, LB.len);
        dev_write(dC, hC, LC.len);
    } else {
        if (where & A_DEV)
            dA = dev_upload(hA, LA.len);
        if (where & B_DEV)
            dB = dev_upload(hB, LB.len);
        if (where & C_DEV)
            dC = dev_upload(hC, LC.len);
    }
    pA = (dA ? dA : hA) + LA.off;
    pB = (dB ? dB : hB) + LB.off;
    pC = (dC ? dC : hC) + LC.off;

    st = glblasSgemm(ta, tb, m, n, k, alpha, pA, LA.ld, pB, LB.ld, beta, pC, LC.ld);
    if (succeeded(label, st)) {
        char sub[300];
        if (dC)
            dev_read(hC, dC, LC.len);
        check_gemm_c(label, hC, C0, LC.len, LC.off, m, n, LC.ld, ref, tol);
        if (dA)
            dev_read(hA, dA, LA.len);
        if (dB)
            dev_read(hB, dB, LB.len);
        snprintf(sub, sizeof sub, "%s [A unchanged]", label);
        check_bits_equal(sub, hA, A0, LA.len);
        snprintf(sub, sizeof sub, "%s [B unchanged]", label);
        check_bits_equal(sub, hB, B0, LB.len);
    }

    if (where & ONE_ALLOC) {
        dev_free(dC);
    } else {
        dev_free(dA);
        dev_free(dB);
        dev_free(dC);
    }
    free(hA);
    free(hB);
    free(hC);
    free(A0);
    free(B0);
    free(C0);
    free(ref);
    free(tol);
}

int main(void)
{
    static const int sizes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 17, 13, 11 }, { 33, 65, 31 }, { 128, 127, 129 } };
    static const float alphas[] = { 1.0f, -0.75f, 2.5f };
    static const float betas[] = { 0.0f, 1.0f, 0.5f, -1.25f };
    rng_t rng = rng_seed(12345);
    int s, a, b, w, c = 0;

    CHECK_OK(glblasInit());

    /* every transpose pair x every size, all-host and all-device, padded ld */
    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) {
        for (a = 0; a < 3; ++a) {
            for (b = 0; b < 3; ++b, ++c) {
                float alpha = alphas[c % 3], beta = betas[c % 4];
                run_case(&rng, OPS[a], OPS[b], sizes[s][0], sizes[s][1], sizes[s][2], alpha, beta, 1 + c % 3,
                         0, 0);
                run_case(&rng, OPS[a], OPS[b], sizes[s][0], sizes[s][1], sizes[s][2], alpha, beta, c % 3,
                         A_DEV | B_DEV | C_DEV, 0);
            }
        }
    }

    /* every host/device placement of A, B, C, every transpose pair */
    for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b)
            for (w = 0; w < 8; ++w, ++c)
                run_case(&rng, OPS[a], OPS[b], 17, 13, 11, alphas[c % 3], betas[c % 4], 2, (unsigned)w, 0);

    /* interior pointers (sub-matrices at row 3, column 10), device and host */
    for (a = 0; a < 3; ++a) {
        for (b = 0; b < 3; ++b, ++c) {
            run_case(&rng, OPS[a], OPS[b], 7, 5, 3, alphas[c % 3], betas[c % 4], 1, A_DEV | B_DEV | C_DEV, 1);
            run_case(&rng, OPS[a], OPS[b], 33, 65, 31, alphas[c % 3], betas[(c + 1) % 4], 0,
                     A_DEV | B_DEV | C_DEV, 1);
        }
    }
    for (w = 0; w < 8; ++w)
        run_case(&rng, OPS[w % 3], OPS[(w / 3) % 3], 17, 13, 11, -0.75f, betas[w % 4], 1, (unsigned)w, 1);

    /* A, B and C in one device allocation (the buffer is read and written by one call) */
    for (a = 0; a < 3; ++a, ++c) {
        run_case(&rng, OPS[a], OPS[(a + 1) % 3], 17, 13, 11, alphas[c % 3], betas[c % 4], 1, ONE_ALLOC, 0);
        run_case(&rng, OPS[a], OPS[a], 33, 65, 31, alphas[c % 3], betas[(c + 1) % 4], 0, ONE_ALLOC, 1);
    }

    /* leading dimensions much larger than needed */
    run_case(&rng, GLBLAS_OP_N, GLBLAS_OP_N, 17, 13, 11, 1.0f, 0.5f, 500, 0, 0);
    run_case(&rng, GLBLAS_OP_T, GLBLAS_OP_C, 17, 13, 11, -0.75f, 0.0f, 1000, A_DEV | B_DEV | C_DEV, 0);

    /* tight leading dimensions (ld == rows) */
    for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b, ++c)
            run_case(&rng, OPS[a], OPS[b], 19, 23, 29, 1.0f, betas[c % 4], 0, (unsigned)(c % 8), 0);

    /* thin, long-k and larger shapes */
    run_case(&rng, GLBLAS_OP_N, GLBLAS_OP_N, 1, 300, 37, 1.0f, 0.5f, 0, A_DEV | B_DEV | C_DEV, 0);
    run_case(&rng, GLBLAS_OP_N, GLBLAS_OP_N, 300, 1, 37, 1.0f, 0.0f, 3, A_DEV | B_DEV | C_DEV, 0);
    run_case(&rng, GLBLAS_OP_T, GLBLAS_OP_N, 1, 1, 300, -1.0f, 1.0f, 0, 0, 0);
    run_case(&rng, GLBLAS_OP_T, GLBLAS_OP_T, 2, 3, 297, 0.5f, 0.0f, 1, A_DEV | C_DEV, 0);
    run_case(&rng, GLBLAS_OP_N, GLBLAS_OP_T, 64, 64, 64, 1.0f, 0.0f, 0, A_DEV | B_DEV | C_DEV, 0);
    if (limits_lowered()) {
        printf("test_sgemm: 300x289x293 and 257x263x251 left out (launch limits lowered)\n");
    } else {
        run_case(&rng, GLBLAS_OP_N, GLBLAS_OP_N, 300, 289, 293, 1.0f, 0.0f, 5, A_DEV | B_DEV | C_DEV, 0);
        run_case(&rng, GLBLAS_OP_T, GLBLAS_OP_N, 257, 263, 251, -0.75f, 0.5f, 1, 0, 0);
    }

    CHECK_OK(glblasSync());
    return check_finish("test_sgemm");
}
