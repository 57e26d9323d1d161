// Reductions on the compute pipeline, in ELEM (real.glsl: a real, or with COMPLEX a complex
// pair): DOT x[i]*y[i] (conj(x[i])*y[i] with CONJ_X), SUM x[i], ASUM |x[i]| (each part's, for
// a complex x). Each invocation adds its share of the terms in four running sums, the workgroup
// adds its invocations' sums as a tree, and one partial sum per workgroup is stored for the
// host to add. Logical element i of an operand is element uStart + i*uInc of its window; with
// VEC4 (real only) both operands are unit-stride and share alignment, so whole groups (a texel
// of floats, two of doubles) are read four terms at a time. GROUP: invocations per workgroup
// (Tuning::vector_group), a power of 2.
layout(local_size_x = GROUP) in;

OPERAND(XIn1, uX1, 4)
OPERAND(YIn1, uY1, 5)
#ifdef VEC4
OPERAND4(XIn4, uX4, 6)
OPERAND4(YIn4, uY4, 7)
// y's group holding the elements of x's group t is t + uYShift.
uniform int uYShift;
#endif
layout(std430, binding = 0) writeonly buffer Partials { ELEM partials[]; };

uniform int uN;
uniform int uXStart, uXInc, uYStart, uYInc;

#ifdef CONJ_X
#define X_OF(v) CONJ(v)
#else
#define X_OF(v) (v)
#endif
#if defined(DOT)
#define TERM(i) mul(X_OF(FETCH(uX1, uXStart + (i) * uXInc)), FETCH(uY1, uYStart + (i) * uYInc))
#define TERM4(t) (FETCH4(uX4, t) * FETCH4(uY4, (t) + uYShift))
#elif defined(SUM)
#define TERM(i) FETCH(uX1, uXStart + (i) * uXInc)
#define TERM4(t) FETCH4(uX4, t)
#elif defined(ASUM)
#define TERM(i) abs(FETCH(uX1, uXStart + (i) * uXInc))
#define TERM4(t) abs(FETCH4(uX4, t))
#endif

shared ELEM sums[GROUP];

void main() {
    // Each workgroup takes one contiguous run of the terms, its invocations interleaved in it.
    int lid = int(gl_LocalInvocationID.x);
    int groups = int(gl_NumWorkGroups.x);
#ifdef VEC4
    REAL4 acc = REAL4(0.0);
    // Group t of x holds logical elements 4t - uXStart .. 4t - uXStart + 3; groups
    // first..last-1 are whole, and the elements outside them go one by one.
    int first = (uXStart + 3) / 4;
    int last = (uN + uXStart) / 4;
    int run = ((last - first + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = first + int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, last);
    int t = begin + lid;
    for (; t + GROUP < end; t += 2 * GROUP) {
        acc += TERM4(t) + TERM4(t + GROUP);
    }
    if (t < end) {
        acc += TERM4(t);
    }
    if (gl_WorkGroupID.x == 0u) {
        for (int i = lid; i < 4 * first - uXStart; i += GROUP) {
            acc.x += TERM(i);
        }
        for (int i = 4 * last - uXStart + lid; i < uN; i += GROUP) {
            acc.y += TERM(i);
        }
    }
    sums[lid] = (acc.x + acc.y) + (acc.z + acc.w);
#else
    ELEM a0 = ELEM(0.0), a1 = ELEM(0.0), a2 = ELEM(0.0), a3 = ELEM(0.0);
    int run = ((uN + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, uN);
    int i = begin + lid;
    for (; i + 3 * GROUP < end; i += 4 * GROUP) {
        a0 += TERM(i);
        a1 += TERM(i + GROUP);
        a2 += TERM(i + 2 * GROUP);
        a3 += TERM(i + 3 * GROUP);
    }
    for (; i < end; i += GROUP) {
        a0 += TERM(i);
    }
    sums[lid] = (a0 + a1) + (a2 + a3);
#endif
    barrier();
    for (int w = GROUP / 2; w > 0; w >>= 1) {
        if (lid < w) {
            sums[lid] += sums[lid + w];
        }
        barrier();
    }
    if (lid == 0) {
        partials[gl_WorkGroupID.x] = sums[0];
    }
}
