// trsm's diagonal blocks: the inverse of each uBlock×uBlock diagonal block of op(A) (the last
// one uN % uBlock rows when that is not zero), one workgroup per block, each invocation the
// columns j ≡ its index (mod 64) of the inverse, by substitution: column j solves T x = e_j,
// T the block. Block b's inverse is stored column-major (ld uBlock) from element
// b*uBlock*uBlock of the storage block Inv. Element (r, c) of op(A) is texel
// uAStart + r*uARow + c*uACol. T is lower triangular when uLower (forward substitution), else
// upper (backward); uUnit: unit diagonal, never read.
layout(local_size_x = 64) in;
uniform REAL_SAMPLER uA;
uniform int uAStart, uARow, uACol;
uniform int uN, uBlock;
uniform bool uLower, uUnit;
layout(std430, binding = 0) buffer Inv { REAL inv[]; };

REAL t(int r, int c) {
    return FETCH(uA, uAStart + r * uARow + c * uACol);
}

void main() {
    int b = int(gl_WorkGroupID.x);
    int first = b * uBlock;
    int size = min(uBlock, uN - first);
    int base = b * uBlock * uBlock;
    bool lower = DYNAMIC_FLAG(uLower);
    bool unit = DYNAMIC_FLAG(uUnit);
    for (int j = int(gl_LocalInvocationID.x); j < size; j += 64) {
        int col = base + j * uBlock;
        // x_r = 0 outside the triangle; x_j = 1 / T_jj; then each further x_r from the ones
        // between it and j (written before, by this invocation).
        for (int r = 0; r < size; r++) {
            inv[col + r] = REAL(0.0);
        }
        inv[col + j] = unit ? REAL(1.0) : REAL(1.0) / t(first + j, first + j);
        int step = lower ? 1 : -1;
        int end = lower ? size : -1;
        for (int r = j + step; r != end; r += step) {
            REAL s = REAL(0.0);
            for (int c = j; c != r; c += step) {
                s += t(first + r, first + c) * inv[col + c];
            }
            inv[col + r] = unit ? -s : -s / t(first + r, first + r);
        }
    }
}
