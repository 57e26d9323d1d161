// Parallel sum: fragment f adds terms [f*uBlock, (f+1)*uBlock) of uCount. A first pass reads the
// operands (DOT: x[i]*y[i], SUM: x[i], ASUM: |x[i]|); later passes (PARTIALS) add the previous
// pass's sums.
#if defined(DOT)
#define TERM(i) (x_at(i) * y_at(i))
#elif defined(SUM)
#define TERM(i) x_at(i)
#elif defined(ASUM)
#define TERM(i) abs(x_at(i))
#elif defined(PARTIALS)
uniform sampler2D uSrc;
uniform int uSrcWidth;
#define TERM(i) texelFetch(uSrc, ivec2((i) % uSrcWidth, (i) / uSrcWidth), 0).r
#endif

uniform int uCount;
uniform int uBlock;

void main() {
    int f = out_index();
    if (f < 0) {
        fragOut = 0.0;
        return;
    }
    int begin = f * uBlock;
    int end = min(begin + uBlock, uCount);
    // Four interleaved sums: shorter dependency chains, and each holds a quarter of the block.
    float s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = begin;
    for (; i + 4 <= end; i += 4) {
        s0 += TERM(i);
        s1 += TERM(i + 1);
        s2 += TERM(i + 2);
        s3 += TERM(i + 3);
    }
    for (; i < end; ++i) {
        s0 += TERM(i);
    }
    fragOut = (s0 + s1) + (s2 + s3);
}
