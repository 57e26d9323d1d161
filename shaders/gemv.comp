// sgemv on the compute pipeline: y := alpha*op(A)*x + beta*y, column-major A, element (r, c)
// at uAStart + r + c*uLd of its window. Without TRANS each invocation computes four consecutive
// elements of y, walking the columns (neighbouring invocations read neighbouring texels);
// with TRANS each invocation computes one element of y as a column's dot product with x. VEC4:
// every column starts a texel (uAStart and uLd multiples of 4), so A is read as RGBA texels.
// One launch takes the part uL0..uL1-1 of the inner dimension (llvmpipe gives all loops of an
// invocation MAX_LOOP_ITERATIONS in all); with TRANS, uL0 is a multiple of 4, so texels stay
// aligned.
layout(local_size_x = 64) in;

uniform highp samplerBuffer uA1;
#ifdef VEC4
uniform highp samplerBuffer uA4;
#endif
uniform highp samplerBuffer uX1;
uniform highp samplerBuffer uY1;
layout(std430, binding = 0) writeonly buffer Y1 { float y1[]; };

// A is stored uM×uN.
uniform int uM, uN;
uniform int uAStart, uLd;
uniform int uL0, uL1;
uniform int uXStart, uXInc, uYStart, uYInc;
uniform float uAlpha, uBeta;
uniform int uReadY;

float x_at(int i) {
    return texelFetch(uX1, uXStart + i * uXInc).r;
}

float a_at(int r, int c) {
    return texelFetch(uA1, uAStart + r + c * uLd).r;
}

void store(int i, float acc) {
    int at = uYStart + i * uYInc;
    float v = uAlpha * acc;
    if (DYNAMIC_FLAG(uReadY != 0)) {
        v += uBeta * texelFetch(uY1, at).r;
    }
    y1[at] = v;
}

void main() {
    int id = int(gl_GlobalInvocationID.x);
    int l1 = DYNAMIC(uL1);
    int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
#ifdef TRANS
    for (int j = id; j < uN; j += stride) {
        vec4 acc = vec4(0.0);
        int r = uL0;
#ifdef VEC4
        int base = (uAStart + j * uLd) / 4;
        for (; r + 4 <= l1; r += 4) {
            acc += texelFetch(uA4, base + r / 4) * vec4(x_at(r), x_at(r + 1), x_at(r + 2), x_at(r + 3));
        }
#endif
        for (; r < l1; ++r) {
            acc.x += a_at(r, j) * x_at(r);
        }
        store(j, (acc.x + acc.y) + (acc.z + acc.w));
    }
#else
    for (int r = 4 * id; r < uM; r += 4 * stride) {
        vec4 acc = vec4(0.0);
#ifdef VEC4
        if (r + 4 <= uM) {
            int base = (uAStart + r) / 4;
            int step = uLd / 4;
            for (int c = uL0; c < l1; ++c) {
                acc += texelFetch(uA4, base + c * step) * x_at(c);
            }
        } else
#endif
        {
            for (int c = uL0; c < l1; ++c) {
                float xc = x_at(c);
                for (int k = 0; k < 4 && r + k < uM; ++k) {
                    acc[k] += a_at(r + k, c) * xc;
                }
            }
        }
        for (int k = 0; k < 4 && r + k < uM; ++k) {
            store(r + k, acc[k]);
        }
    }
#endif
}
