// saxpy: y := alpha*x + y, one element per fragment.
uniform float uAlpha;

void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
    fragOut = y_at(i) + uAlpha * x_at(i);
}
