// Packs op(P) (rows × cols) into a panel for gemm.comp: element (r, c) at c*uLd + r, zeros in
// the padding rows rows..uLd-1, so that the kernel reads 4 consecutive rows as one RGBA texel.
// Element (r, c) of op(P) is texel uPStart + r*uPRow + c*uPCol of the R32F operand.
layout(local_size_x = 64) in;
uniform samplerBuffer uP;
uniform int uPStart, uPRow, uPCol;
uniform int uRows, uLd;
layout(r32f) writeonly uniform imageBuffer uPanel;

void main() {
    int r = int(gl_GlobalInvocationID.x);
    int c = int(gl_GlobalInvocationID.y);
    if (r >= uLd) {
        return;
    }
    float v = r < uRows ? texelFetch(uP, uPStart + r * uPRow + c * uPCol).r : 0.0;
    imageStore(uPanel, c * uLd + r, vec4(v));
}
