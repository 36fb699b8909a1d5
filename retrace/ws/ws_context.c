/* GLX and EGL calls of a trace replayed on SDL2 windows and GL contexts.
 *
 * Traced contexts (pointers) map to SDL_GLContexts, created lazily at their first
 * MakeCurrent because SDL needs a window to create one; the profile and version come
 * from the creating call (glXCreateContext*: compatibility, glXCreateContextAttribsARB
 * and eglCreateContext: their attribute lists, EGL's API from eglBindAPI). Traced
 * drawables (GLX XIDs, EGL surfaces) map to one SDL window each, made when the drawable
 * is first bound to any context (Qt binds windows made with plain Xlib/xcb that GLX
 * never saw, and moves one context between windows and pbuffers), 32x32 at first and
 * grown when a glViewport reaches past their size (the recorders' fake glViewport at a
 * drawable's first MakeCurrent gives the real size). Pbuffers (their size from the
 * creating call) and EGL_NO_SURFACE (surfaceless) are hidden windows. A separate read
 * drawable (glXMakeContextCurrent, eglMakeCurrent) is bound through ws_read.c.
 * Windows have the traced visual's samples (the last glXChooseFBConfig, glXChooseVisual
 * or eglChooseConfig before them, or what glXGetFBConfigAttrib told of the config a GLX
 * context is created on) and a double buffer (--sb: single), as apitrace's
 * glretrace makes them. --headless: hidden windows on X when there is a display (as
 * apitrace's --headless), else SDL's offscreen driver (EGL pbuffers, single-buffered).
 *
 * Threads: calls replay in trace order, one at a time; each traced thread keeps its own
 * current context and drawable (its replay_thread, which the main loop hands to
 * ws_switch_thread) and replays on an OS thread of its own (replay_workers.h), where its
 * context stays current as in the traced program. When traced threads share an OS
 * thread (--singlethread), a switch binds the new one's context again. The binding SDL
 * has on each OS thread is tracked per thread (os below), and one SDL context is never
 * current on two OS threads at once, as the traced program's were not. */
#include <SDL.h>
#include <epoxy/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_avail.h"
#include "glretrace.h"
#include "gt_grow.h"
#include "retrace_gen.h"
#include "ws_read.h"

#define DEFAULT_SIZE 32

typedef struct ws_profile {
    int api;   /* 0 desktop GL, 1 OpenGL ES */
    int major, minor;
    int profile_mask; /* SDL_GL_CONTEXT_PROFILE_* (desktop) */
    int flags;        /* SDL_GL_CONTEXT_*_FLAG */
} ws_profile;

typedef struct ws_context {
    uint64_t traced;
    uint64_t share; /* traced share context, 0 none */
    ws_profile prof;
    SDL_GLContext ctx; /* NULL until first made current */
    /* a share group's first context: one more context of its group, never left
     * current, from which the group's later contexts are made on any thread (SDL
     * shares with the current context, and the others may be current elsewhere) */
    SDL_GLContext anchor;
    gl_avail *avail;   /* which functions it provides, asked as calls come */
    bool dead;
} ws_context;

typedef struct ws_drawable {
    uint64_t traced;
    SDL_Window *win;
    int w, h;
    bool pbuffer;
    bool read_back; /* offscreen: its pbuffer reads GL_BACK (offscreen_read_back) */
} ws_drawable;

static struct {
    bool inited, headless;
    bool offscreen;          /* SDL's offscreen driver: EGL pbuffers, no X (headless) */
    bool single_buffer;      /* --sb */
    int samples;             /* the traced visual's samples (0: not multisampled) */
    struct config_samples { uint64_t config; int samples; } *configs; /* GLX_SAMPLES told
                              * per traced GLXFBConfig (glXGetFBConfigAttrib) */
    size_t nconfig, capconfig;
    ws_context **ctxs;
    size_t nctx, capctx;
    ws_drawable **draws;
    size_t ndraw, capdraw;
    replay_thread *cur;      /* the replayed traced thread (replay_threads.h) */
    int egl_api;             /* per process here: eglBindAPI's last value; 0 = ES */
    SDL_Window *helper; /* hidden 1x1, for rebinding after resizes */
    ws_hooks hooks;     /* the main loop's (ws_init) */
} ws;

/* What SDL has current on this OS thread: the replay runs traced threads on threads of
 * their own (replay_workers.h), each keeping its binding. */
static _Thread_local struct {
    SDL_GLContext ctx;
    SDL_Window *win;
    bool read_split; /* SDL's binding was redone with another read drawable */
} os;

/* ---- values ---------------------------------------------------------------------- */

static uint64_t v_u64(const gt_value *v) { return gt_value_uint(v); }

static int64_t v_int(const gt_value *v) { return (int64_t)v_u64(v); }

static const gt_value *arg(const gt_call *c, unsigned i)
{
    return i < c->num_args ? &c->args[i] : NULL;
}

/* The value after key in a 0/None-terminated attribute list, or def. */
static int64_t attrib(const gt_value *list, int64_t key, int64_t terminator, int64_t def)
{
    if (!list || list->kind != GT_ARRAY)
        return def;
    for (size_t i = 0; i + 1 < list->arr.n; i += 2) {
        int64_t k = v_int(&list->arr.items[i]);
        if (k == terminator)
            break;
        if (k == key)
            return v_int(&list->arr.items[i + 1]);
    }
    return def;
}

/* ---- tables ---------------------------------------------------------------------- */

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

static ws_drawable *find_draw(uint64_t traced)
{
    for (size_t i = 0; i < ws.ndraw; ++i)
        if (ws.draws[i]->traced == traced)
            return ws.draws[i];
    return NULL;
}

static ws_drawable *add_draw(uint64_t traced, int w, int h, bool pbuffer)
{
    ws_drawable *d = NULL;
    if (GT_GROW(ws.draws, ws.capdraw, ws.ndraw + 1, 8) != 0 || !(d = calloc(1, sizeof *d)))
        return NULL;
    d->traced = traced;
    d->w = w > 0 ? w : DEFAULT_SIZE;
    d->h = h > 0 ? h : DEFAULT_SIZE;
    d->pbuffer = pbuffer;
    ws.draws[ws.ndraw++] = d;
    return d;
}

/* Whether any traced thread has D current (as draw or read drawable). */
static bool drawable_in_use(const ws_drawable *d)
{
    for (size_t i = 0; i < replay_thread_count(); ++i) {
        const replay_thread *t = replay_thread_at(i);
        if (t->draw == d || t->read == d)
            return true;
    }
    return false;
}

static bool context_in_use(const ws_context *c)
{
    for (size_t i = 0; i < replay_thread_count(); ++i)
        if (replay_thread_at(i)->ctx == c)
            return true;
    return false;
}

/* ---- SDL ------------------------------------------------------------------------- */

static void set_gl_attributes(const ws_profile *p)
{
    SDL_GL_ResetAttributes();
    SDL_GL_SetAttribute(SDL_GL_RED_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_GREEN_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_BLUE_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_ALPHA_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, ws.single_buffer ? 0 : 1);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, ws.samples > 1 ? 1 : 0);
    SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, ws.samples > 1 ? ws.samples : 0);
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

static int ensure_window(ws_drawable *d, const ws_profile *p)
{
    if (d->win)
        return 1;
    set_gl_attributes(p);
    Uint32 fl = SDL_WINDOW_OPENGL | (d->pbuffer || ws.headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN);
    d->win = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                              d->w, d->h, fl);
    if (!d->win) {
        fprintf(stderr, "glretrace: warning: cannot create a %dx%d window: %s\n", d->w, d->h,
                SDL_GetError());
        return 0;
    }
    return 1;
}

static int sdl_make_current(SDL_Window *win, SDL_GLContext ctx)
{
    if (win == os.win && ctx == os.ctx && !os.read_split)
        return 1;
    if (os.read_split) { /* SDL still thinks (win, ctx) bound: it would skip the bind */
        SDL_GL_MakeCurrent(os.win, NULL);
        os.read_split = false;
    }
    if (SDL_GL_MakeCurrent(win, ctx) != 0)
        return 0;
    os.win = win;
    os.ctx = ctx;
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

/* The hidden 1x1 window that anchors are current on, and that resized windows' contexts
 * visit (gl_viewport); NULL when it cannot be made. */
static SDL_Window *helper_window(const ws_profile *prof)
{
    if (!ws.helper) {
        set_gl_attributes(prof);
        ws.helper = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED,
                                     SDL_WINDOWPOS_UNDEFINED, 1, 1,
                                     SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
    }
    return ws.helper;
}

/* Makes current the context the next SDL_GL_CreateContext is to share with: share's
 * group anchor, or, for a group's first context c, a new anchor (on the helper window:
 * binding it to c's window would keep that window's old size in Mesa's GLX). 1 when
 * the next context is to share, 0 when it starts a group of its own. */
static int bind_share(ws_context *c, ws_context *share, SDL_Window *win)
{
    ws_context *root = share ? share_root(share) : NULL;
    SDL_Window *helper = helper_window(&c->prof);
    if (root && root->anchor && helper)
        return sdl_make_current(helper, root->anchor);
    if (root) /* no anchor: share itself, if it is not current on another thread */
        return share->ctx && sdl_make_current(win, share->ctx);
    set_gl_attributes(&c->prof);
    SDL_GL_SetAttribute(SDL_GL_SHARE_WITH_CURRENT_CONTEXT, 0);
    c->anchor = helper ? SDL_GL_CreateContext(helper) : NULL;
    if (!c->anchor)
        return 0;
    os.win = helper; /* SDL_GL_CreateContext makes it current */
    os.ctx = c->anchor;
    return 1;
}

/* SDL's offscreen driver draws into single-buffered EGL pbuffers, whose framebuffers
 * start reading the front buffer while they draw the back one (Mesa): each reads the
 * back buffer from its first binding on, as the traced double-buffered program's did
 * (GL_READ_BUFFER GL_BACK, and glReadPixels reads what was drawn). The read buffer is
 * the drawable's state, so each new pbuffer gets it. GLES 2 has no glReadBuffer. */
static void offscreen_read_back(ws_drawable *d)
{
    if (!ws.offscreen || ws.single_buffer || d->read_back)
        return;
    d->read_back = true;
    if (!epoxy_is_desktop_gl() && epoxy_gl_version() < 30)
        return;
    glReadBuffer(GL_BACK); /* an error (a framebuffer object bound) changes nothing */
    while (glGetError() != GL_NO_ERROR)
        ;
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
    if (!ensure_window(d, &c->prof))
        return 0;
    set_gl_attributes(&c->prof);
    SDL_GL_SetAttribute(SDL_GL_SHARE_WITH_CURRENT_CONTEXT, bind_share(c, share, d->win));
    c->ctx = SDL_GL_CreateContext(d->win);
    if (!c->ctx) {
        fprintf(stderr, "glretrace: warning: cannot create a GL%s %d.%d context: %s\n",
                c->prof.api ? " ES" : "", c->prof.major, c->prof.minor, SDL_GetError());
        return 0;
    }
    os.win = d->win; /* SDL_GL_CreateContext makes it current */
    os.ctx = c->ctx;
    SDL_GL_SetSwapInterval(0);
    offscreen_read_back(d);
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
        return sdl_make_current(os.win, NULL);
    if (!ensure_context(t->ctx, t->draw))
        return 0;
    /* a context moves between drawables (Qt: a window, then a pbuffer, then windows
     * made with plain Xlib): a drawable first seen here gets its window now */
    if (!ensure_window(t->draw, &t->ctx->prof))
        return 0;
    if (!t->read || t->read == t->draw) {
        if (!sdl_make_current(t->draw->win, t->ctx->ctx))
            return 0;
        offscreen_read_back(t->draw);
        return 1;
    }
    if (!ensure_window(t->read, &t->ctx->prof))
        return 0;
    os.read_split = true; /* whatever happens, SDL's binding is not what ws says */
    os.win = t->draw->win;
    os.ctx = t->ctx->ctx;
    return ws_read_bind(t->draw->win, t->read->win, t->ctx->ctx);
}

/* ---- the replayers --------------------------------------------------------------- */

static void ws_ignore(const gt_call *call) { (void)call; }

/* The drawable traced as id, made when first seen (Qt binds windows it made with
 * Xlib/xcb and never told GLX about); id 0 (EGL_NO_SURFACE: surfaceless) gets a hidden
 * stand-in. */
static ws_drawable *drawable_of(uint64_t id)
{
    ws_drawable *d = find_draw(id);
    if (d)
        return d;
    return id ? add_draw(id, 0, 0, false) : add_draw(0, DEFAULT_SIZE, DEFAULT_SIZE, true);
}

static void make_current(const gt_call *call, uint64_t draw, uint64_t read, uint64_t ctx)
{
    replay_thread *t = ws.cur;
    if (!t)
        return;
    if (!ctx) {
        t->ctx = NULL;
        t->draw = NULL;
        t->read = NULL;
        sdl_make_current(os.win, NULL);
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
    ws_drawable *d = drawable_of(draw);
    ws_drawable *r = read == draw ? d : drawable_of(read);
    if (!d || !r)
        return;
    t->ctx = c;
    t->draw = d;
    t->read = r;
    if (!bind_thread(t))
        retrace_warning(call, "cannot make the context current: %s", SDL_GetError());
}

static void glx_make_current(const gt_call *call)
{
    uint64_t draw = v_u64(arg(call, 1));
    make_current(call, draw, draw, v_u64(arg(call, 2)));
}

/* glXMakeContextCurrent(dpy, draw, read, ctx) and eglMakeCurrent(dpy, draw, read, ctx) */
static void make_context_current(const gt_call *call)
{
    make_current(call, v_u64(arg(call, 1)), v_u64(arg(call, 2)), v_u64(arg(call, 3)));
}

static void new_context(const gt_call *call, const ws_profile *p, uint64_t share)
{
    uint64_t traced = v_u64(call->ret);
    if (!traced)
        return; /* creation failed when traced */
    if (!add_ctx(traced, p, share))
        retrace_warning(call, "out of memory");
}

/* glXCreateContext(dpy, vis, shareList, direct) */
static void glx_create_context(const gt_call *call)
{
    ws_profile p = {.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY};
    new_context(call, &p, v_u64(arg(call, 2)));
}

static void note_config_samples(uint64_t config);

/* glXCreateNewContext(dpy, config, renderType, shareList, direct) */
static void glx_create_new_context(const gt_call *call)
{
    note_config_samples(v_u64(arg(call, 1)));
    ws_profile p = {.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY};
    new_context(call, &p, v_u64(arg(call, 3)));
}

/* glXCreateContextAttribsARB(dpy, config, share_context, direct, attrib_list) */
static void glx_create_context_attribs(const gt_call *call)
{
    note_config_samples(v_u64(arg(call, 1)));
    const gt_value *a = arg(call, 4);
    ws_profile p = {0};
    p.major = (int)attrib(a, 0x2091 /* GLX_CONTEXT_MAJOR_VERSION_ARB */, 0, 1);
    p.minor = (int)attrib(a, 0x2092 /* GLX_CONTEXT_MINOR_VERSION_ARB */, 0, 0);
    int64_t mask = attrib(a, 0x9126 /* GLX_CONTEXT_PROFILE_MASK_ARB */, 0, 1);
    int64_t flags = attrib(a, 0x2094 /* GLX_CONTEXT_FLAGS_ARB */, 0, 0);
    if (mask & 0x4) { /* GLX_CONTEXT_ES2_PROFILE_BIT_EXT */
        p.api = 1;
    } else if ((mask & 0x1) && (p.major > 3 || (p.major == 3 && p.minor >= 2))) {
        p.profile_mask = SDL_GL_CONTEXT_PROFILE_CORE;
    } else {
        p.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY;
    }
    if (p.major < 2 && !p.api) { /* 1.x: any compatibility context will do */
        p.major = 0;
        p.minor = 0;
    }
    if (flags & 0x1)
        p.flags |= SDL_GL_CONTEXT_DEBUG_FLAG;
    if (flags & 0x2)
        p.flags |= SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG;
    new_context(call, &p, v_u64(arg(call, 2)));
}

/* eglBindAPI(api) */
static void egl_bind_api(const gt_call *call)
{
    int64_t api = v_int(arg(call, 0));
    ws.egl_api = api == 0x30A2 /* EGL_OPENGL_API */ ? 1 : 0;
}

/* eglCreateContext(dpy, config, share_context, attrib_list) */
static void egl_create_context(const gt_call *call)
{
    const gt_value *a = arg(call, 3);
    ws_profile p = {0};
    const int64_t none = 0x3038; /* EGL_NONE */
    if (ws.egl_api == 1) {
        p.major = (int)attrib(a, 0x3098 /* EGL_CONTEXT_MAJOR_VERSION */, none, 0);
        p.minor = (int)attrib(a, 0x30FB /* EGL_CONTEXT_MINOR_VERSION */, none, 0);
        int64_t mask = attrib(a, 0x30FD /* EGL_CONTEXT_OPENGL_PROFILE_MASK */, none, 1);
        if ((mask & 1) && (p.major > 3 || (p.major == 3 && p.minor >= 2)))
            p.profile_mask = SDL_GL_CONTEXT_PROFILE_CORE;
        else
            p.profile_mask = SDL_GL_CONTEXT_PROFILE_COMPATIBILITY;
        if (p.major < 2) {
            p.major = 0;
            p.minor = 0;
        }
    } else {
        p.api = 1;
        p.major = (int)attrib(a, 0x3098 /* EGL_CONTEXT_CLIENT_VERSION */, none, 1);
        p.minor = (int)attrib(a, 0x30FB, none, 0);
    }
    if (attrib(a, 0x31B0 /* EGL_CONTEXT_OPENGL_DEBUG */, none, 0))
        p.flags |= SDL_GL_CONTEXT_DEBUG_FLAG;
    new_context(call, &p, v_u64(arg(call, 2)));
}

/* The samples a visual or config attribute list asks for: its SAMPLES when it asks
 * for a sample buffer (or does not say), else 0. apitrace's glretrace takes the traced
 * program's samples so, and a double buffer whatever the list says (measured on
 * apitrace 11.1: a GLX_DOUBLEBUFFER False program replays double-buffered). */
static void note_samples(int64_t sample_buffers, int64_t samples)
{
    if (sample_buffers != 0 && samples >= 0 && samples <= 64)
        ws.samples = samples > 1 ? (int)samples : 0;
}

/* glXGetFBConfigAttrib(dpy, config, GLX_SAMPLES, value): the samples of that config, as
 * the program was told them (GLFW picks its config so, among all of glXGetFBConfigs');
 * the context created on that config gets them, as in apitrace's glretrace */
static void glx_get_fbconfig_attrib(const gt_call *call)
{
    const gt_value *value = arg(call, 3);
    if (v_int(arg(call, 2)) != 100001 /* GLX_SAMPLES */ || !value || value->kind != GT_ARRAY ||
        value->arr.n < 1)
        return;
    uint64_t config = v_u64(arg(call, 1));
    int64_t samples = v_int(&value->arr.items[0]);
    if (samples < 0 || samples > 64)
        return;
    size_t i = 0;
    while (i < ws.nconfig && ws.configs[i].config != config)
        ++i;
    if (i == ws.nconfig) {
        if (GT_GROW(ws.configs, ws.capconfig, ws.nconfig + 1, 64) != 0)
            return; /* out of memory: the window keeps the last visual's samples */
        ws.nconfig++;
    }
    ws.configs[i].config = config;
    ws.configs[i].samples = (int)samples;
}

/* The samples glXGetFBConfigAttrib told for config, if it was asked. */
static void note_config_samples(uint64_t config)
{
    for (size_t i = 0; i < ws.nconfig; ++i)
        if (ws.configs[i].config == config) {
            ws.samples = ws.configs[i].samples > 1 ? ws.configs[i].samples : 0;
            return;
        }
}

/* glXChooseFBConfig(dpy, screen, attrib_list, nelements): key/value pairs, None-ended */
static void glx_choose_fbconfig(const gt_call *call)
{
    const gt_value *a = arg(call, 2);
    note_samples(attrib(a, 100000 /* GLX_SAMPLE_BUFFERS */, 0, -1),
                 attrib(a, 100001 /* GLX_SAMPLES */, 0, -1));
}

/* glXChooseVisual(dpy, screen, attrib_list): the boolean attributes (GLX_USE_GL,
 * GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO) stand alone, the others take a value */
static void glx_choose_visual(const gt_call *call)
{
    const gt_value *a = arg(call, 2);
    if (!a || a->kind != GT_ARRAY)
        return;
    int64_t buffers = -1, samples = -1;
    for (size_t i = 0; i < a->arr.n; ++i) {
        int64_t k = v_int(&a->arr.items[i]);
        if (k == 0)
            break;
        if (k == 1 || k == 4 || k == 5 || k == 6)
            continue;
        if (i + 1 >= a->arr.n)
            break;
        int64_t v = v_int(&a->arr.items[++i]);
        if (k == 100000)
            buffers = v;
        else if (k == 100001)
            samples = v;
    }
    note_samples(buffers, samples);
}

/* eglChooseConfig(dpy, attrib_list, configs, config_size, num_config) */
static void egl_choose_config(const gt_call *call)
{
    const gt_value *a = arg(call, 1);
    note_samples(attrib(a, 0x3032 /* EGL_SAMPLE_BUFFERS */, 0x3038, -1),
                 attrib(a, 0x3031 /* EGL_SAMPLES */, 0x3038, -1));
}

/* eglCreateWindowSurface(dpy, config, win, attrib_list) and the platform variants */
static void egl_create_window_surface(const gt_call *call)
{
    uint64_t s = v_u64(call->ret);
    if (s && !find_draw(s))
        add_draw(s, 0, 0, false);
}

/* eglCreatePbufferSurface(dpy, config, attrib_list) */
static void egl_create_pbuffer(const gt_call *call)
{
    uint64_t s = v_u64(call->ret);
    const gt_value *a = arg(call, 2);
    if (s && !find_draw(s))
        add_draw(s, (int)attrib(a, 0x3057 /* EGL_WIDTH */, 0x3038, 0),
                 (int)attrib(a, 0x3056 /* EGL_HEIGHT */, 0x3038, 0), true);
}

/* glXCreatePbuffer(dpy, config, attribList) */
static void glx_create_pbuffer(const gt_call *call)
{
    uint64_t s = v_u64(call->ret);
    const gt_value *a = arg(call, 2);
    if (s && !find_draw(s))
        add_draw(s, (int)attrib(a, 0x8041 /* GLX_PBUFFER_WIDTH */, 0, 0),
                 (int)attrib(a, 0x8040 /* GLX_PBUFFER_HEIGHT */, 0, 0), true);
}

/* glXCreateWindow(dpy, config, win, attribList): the GLXWindow is the drawable */
static void glx_create_window(const gt_call *call)
{
    uint64_t s = v_u64(call->ret);
    if (s && !find_draw(s))
        add_draw(s, 0, 0, false);
}

static void destroy_drawable(uint64_t traced)
{
    for (size_t i = 0; i < ws.ndraw; ++i) {
        ws_drawable *d = ws.draws[i];
        if (d->traced != traced)
            continue;
        if (drawable_in_use(d))
            return; /* still current: EGL destroys it when released */
        if (d->win) {
            if (os.win == d->win)
                sdl_make_current(d->win, NULL), os.win = NULL;
            SDL_DestroyWindow(d->win);
        }
        free(d);
        ws.draws[i] = ws.draws[--ws.ndraw];
        return;
    }
}

/* eglDestroySurface(dpy, surface), glXDestroyPbuffer(dpy, pbuf), glXDestroyWindow(dpy, win) */
static void destroy_surface(const gt_call *call)
{
    destroy_drawable(v_u64(arg(call, 1)));
}

/* glXDestroyContext(dpy, ctx), eglDestroyContext(dpy, ctx) */
static void destroy_context(const gt_call *call)
{
    ws_context *c = find_ctx(v_u64(arg(call, 1)));
    if (!c)
        return;
    if (context_in_use(c))
        return; /* current somewhere: GLX/EGL destroy it once released; keep it */
    if (c->ctx) {
        ws.hooks.context_destroyed(c->ctx);
        if (os.ctx == c->ctx)
            sdl_make_current(os.win, NULL);
        SDL_GL_DeleteContext(c->ctx);
        c->ctx = NULL;
    }
    gl_avail_free(c->avail);
    c->avail = NULL;
    c->dead = true;
}

static void swap(const gt_call *call, uint64_t traced)
{
    ws_drawable *d = find_draw(traced);
    replay_thread *t = ws.cur;
    if (!d || !d->win) {
        /* a drawable never made current: swap what this thread draws to */
        d = t ? t->draw : NULL;
    }
    ws.hooks.before_swap(call);
    if (d && d->win)
        SDL_GL_SwapWindow(d->win);
    else
        retrace_warning(call, "no window to swap");
    ws.hooks.after_swap(call);
}

/* glXSwapBuffers(dpy, drawable), eglSwapBuffers(dpy, surface) and the WithDamage variants */
static void swap_buffers(const gt_call *call)
{
    swap(call, v_u64(arg(call, 1)));
}

/* Resizes d's window and waits (200 ms at most) until the window system says it has
 * the new size, as apitrace waits for X's ConfigureNotify: GL must not see the old
 * size at its next validation of the drawable. */
static void resize_window(ws_drawable *d)
{
    if (ws.offscreen) {
        /* SDL's offscreen windows are EGL pbuffers, which keep their size: the
         * drawable moves to a new window of the new size (a resize loses the
         * contents anyway) */
        set_gl_attributes(&ws.cur->ctx->prof);
        SDL_Window *win = SDL_CreateWindow("glretrace", SDL_WINDOWPOS_UNDEFINED,
                                           SDL_WINDOWPOS_UNDEFINED, d->w, d->h,
                                           SDL_WINDOW_OPENGL | SDL_WINDOW_HIDDEN);
        if (!win)
            return;
        SDL_Window *old = d->win;
        d->win = win;
        d->read_back = false;
        if (os.win == old) {
            os.win = NULL; /* force the bind */
            if (sdl_make_current(win, os.ctx))
                offscreen_read_back(d);
        }
        SDL_DestroyWindow(old);
        return;
    }
    SDL_SetWindowSize(d->win, d->w, d->h);
    Uint32 id = SDL_GetWindowID(d->win);
    Uint32 t0 = SDL_GetTicks();
    for (;;) {
        SDL_PumpEvents();
        SDL_Event ev[16];
        int n = SDL_PeepEvents(ev, 16, SDL_GETEVENT, SDL_WINDOWEVENT, SDL_WINDOWEVENT);
        for (int i = 0; i < n; ++i)
            if (ev[i].window.windowID == id && ev[i].window.event == SDL_WINDOWEVENT_SIZE_CHANGED &&
                ev[i].window.data1 >= d->w && ev[i].window.data2 >= d->h)
                return;
        if (SDL_GetTicks() - t0 > 200)
            return;
        SDL_Delay(1);
    }
}

/* Whether a framebuffer object is bound for drawing: a viewport into an FBO (glmark2's
 * terrain, refract and shadow render to 512x512 textures) says nothing of the window's
 * size, and apitrace's glretrace leaves the window alone then too. */
static bool fbo_bound(void)
{
    int ver = epoxy_gl_version();
    bool has_fbo = ver >= 30 || (!epoxy_is_desktop_gl() && ver >= 20) ||
                   epoxy_has_gl_extension("GL_ARB_framebuffer_object") ||
                   epoxy_has_gl_extension("GL_EXT_framebuffer_object");
    if (!has_fbo)
        return false;
    GLint fbo = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &fbo);
    return fbo != 0;
}

/* The scissor box starts as the size of the window a context is first bound to: the
 * traced program's window had its full size then, ours grows only now. A box still at
 * the old size (the default; a program rarely sets exactly that) grows with the window,
 * as in the traced program and in apitrace's replay. */
static void grow_default_scissor(int old_w, int old_h, int w, int h)
{
    GLint box[4] = {-1, -1, -1, -1};
    glGetIntegerv(GL_SCISSOR_BOX, box);
    if (box[0] == 0 && box[1] == 0 && box[2] == old_w && box[3] == old_h)
        glScissor(0, 0, w, h);
}

/* glViewport(x, y, width, height): grows the current window to hold the viewport
 * (the recorder's fake glViewport gives each drawable its size), then replays it. */
static void gl_viewport(const gt_call *call)
{
    int x = (int)v_int(arg(call, 0)), y = (int)v_int(arg(call, 1));
    int w = (int)v_int(arg(call, 2)), h = (int)v_int(arg(call, 3));
    if (!ws_has_current())
        return;
    ws_drawable *d = ws.cur->draw;
    if (d && d->win && !d->pbuffer && x >= 0 && y >= 0 && w > 0 && h > 0 && w <= 16384 &&
        h <= 16384 && (x + w > d->w || y + h > d->h) && !fbo_bound()) {
        int old_w = d->w, old_h = d->h;
        if (x + w > d->w)
            d->w = x + w;
        if (y + h > d->h)
            d->h = y + h;
        resize_window(d);
        grow_default_scissor(old_w, old_h, d->w, d->h);
        if (ws.offscreen)
            goto done;
        /* Mesa's software GLX reads a drawable's size again only after a swap or
         * when a context comes to it from another drawable (apitrace's glretrace
         * does neither: it draws the frame before the first swap at its old size):
         * bind a hidden helper window, then the resized one again. */
        if (helper_window(&ws.cur->ctx->prof) && SDL_GL_MakeCurrent(ws.helper, os.ctx) == 0) {
            SDL_GL_MakeCurrent(d->win, os.ctx);
            if (os.read_split) /* the helper's bind dropped the read drawable */
                ws_read_bind(d->win, ws.cur->read->win, os.ctx);
        }
    }
done:
    glViewport(x, y, w, h);
}

typedef struct ws_entry {
    const char *name;
    retrace_fn fn;
} ws_entry;

/* Sorted by name (strcmp) for bsearch. */
static const ws_entry ws_table[] = {
    {"eglBindAPI", egl_bind_api},
    {"eglChooseConfig", egl_choose_config},
    {"eglCreateContext", egl_create_context},
    {"eglCreatePbufferSurface", egl_create_pbuffer},
    {"eglCreatePlatformWindowSurface", egl_create_window_surface},
    {"eglCreatePlatformWindowSurfaceEXT", egl_create_window_surface},
    {"eglCreateWindowSurface", egl_create_window_surface},
    {"eglDestroyContext", destroy_context},
    {"eglDestroySurface", destroy_surface},
    {"eglGetConfigAttrib", ws_ignore},
    {"eglGetConfigs", ws_ignore},
    {"eglGetCurrentContext", ws_ignore},
    {"eglGetCurrentDisplay", ws_ignore},
    {"eglGetCurrentSurface", ws_ignore},
    {"eglGetDisplay", ws_ignore},
    {"eglGetError", ws_ignore},
    {"eglGetPlatformDisplay", ws_ignore},
    {"eglGetPlatformDisplayEXT", ws_ignore},
    {"eglGetProcAddress", ws_ignore},
    {"eglInitialize", ws_ignore},
    {"eglMakeCurrent", make_context_current},
    {"eglQueryAPI", ws_ignore},
    {"eglQueryContext", ws_ignore},
    {"eglQueryString", ws_ignore},
    {"eglQuerySurface", ws_ignore},
    {"eglReleaseThread", ws_ignore},
    {"eglSurfaceAttrib", ws_ignore},
    {"eglSwapBuffers", swap_buffers},
    {"eglSwapBuffersWithDamageEXT", swap_buffers},
    {"eglSwapBuffersWithDamageKHR", swap_buffers},
    {"eglSwapInterval", ws_ignore},
    {"eglTerminate", ws_ignore},
    {"eglWaitClient", ws_ignore},
    {"eglWaitGL", ws_ignore},
    {"eglWaitNative", ws_ignore},
    {"glViewport", gl_viewport},
    {"glXChooseFBConfig", glx_choose_fbconfig},
    {"glXChooseVisual", glx_choose_visual},
    {"glXCreateContext", glx_create_context},
    {"glXCreateContextAttribsARB", glx_create_context_attribs},
    {"glXCreateNewContext", glx_create_new_context},
    {"glXCreatePbuffer", glx_create_pbuffer},
    {"glXCreateWindow", glx_create_window},
    {"glXDestroyContext", destroy_context},
    {"glXDestroyPbuffer", destroy_surface},
    {"glXDestroyWindow", destroy_surface},
    {"glXGetClientString", ws_ignore},
    {"glXGetConfig", ws_ignore},
    {"glXGetCurrentContext", ws_ignore},
    {"glXGetCurrentDisplay", ws_ignore},
    {"glXGetCurrentDrawable", ws_ignore},
    {"glXGetCurrentReadDrawable", ws_ignore},
    {"glXGetFBConfigAttrib", glx_get_fbconfig_attrib},
    {"glXGetFBConfigs", ws_ignore},
    {"glXGetProcAddress", ws_ignore},
    {"glXGetProcAddressARB", ws_ignore},
    {"glXGetSelectedEvent", ws_ignore},
    {"glXGetVisualFromFBConfig", ws_ignore},
    {"glXIsDirect", ws_ignore},
    {"glXMakeContextCurrent", make_context_current},
    {"glXMakeCurrent", glx_make_current},
    {"glXQueryContext", ws_ignore},
    {"glXQueryCurrentRendererIntegerMESA", ws_ignore},
    {"glXQueryCurrentRendererStringMESA", ws_ignore},
    {"glXQueryDrawable", ws_ignore},
    {"glXQueryExtension", ws_ignore},
    {"glXQueryExtensionsString", ws_ignore},
    {"glXQueryRendererIntegerMESA", ws_ignore},
    {"glXQueryRendererStringMESA", ws_ignore},
    {"glXQueryServerString", ws_ignore},
    {"glXQueryVersion", ws_ignore},
    {"glXSelectEvent", ws_ignore},
    {"glXSwapBuffers", swap_buffers},
    {"glXSwapIntervalEXT", ws_ignore},
    {"glXSwapIntervalMESA", ws_ignore},
    {"glXSwapIntervalSGI", ws_ignore},
    {"glXWaitGL", ws_ignore},
    {"glXWaitX", ws_ignore},
};

static int cmp_entry(const void *key, const void *e)
{
    return strcmp((const char *)key, ((const ws_entry *)e)->name);
}

retrace_fn ws_lookup(const char *name)
{
    const ws_entry *e = bsearch(name, ws_table, sizeof ws_table / sizeof ws_table[0],
                                sizeof ws_table[0], cmp_entry);
    return e ? e->fn : NULL;
}

/* ---- the rest of the interface --------------------------------------------------- */

/* Headless: hidden windows on the X server when there is one, as apitrace's
 * --headless (its windows are double-buffered and multisampled as the traced ones, and
 * the state dump shows so); else SDL's offscreen driver, whose EGL pbuffers are
 * single-buffered (GL_DOUBLEBUFFER GL_FALSE; they read GL_BACK: offscreen_read_back). */
static int start_video(bool headless)
{
    ws.offscreen = false;
    /* a hint outlives SDL_Quit: a windowed replay after a headless one in the same
     * process must not stay offscreen */
    SDL_ResetHint(SDL_HINT_VIDEODRIVER);
    const char *display = getenv("DISPLAY");
    if (!headless || (display && *display)) {
        if (headless)
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
        if (SDL_Init(SDL_INIT_VIDEO) == 0)
            return 0;
        if (!headless)
            return -1;
    }
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    ws.offscreen = true;
    return SDL_Init(SDL_INIT_VIDEO);
}

int ws_init(bool headless, bool single_buffer, const ws_hooks *hooks, gt_error *err)
{
    ws.headless = headless;
    ws.single_buffer = single_buffer;
    ws.samples = 0;
    ws.hooks = *hooks;
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
    if (start_video(headless) != 0) {
        gt_error_set(err, "cannot start SDL's video%s: %s", ws.offscreen ? " (offscreen driver)" : "",
                     SDL_GetError());
        return -1;
    }
    ws.inited = true;
    for (size_t i = 1; i < sizeof ws_table / sizeof ws_table[0]; ++i)
        if (strcmp(ws_table[i - 1].name, ws_table[i].name) >= 0) {
            gt_error_set(err, "internal: ws_table not sorted at %s", ws_table[i].name);
            return -1;
        }
    return 0;
}

void ws_wait_closed(void)
{
    if (!ws.inited || ws.headless)
        return;
    fprintf(stderr, "glretrace: waiting for a window to be closed (-w)\n");
    SDL_Event ev;
    while (SDL_WaitEvent(&ev)) /* SDL turns SIGINT and SIGTERM into SDL_QUIT */
        if (ev.type == SDL_QUIT ||
            (ev.type == SDL_WINDOWEVENT && ev.window.event == SDL_WINDOWEVENT_CLOSE))
            return;
}

void ws_shutdown(void)
{
    if (!ws.inited)
        return;
    SDL_GL_MakeCurrent(NULL, NULL);
    for (size_t i = 0; i < ws.nctx; ++i) {
        if (ws.ctxs[i]->ctx)
            SDL_GL_DeleteContext(ws.ctxs[i]->ctx);
        if (ws.ctxs[i]->anchor)
            SDL_GL_DeleteContext(ws.ctxs[i]->anchor);
        gl_avail_free(ws.ctxs[i]->avail);
        free(ws.ctxs[i]);
    }
    for (size_t i = 0; i < ws.ndraw; ++i) {
        if (ws.draws[i]->win)
            SDL_DestroyWindow(ws.draws[i]->win);
        free(ws.draws[i]);
    }
    if (ws.helper)
        SDL_DestroyWindow(ws.helper);
    free(ws.ctxs);
    free(ws.draws);
    free(ws.configs);
    memset(&ws, 0, sizeof ws);
    memset(&os, 0, sizeof os);
    SDL_Quit();
}

void ws_thread_exit(void)
{
    if (os.ctx || os.read_split)
        SDL_GL_MakeCurrent(os.win, NULL);
    memset(&os, 0, sizeof os);
}

void ws_forget_current(void) { ws.cur = NULL; }

void ws_switch_thread(replay_thread *t)
{
    if (ws.cur == t)
        return;
    ws.cur = t;
    if (t->ctx && t->draw)
        bind_thread(t);
    else
        sdl_make_current(os.win, NULL);
}

bool ws_has_current(void)
{
    return ws.cur && ws.cur->ctx && ws.cur->ctx->ctx && ws.cur->draw && ws.cur->draw->win &&
           os.ctx == ws.cur->ctx->ctx;
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
