/* The process's trace writer (gltrace_runtime.h): opened at the first recorded call
 * (runtime_file.c says which file), dropped in a forked child, finished at exit.
 *
 * Hot path: gltrace_writer() is one atomic load and a compare once the writer is
 * open; everything slow (opening the file) happens once.
 *
 * A forked child (fork() without exec, pthread_atfork handler below) drops the
 * inherited writer WITHOUT flushing, closing or freeing it: its pending bytes are the
 * parent's (the parent writes them), its file descriptor is the parent's file, and its
 * lock may have been held by another thread of the parent at the moment of the fork
 * (only the forking thread exists in the child), so even free() of it could act on
 * state that is not ours. Its memory (seven chunk buffers, ~7 MiB, copy-on-write and
 * never touched again) is leaked on purpose; the inherited descriptor is
 * close-on-exec. The child opens its own file on its next GL call.
 *
 * When the trace is written (with runtime_safety.c and runtime_exit.c): chunks of
 * 1 MiB as the stream fills them, by the writer's compressor thread (at_output.h,
 * which the child does not inherit); every second by a flusher thread (so SIGKILL loses
 * at most about a second of calls); on fatal and terminating signals; at exit by an
 * atexit handler registered from our constructor, so it runs after the handlers the
 * program registers in main() (their GL calls are recorded), and by our destructor as
 * a fallback (library unloaded, odd exits); and in _exit/_Exit, which we interpose
 * (they skip atexit handlers). When other threads are still running at exit the
 * writer is flushed but not freed, so a thread still inside a wrapper cannot touch
 * freed memory. Before an exec (override_exec.c) the trace is flushed and its lock
 * held across the exec, so the image that execs loses nothing; the new image writes
 * a derived name. Not covered: children created by raw clone syscalls without fork
 * handlers (the exit paths check the pid, so such a child at least never flushes
 * into its parent's file). */
#define _GNU_SOURCE
#include "gltrace_runtime.h"
#include "capture_frames.h"
#include "record_status.h"
#include "runtime_private.h"
#include "timeline_live.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* STATE_PAUSED: between frame ranges (capture_frames.c), nothing is written */
enum { STATE_UNINIT, STATE_ON, STATE_OFF, STATE_PAUSED };

static at_writer *_Atomic g_writer;        /* non-NULL while recording */
static _Atomic int g_state = STATE_UNINIT; /* STATE_OFF: never (again) recording */
static pthread_mutex_t g_open_lock = PTHREAD_MUTEX_INITIALIZER; /* opening g_writer */
static _Atomic pid_t g_owner_pid;          /* process that opened g_writer */
static char g_path[PATH_MAX];              /* the writer keeps a pointer to it */
static int g_forked;                       /* a fork()ed copy of a recording process */
static char g_parent_path[PATH_MAX];       /* the parent's trace, when forked */
static char g_range[64];                   /* frame ranges: the range g_path holds */
static size_t g_stem_len;                  /* ... after g_path's first g_stem_len bytes */

/* With frame ranges: the first range's trace when one starts at frame 0, else
 * nothing yet (NULL, STATE_PAUSED). */
static at_writer *open_first_range(void)
{
    char range[64];
    if (!gltrace_capture_first(range, sizeof range)) {
        atomic_store(&g_state, STATE_PAUSED);
        return NULL;
    }
    snprintf(g_range, sizeof g_range, "%s", range);
    return gltrace_open_range_trace(range, g_path, sizeof g_path, &g_stem_len, NULL, 0, NULL);
}

static void open_writer(void)
{
    at_writer *w = gltrace_capture_on() ? open_first_range()
                                        : gltrace_open_trace(g_forked, g_parent_path, g_path,
                                                             sizeof g_path);
    if (!w && atomic_load(&g_state) == STATE_PAUSED)
        return;
    if (!w) {
        atomic_store(&g_state, STATE_OFF);
        return;
    }
    atomic_store(&g_owner_pid, getpid());
    atomic_store(&g_writer, w);
    atomic_store(&g_state, STATE_ON);
    gltrace_safety_start();
}

static void child_after_fork(void)
{
    /* Drop the parent's writer untouched (see the top of the file). */
    at_writer *w = atomic_exchange(&g_writer, NULL);
    g_forked = 1;
    if (w) {
        memcpy(g_parent_path, g_path, sizeof g_path);
        atomic_store(&g_state, STATE_UNINIT); /* our own file at our next GL call */
    } else if (atomic_load(&g_state) == STATE_ON) {
        atomic_store(&g_state, STATE_OFF); /* the parent had finished its trace */
    }
    atomic_store(&g_owner_pid, 0);
    /* Another thread may have held it at the fork; only this thread exists now. */
    pthread_mutex_init(&g_open_lock, NULL);
}

/* The writer of the last range, finished: the next range's (at_writer_reopen). Never
 * freed: a thread may still be inside a call with it in hand. */
static at_writer *g_finished;

/* The range being opened, for the thread writing its snapshot alone. */
static __thread at_writer *t_snapshot_writer __attribute__((tls_model("initial-exec")));

static at_writer *writer_slow(void)
{
    if (t_snapshot_writer)
        return t_snapshot_writer;
    int state = atomic_load_explicit(&g_state, memory_order_relaxed);
    if (state == STATE_OFF || state == STATE_PAUSED)
        return NULL;
    pthread_mutex_lock(&g_open_lock);
    if (atomic_load(&g_state) == STATE_UNINIT)
        open_writer();
    pthread_mutex_unlock(&g_open_lock);
    return atomic_load_explicit(&g_writer, memory_order_acquire);
}

at_writer *gltrace_writer_if_open(void)
{
    at_writer *w = atomic_load_explicit(&g_writer, memory_order_acquire);
    /* A child made by a raw clone (no fork handlers) sees its parent's writer. */
    if (w && getpid() != atomic_load_explicit(&g_owner_pid, memory_order_relaxed))
        return NULL;
    return w;
}

const char *gltrace_trace_path(void) { return g_path; }

at_writer *gltrace_writer(void)
{
    at_writer *w = atomic_load_explicit(&g_writer, memory_order_acquire);
    if (__builtin_expect(w != NULL, 1))
        return w;
    return writer_slow();
}

/* Whether a thread other than the caller still exists (from /proc/self/stat). */
static int other_threads(void)
{
    size_t len = 0;
    char *stat = gltrace_read_proc("/proc/self/stat", &len);
    if (!stat)
        return 1; /* unknown: assume so, and do not free */
    long threads = 1;
    char *p = strrchr(stat, ')'); /* the command name may hold spaces and parentheses */
    if (p) {
        /* fields after the name: 3 state ... 20 num_threads */
        int field = 2;
        for (++p; *p && field < 20; ++p)
            if (*p == ' ')
                ++field;
        if (field == 20)
            threads = strtol(p, NULL, 10);
    }
    free(stat);
    return threads > 1;
}

/* The trace could not be written (a full disk, EIO): the file keeps what was
 * written before; the launcher is told (record_status.h) and exits non-zero. */
static void write_failed(const char *msg)
{
    fprintf(stderr, "gltrace: %s; the trace keeps the calls written before\n", msg);
    gltrace_status_report("trace: %s", msg);
}

static void finish_trace(void)
{
    if (!atomic_load(&g_writer) || getpid() != atomic_load(&g_owner_pid))
        return;
    at_writer *w = atomic_exchange(&g_writer, NULL);
    atomic_store(&g_state, STATE_OFF); /* calls from later exit handlers go unrecorded */
    if (!w)
        return;
    gt_error err;
    gt_error_clear(&err);
    if (other_threads()) {
        /* Another thread may be inside a wrapper with w in hand: keep w alive. */
        if (!at_writer_flush(w))
            gt_error_set(&err, "%s", at_writer_error(w) ? at_writer_error(w) : "write failed");
    } else {
        at_writer_close(w, &err);
    }
    if (err.set)
        write_failed(err.msg);
}

at_writer *gltrace_writer_open_range(const char *range, const at_writer_property *extra,
                                     unsigned nextra)
{
    pthread_mutex_lock(&g_open_lock);
    at_writer *w = NULL;
    if (atomic_load(&g_state) == STATE_PAUSED) {
        snprintf(g_range, sizeof g_range, "%s", range);
        w = gltrace_open_range_trace(range, g_path, sizeof g_path, &g_stem_len, extra, nextra,
                                     g_finished);
        if (w == g_finished)
            g_finished = NULL;
        if (w) {
            atomic_store(&g_owner_pid, getpid());
            gltrace_safety_start();
        } else {
            atomic_store(&g_state, STATE_OFF);
        }
    }
    t_snapshot_writer = w;
    pthread_mutex_unlock(&g_open_lock);
    return w;
}

void gltrace_writer_publish(void)
{
    pthread_mutex_lock(&g_open_lock);
    at_writer *w = t_snapshot_writer;
    t_snapshot_writer = NULL;
    if (w && atomic_load(&g_state) == STATE_PAUSED) {
        atomic_store(&g_writer, w);
        atomic_store(&g_state, STATE_ON);
    }
    pthread_mutex_unlock(&g_open_lock);
}

/* "<stem>.A-.trace" becomes "<stem>.A-B.trace" (its range known at last), unless a
 * file has that name. */
static void rename_range(const char *final_range)
{
    size_t n = strlen(g_range);
    if (!n || g_range[n - 1] != '-' || !strcmp(final_range, g_range))
        return;
    char to[PATH_MAX];
    int len = snprintf(to, sizeof to, "%.*s.%s%s", (int)g_stem_len, g_path, final_range,
                       g_path + g_stem_len + 1 + n);
    if (len > 0 && (size_t)len < sizeof to &&
        renameat2(AT_FDCWD, g_path, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        memcpy(g_path, to, (size_t)len + 1);
}

/* The writer is finished, not freed: another thread may be inside a call with it in
 * hand (what it writes is dropped: at_writer_finish). The next range reuses it. */
void gltrace_writer_end_range(const char *final_range)
{
    pthread_mutex_lock(&g_open_lock);
    at_writer *w = atomic_exchange(&g_writer, NULL);
    if (atomic_load(&g_state) == STATE_ON)
        atomic_store(&g_state, STATE_PAUSED);
    gt_error err;
    gt_error_clear(&err);
    if (w && !at_writer_finish(w, &err))
        write_failed(err.msg);
    if (w) {
        rename_range(final_range);
        g_finished = w;
    }
    pthread_mutex_unlock(&g_open_lock);
}

/* The timeline goes after the trace: every call it holds is in the trace on disk. */
static void finish(void)
{
    finish_trace();
    gltrace_timeline_finish();
}

__attribute__((constructor)) static void writer_init(void)
{
    pthread_atfork(NULL, NULL, child_after_fork);
    atexit(finish);
}

__attribute__((destructor)) static void writer_fini(void) { finish(); }
