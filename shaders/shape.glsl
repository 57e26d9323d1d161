// The Level 3 routines' packing rules (gemm_call::Shape, kernels/level3.rs), shared by both
// pipelines' packing passes (gemm_pack.comp, gemm.frag's PACK): where element `at` (row, column)
// of a stored matrix P read as `shape` (gemm_call::Shape::uniforms) comes from:
//   0 general: from itself;
//   1 (2) symmetric, its lower (upper) triangle stored: an element of the other triangle from
//     its mirror, so that triangle is never read;
//   3 (4) triangular, lower (upper): zeros in the other triangle, which is never read, and with
//     `unit` ones on the diagonal, which is then never read either;
//   5 (6) Hermitian, complex only: read as symmetric, the packing conjugating a mirrored element
//     and taking the diagonal as real (gemm_pack.comp's ONE_M).
// Returns the stored element to read, or (-1, v) for the constant v.
ivec2 shaped(int shape, bool unit, ivec2 at) {
    if (shape == 0) {
        return at;
    }
    bool lower = shape % 2 == 1;
    bool other = lower ? at.x < at.y : at.x > at.y;
    if (shape == 3 || shape == 4) {
        if (other) {
            return ivec2(-1, 0);
        }
        return at.x == at.y && unit ? ivec2(-1, 1) : at;
    }
    return other ? at.yx : at;
}
