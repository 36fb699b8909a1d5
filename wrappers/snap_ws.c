/* The state snapshot's window-system setup (snapshot.h): the calls that made the
 * displays, configs, contexts and drawables still alive, written again as each
 * thread made them (track_ws.h keeps them with copies of their arguments), then
 * what each thread has current, the frame thread last (the snapshot's GL calls are
 * its context's). After each MakeCurrent come the fake glViewport and glScissor of
 * the drawable's size that the recorder writes at a context's first MakeCurrent
 * (hook_makecurrent.c): replayers size their windows from them. */
#include <EGL/egl.h>
#include <stdlib.h>

#include "hook_makecurrent.h"
#include "protos.gen.h"
#include "snap_ws.h"
#include "snapshot_parts.h"

#ifndef GLX_WIDTH
#define GLX_WIDTH 0x801D
#define GLX_HEIGHT 0x801E
#endif

typedef struct ws_data {
    ws_setup setup;
    int (*size)[2]; /* per ws_current: its draw drawable's size, or 0 */
} ws_data;

void snap_ws_drawable_size(const ws_current *c, int size[2])
{
    size[0] = size[1] = 0;
    if (!c->ctx || !c->draw)
        return;
    if (c->kind == WS_MC_EGL) {
        int w = 0, h = 0;
        if (SNAP_REAL(eglQuerySurface)(c->dpy, (EGLSurface)(uintptr_t)c->draw, EGL_WIDTH, &w) &&
            SNAP_REAL(eglQuerySurface)(c->dpy, (EGLSurface)(uintptr_t)c->draw, EGL_HEIGHT, &h)) {
            size[0] = w;
            size[1] = h;
        }
        return;
    }
    unsigned w = 0, h = 0;
    SNAP_REAL(glXQueryDrawable)(c->dpy, (GLXDrawable)c->draw, GLX_WIDTH, &w);
    SNAP_REAL(glXQueryDrawable)(c->dpy, (GLXDrawable)c->draw, GLX_HEIGHT, &h);
    size[0] = (int)w;
    size[1] = (int)h;
}

static void *collect(snap *s)
{
    ws_data *d = calloc(1, sizeof *d);
    if (!d || gltrace_ws_setup(&d->setup) != 0) {
        free(d);
        snap_unreadable(s, "out of memory copying the window-system setup: not written");
        return NULL;
    }
    d->size = d->setup.ncur ? calloc(d->setup.ncur, sizeof *d->size) : NULL;
    for (size_t i = 0; d->size && i < d->setup.ncur; ++i)
        snap_ws_drawable_size(&d->setup.cur[i], d->size[i]);
    return d;
}

static void *ptr(uint64_t v) { return (void *)(uintptr_t)v; }

static void write_glx(const ws_rec *r)
{
    snap_ret(r->ret);
    switch (r->kind) {
    case WS_GLX_CHOOSE_VISUAL:
        snap_ret((uintptr_t)r->blob2);
        glXChooseVisual(r->dpy, (int)r->a[0], r->blob);
        break;
    case WS_GLX_CHOOSE_FBCONFIG: {
        int n = (int)r->blob2_len;
        snap_ret((uintptr_t)r->blob2);
        glXChooseFBConfig(r->dpy, (int)r->a[0], r->blob, &n);
        break;
    }
    case WS_GLX_CREATE_CONTEXT:
        glXCreateContext(r->dpy, r->blob2, ptr(r->a[0]), (Bool)r->a[1]);
        break;
    case WS_GLX_CREATE_NEW_CONTEXT:
        glXCreateNewContext(r->dpy, ptr(r->a[0]), (int)r->a[1], ptr(r->a[2]), (Bool)r->a[3]);
        break;
    case WS_GLX_CREATE_CONTEXT_ATTRIBS:
        glXCreateContextAttribsARB(r->dpy, ptr(r->a[0]), ptr(r->a[1]), (Bool)r->a[2], r->blob);
        break;
    case WS_GLX_CREATE_WINDOW:
        glXCreateWindow(r->dpy, ptr(r->a[0]), (Window)r->a[1], r->blob);
        break;
    case WS_GLX_CREATE_PBUFFER:
        glXCreatePbuffer(r->dpy, ptr(r->a[0]), r->blob);
        break;
    default:
        break;
    }
}

/* eglBindAPI(api) on the thread being written, unless it is bound there already. */
static void bind_api(unsigned *bound, unsigned api)
{
    if (*bound == api)
        return;
    snap_ret(EGL_TRUE);
    eglBindAPI(api);
    *bound = api;
}

static void write_egl(const ws_rec *r, unsigned *bound)
{
    snap_ret(r->ret);
    switch (r->kind) {
    case WS_EGL_GET_DISPLAY:
        eglGetDisplay((EGLNativeDisplayType)ptr(r->a[0]));
        break;
    case WS_EGL_GET_PLATFORM_DISPLAY:
        eglGetPlatformDisplay((EGLenum)r->a[0], ptr(r->a[1]), r->blob);
        break;
    case WS_EGL_INITIALIZE: {
        EGLint major = (EGLint)r->a[0], minor = (EGLint)r->a[1];
        eglInitialize(r->dpy, r->a[2] ? &major : NULL, r->a[3] ? &minor : NULL);
        break;
    }
    case WS_EGL_CHOOSE_CONFIG: {
        EGLint n = (EGLint)r->blob2_len;
        eglChooseConfig(r->dpy, r->blob, r->blob2, (EGLint)r->a[0], &n);
        break;
    }
    case WS_EGL_CREATE_CONTEXT:
        bind_api(bound, r->api);
        snap_ret(r->ret);
        eglCreateContext(r->dpy, ptr(r->a[0]), ptr(r->a[1]), r->blob);
        break;
    case WS_EGL_CREATE_WINDOW_SURFACE:
        eglCreateWindowSurface(r->dpy, ptr(r->a[0]), (EGLNativeWindowType)r->a[1], r->blob);
        break;
    case WS_EGL_CREATE_PLATFORM_WINDOW_SURFACE:
        eglCreatePlatformWindowSurface(r->dpy, ptr(r->a[0]), ptr(r->a[1]), r->blob);
        break;
    case WS_EGL_CREATE_PBUFFER_SURFACE:
        eglCreatePbufferSurface(r->dpy, ptr(r->a[0]), r->blob);
        break;
    default:
        break;
    }
}

void snap_ws_write_current(const ws_current *c, const int size[2])
{
    snap_ret(1);
    if (c->kind == WS_MC_GLX)
        glXMakeCurrent(c->dpy, (GLXDrawable)c->draw, c->ctx);
    else if (c->kind == WS_MC_GLX_CONTEXT)
        glXMakeContextCurrent(c->dpy, (GLXDrawable)c->draw, (GLXDrawable)c->read, c->ctx);
    else
        eglMakeCurrent(c->dpy, ptr(c->draw), ptr(c->read), c->ctx);
    if (c->ctx && size[0] > 0 && size[1] > 0) {
        glViewport(0, 0, size[0], size[1]);
        glScissor(0, 0, size[0], size[1]);
        gth_context_seen(c->ctx);
    }
}

/* The EGL API each thread has bound now (EGL's default: GLES). */
static unsigned api_of(const ws_setup *s, uint32_t thread)
{
    for (size_t i = 0; i < s->napis; ++i)
        if (s->apis[i].thread == thread)
            return s->apis[i].api;
    return EGL_OPENGL_ES_API;
}

static void write_part(snap *s, void *data)
{
    (void)s;
    ws_data *d = data;
    const ws_setup *st = &d->setup;
    uint32_t self = gltrace_thread_no();
    unsigned bound = EGL_OPENGL_ES_API; /* eglBindAPI is per thread; written on one */
    int egl = 0;
    for (size_t i = 0; i < st->nrecs; ++i) {
        const ws_rec *r = &st->recs[i];
        uint32_t prev = snap_as_thread(r->thread);
        if (r->kind >= WS_EGL_GET_DISPLAY) {
            write_egl(r, &bound);
            egl = 1;
        } else {
            write_glx(r);
        }
        snap_as_thread_end(prev);
    }
    /* the frame thread last: the snapshot's GL calls go to its context */
    for (int pass = 0; pass < 2; ++pass)
        for (size_t i = 0; i < st->ncur; ++i) {
            const ws_current *c = &st->cur[i];
            if ((c->thread == self) != pass)
                continue;
            uint32_t prev = snap_as_thread(c->thread);
            if (egl)
                bind_api(&bound, api_of(st, c->thread));
            snap_ws_write_current(c, d->size ? d->size[i] : (int[2]){0, 0});
            snap_as_thread_end(prev);
        }
}

static void free_part(void *data)
{
    ws_data *d = data;
    gltrace_ws_setup_free(&d->setup);
    free(d->size);
    free(d);
}

const snap_part snap_part_ws = {"window system", collect, write_part, free_part};
