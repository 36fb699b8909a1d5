/* The snapshot's other contexts (snapshot_contexts.h). A GLX MakeCurrent on a drawable
 * that is gone raises an X error, whose default handler ends the program: while the
 * snapshot makes a context current itself, X errors are caught (the program's handler
 * is put back at once) and the context is said unreadable instead. */
#define _GNU_SOURCE
#include "snapshot_contexts.h"

#include <EGL/egl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "protos.gen.h"
#include "snap_ws.h"
#include "track_containers.h"

static int current_elsewhere(const ws_setup *ws, const void *ctx, uint32_t self, uint32_t *thread)
{
    for (size_t i = 0; i < ws->ncur; ++i)
        if (ws->cur[i].ctx == ctx && ws->cur[i].thread != self) {
            *thread = ws->cur[i].thread;
            return 1;
        }
    return 0;
}

int snap_frame_binding(const ws_setup *ws, ws_current *out)
{
    uint32_t self = gltrace_thread_no();
    int found = 0;
    for (size_t i = 0; i < ws->ncur; ++i)
        if (ws->cur[i].thread == self && ws->cur[i].ctx) {
            *out = ws->cur[i];
            found = 1;
        }
    return found;
}

void snap_frame_drawable_size(int size[2])
{
    size[0] = size[1] = 0;
    ws_setup ws;
    ws_current frame;
    if (gltrace_ws_setup(&ws) != 0)
        return;
    if (snap_frame_binding(&ws, &frame) && frame.draw)
        snap_ws_drawable_size(&frame, size);
    gltrace_ws_setup_free(&ws);
}

int snap_contexts_find(snap *s, snap_contexts *l)
{
    memset(l, 0, sizeof *l);
    if (gltrace_ws_setup(&l->ws) != 0) {
        snap_unreadable(s, "out of memory listing the contexts: only the current one is read");
        return -1;
    }
    uint32_t self = gltrace_thread_no();
    l->have_frame = snap_frame_binding(&l->ws, &l->frame);
    l->others = l->ws.nbound ? calloc(l->ws.nbound, sizeof *l->others) : NULL;
    if (!l->have_frame || (l->ws.nbound && !l->others))
        return 0;
    for (size_t i = 0; i < l->ws.nbound; ++i) {
        const ws_current *b = &l->ws.bound[i];
        uint32_t thread;
        if (b->ctx == l->frame.ctx)
            continue;
        if (current_elsewhere(&l->ws, b->ctx, self, &thread))
            snap_unreadable(s, "context %p is current on thread %u: its own state (bindings, "
                            "vertex arrays, framebuffers) is not written", b->ctx, thread);
        else
            l->others[l->n++] = *b;
    }
    return 0;
}

void snap_contexts_free(snap_contexts *l)
{
    gltrace_ws_setup_free(&l->ws);
    free(l->others);
    memset(l, 0, sizeof *l);
}

static int g_x_failed;

static int on_x_error(void *dpy, void *event)
{
    (void)dpy;
    (void)event;
    g_x_failed = 1;
    return 0;
}

typedef int (*x_handler)(void *, void *);

static int glx_enter(const ws_current *b)
{
    x_handler (*set)(x_handler) = (x_handler(*)(x_handler))dlsym(RTLD_DEFAULT, "XSetErrorHandler");
    int (*sync)(void *, int) = (int (*)(void *, int))dlsym(RTLD_DEFAULT, "XSync");
    if (!set || !sync)
        return 0;
    g_x_failed = 0;
    sync(b->dpy, 0); /* errors of the program's own requests go to its handler */
    x_handler old = set(on_x_error);
    int ok = b->kind == WS_MC_GLX
                 ? SNAP_REAL(glXMakeCurrent)(b->dpy, (GLXDrawable)b->draw, b->ctx)
                 : SNAP_REAL(glXMakeContextCurrent)(b->dpy, (GLXDrawable)b->draw,
                                                    (GLXDrawable)b->read, b->ctx);
    sync(b->dpy, 0);
    set(old);
    return ok && !g_x_failed;
}

int snap_context_enter(const ws_current *b)
{
    int ok = b->kind == WS_MC_EGL
                 ? SNAP_REAL(eglMakeCurrent)(b->dpy, (EGLSurface)(uintptr_t)b->draw,
                                             (EGLSurface)(uintptr_t)b->read,
                                             b->ctx) == EGL_TRUE
                 : glx_enter(b);
    if (ok)
        gtt_ctr_now_current(b->ctx);
    return ok;
}
