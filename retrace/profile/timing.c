/* The CPU clock and the GPU timer-query pools of glretrace --pcpu/--pgpu (timing.h). */
#include <SDL.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gt_grow.h"
#include "timing.h"

int64_t timing_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t timing_finished_ns(void)
{
    glFinish();
    return timing_now_ns();
}

enum {
    MODE_UNKNOWN = 0,
    MODE_NONE,
    MODE_TIMESTAMP,     /* glQueryCounter (GL 3.3, ARB_timer_query) */
    MODE_TIMESTAMP_EXT, /* glQueryCounterEXT (GLES, EXT_disjoint_timer_query) */
    MODE_ELAPSED,       /* GL_TIME_ELAPSED (EXT_timer_query) */
    MODE_ELAPSED_EXT,   /* GL_TIME_ELAPSED_EXT (GLES, EXT_disjoint_timer_query) */
};

#define ID_CHUNK 64

typedef struct tg_entry {
    GLuint q[2];
    uint64_t tag;
} tg_entry;

typedef struct tg_batch {
    tg_entry *e;
    size_t n, cap;
    int64_t offset; /* CPU ns - GL ns at the anchor */
    bool anchored;
} tg_batch;

typedef struct tg_ctx {
    void *key; /* SDL_GLContext */
    int mode;
    GLuint *ids; /* free query names */
    size_t nids, capids;
    tg_batch open;
    tg_batch closed[TIMING_MAX_BATCHES + 1]; /* FIFO, oldest first */
    size_t nclosed;
} tg_ctx;

static struct {
    timing_gpu_cb cb;
    void *cb_ctx;
    tg_ctx **ctxs;
    size_t nctx, capctx;
    tg_ctx *active; /* between begin and end */
    int active_handle;
    uint64_t done, lost;
    int64_t max_window; /* widest anchor read window, ns */
} g;

int timing_gpu_init(timing_gpu_cb cb, void *cb_ctx)
{
    g.cb = cb;
    g.cb_ctx = cb_ctx;
    g.done = g.lost = 0; /* a replay's own counts, when several run in one process */
    g.max_window = 0;
    return 1;
}

static bool is_ext(const tg_ctx *c)
{
    return c->mode == MODE_TIMESTAMP_EXT || c->mode == MODE_ELAPSED_EXT;
}

static bool has_timestamps(const tg_ctx *c)
{
    return c->mode == MODE_TIMESTAMP || c->mode == MODE_TIMESTAMP_EXT;
}

/* Our queries must not leave errors for the replay's glGetError check. */
static void clear_gl_errors(void)
{
    for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i)
        ;
}

static int detect_mode(void)
{
    bool desktop = epoxy_is_desktop_gl();
    int ver = epoxy_gl_version();
    if (desktop) {
        if (ver >= 33 || epoxy_has_gl_extension("GL_ARB_timer_query"))
            return MODE_TIMESTAMP;
        return epoxy_has_gl_extension("GL_EXT_timer_query") ? MODE_ELAPSED : MODE_NONE;
    }
    if (!epoxy_has_gl_extension("GL_EXT_disjoint_timer_query"))
        return MODE_NONE;
    GLint bits = 0;
    glGetQueryivEXT(GL_TIMESTAMP_EXT, GL_QUERY_COUNTER_BITS_EXT, &bits);
    clear_gl_errors();
    return bits > 0 ? MODE_TIMESTAMP_EXT : MODE_ELAPSED_EXT;
}

static tg_ctx *find_ctx(void *key)
{
    for (size_t i = 0; i < g.nctx; ++i)
        if (g.ctxs[i]->key == key)
            return g.ctxs[i];
    return NULL;
}

static tg_ctx *current_ctx(bool create)
{
    void *key = SDL_GL_GetCurrentContext();
    if (!key)
        return NULL;
    tg_ctx *c = find_ctx(key);
    if (c || !create)
        return c;
    if (GT_GROW(g.ctxs, g.capctx, g.nctx + 1, 4) != 0)
        return NULL;
    c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->key = key;
    c->mode = detect_mode();
    if (c->mode == MODE_NONE)
        fprintf(stderr, "glretrace: warning: --pgpu: this context has no timer queries (GL 3.3, "
                        "GL_ARB_timer_query, GL_EXT_timer_query or GL_EXT_disjoint_timer_query): "
                        "no GPU times for its calls\n");
    g.ctxs[g.nctx++] = c;
    return c;
}

static int take_ids(tg_ctx *c, GLuint out[2], int n)
{
    if (c->nids < (size_t)n) {
        if (c->capids < c->nids + ID_CHUNK) { /* not gt_grow: grows by ID_CHUNK, not doubling */
            GLuint *a = realloc(c->ids, (c->nids + ID_CHUNK) * sizeof *a);
            if (!a)
                return 0;
            c->ids = a;
            c->capids = c->nids + ID_CHUNK;
        }
        if (is_ext(c))
            glGenQueriesEXT(ID_CHUNK, c->ids + c->nids);
        else
            glGenQueries(ID_CHUNK, c->ids + c->nids);
        c->nids += ID_CHUNK;
    }
    for (int i = 0; i < n; ++i)
        out[i] = c->ids[--c->nids];
    return 1;
}

static void give_ids(tg_ctx *c, const tg_entry *e)
{
    int n = has_timestamps(c) ? 2 : 1;
    if (c->nids + (size_t)n > c->capids)
        return; /* cannot happen: every id came from this array */
    for (int i = 0; i < n; ++i)
        c->ids[c->nids++] = e->q[i];
}

/* Reads GL's clock between two reads of ours. */
static void anchor(tg_ctx *c, tg_batch *b)
{
    b->anchored = false;
    if (!has_timestamps(c))
        return;
    if (c->mode == MODE_TIMESTAMP_EXT) {
        GLint disjoint = 0; /* reading it clears it: the batch starts clean */
        glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
        if (epoxy_gl_version() < 30)
            return; /* GLES 2 has no glGetInteger64v: start times follow the CPU */
    }
    GLint64 gl = 0;
    int64_t t0 = timing_now_ns();
    glGetInteger64v(GL_TIMESTAMP, &gl);
    int64_t t1 = timing_now_ns();
    clear_gl_errors();
    if (gl <= 0)
        return;
    if (t1 - t0 > g.max_window)
        g.max_window = t1 - t0;
    b->offset = t0 + (t1 - t0) / 2 - (int64_t)gl;
    b->anchored = true;
}

static bool elapsed_busy(const tg_ctx *c)
{
    GLint cur = 0; /* the program's own GL_TIME_ELAPSED query is running: leave it be */
    if (c->mode == MODE_ELAPSED)
        glGetQueryiv(GL_TIME_ELAPSED, GL_CURRENT_QUERY, &cur);
    else
        glGetQueryivEXT(GL_TIME_ELAPSED_EXT, GL_CURRENT_QUERY_EXT, &cur);
    return cur != 0;
}

int timing_gpu_begin(void)
{
    g.active = NULL;
    tg_ctx *c = current_ctx(true);
    if (!c || c->mode == MODE_NONE)
        return -1;
    if (!has_timestamps(c) && elapsed_busy(c))
        return -1;
    tg_batch *b = &c->open;
    if (GT_GROW(b->e, b->cap, b->n + 1, 64) != 0)
        return -1;
    if (b->n == 0)
        anchor(c, b);
    tg_entry *e = &b->e[b->n];
    if (!take_ids(c, e->q, has_timestamps(c) ? 2 : 1))
        return -1;
    switch (c->mode) {
    case MODE_TIMESTAMP: glQueryCounter(e->q[0], GL_TIMESTAMP); break;
    case MODE_TIMESTAMP_EXT: glQueryCounterEXT(e->q[0], GL_TIMESTAMP_EXT); break;
    case MODE_ELAPSED: glBeginQuery(GL_TIME_ELAPSED, e->q[0]); break;
    default: glBeginQueryEXT(GL_TIME_ELAPSED_EXT, e->q[0]); break;
    }
    g.active = c;
    g.active_handle = (int)b->n;
    return (int)b->n++;
}

void timing_gpu_end(int handle, uint64_t tag)
{
    tg_ctx *c = g.active;
    g.active = NULL;
    if (handle < 0 || !c || handle != g.active_handle || c->key != SDL_GL_GetCurrentContext() ||
        (size_t)handle >= c->open.n)
        return;
    tg_entry *e = &c->open.e[handle];
    e->tag = tag;
    switch (c->mode) {
    case MODE_TIMESTAMP: glQueryCounter(e->q[1], GL_TIMESTAMP); break;
    case MODE_TIMESTAMP_EXT: glQueryCounterEXT(e->q[1], GL_TIMESTAMP_EXT); break;
    case MODE_ELAPSED: glEndQuery(GL_TIME_ELAPSED); break;
    default: glEndQueryEXT(GL_TIME_ELAPSED_EXT); break;
    }
}

static GLuint64 result(const tg_ctx *c, GLuint q)
{
    GLuint64 v = 0;
    if (is_ext(c))
        glGetQueryObjectui64vEXT(q, GL_QUERY_RESULT_EXT, &v);
    else
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &v);
    return v;
}

static bool available(const tg_ctx *c, const tg_batch *b)
{
    const tg_entry *e = &b->e[b->n - 1];
    GLuint q = e->q[has_timestamps(c) ? 1 : 0];
    GLuint avail = 0;
    if (is_ext(c))
        glGetQueryObjectuivEXT(q, GL_QUERY_RESULT_AVAILABLE_EXT, &avail);
    else
        glGetQueryObjectuiv(q, GL_QUERY_RESULT_AVAILABLE, &avail);
    return avail != 0;
}

static void deliver(tg_ctx *c, const tg_batch *b, size_t i, bool valid)
{
    const tg_entry *e = &b->e[i];
    timing_gpu_result r = {.tag = e->tag, .valid = valid};
    if (valid && has_timestamps(c)) {
        GLuint64 s = result(c, e->q[0]), t = result(c, e->q[1]);
        r.has_start = b->anchored;
        r.start_ns = (int64_t)s + b->offset;
        r.dur_ns = t > s ? (int64_t)(t - s) : 0;
    } else if (valid) {
        r.dur_ns = (int64_t)result(c, e->q[0]);
    }
    if (valid)
        g.done++;
    else
        g.lost++;
    if (g.cb)
        g.cb(g.cb_ctx, &r);
}

/* Reads (waiting when needed) the oldest closed batch, or reports it lost. */
static void read_oldest(tg_ctx *c, bool valid)
{
    tg_batch b = c->closed[0];
    memmove(c->closed, c->closed + 1, (c->nclosed - 1) * sizeof *c->closed);
    c->nclosed--;
    if (valid && c->mode == MODE_TIMESTAMP_EXT) {
        GLint disjoint = 0;
        glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
        valid = !disjoint;
    }
    for (size_t i = 0; i < b.n; ++i) {
        deliver(c, &b, i, valid);
        if (valid)
            give_ids(c, &b.e[i]);
    }
    free(b.e);
}

static void close_open(tg_ctx *c)
{
    if (c->open.n == 0)
        return;
    if (c->nclosed == TIMING_MAX_BATCHES + 1)
        read_oldest(c, true); /* the GPU is far behind: wait for the oldest */
    c->closed[c->nclosed++] = c->open;
    memset(&c->open, 0, sizeof c->open);
}

void timing_gpu_poll(void)
{
    tg_ctx *c = current_ctx(false);
    if (!c || g.active)
        return;
    close_open(c);
    while (c->nclosed > TIMING_MAX_BATCHES)
        read_oldest(c, true);
    while (c->nclosed && available(c, &c->closed[0]))
        read_oldest(c, true);
    clear_gl_errors();
}

void timing_gpu_drain_current(void)
{
    tg_ctx *c = current_ctx(false);
    if (!c)
        return;
    g.active = NULL;
    close_open(c);
    while (c->nclosed)
        read_oldest(c, true);
    clear_gl_errors();
}

/* Reports c's pending queries lost and forgets c. */
static void drop_ctx(size_t i)
{
    tg_ctx *c = g.ctxs[i];
    if (g.active == c)
        g.active = NULL;
    while (c->nclosed)
        read_oldest(c, false);
    for (size_t k = 0; k < c->open.n; ++k)
        deliver(c, &c->open, k, false);
    free(c->open.e);
    free(c->ids);
    free(c);
    g.ctxs[i] = g.ctxs[--g.nctx];
}

void timing_gpu_context_destroyed(void *ctx)
{
    for (size_t i = 0; i < g.nctx; ++i) {
        if (g.ctxs[i]->key != ctx)
            continue;
        if (SDL_GL_GetCurrentContext() == ctx)
            timing_gpu_drain_current();
        drop_ctx(i);
        return;
    }
}

void timing_gpu_finish(void)
{
    timing_gpu_drain_current();
    while (g.nctx)
        drop_ctx(g.nctx - 1);
    free(g.ctxs);
    g.ctxs = NULL;
    g.capctx = 0;
}

void timing_gpu_stats(uint64_t *done, uint64_t *lost, int64_t *max_window)
{
    *done = g.done;
    *lost = g.lost;
    *max_window = g.max_window;
}
