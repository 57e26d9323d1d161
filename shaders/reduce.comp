// Reductions on the compute pipeline: DOT x[i]*y[i], SUM x[i], ASUM |x[i]|. Each invocation
// adds its share of the terms in four running sums, the workgroup adds its invocations' sums as
// a tree, and one partial sum per workgroup is stored for the host to add. Logical element i of
// an operand is element uStart + i*uInc of its window; with VEC4 both operands are unit-stride
// and share alignment, so whole texels are read four terms at a time.
layout(local_size_x = 64) in;

uniform highp samplerBuffer uX1;
uniform highp samplerBuffer uY1;
#ifdef VEC4
uniform highp samplerBuffer uX4;
uniform highp samplerBuffer uY4;
// y's texel holding the elements of x's texel t is t + uYShift.
uniform int uYShift;
#endif
layout(std430, binding = 0) writeonly buffer Partials { float partials[]; };

uniform int uN;
uniform int uXStart, uXInc, uYStart, uYInc;

#if defined(DOT)
#define TERM(i) (texelFetch(uX1, uXStart + (i) * uXInc).r * texelFetch(uY1, uYStart + (i) * uYInc).r)
#define TERM4(t) (texelFetch(uX4, t) * texelFetch(uY4, (t) + uYShift))
#elif defined(SUM)
#define TERM(i) texelFetch(uX1, uXStart + (i) * uXInc).r
#define TERM4(t) texelFetch(uX4, t)
#elif defined(ASUM)
#define TERM(i) abs(texelFetch(uX1, uXStart + (i) * uXInc).r)
#define TERM4(t) abs(texelFetch(uX4, t))
#endif

shared float sums[64];

void main() {
    // Each workgroup takes one contiguous run of the terms, its invocations interleaved in it.
    int lid = int(gl_LocalInvocationID.x);
    int groups = int(gl_NumWorkGroups.x);
    vec4 acc = vec4(0.0);
#ifdef VEC4
    // Texel t of x holds logical elements 4t - uXStart .. 4t - uXStart + 3; texels
    // first..last-1 are whole, and the elements outside them go one by one.
    int first = (uXStart + 3) / 4;
    int last = (uN + uXStart) / 4;
    int run = ((last - first + groups - 1) / groups + 63) / 64 * 64;
    int begin = first + int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, last);
    int t = begin + lid;
    for (; t + 64 < end; t += 128) {
        acc += TERM4(t) + TERM4(t + 64);
    }
    if (t < end) {
        acc += TERM4(t);
    }
    if (gl_WorkGroupID.x == 0u) {
        for (int i = lid; i < 4 * first - uXStart; i += 64) {
            acc.x += TERM(i);
        }
        for (int i = 4 * last - uXStart + lid; i < uN; i += 64) {
            acc.y += TERM(i);
        }
    }
#else
    int run = ((uN + groups - 1) / groups + 63) / 64 * 64;
    int begin = int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, uN);
    int i = begin + lid;
    for (; i + 192 < end; i += 256) {
        acc += vec4(TERM(i), TERM(i + 64), TERM(i + 128), TERM(i + 192));
    }
    for (; i < end; i += 64) {
        acc.x += TERM(i);
    }
#endif
    sums[lid] = (acc.x + acc.y) + (acc.z + acc.w);
    barrier();
    for (int w = 32; w > 0; w >>= 1) {
        if (lid < w) {
            sums[lid] += sums[lid + w];
        }
        barrier();
    }
    if (lid == 0) {
        partials[gl_WorkGroupID.x] = sums[0];
    }
}
