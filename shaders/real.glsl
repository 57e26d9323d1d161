// The element type of a compute kernel, float or (with DOUBLE) double, and how one travels:
//  - REAL, REAL4: the scalar and the 4-vector;
//  - REAL_SAMPLER / FETCH(s, i): an operand viewed one element per texel (R32F; a double as the
//    two halves of an RG32UI texel, since no texture format holds one);
//  - FETCH4(s, g): elements 4g..4g+3 of a panel viewed in 16-byte texels (RGBA32F, one texel;
//    RGBA32UI, two doubles per texel);
//  - REAL_IMAGE, REAL_IMAGE_FORMAT / STORE(img, i, v): an image written one element per texel;
//  - REAL4_IMAGE, REAL4_IMAGE_FORMAT / STORE_GROUP(img, g, v): elements 4g..4g+3 written in 16-byte
//    texels (RGBA32F, one texel; RGBA32UI, two doubles per texel), as FETCH4 reads them;
//  - REAL_UNIFORM / UNIFORM(u): a scalar uniform (a double as a uvec2 of its halves, set by
//    element.rs).
#ifdef DOUBLE
#define REAL double
#define REAL4 dvec4
#define REAL_SAMPLER usamplerBuffer
#define FETCH(s, i) packDouble2x32(texelFetch(s, i).xy)
#define HALVES(t) dvec2(packDouble2x32((t).xy), packDouble2x32((t).zw))
#define FETCH4(s, g) REAL4(HALVES(texelFetch(s, 2 * (g))), HALVES(texelFetch(s, 2 * (g) + 1)))
#define REAL_IMAGE uimageBuffer
#define REAL_IMAGE_FORMAT rg32ui
#define STORE(img, i, v) imageStore(img, i, uvec4(unpackDouble2x32(v), 0u, 0u))
#define REAL4_IMAGE uimageBuffer
#define REAL4_IMAGE_FORMAT rgba32ui
#define STORE_GROUP(img, g, v) \
    imageStore(img, 2 * (g), uvec4(unpackDouble2x32((v).x), unpackDouble2x32((v).y))); \
    imageStore(img, 2 * (g) + 1, uvec4(unpackDouble2x32((v).z), unpackDouble2x32((v).w)))
#define REAL_UNIFORM uvec2
#define UNIFORM(u) packDouble2x32(u)
#else
#define REAL float
#define REAL4 vec4
#define REAL_SAMPLER samplerBuffer
#define FETCH(s, i) texelFetch(s, i).r
#define FETCH4(s, g) texelFetch(s, g)
#define REAL_IMAGE imageBuffer
#define REAL_IMAGE_FORMAT r32f
#define STORE(img, i, v) imageStore(img, i, vec4(v))
#define REAL4_IMAGE imageBuffer
#define REAL4_IMAGE_FORMAT rgba32f
#define STORE_GROUP(img, g, v) imageStore(img, g, v)
#define REAL_UNIFORM float
#define UNIFORM(u) (u)
#endif
