/* swap_stop.so: stops a program after a number of frames, whatever the machine's speed
 * (tests that record programs which run until a signal stops them: glxgears, Qt's
 * examples). After the process's $SWAP_STOP_AFTER-th swap (glXSwapBuffers,
 * eglSwapBuffers, eglSwapBuffersWithDamageEXT/KHR) has returned, the process gets
 * $SWAP_STOP_SIGNAL (default SIGTERM), which both recorders flush their traces on.
 *
 * It must come before the recorder's library in LD_PRELOAD, so that the program's swaps
 * reach it first and it passes them on (RTLD_NEXT) to the recorder, which records them;
 * tests/integration/lib.sh's swap_stop runs a program so. Both recorders then see the
 * same frames: no fixed run time to fall short of on a loaded machine. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    int32_t x, y, w, h;
} rect; /* stands for EGLint rects: only passed on */

static atomic_long swaps;

/* Counts a swap that has returned; the last one raises the signal. */
static void swapped(void)
{
    const char *after = getenv("SWAP_STOP_AFTER"), *sig = getenv("SWAP_STOP_SIGNAL");
    long n = after ? atol(after) : 0;
    if (n > 0 && atomic_fetch_add(&swaps, 1) + 1 == n)
        raise(sig && atoi(sig) > 0 ? atoi(sig) : SIGTERM);
}

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f)
        abort(); /* only called from a function the program found: its library is loaded */
    return f;
}

void glXSwapBuffers(void *dpy, unsigned long drawable)
{
    static void (*real)(void *, unsigned long);
    if (!real)
        real = (void (*)(void *, unsigned long))next("glXSwapBuffers");
    real(dpy, drawable);
    swapped();
}

unsigned eglSwapBuffers(void *dpy, void *surface)
{
    static unsigned (*real)(void *, void *);
    if (!real)
        real = (unsigned (*)(void *, void *))next("eglSwapBuffers");
    unsigned ok = real(dpy, surface);
    swapped();
    return ok;
}

typedef unsigned (*damage_swap)(void *, void *, const rect *, int32_t);

/* The two eglSwapBuffersWithDamage entry points: the same call under two names. */
static unsigned swap_with_damage(damage_swap *real, const char *name, void *dpy, void *surface,
                                 const rect *rects, int32_t n)
{
    if (!*real)
        *real = (damage_swap)next(name);
    unsigned ok = (*real)(dpy, surface, rects, n);
    swapped();
    return ok;
}

unsigned eglSwapBuffersWithDamageEXT(void *dpy, void *surface, const rect *rects, int32_t n)
{
    static damage_swap real;
    return swap_with_damage(&real, "eglSwapBuffersWithDamageEXT", dpy, surface, rects, n);
}

unsigned eglSwapBuffersWithDamageKHR(void *dpy, void *surface, const rect *rects, int32_t n)
{
    static damage_swap real;
    return swap_with_damage(&real, "eglSwapBuffersWithDamageKHR", dpy, surface, rects, n);
}
