/* Traced GL contexts on SDL2 GL contexts, bound by the rules of GLX 1.4
 * (glXMakeContextCurrent, "Rendering Contexts") and EGL 1.5 (eglMakeCurrent, "Binding
 * Contexts and Drawables"): a thread has at most one current context, with a draw and
 * a read drawable, and a context is current on at most one thread.
 *
 * A traced context (a pointer) gets its SDL_GLContext lazily, at its first
 * MakeCurrent, because SDL needs a window to create one; the profile and version come
 * from the creating call (ws_glx.c, ws_egl.c). Contexts of a share group are created
 * from the group's anchor context, since SDL shares with the current context and the
 * group's others may be current on other threads.
 *
 * Threads: calls replay in trace order, one at a time; each traced thread keeps its own
 * current context and drawable (its replay_thread, which the main loop hands to
 * ws_switch_thread) and replays on an OS thread of its own (core/replay_workers.h),
 * where its context stays current as in the traced program. When traced threads share
 * an OS thread (--singlethread), a switch binds the new one's context again. The
 * binding SDL has on each OS thread is tracked per thread (ws_bound), and one SDL
 * context is never current on two OS threads at once, as the traced program's were not. */
#include <SDL.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "ws_private.h"

static ws_context *find_ctx(uint64_t traced)
{
    for (size_t i = 0; i < ws.nctx; ++i)
        if (ws.ctxs[i]->traced == traced && !ws.ctxs[i]->dead)
            return ws.ctxs[i];
    return NULL;
}

static ws_context *add_ctx(uint64_t traced, const ws_profile *prof, uint64_t share)
{
    ws_context *c = NULL;
    if (GT_GROW(ws.ctxs, ws.capctx, ws.nctx + 1, 8) != 0 || !(c = calloc(1, sizeof *c)))
        return NULL;
    c->traced = traced;
    c->prof = *prof;
    c->share = share;
    ws.ctxs[ws.nctx++] = c;
    return c;
}

static bool context_in_use(const ws_context *c)
{
    for (size_t i = 0; i < replay_thread_count(); ++i)
        if (replay_thread_at(i)->ctx == c)
            return true;
    return false;
}

void ws_set_gl_attributes(const ws_profile *p)
{
    SDL_GL_ResetAttributes();
    SDL_GL_SetAttribute(SDL_GL_RED_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_GREEN_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_BLUE_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_ALPHA_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, ws.single_buffer ? 0 : 1);
    int samples = ws.force_samples ? ws.force_samples : ws.samples;
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, samples > 1 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, samples > 1 ? samples : 0);
    if (p->api == 1) {
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, p->major ? p->major : 1);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, p->minor);
    } else {
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, p->profile_mask);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, p->major ? p->major : 2);
        SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, p->major ? p->minor : 1);
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, p->flags);
}

/* The samples a visual or config attribute list asks for: its SAMPLES when it asks
 * for a sample buffer (or does not say), else 0. apitrace's glretrace takes the traced
 * program's samples so, and a double buffer whatever the list says (measured on
 * apitrace 11.1: a GLX_DOUBLEBUFFER False program replays double-buffered). */
void ws_note_samples(int64_t sample_buffers, int64_t samples)
{
    if (sample_buffers != 0 && samples >= 0 && samples <= 64)
        ws.samples = samples > 1 ? (int)samples : 0;
}

int ws_sdl_make_current(SDL_Window *win, SDL_GLContext ctx)
{
    if (win == ws_bound.win && ctx == ws_bound.ctx && !ws_bound.read_split)
        return 1;
    if (ws_bound.read_split) { /* SDL still thinks (win, ctx) bound: it would skip the bind */
        SDL_GL_MakeCurrent(ws_bound.win, NULL);
        ws_bound.read_split = false;
    }
    if (ws_bind(win, ctx) != 0)
        return 0;
    ws_bound.win = win;
    ws_bound.ctx = ctx;
    return 1;
}

/* The first context of c's share group (the end of its chain of share contexts). */
static ws_context *share_root(const ws_context *c)
{
    const ws_context *root = c;
    for (int i = 0; root && root->share && i < 64; ++i) {
        const ws_context *s = find_ctx(root->share);
        if (!s || s == root)
            break;
        root = s;
    }
    return (ws_context *)root;
}

/* Makes current the context the next SDL_GL_CreateContext is to share with: share's
 * group anchor, or, for a group's first context c, a new anchor (on the helper window:
 * binding it to c's window would keep that window's old size in Mesa's GLX). 1 when
 * the next context is to share, 0 when it starts a group of its own. */
static int bind_share(ws_context *c, ws_context *share, SDL_Window *win)
{
    ws_context *root = share ? share_root(share) : NULL;
    SDL_Window *helper = ws_helper_window(&c->prof);
    if (root && root->anchor && helper)
        return ws_sdl_make_current(helper, root->anchor);
    if (root) /* no anchor: share itself, if it is not current on another thread */
        return share->ctx && ws_sdl_make_current(win, share->ctx);
    ws_set_gl_attributes(&c->prof);
    SDL_GL_SetAttribute(SDL_GL_SHARE_WITH_CURRENT_CONTEXT, 0);
    c->anchor = helper ? SDL_GL_CreateContext(helper) : NULL;
    if (!c->anchor)
        return 0;
    ws_bound.win = helper; /* SDL_GL_CreateContext makes it current */
    ws_bound.ctx = c->anchor;
    ws_bind_note_context(helper, c->anchor);
    return 1;
}

/* Creates c's SDL context on window win (sharing with its share context, created
 * first on the same window when needed). */
static int ensure_context(ws_context *c, ws_drawable *d)
{
    if (c->ctx)
        return 1;
    ws_context *share = c->share ? find_ctx(c->share) : NULL;
    if (share && share != c && !ensure_context(share, d))
        share = NULL;
    if (share == c)
        share = NULL;
    if (!ws_ensure_window(d, &c->prof))
        return 0;
    ws_set_gl_attributes(&c->prof);
    SDL_GL_SetAttribute(SDL_GL_SHARE_WITH_CURRENT_CONTEXT, bind_share(c, share, d->win));
    c->ctx = SDL_GL_CreateContext(d->win);
    if (!c->ctx) {
        fprintf(stderr, "glretrace: warning: cannot create a GL%s %d.%d context: %s\n",
                c->prof.api ? " ES" : "", c->prof.major, c->prof.minor, SDL_GetError());
        return 0;
    }
    ws_bound.win = d->win; /* SDL_GL_CreateContext makes it current */
    ws_bound.ctx = c->ctx;
    ws_bind_note_context(d->win, c->ctx);
    SDL_GL_SetSwapInterval(0);
    ws_offscreen_read_back(d);
    return 1;
}

/* Tells the name maps which context is current and which share group it is in
 * (the root of its share chain): shared objects are mapped per group, containers
 * (FBOs, VAOs, ...) per context. */
static void note_context(const ws_context *c)
{
    const ws_context *root = share_root(c);
    retrace_map_context(c ? c->traced : 0, root ? root->traced : 0);
}

static int bind_thread(replay_thread *t)
{
    note_context(t->ctx);
    if (!t->ctx || !t->draw)
        return ws_sdl_make_current(ws_bound.win, NULL);
    if (!ensure_context(t->ctx, t->draw))
        return 0;
    /* a context moves between drawables (Qt: a window, then a pbuffer, then windows
     * made with plain Xlib): a drawable first seen here gets its window now */
    if (!ws_ensure_window(t->draw, &t->ctx->prof))
        return 0;
    if (!t->read || t->read == t->draw) {
        if (!ws_sdl_make_current(t->draw->win, t->ctx->ctx))
            return 0;
        ws_offscreen_read_back(t->draw);
        return 1;
    }
    if (!ws_ensure_window(t->read, &t->ctx->prof))
        return 0;
    ws_bound.read_split = true; /* whatever happens, SDL's binding is not what ws says */
    ws_bound.win = t->draw->win;
    ws_bound.ctx = t->ctx->ctx;
    return ws_read_bind(t->draw->win, t->read->win, t->ctx->ctx);
}

void ws_make_current(const gt_call *call, uint64_t draw, uint64_t read, uint64_t ctx)
{
    replay_thread *t = ws.cur;
    if (!t)
        return;
    if (!ctx) {
        t->ctx = NULL;
        t->draw = NULL;
        t->read = NULL;
        ws_sdl_make_current(ws_bound.win, NULL);
        return;
    }
    ws_context *c = find_ctx(ctx);
    if (!c) {
        retrace_warning(call, "unknown context 0x%llx: made with a compatibility profile",
                        (unsigned long long)ctx);
        ws_profile p = {.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY};
        c = add_ctx(ctx, &p, 0);
        if (!c)
            return;
    }
    ws_drawable *d = ws_drawable_of(draw);
    ws_drawable *r = read == draw ? d : ws_drawable_of(read);
    if (!d || !r)
        return;
    t->ctx = c;
    t->draw = d;
    t->read = r;
    if (!bind_thread(t))
        retrace_warning(call, "cannot make the context current: %s", SDL_GetError());
}

/* glXMakeContextCurrent(dpy, draw, read, ctx) and eglMakeCurrent(dpy, draw, read, ctx) */
void ws_make_context_current(const gt_call *call)
{
    ws_make_current(call, ws_u64(ws_arg(call, 1)), ws_u64(ws_arg(call, 2)),
                    ws_u64(ws_arg(call, 3)));
}

void ws_new_context(const gt_call *call, const ws_profile *p, uint64_t share)
{
    uint64_t traced = ws_u64(call->ret);
    if (!traced)
        return; /* creation failed when traced */
    if (!add_ctx(traced, p, share))
        retrace_warning(call, "out of memory");
}

/* glXDestroyContext(dpy, ctx), eglDestroyContext(dpy, ctx) */
void ws_destroy_context(const gt_call *call)
{
    ws_context *c = find_ctx(ws_u64(ws_arg(call, 1)));
    if (!c)
        return;
    if (context_in_use(c))
        return; /* current somewhere: GLX/EGL destroy it once released; keep it */
    if (c->ctx) {
        ws.hooks.context_destroyed(c->ctx);
        if (ws_bound.ctx == c->ctx)
            ws_sdl_make_current(ws_bound.win, NULL);
        ws_bind_forget_context(c->ctx);
        SDL_GL_DeleteContext(c->ctx);
        c->ctx = NULL;
    }
    gl_avail_free(c->avail);
    c->avail = NULL;
    c->dead = true;
}

void ws_thread_exit(void)
{
    if (ws_bound.ctx || ws_bound.read_split)
        SDL_GL_MakeCurrent(ws_bound.win, NULL);
    memset(&ws_bound, 0, sizeof ws_bound);
}

void ws_forget_current(void) { ws.cur = NULL; }

void ws_rebind(void)
{
    if (ws.cur && ws.cur->ctx && ws.cur->draw)
        bind_thread(ws.cur);
}

void ws_switch_thread(replay_thread *t)
{
    if (ws.cur == t)
        return;
    ws.cur = t;
    if (t->ctx && t->draw)
        bind_thread(t);
    else
        ws_sdl_make_current(ws_bound.win, NULL);
}

bool ws_has_current(void)
{
    return ws.cur && ws.cur->ctx && ws.cur->ctx->ctx && ws.cur->draw && ws.cur->draw->win &&
           ws_bound.ctx == ws.cur->ctx->ctx;
}

gl_avail *ws_current_avail(unsigned n)
{
    if (!ws_has_current())
        return NULL;
    ws_context *c = ws.cur->ctx;
    if (!c->avail)
        c->avail = gl_avail_new(n);
    return c->avail;
}

void ws_current_size(int *w, int *h)
{
    *w = *h = 0;
    if (ws_has_current())
        SDL_GL_GetDrawableSize(ws.cur->draw->win, w, h);
}
