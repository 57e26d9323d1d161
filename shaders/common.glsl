// Shared by every fragment kernel.
//
// Operands are buffer textures over device buffers (R32F texels, one float each). Vector
// operand P has uniforms uP (the sampler), uPStart (texel of logical element 0) and uPInc (texel
// step between logical elements, negative for BLAS negative increments); see operand.rs.
// (GLSL ES has no token pasting, so the two vector operands are spelled out.)
uniform samplerBuffer uX;
uniform int uXStart;
uniform int uXInc;
uniform samplerBuffer uY;
uniform int uYStart;
uniform int uYInc;

float x_at(int i) {
    return texelFetch(uX, uXStart + i * uXInc).r;
}

float y_at(int i) {
    return texelFetch(uY, uYStart + i * uYInc).r;
}

// Kernels writing RGBA targets declare their own outputs.
#ifndef VEC4_OUTPUTS
layout(location = 0) out float fragOut;
#endif

// Output mapping for vector results. Outputs are rendered in memory order so that one
// glReadPixels with GL_PACK_ROW_LENGTH = |inc| stores them in place:
//  - uOutTall == 0: element r at pixel (r % uOutWidth, r / uOutWidth) (unit stride: whole rows);
//  - uOutTall  > 0: element r at pixel (r / uOutTall, r % uOutTall) (strided: one column per read).
// With a negative increment, memory slot r holds logical element uOutCount - 1 - r.
uniform int uOutCount;
uniform int uOutWidth;
uniform int uOutTall;
uniform bool uOutReverse;

// The logical element this fragment computes, or -1 past the end.
int out_index() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int r = uOutTall > 0 ? p.x * uOutTall + p.y : p.y * uOutWidth + p.x;
    if (r >= uOutCount) {
        return -1;
    }
    return uOutReverse ? uOutCount - 1 - r : r;
}
