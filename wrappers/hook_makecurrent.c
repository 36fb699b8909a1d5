/* Fake glViewport and glScissor right after the first successful MakeCurrent of each
 * context (glXMakeCurrent, glXMakeContextCurrent, glXMakeCurrentReadSGI,
 * eglMakeCurrent), as apitrace does (wrappers/gltrace_state.cpp, setContext):
 *
 *   6 glXMakeCurrent(dpy = 0x..., drawable = 2097154, ctx = 0x...) = True
 *   7 glViewport(x = 0, y = 0, width = 320, height = 240) // fake
 *   8 glScissor(x = 0, y = 0, width = 320, height = 240) // fake
 *
 * The values are the real GL_VIEWPORT and GL_SCISSOR_BOX of the context just made
 * current: on a context bound for the first time both are the drawable's size. A
 * replayer sizes its window from them, before the first frame. Like apitrace, an
 * empty box (no drawable yet: surfaceless EGL, glXMakeContextCurrent with None) writes
 * nothing and leaves the context to a later MakeCurrent, and a destroyed context is
 * forgotten, so a new context at the same address gets its own fake calls. */
#include <pthread.h>
#include <stdlib.h>

#include "gltrace_runtime.h"
#include "gl_enums.gen.h"
#include "gt_grow.h"
#include "hook_makecurrent.h"
#include "wrappers.gen.h"


/* The contexts that had their fake calls. */
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static void **seen;
static size_t nseen, capseen;

static int seen_find(const void *ctx)
{
    for (size_t i = 0; i < nseen; ++i)
        if (seen[i] == ctx)
            return (int)i;
    return -1;
}

static void fake_box(at_writer *w, const gt_func_sig *sig, const int box[4])
{
    gltrace_begin_enter(w, sig, AT_WRITER_FAKE);
    for (uint32_t i = 0; i < 4; ++i) {
        at_writer_begin_arg(w, i);
        at_writer_sint(w, box[i]);
    }
    gltrace_begin_leave(w, gltrace_end_enter(w));
    gltrace_end_leave(w);
}

/* After a successful MakeCurrent of ctx (not NULL) on this thread. */
void gth_context_seen(void *ctx)
{
    pthread_mutex_lock(&seen_lock);
    if (seen_find(ctx) < 0 && GT_GROW(seen, capseen, nseen + 1, 16) == 0)
        seen[nseen++] = ctx;
    pthread_mutex_unlock(&seen_lock);
}

static void first_bind(at_writer *w, void *ctx)
{
    /* the snapshot writes its own, with the drawable's size (snap_ws.c) */
    if (!w || !ctx || gltrace_faking())
        return;
    pthread_mutex_lock(&seen_lock);
    int done = seen_find(ctx) >= 0;
    pthread_mutex_unlock(&seen_lock);
    if (done)
        return;

    typedef void (*get_integerv_fn)(unsigned pname, int *data);
    static get_integerv_fn get_integerv;
    if (!get_integerv)
        get_integerv = (get_integerv_fn)gltrace_real("glGetIntegerv");
    if (!get_integerv)
        return;
    int viewport[4] = {0, 0, 0, 0}, scissor[4] = {0, 0, 0, 0};
    get_integerv(GL_VIEWPORT, viewport);
    get_integerv(GL_SCISSOR_BOX, scissor);
    if (!viewport[2] || !viewport[3] || !scissor[2] || !scissor[3])
        return; /* no drawable yet: try again at the next MakeCurrent */

    pthread_mutex_lock(&seen_lock);
    done = seen_find(ctx) >= 0;
    if (!done && GT_GROW(seen, capseen, nseen + 1, 16) == 0) /* else written again later */
        seen[nseen++] = ctx;
    pthread_mutex_unlock(&seen_lock);
    if (done)
        return;
    fake_box(w, &gtfn_glViewport, viewport);
    fake_box(w, &gtfn_glScissor, scissor);
}

static void forget(void *ctx)
{
    pthread_mutex_lock(&seen_lock);
    int i = seen_find(ctx);
    if (i >= 0)
        seen[i] = seen[--nseen];
    pthread_mutex_unlock(&seen_lock);
}

void gth_glx_make_current(struct at_writer *w, void *dpy, unsigned long drawable, void *ctx,
                          int ret)
{
    (void)dpy;
    (void)drawable;
    if (ret)
        first_bind(w, ctx);
}

void gth_glx_make_context_current(struct at_writer *w, void *dpy, unsigned long draw,
                                  unsigned long read, void *ctx, int ret)
{
    (void)dpy;
    (void)draw;
    (void)read;
    if (ret)
        first_bind(w, ctx);
}

void gth_glx_destroy_context(struct at_writer *w, void *dpy, void *ctx)
{
    (void)w;
    (void)dpy;
    forget(ctx);
}

void gth_egl_make_current(struct at_writer *w, void *dpy, void *draw, void *read, void *ctx,
                          unsigned ret)
{
    (void)dpy;
    (void)draw;
    (void)read;
    if (ret)
        first_bind(w, ctx); /* EGL_NO_CONTEXT is NULL */
}

void gth_egl_destroy_context(struct at_writer *w, void *dpy, void *ctx, unsigned ret)
{
    (void)w;
    (void)dpy;
    if (ret)
        forget(ctx);
}
