// saxpy: y := alpha*x + y, one element per fragment.
OPERAND(X)
OPERAND(Y)
uniform float uAlpha;

void main() {
    int i = out_index();
    if (i < 0) {
        fragOut = 0.0;
        return;
    }
    fragOut = AT(Y, i) + uAlpha * AT(X, i);
}
