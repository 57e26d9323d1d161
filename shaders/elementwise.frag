// Element-wise level-1 kernels: AXPY y := alpha*x + y, SCAL x := alpha*x, COPY y := x, and
// (TEXELS only) SWAP x <-> y. With TEXELS the output is unit-stride and each fragment computes
// one texel of its grid (four elements; SWAP writes y's new texel and x's, through two
// attachments), whole texels, or with EDGE the partial ones; otherwise (strided outputs) one
// element per fragment.
uniform float uAlpha;

#if defined(AXPY)
#define NEW(x, y) ((y) + uAlpha * (x))
#elif defined(SCAL)
#define NEW(x, y) (uAlpha * (x))
#else
#define NEW(x, y) (x)
#endif

#ifdef TEXELS
layout(location = 0) out vec4 fragOut;
#ifdef SWAP
layout(location = 1) out vec4 fragOut1;
#endif

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int t = p.y * uOutWidth + p.x;
    // The draw of the whole texels covers the partial ones too (what it reads there is never
    // stored): a draw (EDGE) of each partial texel replaces them. Deciding per fragment would
    // cost every fragment both paths on a SIMD device.
#ifdef EDGE
    vec4 x = x_edge(t);
#if defined(AXPY) || defined(SWAP)
    vec4 y = y_edge(t);
#endif
#else
    vec4 x = x_whole(t);
#if defined(AXPY) || defined(SWAP)
    vec4 y = y_whole(t);
#endif
#endif
#if !defined(AXPY) && !defined(SWAP)
    vec4 y = vec4(0.0);
#endif
    fragOut = NEW(x, y);
#ifdef SWAP
    fragOut1 = y;
#endif
}
#else
void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
#if defined(AXPY)
    fragOut = NEW(x_at(i), y_at(i));
#else
    fragOut = NEW(x_at(i), 0.0);
#endif
}
#endif
