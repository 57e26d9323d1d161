// The element type of a compute kernel, float or (with DOUBLE) double, and how one travels:
//  - REAL, REAL4: the scalar and the 4-vector;
//  - REAL_UNIFORM / UNIFORM(u): a scalar uniform (a double as a uvec2 of its halves, set by
//    element.rs);
//  - OPERAND(block, name, b) / FETCH(name, i): an operand read one element at a time;
//  - OPERAND4(block, name, b) / FETCH4(name, g): elements 4g..4g+3 of an operand read at once;
//  - RESULT(block, name, b) / STORE(name, i, v): an output written one element at a time;
//  - RESULT4(block, name, b) / STORE_GROUP(name, g, v): elements 4g..4g+3 written at once.
// Operands and results are windows of buffers (engine/operand.rs). With STORAGE_OPERANDS
// (engine/device.rs: devices with no buffer-texture windows, such as GLES 3.1 boards and virgl)
// they are storage blocks of REAL or REAL4 at binding b, which the host binds at
// `device::STORAGE_READS` + the operand's texture unit for operands, and at the image unit
// for results. Otherwise an operand is a buffer texture sampled on a texture unit (R32F, or
// RGBA32F for groups; a double as the two halves of an RG32UI texel, since no texture format
// holds one, and two doubles per RGBA32UI texel), and a result an image of the same formats on
// image unit b (GLES sets an image's unit only in the shader). b is a literal: GLSL ES takes no
// expression there.
#ifdef DOUBLE
#define REAL double
#define REAL4 dvec4
#define REAL_UNIFORM uvec2
#define UNIFORM(u) packDouble2x32(u)
#else
#define REAL float
#define REAL4 vec4
#define REAL_UNIFORM float
#define UNIFORM(u) (u)
#endif
#ifdef STORAGE_OPERANDS
#define OPERAND(block, name, b) layout(std430, binding = b) readonly buffer block { REAL name[]; };
#define OPERAND4(block, name, b) \
    layout(std430, binding = b) readonly buffer block { REAL4 name[]; };
#define FETCH(s, i) s[i]
#define FETCH4(s, g) s[g]
#define RESULT(block, name, b) \
    layout(std430, binding = b) writeonly buffer block { REAL name[]; };
#define RESULT4(block, name, b) \
    layout(std430, binding = b) writeonly buffer block { REAL4 name[]; };
#define STORE(img, i, v) img[i] = (v)
#define STORE_GROUP(img, g, v) img[g] = (v)
#elif defined(DOUBLE)
#define OPERAND(block, name, b) uniform highp usamplerBuffer name;
#define OPERAND4(block, name, b) uniform highp usamplerBuffer name;
#define FETCH(s, i) packDouble2x32(texelFetch(s, i).xy)
#define HALVES(t) dvec2(packDouble2x32((t).xy), packDouble2x32((t).zw))
#define FETCH4(s, g) REAL4(HALVES(texelFetch(s, 2 * (g))), HALVES(texelFetch(s, 2 * (g) + 1)))
#define RESULT(block, name, b) \
    layout(rg32ui, binding = b) writeonly uniform highp uimageBuffer name;
#define RESULT4(block, name, b) \
    layout(rgba32ui, binding = b) writeonly uniform highp uimageBuffer name;
#define STORE(img, i, v) imageStore(img, i, uvec4(unpackDouble2x32(v), 0u, 0u))
#define STORE_GROUP(img, g, v) \
    imageStore(img, 2 * (g), uvec4(unpackDouble2x32((v).x), unpackDouble2x32((v).y))); \
    imageStore(img, 2 * (g) + 1, uvec4(unpackDouble2x32((v).z), unpackDouble2x32((v).w)))
#else
#define OPERAND(block, name, b) uniform highp samplerBuffer name;
#define OPERAND4(block, name, b) uniform highp samplerBuffer name;
#define FETCH(s, i) texelFetch(s, i).r
#define FETCH4(s, g) texelFetch(s, g)
#define RESULT(block, name, b) \
    layout(r32f, binding = b) writeonly uniform highp imageBuffer name;
#define RESULT4(block, name, b) \
    layout(rgba32f, binding = b) writeonly uniform highp imageBuffer name;
#define STORE(img, i, v) imageStore(img, i, vec4(v))
#define STORE_GROUP(img, g, v) imageStore(img, g, v)
#endif
// ELEM: an operand's element: REAL, or with COMPLEX the pair (re, im) of a complex one, which
// OPERAND and FETCH then read one per texel (RG32F, or both doubles' halves in an RGBA32UI
// texel; storage blocks of pairs). ELEM_UNIFORM / EUNIFORM(u) carry one (a double pair as a
// uvec4 of halves, set by element.rs). `mul` is Fortran's complex product (a real one without
// COMPLEX), CONJ the conjugate. Kernels given COMPLEX take no OPERAND4.
#ifdef COMPLEX
#ifdef DOUBLE
#define ELEM dvec2
#define ELEM_UNIFORM uvec4
#define EUNIFORM(u) dvec2(packDouble2x32((u).xy), packDouble2x32((u).zw))
#else
#define ELEM vec2
#define ELEM_UNIFORM vec2
#define EUNIFORM(u) (u)
#endif
#undef OPERAND
#undef FETCH
#ifdef STORAGE_OPERANDS
#define OPERAND(block, name, b) layout(std430, binding = b) readonly buffer block { ELEM name[]; };
#define FETCH(s, i) s[i]
#elif defined(DOUBLE)
#define OPERAND(block, name, b) uniform highp usamplerBuffer name;
#define FETCH(s, i) HALVES(texelFetch(s, i))
#else
#define OPERAND(block, name, b) uniform highp samplerBuffer name;
#define FETCH(s, i) texelFetch(s, i).xy
#endif
ELEM mul(ELEM a, ELEM b) {
    return ELEM(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
#define CONJ(z) ELEM((z).x, -(z).y)
#else
#define ELEM REAL
#define ELEM_UNIFORM REAL_UNIFORM
#define EUNIFORM(u) UNIFORM(u)
#define mul(a, b) ((a) * (b))
#define CONJ(z) (z)
#endif
