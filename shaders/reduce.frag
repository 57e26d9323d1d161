// Parallel sum: fragment f adds items [f*uBlock, (f+1)*uBlock) of uCount, four terms per item.
// The first pass (TEXELS) reads the operands on a texel grid (see common.glsl), item t being
// grid texel t (DOT: x[i]*y[i], SUM: x[i], ASUM: |x[i]|); later passes (PARTIALS) add the
// previous pass's uTerms sums, item j being sums 4j..4j+3.
#if defined(DOT)
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
    return k < uTerms ? texelFetch(uSrc, ivec2(k % uSrcWidth, k / uSrcWidth), 0).r : 0.0;
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
        fragOut = 0.0;
        return;
    }
    int begin = f * uBlock;
    int end = min(begin + uBlock, uCount);
    vec4 total = vec4(0.0);
#ifdef TEXELS
    // The partial texels at the ends, once each, by the fragments holding them; the loop below
    // takes the whole ones.
    int first = texels_begin();
    int last = texels_end();
    if (first > 0 && begin == 0) {
        total += EDGE(0);
    }
    if (last >= first && last >= begin && last < end) {
        total += EDGE(last);
    }
    begin = max(begin, first);
    end = min(end, last);
#endif
    for (int b = begin; b < end; b += INNER) {
        int stop = min(b + INNER, end);
        vec4 s = vec4(0.0);
        for (int i = b; i < stop; ++i) {
            s += WHOLE(i);
        }
        total += s;
    }
    fragOut = (total.x + total.y) + (total.z + total.w);
}
