// gemv on the compute pipeline, in ELEM (real.glsl: a real, or with COMPLEX a complex pair):
// y := alpha*op(A)*x + beta*y, column-major A, element (r, c) at uAStart + r + c*uLd of its
// window, conjugated where CONJ_A (op C, or a row-major C as the conjugate of the stored A).
// Without TRANS each invocation computes four consecutive elements of y, walking the columns
// (neighbouring invocations read neighbouring texels); with TRANS each invocation computes one
// element of y as a column's dot product with x. VEC4 (real only): every column starts a group
// of four (uAStart and uLd multiples of 4), so A is read four elements at a time (FETCH4).
// Without A (alpha = 0) the inner range is empty: y := beta*y. One launch takes the part
// uL0..uL1-1 of the inner dimension (llvmpipe gives all loops of an invocation
// MAX_LOOP_ITERATIONS in all); with TRANS, uL0 is a multiple of 4, so groups stay aligned.
// GROUP: invocations per workgroup (Tuning::vector_group).
layout(local_size_x = GROUP) in;

OPERAND(AIn1, uA1, 6)
#ifdef VEC4
OPERAND4(AIn4, uA4, 7)
#endif
OPERAND(XIn1, uX1, 4)
OPERAND(YIn1, uY1, 5)
layout(std430, binding = 0) writeonly buffer Y1 { ELEM y1[]; };

// A is stored uM×uN.
uniform int uM, uN;
uniform int uAStart, uLd;
uniform int uL0, uL1;
uniform int uXStart, uXInc, uYStart, uYInc;
uniform ELEM_UNIFORM uAlpha, uBeta;
uniform int uReadY;

ELEM x_at(int i) {
    return FETCH(uX1, uXStart + i * uXInc);
}

ELEM a_at(int r, int c) {
    ELEM a = FETCH(uA1, uAStart + r + c * uLd);
#ifdef CONJ_A
    a = CONJ(a);
#endif
    return a;
}

void store(int i, ELEM acc) {
    int at = uYStart + i * uYInc;
    ELEM v = mul(EUNIFORM(uAlpha), acc);
    if (DYNAMIC_FLAG(uReadY != 0)) {
        v += mul(EUNIFORM(uBeta), FETCH(uY1, at));
    }
    y1[at] = v;
}

void main() {
    int id = int(gl_GlobalInvocationID.x);
    int l1 = DYNAMIC(uL1);
    int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
#ifdef TRANS
    for (int j = id; j < uN; j += stride) {
        int r = uL0;
#ifdef VEC4
        REAL4 acc = REAL4(0.0);
        int base = (uAStart + j * uLd) / 4;
        for (; r + 4 <= l1; r += 4) {
            acc += FETCH4(uA4, base + r / 4) * REAL4(x_at(r), x_at(r + 1), x_at(r + 2), x_at(r + 3));
        }
        for (; r < l1; ++r) {
            acc.x += a_at(r, j) * x_at(r);
        }
        store(j, (acc.x + acc.y) + (acc.z + acc.w));
#else
        ELEM acc = ELEM(0.0);
        for (; r < l1; ++r) {
            acc += mul(a_at(r, j), x_at(r));
        }
        store(j, acc);
#endif
    }
#else
    for (int r = 4 * id; r < uM; r += 4 * stride) {
        ELEM acc[4];
        for (int k = 0; k < 4; ++k) {
            acc[k] = ELEM(0.0);
        }
#ifdef VEC4
        if (r + 4 <= uM) {
            REAL4 acc4 = REAL4(0.0);
            int base = (uAStart + r) / 4;
            int step = uLd / 4;
            for (int c = uL0; c < l1; ++c) {
                acc4 += FETCH4(uA4, base + c * step) * x_at(c);
            }
            for (int k = 0; k < 4; ++k) {
                acc[k] = acc4[k];
            }
        } else
#endif
        {
            for (int c = uL0; c < l1; ++c) {
                ELEM xc = x_at(c);
                for (int k = 0; k < 4 && r + k < uM; ++k) {
                    acc[k] += mul(a_at(r + k, c), xc);
                }
            }
        }
        for (int k = 0; k < 4 && r + k < uM; ++k) {
            store(r + k, acc[k]);
        }
    }
#endif
}
