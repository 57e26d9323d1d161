// gemm: C := alpha*op(A)*op(B) + beta*C, each invocation a BLOCK_M×BLOCK_N block of C held in
// BLOCK_M/4 × BLOCK_N REAL4 accumulators (register blocking), REAL being float or double
// (real.glsl). The operands come packed (gemm_pack.comp) so that every load is one 4-element
// group (FETCH4): 4 consecutive rows of op(A) at one l, and 4 consecutive columns of op(B) at
// one l (op(B) is packed transposed). Per step of l:
// BLOCK_M/4 + BLOCK_N/4 loads and BLOCK_M·BLOCK_N/4 vec4 multiply-adds.
// BLOCK_M and BLOCK_N (4, 8 or 16 each), the workgroup's side GROUP and, with TILED, TILE_K are
// defined by the host, per device (engine/tuning.rs, gemm_compute.rs).
// An operand may also be read in place, unpacked, where its stored groups of 4 rows are the
// panel's (op(A) = A, op(B) = B^T: gemm_compute.rs, `Source`): from group uApStart (uBpStart)
// with column step uApStep (uBpStep), through a texture as the panels are.
// TILED reads panels only.
// With TILED, a workgroup of GROUP×GROUP invocations shares its rows of both panels through
// shared memory, TILE_K steps of l at a time, and each invocation runs its block from there (the
// tiling GPUs need to reach full speed; on llvmpipe shared memory is slow).
#define AT (BLOCK_M / 4)
#define BT (BLOCK_N / 4)
layout(local_size_x = GROUP, local_size_y = GROUP) in;
// Panel A holds group uApStart + l*uApStep + i/4, panel B group uBpStart + l*uBpStep + j/4.
OPERAND4(ApIn, uAp, 7)
OPERAND4(BpIn, uBp, 8)
uniform int uApStart, uApStep, uBpStart, uBpStep;
uniform int uM, uN, uK;
uniform REAL_UNIFORM uAlpha, uBeta;
// COMPLEX_BETA: C is complex (its real view: each element's parts in consecutive rows, from an
// even row) and beta has an imaginary part, uBetaIm: beta*C adds uBetaIm*i*C, each element's
// parts exchanged and the new real part negated.
#ifdef COMPLEX_BETA
uniform REAL_UNIFORM uBetaIm;
#endif
// alpha != 0 and k > 0: otherwise A and B are not read and alpha is not applied (reference BLAS).
uniform bool uUseAB;
// READ_C (defined where beta != 0): C is read; otherwise it is not, so NaN or Inf in it cannot
// leak. C_GROUPS (defined where C's columns are whole groups of 4 rows from multiples of 4, in
// the output and in the C read, and no triangle): C is read and written a group at a time, one
// load and one store per group rather than four. Defines, not uniform flags: llvmpipe runs both
// sides of a branch under lane masks, so a read behind a flag made its loads at beta = 0 too.
// On llvmpipe, where loads and stores are per lane, n = 1024 and k = 4: C := A*B took 9.5 ms
// with the read behind a flag, 5.0 without it, 3.5 in groups; C := A*B + C 9.2 ms element by
// element, 4.0 in groups.
#ifdef C_GROUPS
// Rows i..i+3 (i a multiple of 4) of column j: group (uCStart + i + j*uCCol) / 4 of uC, and
// (uOutStart + i + j*uOutLd) / 4 of uOut.
RESULT4(Out4, uOut, 0)
#else
// Element (i, j) at uCStart + i*uCRow + j*uCCol of uC, and uOutStart + i + j*uOutLd of uOut.
RESULT(Out1, uOut, 0)
#endif
#ifdef READ_C
#ifdef C_GROUPS
OPERAND4(CIn, uC, 6)
#else
OPERAND(CIn, uC, 6)
#endif
uniform int uCStart, uCRow, uCCol;
#endif
uniform int uOutStart, uOutLd;
// 0: all of C; 1 (2): only its lower (upper) triangle, i >= j (i <= j), is read and written
// (syrk, syr2k), and blocks wholly outside it are skipped. Of a complex C's real view
// (COMPLEX_C: two rows per element), the triangle of its elements, i/2 >= j (i/2 <= j); with
// REAL_DIAGONAL (herk, her2k) the diagonal's imaginary parts are stored as 0. Defines, so that
// real C's kernels are as they were without them: with uniforms there, llvmpipe's resident
// memory grew by 1.6 MiB over 30000 calls (tests/leaks.rs), with no growth of the heap.
uniform int uTriangle;
// 0: workgroup (x, y) computes tile (x, y) of C (tiles of GROUP blocks a side). Else C is square
// with uTiles tiles a side, and the workgroups, numbered x + y * (groups along x), are the
// uTiles * (uTiles + 1) / 2 tiles of uTriangle only: none is dispatched for a tile wholly
// outside it, and consecutive workgroups have the same amount of work, however the driver
// shares them among its threads (llvmpipe with 2 threads ran the full grid's lower triangle
// unevenly, ssyrk at 58-65% of sgemm's rate against 78-81% on one thread). A complex C's tile
// of square blocks spans half as many elements down as across (its real view has two rows per
// element), so a square tile of its elements is two workgroups, one above the other.
uniform int uTiles;
#ifdef COMPLEX_C
#define TILE_ROWS 2
#else
#define TILE_ROWS 1
#endif

// How op(A) and op(B) are triangular (trmm): 0 not, 1 lower, 2 upper.
// A lower op(A) has no term of l past a row i, an upper one none before it; a lower op(B) none
// before a column j, an upper one none past it: each block's loop over l covers only the terms
// its rows and columns can have (half the flops of a triangular product; the TILED loop runs
// every step, the zeros adding nothing). uL0: this pass's first l in the triangular operand (k
// comes in chunks), less its first row (op(B): column) there: a part of a larger call reads
// the operand from an origin (gemm_call::Rules::origins).
uniform int uATriangle, uBTriangle, uL0;
// Whether the invocations along x take columns of C rather than rows: where only op(A) is
// triangular, so that a SIMD batch (consecutive x on llvmpipe) shares its rows, and so the
// steps of l op(A)'s triangle leaves them. Along rows a batch spans a whole tile's rows and
// runs to the longest of their ranges: a left strmm of 128×1024 (one tile of rows) took as
// long as the same sgemm, and 11-26% less time with columns along x.
uniform bool uColumnsAlongX;

bool in_triangle(int i, int j) {
    int t = DYNAMIC(uTriangle);
#ifdef COMPLEX_C
    i = i >> 1;
#endif
    return t == 0 || (t == 1 ? i >= j : i <= j);
}

// The value stored at row i of column j: r, or 0 for the imaginary part of a real diagonal.
#ifdef REAL_DIAGONAL
#define STORED(i, j, r) (((i) & 1) == 1 && ((i) >> 1) == (j) ? REAL(0.0) : (r))
#else
#define STORED(i, j, r) (r)
#endif

// This workgroup's tile of C (row, column), or (-1, -1) past the last tile of the triangle or
// below C.
ivec2 tile() {
    if (DYNAMIC(uTiles) == 0) {
        return ivec2(gl_WorkGroupID.xy);
    }
    int w = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    int t = w / TILE_ROWS;
    if (t >= uTiles * (uTiles + 1) / 2) {
        return ivec2(-1);
    }
    // Row r of the lower triangle of tiles holds tiles (r, 0..r), numbered from r(r+1)/2: r
    // from the square root, corrected for its rounding.
    int r = int((sqrt(8.0 * float(t) + 1.0) - 1.0) * 0.5);
    r += (r + 1) * (r + 2) / 2 <= t ? 1 : 0;
    r -= r * (r + 1) / 2 > t ? 1 : 0;
    int c = t - r * (r + 1) / 2;
    ivec2 rc = uTriangle == 1 ? ivec2(r, c) : ivec2(c, r);
    int row = rc.x * TILE_ROWS + w % TILE_ROWS;
    // The lower of a complex tile's two may lie wholly past C's last row, and past the panel
    // the tiled kernel would load.
    return row * GROUP * BLOCK_M < uM ? ivec2(row, rc.y) : ivec2(-1);
}

// Every loop over the registers is unrolled here, by macros, so that the arrays below are only
// ever indexed by constants and stay in registers: left to the compiler, a loop of more than 32
// iterations stays a loop, its array goes to scratch memory, and the kernel runs 5-10× slower
// (llvmpipe). IN_n(F, o, x) and ACROSS_n(F, o, x) both expand F(o, x) .. F(o + n - 1, x); two
// families, since a macro is not expanded again inside its own expansion (F may use IN_n).
#define IN_2(F, o, x) F(o, x) F((o) + 1, x)
#define IN_4(F, o, x) IN_2(F, o, x) IN_2(F, (o) + 2, x)
#define ACROSS_2(F, o, x) F(o, x) F((o) + 1, x)
#define ACROSS_4(F, o, x) ACROSS_2(F, o, x) ACROSS_2(F, (o) + 2, x)
#define ACROSS_8(F, o, x) ACROSS_4(F, o, x) ACROSS_4(F, (o) + 4, x)
#define ACROSS_16(F, o, x) ACROSS_8(F, o, x) ACROSS_8(F, (o) + 8, x)
// FOR_A: over the texels of a column of the block; FOR_B: over the texels of a row of op(B)'s
// panel; FOR_COLUMNS: over the columns of the block.
#if AT == 1
#define FOR_A(F, x) F(0, x)
#elif AT == 2
#define FOR_A(F, x) IN_2(F, 0, x)
#else
#define FOR_A(F, x) IN_4(F, 0, x)
#endif
#if BT == 1
#define FOR_B(F, x) F(0, x)
#define FOR_COLUMNS(F, x) ACROSS_4(F, 0, x)
#elif BT == 2
#define FOR_B(F, x) IN_2(F, 0, x)
#define FOR_COLUMNS(F, x) ACROSS_8(F, 0, x)
#else
#define FOR_B(F, x) IN_4(F, 0, x)
#define FOR_COLUMNS(F, x) ACROSS_16(F, 0, x)
#endif

// acc[u * AT + t]: rows 4t..4t+3 of the block's column u. a[t]: those rows of op(A) at one l;
// b[v]: columns 4v..4v+3 of op(B) at that l.
#define ZERO(t, u) acc[(u) * AT + (t)] = REAL4(0.0);
#define ZERO_COLUMN(u, x) FOR_A(ZERO, u)
#ifdef TILED
// Texels of op(A) (op(B)) per step of l in the workgroup's tile.
#define TILE_A (GROUP * AT)
#define TILE_B (GROUP * BT)
shared REAL4 sA[TILE_K * TILE_A];
shared REAL4 sB[TILE_K * TILE_B];
#define LOAD_A(t, x) a[t] = sA[(x) + (t)];
#define LOAD_B(v, x) b[v] = sB[(x) + (v)];
#else
#define LOAD_A(t, x) a[t] = FETCH4(uAp, (x) + (t));
#define LOAD_B(v, x) b[v] = FETCH4(uBp, (x) + (v));
#endif
#define MAD(t, u) acc[(u) * AT + (t)] += a[t] * b[(u) / 4][(u) % 4];
#define MAD_COLUMN(u, x) FOR_A(MAD, u)

// The stores are unrolled too: a loop after the k loop would share llvmpipe's loop budget with it
// (see MAX_LOOP_ITERATIONS in kernels/mod.rs).
#ifdef C_GROUPS
// Rows i..i+3 of column j of C from their accumulated products v.
void store4(int i, int j, REAL4 v) {
    if (i < uM && j < uN) {
        REAL4 r = uUseAB ? UNIFORM(uAlpha) * v : REAL4(0.0);
#ifdef READ_C
        REAL4 c = FETCH4(uC, (uCStart + i + j * uCCol) / 4);
        r += UNIFORM(uBeta) * c;
#ifdef COMPLEX_BETA
        r += UNIFORM(uBetaIm) * REAL4(-c.y, c.x, -c.w, c.z);
#endif
#endif
        STORE_GROUP(uOut, (uOutStart + i + j * uOutLd) / 4, r);
    }
}
#define STORE4(t, u) store4(i0 + 4 * (t), j0 + (u), acc[(u) * AT + (t)]);
#else
// Element (i, j) of C from its accumulated product v.
void store(int i, int j, REAL v) {
    if (i < uM && j < uN && in_triangle(i, j)) {
        REAL r = uUseAB ? UNIFORM(uAlpha) * v : REAL(0.0);
#ifdef READ_C
        r += UNIFORM(uBeta) * FETCH(uC, uCStart + i * uCRow + j * uCCol);
#endif
        STORE(uOut, uOutStart + i + j * uOutLd, STORED(i, j, r));
    }
}
#ifdef COMPLEX_BETA
// Rows i and i + 1 (i even: one complex element) of column j of C from their accumulated
// products: both parts are read before either is written, since C may be the output itself.
void store_pair(int i, int j, REAL vr, REAL vi) {
    if (i < uM && j < uN && in_triangle(i, j)) {
        REAL cr = FETCH(uC, uCStart + i * uCRow + j * uCCol);
        REAL ci = FETCH(uC, uCStart + (i + 1) * uCRow + j * uCCol);
        REAL alpha = uUseAB ? UNIFORM(uAlpha) : REAL(0.0);
        REAL beta = UNIFORM(uBeta);
        REAL betaIm = UNIFORM(uBetaIm);
        STORE(uOut, uOutStart + i + j * uOutLd, alpha * vr + (beta * cr - betaIm * ci));
        REAL im = alpha * vi + (beta * ci + betaIm * cr);
        STORE(uOut, uOutStart + i + 1 + j * uOutLd, STORED(i + 1, j, im));
    }
}
#define STORE4(t, u) \
    store_pair(i0 + 4 * (t), j0 + (u), acc[(u) * AT + (t)].x, acc[(u) * AT + (t)].y); \
    store_pair(i0 + 4 * (t) + 2, j0 + (u), acc[(u) * AT + (t)].z, acc[(u) * AT + (t)].w);
#else
#define STORE4(t, u) \
    store(i0 + 4 * (t), j0 + (u), acc[(u) * AT + (t)].x); \
    store(i0 + 4 * (t) + 1, j0 + (u), acc[(u) * AT + (t)].y); \
    store(i0 + 4 * (t) + 2, j0 + (u), acc[(u) * AT + (t)].z); \
    store(i0 + 4 * (t) + 3, j0 + (u), acc[(u) * AT + (t)].w);
#endif
#endif
#define STORE_COLUMN(u, x) FOR_A(STORE4, u)

void main() {
    ivec2 group = tile();
    if (group.x < 0) {
        return;
    }
    // Chosen between copies of the invocation's ids, not the built-in itself: virglrenderer
    // (0.10.4) translates a choice between unsigned built-ins into GLSL 4.50's integer mix(),
    // which its GLSL 3.30 shaders do not have (the host rejects the shader as illegal).
    ivec2 lid = ivec2(gl_LocalInvocationID.xy) + RUNTIME_ZERO;
    ivec2 id = DYNAMIC_FLAG(uColumnsAlongX) ? lid.yx : lid.xy;
#ifdef TILED
    // Every invocation loads its share of the tiles and meets the barriers; store() skips the
    // elements past the edges of C (the panels are padded to whole tiles).
    REAL4 acc[AT * BLOCK_N];
    FOR_COLUMNS(ZERO_COLUMN, 0)
    int tileA = group.x * TILE_A;
    int tileB = group.y * TILE_B;
    if (DYNAMIC_FLAG(uUseAB)) {
        REAL4 a[AT];
        REAL4 b[BT];
        int self = int(gl_LocalInvocationIndex);
        for (int l0 = 0; l0 < DYNAMIC(uK); l0 += TILE_K) {
            for (int s = self; s < TILE_K * TILE_A; s += GROUP * GROUP) {
                int l = l0 + s / TILE_A;
                sA[s] = l < uK ? FETCH4(uAp, l * uApStep + tileA + s % TILE_A) : REAL4(0.0);
            }
            for (int s = self; s < TILE_K * TILE_B; s += GROUP * GROUP) {
                int l = l0 + s / TILE_B;
                sB[s] = l < uK ? FETCH4(uBp, l * uBpStep + tileB + s % TILE_B) : REAL4(0.0);
            }
            barrier();
            for (int k = 0; k < TILE_K; k++) {
                FOR_A(LOAD_A, k * TILE_A + int(id.x) * AT)
                FOR_B(LOAD_B, k * TILE_B + int(id.y) * BT)
                FOR_COLUMNS(MAD_COLUMN, 0)
            }
            barrier();
        }
    }
    // The block's corner from the tiles' corners, after the loop: held through it, or computed
    // from the workgroup's tile apart from them, the two kept Mali's compilers (Mesa 25.0) at
    // one thread per core (`BENCHMARKS.md`, "The boards' own compilers").
    int i0 = (tileA + int(id.x) * AT) * 4;
    int j0 = (tileB + int(id.y) * BT) * 4;
#else
    int i0 = (group.x * GROUP + int(id.x)) * BLOCK_M;
    int j0 = (group.y * GROUP + int(id.y)) * BLOCK_N;
    // A block with no element of C to store: past its edges, or wholly outside its triangle.
    if (i0 >= uM || j0 >= uN || !(in_triangle(i0 + BLOCK_M - 1, j0) || in_triangle(i0, j0 + BLOCK_N - 1))) {
        return;
    }
    REAL4 acc[AT * BLOCK_N];
    FOR_COLUMNS(ZERO_COLUMN, 0)
    if (DYNAMIC_FLAG(uUseAB)) {
        REAL4 a[AT];
        REAL4 b[BT];
        int first = 0;
        int end = DYNAMIC(uK);
        int ta = DYNAMIC(uATriangle);
        int tb = DYNAMIC(uBTriangle);
        if (ta == 1) {
            end = min(end, i0 + BLOCK_M - uL0);
        } else if (ta == 2) {
            first = max(first, i0 - uL0);
        }
        if (tb == 1) {
            first = max(first, j0 - uL0);
        } else if (tb == 2) {
            end = min(end, j0 + BLOCK_N - uL0);
        }
        int ia = uApStart + i0 / 4 + first * uApStep;
        int ib = uBpStart + j0 / 4 + first * uBpStep;
        for (int l = first; l < end; l++) {
            FOR_A(LOAD_A, ia)
            FOR_B(LOAD_B, ib)
            FOR_COLUMNS(MAD_COLUMN, 0)
            ia += uApStep;
            ib += uBpStep;
        }
    }
#endif
    FOR_COLUMNS(STORE_COLUMN, 0)
}
