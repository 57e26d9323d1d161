// sgemm: C := alpha*op(A)*op(B) + beta*C, each invocation a BLOCK_M×8 block of C held in
// BLOCK_M/4 × 8 vec4 accumulators (register blocking). The operands come packed (gemm_pack.comp)
// so that every load is one RGBA texel: 4 consecutive rows of op(A) at one l, and 4 consecutive
// columns of op(B) at one l (op(B) is packed transposed). Per step of l: BLOCK_M/4 + 2 loads and
// 2·BLOCK_M vec4 multiply-adds.
// BLOCK_M (8 or 16) is defined by the host, per device (gemm_compute.rs).
#define AT (BLOCK_M / 4)
layout(local_size_x = 8, local_size_y = 8) in;
uniform samplerBuffer uAp;  // texel l*uApStep + i/4
uniform samplerBuffer uBp;  // texel l*uBpStep + j/4
uniform int uApStep, uBpStep;
uniform int uM, uN, uK;
uniform float uAlpha, uBeta;
// alpha != 0 and k > 0: otherwise A and B are not read and alpha is not applied (reference BLAS).
uniform bool uUseAB;
// beta != 0: otherwise C is not read, so NaN or Inf in it cannot leak.
uniform bool uReadC;
uniform samplerBuffer uC;  // element (i, j) at uCStart + i*uCRow + j*uCCol
uniform int uCStart, uCRow, uCCol;
layout(r32f) writeonly uniform imageBuffer uOut;  // element (i, j) at uOutStart + i + j*uOutLd
uniform int uOutStart, uOutLd;

// The accumulators are only ever indexed by constants (the macros below unroll every loop
// over them), so they stay in registers. acc[col * AT + t]: rows 4t..4t+3 of the block's
// column col.
#define STEP(col, b) \
    acc[(col) * AT] += a0 * (b); \
    acc[(col) * AT + 1] += a1 * (b); \
    STEP_MORE(col, b)
#define STORE_COLUMN(col) STORE4(col, 0) STORE4(col, 1) STORE_MORE(col)
#if AT == 4
#define STEP_MORE(col, b) \
    acc[(col) * AT + 2] += a2 * (b); \
    acc[(col) * AT + 3] += a3 * (b);
#define STORE_MORE(col) STORE4(col, 2) STORE4(col, 3)
#else
#define STEP_MORE(col, b)
#define STORE_MORE(col)
#endif

// Element (i, j) of C from its accumulated product v.
void store(int i, int j, float v) {
    if (i < uM && j < uN) {
        float r = uUseAB ? uAlpha * v : 0.0;
        if (uReadC) {
            r += uBeta * texelFetch(uC, uCStart + i * uCRow + j * uCCol).r;
        }
        imageStore(uOut, uOutStart + i + j * uOutLd, vec4(r));
    }
}

#define STORE4(col, t) \
    store(i0 + 4 * (t), j0 + (col), acc[(col) * AT + (t)].x); \
    store(i0 + 4 * (t) + 1, j0 + (col), acc[(col) * AT + (t)].y); \
    store(i0 + 4 * (t) + 2, j0 + (col), acc[(col) * AT + (t)].z); \
    store(i0 + 4 * (t) + 3, j0 + (col), acc[(col) * AT + (t)].w);

void main() {
    int i0 = int(gl_GlobalInvocationID.x) * BLOCK_M;
    int j0 = int(gl_GlobalInvocationID.y) * 8;
    if (i0 >= uM || j0 >= uN) {
        return;
    }
    vec4 acc[AT * 8];
    for (int t = 0; t < AT * 8; t++) {
        acc[t] = vec4(0.0);
    }
    if (uUseAB) {
        int a = i0 / 4;
        int b = j0 / 4;
        for (int l = 0; l < uK; l++) {
            vec4 a0 = texelFetch(uAp, a);
            vec4 a1 = texelFetch(uAp, a + 1);
#if AT == 4
            vec4 a2 = texelFetch(uAp, a + 2);
            vec4 a3 = texelFetch(uAp, a + 3);
#endif
            vec4 b0 = texelFetch(uBp, b);
            vec4 b1 = texelFetch(uBp, b + 1);
            STEP(0, b0.x)
            STEP(1, b0.y)
            STEP(2, b0.z)
            STEP(3, b0.w)
            STEP(4, b1.x)
            STEP(5, b1.y)
            STEP(6, b1.z)
            STEP(7, b1.w)
            a += uApStep;
            b += uBpStep;
        }
    }
    STORE_COLUMN(0)
    STORE_COLUMN(1)
    STORE_COLUMN(2)
    STORE_COLUMN(3)
    STORE_COLUMN(4)
    STORE_COLUMN(5)
    STORE_COLUMN(6)
    STORE_COLUMN(7)
}
