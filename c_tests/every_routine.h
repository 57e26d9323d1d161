/*
 * every_routine.h - calls of the glblas routines of the routine table (routines.h, every
 * routine in every precision; the caller picks the precisions) on host operands or on device
 * operands, each compared with the same call on the reference BLAS, with a hook run after every glblas call, the malloc / memcpy /
 * free of the device operands included: for tests of what a call leaves behind on the calling
 * thread. Include after check.h. Reentrant: threads may run it at once with their own rng.
 *
 * The arguments are valid: sizes up to 5, leading dimensions of 7, increments 1, 2, -1 or -2,
 * any flags and operations the routine accepts, and small integers for the scalars and the
 * operands (with entries of unit modulus where a triangular matrix could have its diagonal),
 * so that every result is exact in any order of operations: glblas's must equal the
 * reference's, every element of every operand, except nrm2's within its rounding. Where the
 * device does not compute the precision (glblasGetDeviceInfo), the call must answer
 * NOT_SUPPORTED with every operand untouched. The reference is the library
 * GLBLAS_TEST_REFERENCE_BLAS names (tests/c_tests.rs sets it: Debian's netlib BLAS).
 */
#ifndef GLBLAS_C_TESTS_EVERY_ROUTINE_H
#define GLBLAS_C_TESTS_EVERY_ROUTINE_H

#include <dlfcn.h>

#include "routines.h"

/* Called after each glblas call with the call's name; NULL: nothing. */
typedef void (*after_fn)(void *arg, const char *what);

typedef struct {
    after_fn after;
    void *arg;
    int dev;          /* operands (and results) in device memory */
    int supported[4]; /* whether the device computes s, d, c and z */
} sweep_t;

/* Elements of every operand: more than a 7x5 matrix or a vector of 5 at increment 2 spans. */
enum { SWEEP_CAP = 40, SWEEP_LD = 7, SWEEP_ARGS = 16 };

static void sweep_after(const sweep_t *s, const char *call)
{
    char what[160];
    if (!s->after)
        return;
    snprintf(what, sizeof what, "%s (%s operands)", call, s->dev ? "device" : "host");
    s->after(s->arg, what);
}

static size_t sweep_elem_size(char letter)
{
    return letter == 's' ? 4 : letter == 'z' ? 16 : 8;
}

static int sweep_complex(char letter)
{
    return letter == 'c' || letter == 'z';
}

/* Part `part` (0: real, 1: imaginary) of element i of an operand of precision `letter`. */
static double sweep_get(char letter, const void *p, size_t i, int part)
{
    size_t parts = sweep_complex(letter) ? 2 : 1;
    if (letter == 's' || letter == 'c')
        return ((const float *)p)[i * parts + (size_t)part];
    return ((const double *)p)[i * parts + (size_t)part];
}

static void sweep_set(char letter, void *p, size_t i, double re, double im)
{
    size_t parts = sweep_complex(letter) ? 2 : 1;
    if (letter == 's' || letter == 'c') {
        ((float *)p)[i * parts] = (float)re;
        if (parts == 2)
            ((float *)p)[i * parts + 1] = (float)im;
    } else {
        ((double *)p)[i * parts] = re;
        if (parts == 2)
            ((double *)p)[i * parts + 1] = im;
    }
}

/* Whether the device computes each precision (s, d, c, z): single always, double with fp64
 * shaders on the compute pipeline, complex on the compute pipeline (its double with fp64 too). */
static void sweep_precisions(sweep_t *s)
{
    glblasDeviceInfo_t info;
    int compute;
    CHECK_OK(glblasGetDeviceInfo(&info));
    sweep_after(s, "glblasGetDeviceInfo");
    compute = strcmp(info.pipeline, "compute") == 0;
    s->supported[0] = 1;
    s->supported[1] = compute && info.fp64;
    s->supported[2] = compute;
    s->supported[3] = compute && info.fp64;
}

/* The reference BLAS, opened once (threads that race open it twice, which dlopen counts). */
static void *sweep_reference(void)
{
    static void *lib;
    void *h = __atomic_load_n(&lib, __ATOMIC_ACQUIRE);
    const char *path = getenv("GLBLAS_TEST_REFERENCE_BLAS");
    if (h)
        return h;
    if (!path)
        FATAL("GLBLAS_TEST_REFERENCE_BLAS is not set (tests/c_tests.rs sets it)");
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        FATAL("dlopen %s: %s", path, dlerror());
    __atomic_store_n(&lib, h, __ATOMIC_RELEASE);
    return h;
}

static blas_fn_t sweep_fortran(const char *name)
{
    char symbol[32];
    blas_fn_t f;
    snprintf(symbol, sizeof symbol, "%s_", name);
    /* POSIX's way to take a function from dlsym's object pointer. */
    *(void **)&f = dlsym(sweep_reference(), symbol);
    if (!f)
        FATAL("the reference BLAS has no %s", symbol);
    return f;
}

/* A device copy of the `bytes` at `h`, or `h` itself on host operands. */
static void *sweep_in(const sweep_t *s, void *h, size_t bytes)
{
    void *d = NULL;
    if (!s->dev)
        return h;
    CHECK_OK(glblasMalloc(&d, bytes));
    sweep_after(s, "glblasMalloc");
    if (!d)
        FATAL("glblasMalloc(%lu bytes) gave NULL", (unsigned long)bytes);
    CHECK_OK(glblasMemcpy(d, h, bytes, glblasMemcpyHostToDevice));
    sweep_after(s, "glblasMemcpy HostToDevice");
    return d;
}

/* Done with `d` (from sweep_in(h)): copied back into `h`, then freed. */
static void sweep_out(const sweep_t *s, void *h, void *d, size_t bytes)
{
    if (!s->dev)
        return;
    CHECK_OK(glblasMemcpy(h, d, bytes, glblasMemcpyDeviceToHost));
    sweep_after(s, "glblasMemcpy DeviceToHost");
    CHECK_OK(glblasFree(d));
    sweep_after(s, "glblasFree");
}

/* An operand's storage: SWEEP_CAP elements of the widest precision. */
typedef unsigned char sweep_buf_t[16 * SWEEP_CAP];

/* The argument values of one call of `r` (see the file's comment), its operands in `bufs`. */
static void sweep_draw(rng_t *rng, const routine_t *r, arg_t *v, sweep_buf_t *bufs)
{
    int i, j, cx = sweep_complex(r->letter), nops = (int)strlen(r->ops);
    for (i = 0; i < r->nargs; ++i) {
        const char *name = r->names[i];
        switch (r->kinds[i]) {
        case K_INT:
            if (strncmp(name, "ld", 2) == 0)
                v[i].i = SWEEP_LD;
            else if (strncmp(name, "inc", 3) == 0)
                v[i].i = rng_int(rng, 1, 2) * (rng_int(rng, 0, 2) == 0 ? -1 : 1);
            else
                v[i].i = rng_int(rng, 1, 5);
            break;
        case K_OP:
            switch (r->ops[rng_int(rng, 0, nops - 1)]) {
            case 'N': v[i].i = GLBLAS_OP_N; break;
            case 'T': v[i].i = GLBLAS_OP_T; break;
            default: v[i].i = GLBLAS_OP_C;
            }
            break;
        case K_SIDE:
        case K_UPLO:
        case K_DIAG:
            v[i].i = rng_int(rng, 0, 1);
            break;
        case K_SCALAR:
        case K_REAL_SCALAR:
            v[i].s[0] = rng_int(rng, -2, 2);
            v[i].s[1] = cx && r->kinds[i] == K_SCALAR ? rng_int(rng, -2, 2) : 0.0;
            break;
        default:
            v[i].p = bufs[i];
            for (j = 0; j < SWEEP_CAP; ++j) {
                double re = rng_int(rng, -2, 2), im = cx ? rng_int(rng, -2, 2) : 0.0;
                if (j % (SWEEP_LD + 1) == 0) {
                    /* Where a diagonal can be: 1, -1, i or -i, so that solves divide exactly. */
                    int unit = rng_int(rng, 0, cx ? 3 : 1);
                    re = unit < 2 ? 1.0 - 2.0 * unit : 0.0;
                    im = unit < 2 ? 0.0 : 5.0 - 2.0 * unit;
                }
                sweep_set(r->letter, bufs[i], (size_t)j, re, im);
            }
        }
    }
}

static int sweep_operand(kind_t k)
{
    return k == K_IN || k == K_OUT || k == K_OUT_READ;
}

/* Checks what `r` returned (`got`, in host memory) against the reference's `want`. */
static void sweep_check_result(const char *label, const routine_t *r, const arg_t *v,
                               const unsigned char *got, const unsigned char *want)
{
    char letter = r->returns == R_REAL ? (r->letter == 'c' ? 's' : 'd') : r->letter;
    double u = letter == 's' || letter == 'c' ? FP32_U : FP32_U / 536870912.0;
    int part;
    if (r->returns == R_INDEX) {
        int a, b;
        memcpy(&a, got, sizeof a);
        memcpy(&b, want, sizeof b);
        CHECK(a == b, "%s: returned %d, the reference %d", label, a, b);
        return;
    }
    for (part = 0; part < (sweep_complex(letter) ? 2 : 1); ++part) {
        double a = sweep_get(letter, got, 0, part), b = sweep_get(letter, want, 0, part);
        /* nrm2's square root rounds: both results within (n + 2) roundings of the norm. */
        double tol = strstr(r->name, "nrm2") ? 2.0 * (v[0].i + 2) * u * fabs(b) : 0.0;
        CHECK(fabs(a - b) <= tol, "%s: returned part %d %.17g, the reference %.17g", label,
              part, a, b);
    }
}

/* One call of `r` with random valid arguments, on glblas and on the reference. */
static void sweep_routine(const sweep_t *s, rng_t *rng, const routine_t *r)
{
    sweep_buf_t got[SWEEP_ARGS], ref[SWEEP_ARGS];
    arg_t v[SWEEP_ARGS], w[SWEEP_ARGS];
    unsigned char result[16] = { 0 }, want[16] = { 0 };
    void *dev[SWEEP_ARGS], *dres = result;
    size_t size = sweep_elem_size(r->letter), bytes = size * SWEEP_CAP;
    char label[160];
    glblasStatus_t st;
    int i, j, part, bad = 0;
    int supported = s->supported[r->letter == 's' ? 0 : r->letter == 'd' ? 1 : r->letter == 'c' ? 2 : 3];
    snprintf(label, sizeof label, "%s on %s operands", r->api, s->dev ? "device" : "host");
    sweep_draw(rng, r, v, got);
    memcpy(ref, got, sizeof ref);
    memcpy(w, v, sizeof w);
    for (i = 0; i < r->nargs; ++i) {
        if (!sweep_operand(r->kinds[i]))
            continue;
        w[i].p = ref[i];
        v[i].p = dev[i] = sweep_in(s, got[i], bytes);
    }
    if (r->returns != R_NONE)
        dres = sweep_in(s, result, sizeof result);
    st = r->call_api(v, dres);
    sweep_after(s, r->api);
    for (i = 0; i < r->nargs; ++i)
        if (sweep_operand(r->kinds[i]))
            sweep_out(s, got[i], dev[i], bytes);
    if (r->returns != R_NONE)
        sweep_out(s, result, dres, sizeof result);
    if (!supported) {
        CHECK_STATUS(st, GLBLAS_STATUS_NOT_SUPPORTED);
        for (i = 0; i < r->nargs; ++i)
            CHECK(!sweep_operand(r->kinds[i]) || memcmp(got[i], ref[i], bytes) == 0,
                  "%s: NOT_SUPPORTED, and operand %s changed", label, r->names[i]);
        return;
    }
    if (!succeeded(label, st))
        return;
    r->call_fortran(sweep_fortran(r->name), w, want);
    if (r->returns != R_NONE)
        sweep_check_result(label, r, v, result, want);
    for (i = 0; i < r->nargs; ++i) {
        if (!sweep_operand(r->kinds[i]))
            continue;
        for (j = 0; j < SWEEP_CAP; ++j) {
            for (part = 0; part < (sweep_complex(r->letter) ? 2 : 1); ++part) {
                double a = sweep_get(r->letter, got[i], (size_t)j, part);
                double b = sweep_get(r->letter, ref[i], (size_t)j, part);
                if (a != b && bad++ < 5)
                    FAIL("%s: %s[%d] part %d is %.17g, the reference's %.17g", label, r->names[i],
                         j, part, a, b);
            }
        }
    }
}

/* `count` routines of the table in the precisions `letters`, the next ones from one drawn by
 * `rng` (every one when `count` is ROUTINE_COUNT), on device operands when `dev`, `after` run
 * after every glblas call. */
static void some_routines(rng_t *rng, int dev, after_fn after, void *arg, int count,
                          const char *letters)
{
    sweep_t s;
    int i = rng_int(rng, 0, ROUTINE_COUNT - 1), done = 0, seen = 0;
    s.after = after;
    s.arg = arg;
    s.dev = dev;
    sweep_precisions(&s);
    for (; done < count && seen < ROUTINE_COUNT; ++seen, i = (i + 1) % ROUTINE_COUNT) {
        if (!strchr(letters, ROUTINES[i].letter))
            continue;
        sweep_routine(&s, rng, &ROUTINES[i]);
        ++done;
    }
}

#endif /* GLBLAS_C_TESTS_EVERY_ROUTINE_H */
