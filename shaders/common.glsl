// Shared by every fragment kernel.
//
// Operands are buffer textures over device buffers (R32F texels, one float each). Vector
// operand P has uniforms uP (the sampler), uPStart (texel of logical element 0) and uPInc (texel
// step between logical elements, negative for BLAS negative increments); see operand_units.rs.
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

// Texel grids (TEXELS kernels; see texels.rs): grid texel t, at pixel (t % uOutWidth,
// t / uOutWidth), takes elements 4t - uShift .. 4t - uShift + 3 of a run of uN in memory order;
// memory slot r holds logical element r (uN - 1 - r when uReverse). With X_VEC4 (Y_VEC4) the
// operand's texels line up with the grid's and whole ones are read at once through uX4 (uY4).
#ifdef TEXELS
uniform int uN;
uniform int uShift;
uniform bool uReverse;
#ifdef X_VEC4
uniform samplerBuffer uX4;
uniform int uX4Shift;
#endif
#ifdef Y_VEC4
uniform samplerBuffer uY4;
uniform int uY4Shift;
#endif

int slot_logical(int r) {
    return uReverse ? uN - 1 - r : r;
}

bool slot_in_run(int r) {
    return r >= 0 && r < uN;
}

// Whole texels of the grid: [texels_begin(), texels_end()); only the texels before and at the
// end may be partial.
int texels_begin() {
    return uShift > 0 ? 1 : 0;
}

int texels_end() {
    return (uN + uShift) / 4;
}

// Grid texel t element by element through an R32F view (start and step as for x_at); with
// `guarded`, elements outside the run read as 0 and are not fetched.
vec4 grid_elements(samplerBuffer s, int start, int inc, int t, bool guarded) {
    vec4 v = vec4(0.0);
    for (int c = 0; c < 4; ++c) {
        int r = 4 * t - uShift + c;
        if (!guarded || slot_in_run(r)) {
            v[c] = texelFetch(s, start + slot_logical(r) * inc).r;
        }
    }
    return v;
}

// Grid texel t, one of the whole ones.
vec4 x_whole(int t) {
#ifdef X_VEC4
    return texelFetch(uX4, t + uX4Shift);
#else
    return grid_elements(uX, uXStart, uXInc, t, false);
#endif
}

vec4 y_whole(int t) {
#ifdef Y_VEC4
    return texelFetch(uY4, t + uY4Shift);
#else
    return grid_elements(uY, uYStart, uYInc, t, false);
#endif
}

// Grid texel t, any one.
vec4 x_edge(int t) {
    return grid_elements(uX, uXStart, uXInc, t, true);
}

vec4 y_edge(int t) {
    return grid_elements(uY, uYStart, uYInc, t, true);
}
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
