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
// tiling GPUs need to reach full speed; on llvmpipe shared memory is slow). Its options
// (engine/tuning.rs, GemmParams):
// - STRIDED: an invocation's groups of 4 rows (columns) lie GROUP groups apart in the tile, not
//   side by side, so that neighbouring invocations read neighbouring texels of shared memory
//   (no bank conflicts) and store neighbouring groups of C;
// - PREFETCH: the next tile's loads are held in registers while the current one's products run;
// - UNROLL: NVIDIA's compiler is asked to unroll every loop (other compilers ignore the pragma).
#ifdef UNROLL
#pragma optionNV(unroll all)
#endif
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

// The first row of workgroups along y this dispatch runs: a pass is dispatched in bands of
// them where one dispatch would take longer than the device's budget (gemm_compute.rs).
uniform int uGroupRow;

// This workgroup's tile of C (row, column), or (-1, -1) past the last tile of the triangle or
// below C.
ivec2 tile() {
    int y = int(gl_WorkGroupID.y) + uGroupRow;
    if (DYNAMIC(uTiles) == 0) {
        return ivec2(int(gl_WorkGroupID.x), y);
    }
    int w = int(gl_WorkGroupID.x) + y * int(gl_NumWorkGroups.x);
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
// A group of doubles lies in shared memory as two dvec2, stored and read apart: virgl's
// NIR-to-TGSI (Mesa 22.3) cannot hold a dvec4 stored whole ("error: 4-component NIR r20"), and
// dgemm's tiled kernel computed garbage there.
#ifdef DOUBLE
shared dvec2 sA[2 * TILE_K * TILE_A];
shared dvec2 sB[2 * TILE_K * TILE_B];
#define PUT_SHARED(arr, s, v) { REAL4 v_ = (v); arr[2 * (s)] = v_.xy; arr[2 * (s) + 1] = v_.zw; }
#define GET_SHARED(arr, s) REAL4(arr[2 * (s)], arr[2 * (s) + 1])
#else
shared REAL4 sA[TILE_K * TILE_A];
shared REAL4 sB[TILE_K * TILE_B];
#define PUT_SHARED(arr, s, v) arr[s] = (v);
#define GET_SHARED(arr, s) arr[s]
#endif
// The invocation's texel t of op(A) (v of op(B)) within one step of its tile.
#ifdef STRIDED
#define A_TEXEL(t) ((t) * GROUP + int(id.x))
#define B_TEXEL(v) ((v) * GROUP + int(id.y))
#else
#define A_TEXEL(t) (int(id.x) * AT + (t))
#define B_TEXEL(v) (int(id.y) * BT + (v))
#endif
#define LOAD_A(t, x) a[t] = GET_SHARED(sA, (x) + A_TEXEL(t));
#define LOAD_B(v, x) b[v] = GET_SHARED(sB, (x) + B_TEXEL(v));
// Each tile's loads, shared among the invocations: LOADS_A (LOADS_B) each, the last of them past
// the tile for some invocations where the tile is not a multiple of the workgroup.
#define INVOCATIONS (GROUP * GROUP)
#define LOADS_A ((TILE_K * TILE_A + INVOCATIONS - 1) / INVOCATIONS)
#define LOADS_B ((TILE_K * TILE_B + INVOCATIONS - 1) / INVOCATIONS)
// Texel s of the tile of steps l0.. of a panel (`P` uAp or uBp, `T` TILE_A or TILE_B, from
// `first`, `step` apart per step of l), zero past k or where `within` is false.
#define TILE_TEXEL(P, T, first, step, l0, s, within) ((within) && (l0) + (s) / T < uK ? \
    FETCH4(P, ((l0) + (s) / T) * step + first + (s) % T) : REAL4(0.0))
#ifdef PREFETCH
// PREFETCH's registers, nextA[r] (nextB[r]) texel self + r * INVOCATIONS of the next tile, zero
// past the tile (where invocations hold a last load the tile has no texel for): their loops are
// unrolled by macros, as the accumulators' are, so that the arrays are only ever indexed by
// constants and stay in registers. LOADS_A and LOADS_B are powers of 2, as TILE_K, BLOCK_M,
// BLOCK_N and GROUP are.
#define REPEAT_1(F, o) F(o)
#define REPEAT_2(F, o) REPEAT_1(F, o) REPEAT_1(F, (o) + 1)
#define REPEAT_4(F, o) REPEAT_2(F, o) REPEAT_2(F, (o) + 2)
#define REPEAT_8(F, o) REPEAT_4(F, o) REPEAT_4(F, (o) + 4)
#define REPEAT_16(F, o) REPEAT_8(F, o) REPEAT_8(F, (o) + 8)
#define REPEAT_32(F, o) REPEAT_16(F, o) REPEAT_16(F, (o) + 16)
#if LOADS_A == 1
#define FOR_LOADS_A(F) REPEAT_1(F, 0)
#elif LOADS_A == 2
#define FOR_LOADS_A(F) REPEAT_2(F, 0)
#elif LOADS_A == 4
#define FOR_LOADS_A(F) REPEAT_4(F, 0)
#elif LOADS_A == 8
#define FOR_LOADS_A(F) REPEAT_8(F, 0)
#elif LOADS_A == 16
#define FOR_LOADS_A(F) REPEAT_16(F, 0)
#elif LOADS_A == 32
#define FOR_LOADS_A(F) REPEAT_32(F, 0)
#else
#error "LOADS_A is not a power of 2 up to 32"
#endif
#if LOADS_B == 1
#define FOR_LOADS_B(F) REPEAT_1(F, 0)
#elif LOADS_B == 2
#define FOR_LOADS_B(F) REPEAT_2(F, 0)
#elif LOADS_B == 4
#define FOR_LOADS_B(F) REPEAT_4(F, 0)
#elif LOADS_B == 8
#define FOR_LOADS_B(F) REPEAT_8(F, 0)
#elif LOADS_B == 16
#define FOR_LOADS_B(F) REPEAT_16(F, 0)
#elif LOADS_B == 32
#define FOR_LOADS_B(F) REPEAT_32(F, 0)
#else
#error "LOADS_B is not a power of 2 up to 32"
#endif
// The texel of register r (of the tile of steps `next`..), and its place in shared memory.
#define NEXT_AT(r) (self + (r) * INVOCATIONS)
#define FETCH_A(r) nextA[r] = \
    TILE_TEXEL(uAp, TILE_A, tileA, uApStep, next, NEXT_AT(r), NEXT_AT(r) < TILE_K * TILE_A);
#define FETCH_B(r) nextB[r] = \
    TILE_TEXEL(uBp, TILE_B, tileB, uBpStep, next, NEXT_AT(r), NEXT_AT(r) < TILE_K * TILE_B);
#define KEEP_A(r) if (NEXT_AT(r) < TILE_K * TILE_A) PUT_SHARED(sA, NEXT_AT(r), nextA[r])
#define KEEP_B(r) if (NEXT_AT(r) < TILE_K * TILE_B) PUT_SHARED(sB, NEXT_AT(r), nextB[r])
#endif
#else
#define LOAD_A(t, x) a[t] = FETCH4(uAp, (x) + (t));
#define LOAD_B(v, x) b[v] = FETCH4(uBp, (x) + (v));
#endif
#define MAD(t, u) acc[(u) * AT + (t)] += a[t] * b[(u) / 4][(u) % 4];
#define MAD_COLUMN(u, x) FOR_A(MAD, u)

// The stores are unrolled too: a loop after the k loop would share llvmpipe's loop budget with it
// (see MAX_LOOP_ITERATIONS in kernels/mod.rs). ROW(t): the first row of the block's group t of
// rows; COLUMN(u): its column u (from the block's corner, i0 and j0).
#if defined(TILED) && defined(STRIDED)
#define ROW(t) (i0 + 4 * GROUP * (t))
#define COLUMN(u) (j0 + 4 * GROUP * ((u) / 4) + (u) % 4)
#else
#define ROW(t) (i0 + 4 * (t))
#define COLUMN(u) (j0 + (u))
#endif
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
#define STORE4(t, u) store4(ROW(t), COLUMN(u), acc[(u) * AT + (t)]);
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
    store_pair(ROW(t), COLUMN(u), acc[(u) * AT + (t)].x, acc[(u) * AT + (t)].y); \
    store_pair(ROW(t) + 2, COLUMN(u), acc[(u) * AT + (t)].z, acc[(u) * AT + (t)].w);
#else
#define STORE4(t, u) \
    store(ROW(t), COLUMN(u), acc[(u) * AT + (t)].x); \
    store(ROW(t) + 1, COLUMN(u), acc[(u) * AT + (t)].y); \
    store(ROW(t) + 2, COLUMN(u), acc[(u) * AT + (t)].z); \
    store(ROW(t) + 3, COLUMN(u), acc[(u) * AT + (t)].w);
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
#ifdef PREFETCH
        REAL4 nextA[LOADS_A];
        REAL4 nextB[LOADS_B];
        int next = 0;
        FOR_LOADS_A(FETCH_A)
        FOR_LOADS_B(FETCH_B)
#endif
        for (int l0 = 0; l0 < DYNAMIC(uK); l0 += TILE_K) {
#ifdef PREFETCH
            FOR_LOADS_A(KEEP_A)
            FOR_LOADS_B(KEEP_B)
            barrier();
            // The next tile's loads, in flight during this one's products.
            next = l0 + TILE_K;
            if (next < uK) {
                FOR_LOADS_A(FETCH_A)
                FOR_LOADS_B(FETCH_B)
            }
#else
            for (int s = self; s < TILE_K * TILE_A; s += INVOCATIONS) {
                PUT_SHARED(sA, s, TILE_TEXEL(uAp, TILE_A, tileA, uApStep, l0, s, true))
            }
            for (int s = self; s < TILE_K * TILE_B; s += INVOCATIONS) {
                PUT_SHARED(sB, s, TILE_TEXEL(uBp, TILE_B, tileB, uBpStep, l0, s, true))
            }
            barrier();
#endif
            for (int k = 0; k < TILE_K; k++) {
                FOR_A(LOAD_A, k * TILE_A)
                FOR_B(LOAD_B, k * TILE_B)
                FOR_COLUMNS(MAD_COLUMN, 0)
            }
            barrier();
        }
    }
    // The block's corner from the tiles' corners, after the loop: held through it, or computed
    // from the workgroup's tile apart from them, the two kept Mali's compilers (Mesa 25.0) at
    // one thread per core (`BENCHMARKS.md`, "The boards' own compilers").
    int i0 = (tileA + A_TEXEL(0)) * 4;
    int j0 = (tileB + B_TEXEL(0)) * 4;
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
