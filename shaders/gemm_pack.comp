// Packs op(P) (rows × cols) into a panel for gemm.comp: element (r, c) at c*uLd + r, zeros in
// the padding rows rows..uLd-1, so that the kernel reads 4 consecutive rows as one RGBA texel.
// Element (r, c) of op(P) is texel uPStart + r*uPRow + c*uPCol of the operand (REAL: real.glsl).
layout(local_size_x = 64) in;
uniform REAL_SAMPLER uP;
uniform int uPStart, uPRow, uPCol;
uniform int uRows, uLd;
layout(REAL_IMAGE_FORMAT) writeonly uniform REAL_IMAGE uPanel;

void main() {
    int r = int(gl_GlobalInvocationID.x);
    int c = int(gl_GlobalInvocationID.y);
    if (r >= uLd) {
        return;
    }
    REAL v = r < uRows ? FETCH(uP, uPStart + r * uPRow + c * uPCol) : REAL(0.0);
    STORE(uPanel, c * uLd + r, v);
}
