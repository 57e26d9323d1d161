// link: -pthread -lEGL -lGL
/*
 * test_egl_threads.c - one thread renders with its own EGL context while
 * another calls glblas.
 *
 * Thread R makes its own context current (own_context.h) and renders frame
 * after frame into its own framebuffer, reading every frame back and checking
 * every pixel and its GL state, until thread B is done. Thread B, once R
 * renders, runs SWEEP_ROUTINES routines a round (every_routine.h: the next
 * single-precision ones of the routine table, from one drawn each round, each
 * of them run a few times before the phases, so that no round waits seconds
 * for a shader compile) on host or on device operands, each result checked
 * against the reference BLAS, round after round until it has done B_SWEEPS
 * rounds and R has rendered R_MIN_FRAMES frames meanwhile. In the second phase R also calls
 * glblas between its draws (a round each, host and device by turns, its
 * context, state and frame checked after each call) while B goes on.
 * Both threads must finish within a deadline (a deadlock fails the test
 * instead of hanging it) with every check passed.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "every_routine.h"
#include "own_context.h"

enum { B_SWEEPS = 60, R_MIN_FRAMES = 40, DEADLINE_S = 60, SWEEP_ROUTINES = 4 };

typedef struct {
    int r_calls_glblas;
    int r_ready, b_done, r_done; /* flags */
    unsigned frames;             /* frames R has rendered and checked */
    unsigned overlapped;         /* of which while B was calling glblas */
    int sweeps;                  /* by B */
} phase_t;

static unsigned frames_of(phase_t *ph)
{
    return __atomic_load_n(&ph->frames, __ATOMIC_ACQUIRE);
}

static void *renderer(void *arg)
{
    phase_t *ph = (phase_t *)arg;
    own_context_t own;
    rng_t rng = rng_seed(21);
    unsigned sweeps = 0;
    own_context_create(&own);
    __atomic_store_n(&ph->r_ready, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&ph->b_done, __ATOMIC_ACQUIRE)) {
        own_render(&own, "a frame of the renderer thread");
        own_check(&own, "a frame of the renderer thread");
        __atomic_add_fetch(&ph->frames, 1, __ATOMIC_RELEASE);
        if (ph->r_calls_glblas)
            some_routines(&rng, (int)(sweeps++ & 1), own_after, &own, SWEEP_ROUTINES, "s");
    }
    own_context_destroy(&own, 0);
    __atomic_store_n(&ph->r_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Calls glblas from once R renders until it has done B_SWEEPS sweeps and R has rendered R_MIN_FRAMES
 * frames meanwhile, so that the two really overlap however the threads are scheduled. */
static void *blas_caller(void *arg)
{
    phase_t *ph = (phase_t *)arg;
    rng_t rng = rng_seed(22);
    unsigned first;
    while (!__atomic_load_n(&ph->r_ready, __ATOMIC_ACQUIRE))
        usleep(1000);
    first = frames_of(ph);
    for (ph->sweeps = 0; ph->sweeps < B_SWEEPS || frames_of(ph) - first < R_MIN_FRAMES; ++ph->sweeps)
        some_routines(&rng, ph->sweeps & 1, NULL, NULL, SWEEP_ROUTINES, "s");
    ph->overlapped = frames_of(ph) - first;
    __atomic_store_n(&ph->b_done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void run_phase(int r_calls_glblas)
{
    phase_t ph;
    pthread_t r, b;
    double start = now_s();
    memset(&ph, 0, sizeof ph);
    ph.r_calls_glblas = r_calls_glblas;
    if (pthread_create(&r, NULL, renderer, &ph) != 0 || pthread_create(&b, NULL, blas_caller, &ph) != 0)
        FATAL("pthread_create failed");
    while (!__atomic_load_n(&ph.b_done, __ATOMIC_ACQUIRE) || !__atomic_load_n(&ph.r_done, __ATOMIC_ACQUIRE)) {
        if (now_s() - start > DEADLINE_S) {
            FAIL("phase %d: not done after %d s (renderer %s, glblas thread %s): a deadlock", r_calls_glblas,
                 DEADLINE_S, ph.r_done ? "done" : "not done", ph.b_done ? "done" : "not done");
            _exit(1); /* the stuck threads cannot be joined */
        }
        usleep(10000);
    }
    pthread_join(r, NULL);
    pthread_join(b, NULL);
    printf("  %s: %u frames rendered and checked while %d x %d routines ran on another thread, %.2f s\n",
           r_calls_glblas ? "renderer calling glblas between its draws" : "renderer only", ph.overlapped, ph.sweeps,
           SWEEP_ROUTINES, now_s() - start);
}

int main(void)
{
    rng_t rng = rng_seed(23);
    int i;
    /* Every single-precision routine a few times first, on host and on device operands, so that
     * the phases' deadline is not spent waiting for the driver to compile their shaders. */
    for (i = 0; i < 6; ++i)
        some_routines(&rng, i & 1, NULL, NULL, ROUTINE_COUNT, "s");
    run_phase(0);
    run_phase(1);
    return check_finish("test_egl_threads");
}
