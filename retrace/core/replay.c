/* The replayer's main loop (replay.h): calls come from the reader in trace order; each
 * is dispatched by name (cached per function signature): the window system's table
 * (ws/ws.h) first, then the generated GL replayers (retrace_gl_entry). Functions
 * without a replayer are warned about once and skipped, unless they have no side
 * effects (queries). A GL function's calls must fit it (its shape, generated): a
 * signature with another argument count is warned about once as it is first read,
 * a call with a value of a kind its parameter does not take once per signature, and
 * such calls are skipped. Traced threads replay serialised in call order, each with its own
 * current context (core/replay_threads.h, ws/ws_context.c). Outside benchmark mode glGetError
 * is checked after every GL call (not between glBegin and glEnd, where it is an error
 * itself) and reported as apitrace does.
 *
 * The loop drives; the window system, snapshots and the timeline are called and never
 * call back, except through the ws_hooks handed to ws_init. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <epoxy/gl.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gl/retrace_gl.h"
#include "gl/retrace_query.h"
#include "gt_callstate.h"
#include "gt_grow.h"
#include "gt_progress.h"
#include "gt_strbuf.h"
#include "profile/call_markers.h"
#include "profile/metrics.h"
#include "profile/timeline_replay.h"
#include "replay.h"
#include "replay_workers.h"
#include "state/state.h"
#include "ws/ws.h"

enum {
    K_UNRESOLVED = 0,
    K_NONE,    /* no replayer */
    K_WS,      /* window system */
    K_GL,
};

typedef struct dispatch {
    retrace_fn fn;
    const char *providers; /* generated GL replayers: what provides the function */
    unsigned gl_index;     /* ... and its index in their table */
    bool offered;          /* ... and whether recorders offer it anyway (quiet skip) */
    const retrace_shape *shape; /* GL functions: what their calls must fit */
    unsigned char kind;
    gt_roles roles;        /* specs/roles.txt */
    bool misfit;           /* the signature does not fit the function: calls skipped */
    bool make_current;     /* window system: may change the current context (metrics) */
    bool ws;               /* replayed by the window system: may change what is current */
    bool query;            /* glGetQueryObject*: skipped as --query-handling says */
    bool warned, warned_unprovided, warned_misfit;
} dispatch;

static double now(void);
static void dump_state(const gt_call *c);

/* The state of the replay running now (one at a time: replay.h). */
static struct {
    replay_options o;
    gt_callset frame_ends; /* the snapshot calls when the options name none */
    uint64_t frames;
    uint32_t snapshots; /* taken so far: their numbers with snapshot_seq */
    uint64_t snapshot_failures;
    double frame_start; /* when the frame being replayed started (pacing) */
    dispatch *table; /* by signature id */
    size_t n;
    gt_callstate cs; /* glBegin/glEnd and display lists of the calls replayed */
    bool warned_nocontext;
    gt_call **held, **prev;
    size_t nheld, capheld, nprev, capprev;
    at_reader *reader;
    gt_strbuf verbose_out;
    at_dump_options dump_opt;
    bool profiling;
    /* --profile-from: the frame ends before it (the timeline's first frame number), and
     * whether the timed calls began */
    uint32_t untimed_frames;
    bool timed_begun;
    uint64_t last_call; /* the last call read */
    bool state_done; /* -D: written, or failed (state_err) */
    replay_thread *metrics_thread; /* the traced thread the metrics saw last */
    /* whether a context is current and what it provides, as the window system said
     * when last asked: only its own calls and a switch of traced thread change that */
    bool cur_known, cur_has;
    gl_avail *cur_avail;
    replay_thread *cur_thread;
    gt_error state_err;
} m;

/* What the workers tell the main loop while they run (replay_workers.h): the replay is
 * to stop (-D done), and the frames replayed so far (progress). */
static atomic_bool stop_replay;
static atomic_uint_fast64_t frames_replayed;

static dispatch *resolve(const gt_call *c)
{
    uint32_t id = c->sig->id;
    if (id >= m.n) {
        size_t n = m.n;
        if (GT_GROW(m.table, n, (size_t)id + 1, 256) != 0)
            return NULL;
        memset(m.table + m.n, 0, (n - m.n) * sizeof *m.table);
        m.n = n;
    }
    dispatch *d = &m.table[id];
    if (d->kind != K_UNRESOLVED)
        return d;
    const retrace_entry *e;
    const char *name = c->sig->name;
    d->roles = gt_roles_lookup(name);
    if ((d->fn = ws_lookup(name))) {
        d->ws = true;
        bool gl = (d->roles.bits & GT_ROLE_GL) != 0;
        d->kind = gl ? K_GL : K_WS;
        d->make_current = (d->roles.bits & GT_ROLE_CURRENT) != 0;
        if (gl && (e = retrace_gl_entry(name))) /* a GL function replayed by hand: same prototype */
            d->shape = e->shape;
    } else if ((e = retrace_gl_entry(name))) {
        d->fn = e->fn;
        d->providers = e->providers;
        d->gl_index = (unsigned)(e - retrace_gl_table);
        d->offered = retrace_gl_offered(name);
        d->shape = e->shape;
        d->kind = K_GL;
        d->query = retrace_query_function(name);
    } else {
        d->kind = K_NONE;
    }
    /* the signature, checked once, as it is first read: one warning for all its calls */
    d->misfit = d->warned_misfit = d->shape && !retrace_sig_fits(c, d->shape, true);
    return d;
}

/* ws_has_current and ws_current_avail, asked once until something may change them. */
static bool has_current(void)
{
    if (!m.cur_known) {
        m.cur_has = ws_has_current();
        m.cur_avail = m.cur_has ? ws_current_avail(retrace_gl_count) : NULL;
        m.cur_known = true;
    }
    return m.cur_has;
}

static const char *gl_error_name(GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case 0x0507: return "GL_CONTEXT_LOST";
    default: return NULL;
    }
}

static void check_gl_error(const gt_call *c)
{
    for (int i = 0; i < 8; ++i) { /* a lost context may report errors forever */
        GLenum e = glGetError();
        if (e == GL_NO_ERROR)
            return;
        const char *n = gl_error_name(e);
        if (n)
            retrace_warning(c, "glGetError(%s) = %s", c->sig->name, n);
        else
            retrace_warning(c, "glGetError(%s) = 0x%04x", c->sig->name, (unsigned)e);
    }
}

static void take_snapshot(const gt_call *c, bool from_draw_fbo)
{
    gt_error err;
    gt_error_clear(&err);
    if (!ws_has_current())
        return;
    snapshot_spec spec = {.prefix = m.o.snapshot_prefix, .format = m.o.snapshot_format,
                          .alpha = m.o.snapshot_alpha, .front = m.o.single_buffer,
                          .mrt = m.o.snapshot_mrt, .max = m.o.snapshot_max};
    uint32_t number = m.o.snapshot_seq ? m.snapshots : c->no;
    m.snapshots++;
    if (snapshot_write(&spec, number, from_draw_fbo, &err) != 0) {
        m.snapshot_failures++;
        retrace_warning(c, "snapshot failed: %s", err.msg);
    }
}

static bool wants_snapshot(const gt_call *c)
{
    return m.o.snapshot_prefix && gt_callset_contains(m.o.snapshot_calls, c->no, c->flags);
}

/* The window system's hooks (ws_hooks, ws/ws.h). */
static void before_swap(const gt_call *call)
{
    if (m.o.metrics)
        metrics_frame_end(m.o.metrics);
    if (wants_snapshot(call) && (!m.o.snapshot_interval || m.frames % m.o.snapshot_interval == 0))
        take_snapshot(call, false);
}

static void sleep_us(int64_t us)
{
    if (us <= 0)
        return;
    struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void after_swap(const gt_call *call)
{
    (void)call;
    ++m.frames;
    atomic_store_explicit(&frames_replayed, m.frames, memory_order_relaxed);
    if (m.o.min_frame_us || m.o.per_frame_delay_us) {
        int64_t took = (int64_t)((now() - m.frame_start) * 1e6);
        sleep_us((int64_t)m.o.min_frame_us - took);
        sleep_us((int64_t)m.o.per_frame_delay_us);
        m.frame_start = now();
    }
}

static void context_destroyed(void *sdl_ctx)
{
    m.cur_known = false;
    if (m.o.metrics)
        metrics_context_destroyed(m.o.metrics, sdl_ctx);
    tlr_context_destroyed(sdl_ctx);
}

static const ws_hooks hooks = {before_swap, after_swap, context_destroyed};

/* A switch of traced thread may bind another context: the metrics pause around it. */
static void switch_thread(replay_thread *th)
{
    if (th == m.cur_thread)
        return; /* the window system's too: only this switches traced threads */
    m.cur_thread = th;
    m.cur_known = false;
    if (!m.o.metrics || th == m.metrics_thread) {
        ws_switch_thread(th);
        return;
    }
    metrics_before_switch(m.o.metrics);
    ws_switch_thread(th);
    metrics_after_switch(m.o.metrics);
    m.metrics_thread = th;
}

/* The call itself, between the metrics' hooks (GL calls) or around a MakeCurrent. */
static void run_call(const dispatch *d, gt_call *c)
{
    metrics *mx = m.o.metrics;
    if (!mx) {
        d->fn(c);
        return;
    }
    if (d->make_current) {
        metrics_before_switch(mx);
        d->fn(c);
        metrics_after_switch(mx);
        if (metrics_done(mx))
            atomic_store(&stop_replay, true);
        return;
    }
    if (d->kind == K_WS) {
        d->fn(c);
        return;
    }
    metrics_call_begin(mx, c);
    d->fn(c);
    metrics_call_end(mx, c);
}

/* Whether call c is profiled (once per call): every call, or those from --profile-from
 * on; the frames ended before are counted so that the timeline's frame numbers are the
 * trace's. */
static bool timed(const gt_call *c)
{
    if (!m.profiling)
        return false;
    if (c->no >= m.o.profile_from) {
        if (!m.timed_begun)
            tlr_first_frame(m.untimed_frames);
        m.timed_begun = true;
        return true;
    }
    if (c->flags & GT_CALL_FLAG_END_FRAME)
        m.untimed_frames++;
    return false;
}

/* A call not replayed still gets its timeline event. */
/* --dump-state=CALL: at the call asked for (or the first later one where a context is
 * current), or at the frame's end. */
static void maybe_dump_state(const gt_call *c)
{
    if (m.o.dump_state && ws_has_current() &&
        (m.o.dump_state_frame ? (c->flags & GT_CALL_FLAG_END_FRAME) != 0
                              : c->no >= m.o.dump_state_call))
        dump_state(c);
}

/* A call not made: the state after it is the state before it, which --dump-state at it
 * shows (as apitrace, which dumps at a call it ignores, such as a marker). */
static void skip_call(const gt_call *c, bool tm)
{
    if (tm) {
        tlr_before(c, false);
        tlr_after(c);
    }
    maybe_dump_state(c);
}

static void replay_call(gt_call *c)
{
    if (!c->sig || atomic_load_explicit(&stop_replay, memory_order_relaxed))
        return;
    replay_thread *th = replay_thread_get(c->thread);
    dispatch *d = th ? resolve(c) : NULL;
    if (!d)
        return; /* out of memory */
    bool tm = timed(c);
    if (tm)
        tlr_switch_thread(th);
    switch_thread(th);
    if (m.o.verbose) {
        at_dump_call(&m.verbose_out, c, &m.dump_opt);
        gt_strbuf_flush(&m.verbose_out, stdout);
        fflush(stdout);
    }
    if (m.o.ignore_calls && gt_callset_contains(m.o.ignore_calls, c->no, c->flags)) {
        skip_call(c, tm);
        return;
    }
    if (d->kind == K_NONE) {
        if (!d->warned && !(c->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS))
            retrace_warning(c, "unsupported call, skipped (warned once)");
        d->warned = true;
        skip_call(c, tm);
        return;
    }
    if (d->shape && (d->misfit || !retrace_call_fits(c, d->shape, !d->warned_misfit))) {
        /* a damaged call: its values would reach the GL as what they are not */
        d->warned_misfit = true;
        skip_call(c, tm);
        return;
    }
    bool gl = d->kind == K_GL;
    if (gl && !has_current()) {
        /* a trace cut by trim, or one whose context creation was lost: GL without a
         * context would crash the driver; apitrace skips such calls too */
        if (!m.warned_nocontext)
            retrace_warning(c, "no current context: skipped, as every GL call without one "
                               "(warned once)");
        m.warned_nocontext = true;
        skip_call(c, tm);
        return;
    }
    if (d->providers && !gl_avail_has(m.cur_avail, d->gl_index, d->providers)) {
        /* libepoxy would abort; apitrace calls the driver's no-op stub */
        if (!d->warned_unprovided && !d->offered) /* markers: as apitrace, silently */
            retrace_warning(c, "not provided by this context (needs one of: %s): skipped "
                               "(warned once)", *d->providers ? d->providers : "nothing known");
        d->warned_unprovided = true;
        skip_call(c, tm);
        return;
    }
    if (m.o.markers && gl && (d->providers || d->ws) && !m.cs.in_begin_end)
        call_marker_insert(c); /* not before calls the GL table ignores (no providers) */
    if (d->query && retrace_query_skips(c)) { /* after its marker, as apitrace */
        skip_call(c, tm);
        return;
    }
    if (tm) {
        tlr_before(c, true);
        run_call(d, c);
        tlr_after(c);
    } else {
        run_call(d, c);
    }
    if (d->ws)
        m.cur_known = false;
    gt_callstate_after(&m.cs, d->roles, c);
    if (gl && !m.o.benchmark && !m.cs.in_begin_end && ws_has_current())
        check_gl_error(c);
    if (!(c->flags & GT_CALL_FLAG_END_FRAME) && wants_snapshot(c))
        take_snapshot(c, true);
    maybe_dump_state(c);
    /* The state server's replay and a snapshot replay (frames outside -S included)
     * wait for each frame's rendering: nothing else synchronises a headless replay
     * between snapshots, and the driver queued frame after frame (llvmpipe: a 65k-call
     * glmark2 trace's replay grew to 720 MB, 160 MB with a snapshot read at every
     * frame's end, as the thumbnails' replay). */
    if ((m.o.state_server || m.o.snapshot_prefix) && (c->flags & GT_CALL_FLAG_END_FRAME) &&
        ws_has_current() && !m.cs.in_begin_end)
        glFinish();
    if (m.o.state_server &&
        state_server_after(c, ws_has_current() && !m.cs.in_begin_end, m.o.single_buffer))
        atomic_store(&stop_replay, true);
}

/* -D: the state after C, the first call at or after the one asked for that leaves a
 * context current; the replay stops after it. */
static void dump_state(const gt_call *c)
{
    m.state_done = true;
    atomic_store(&stop_replay, true);
    if (m.cs.in_begin_end) {
        gt_error_set(&m.state_err, "call %u is inside glBegin/glEnd, where GL state cannot be "
                     "read: dump a call before glBegin or after glEnd", c->no);
        return;
    }
    state_dump(stdout, c, m.o.single_buffer, &m.state_err);
}

/* --loop: the calls of the last complete frame are kept (not released) */
static void hold(gt_call *c)
{
    if (atomic_load(&stop_replay)) {
        at_reader_release(m.reader, c);
        return;
    }
    if (GT_GROW(m.held, m.capheld, m.nheld + 1, 1024) != 0) {
        at_reader_release(m.reader, c);
        return;
    }
    m.held[m.nheld++] = c;
    if (c->flags & GT_CALL_FLAG_END_FRAME) { /* this frame becomes the one to loop */
        for (size_t i = 0; i < m.nprev; ++i)
            at_reader_release(m.reader, m.prev[i]);
        gt_call **t = m.prev;
        size_t tcap = m.capprev;
        m.prev = m.held;
        m.nprev = m.nheld;
        m.capprev = m.capheld;
        m.held = t;
        m.capheld = tcap;
        m.nheld = 0;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Timings: the process is named by the trace's process.name, or after the trace file.
 * 0, or -1 with err set. */
static int start_profiling(const at_reader *r, gt_error *err)
{
    const replay_options *ro = &m.o;
    tlr_options o = {.pcpu = ro->pcpu, .pgpu = ro->pgpu, .text = ro->text_profile,
                     .min_cpu_ns = ro->min_cpu_ns, .fxt_path = ro->fxt_path,
                     .chrome_path = ro->chrome_path, .input_path = ro->trace,
                     .verbose = ro->verbose > 0, .frame_times = ro->pframe_times,
                     .ppd = ro->ppd, .pmem = ro->pmem};
    if (o.fxt_path || o.chrome_path)
        o.pcpu = true;
    else if (o.pcpu || o.pgpu || o.ppd || o.pmem)
        o.text = true;
    if (o.frame_times)
        o.text = true;
    if (ro->metrics) /* as apitrace: the metrics take stdout, no text profile */
        o.text = o.frame_times = false;
    if (!o.text && !o.fxt_path && !o.chrome_path)
        return 0;
    const char *base = strrchr(ro->trace, '/');
    o.process_name = base ? base + 1 : ro->trace;
    for (unsigned i = 0; i < at_reader_num_properties(r); ++i) {
        const at_property *p = at_reader_property(r, i);
        if (p && p->name && p->value && !strcmp(p->name, "process.name") && *p->value)
            o.process_name = p->value;
    }
    if (tlr_start(&o, err) != 0)
        return -1;
    m.profiling = true;
    return 0;
}

/* The end of the timings: each traced thread's context gives its last GPU queries,
 * then the outputs are completed. 0, or -1 with err set. */
static int finish_profiling(gt_error *err)
{
    if (m.o.metrics) /* the other contexts' results */
        for (size_t i = 0; i < replay_thread_count(); ++i) {
            ws_switch_thread(replay_thread_at(i));
            metrics_drain_current(m.o.metrics);
        }
    if (!m.profiling)
        return 0;
    m.profiling = false;
    if (m.o.pgpu)
        for (size_t i = 0; i < replay_thread_count(); ++i) {
            ws_switch_thread(replay_thread_at(i));
            tlr_drain_current();
        }
    return tlr_finish(err);
}

/* Replays every call of R (up to the call limit, then the loop's repeats of the last
 * frame): 0, or -1 with err set when the trace could not be read to its end. */
/* A replay thread ends: nothing of it stays current or allocated. */
static void worker_exit(void)
{
    ws_thread_exit();
    retrace_scratch_free();
}

static void call_done(gt_call *c, bool keep)
{
    if (keep)
        return;
    if (m.o.loop)
        hold(c);
    else
        at_reader_release(m.reader, c);
}

/* After the last call: the workers end, each leaving no context current on its thread,
 * so that the main thread may bind them (GPU timings, shutdown). */
static void stop_workers(void)
{
    replay_workers_stop();
    ws_forget_current();
}

/* Reads the calls and queues them for the workers until the trace ends, the call limit
 * or -D stops it; then waits until they have all run. 0, or -1 with err set when no
 * worker could start. */
static int read_calls(at_reader *r, uint64_t *ncalls, gt_error *err)
{
    gt_progress prog; /* on a terminal only: frames, calls/s */
    gt_progress_start(&prog, "glretrace", at_input_file_size(at_reader_input(r)), false);
    gt_call *call;
    int rc = 0;
    while ((call = at_reader_next(r))) {
        m.last_call = call->no;
        if (call->no > m.o.call_limit || atomic_load_explicit(&stop_replay, memory_order_relaxed)) {
            at_reader_release(r, call);
            break;
        }
        if (replay_workers_push(call, false, err) != 0) {
            at_reader_release(r, call);
            rc = -1;
            break;
        }
        prog.frames = atomic_load_explicit(&frames_replayed, memory_order_relaxed);
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++*ncalls);
    }
    replay_workers_drain();
    gt_progress_end(&prog);
    return rc;
}

/* After the calls were read: the reader's end, -D's outcome. 0, or -1 with err set. */
static int check_end(at_reader *r, gt_error *err)
{
    if (at_reader_error(r)) {
        gt_error_set(err, "%s", at_reader_error(r));
        return -1;
    }
    if (at_reader_warning(r) && (m.o.verbose || strstr(at_reader_warning(r), "truncated")))
        /* a cut file is worth a word; calls merely left open by a killed program
         * replay silently, as in apitrace */
        fprintf(stderr, "warning: %s\n", at_reader_warning(r));
    if (m.o.dump_state && !m.state_done && m.o.dump_state_frame) {
        gt_error_set(err, "-D frame: the trace has no frame end with a current context");
        return -1;
    }
    if (m.o.dump_state && !m.state_done) {
        gt_error_set(err, "-D %llu: the trace ends at call %llu before any call numbered %llu or "
                     "later with a current context", (unsigned long long)m.o.dump_state_call,
                     (unsigned long long)m.last_call, (unsigned long long)m.o.dump_state_call);
        return -1;
    }
    if (m.state_err.set) {
        *err = m.state_err;
        return -1;
    }
    return 0;
}

/* --loop: the last whole frame again, o.loop times (< 0: forever). 0, or -1 with err. */
static int replay_loop(gt_error *err)
{
    if (!m.o.loop || !m.nprev || m.o.dump_state)
        return 0;
    for (long i = 0; m.o.loop < 0 || i < m.o.loop; ++i)
        for (size_t k = 0; k < m.nprev; ++k)
            if (replay_workers_push(m.prev[k], true, err) != 0)
                return -1;
    return 0;
}

/* Replays every call of R (up to the call limit, then the loop's repeats of the last
 * frame): 0, or -1 with err set when the trace could not be read to its end. */
static int replay_trace(at_reader *r, uint64_t *ncalls, gt_error *err)
{
    replay_workers_callbacks cb = {replay_call, call_done, worker_exit};
    if (replay_workers_start(&cb, !m.o.threads, err) != 0)
        return -1;
    int rc = read_calls(r, ncalls, err);
    if (m.o.state_server && !atomic_load(&stop_replay))
        state_server_end(m.last_call);
    if (rc == 0)
        rc = check_end(r, err);
    if (rc == 0)
        rc = replay_loop(err);
    replay_workers_drain();
    if (m.o.metrics) /* the last frame, on the thread that replayed (one with metrics) */
        metrics_end_pass(m.o.metrics);
    stop_workers();
    return rc;
}

/* Frees all the replay made: kept calls, the window system, the maps, the trace. */
static void shut_down(void)
{
    for (size_t i = 0; i < m.nheld; ++i)
        at_reader_release(m.reader, m.held[i]);
    for (size_t i = 0; i < m.nprev; ++i)
        at_reader_release(m.reader, m.prev[i]);
    free(m.held);
    free(m.prev);
    free(m.table);
    gt_strbuf_free(&m.verbose_out);
    call_markers_reset();
    ws_shutdown();
    replay_threads_free();
    retrace_values_free();
    at_reader_close(m.reader);
    gt_callset_free(&m.frame_ends);
    memset(&m, 0, sizeof m);
}

void replay_options_init(replay_options *o, const char *trace)
{
    memset(o, 0, sizeof *o);
    o->trace = trace;
    o->call_limit = UINT64_MAX;
    o->min_cpu_ns = 1000;
}

/* The run's own copy of the options; the snapshot call set is the caller's (alive
 * while the replay runs) or every frame's end. 0, or -1 with err set. */
static int set_options(const replay_options *o, gt_error *err)
{
    memset(&m, 0, sizeof m);
    m.o = *o;
    atomic_store(&stop_replay, false);
    atomic_store(&frames_replayed, 0);
    if (m.o.metrics) /* metrics.h: not thread-safe */
        m.o.threads = false;
    if (m.o.benchmark) /* as apitrace: -b takes no snapshots */
        m.o.snapshot_prefix = NULL;
    retrace_set_warn(m.o.benchmark ? NULL : retrace_warn_stderr()); /* -b: no warnings */
    retrace_query_set(o->query_handling == REPLAY_QUERY_RUN,
                      o->query_handling == REPLAY_QUERY_CHECK, o->query_tolerance);
    if (gt_callset_init_all(&m.frame_ends) != 0) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    if (!m.o.snapshot_calls) {
        if (gt_callset_merge(&m.frame_ends, "frame", err) != 0)
            return -1;
        m.o.snapshot_calls = &m.frame_ends;
    }
    return 0;
}

int replay_run(const replay_options *o, replay_result *res, gt_error *err)
{
    replay_result scratch;
    res = res ? res : &scratch;
    memset(res, 0, sizeof *res);
    if (set_options(o, err) != 0) {
        gt_callset_free(&m.frame_ends);
        return -1;
    }
    at_reader_options ropt = {.skip_blob_data = false};
    m.reader = at_reader_open(o->trace, &ropt, err);
    if (!m.reader) {
        gt_callset_free(&m.frame_ends);
        return -1;
    }
    gt_strbuf_init(&m.verbose_out);
    at_dump_default_options(&m.dump_opt);
    m.dump_opt.color = false;
    if (o->state_server && !state_server_begin()) {
        shut_down();
        return 0; /* no request */
    }
    int rc = ws_init(o->headless, o->single_buffer, &hooks, err);
    if (rc == 0) {
        ws_force(o->samples, o->core);
        rc = start_profiling(m.reader, err);
    }
    if (rc == 0) {
        double start = now();
        m.frame_start = start;
        rc = replay_trace(m.reader, &res->calls, err);
        res->secs = now() - start;
        if (o->wait)
            ws_wait_closed();
        gt_error end_err;
        gt_error_clear(&end_err);
        if (finish_profiling(&end_err) != 0 && rc == 0) {
            *err = end_err;
            rc = -1;
        }
    }
    res->frames = m.frames;
    res->snapshots = m.snapshots;
    res->snapshot_failures = m.snapshot_failures;
    res->state_dumped = m.state_done && !m.state_err.set;
    shut_down();
    return rc;
}
