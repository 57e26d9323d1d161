// sgemm on one tile of C, register-blocked: C := alpha*op(A)*op(B) + beta*C in three passes,
// chosen by #define (BLOCK_COLS, 4 or 8, is the number of color attachments BLOCK writes):
//  PACK:  op(P) (uRows × uK) into an RGBA32F panel: texel (x, l) holds rows 4x..4x+3 of
//         column l, so that BLOCK loads 4 consecutive elements per fetch; zeros past uRows
//         (nothing outside op(P) is read: the rows and columns of C they feed are not stored).
//         P is read by the Level 3 routines' packing rules (shape.glsl).
//         Panel A is op(A); panel B is op(B) transposed. The target is then copied into a
//         buffer, which BLOCK reads as an RGBA32F buffer texture (texel x + l*uPpStep).
//  BLOCK: fragment (x, y) computes C(4x..4x+3, y*BLOCK_COLS + t) for t < BLOCK_COLS in one vec4
//         accumulator per column, written to color attachment t. Per step of l: 1 + BLOCK_COLS/4
//         loads, BLOCK_COLS vec4 multiply-adds.
//  EDGE:  the last uRows % 4 rows of the tile, gathered from BLOCK's attachments into an R32F
//         target (fragment (r, j) is C(uEdgeX*4 + r, j)), since glReadPixels stores whole RGBA
//         texels only.
// Element (r, c) of C is texel uCStart + r*uCRow + c*uCCol of an R32F operand.

#ifdef PACK
// Element (i, j) of op(P) is element (i, j) of the stored P, or (j, i) when uTransposed, read as
// uShape and uUnit say (shape.glsl); the panel starts at element (uRow0, uCol0) of op(P).
uniform samplerBuffer uP;
uniform int uPStart, uPRow, uPCol;
uniform bool uTransposed;
uniform int uRow0, uCol0;
uniform int uShape;
uniform bool uUnit;
uniform int uRows;
layout(location = 0) out vec4 panel;

float element(int i, int j) {
    ivec2 s = shaped(uShape, uUnit, uTransposed ? ivec2(j, i) : ivec2(i, j));
    if (s.x < 0) {
        return float(s.y);
    }
    return texelFetch(uP, uPStart + s.x * uPRow + s.y * uPCol).r;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int r = 4 * p.x;
    vec4 v = vec4(0.0);
    for (int q = 0; q < 4; q++) {
        if (r + q < uRows) {
            v[q] = element(uRow0 + r + q, uCol0 + p.y);
        }
    }
    panel = v;
}
#endif

#ifdef BLOCK
uniform samplerBuffer uAp;
uniform samplerBuffer uBp;
uniform int uApStep, uBpStep;
uniform int uK;
uniform int uRows, uCols;
uniform float uAlpha;
uniform float uBeta;
// alpha != 0 and k > 0: otherwise A and B are not read and alpha is not applied (reference BLAS).
uniform bool uUseAB;
// beta != 0: otherwise C is not read, so NaN or Inf in it cannot leak.
uniform bool uReadC;
uniform samplerBuffer uC;
uniform int uCStart, uCRow, uCCol;
layout(location = 0) out vec4 c0;
layout(location = 1) out vec4 c1;
layout(location = 2) out vec4 c2;
layout(location = 3) out vec4 c3;
#if BLOCK_COLS == 8
layout(location = 4) out vec4 c4;
layout(location = 5) out vec4 c5;
layout(location = 6) out vec4 c6;
layout(location = 7) out vec4 c7;
#endif

// Rows i..i+3 of column j of C from their accumulated products; C is read only inside the tile.
vec4 result(vec4 acc, int i, int j) {
    vec4 r = uUseAB ? uAlpha * acc : vec4(0.0);
    if (uReadC && j < uCols) {
        int at = uCStart + i * uCRow + j * uCCol;
        for (int q = 0; q < 4; q++) {
            if (i + q < uRows) {
                r[q] += uBeta * texelFetch(uC, at + q * uCRow).r;
            }
        }
    }
    return r;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
#if BLOCK_COLS == 8
    vec4 acc4 = vec4(0.0), acc5 = vec4(0.0), acc6 = vec4(0.0), acc7 = vec4(0.0);
#endif
    if (uUseAB) {
        int bx = p.y * (BLOCK_COLS / 4);
        int ax = p.x;
        for (int l = 0; l < uK; l++) {
            vec4 a = texelFetch(uAp, ax);
            vec4 b = texelFetch(uBp, bx);
            acc0 += a * b.x;
            acc1 += a * b.y;
            acc2 += a * b.z;
            acc3 += a * b.w;
#if BLOCK_COLS == 8
            b = texelFetch(uBp, bx + 1);
            acc4 += a * b.x;
            acc5 += a * b.y;
            acc6 += a * b.z;
            acc7 += a * b.w;
#endif
            ax += uApStep;
            bx += uBpStep;
        }
    }
    int i = 4 * p.x;
    int j = BLOCK_COLS * p.y;
    c0 = result(acc0, i, j);
    c1 = result(acc1, i, j + 1);
    c2 = result(acc2, i, j + 2);
    c3 = result(acc3, i, j + 3);
#if BLOCK_COLS == 8
    c4 = result(acc4, i, j + 4);
    c5 = result(acc5, i, j + 5);
    c6 = result(acc6, i, j + 6);
    c7 = result(acc7, i, j + 7);
#endif
}
#endif

#ifdef EDGE
// BLOCK's attachments (sampler arrays take only constant indices on GL 3.3 / GLES 3.0).
uniform sampler2D uBlock0, uBlock1, uBlock2, uBlock3;
#if BLOCK_COLS == 8
uniform sampler2D uBlock4, uBlock5, uBlock6, uBlock7;
#endif
uniform int uEdgeX;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 at = ivec2(uEdgeX, p.y / BLOCK_COLS);
    int t = p.y % BLOCK_COLS;
    vec4 v = texelFetch(uBlock0, at, 0);
    if (t == 1) v = texelFetch(uBlock1, at, 0);
    if (t == 2) v = texelFetch(uBlock2, at, 0);
    if (t == 3) v = texelFetch(uBlock3, at, 0);
#if BLOCK_COLS == 8
    if (t == 4) v = texelFetch(uBlock4, at, 0);
    if (t == 5) v = texelFetch(uBlock5, at, 0);
    if (t == 6) v = texelFetch(uBlock6, at, 0);
    if (t == 7) v = texelFetch(uBlock7, at, 0);
#endif
    fragOut = v[p.x];
}
#endif
