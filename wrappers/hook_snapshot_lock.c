/* The program's MakeCurrent calls wait while a frame range's snapshot borrows contexts
 * (hook_snapshot_lock.h). The snapshot makes the contexts no thread has current
 * current on its own thread for a moment to read them (snapshot_contexts.c); a program
 * thread that made one of them current meanwhile would fail (GLX: BadAccess, which
 * ends most programs). So, while frame ranges are asked for, each MakeCurrent takes a
 * read lock around its real call, and the snapshot the write lock. A shared read lock
 * costs a few tens of nanoseconds, on calls that are rare next to the rest (Qt makes
 * one per frame). */
#include "hook_snapshot_lock.h"

#include <pthread.h>

#include "gltrace_runtime.h"

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;

static void take(void)
{
    if (gltrace_tracking)
        pthread_rwlock_rdlock(&g_lock);
}

static void give(void)
{
    if (gltrace_tracking)
        pthread_rwlock_unlock(&g_lock);
}

int gth_invoke_glx_make_current(gth_proc real, void *dpy, unsigned long drawable, void *ctx)
{
    take();
    int ok = ((int (*)(void *, unsigned long, void *))real)(dpy, drawable, ctx);
    give();
    return ok;
}

int gth_invoke_glx_make_context_current(gth_proc real, void *dpy, unsigned long draw,
                                        unsigned long read, void *ctx)
{
    take();
    int ok = ((int (*)(void *, unsigned long, unsigned long, void *))real)(dpy, draw, read, ctx);
    give();
    return ok;
}

unsigned gth_invoke_egl_make_current(gth_proc real, void *dpy, void *draw, void *read, void *ctx)
{
    take();
    unsigned ok = ((unsigned (*)(void *, void *, void *, void *))real)(dpy, draw, read, ctx);
    give();
    return ok;
}

void gltrace_contexts_hold(void) { pthread_rwlock_wrlock(&g_lock); }

void gltrace_contexts_let_go(void) { pthread_rwlock_unlock(&g_lock); }
