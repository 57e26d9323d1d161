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
layout(local_size_x = 64) in;
uniform REAL_SAMPLER uP;
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
    for (int c = c0; c < min(c0 + 4, uCols); c++) {
        REAL4 v;
        for (int i = 0; i < 4; i++) {
            int r = 4 * g + i;
            v[i] = r < uRows ? element(uRow0 + r, uCol0 + c) : REAL(0.0);
        }
        STORE_GROUP(uPanel, c * (uLd / 4) + g, v);
    }
}
