// Packs rows × cols elements of op(P), from element (uRow0, uCol0), into a panel for gemm.comp:
// element (r, c) at c*uLd + r, zeros in the padding rows rows..uLd-1 (uLd a multiple of 4), so
// that the kernel reads 4 consecutive rows as one group (REAL: real.glsl). Each invocation
// writes such a group in each of 4 columns, one store per group: on llvmpipe, packing sgemm's
// two 1024×1024 panels took 13 ms rather than the 17 ms of one invocation and one store per
// element. Element (i, j) of op(P) is element (i, j) of the stored P, or (j, i) when
// uTransposed, at texel uPStart + row*uPRow + col*uPCol.
// uShape says how P is read (the Level 3 routines' packing rules, kernels/level3.rs):
//   0 general;
//   1 (2) symmetric, its lower (upper) triangle stored: an element of the other triangle is read
//     from its mirror, so that triangle is never read;
//   3 (4) triangular, lower (upper): zeros in the other triangle, which is never read, and
//     with uUnit ones on the diagonal, which is then never read either.
// With GROUPS (a general P whose groups of 4 stored rows start at multiples of 4: see
// gemm_compute.rs), P is read 4 stored rows at a time through uP4, four loads per invocation
// rather than sixteen (on llvmpipe, where each load is a gather across the SIMD lanes, the
// packing of sgemm's two 1024×1024 panels took 8.5 ms of its 50).
layout(local_size_x = 64) in;
uniform REAL_SAMPLER uP;
#ifdef GROUPS
uniform REAL_SAMPLER uP4;
#endif
uniform int uPStart, uPRow, uPCol;
uniform bool uTransposed;
uniform int uRow0, uCol0;
uniform int uShape;
uniform bool uUnit;
uniform int uRows, uLd, uCols;
layout(REAL4_IMAGE_FORMAT) writeonly uniform REAL4_IMAGE uPanel;

// Element (i, j) of op(P).
REAL element(int i, int j) {
    bool t = DYNAMIC_FLAG(uTransposed);
    int row = t ? j : i;
    int col = t ? i : j;
    int shape = DYNAMIC(uShape);
    if (shape != 0) {
        bool lower = shape == 1 || shape == 3;
        bool other = lower ? row < col : row > col;
        if (shape >= 3) {
            if (other) {
                return REAL(0.0);
            }
            if (row == col && DYNAMIC_FLAG(uUnit)) {
                return REAL(1.0);
            }
        } else if (other) {
            int stored = row;
            row = col;
            col = stored;
        }
    }
    return FETCH(uP, uPStart + row * uPRow + col * uPCol);
}

void main() {
    int g = int(gl_GlobalInvocationID.x);
    if (4 * g >= uLd) {
        return;
    }
    int c0 = 4 * int(gl_GlobalInvocationID.y);
#ifdef GROUPS
    // v[c]: rows 4g..4g+3 of column c0 + c of op(P), zero past uRows.
    REAL4 v[4];
    if (DYNAMIC_FLAG(uTransposed)) {
        // Row r of op(P) is stored column uRow0 + r, whose rows uCol0 + c0.. hold columns c0..
        // of op(P): one group per row, transposed into the columns.
        REAL4 t[4];
        for (int i = 0; i < 4; i++) {
            int r = 4 * g + i;
            t[i] = r < uRows ? FETCH4(uP4, (uPStart + uCol0 + c0 + (uRow0 + r) * uPCol) / 4)
                             : REAL4(0.0);
        }
        for (int c = 0; c < 4; c++) {
            v[c] = REAL4(t[0][c], t[1][c], t[2][c], t[3][c]);
        }
    } else {
        for (int c = 0; c < 4; c++) {
            v[c] = FETCH4(uP4, (uPStart + uRow0 + 4 * g + (uCol0 + c0 + c) * uPCol) / 4);
            for (int i = 0; i < 4; i++) {
                v[c][i] = 4 * g + i < uRows ? v[c][i] : REAL(0.0);
            }
        }
    }
    for (int c = 0; c < 4; c++) {
        if (c0 + c < uCols) {
            STORE_GROUP(uPanel, (c0 + c) * (uLd / 4) + g, v[c]);
        }
    }
#else
    for (int c = c0; c < min(c0 + 4, uCols); c++) {
        REAL4 v;
        for (int i = 0; i < 4; i++) {
            int r = 4 * g + i;
            v[i] = r < uRows ? element(uRow0 + r, uCol0 + c) : REAL(0.0);
        }
        STORE_GROUP(uPanel, c * (uLd / 4) + g, v);
    }
#endif
}
