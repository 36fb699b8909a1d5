/* glretrace's profiling (timeline_replay.h): per-call CPU and GPU times turned into
 * timeline events and apitrace's text profile.
 *
 * What is special about a function is worked out once per signature (sig_info) from
 * its call flags (specs/callflags.txt) and roles (specs/roles.txt), never by name
 * tests in the code. The FXT and JSON writers (timeline_replay_out.h) run on a thread
 * of their own, off the replay's path. */
#include <SDL.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gt_callstate.h"
#include "gt_grow.h"
#include "gt_roles.h"
#include "gt_timeline.h"
#include "gt_timeline_frame.h"
#include "pixels_mem.h"
#include "profile_text.h"
#include "timeline_replay.h"
#include "timeline_replay_out.h"
#include "timeline_replay_stacks.h"
#include "timing.h"

#define MAX_DRAW_ARGS 8
#define MAX_ARGS (2 + MAX_DRAW_ARGS)
#define MAX_PENDING_GPU (1u << 20)
/* GPU work of one context runs in the order it was issued (timer queries do not
 * overlap), so it is never laid before the end of that context's previous work: batches
 * are anchored separately, and their anchors differ by the mapping error (timing.h),
 * which grows when the replaying thread is preempted during an anchor's read window (a
 * loaded machine). Another context's work that maps to before the end of the previous
 * work by less than this is moved after it too; by more, it is real overlap. */
#define GPU_REORDER_NS 10000

typedef struct sig_info {
    bool init;
    bool gl;  /* a GL function with side effects or a debug marker (not GLX/EGL/fake
               * memcpy): what apitrace replays, and so lists in the text profile */
    bool gpu; /* GPU work */
    gt_roles roles;
    uint8_t marker; /* 0, 1 push, 2 pop, 3 instant */
    int8_t text_arg, len_arg;
    uint8_t ndraw;
    uint8_t draw_idx[MAX_DRAW_ARGS];
    gt_tl_str name;
    gt_tl_str draw_name[MAX_DRAW_ARGS];
} sig_info;

typedef struct ctx_state {
    void *key;
    gt_callstate cs;
    int begin_handle; /* GPU query of glBegin, ended at glEnd */
    uint64_t begin_tag, begin_rec;
    int64_t begin_t0;
    unsigned begin_pix; /* --ppd's query of glBegin, ended at glEnd */
    uint64_t begin_pix_rec;
    int64_t gpu_last_end; /* end of this context's latest GPU work laid out */
} ctx_state;

typedef struct gpu_pending {
    void *ctx; /* the context's key (ctx_state.key): NULL when none was current */
    uint32_t call, frame, thread;
    gt_tl_str name;
    int64_t cpu_ts;
    uint64_t rec; /* text profile record */
    bool done;
} gpu_pending;

static struct {
    bool on, failed;
    tlr_options o;
    gt_timeline tl;
    tlr_out out; /* the writers (timeline_replay_out.h) */
    gt_error err;
    int64_t base;
    gt_tl_frame_strs fs; /* the frame counter's strings (gt_timeline_frame.h) */
    gt_tl_str s_gl, s_gpu, s_marker, s_call, s_frame;
    sig_info *sigs;
    size_t nsigs;
    ctx_state *ctxs;
    size_t nctx, capctx;
    replay_thread *cur; /* the traced thread replayed now (replay_threads.h) */
    /* the call between tlr_before and tlr_after */
    int64_t t0;
    int gpu_handle;
    unsigned pix_query;    /* --ppd: the call's query */
    bool pix_draw;         /* ... the call is a draw call (a pixels column >= 0) */
    int64_t vsize0, rss0; /* --pmem: at the call's start */
    bool replayed;
    ctx_state *cctx;
    /* frames */
    uint32_t frame;
    uint64_t frame_calls;
    int64_t frame_start;
    bool frame_started;
    int64_t last_ts;
    uint64_t last_tid; /* the track of the latest call */
    /* GPU results waiting: FIFO indexed by tag - first_tag */
    gpu_pending *gp;
    size_t gp_head, gp_n, gp_cap;
    uint64_t gp_first;
    int64_t gpu_last_end;
    tlr_stacks stacks;
    uint64_t events;
} t;

/* ---- output ------------------------------------------------------------------------ */

static void emit(gt_tl_event *ev)
{
    if (t.failed || !t.out.sink)
        return;
    ev->pid = ev->pid ? ev->pid : TLR_PID;
    if (gt_tl_emit(t.out.sink, &t.tl, ev, &t.err) != 0)
        t.failed = true;
    t.events++;
}

static gt_tl_str intern(const char *s, size_t n)
{
    gt_tl_str id = gt_tl_intern(&t.tl, s, n);
    if (id == (gt_tl_str)-1) {
        gt_error_set(&t.err, "out of memory");
        t.failed = true;
        return 0;
    }
    return id;
}

static gt_tl_str cstr(const char *s) { return intern(s, strlen(s)); }

static uint64_t thread_tid(uint32_t thread) { return (uint64_t)thread + 1; }

static void name_track(gt_tl_kind kind, uint64_t tid, const char *name)
{
    gt_tl_event ev = {.kind = kind, .tid = tid, .name = cstr(name)};
    emit(&ev);
}

/* ---- per-signature facts --------------------------------------------------------- */

static void classify(sig_info *s, const gt_func_sig *sig)
{
    s->init = true;
    s->name = cstr(sig->name);
    s->roles = gt_roles_lookup(sig->name);
    uint32_t roles = s->roles.bits;
    /* apitrace's replayers return before profiling the unlisted */
    s->gl = (roles & GT_ROLE_GL) && !(roles & GT_ROLE_UNLISTED) &&
            (!(sig->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS) || (sig->flags & GT_CALL_FLAG_MARKER));
    s->gpu = ((sig->flags & (GT_CALL_FLAG_RENDER | GT_CALL_FLAG_END_FRAME)) || (roles & GT_ROLE_GPU)) &&
             !(roles & GT_ROLE_END); /* glBegin's query spans to glEnd */
    if (sig->flags & GT_CALL_FLAG_MARKER)
        s->marker = (sig->flags & GT_CALL_FLAG_MARKER_PUSH)  ? 1
                    : (sig->flags & GT_CALL_FLAG_MARKER_POP) ? 2
                                                             : 3;
    s->text_arg = (int8_t)gt_roles_find_arg(sig, gt_roles_marker_text_args);
    s->len_arg = (int8_t)gt_roles_find_arg(sig, gt_roles_marker_length_args);
    if (!s->gpu)
        return;
    for (uint32_t i = 0; i < sig->num_args && i < 127 && s->ndraw < MAX_DRAW_ARGS; ++i)
        for (const char *const *n = gt_roles_draw_args; *n; ++n)
            if (sig->arg_names && sig->arg_names[i] && !strcmp(sig->arg_names[i], *n)) {
                s->draw_idx[s->ndraw] = (uint8_t)i;
                s->draw_name[s->ndraw++] = cstr(*n);
                break;
            }
}

static sig_info *info(const gt_func_sig *sig)
{
    if (sig->id >= t.nsigs) {
        size_t n = t.nsigs;
        if (GT_GROW(t.sigs, n, (size_t)sig->id + 1, 256) != 0)
            return NULL;
        memset(t.sigs + t.nsigs, 0, (n - t.nsigs) * sizeof *t.sigs);
        t.nsigs = n;
    }
    sig_info *s = &t.sigs[sig->id];
    if (!s->init)
        classify(s, sig);
    return s;
}

/* ---- threads and contexts ---------------------------------------------------------- */

/* Names a traced thread's track when the replay first turns to it. */
static void name_thread(replay_thread *th)
{
    if (th->named)
        return;
    th->named = true;
    char name[32];
    snprintf(name, sizeof name, "thread %u", th->id);
    name_track(GT_TL_THREAD_NAME, thread_tid(th->id), name);
}

static ctx_state *ctx_by_key(void *key)
{
    for (size_t i = 0; key && i < t.nctx; ++i)
        if (t.ctxs[i].key == key)
            return &t.ctxs[i];
    return NULL;
}

static ctx_state *current_ctx(void)
{
    void *key = SDL_GL_GetCurrentContext();
    if (!key)
        return NULL;
    ctx_state *known = ctx_by_key(key);
    if (known)
        return known;
    if (GT_GROW(t.ctxs, t.capctx, t.nctx + 1, 4) != 0)
        return NULL;
    ctx_state *c = &t.ctxs[t.nctx++];
    memset(c, 0, sizeof *c);
    c->key = key;
    c->begin_handle = -1;
    return c;
}

void tlr_context_destroyed(void *ctx)
{
    if (!t.on)
        return;
    timing_gpu_context_destroyed(ctx);
    for (size_t i = 0; i < t.nctx; ++i)
        if (t.ctxs[i].key == ctx) {
            t.ctxs[i] = t.ctxs[--t.nctx];
            break;
        }
}

/* ---- events of a call -------------------------------------------------------------- */

static gt_tl_arg value_arg(gt_tl_str name, const gt_value *v)
{
    gt_tl_arg a = {.name = name, .kind = GT_TL_ARG_NULL};
    switch (v->kind) {
    case GT_BOOL: a.kind = GT_TL_ARG_BOOL, a.v.b = v->b; break;
    case GT_SINT: a.kind = GT_TL_ARG_I64, a.v.i = v->i; break;
    case GT_UINT: a.kind = GT_TL_ARG_U64, a.v.u = v->u; break;
    case GT_BITMASK: a.kind = GT_TL_ARG_U64, a.v.u = v->bm.v; break;
    case GT_FLOAT: a.kind = GT_TL_ARG_DOUBLE, a.v.d = v->f; break;
    case GT_DOUBLE: a.kind = GT_TL_ARG_DOUBLE, a.v.d = v->d; break;
    case GT_ENUM: {
        const char *n = gt_enum_name(v->en.sig, v->en.v);
        if (n) {
            a.kind = GT_TL_ARG_STRING;
            a.v.s.p = n;
            a.v.s.len = (uint32_t)strlen(n);
        } else {
            a.kind = GT_TL_ARG_I64, a.v.i = v->en.v;
        }
        break;
    }
    case GT_REPR: return v->repr.machine ? value_arg(name, v->repr.machine) : a;
    default: break;
    }
    return a;
}

static uint32_t call_args(const gt_call *c, const sig_info *s, gt_tl_arg *a, bool draw)
{
    uint32_t n = 0;
    a[n++] = (gt_tl_arg){.name = t.s_call, .kind = GT_TL_ARG_U32, .v.u = c->no};
    a[n++] = (gt_tl_arg){.name = t.s_frame, .kind = GT_TL_ARG_U32, .v.u = t.frame};
    for (uint8_t i = 0; draw && i < s->ndraw; ++i)
        if (s->draw_idx[i] < c->num_args && c->args[s->draw_idx[i]].kind != GT_ABSENT)
            a[n++] = value_arg(s->draw_name[i], &c->args[s->draw_idx[i]]);
    return n;
}

/* The marker's text: the string argument, cut at a positive length argument. */
static gt_tl_str marker_name(const gt_call *c, const sig_info *s)
{
    if (s->text_arg < 0 || (uint32_t)s->text_arg >= c->num_args)
        return 0;
    const gt_value *v = &c->args[s->text_arg];
    if (v->kind != GT_STRING)
        return 0;
    size_t len = v->str.len;
    if (s->len_arg >= 0 && (uint32_t)s->len_arg < c->num_args) {
        const gt_value *l = &c->args[s->len_arg];
        int64_t n = l->kind == GT_SINT ? l->i : l->kind == GT_UINT ? (int64_t)l->u : -1;
        if (n > 0 && (uint64_t)n < len)
            len = (size_t)n;
    }
    return intern(v->str.s, len);
}

static void emit_marker(const gt_call *c, const sig_info *s, int64_t ts, bool before)
{
    replay_thread *th = t.cur;
    gt_tl_event ev = {.ts = ts, .tid = thread_tid(c->thread), .cat = t.s_marker};
    if (s->marker == 1 && before) {
        ev.kind = GT_TL_BEGIN;
        ev.name = marker_name(c, s);
        if (th)
            th->depth++;
    } else if (s->marker == 2 && !before && th && th->depth) {
        ev.kind = GT_TL_END;
        th->depth--;
    } else if (s->marker == 3 && !before) {
        ev.kind = GT_TL_INSTANT;
        ev.scope = GT_TL_SCOPE_THREAD;
        ev.name = marker_name(c, s);
    } else {
        return;
    }
    emit(&ev);
}

static void frame_instant(int64_t ts)
{
    gt_tl_arg a = {.name = t.s_frame, .kind = GT_TL_ARG_U32, .v.u = t.frame};
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .ts = ts, .name = t.s_frame,
                      .scope = GT_TL_SCOPE_PROCESS, .nargs = 1, .args = &a};
    emit(&ev);
    t.frame_start = ts;
    t.frame_started = true;
    t.frame_calls = 0;
}

static void frame_counter(int64_t end, uint64_t tid)
{
    gt_tl_arg a[2];
    gt_tl_event ev = gt_tl_frame_counter(&t.fs, a, TLR_PID, tid, t.frame_start, end, t.frame_calls);
    emit(&ev);
}

/* ---- GPU results ------------------------------------------------------------------- */

static gpu_pending *gp_find(uint64_t tag)
{
    if (tag < t.gp_first || tag - t.gp_first >= t.gp_n - t.gp_head)
        return NULL;
    return &t.gp[t.gp_head + (tag - t.gp_first)];
}

static void gp_pop_done(bool force)
{
    while (t.gp_head < t.gp_n && (force || t.gp[t.gp_head].done)) {
        if (!t.gp[t.gp_head].done && t.o.text)
            profile_text_gpu(t.gp[t.gp_head].rec, false, 0, 0);
        t.gp_head++;
        t.gp_first++;
    }
    if (t.gp_head == t.gp_n) {
        t.gp_head = t.gp_n = 0;
    } else if (t.gp_head > t.gp_cap / 2) {
        memmove(t.gp, t.gp + t.gp_head, (t.gp_n - t.gp_head) * sizeof *t.gp);
        t.gp_n -= t.gp_head;
        t.gp_head = 0;
    }
}

/* A GPU event waiting for its queries; returns its tag (UINT64_MAX: none). */
static uint64_t gp_add(const gt_call *c, const sig_info *s, int64_t cpu_ts, uint64_t rec)
{
    if (t.gp_n - t.gp_head >= MAX_PENDING_GPU) { /* a context never current again */
        t.gp[t.gp_head].done = false;
        gp_pop_done(true);
    }
    if (GT_GROW(t.gp, t.gp_cap, t.gp_n + 1, 1024) != 0)
        return UINT64_MAX;
    gpu_pending *p = &t.gp[t.gp_n++];
    *p = (gpu_pending){.ctx = t.cctx ? t.cctx->key : NULL, .call = c->no, .frame = t.frame,
                       .thread = c->thread, .name = s->name, .cpu_ts = cpu_ts, .rec = rec};
    return t.gp_first + (t.gp_n - 1 - t.gp_head);
}

static void on_gpu_result(void *ctx, const timing_gpu_result *r)
{
    (void)ctx;
    gpu_pending *p = gp_find(r->tag);
    if (!p || p->done)
        return;
    p->done = true;
    int64_t ts = 0;
    if (r->valid) {
        /* without timestamps (GL_TIME_ELAPSED) the work is laid after the previous
         * GPU work, from the call's CPU start */
        ts = r->has_start ? r->start_ns : (p->cpu_ts > t.gpu_last_end ? p->cpu_ts : t.gpu_last_end);
        if (ts < t.gpu_last_end && t.gpu_last_end - ts < GPU_REORDER_NS)
            ts = t.gpu_last_end;
        ctx_state *cc = ctx_by_key(p->ctx);
        if (cc && ts < cc->gpu_last_end)
            ts = cc->gpu_last_end;
        if (cc)
            cc->gpu_last_end = ts + r->dur_ns;
        if (ts + r->dur_ns > t.gpu_last_end)
            t.gpu_last_end = ts + r->dur_ns;
        gt_tl_arg a[2] = {
            {.name = t.s_call, .kind = GT_TL_ARG_U32, .v.u = p->call},
            {.name = t.s_frame, .kind = GT_TL_ARG_U32, .v.u = p->frame},
        };
        gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = ts - t.base, .dur = r->dur_ns,
                          .tid = GT_TL_GPU_TID(TLR_PID), .cat = t.s_gpu, .name = p->name,
                          .nargs = 2, .args = a};
        emit(&ev);
    }
    if (t.o.text)
        profile_text_gpu(p->rec, r->valid, ts, r->dur_ns);
    gp_pop_done(false);
}

/* ---- the call hooks -------------------------------------------------------------- */

bool tlr_active(void) { return t.on; }

void tlr_switch_thread(replay_thread *th)
{
    if (!t.on || t.cur == th)
        return;
    if (t.cur) {
        if (t.o.text)
            profile_text_commit();
        if (t.o.pgpu)
            timing_gpu_poll();
    }
    t.cur = th;
    name_thread(th);
}

void tlr_first_frame(uint32_t frame)
{
    t.frame = frame;
}

void tlr_before(const gt_call *c, bool replayed)
{
    if (!t.on)
        return;
    sig_info *s = info(c->sig);
    t.replayed = replayed;
    t.gpu_handle = -1;
    t.cctx = NULL;
    if (s && (replayed || s->marker) && s->gl && (t.o.text || t.o.pgpu))
        t.cctx = current_ctx();
    if (s && (s->roles.bits & GT_ROLE_CURRENT)) {
        if (t.o.pgpu) /* read while current: a wait per MakeCurrent, not per call */
            timing_gpu_drain_current();
        if (t.o.text) /* apitrace flushes its queries there too */
            profile_text_commit();
    }
    ctx_state *cc = t.cctx;
    if (s && replayed && t.o.pgpu && s->gpu && (!cc || (!cc->cs.in_list && !cc->cs.in_begin_end)))
        t.gpu_handle = timing_gpu_begin();
    t.pix_query = 0;
    /* apitrace's draw calls (glBegin: until glEnd), not all GPU work (glBeginQuery) */
    t.pix_draw = s && replayed && t.o.text && t.o.ppd &&
                 (s->roles.bits & (GT_ROLE_DRAW | GT_ROLE_BEGIN)) &&
                 !(s->roles.bits & GT_ROLE_END) && cc && !cc->cs.in_list && !cc->cs.in_begin_end;
    if (t.pix_draw)
        t.pix_query = pixels_begin();
    if (t.o.text && t.o.pmem)
        mem_usage(&t.vsize0, &t.rss0);
    t.t0 = timing_now_ns();
    if (!t.frame_started)
        frame_instant(t.t0 - t.base);
}

/* The text profile's record of a GL call, apitrace's way: not inside display lists nor
 * between glBegin and glEnd; glBegin's record lasts until glEnd. */
static uint64_t text_record(const gt_call *c, const sig_info *s, ctx_state *cc, int64_t t1,
                            bool gpu)
{
    if (!t.o.text || !cc || !s->gl || (!t.replayed && !s->marker))
        return UINT64_MAX; /* markers apitrace replays and we need not (no side effects) */
    uint32_t roles = s->roles.bits;
    if ((roles & GT_ROLE_END) && cc->begin_rec != UINT64_MAX) {
        profile_text_set_cpu(cc->begin_rec, t1 - cc->begin_t0);
        cc->begin_rec = UINT64_MAX;
        return UINT64_MAX;
    }
    bool in_list = cc->cs.in_list && !(roles & GT_ROLE_ENDLIST); /* glEndList is listed, */
    if (in_list || cc->cs.in_begin_end || (roles & (GT_ROLE_NEWLIST | GT_ROLE_END))) /* glNewList not */
        return UINT64_MAX;
    return profile_text_call(c->no, c->sig->name, cc->cs.program, t.t0, t1 - t.t0, gpu);
}

static void call_gpu_end(const gt_call *c, const sig_info *s, ctx_state *cc, uint64_t rec)
{
    if ((s->roles.bits & GT_ROLE_END) && cc && cc->begin_handle >= 0) {
        timing_gpu_end(cc->begin_handle, cc->begin_tag);
        cc->begin_handle = -1;
        return;
    }
    if (t.gpu_handle < 0)
        return;
    uint64_t tag = gp_add(c, s, t.t0, rec);
    if ((s->roles.bits & GT_ROLE_BEGIN) && cc) { /* ended after glEnd */
        cc->begin_handle = t.gpu_handle;
        cc->begin_tag = tag;
        return;
    }
    timing_gpu_end(t.gpu_handle, tag);
}

/* --ppd's and --pmem's columns of the record of a call just replayed. */
static void pixels_mem_after(const sig_info *s, ctx_state *cc, uint64_t rec)
{
    if (t.o.text && t.o.pmem && rec != UINT64_MAX) {
        int64_t vsize, rss;
        mem_usage(&vsize, &rss);
        profile_text_mem(rec, t.vsize0, vsize - t.vsize0, t.rss0, rss - t.rss0);
    }
    if (t.pix_query && cc && (s->roles.bits & GT_ROLE_BEGIN)) { /* counted until glEnd */
        cc->begin_pix = t.pix_query;
        cc->begin_pix_rec = rec;
    } else if (t.pix_draw) { /* a draw call without a query: 0, as apitrace's failed one */
        profile_text_pixels(rec, pixels_end(t.pix_query));
    }
    t.pix_query = 0;
    t.pix_draw = false;
    if (cc && cc->begin_pix && (s->roles.bits & GT_ROLE_END)) {
        profile_text_pixels(cc->begin_pix_rec, pixels_end(cc->begin_pix));
        cc->begin_pix = 0;
    }
}

static void end_frame(int64_t t1, uint64_t tid)
{
    if (t.o.pgpu)
        timing_gpu_poll();
    if (t.o.text)
        profile_text_frame_end(t.o.frame_times ? timing_finished_ns() : 0);
    frame_counter(t1 - t.base, tid);
    t.frame++;
    frame_instant(t1 - t.base);
}

static const tlr_stack_out stack_out = {emit, cstr};

void tlr_after(const gt_call *c)
{
    if (!t.on)
        return;
    int64_t t1 = timing_now_ns();
    sig_info *s = info(c->sig);
    if (!s)
        return;
    ctx_state *cc = t.cctx;
    bool begin = (s->roles.bits & GT_ROLE_BEGIN) != 0;
    if (cc && begin) {
        cc->begin_t0 = t.t0;
        cc->begin_rec = UINT64_MAX;
    }
    uint64_t rec = text_record(c, s, cc, t1, t.gpu_handle >= 0);
    if (cc && begin)
        cc->begin_rec = rec;
    pixels_mem_after(s, cc, rec);
    call_gpu_end(c, s, cc, rec);
    if (cc)
        gt_callstate_after(&cc->cs, s->roles, c);

    int64_t ts = t.t0 - t.base;
    if (s->marker)
        emit_marker(c, s, ts, true);
    gt_tl_arg a[MAX_ARGS];
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = ts, .dur = t1 - t.t0,
                      .tid = thread_tid(c->thread), .cat = t.s_gl, .name = s->name,
                      .stack = c->num_frames ? tlr_stacks_of_call(&t.stacks, c, &stack_out) : 0, .args = a};
    ev.nargs = call_args(c, s, a, s->gpu);
    emit(&ev);
    if (s->marker)
        emit_marker(c, s, ts, false);
    t.last_ts = t1 - t.base;
    t.last_tid = thread_tid(c->thread);
    t.frame_calls++;
    if (c->flags & GT_CALL_FLAG_END_FRAME)
        end_frame(t1, t.last_tid);
}

/* ---- start and finish ------------------------------------------------------------ */

static void intern_names(void)
{
    if (gt_tl_frame_strs_init(&t.tl, &t.fs) != 0) {
        gt_error_set(&t.err, "out of memory");
        t.failed = true;
    }
    t.s_gl = t.fs.gl;
    t.s_frame = t.fs.frame;
    t.s_gpu = cstr("gpu");
    t.s_marker = cstr("marker");
    t.s_call = cstr("call");
}

int tlr_start(const tlr_options *o, gt_error *err)
{
    memset(&t, 0, sizeof t);
    t.o = *o;
    if (gt_timeline_init(&t.tl) != 0) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    gt_error_clear(&t.err);
    if (tlr_out_open(&t.out, o, &t.tl, err) != 0) {
        gt_timeline_free(&t.tl);
        return -1;
    }
    t.base = timing_now_ns();
    /* No wall-clock anchor: a replay runs at another time than the program did, so
     * `gltrace convert` must not line it up with the program's own logs by wall
     * time; --offset places it. */
    intern_names();
    name_track(GT_TL_PROCESS_NAME, 0, o->process_name ? o->process_name : "glretrace");
    if (o->pgpu) {
        timing_gpu_init(on_gpu_result, NULL);
        name_track(GT_TL_THREAD_NAME, GT_TL_GPU_TID(TLR_PID), "GPU");
    }
    if (o->text) {
        profile_text_init(stdout, o->pcpu, o->pgpu, o->min_cpu_ns, t.base);
        profile_text_columns(o->ppd, o->pmem);
    }
    t.on = true;
    return 0;
}

void tlr_drain_current(void)
{
    if (t.on && t.o.pgpu)
        timing_gpu_drain_current();
}

int tlr_finish(gt_error *err)
{
    if (!t.on)
        return 0;
    if (t.o.pgpu) {
        timing_gpu_finish();
        gp_pop_done(true);
    }
    if (t.frame_calls) /* the calls after the last frame end make a frame of their own */
        frame_counter(t.last_ts, t.last_tid);
    for (size_t i = 0; i < replay_thread_count(); ++i) { /* close open debug groups */
        replay_thread *th = replay_thread_at(i);
        for (; th->depth; th->depth--) {
            gt_tl_event ev = {.kind = GT_TL_END, .ts = t.last_ts, .tid = thread_tid(th->id),
                              .cat = t.s_marker};
            emit(&ev);
        }
    }
    if (t.o.text)
        profile_text_finish();
    if (t.out.sink && !t.failed && gt_tl_finish(t.out.sink, &t.tl, &t.err) != 0)
        t.failed = true;
    int ok = !t.failed;
    if (!ok)
        *err = t.err;
    if (t.o.verbose) {
        uint64_t done, lost;
        int64_t window;
        timing_gpu_stats(&done, &lost, &window);
        fprintf(stderr,
                "glretrace: %llu timeline events, GPU times: %llu read, %llu lost; GPU clock "
                "anchors read within %lld ns\n",
                (unsigned long long)t.events, (unsigned long long)done, (unsigned long long)lost,
                (long long)window);
    }
    if (tlr_out_close(&t.out, ok, err) != 0)
        ok = 0;
    gt_timeline_free(&t.tl);
    free(t.sigs);
    free(t.ctxs);
    free(t.gp);
    tlr_stacks_free(&t.stacks);
    memset(&t, 0, sizeof t);
    return ok ? 0 : -1;
}
