// sgemm on one tile of C: C := alpha*op(A)*op(B) + beta*C, one element of C per fragment
// (fragment (i, j) is row i, column j of the tile).
// Element (r, c) of op(P), P = A, B, C, is texel uPStart + r*uPRow + c*uPCol: a transpose only
// swaps the two steps.
uniform samplerBuffer uA;
uniform int uAStart, uARow, uACol;
uniform samplerBuffer uB;
uniform int uBStart, uBRow, uBCol;
uniform samplerBuffer uC;
uniform int uCStart, uCRow, uCCol;
uniform int uK;
uniform float uAlpha;
uniform float uBeta;
// alpha != 0 and k > 0: otherwise A and B are not read and alpha is not applied (reference BLAS).
uniform bool uUseAB;
// beta != 0: otherwise C is not read, so NaN or Inf in it cannot leak.
uniform bool uReadC;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float r = 0.0;
    if (uUseAB) {
        int a = uAStart + p.x * uARow;
        int b = uBStart + p.y * uBCol;
        float s0 = 0.0, s1 = 0.0;
        int l = 0;
        for (; l + 2 <= uK; l += 2) {
            s0 += texelFetch(uA, a).r * texelFetch(uB, b).r;
            s1 += texelFetch(uA, a + uACol).r * texelFetch(uB, b + uBRow).r;
            a += 2 * uACol;
            b += 2 * uBRow;
        }
        if (l < uK) {
            s0 += texelFetch(uA, a).r * texelFetch(uB, b).r;
        }
        r = uAlpha * (s0 + s1);
    }
    if (uReadC) {
        r += uBeta * texelFetch(uC, uCStart + p.x * uCRow + p.y * uCCol).r;
    }
    fragOut = r;
}
