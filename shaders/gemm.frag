// sgemm on one tile of C: C := alpha*op(A)*op(B) + beta*C, one element of C per fragment
// (fragment (i, j) is row i, column j of the tile).
// MATRIX(P): element (r, c) of op(P) is texel uPStart + r*uPRow + c*uPCol; transposes only
// swap the two steps.
#define MATRIX(P) uniform samplerBuffer u##P; uniform int u##P##Start; uniform int u##P##Row; uniform int u##P##Col;
MATRIX(A)
MATRIX(B)
MATRIX(C)
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
