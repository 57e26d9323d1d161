// trsm's diagonal blocks: solves S·X = B in place by substitution for one uSize×uSize diagonal
// block S of the system's matrix (from row and column uFirst), RHS right-hand sides per
// invocation (4, or 2 where registers are few: level3.rs). Substitution is backward stable
// componentwise in whatever order its sums run; a product with the block's explicit inverse is
// not (LAPACK's DTRTRS tests failed on it).
//
// The system is op(A)·X = B (left) or, from the right, op(A)^T·X^T = B^T: element (r, c) of S
// is texel uAStart + r*uARow + c*uACol, element (r, j) of B is b[uBStart + r*uBRow + j*uBCol],
// for uColumns right-hand sides j from uColumn0. S is lower triangular when uLower (forward
// substitution), else upper (backward); uUnit: a unit diagonal, never read. With
// TRANSPOSED_COPY each solved element is also written to xt[uXtStart + r*uXtRow + j*uXtCol]
// (trsm's X^T, which the updates read in place).
//
// Rows are solved four at a time, for RHS right-hand sides: each step over the solved rows
// fetches four elements of S and loads RHS of X for 4·RHS multiply-adds (one right-hand side
// per invocation, with no shared staging, ran at a third of that rate on llvmpipe; staging
// S's rows in shared memory ran slower still, llvmpipe's barriers being costly).
//
// With COMPLEX (real.glsl), S, B and X are complex, S conjugated where CONJ_A (op(A) = A^H),
// and each invocation solves its RHS right-hand sides one after another, row by row, dividing
// by Smith's method (no TRANSPOSED_COPY: the updates read a complex X in place).
layout(local_size_x = 64) in;
OPERAND(AIn, uA, 4)
uniform int uAStart, uARow, uACol;
uniform int uFirst, uSize;
uniform int uBStart, uBRow, uBCol;
uniform int uColumn0, uColumns;
uniform bool uLower, uUnit;
layout(std430, binding = 0) buffer B { ELEM b[]; };
#ifdef TRANSPOSED_COPY
uniform int uXtStart, uXtRow, uXtCol;
layout(std430, binding = 1) buffer Xt { REAL xt[]; };
#endif

ELEM s(int r, int c) {
    ELEM v = FETCH(uA, uAStart + r * uARow + c * uACol);
#ifdef CONJ_A
    v = CONJ(v);
#endif
    return v;
}

#ifdef COMPLEX
// a / d without forming |d|², which in single precision overflows from |d| of about 1e19 and
// underflows below 1e-19 (Smith's method, as gfortran divides the reference BLAS's complex
// numbers).
ELEM divide(ELEM a, ELEM d) {
    if (abs(d.y) <= abs(d.x)) {
        REAL r = d.y / d.x;
        REAL t = d.x + d.y * r;
        return ELEM((a.x + a.y * r) / t, (a.y - a.x * r) / t);
    }
    REAL r = d.x / d.y;
    REAL t = d.y + d.x * r;
    return ELEM((a.x * r + a.y) / t, (a.y * r - a.x) / t);
}

void main() {
    int j0 = uColumn0 + RHS * int(gl_GlobalInvocationID.x);
    bool lower = DYNAMIC_FLAG(uLower);
    bool unit = DYNAMIC_FLAG(uUnit);
    int step = lower ? 1 : -1;
    int size = DYNAMIC(uSize);
    int first = lower ? uFirst : uFirst + size - 1;
    // No loop of this shader may end on uniforms alone: zink would compile a variant per
    // value and could run a stale one (compute.glsl).
    int end = uColumn0 + DYNAMIC(uColumns);
    for (int j = j0; j < j0 + RHS && j < end; j++) {
        int x0 = uBStart + j * uBCol;
        for (int p = 0; p < size; p++) {
            int r = first + step * p;
            ELEM v = b[x0 + r * uBRow];
            for (int q = 0; q < p; q++) {
                int c = first + step * q;
                v -= mul(s(r, c), b[x0 + c * uBRow]);
            }
            b[x0 + r * uBRow] = unit ? v : divide(v, s(r, r));
        }
    }
}
#else

// S's element where `valid`, else 0 (without reading it).
REAL s_if(bool valid, int r, int c) {
    return valid ? s(r, c) : REAL(0.0);
}

// Right-hand side k (component k of x0: B's offset of its column) of this invocation's RHS,
// in variable v: the four rows' values less the solved rows' terms, then solved, then stored
// where it is one of the call's (n < count: a column past the last one repeats it). (The
// variable is named by the caller: GLES has no token pasting.)
#define LOAD(k, v) REAL4 v = REAL4(b[x0.k + at.x], b[x0.k + at.y], b[x0.k + at.z], b[x0.k + at.w]);
#define UPDATE(k, v) v -= t * b[x0.k + c * uBRow];
#define SOLVE(v)                                                                        \
    v.x /= d.x;                                                                         \
    v.y = (v.y - l.x * v.x) / d.y;                                                      \
    v.z = (v.z - l.y * v.x - l.z * v.y) / d.z;                                          \
    v.w = (v.w - l.w * v.x - m.x * v.y - m.y * v.z) / d.w;
#ifdef TRANSPOSED_COPY
#define PUT_XT(v, n, i) xt[uXtStart + rows[i] * uXtRow + (j + n) * uXtCol] = v[i];
#else
#define PUT_XT(v, n, i)
#endif
#define PUT(k, v, n)                                                                    \
    if (n < count) {                                                                    \
        for (int i = 0; i < 4; i++) {                                                   \
            if (valid[i]) {                                                             \
                b[x0.k + at[i]] = v[i];                                                 \
                PUT_XT(v, n, i)                                                         \
            }                                                                           \
        }                                                                               \
    }

void main() {
    int j = uColumn0 + RHS * int(gl_GlobalInvocationID.x);
    int count = uColumn0 + uColumns - j;
    if (count <= 0) {
        return;
    }
    bool lower = DYNAMIC_FLAG(uLower);
    bool unit = DYNAMIC_FLAG(uUnit);
    ivec4 x0 = uBStart + min(ivec4(j) + ivec4(0, 1, 2, 3), ivec4(uColumn0 + uColumns - 1)) * uBCol;
    // Rows in the order they are solved: the p-th is uFirst + p forward, the block's last but p
    // backward, S being lower triangular in that order whichever S is; B's offset of the p-th
    // is (first + p*step)*uBRow.
    int step = lower ? 1 : -1;
    // The loop's count from a uniform alone would have zink compile a variant per size and run
    // a stale one (compute.glsl).
    int size = DYNAMIC(uSize);
    int first = lower ? uFirst : uFirst + size - 1;
    for (int p = 0; p < size; p += 4) {
        // Rows past the block's end are its last row again (inside the stored triangle for
        // every solved row); their results are dropped.
        bvec4 valid = lessThan(ivec4(p) + ivec4(0, 1, 2, 3), ivec4(size));
        ivec4 rows = first + step * min(ivec4(p) + ivec4(0, 1, 2, 3), ivec4(size - 1));
        ivec4 at = rows * uBRow;
        LOAD(x, vx) LOAD(y, vy)
#if RHS == 4
        LOAD(z, vz) LOAD(w, vw)
#endif
        for (int q = 0; q < p; q++) {
            int c = first + step * q;
            REAL4 t = REAL4(s(rows.x, c), s(rows.y, c), s(rows.z, c), s(rows.w, c));
            UPDATE(x, vx) UPDATE(y, vy)
#if RHS == 4
            UPDATE(z, vz) UPDATE(w, vw)
#endif
        }
        // The 4×4 triangle among the four rows: its diagonal d, and below it l.x = S(1, 0),
        // l.yz = S(2, 0..1), l.w and m.xy = S(3, 0..2).
        REAL4 d = unit ? REAL4(1.0)
                       : REAL4(s(rows.x, rows.x), s_if(valid.y, rows.y, rows.y),
                               s_if(valid.z, rows.z, rows.z), s_if(valid.w, rows.w, rows.w));
        d = mix(REAL4(1.0), d, valid);
        REAL4 l = REAL4(s_if(valid.y, rows.y, rows.x), s_if(valid.z, rows.z, rows.x),
                        s_if(valid.z, rows.z, rows.y), s_if(valid.w, rows.w, rows.x));
        REAL4 m = REAL4(s_if(valid.w, rows.w, rows.y), s_if(valid.w, rows.w, rows.z), 0.0, 0.0);
        SOLVE(vx) SOLVE(vy)
        PUT(x, vx, 0) PUT(y, vy, 1)
#if RHS == 4
        SOLVE(vz) SOLVE(vw)
        PUT(z, vz, 2) PUT(w, vw, 3)
#endif
    }
}
#endif
