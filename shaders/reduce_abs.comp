// The reductions over |x[i]| that are no plain sum, on the compute pipeline, in ELEM
// (real.glsl: a real, or with COMPLEX a complex pair, both of whose parts NRM2 adds, and whose
// |re| + |im| IAMAX compares, as the reference's scnrm2 and icamax do). The partition is
// reduce.comp's: each workgroup takes one contiguous run of the elements, its invocations
// interleaved in it (with VEC4, whole groups of four at a time, the elements outside them one
// by one), and leaves one partial for the host to combine (dot.rs).
//  - NRM2: the sum of squares in Blue's three accumulators (the reference dnrm2's, LAPACK 3.10),
//    each term scaled by a power of two so that no square overflows or underflows:
//    (small, medium, big, class), class 2 if a NaN was seen, else 1 if an infinity was, else 0
//    (NaN and infinities are told from their bits, not by comparisons a compiler may fold).
//    A subnormal is scaled through its bits (1.mantissa - 1, times a power of two): a device
//    that flushes subnormals to zero in arithmetic would otherwise lose it.
//  - IAMAX: the first logical index of the largest |x[i]|, compared as the magnitude's bits
//    (which order like the magnitudes, subnormals included, whatever the device flushes): a
//    NaN ranks below 0, so it is never taken, except at logical element 0 when uNanFirst (the
//    run holds element 1 of the call), where it ranks above infinity (the reference loop keeps
//    a NaN first element). Partial: (key low word, key high word, index, 0).
// Thresholds and scales come from dot.rs as defines (biased exponents SMALL_BELOW and BIG_FROM,
// power-of-two exponents SMALL_SCALE, BIG_SCALE and MIN_EXP, the least normal exponent).
// GROUP: invocations per workgroup (Tuning::vector_group), a power of 2.
layout(local_size_x = GROUP) in;

OPERAND(XIn1, uX1, 4)
#ifdef VEC4
OPERAND4(XIn4, uX4, 6)
#endif
uniform int uN;
uniform int uXStart, uXInc;

// MAG: the magnitude's bits (a double's as (low, high) words); EXPONENT: its biased exponent.
#ifdef DOUBLE
#define MAG uvec2
MAG magnitude(double x) {
    uvec2 w = unpackDouble2x32(x);
    return uvec2(w.x, w.y & 0x7fffffffu);
}
uint exponent(MAG m) {
    return m.y >> 20;
}
bool is_nan(MAG m) {
    return m.y > 0x7ff00000u || (m.y == 0x7ff00000u && m.x != 0u);
}
bool below(MAG a, MAG b) {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}
#define EXPONENT_MAX 2047u
#define ZERO_KEY uvec2(0u)
#define TOP_KEY uvec2(1u, 0x7ff00000u)
#define KEY_WORDS(k) (k)
double pow2(int k) {
    return packDouble2x32(uvec2(0u, uint(k + 1023) << 20));
}
// The subnormal m as f * 2^MIN_EXP: f = 1.mantissa - 1, exactly.
double subnormal_fraction(MAG m) {
    return packDouble2x32(uvec2(m.x, m.y | 0x3ff00000u)) - 1.0LF;
}
#else
#define MAG uint
MAG magnitude(float x) {
    return floatBitsToUint(x) & 0x7fffffffu;
}
uint exponent(MAG m) {
    return m >> 23;
}
bool is_nan(MAG m) {
    return m > 0x7f800000u;
}
bool below(MAG a, MAG b) {
    return a < b;
}
#define EXPONENT_MAX 255u
#define ZERO_KEY 0u
#define TOP_KEY 0x7f800001u
#define KEY_WORDS(k) uvec2((k), 0u)
float pow2(int k) {
    return uintBitsToFloat(uint(k + 127) << 23);
}
float subnormal_fraction(MAG m) {
    return uintBitsToFloat(m | 0x3f800000u) - 1.0;
}
#endif

#if defined(NRM2)
layout(std430, binding = 0) writeonly buffer Partials { REAL partials[]; };

#define STATE REAL4
#define START REAL4(0.0)

// Adds x to acc = (small, medium, big, class).
void add_part(inout REAL4 acc, REAL x) {
    MAG m = magnitude(x);
    uint e = exponent(m);
    if (e == EXPONENT_MAX) {
        acc.w = max(acc.w, is_nan(m) ? REAL(2.0) : REAL(1.0));
    } else if (e < uint(SMALL_BELOW)) {
        REAL s = e == 0u ? subnormal_fraction(m) * pow2(MIN_EXP + SMALL_SCALE)
                         : abs(x) * pow2(SMALL_SCALE);
        acc.x += s * s;
    } else if (e >= uint(BIG_FROM)) {
        REAL s = abs(x) * pow2(BIG_SCALE);
        acc.z += s * s;
    } else {
        acc.y += x * x;
    }
}

// Adds x (logical element i, unused): both parts of a complex one.
void add(inout REAL4 acc, ELEM x, int i) {
#ifdef COMPLEX
    add_part(acc, x.x);
    add_part(acc, x.y);
#else
    add_part(acc, x);
#endif
}

// The invocations' states one accumulator at a time: component c of invocation i's state is
// states[GROUP * c + i], so that each shared load and store moves one REAL. Mesa 22.3's
// translation to TGSI (virgl's) moves a shared dvec4 as one TGSI access of two doubles, which
// lost big and class: dnrm2 of a vector holding a NaN was finite.
shared REAL states[4 * GROUP];

void share(int i, REAL4 s) {
    states[i] = s.x;
    states[GROUP + i] = s.y;
    states[2 * GROUP + i] = s.z;
    states[3 * GROUP + i] = s.w;
}

void combine(int a, int b) {
    for (int c = 0; c < 3 * GROUP; c += GROUP) {
        states[c + a] += states[c + b];
    }
    states[3 * GROUP + a] = max(states[3 * GROUP + a], states[3 * GROUP + b]);
}

// Stores invocation 0's state, the workgroup's.
void store() {
    for (int c = 0; c < 4; ++c) {
        partials[4 * int(gl_WorkGroupID.x) + c] = states[GROUP * c];
    }
}
#elif defined(IAMAX)
layout(std430, binding = 0) writeonly buffer Partials { uint partials[]; };
uniform bool uNanFirst;

struct Best {
    MAG key;
    int index;
};
#define STATE Best
#define START Best(ZERO_KEY, 0x7fffffff)

// Whether a beats b: a larger key, or the same key at a lower index.
bool beats(Best a, Best b) {
    return below(b.key, a.key) || (a.key == b.key && a.index < b.index);
}

void add(inout Best best, ELEM x, int i) {
#ifdef COMPLEX
    MAG m = magnitude(abs(x.x) + abs(x.y));
#else
    MAG m = magnitude(x);
#endif
    if (is_nan(m)) {
        m = i == 0 && DYNAMIC_FLAG(uNanFirst) ? TOP_KEY : ZERO_KEY;
    }
    Best b = Best(m, i);
    if (beats(b, best)) {
        best = b;
    }
}

shared Best states[GROUP];

void share(int i, Best s) {
    states[i] = s;
}

void combine(int a, int b) {
    if (beats(states[b], states[a])) {
        states[a] = states[b];
    }
}

void store() {
    Best s = states[0];
    uvec2 k = KEY_WORDS(s.key);
    int g = int(gl_WorkGroupID.x);
    partials[4 * g] = k.x;
    partials[4 * g + 1] = k.y;
    partials[4 * g + 2] = uint(s.index);
    partials[4 * g + 3] = 0u;
}
#endif

#define ELEMENT(i) FETCH(uX1, uXStart + (i) * uXInc)

void main() {
    int lid = int(gl_LocalInvocationID.x);
    int groups = int(gl_NumWorkGroups.x);
    STATE acc = START;
#ifdef VEC4
    // Group t of x holds logical elements 4t - uXStart .. 4t - uXStart + 3 (reduce.comp).
    int first = (uXStart + 3) / 4;
    int last = (uN + uXStart) / 4;
    int run = ((last - first + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = first + int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, last);
    if (gl_WorkGroupID.x == 0u) {
        // The elements before the first whole group come first in index order.
        for (int i = lid; i < 4 * first - uXStart; i += GROUP) {
            add(acc, ELEMENT(i), i);
        }
    }
    for (int t = begin + lid; t < end; t += GROUP) {
        REAL4 v = FETCH4(uX4, t);
        for (int c = 0; c < 4; ++c) {
            add(acc, v[c], 4 * t - uXStart + c);
        }
    }
    if (gl_WorkGroupID.x == 0u) {
        for (int i = 4 * last - uXStart + lid; i < uN; i += GROUP) {
            add(acc, ELEMENT(i), i);
        }
    }
#else
    int run = ((uN + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, uN);
    for (int i = begin + lid; i < end; i += GROUP) {
        add(acc, ELEMENT(i), i);
    }
#endif
    share(lid, acc);
    barrier();
    for (int w = GROUP / 2; w > 0; w >>= 1) {
        if (lid < w) {
            combine(lid, lid + w);
        }
        barrier();
    }
    if (lid == 0) {
        store();
    }
}
