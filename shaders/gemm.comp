// sgemm: C := alpha*op(A)*op(B) + beta*C, each invocation an 8×8 block of C held in 16 vec4
// accumulators (register blocking). The operands come packed (gemm_pack.comp) so that every load
// is one RGBA texel: 4 consecutive rows of op(A) at one l, and 4 consecutive columns of op(B) at
// one l (op(B) is packed transposed). Per step of l: 4 loads, 16 vec4 multiply-adds.
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

#define STEP(col, b) \
    acc[2 * col] += a0 * b; \
    acc[2 * col + 1] += a1 * b;

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

#define STORE_HALF(col, v, i) \
    store(i, j0 + col, v.x); \
    store(i + 1, j0 + col, v.y); \
    store(i + 2, j0 + col, v.z); \
    store(i + 3, j0 + col, v.w);
#define STORE_COLUMN(col) \
    STORE_HALF(col, acc[2 * col], i0) \
    STORE_HALF(col, acc[2 * col + 1], i0 + 4)

void main() {
    int i0 = int(gl_GlobalInvocationID.x) * 8;
    int j0 = int(gl_GlobalInvocationID.y) * 8;
    if (i0 >= uM || j0 >= uN) {
        return;
    }
    vec4 acc[16];
    for (int t = 0; t < 16; t++) {
        acc[t] = vec4(0.0);
    }
    if (uUseAB) {
        int a = i0 / 4;
        int b = j0 / 4;
        for (int l = 0; l < uK; l++) {
            vec4 a0 = texelFetch(uAp, a);
            vec4 a1 = texelFetch(uAp, a + 1);
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
    // Constant indices only, so the accumulators stay in registers.
    STORE_COLUMN(0)
    STORE_COLUMN(1)
    STORE_COLUMN(2)
    STORE_COLUMN(3)
    STORE_COLUMN(4)
    STORE_COLUMN(5)
    STORE_COLUMN(6)
    STORE_COLUMN(7)
}
