// Element-wise level-1 kernels, one output element per fragment:
// AXPY y := alpha*x + y, SCAL x := alpha*x, COPY y := x.
uniform float uAlpha;

void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
#if defined(AXPY)
    fragOut = y_at(i) + uAlpha * x_at(i);
#elif defined(SCAL)
    fragOut = uAlpha * x_at(i);
#elif defined(COPY)
    fragOut = x_at(i);
#endif
}
