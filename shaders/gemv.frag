// sgemv: y := alpha*op(A)*x + beta*y, one element of y per fragment.
// Element (r, c) of op(A) is texel uAStart + r*uARow + c*uACol: a transpose only swaps the steps.
uniform samplerBuffer uA;
uniform int uAStart, uARow, uACol;
uniform int uK;
uniform float uAlpha;
uniform float uBeta;
// alpha != 0: otherwise A and x are not read (reference BLAS).
uniform bool uUseAx;
// beta != 0: otherwise y is not read, so NaN or Inf in it cannot leak.
uniform bool uReadY;

void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
    float r = 0.0;
    if (uUseAx) {
        int a = uAStart + i * uARow;
        float s0 = 0.0, s1 = 0.0;
        int l = 0;
        for (; l + 2 <= uK; l += 2) {
            s0 += texelFetch(uA, a).r * x_at(l);
            s1 += texelFetch(uA, a + uACol).r * x_at(l + 1);
            a += 2 * uACol;
        }
        if (l < uK) {
            s0 += texelFetch(uA, a).r * x_at(l);
        }
        r = uAlpha * (s0 + s1);
    }
    if (uReadY) {
        r += uBeta * y_at(i);
    }
    fragOut = r;
}
