// sgemv: y := alpha*op(A)*x + beta*y.
// Element (r, c) of op(A) is texel uAStart + r*uARow + c*uACol: a transpose only swaps the steps.
// Without TEXELS (strided y), one element of y per fragment. With TEXELS (unit-stride y), one
// texel of y's grid per fragment (see common.glsl; EDGE: a partial one): for op(A) = A, four
// rows of A's columns at once (A_VEC4: one RGBA load each, A's columns starting texels); for
// op(A) = A^T (TRANS), four dot products of A's columns with x, along the inner dimension in
// texels of a grid shifted by uLShift (A_VEC4, X_VEC4: RGBA loads of A's columns and of x).
uniform samplerBuffer uA;
uniform int uAStart, uARow, uACol;
uniform int uK;
uniform float uAlpha;
uniform float uBeta;
// alpha != 0: otherwise A and x are not read (reference BLAS).
uniform bool uUseAx;
// beta != 0: otherwise y is not read, so NaN or Inf in it cannot leak.
uniform bool uReadY;

float a_at(int r, int c) {
    return texelFetch(uA, uAStart + r * uARow + c * uACol).r;
}

#ifndef TEXELS
void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
    float r = 0.0;
    if (uUseAx) {
        float s0 = 0.0, s1 = 0.0;
        int l = 0;
        for (; l + 2 <= uK; l += 2) {
            s0 += a_at(i, l) * x_at(l);
            s1 += a_at(i, l + 1) * x_at(l + 1);
        }
        if (l < uK) {
            s0 += a_at(i, l) * x_at(l);
        }
        r = uAlpha * (s0 + s1);
    }
    if (uReadY) {
        r += uBeta * y_at(i);
    }
    fragOut = r;
}
#else
layout(location = 0) out vec4 fragOut;
#ifdef A_VEC4
// Texel uA4Start + q + j*uA4Col holds texel q of A's stored column j (of the grid).
uniform samplerBuffer uA4;
uniform int uA4Start, uA4Col;
#endif

// The rows of op(A) that texel t's four outputs are (clamped into the run for partial texels,
// whose other outputs are not stored).
ivec4 rows_of(int t) {
    int r = 4 * t - uShift;
    ivec4 rc = ivec4(r, r + 1, r + 2, r + 3);
#ifdef EDGE
    rc = clamp(rc, 0, uN - 1);
#endif
    return ivec4(slot_logical(rc.x), slot_logical(rc.y), slot_logical(rc.z), slot_logical(rc.w));
}

#ifndef TRANS
// Column l of A at texel t's rows.
vec4 a_rows(int t, ivec4 i, int l) {
#if defined(A_VEC4) && !defined(EDGE)
    return texelFetch(uA4, uA4Start + t + l * uA4Col);
#else
    return vec4(a_at(i.x, l), a_at(i.y, l), a_at(i.z, l), a_at(i.w, l));
#endif
}

vec4 product(int t) {
    ivec4 i = rows_of(t);
    vec4 s0 = vec4(0.0), s1 = vec4(0.0);
    int l = 0;
    for (; l + 2 <= uK; l += 2) {
        s0 += a_rows(t, i, l) * x_at(l);
        s1 += a_rows(t, i, l + 1) * x_at(l + 1);
    }
    if (l < uK) {
        s0 += a_rows(t, i, l) * x_at(l);
    }
    return s0 + s1;
}
#else
// The inner dimension in texels: texel q holds l = 4q - uLShift .. 4q - uLShift + 3; whole
// ones are [uLShift > 0 ? 1 : 0, (uK + uLShift) / 4).
// (X_VEC4: common.glsl's uX4, texel q of this grid being q + uX4Shift.)
uniform int uLShift;

vec4 x_along(int q) {
#ifdef X_VEC4
    return texelFetch(uX4, q + uX4Shift);
#else
    int l = 4 * q - uLShift;
    return vec4(x_at(l), x_at(l + 1), x_at(l + 2), x_at(l + 3));
#endif
}

// Texel q of column i of A (row i of op(A)).
vec4 a_along(int i, int q) {
#ifdef A_VEC4
    return texelFetch(uA4, uA4Start + q + i * uA4Col);
#else
    int l = 4 * q - uLShift;
    return vec4(a_at(i, l), a_at(i, l + 1), a_at(i, l + 2), a_at(i, l + 3));
#endif
}

vec4 product(int t) {
    ivec4 i = rows_of(t);
    vec4 s0 = vec4(0.0), s1 = vec4(0.0), s2 = vec4(0.0), s3 = vec4(0.0);
    int first = uLShift > 0 ? 1 : 0;
    int last = (uK + uLShift) / 4;
    for (int q = first; q < last; ++q) {
        vec4 x = x_along(q);
        s0 += a_along(i.x, q) * x;
        s1 += a_along(i.y, q) * x;
        s2 += a_along(i.z, q) * x;
        s3 += a_along(i.w, q) * x;
    }
    vec4 r = vec4(dot(s0, vec4(1.0)), dot(s1, vec4(1.0)), dot(s2, vec4(1.0)), dot(s3, vec4(1.0)));
    // The elements of the partial texels at the two ends, one by one.
    int head = min(4 * first - uLShift, uK);
    int tail = max(4 * last - uLShift, head);
    for (int l = 0; l < head; ++l) {
        r += vec4(a_at(i.x, l), a_at(i.y, l), a_at(i.z, l), a_at(i.w, l)) * x_at(l);
    }
    for (int l = tail; l < uK; ++l) {
        r += vec4(a_at(i.x, l), a_at(i.y, l), a_at(i.z, l), a_at(i.w, l)) * x_at(l);
    }
    return r;
}
#endif

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int t = p.y * uOutWidth + p.x;
    vec4 r = vec4(0.0);
    if (uUseAx) {
        r = uAlpha * product(t);
    }
    if (uReadY) {
#ifdef EDGE
        r += uBeta * y_edge(t);
#else
        r += uBeta * y_whole(t);
#endif
    }
    fragOut = r;
}
#endif
