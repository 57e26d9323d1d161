// Packs rows × cols elements of op(P), from element (uRow0, uCol0), into a panel for gemm.comp:
// element (r, c) at c*uLd + r, zeros in the padding rows rows..uLd-1 (uLd a multiple of 4), so
// that the kernel reads 4 consecutive rows as one group (REAL: real.glsl). Each invocation
// writes such a group in each of 4 columns, one store per group: on llvmpipe, packing sgemm's
// two 1024×1024 panels took 13 ms rather than the 17 ms of one invocation and one store per
// element. Element (i, j) of op(P) is element (i, j) of the stored P, or (j, i) when
// uTransposed, at texel uPStart + row*uPRow + col*uPCol.
// uShape and uUnit say how P is read (shape.glsl).
// With ONE_M, P is complex, bound as its real view (each element's parts in consecutive rows),
// and the panel holds BLIS's 1m expansion of op(P) (gemm.rs, `OneM`): with uBlocks (op(A)), each
// element z of alpha*op(P) as the 2×2 block [[re z, -im z], [im z, re z]]; else (op(B) packed
// transposed) each element's parts in consecutive columns. uConjugate conjugates op(P) first.
// With GROUPS (a general P whose groups of 4 stored rows start at multiples of 4: see
// gemm_compute.rs), P is read 4 stored rows at a time through uP4, four loads per invocation
// rather than sixteen (on llvmpipe, where each load is a gather across the SIMD lanes, the
// packing of sgemm's two 1024×1024 panels took 8.5 ms of its 50).
layout(local_size_x = 64) in;
OPERAND(PIn1, uP, 4)
#ifdef GROUPS
OPERAND4(PIn4, uP4, 5)
#endif
uniform int uPStart, uPRow, uPCol;
uniform bool uTransposed;
uniform int uRow0, uCol0;
uniform int uShape;
uniform bool uUnit;
uniform int uRows, uLd, uCols;
// The first column of this dispatch's band (gemm_compute.rs cuts the panel to the budget).
uniform int uColBase;
RESULT4(Panel, uPanel, 1)
#ifdef ONE_M
uniform bool uBlocks, uConjugate;
uniform REAL_UNIFORM uAlphaRe, uAlphaIm;
#endif

#ifdef ONE_M
// Element (i, j) of the panel's expansion of op(P).
REAL element(int i, int j) {
    bool blocks = DYNAMIC_FLAG(uBlocks);
    ivec2 z = blocks ? ivec2(i / 2, j / 2) : ivec2(i, j / 2);
    ivec2 at = DYNAMIC_FLAG(uTransposed) ? z.yx : z;
    ivec2 s = shaped(DYNAMIC(uShape), DYNAMIC_FLAG(uUnit), at);
    // (re, im) of op(P)'s element: a constant is real, and so is a Hermitian P's diagonal,
    // whose imaginary parts are never read; a Hermitian P's mirrored element is conjugated.
    bool hermitian = DYNAMIC(uShape) >= 5;
    REAL re = REAL(s.y);
    REAL im = REAL(0.0);
    if (s.x >= 0) {
        re = FETCH(uP, uPStart + 2 * s.x * uPRow + s.y * uPCol);
        if (!hermitian || s.x != s.y) {
            im = FETCH(uP, uPStart + (2 * s.x + 1) * uPRow + s.y * uPCol);
        }
    }
    bool conjugate = DYNAMIC_FLAG(uConjugate) != (hermitian && s != at);
    im = conjugate ? -im : im;
    if (!blocks) {
        return (j & 1) == 0 ? re : im;
    }
    REAL ar = UNIFORM(uAlphaRe);
    REAL ai = UNIFORM(uAlphaIm);
    REAL zr = ar * re - ai * im;
    REAL zi = ar * im + ai * re;
    // Block (i&1, j&1): re on the diagonal, im below it, -im above.
    return ((i ^ j) & 1) == 0 ? zr : ((i & 1) == 1 ? zi : -zi);
}
#else
// Element (i, j) of op(P).
REAL element(int i, int j) {
    ivec2 at = DYNAMIC_FLAG(uTransposed) ? ivec2(j, i) : ivec2(i, j);
    ivec2 s = shaped(DYNAMIC(uShape), DYNAMIC_FLAG(uUnit), at);
    if (s.x < 0) {
        return REAL(s.y);
    }
    return FETCH(uP, uPStart + s.x * uPRow + s.y * uPCol);
}
#endif

void main() {
    int g = int(gl_GlobalInvocationID.x);
    if (4 * g >= uLd) {
        return;
    }
    int c0 = uColBase + 4 * int(gl_GlobalInvocationID.y);
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
            v[c] = mix(REAL4(0.0), v[c], lessThan(4 * g + ivec4(0, 1, 2, 3), ivec4(uRows)));
        }
    }
    for (int c = 0; c < 4; c++) {
        if (c0 + c < uCols) {
            STORE_GROUP(uPanel, (c0 + c) * (uLd / 4) + g, v[c]);
        }
    }
#else
    for (int c = c0; c < min(c0 + 4, uCols); c++) {
        // An array, not a vector's components: NVIDIA's compiler (580) fails to link a write to
        // a double vector's component by a variable index ("can't find __setVectorIndex").
        REAL v[4];
        for (int i = 0; i < 4; i++) {
            int r = 4 * g + i;
            v[i] = r < uRows ? element(uRow0 + r, uCol0 + c) : REAL(0.0);
        }
        STORE_GROUP(uPanel, c * (uLd / 4) + g, REAL4(v[0], v[1], v[2], v[3]));
    }
#endif
}
