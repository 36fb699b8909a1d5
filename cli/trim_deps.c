/* See trim_deps.h. Beyond the call flags (specs/callflags.txt: NO_SIDE_EFFECTS,
 * END_FRAME, RENDER), the few functions whose state decides where drawing goes are
 * named in ROLES below: the window system's MakeCurrent calls, framebuffer bindings,
 * transform feedback, immediate mode and display lists. */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "trim_deps.h"

enum role {
    R_NONE,
    R_MAKE_CURRENT, /* the context: the argument named "ctx" */
    R_BIND_FB,      /* (target, framebuffer) */
    R_XFB_BEGIN,
    R_XFB_END,
    R_BEGIN,        /* glBegin .. glEnd: immediate mode */
    R_END,
    R_VERTEX,       /* emits a vertex inside glBegin/glEnd and nothing else */
    R_NEW_LIST,     /* glNewList .. glEndList: calls compiled, not executed */
    R_END_LIST,
    R_CALL_LIST,    /* executes a display list: may set state, kept */
};

typedef struct role_entry {
    const char *name;
    enum role role;
} role_entry;

/* sorted by name (bsearch) */
static const role_entry ROLES[] = {
    {"eglMakeCurrent", R_MAKE_CURRENT},
    {"glArrayElement", R_VERTEX},
    {"glArrayElementEXT", R_VERTEX},
    {"glBegin", R_BEGIN},
    {"glBeginTransformFeedback", R_XFB_BEGIN},
    {"glBeginTransformFeedbackEXT", R_XFB_BEGIN},
    {"glBeginTransformFeedbackNV", R_XFB_BEGIN},
    {"glBindFramebuffer", R_BIND_FB},
    {"glBindFramebufferEXT", R_BIND_FB},
    {"glBindFramebufferOES", R_BIND_FB},
    {"glCallList", R_CALL_LIST},
    {"glCallLists", R_CALL_LIST},
    {"glEnd", R_END},
    {"glEndList", R_END_LIST},
    {"glEndTransformFeedback", R_XFB_END},
    {"glEndTransformFeedbackEXT", R_XFB_END},
    {"glEndTransformFeedbackNV", R_XFB_END},
    {"glNewList", R_NEW_LIST},
    {"glXMakeContextCurrent", R_MAKE_CURRENT},
    {"glXMakeCurrent", R_MAKE_CURRENT},
    {"glXMakeCurrentReadSGI", R_MAKE_CURRENT},
};

#define GL_FRAMEBUFFER 0x8D40
#define GL_DRAW_FRAMEBUFFER 0x8CA9

typedef struct ctx_state {
    uint64_t ctx;     /* traced handle; 0: calls before any MakeCurrent */
    uint64_t draw_fb; /* bound draw framebuffer: 0 the window */
    bool xfb;         /* transform feedback active */
} ctx_state;

typedef struct thread_state {
    uint32_t id;
    uint64_t ctx;
    bool in_list;     /* compiling a display list */
    bool in_block;    /* between glBegin and glEnd ... */
    bool block_drops; /* ... of a block drawn into the window, dropped whole */
} thread_state;

struct trim_deps {
    ctx_state *ctxs;
    size_t nctx, capctx;
    thread_state *threads;
    size_t nthreads, capthreads;
};

static int cmp_role(const void *key, const void *e)
{
    return strcmp(key, ((const role_entry *)e)->name);
}

/* glVertex2f ... glVertex4sv, glEvalCoord*, glEvalPoint*: vertices, no state */
static bool is_vertex_name(const char *n)
{
    if (!strncmp(n, "glVertex", 8) && n[8] >= '2' && n[8] <= '4')
        return true;
    return !strncmp(n, "glEvalCoord", 11) || !strncmp(n, "glEvalPoint", 11);
}

static enum role role_of(const gt_func_sig *sig)
{
    const role_entry *e = bsearch(sig->name, ROLES, sizeof ROLES / sizeof *ROLES, sizeof *ROLES,
                                  cmp_role);
    if (e)
        return e->role;
    return is_vertex_name(sig->name) ? R_VERTEX : R_NONE;
}

static uint64_t arg_u64(const gt_call *c, uint32_t i)
{
    if (i >= c->num_args)
        return 0;
    const gt_value *v = &c->args[i];
    switch (v->kind) {
    case GT_SINT: return (uint64_t)v->i;
    case GT_UINT:
    case GT_POINTER: return v->u;
    case GT_ENUM: return (uint64_t)v->en.v;
    default: return 0;
    }
}

static uint64_t arg_named(const gt_call *c, const char *name)
{
    for (uint32_t i = 0; i < c->sig->num_args && i < c->num_args; ++i)
        if (c->sig->arg_names[i] && !strcmp(c->sig->arg_names[i], name))
            return arg_u64(c, i);
    return 0;
}

trim_deps *trim_deps_new(void) { return calloc(1, sizeof(trim_deps)); }

void trim_deps_free(trim_deps *d)
{
    if (!d)
        return;
    free(d->ctxs);
    free(d->threads);
    free(d);
}

/* NULL when D has never seen the thread: it is then in its initial state. */
static const thread_state *find_thread(const trim_deps *d, uint32_t id)
{
    for (size_t i = 0; i < d->nthreads; ++i)
        if (d->threads[i].id == id)
            return &d->threads[i];
    return NULL;
}

static const ctx_state *find_ctx(const trim_deps *d, uint64_t ctx)
{
    for (size_t i = 0; i < d->nctx; ++i)
        if (d->ctxs[i].ctx == ctx)
            return &d->ctxs[i];
    return NULL;
}

static thread_state *get_thread(trim_deps *d, uint32_t id)
{
    thread_state *t = (thread_state *)find_thread(d, id);
    if (t)
        return t;
    if (GT_GROW(d->threads, d->capthreads, d->nthreads + 1, 4) != 0)
        return NULL;
    t = &d->threads[d->nthreads++];
    memset(t, 0, sizeof *t);
    t->id = id;
    return t;
}

static ctx_state *get_ctx(trim_deps *d, uint64_t ctx)
{
    ctx_state *s = (ctx_state *)find_ctx(d, ctx);
    if (s)
        return s;
    if (GT_GROW(d->ctxs, d->capctx, d->nctx + 1, 4) != 0)
        return NULL;
    s = &d->ctxs[d->nctx++];
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    return s;
}

/* Whether drawing now on thread T reaches only the window. */
static bool draws_to_window(const trim_deps *d, const thread_state *t)
{
    const ctx_state *s = find_ctx(d, t ? t->ctx : 0);
    return !s || (s->draw_fb == 0 && !s->xfb);
}

bool trim_deps_needed(const trim_deps *d, const gt_call *c)
{
    if (!c->sig)
        return false;
    const thread_state *t = find_thread(d, c->thread);
    if (t && t->in_list)
        return true; /* compiled into a list the selection may call */
    enum role r = role_of(c->sig);
    switch (r) {
    case R_BEGIN: return !draws_to_window(d, t);
    case R_END:
    case R_VERTEX: return !(t && t->in_block && t->block_drops);
    case R_CALL_LIST: return true;
    default: break;
    }
    if (c->sig->flags & (GT_CALL_FLAG_NO_SIDE_EFFECTS | GT_CALL_FLAG_END_FRAME))
        return false;
    if (c->sig->flags & GT_CALL_FLAG_RENDER)
        return !draws_to_window(d, t);
    return true;
}

int trim_deps_track(trim_deps *d, const gt_call *c)
{
    if (!c->sig)
        return 0;
    enum role r = role_of(c->sig);
    if (r == R_NONE)
        return 0;
    thread_state *t = get_thread(d, c->thread);
    if (!t)
        return -1;
    ctx_state *s = get_ctx(d, t->ctx);
    if (!s)
        return -1;
    switch (r) {
    case R_MAKE_CURRENT:
        t->ctx = arg_named(c, "ctx");
        return get_ctx(d, t->ctx) ? 0 : -1;
    case R_BIND_FB: {
        uint64_t target = arg_u64(c, 0);
        if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER)
            s->draw_fb = arg_u64(c, 1);
        return 0;
    }
    case R_XFB_BEGIN: s->xfb = true; return 0;
    case R_XFB_END: s->xfb = false; return 0;
    case R_BEGIN:
        if (t->in_list) /* compiled, not executed */
            return 0;
        t->in_block = true;
        t->block_drops = draws_to_window(d, t);
        return 0;
    case R_END:
        if (!t->in_list)
            t->in_block = false;
        return 0;
    case R_NEW_LIST: t->in_list = true; return 0;
    case R_END_LIST: t->in_list = false; return 0;
    default: return 0;
    }
}
