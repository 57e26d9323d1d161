// Element-wise level-1 kernels on the compute pipeline, in place on the operands' buffers:
// AXPY y := y + alpha*x, SCAL y := alpha*y, COPY y := x, SWAP x <-> y, in ELEM (real.glsl: a
// real, or with COMPLEX a complex pair, whose products are Fortran's).
// Logical element i of an operand is element uStart + i*uInc of its window. Operands are read
// as OPERANDs (buffer textures, or storage blocks: real.glsl) and written through storage blocks
// (on llvmpipe buffer textures and storage blocks were the fastest load and
// store paths). With VEC4 both operands are unit-stride and their windows share alignment, so
// whole groups of four elements (a texel of floats, two of doubles) are loaded and stored at a
// time and only the partial groups at the ends go element by element. GROUP: invocations per
// workgroup (Tuning::vector_group).
layout(local_size_x = GROUP) in;

// SWAP reads y through its storage block: a texture fetch of y could legally be moved after
// the store to y, since texture reads are not ordered with storage writes.
#ifdef SWAP
#define Y_ACCESS
#else
#define Y_ACCESS writeonly
#endif

OPERAND(XIn1, uX1, 4)
OPERAND(YIn1, uY1, 5)
layout(std430, binding = 0) Y_ACCESS buffer Y1 { ELEM y1[]; };
#ifdef SWAP
layout(std430, binding = 1) writeonly buffer X1 { ELEM x1[]; };
#endif
#ifdef VEC4
OPERAND4(XIn4, uX4, 6)
OPERAND4(YIn4, uY4, 7)
layout(std430, binding = 2) Y_ACCESS buffer Y4 { REAL4 y4[]; };
#ifdef SWAP
layout(std430, binding = 3) writeonly buffer X4 { REAL4 x4[]; };
#endif
// x's group holding the elements of y's group t is t + uXShift.
uniform int uXShift;
#endif

uniform int uN;
uniform ELEM_UNIFORM uAlpha;
uniform int uXStart, uXInc, uYStart, uYInc;

#if defined(AXPY)
#define NEW_Y(x, y) ((y) + mul(EUNIFORM(uAlpha), (x)))
#elif defined(SCAL)
#define NEW_Y(x, y) mul(EUNIFORM(uAlpha), (y))
#else
#define NEW_Y(x, y) (x)
#endif
#if defined(SCAL)
#define READS_X 0
#else
#define READS_X 1
#endif
#if defined(COPY)
#define READS_Y 0
#else
#define READS_Y 1
#endif

void element(int i) {
    int xi = uXStart + i * uXInc;
    int yi = uYStart + i * uYInc;
    ELEM x = ELEM(0.0), y = ELEM(0.0);
#if READS_X
    x = FETCH(uX1, xi);
#endif
#if defined(SWAP)
    y = y1[yi];
#elif READS_Y
    y = FETCH(uY1, yi);
#endif
    y1[yi] = NEW_Y(x, y);
#ifdef SWAP
    x1[xi] = y;
#endif
}

#ifdef VEC4
void texel(int t) {
    REAL4 x = REAL4(0.0), y = REAL4(0.0);
#if READS_X
    x = FETCH4(uX4, t + uXShift);
#endif
#if defined(SWAP)
    y = y4[t];
#elif READS_Y
    y = FETCH4(uY4, t);
#endif
    y4[t] = NEW_Y(x, y);
#ifdef SWAP
    x4[t + uXShift] = y;
#endif
}
#endif

void main() {
    // Each workgroup takes one contiguous run of the work, its invocations interleaved in it:
    // neighbouring invocations touch neighbouring memory, and workgroups (on a CPU device, on
    // different cores) share at most the cache lines where their runs meet.
    int lid = int(gl_LocalInvocationID.x);
    int groups = int(gl_NumWorkGroups.x);
#ifdef VEC4
    // Group t of y holds logical elements 4t - uYStart .. 4t - uYStart + 3; groups
    // first..last-1 are whole, and the elements outside them go one by one.
    int first = (uYStart + 3) / 4;
    int last = (uN + uYStart) / 4;
    int run = ((last - first + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = first + int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, last);
    int t = begin + lid;
    for (; t + 3 * GROUP < end; t += 4 * GROUP) {
        texel(t);
        texel(t + GROUP);
        texel(t + 2 * GROUP);
        texel(t + 3 * GROUP);
    }
    for (; t < end; t += GROUP) {
        texel(t);
    }
    if (gl_WorkGroupID.x == 0u) {
        for (int i = lid; i < 4 * first - uYStart; i += GROUP) {
            element(i);
        }
        for (int i = 4 * last - uYStart + lid; i < uN; i += GROUP) {
            element(i);
        }
    }
#else
    int run = ((uN + groups - 1) / groups + GROUP - 1) / GROUP * GROUP;
    int begin = int(gl_WorkGroupID.x) * run;
    int end = min(begin + run, uN);
    for (int i = begin + lid; i < end; i += GROUP) {
        element(i);
    }
#endif
}
