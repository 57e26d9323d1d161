/*
 * slow_broadcast.c - preloaded (LD_PRELOAD) into a test program to widen a race in llvmpipe:
 * its rasterizer threads (named "llvmpipe-N") sleep 1 ms inside about one
 * pthread_cond_broadcast in 16, which is where they signal a scene's fence (see
 * src/engine/scene_fences.rs). Other threads are not affected. At exit it prints how many
 * broadcasts it slowed, so that a test can tell it took effect.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long slowed;

int pthread_cond_broadcast(pthread_cond_t *cond)
{
    static int (*real)(pthread_cond_t *);
    /* Each thread draws its own sleeps: threads drawing alike would both sleep while the
     * first to signal holds the fence's lock, which keeps the others out of the window. */
    static __thread unsigned state;
    char name[16] = {0};
    if (!real)
        real = (int (*)(pthread_cond_t *))dlvsym(RTLD_NEXT, "pthread_cond_broadcast", "GLIBC_2.3.2");
    pthread_getname_np(pthread_self(), name, sizeof name);
    if (strncmp(name, "llvmpipe-", 9) == 0) {
        if (state == 0)
            state = (unsigned)name[9] * 2654435761u;
        state = state * 1103515245u + 12345u;
        if ((state >> 16) % 16 == 0) {
            __atomic_add_fetch(&slowed, 1, __ATOMIC_RELAXED);
            usleep(1000);
        }
    }
    return real(cond);
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "slow_broadcast: %lu broadcasts slowed\n",
            __atomic_load_n(&slowed, __ATOMIC_RELAXED));
}
