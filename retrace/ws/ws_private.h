/* What the files of the window system room share (retrace/ws; the rest of the replayer
 * sees ws.h): the traced contexts and drawables, what SDL has bound on each OS thread,
 * and the helpers the GLX and EGL replayers have in common.
 *
 * Traced contexts (pointers) map to SDL_GLContexts (ws_context.c), traced drawables
 * (GLX XIDs, EGL surfaces) to SDL windows (ws_window.c); ws_glx.c and ws_egl.c replay
 * the calls that create, bind and destroy them; ws.c starts and stops SDL and finds a
 * call's replayer in their tables. */
#ifndef RETRACE_WS_PRIVATE_H
#define RETRACE_WS_PRIVATE_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ws.h"

/* A drawable's size until a glViewport tells the real one. */
#define WS_DEFAULT_SIZE 32

/* What a context is created as: from the creating call's attributes. */
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
    bool read_back; /* offscreen: its pbuffer reads GL_BACK (ws_offscreen_read_back) */
    bool swapped;   /* a frame was shown in it: a resize keeps the window */
} ws_drawable;

/* The window system of the replay running now (one at a time: replay.h). */
typedef struct ws_room {
    bool inited, headless;
    bool offscreen;          /* SDL's offscreen driver: EGL pbuffers, no X (headless) */
    bool single_buffer;      /* --sb */
    int samples;             /* the traced visual's samples (0: not multisampled) */
    int force_samples;       /* --samples (0: the trace's) */
    bool core;               /* --core: versionless contexts are 3.2 core ones */
    struct ws_config_samples { uint64_t config; int samples; } *configs; /* GLX_SAMPLES
                              * told per traced GLXFBConfig (glXGetFBConfigAttrib) */
    size_t nconfig, capconfig;
    ws_context **ctxs;
    size_t nctx, capctx;
    ws_drawable **draws;
    size_t ndraw, capdraw;
    replay_thread *cur;      /* the replayed traced thread (core/replay_threads.h) */
    int egl_api;             /* per process here: eglBindAPI's last value; 0 = ES */
    SDL_Window *helper; /* hidden 1x1, for rebinding after resizes */
    ws_hooks hooks;     /* the main loop's (ws_init) */
} ws_room;
extern ws_room ws;

/* What SDL has current on this OS thread: the replay runs traced threads on threads of
 * their own (core/replay_workers.h), each keeping its binding. */
typedef struct ws_binding {
    SDL_GLContext ctx;
    SDL_Window *win;
    bool read_split; /* SDL's binding was redone with another read drawable */
} ws_binding;
extern _Thread_local ws_binding ws_bound;

/* ---- the calls' values ---- */
static inline uint64_t ws_u64(const gt_value *v) { return gt_value_uint(v); }
static inline int64_t ws_int(const gt_value *v) { return (int64_t)ws_u64(v); }
static inline const gt_value *ws_arg(const gt_call *c, unsigned i)
{
    return i < c->num_args ? &c->args[i] : NULL;
}
/* The value after key in a 0/None-terminated attribute list, or def. */
int64_t ws_attrib(const gt_value *list, int64_t key, int64_t terminator, int64_t def);

/* ---- tables of replayers (ws_glx.c, ws_egl.c, ws_window.c), sorted by name ---- */
typedef struct ws_entry {
    const char *name;
    retrace_fn fn;
} ws_entry;
typedef struct ws_table {
    const ws_entry *entries;
    size_t n;
} ws_table;
extern const ws_table ws_glx_table, ws_egl_table, ws_gl_table;
/* The replayer of calls with nothing to replay (queries, swap intervals...). */
void ws_ignore(const gt_call *call);

/* ---- contexts (ws_context.c) ---- */
/* SDL's GL attributes for a window or context of profile P, the traced visual's
 * samples and the buffering asked for. */
void ws_set_gl_attributes(const ws_profile *p);
/* The traced visual's samples, from a visual's or config's attribute list: its
 * SAMPLES when it asks for a sample buffer (or does not say). */
void ws_note_samples(int64_t sample_buffers, int64_t samples);
/* Binds (win, ctx) on this OS thread unless bound already: 1, or 0 (SDL's error). */
int ws_sdl_make_current(SDL_Window *win, SDL_GLContext ctx);
/* A context the trace created (its returned handle), of profile P in SHARE's group. */
void ws_new_context(const gt_call *call, const ws_profile *p, uint64_t share);
/* Binds context CTX to drawables DRAW and READ (traced handles; CTX 0 releases) on the
 * replayed traced thread. */
void ws_make_current(const gt_call *call, uint64_t draw, uint64_t read, uint64_t ctx);
/* glXMakeContextCurrent(dpy, draw, read, ctx) and eglMakeCurrent(dpy, draw, read, ctx) */
void ws_make_context_current(const gt_call *call);
/* glXDestroyContext(dpy, ctx), eglDestroyContext(dpy, ctx) */
void ws_destroy_context(const gt_call *call);

/* ---- drawables and their windows (ws_window.c) ---- */
ws_drawable *ws_find_drawable(uint64_t traced);
/* A new drawable traced as TRACED, W x H (0: the default size); NULL out of memory. */
ws_drawable *ws_add_drawable(uint64_t traced, int w, int h, bool pbuffer);
/* The drawable traced as id, made when first seen (Qt binds windows it made with
 * Xlib/xcb and never told GLX about); id 0 (EGL_NO_SURFACE: surfaceless) gets a hidden
 * stand-in. */
ws_drawable *ws_drawable_of(uint64_t id);
/* Gives D its SDL window (profile P's attributes) unless it has one: 1, or 0 warned. */
int ws_ensure_window(ws_drawable *d, const ws_profile *p);
/* The hidden 1x1 window that anchors are current on, and that resized windows'
 * contexts visit; NULL when it cannot be made. */
SDL_Window *ws_helper_window(const ws_profile *prof);
/* SDL's offscreen pbuffers read their back buffer, as the traced program's windows. */
void ws_offscreen_read_back(ws_drawable *d);
/* eglDestroySurface(dpy, surface), glXDestroyPbuffer(dpy, pbuf), glXDestroyWindow(dpy, win) */
void ws_destroy_surface(const gt_call *call);
/* glXSwapBuffers(dpy, drawable), eglSwapBuffers(dpy, surface) and the WithDamage variants */
void ws_swap_buffers(const gt_call *call);

/* ---- binding SDL's contexts (ws_bind.c) ---- */
/* SDL_GL_MakeCurrent(win, ctx), straight through glXMakeCurrent for SDL's GLX contexts
 * (no XSync round trip), SDL's record of the binding kept as SDL keeps it: 0, or -1
 * with SDL's error set. */
int ws_bind(SDL_Window *win, SDL_GLContext ctx);
/* After SDL made CTX current on WIN (SDL_GL_CreateContext): notes whether CTX is a GLX
 * context (which ws_bind binds straight); ws_bind_forget_context before it is deleted. */
void ws_bind_note_context(SDL_Window *win, SDL_GLContext ctx);
void ws_bind_forget_context(SDL_GLContext ctx);
/* A new SDL session: nothing known of its contexts and slots. */
void ws_bind_reset(void);
/* SDL_DestroyWindow(win), and this thread's context bound again if SDL released it. */
void ws_destroy_window(SDL_Window *win);
/* Binds the replayed traced thread's context on this OS thread again (ws_context.c). */
void ws_rebind(void);

/* ---- separate read drawables (ws_read_drawable.c) ---- */
/* Makes ctx current to draw on window draw and read from window read, as
 * glXMakeContextCurrent(dpy, draw, read, ctx) or eglMakeCurrent(dpy, draw, read, ctx).
 * 1 on success; 0 with SDL's error set. */
int ws_read_bind(SDL_Window *draw, SDL_Window *read, SDL_GLContext ctx);

#endif
