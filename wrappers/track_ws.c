/* The window-system setup followed for a frame range's snapshot (track_ws.h), from the
 * `track` hooks of hook_track_ws.h. Window-system calls are rare, except a
 * MakeCurrent every frame (Qt): that one only overwrites its thread's slot. Repeated
 * config queries with the same answer are kept once, and at most MAX_QUERIES of them. */
#include "track_ws.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "attrib_lists.gen.h"
#include "attrib_lists.h"
#include "gltrace_runtime.h"
#include "gt_grow.h"
#include "hook_track_ws.h"

#define MAX_QUERIES 64

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static ws_setup g;
static size_t g_cap_recs, g_cap_cur, g_cap_apis, g_cap_bound;

static void *copy(const void *p, size_t bytes)
{
    if (!p || !bytes)
        return NULL;
    void *c = malloc(bytes);
    if (c)
        memcpy(c, p, bytes);
    return c;
}

static void unbound(void *ctx);

static void rec_free(ws_rec *r)
{
    free(r->blob);
    free(r->blob2);
}

static int is_query(ws_kind k)
{
    return k == WS_GLX_CHOOSE_VISUAL || k == WS_GLX_CHOOSE_FBCONFIG || k == WS_EGL_CHOOSE_CONFIG;
}

static size_t blob_bytes(const ws_rec *r, int second)
{
    size_t n = second ? r->blob2_len : r->blob_len;
    if (second && (r->kind == WS_GLX_CHOOSE_VISUAL || r->kind == WS_GLX_CREATE_CONTEXT))
        return n; /* a struct: bytes */
    if (second)
        return n * sizeof(void *);
    int wide = r->kind == WS_EGL_GET_PLATFORM_DISPLAY ||
               r->kind == WS_EGL_CREATE_PLATFORM_WINDOW_SURFACE;
    return n * (wide ? sizeof(intptr_t) : sizeof(int));
}

static int same_rec(const ws_rec *x, const ws_rec *y)
{
    return x->kind == y->kind && x->dpy == y->dpy && x->ret == y->ret &&
           !memcmp(x->a, y->a, sizeof x->a) && x->blob_len == y->blob_len &&
           x->blob2_len == y->blob2_len &&
           (!x->blob_len || !memcmp(x->blob, y->blob, blob_bytes(x, 0))) &&
           (!x->blob2_len || !memcmp(x->blob2, y->blob2, blob_bytes(x, 1)));
}

static void drop_at(size_t i)
{
    rec_free(&g.recs[i]);
    memmove(&g.recs[i], &g.recs[i + 1], (g.nrecs - i - 1) * sizeof *g.recs);
    g.nrecs--;
}

/* Keeps r (its blobs are ours now), unless the same call is kept already. */
static void keep(ws_rec r)
{
    r.thread = gltrace_thread_no();
    pthread_mutex_lock(&g_lock);
    size_t queries = 0;
    for (size_t i = 0; i < g.nrecs; ++i) {
        if (same_rec(&g.recs[i], &r)) {
            pthread_mutex_unlock(&g_lock);
            rec_free(&r);
            return;
        }
        queries += is_query(g.recs[i].kind);
    }
    if (is_query(r.kind) && queries >= MAX_QUERIES)
        for (size_t i = 0; i < g.nrecs; ++i)
            if (is_query(g.recs[i].kind)) {
                drop_at(i);
                break;
            }
    if (GT_GROW(g.recs, g_cap_recs, g.nrecs + 1, 16) == 0)
        g.recs[g.nrecs++] = r;
    else
        rec_free(&r);
    pthread_mutex_unlock(&g_lock);
}

/* A context or drawable is gone: the call that made it is forgotten. */
static void forget(void *dpy, uint64_t obj, ws_kind k1, ws_kind k2, ws_kind k3)
{
    pthread_mutex_lock(&g_lock);
    for (size_t i = g.nrecs; i-- > 0;) {
        ws_rec *r = &g.recs[i];
        if (r->dpy == dpy && r->ret == obj && (r->kind == k1 || r->kind == k2 || r->kind == k3)) {
            drop_at(i);
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
}

static void attribs(ws_rec *r, const gtal_list *l, const void *p, size_t elem)
{
    r->blob_len = gtal_length(l, p, elem);
    r->blob = copy(p, r->blob_len * elem);
    if (p && !r->blob)
        r->blob_len = 0;
}

/* ---- GLX ---------------------------------------------------------------------------- */

void gtt_glx_choose_visual(void *dpy, int screen, int *attribs_, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_GLX_CHOOSE_VISUAL, .dpy = dpy, .a = {(uint64_t)screen},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_glx_visual, attribs_, sizeof(int));
    r.blob2 = copy(ret, sizeof(XVisualInfo));
    r.blob2_len = r.blob2 ? sizeof(XVisualInfo) : 0;
    keep(r);
}

void gtt_glx_choose_fbconfig(void *dpy, int screen, const int *attribs_, int *nelements, void *ret)
{
    if (!ret || !nelements || *nelements <= 0)
        return;
    ws_rec r = {.kind = WS_GLX_CHOOSE_FBCONFIG, .dpy = dpy, .a = {(uint64_t)screen},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_glx_fbconfig, attribs_, sizeof(int));
    r.blob2 = copy(ret, (size_t)*nelements * sizeof(void *));
    r.blob2_len = r.blob2 ? (size_t)*nelements : 0;
    r.ret = 0; /* the array is the program's to free: compared by contents */
    keep(r);
}

void gtt_glx_create_context(void *dpy, void *vis, void *share, int direct, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_GLX_CREATE_CONTEXT, .dpy = dpy,
                .a = {(uintptr_t)share, (uint64_t)direct}, .ret = (uintptr_t)ret};
    r.blob2 = copy(vis, sizeof(XVisualInfo));
    r.blob2_len = r.blob2 ? sizeof(XVisualInfo) : 0;
    keep(r);
}

void gtt_glx_create_new_context(void *dpy, void *config, int render_type, void *share, int direct,
                                void *ret)
{
    if (ret)
        keep((ws_rec){.kind = WS_GLX_CREATE_NEW_CONTEXT, .dpy = dpy,
                      .a = {(uintptr_t)config, (uint64_t)render_type, (uintptr_t)share,
                            (uint64_t)direct},
                      .ret = (uintptr_t)ret});
}

void gtt_glx_create_context_attribs(void *dpy, void *config, void *share, int direct,
                                    const int *attribs_, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_GLX_CREATE_CONTEXT_ATTRIBS, .dpy = dpy,
                .a = {(uintptr_t)config, (uintptr_t)share, (uint64_t)direct},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_glx_context, attribs_, sizeof(int));
    keep(r);
}

void gtt_glx_destroy_context(void *dpy, void *ctx)
{
    unbound(ctx);
    forget(dpy, (uintptr_t)ctx, WS_GLX_CREATE_CONTEXT, WS_GLX_CREATE_NEW_CONTEXT,
           WS_GLX_CREATE_CONTEXT_ATTRIBS);
}

void gtt_glx_create_window(void *dpy, void *config, unsigned long win, const int *attribs_,
                           unsigned long ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_GLX_CREATE_WINDOW, .dpy = dpy, .a = {(uintptr_t)config, win},
                .ret = ret};
    attribs(&r, &gtal_glx_other, attribs_, sizeof(int));
    keep(r);
}

void gtt_glx_destroy_window(void *dpy, unsigned long win)
{
    forget(dpy, win, WS_GLX_CREATE_WINDOW, WS_GLX_CREATE_WINDOW, WS_GLX_CREATE_WINDOW);
}

void gtt_glx_create_pbuffer(void *dpy, void *config, const int *attribs_, unsigned long ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_GLX_CREATE_PBUFFER, .dpy = dpy, .a = {(uintptr_t)config}, .ret = ret};
    attribs(&r, &gtal_glx_pbuffer, attribs_, sizeof(int));
    keep(r);
}

void gtt_glx_destroy_pbuffer(void *dpy, unsigned long pbuf)
{
    forget(dpy, pbuf, WS_GLX_CREATE_PBUFFER, WS_GLX_CREATE_PBUFFER, WS_GLX_CREATE_PBUFFER);
}

/* ---- what each thread made current ----------------------------------------------- */

static void made_current(ws_mc kind, void *dpy, uint64_t draw, uint64_t read, void *ctx)
{
    uint32_t thread = gltrace_thread_no();
    pthread_mutex_lock(&g_lock);
    size_t i = 0;
    while (i < g.ncur && g.cur[i].thread != thread)
        ++i;
    if (i == g.ncur && GT_GROW(g.cur, g_cap_cur, g.ncur + 1, 8) == 0)
        g.ncur++;
    if (i < g.ncur)
        g.cur[i] = (ws_current){thread, kind, dpy, ctx, draw, read};
    for (i = 0; ctx && i < g.nbound && g.bound[i].ctx != ctx; ++i)
        ;
    if (ctx && i == g.nbound && GT_GROW(g.bound, g_cap_bound, g.nbound + 1, 8) == 0)
        g.nbound++;
    if (ctx && i < g.nbound)
        g.bound[i] = (ws_current){thread, kind, dpy, ctx, draw, read};
    pthread_mutex_unlock(&g_lock);
}

/* A context is gone: its last binding too. */
static void unbound(void *ctx)
{
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g.nbound; ++i)
        if (g.bound[i].ctx == ctx) {
            g.bound[i] = g.bound[--g.nbound];
            break;
        }
    pthread_mutex_unlock(&g_lock);
}

void gtt_glx_make_current(void *dpy, unsigned long drawable, void *ctx, int ret)
{
    if (ret)
        made_current(WS_MC_GLX, dpy, drawable, drawable, ctx);
}

void gtt_glx_make_context_current(void *dpy, unsigned long draw, unsigned long read, void *ctx,
                                  int ret)
{
    if (ret)
        made_current(WS_MC_GLX_CONTEXT, dpy, draw, read, ctx);
}

/* ---- EGL ----------------------------------------------------------------------------- */

void gtt_egl_get_display(void *native, void *ret)
{
    if (ret)
        keep((ws_rec){.kind = WS_EGL_GET_DISPLAY, .a = {(uintptr_t)native}, .ret = (uintptr_t)ret});
}

void gtt_egl_get_platform_display(unsigned platform, void *native, const intptr_t *attribs_,
                                  void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_EGL_GET_PLATFORM_DISPLAY, .a = {platform, (uintptr_t)native},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_egl_platform_display, attribs_, sizeof(intptr_t));
    keep(r);
}

void gtt_egl_initialize(void *dpy, int *major, int *minor, unsigned ret)
{
    if (ret)
        keep((ws_rec){.kind = WS_EGL_INITIALIZE, .dpy = dpy,
                      .a = {major ? (uint64_t)*major : 0, minor ? (uint64_t)*minor : 0,
                            major != NULL, minor != NULL},
                      .ret = ret});
}

static unsigned *api_slot(uint32_t thread)
{
    for (size_t i = 0; i < g.napis; ++i)
        if (g.apis[i].thread == thread)
            return &g.apis[i].api;
    if (GT_GROW(g.apis, g_cap_apis, g.napis + 1, 8) != 0)
        return NULL;
    g.apis[g.napis].thread = thread;
    g.apis[g.napis].api = 0x30A0; /* EGL_OPENGL_ES_API, EGL's default */
    return &g.apis[g.napis++].api;
}

void gtt_egl_bind_api(unsigned api, unsigned ret)
{
    if (!ret)
        return;
    pthread_mutex_lock(&g_lock);
    unsigned *slot = api_slot(gltrace_thread_no());
    if (slot)
        *slot = api;
    pthread_mutex_unlock(&g_lock);
}

void gtt_egl_choose_config(void *dpy, const int *attribs_, void **configs, int size, int *num,
                           unsigned ret)
{
    if (!ret || !num || *num <= 0 || !configs)
        return;
    ws_rec r = {.kind = WS_EGL_CHOOSE_CONFIG, .dpy = dpy, .a = {(uint64_t)size}, .ret = ret};
    attribs(&r, &gtal_egl_config, attribs_, sizeof(int));
    r.blob2 = copy(configs, (size_t)*num * sizeof(void *));
    r.blob2_len = r.blob2 ? (size_t)*num : 0;
    keep(r);
}

void gtt_egl_create_context(void *dpy, void *config, void *share, const int *attribs_, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_EGL_CREATE_CONTEXT, .dpy = dpy,
                .a = {(uintptr_t)config, (uintptr_t)share}, .ret = (uintptr_t)ret};
    attribs(&r, &gtal_egl_context, attribs_, sizeof(int));
    pthread_mutex_lock(&g_lock);
    unsigned *slot = api_slot(gltrace_thread_no());
    r.api = slot ? *slot : 0x30A0;
    pthread_mutex_unlock(&g_lock);
    keep(r);
}

void gtt_egl_destroy_context(void *dpy, void *ctx, unsigned ret)
{
    if (ret)
        unbound(ctx);
    if (ret)
        forget(dpy, (uintptr_t)ctx, WS_EGL_CREATE_CONTEXT, WS_EGL_CREATE_CONTEXT,
               WS_EGL_CREATE_CONTEXT);
}

void gtt_egl_create_window_surface(void *dpy, void *config, uintptr_t win, const int *attribs_,
                                   void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_EGL_CREATE_WINDOW_SURFACE, .dpy = dpy, .a = {(uintptr_t)config, win},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_egl_window_surface, attribs_, sizeof(int));
    keep(r);
}

void gtt_egl_create_platform_window_surface(void *dpy, void *config, void *win,
                                            const intptr_t *attribs_, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_EGL_CREATE_PLATFORM_WINDOW_SURFACE, .dpy = dpy,
                .a = {(uintptr_t)config, (uintptr_t)win}, .ret = (uintptr_t)ret};
    attribs(&r, &gtal_egl_attrib_other, attribs_, sizeof(intptr_t));
    keep(r);
}

void gtt_egl_create_pbuffer_surface(void *dpy, void *config, const int *attribs_, void *ret)
{
    if (!ret)
        return;
    ws_rec r = {.kind = WS_EGL_CREATE_PBUFFER_SURFACE, .dpy = dpy, .a = {(uintptr_t)config},
                .ret = (uintptr_t)ret};
    attribs(&r, &gtal_egl_pbuffer, attribs_, sizeof(int));
    keep(r);
}

void gtt_egl_destroy_surface(void *dpy, void *surface, unsigned ret)
{
    if (ret)
        forget(dpy, (uintptr_t)surface, WS_EGL_CREATE_WINDOW_SURFACE,
               WS_EGL_CREATE_PLATFORM_WINDOW_SURFACE, WS_EGL_CREATE_PBUFFER_SURFACE);
}

void gtt_egl_make_current(void *dpy, void *draw, void *read, void *ctx, unsigned ret)
{
    if (ret)
        made_current(WS_MC_EGL, dpy, (uintptr_t)draw, (uintptr_t)read, ctx);
}

/* ---- the copy the snapshot writes ------------------------------------------------------ */

int gltrace_ws_setup(ws_setup *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&g_lock);
    int ok = 1;
    out->recs = g.nrecs ? calloc(g.nrecs, sizeof *out->recs) : NULL;
    out->cur = g.ncur ? malloc(g.ncur * sizeof *out->cur) : NULL;
    out->apis = g.napis ? malloc(g.napis * sizeof *out->apis) : NULL;
    out->bound = g.nbound ? malloc(g.nbound * sizeof *out->bound) : NULL;
    ok = (!g.nrecs || out->recs) && (!g.ncur || out->cur) && (!g.napis || out->apis) &&
         (!g.nbound || out->bound);
    for (size_t i = 0; ok && i < g.nrecs; ++i) {
        ws_rec r = g.recs[i];
        r.blob = copy(r.blob, blob_bytes(&r, 0));
        r.blob2 = copy(r.blob2, blob_bytes(&r, 1));
        out->recs[out->nrecs++] = r;
        ok = (!g.recs[i].blob || r.blob) && (!g.recs[i].blob2 || r.blob2);
    }
    if (ok) {
        if (g.ncur)
            memcpy(out->cur, g.cur, g.ncur * sizeof *out->cur);
        if (g.napis)
            memcpy(out->apis, g.apis, g.napis * sizeof *out->apis);
        if (g.nbound)
            memcpy(out->bound, g.bound, g.nbound * sizeof *out->bound);
        out->ncur = g.ncur;
        out->napis = g.napis;
        out->nbound = g.nbound;
    }
    pthread_mutex_unlock(&g_lock);
    if (!ok)
        gltrace_ws_setup_free(out);
    return ok ? 0 : -1;
}

void gltrace_ws_setup_free(ws_setup *s)
{
    for (size_t i = 0; i < s->nrecs; ++i)
        rec_free(&s->recs[i]);
    free(s->recs);
    free(s->cur);
    free(s->apis);
    free(s->bound);
    memset(s, 0, sizeof *s);
}
