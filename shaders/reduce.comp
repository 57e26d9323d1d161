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
    int id = int(gl_GlobalInvocationID.x);
    int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    vec4 acc = vec4(0.0);
#ifdef VEC4
    // Texel t of x holds logical elements 4t - uXStart .. 4t - uXStart + 3; texels
    // first..last-1 are whole, and the elements outside them go one by one.
    int first = (uXStart + 3) / 4;
    int last = (uN + uXStart) / 4;
    int t = first + id;
    for (; t + stride < last; t += 2 * stride) {
        acc += TERM4(t) + TERM4(t + stride);
    }
    if (t < last) {
        acc += TERM4(t);
    }
    for (int i = id; i < 4 * first - uXStart; i += stride) {
        acc.x += TERM(i);
    }
    for (int i = 4 * last - uXStart + id; i < uN; i += stride) {
        acc.y += TERM(i);
    }
#else
    int i = id;
    for (; i + 3 * stride < uN; i += 4 * stride) {
        acc += vec4(TERM(i), TERM(i + stride), TERM(i + 2 * stride), TERM(i + 3 * stride));
    }
    for (; i < uN; i += stride) {
        acc.x += TERM(i);
    }
#endif
    uint lid = gl_LocalInvocationID.x;
    sums[lid] = (acc.x + acc.y) + (acc.z + acc.w);
    barrier();
    for (uint w = 32u; w > 0u; w >>= 1) {
        if (lid < w) {
            sums[lid] += sums[lid + w];
        }
        barrier();
    }
    if (lid == 0u) {
        partials[gl_WorkGroupID.x] = sums[0];
    }
}
