/* The live timeline (timeline_live.h): the CPU duration of each recorded call,
 * written as FXT beside the trace.
 *
 * Events, on the calling thread's track (pid = getpid(), tid = gettid()):
 *   - one complete event per call the program made, category "gl", named after the
 *     function, with args `call` (the trace's call number) and `thread` (the trace's
 *     thread index). Fake calls (the recorder's own memcpy, glViewport, pointer and
 *     glBindAttribLocation calls) are not program calls: they get no event, so the
 *     events are exactly the trace's non-fake calls.
 *   - at the end of each frame (a call with END_FRAME in specs/callflags.txt, as
 *     dump and glretrace count frames): an instant "frame" (arg `frame`, from 0;
 *     process scope) and glretrace's frame counter (gt_timeline_frame.h): "frame"
 *     with the series `ms` (time since the previous frame ended, or since the first
 *     call) and `calls` (calls in it).
 *   - names: the process (basename of its executable), and each thread at its first
 *     call: "thread N" (the trace's index), "thread N (NAME)" when the OS thread name
 *     (pthread_getname_np) differs from the process's.
 * Times are CLOCK_MONOTONIC ns, read after the call's enter event was written and
 * before its leave event starts. A hand-written wrapper that runs the real function
 * before writing the enter event (glLinkProgram, wrappers/hook_program.c) therefore
 * shows a duration of about zero.
 *
 * Threads: one mutex, held only while an event is encoded into the FXT writer's
 * buffer (after the call's leave event, never across the real call).
 *
 * Crash safety. The FXT writer keeps whole records in its buffer and hands them
 * over only whole (when its 1 MiB buffer is full, or at a flush), so the file holds
 * complete records whatever moment the process dies at. And before any of them
 * reaches the file the trace is flushed (out_write): an event is made after its
 * call's leave event went into the trace's stream, so every call in the timeline
 * file is in the trace file; a killed program leaves a timeline whose calls are a
 * prefix of each thread's calls in its trace. Flushes that must not wait (signal
 * handlers, the flusher thread) skip the timeline when the trace's lock is busy.
 *
 * Files, as the trace (runtime_file.c): GLTRACE_TIMELINE names the timeline (the
 * launcher creates it empty and sets GLTRACE_TIMELINE_READY=1). The process that
 * writes the main trace claims it, under flock, while it is still empty; every other
 * process (forked children, other programs the first one started) writes
 * "X.<pid>.fxt" beside "X.fxt" ("X.<pid>.<n>.fxt" when taken). A forked child drops
 * the inherited writer unflushed, as the trace's. Flushed by the runtime's 1 s
 * flusher, on fatal signals (try-lock), at exit, _exit and _Exit. */
#define _GNU_SOURCE
#include "timeline_live.h"
#include "timeline_live_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "fxt_writer.h"
#include "gltrace_runtime.h"
#include "gt_callflags.h"
#include "gt_model.h"
#include "gt_outfile.h"
#include "gt_timeline_frame.h"
#include "gt_siglock.h"
#include "record_status.h"

enum { FN_CACHE = 8192, STACK_DEPTH = 8 };

/* Per function id: its interned name and whether it ends a frame. */
typedef struct fn_entry {
    gt_tl_str name; /* 0: not looked up yet */
    uint8_t end_frame;
} fn_entry;

typedef struct live {
    gt_timeline tl;
    gt_fxt_writer *fxt;
    gt_tl_sink sink;
    FILE *file; /* a stdio stream over fd (out_write) */
    int fd;
    uint64_t pid;
    uint64_t gen; /* threads name themselves once per live timeline */
    char path[PATH_MAX];
    char comm[16]; /* the process's OS name: threads named otherwise get it shown */
    fn_entry *fns; /* FN_CACHE entries */
    gt_tl_str s_gl, s_call, s_thread, s_frame;
    gt_tl_frame_strs fs; /* the frame counter's (gt_timeline_frame.h) */
    uint64_t frames, frame_calls;
    int64_t frame_start; /* -1: before the first call */
} live;

_Atomic int gltrace_timeline_state = GLTRACE_TL_UNINIT;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER; /* g_live and all it holds */
static live *g_live;
static uint64_t g_gen;   /* under g_lock */
static int g_trace_synced; /* under g_lock: the trace was just flushed */
static int g_forked;     /* a fork()ed copy of a recording process */
static char g_parent[PATH_MAX]; /* the parent's timeline, when forked */

/* A call between its enter and its leave on this thread. Calls nest only when a
 * real GL function calls an exported GL function of ours. */
typedef struct pending {
    const gt_func_sig *sig;
    uint32_t no, thread;
    int64_t t0, t1; /* -1 until read */
} pending;

#define TLS __thread __attribute__((tls_model("initial-exec")))
static TLS pending t_stack[STACK_DEPTH];
static TLS unsigned t_depth;
static TLS int t_entering; /* the top entry's enter event is being written */
static TLS uint64_t t_tid;
static TLS uint64_t t_named; /* g_gen when this thread's name was written */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The timeline's wall-clock anchor (CLOCK_REALTIME - CLOCK_MONOTONIC), so that
 * `gltrace convert` lines it up with the program's XRay or trace-cmd logs: the
 * tightest of a few bracketing reads. */
static int64_t wall_offset_ns(void)
{
    int64_t best = 0, best_gap = INT64_MAX;
    for (int i = 0; i < 5; i++) {
        struct timespec rt;
        int64_t a = now_ns();
        clock_gettime(CLOCK_REALTIME, &rt);
        int64_t b = now_ns();
        if (b - a < best_gap) {
            best_gap = b - a;
            best = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec - (a + (b - a) / 2);
        }
    }
    return best;
}

static uint64_t thread_tid(void)
{
    if (__builtin_expect(t_tid == 0, 0))
        t_tid = (uint64_t)gettid();
    return t_tid;
}

/* ---- opening ---------------------------------------------------------------------- */

static void read_comm(char *out, size_t size)
{
    out[0] = '\0';
    int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n <= 0)
        n = 0;
    out[n] = '\0';
    char *nl = strchr(out, '\n');
    if (nl)
        *nl = '\0';
}

static int intern_names(live *L)
{
    gt_timeline *tl = &L->tl;
    L->s_gl = gt_tl_intern_cstr(tl, "gl");
    L->s_call = gt_tl_intern_cstr(tl, "call");
    L->s_thread = gt_tl_intern_cstr(tl, "thread");
    L->s_frame = gt_tl_intern_cstr(tl, "frame");
    gt_tl_str bad = (gt_tl_str)-1;
    return L->s_gl == bad || L->s_call == bad || L->s_thread == bad || L->s_frame == bad ||
                   gt_tl_frame_strs_init(tl, &L->fs) != 0
               ? -1
               : 0;
}

/* The process name event: the basename of the executable. */
static int name_process(live *L, gt_error *err)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    gt_tl_str name = gt_tl_intern_cstr(&L->tl, *base ? base : L->comm);
    if (name == (gt_tl_str)-1) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    gt_tl_event ev = {.kind = GT_TL_PROCESS_NAME, .pid = L->pid, .name = name};
    return gt_tl_emit(&L->sink, &L->tl, &ev, err);
}

/* The FXT writer's output: the trace goes to its file first (see the top). */
static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    live *L = cookie;
    at_writer *w = gltrace_writer_if_open();
    if (w && !g_trace_synced && !at_writer_flush(w))
        return -1; /* the trace cannot be written: neither is the timeline */
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(L->fd, buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return done ? (ssize_t)done : -1;
        done += (size_t)k;
    }
    return (ssize_t)done;
}

static int out_close(void *cookie)
{
    live *L = cookie;
    return close(L->fd);
}

static void free_live(live *L)
{
    if (L->fxt)
        gt_fxt_writer_free(L->fxt); /* flushes what is left */
    if (L->file)
        fclose(L->file);
    gt_timeline_free(&L->tl);
    free(L->fns);
    free(L);
}

/* Sets up the writer on fd (taken over). NULL with err filled on failure. */
static live *new_live(int fd, const char *path, gt_error *err)
{
    live *L = calloc(1, sizeof *L);
    FILE *f = NULL;
    if (L) {
        L->fd = fd;
        f = fopencookie(L, "w", (cookie_io_functions_t){.write = out_write, .close = out_close});
    }
    if (!f) {
        gt_error_set(err, "%s: out of memory", path);
        close(fd);
        free(L);
        return NULL;
    }
    /* Unbuffered: the FXT writer hands over whole records, which go out at once. */
    setvbuf(f, NULL, _IONBF, 0);
    L->file = f;
    snprintf(L->path, sizeof L->path, "%s", path);
    L->pid = (uint64_t)getpid();
    L->frame_start = -1;
    read_comm(L->comm, sizeof L->comm);
    L->fns = calloc(FN_CACHE, sizeof *L->fns);
    if (!L->fns || gt_timeline_init(&L->tl) != 0 || intern_names(L) != 0) {
        gt_error_set(err, "%s: out of memory", path);
        free_live(L);
        return NULL;
    }
    L->tl.has_wall = true;
    L->tl.wall_offset_ns = wall_offset_ns();
    L->tl.has_mono = true; /* its times are CLOCK_MONOTONIC */
    L->tl.mono_offset_ns = 0;
    L->fxt = gt_fxt_writer_open_stream(f, path, "gltrace", err);
    if (!L->fxt) {
        free_live(L);
        return NULL;
    }
    L->sink = gt_fxt_writer_sink(L->fxt);
    if (name_process(L, err) != 0 || gt_fxt_writer_flush(L->fxt, err) != 0) {
        free_live(L);
        return NULL;
    }
    return L;
}

/* Opens this process's timeline when GLTRACE_TIMELINE asks for one. Under g_lock. */
static int open_live(void)
{
    const char *env = getenv("GLTRACE_TIMELINE");
    if (!env || !*env)
        return GLTRACE_TL_OFF;
    if (strlen(env) >= PATH_MAX - 32) {
        fprintf(stderr, "gltrace: GLTRACE_TIMELINE is too long; no timeline\n");
        return GLTRACE_TL_OFF;
    }
    char path[PATH_MAX];
    int locked;
    int fd = gltrace_timeline_open_file(env, g_forked, g_parent, path, sizeof path, &locked);
    if (fd < 0)
        return GLTRACE_TL_OFF;
    gt_error err;
    gt_error_clear(&err);
    live *L = new_live(fd, path, &err); /* writes the header before the flock goes */
    if (L && locked)
        flock(fd, LOCK_UN); /* (on failure, closing fd let it go) */
    if (!L) {
        fprintf(stderr, "gltrace: timeline: %s; no timeline\n", err.msg);
        gltrace_status_report("timeline: not written: %s", err.msg);
        return GLTRACE_TL_OFF;
    }
    L->gen = ++g_gen;
    g_live = L;
    return GLTRACE_TL_ON;
}

static int open_slow(void)
{
    pthread_mutex_lock(&g_lock);
    int st = atomic_load(&gltrace_timeline_state);
    if (st == GLTRACE_TL_UNINIT) {
        st = open_live();
        atomic_store(&gltrace_timeline_state, st);
    }
    pthread_mutex_unlock(&g_lock);
    return st;
}

/* ---- events (under g_lock) ------------------------------------------------------------ */

/* A write failed: say so once, keep what was written, record nothing more. */
static void stop_locked(live *L, const gt_error *err)
{
    fprintf(stderr, "gltrace: timeline %s: %s; the timeline stops here\n", L->path, err->msg);
    gltrace_status_report("timeline: %s (it keeps the events written before)", err->msg);
    atomic_store(&gltrace_timeline_state, GLTRACE_TL_OFF);
    g_live = NULL;
    free_live(L);
}

static int name_thread(live *L, uint64_t tid, uint32_t thread, gt_error *err)
{
    char os[16] = "", name[64];
    pthread_getname_np(pthread_self(), os, sizeof os);
    if (os[0] && strcmp(os, L->comm) != 0)
        snprintf(name, sizeof name, "thread %u (%s)", thread, os);
    else
        snprintf(name, sizeof name, "thread %u", thread);
    gt_tl_str id = gt_tl_intern_cstr(&L->tl, name);
    if (id == (gt_tl_str)-1) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    gt_tl_event ev = {.kind = GT_TL_THREAD_NAME, .pid = L->pid, .tid = tid, .name = id};
    if (gt_tl_emit(&L->sink, &L->tl, &ev, err) != 0)
        return -1;
    t_named = L->gen;
    return 0;
}

/* The cached name and flags of a function; interned on its first call. */
static const fn_entry *function(live *L, const gt_func_sig *sig, fn_entry *scratch)
{
    fn_entry *e = sig->id < FN_CACHE ? &L->fns[sig->id] : scratch;
    if (__builtin_expect(e->name != 0, 1))
        return e;
    gt_tl_str name = gt_tl_intern_cstr(&L->tl, sig->name);
    if (name == (gt_tl_str)-1 || name == 0)
        return NULL;
    e->name = name;
    e->end_frame = (gt_callflags_lookup(sig->name) & GT_CALL_FLAG_END_FRAME) != 0;
    return e;
}

static int frame_end(live *L, uint64_t tid, int64_t t, gt_error *err)
{
    gt_tl_arg fa = {.name = L->s_frame, .kind = GT_TL_ARG_U64, .v.u = L->frames};
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .ts = t, .pid = L->pid, .tid = tid, .cat = L->s_gl,
                      .name = L->s_frame, .scope = GT_TL_SCOPE_PROCESS, .nargs = 1, .args = &fa};
    if (gt_tl_emit(&L->sink, &L->tl, &ev, err) != 0)
        return -1;
    gt_tl_arg ca[2];
    gt_tl_event c = gt_tl_frame_counter(&L->fs, ca, L->pid, tid, L->frame_start, t, L->frame_calls);
    if (gt_tl_emit(&L->sink, &L->tl, &c, err) != 0)
        return -1;
    L->frames++;
    L->frame_calls = 0;
    L->frame_start = t;
    return 0;
}

static int emit_call_locked(live *L, const pending *p, gt_error *err)
{
    uint64_t tid = thread_tid();
    if (t_named != L->gen && name_thread(L, tid, p->thread, err) != 0)
        return -1;
    fn_entry scratch = {0, 0};
    const fn_entry *f = function(L, p->sig, &scratch);
    if (!f) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    gt_tl_arg args[2] = {
        {.name = L->s_call, .kind = GT_TL_ARG_U32, .v.u = p->no},
        {.name = L->s_thread, .kind = GT_TL_ARG_U32, .v.u = p->thread},
    };
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = p->t0, .dur = p->t1 - p->t0, .pid = L->pid,
                      .tid = tid, .cat = L->s_gl, .name = f->name, .nargs = 2, .args = args};
    if (gt_tl_emit(&L->sink, &L->tl, &ev, err) != 0)
        return -1;
    if (L->frame_start < 0)
        L->frame_start = p->t0;
    L->frame_calls++;
    return f->end_frame ? frame_end(L, tid, p->t1, err) : 0;
}

static void emit_call(const pending *p)
{
    pthread_mutex_lock(&g_lock);
    live *L = g_live;
    if (L) {
        gt_error err;
        err.set = 0;
        err.msg[0] = '\0';
        if (emit_call_locked(L, p, &err) != 0)
            stop_locked(L, &err);
    }
    pthread_mutex_unlock(&g_lock);
}

/* ---- a recorded call's events (record_call.c, while the timeline is not off) ---------- */

int gltrace_timeline_ready(void)
{
    int st = atomic_load_explicit(&gltrace_timeline_state, memory_order_relaxed);
    if (__builtin_expect(st == GLTRACE_TL_UNINIT, 0))
        st = open_slow(); /* before the writer's lock: opening takes a while */
    return st == GLTRACE_TL_ON;
}

void gltrace_timeline_entered(const gt_func_sig *sig, uint32_t no, uint32_t thread, int timed)
{
    t_entering = 0;
    if (timed) {
        if (t_depth == STACK_DEPTH) { /* calls left by longjmp fill it: drop the oldest */
            memmove(t_stack, t_stack + 1, (STACK_DEPTH - 1) * sizeof *t_stack);
            --t_depth;
        }
        t_stack[t_depth++] = (pending){sig, no, thread, -1, -1};
        t_entering = 1;
    }
}

void gltrace_timeline_started(void)
{
    if (t_entering) {
        t_entering = 0;
        t_stack[t_depth - 1].t0 = now_ns(); /* the real call starts now */
    }
}

void gltrace_timeline_returned(uint32_t call_no)
{
    /* The real call has returned: read the clock before waiting for the lock. */
    for (unsigned i = t_depth; i-- > 0;) {
        if (t_stack[i].no == call_no && t_stack[i].t0 >= 0) {
            t_stack[i].t1 = now_ns();
            t_depth = i + 1; /* inner calls that never left (longjmp) are dropped */
            break;
        }
    }
}

void gltrace_timeline_left(void)
{
    if (t_depth && t_stack[t_depth - 1].t1 >= 0) {
        pending p = t_stack[--t_depth];
        emit_call(&p);
    }
}

/* ---- flushing, exit, fork ------------------------------------------------------------------ */

/* The trace's pending calls to its file now, without waiting: 1 when done. */
static int trace_synced(void)
{
    at_writer *w = gltrace_writer_if_open();
    return !w || at_writer_try_flush(w);
}

/* The same from a signal handler: the trace's chunk is stored, not compressed (Snappy
 * allocates, and the signal may have interrupted malloc). */
static int trace_synced_in_signal(void)
{
    at_writer *w = gltrace_writer_if_open();
    return !w || at_writer_try_flush_in_signal(w);
}

static void flush_after(int (*synced)(void))
{
    if (atomic_load(&gltrace_timeline_state) != GLTRACE_TL_ON || pthread_mutex_trylock(&g_lock) != 0)
        return; /* a thread is inside an event: the next flush catches up */
    live *L = g_live;
    /* a vfork()ed or raw-cloned child never writes its parent's file */
    if (L && L->pid == (uint64_t)getpid() && synced()) {
        gt_error err;
        gt_error_clear(&err);
        g_trace_synced = 1;
        if (gt_fxt_writer_flush(L->fxt, &err) != 0)
            stop_locked(L, &err);
        g_trace_synced = 0;
    }
    pthread_mutex_unlock(&g_lock);
}

void gltrace_timeline_flush(void)
{
    flush_after(trace_synced);
}

void gltrace_timeline_flush_in_signal(void)
{
    flush_after(trace_synced_in_signal);
}

int gltrace_timeline_hold_dying(void)
{
    if (atomic_load(&gltrace_timeline_state) != GLTRACE_TL_ON || gt_mutex_held_by_caller(&g_lock))
        return 0;
    return gt_mutex_lock_bounded(&g_lock, 500);
}

void gltrace_timeline_flush_held(void)
{
    live *L = g_live;
    if (!L || L->pid != (uint64_t)getpid())
        return;
    gt_error err;
    gt_error_clear(&err);
    g_trace_synced = 1; /* the caller wrote the trace first */
    gt_fxt_writer_flush(L->fxt, &err);
    /* g_lock stays held: no thread starts a write that the process's death would cut */
}

void gltrace_timeline_finish(void)
{
    if (atomic_load(&gltrace_timeline_state) != GLTRACE_TL_ON)
        return;
    for (int i = 0; i < 200; ++i) { /* the caller may have interrupted an event */
        if (pthread_mutex_trylock(&g_lock) == 0) {
            live *L = g_live;
            if (!L || L->pid != (uint64_t)getpid()) {
                pthread_mutex_unlock(&g_lock);
                return;
            }
            if (trace_synced()) {
                g_live = NULL;
                atomic_store(&gltrace_timeline_state, GLTRACE_TL_OFF);
                gt_error err;
                gt_error_clear(&err);
                g_trace_synced = 1;
                if (gt_tl_finish(&L->sink, &L->tl, &err) != 0) {
                    fprintf(stderr, "gltrace: timeline %s: %s\n", L->path, err.msg);
                    gltrace_status_report("timeline: %s", err.msg);
                }
                free_live(L);
                g_trace_synced = 0;
                pthread_mutex_unlock(&g_lock);
                return;
            }
            pthread_mutex_unlock(&g_lock);
        }
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* The forked child: the inherited writer is the parent's (its buffered records, its
 * file, perhaps its lock held by a thread that does not exist here): dropped
 * untouched and leaked, as runtime_writer.c does with the trace writer. */
static void child_after_fork(void)
{
    live *L = g_live;
    g_live = NULL;
    g_forked = 1;
    pthread_mutex_init(&g_lock, NULL);
    t_depth = 0;
    t_entering = 0;
    t_tid = 0;
    if (L) {
        snprintf(g_parent, sizeof g_parent, "%s", L->path);
        atomic_store(&gltrace_timeline_state, GLTRACE_TL_UNINIT); /* our own file at our next recorded call */
    }
}

/* GLTRACE_TIMELINE set by hand (no launcher): the first process claims it as the
 * launcher does (gt_outfile_claim: never truncated in place, a device left as is). */
__attribute__((constructor)) static void timeline_init(void)
{
    const char *env = getenv("GLTRACE_TIMELINE");
    if (env && *env && !getenv("GLTRACE_TIMELINE_READY")) {
        gt_claim claim;
        gt_error err;
        gt_error_clear(&err);
        gt_outfile_claim(env, &claim, &err); /* an error shows when the file is opened */
        setenv("GLTRACE_TIMELINE_READY", "1", 1);
    }
    pthread_atfork(NULL, NULL, child_after_fork);
}
