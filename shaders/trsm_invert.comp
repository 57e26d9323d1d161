// trsm's diagonal blocks: the inverse of each uBlock×uBlock diagonal block of op(A) (the last
// one uN % uBlock rows when that is not zero), one workgroup per block, each invocation the
// columns j ≡ its index (mod 64) of the inverse, by substitution: column j solves T x = e_j,
// T the block, four rows of x per pass. Block b's inverse is stored column-major (ld uBlock)
// from element b*uBlock*uBlock of the storage block Inv. Element (r, c) of op(A) is texel
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

// T_ij where `valid`, else 0 (without reading it).
REAL t_if(bool valid, int r, int c) {
    return valid ? t(r, c) : REAL(0.0);
}

void main() {
    int b = int(gl_WorkGroupID.x);
    int first = b * uBlock;
    int size = min(uBlock, uN - first);
    int base = b * uBlock * uBlock;
    bool lower = DYNAMIC_FLAG(uLower);
    bool unit = DYNAMIC_FLAG(uUnit);
    int step = lower ? 1 : -1;
    int end = lower ? size : -1;
    for (int j = int(gl_LocalInvocationID.x); j < size; j += 64) {
        int col = base + j * uBlock;
        // x_r = 0 outside the triangle; x_j = 1 / T_jj; then the further x_r four rows at a
        // time, from the ones between them and j (written before, by this invocation): one
        // pass over those serves four rows (a quarter of the loop iterations and storage
        // loads), then the 4×4 triangle among the four is solved.
        for (int r = 0; r < size; r++) {
            inv[col + r] = REAL(0.0);
        }
        inv[col + j] = unit ? REAL(1.0) : REAL(1.0) / t(first + j, first + j);
        for (int r = j + step; (r - end) * step < 0; r += 4 * step) {
            // Rows of the four past the block's end are its last row again (inside the stored
            // triangle for every c before r); their results are dropped.
            int left = lower ? size - r : r + 1;
            bvec4 valid = lessThan(ivec4(0, 1, 2, 3), ivec4(left));
            ivec4 rows = first + r + step * min(ivec4(0, 1, 2, 3), ivec4(left - 1));
            REAL4 s = REAL4(0.0);
            for (int c = j; c != r; c += step) {
                int tc = first + c;
                s += REAL4(t(rows.x, tc), t(rows.y, tc), t(rows.z, tc), t(rows.w, tc)) *
                     inv[col + c];
            }
            REAL4 d = unit ? REAL4(1.0)
                           : REAL4(t(rows.x, rows.x), t_if(valid.y, rows.y, rows.y),
                                   t_if(valid.z, rows.z, rows.z), t_if(valid.w, rows.w, rows.w));
            d = mix(REAL4(1.0), d, valid);
            REAL4 x;
            x.x = -s.x / d.x;
            x.y = -(s.y + t_if(valid.y, rows.y, rows.x) * x.x) / d.y;
            x.z = -(s.z + t_if(valid.z, rows.z, rows.x) * x.x +
                    t_if(valid.z, rows.z, rows.y) * x.y) / d.z;
            x.w = -(s.w + t_if(valid.w, rows.w, rows.x) * x.x +
                    t_if(valid.w, rows.w, rows.y) * x.y +
                    t_if(valid.w, rows.w, rows.z) * x.z) / d.w;
            inv[col + r] = x.x;
            if (valid.y) {
                inv[col + r + step] = x.y;
            }
            if (valid.z) {
                inv[col + r + 2 * step] = x.z;
            }
            if (valid.w) {
                inv[col + r + 3 * step] = x.w;
            }
        }
    }
}
