// Parallel sum: fragment f adds items [f*uBlock, (f+1)*uBlock) of uCount, four terms per item.
// The first pass (TEXELS) reads the operands on a texel grid (see common.glsl), item t being
// grid texel t (DOT: x[i]*y[i], SUM: x[i], ASUM: |x[i]|); later passes (PARTIALS) add the
// previous pass's uTerms sums, item j being sums 4j..4j+3.
//
// With MAX (MIN) the terms are combined by max (min) instead of added, the variants of nrm2 and
// isamax (dot.rs), whose terms come from the elements' bits: EXPMAX the biased exponent of x[i]
// (256 for a NaN); SUMSQ (x[i] * 2^s)^2 for the scale uScale = 2^s, a subnormal's through its
// bits (1.mantissa - 1, times uSubScale = 2^(s - 126)) since devices may flush subnormals in
// arithmetic; KEYHI the magnitude's bits >> 8 (see iamax_key), KEYLO its low 8 bits where the
// high ones are uHi (else -1), FIRST the lowest index i whose key is uHi * 256 + uLo.
#if defined(MAX)
#define COMBINE(a, b) max(a, b)
#define IDENTITY (-1.0)
#elif defined(MIN)
#define COMBINE(a, b) min(a, b)
#define IDENTITY 3.0e38
#else
#define COMBINE(a, b) ((a) + (b))
#define IDENTITY 0.0
#endif

#if defined(EXPMAX) || defined(SUMSQ) || defined(KEYHI) || defined(KEYLO) || defined(FIRST)
uniform float uScale;
uniform float uSubScale;
uniform int uHi;
uniform int uLo;
uniform bool uNanFirst;

// x's magnitude bits, a NaN's as 0 (never the largest) except at logical element 0 when
// uNanFirst, where it ranks above infinity (the reference isamax keeps a NaN first element).
int iamax_key(float x, int i) {
    uint m = floatBitsToUint(x) & 0x7fffffffu;
    if (m > 0x7f800000u) {
        m = i == 0 && uNanFirst ? 0x7f800001u : 0u;
    }
    return int(m);
}

float term(float x, int i) {
    uint m = floatBitsToUint(x) & 0x7fffffffu;
#if defined(EXPMAX)
    return m > 0x7f800000u ? 256.0 : float(m >> 23);
#elif defined(SUMSQ)
    float s = (m >> 23) == 0u ? (uintBitsToFloat(m | 0x3f800000u) - 1.0) * uSubScale
                              : uintBitsToFloat(m) * uScale;
    return s * s;
#elif defined(KEYHI)
    return float(iamax_key(x, i) >> 8);
#elif defined(KEYLO)
    int k = iamax_key(x, i);
    return (k >> 8) == uHi ? float(k & 255) : -1.0;
#elif defined(FIRST)
    return iamax_key(x, i) == uHi * 256 + uLo ? float(i) : IDENTITY;
#endif
}

// Grid texel t's terms; elements outside the run give IDENTITY.
vec4 terms(vec4 x, int t) {
    vec4 v;
    for (int c = 0; c < 4; ++c) {
        int r = 4 * t - uShift + c;
        v[c] = slot_in_run(r) ? term(x[c], slot_logical(r)) : IDENTITY;
    }
    return v;
}

#define WHOLE(t) terms(x_whole(t), t)
#define EDGE(t) terms(x_edge(t), t)
#elif defined(DOT)
#define WHOLE(t) (x_whole(t) * y_whole(t))
#define EDGE(t) (x_edge(t) * y_edge(t))
#elif defined(SUM)
#define WHOLE(t) x_whole(t)
#define EDGE(t) x_edge(t)
#elif defined(ASUM)
#define WHOLE(t) abs(x_whole(t))
#define EDGE(t) abs(x_edge(t))
#elif defined(PARTIALS)
uniform sampler2D uSrc;
uniform int uSrcWidth;
uniform int uTerms;

float partial(int k) {
    return k < uTerms ? texelFetch(uSrc, ivec2(k % uSrcWidth, k / uSrcWidth), 0).r : IDENTITY;
}

#define WHOLE(j) vec4(partial(4 * (j)), partial(4 * (j) + 1), partial(4 * (j) + 2), partial(4 * (j) + 3))
#endif

uniform int uCount;
uniform int uBlock;

// Items per inner sum: a fragment's sum is blocked (inner sums of INNER items added into an
// outer one), so each term passes through about INNER + uBlock/INNER additions, not uBlock.
#define INNER 32

void main() {
    int f = out_index();
    if (f < 0) {
        fragOut = IDENTITY;
        return;
    }
    int begin = f * uBlock;
    int end = min(begin + uBlock, uCount);
    vec4 total = vec4(IDENTITY);
#ifdef TEXELS
    // The partial texels at the ends, once each, by the fragments holding them; the loop below
    // takes the whole ones.
    int first = texels_begin();
    int last = texels_end();
    if (first > 0 && begin == 0) {
        total = COMBINE(total, EDGE(0));
    }
    if (last >= first && last >= begin && last < end) {
        total = COMBINE(total, EDGE(last));
    }
    begin = max(begin, first);
    end = min(end, last);
#endif
    for (int b = begin; b < end; b += INNER) {
        int stop = min(b + INNER, end);
        vec4 s = vec4(IDENTITY);
        for (int i = b; i < stop; ++i) {
            s = COMBINE(s, WHOLE(i));
        }
        total = COMBINE(total, s);
    }
    fragOut = COMBINE(COMBINE(total.x, total.y), COMBINE(total.z, total.w));
}
