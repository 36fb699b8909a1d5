/* The recording runtime of libgltrace.so (wrappers/gltrace_runtime.h): the process's
 * trace writer, per-thread numbers and the lookup of the real GL/GLX/EGL functions.
 *
 * Hot path: gltrace_writer() is one atomic load and a compare once the writer is
 * open, gltrace_thread_no() one TLS load; nothing else allocates or locks outside
 * the writer's own lock. Everything slow (opening the file, finding real functions,
 * warnings) happens once and is cached by the caller.
 *
 * Which file a process writes. Every process that has libgltrace.so preloaded and
 * makes a GL call writes its own trace, and no process ever writes into another's:
 *   - GLTRACE_OUTPUT names the trace (the `gltrace` launcher always sets it; an empty
 *     value turns recording off). The launcher creates the file empty and sets
 *     GLTRACE_OUTPUT_READY=1. The first process to record CLAIMS it: under an
 *     exclusive flock(2) of the file, it is ours only while it is still empty (size
 *     0); opening it writes the container magic at once, so the next claimant sees a
 *     non-empty file. That keeps wrapper scripts working (`gltrace run.sh`: the shell
 *     makes no GL call, the GL program it starts takes the name) and keeps a second
 *     GL program (an exec'd child, a sibling) from truncating the first one's trace.
 *   - every other process writes a DERIVED name: "X.trace" -> "X.<pid>.trace" (a name
 *     without ".trace" gets ".<pid>" appended), created with O_EXCL, and
 *     "X.<pid>.<n>.trace" for the first n free when taken (pid reuse; a process that
 *     exec'd a second GL program into the same pid). The launcher lists them.
 *   - a forked child (fork() without exec, pthread_atfork handler below) always takes
 *     a derived name, even when its parent had not claimed the main name yet, so a
 *     program that forks before its first GL call leaves the main name to the parent.
 *     In the child the inherited writer is dropped WITHOUT being flushed, closed or
 *     freed: its pending bytes are the parent's (the parent writes them), its file
 *     descriptor is the parent's file, and its lock may have been held by another
 *     thread of the parent at the moment of the fork (only the forking thread exists
 *     in the child), so even free() of it could act on state that is not ours. Its
 *     memory (two chunk buffers, ~2.2 MiB, copy-on-write and never touched again) is
 *     leaked on purpose; the inherited descriptor is close-on-exec. The child opens
 *     its own file on its next GL call.
 *   - without GLTRACE_OUTPUT: "<program>.trace" in the current directory, or
 *     "<program>.N.trace" for the first N that is free (apitrace's naming), created
 *     with O_EXCL; a forked child derives its name from its parent's file (or from
 *     "<program>.trace" when the parent had none yet).
 *   - GLTRACE_OUTPUT set by hand (LD_PRELOAD without the launcher, so no
 *     GLTRACE_OUTPUT_READY): our constructor does the launcher's part once, in the
 *     first process (creates/truncates the file, sets GLTRACE_OUTPUT_READY=1 for its
 *     descendants), before main and so before the program's threads.
 *
 * When the trace is written (with runtime_safety.c): chunks of 1 MiB as the stream
 * fills them; every second by a flusher thread (so SIGKILL loses at most about a
 * second of calls); on fatal and terminating signals; at exit by an atexit handler
 * registered from our constructor, so it runs after the handlers the program
 * registers in main() (their GL calls are recorded), and by our destructor as a
 * fallback (library unloaded, odd exits); and in _exit/_Exit, which we interpose
 * (they skip atexit handlers). When other threads are still running at exit the
 * writer is flushed but not freed, so a thread still inside a wrapper cannot touch
 * freed memory. Before an exec (override_exec.c) the trace is flushed and its lock
 * held across the exec, so the image that execs loses nothing; the new image writes
 * a derived name. Not covered: children
 * created by raw clone syscalls without fork handlers (the exit paths check the pid,
 * so such a child at least never flushes into its parent's file). */
#define _GNU_SOURCE
#include "derived_file.h"
#include "gltrace_runtime.h"
#include "gt_outfile.h"
#include "record_status.h"
#include "timeline_live.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Internal interface shared with override_dlopen.c and override_getprocaddress.c
 * (the runtime has no private header: these declarations are repeated there). */
void *gltrace_real_dlopen(const char *file, int flags);           /* override_dlopen.c */
int gltrace_gl_library(const char *file);                         /* below */
void gltrace_note_library(int lib, void *real_handle);            /* below */
int gltrace_first_time(const char *what, const char *name);       /* below */

enum { STATE_UNINIT, STATE_ON, STATE_OFF };

static at_writer *_Atomic g_writer;        /* non-NULL while recording */
static _Atomic int g_state = STATE_UNINIT; /* STATE_OFF: never (again) recording */
static pthread_mutex_t g_open_lock = PTHREAD_MUTEX_INITIALIZER; /* opening g_writer */
static _Atomic pid_t g_owner_pid;          /* process that opened g_writer */
static char g_path[PATH_MAX];              /* the writer keeps a pointer to it */
static int g_forked;                       /* a fork()ed copy of a recording process */
static char g_parent_path[PATH_MAX];       /* the parent's trace, when forked */

/* ---- output file ------------------------------------------------------------------ */

/* Reads a whole /proc file into a malloc'd NUL-terminated buffer; *len gets its size. */
static char *read_proc(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        n += (size_t)k;
        if (n == cap) { /* not gt_grow: one byte past cap is kept for the NUL */
            char *b = realloc(buf, cap * 2 + 1);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    close(fd);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

/* This process cannot record: said on stderr and to the launcher (record_status.h),
 * which then exits non-zero. */
__attribute__((format(printf, 1, 2))) static void not_recording(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gltrace: %s; not recording\n", msg);
    gltrace_status_report("trace: not recording: %s", msg);
}

/* Creates out exclusively; 1 when it is ours now, 0 when it exists, -1 (message
 * printed) on any other error. */
static int create_excl(const char *out)
{
    int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
        close(fd); /* at_writer_open truncates and reopens the file we own now */
        return 1;
    }
    if (errno == EEXIST)
        return 0;
    not_recording("cannot create %s: %s", out, strerror(errno));
    return -1;
}

/* "<basename of the executable>[.N].trace" in the current directory, the first that
 * can be created exclusively. Returns 0 with a message when none can be. */
static int default_path(const char *exe, char *out, size_t size)
{
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (!*base)
        base = "gltrace";
    for (unsigned n = 0; n < 10000; ++n) {
        int len = n ? snprintf(out, size, "%s.%u.trace", base, n)
                    : snprintf(out, size, "%s.trace", base);
        if (len < 0 || (size_t)len >= size)
            break;
        int r = create_excl(out);
        if (r)
            return r > 0;
    }
    not_recording("no free name for %s.trace", base);
    return 0;
}

/* The derived name of main for this process (derived_file.h), created; 1 on success. */
static int derived_path(const char *main_path, char *out, size_t size)
{
    int fd = gltrace_create_derived(main_path, ".trace", "trace", out, size);
    if (fd < 0)
        return 0;
    close(fd); /* at_writer_open truncates and reopens the file we own now */
    return 1;
}

static at_writer *open_at(const char *path, const char *exe)
{
    size_t len = 0;
    char *cmdline = read_proc("/proc/self/cmdline", &len);
    if (cmdline) { /* arguments are NUL-separated (and NUL-terminated): join with spaces */
        while (len && cmdline[len - 1] == '\0')
            --len;
        for (size_t i = 0; i < len; ++i)
            if (cmdline[i] == '\0')
                cmdline[i] = ' ';
        cmdline[len] = '\0';
    }
    at_writer_property props[] = {
        {"process.commandLine", cmdline ? cmdline : exe},
        {"process.name", exe},
    };
    gt_error err;
    gt_error_clear(&err);
    at_writer *w = at_writer_open(path, props, sizeof props / sizeof *props, &err);
    free(cmdline);
    if (!w)
        not_recording("%s", err.msg);
    return w;
}

/* Claims GLTRACE_OUTPUT (see the top of the file): opens the writer on it when it is
 * still empty. Returns the writer, or NULL with *taken set when another process has
 * it (then the caller takes a derived name), or NULL on an error (message printed). */
static at_writer *claim_main(const char *path, const char *exe, int *taken)
{
    *taken = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        not_recording("cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
        ;
    struct stat st;
    at_writer *w = NULL;
    if (fstat(fd, &st) != 0 || st.st_size != 0)
        *taken = 1;
    else
        w = open_at(path, exe); /* writes the magic before we let the lock go */
    close(fd);                  /* releases the flock */
    return w;
}

static void open_writer(void)
{
    const char *env = getenv("GLTRACE_OUTPUT");
    if (env && !*env) {
        atomic_store(&g_state, STATE_OFF);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        n = 0;
    exe[n] = '\0';
    if (!exe[0])
        strcpy(exe, "unknown");

    at_writer *w = NULL;
    if (env && strlen(env) >= sizeof g_path - 32) {
        not_recording("GLTRACE_OUTPUT is too long");
    } else if (env) {
        int taken = 1;
        if (!g_forked) {
            strcpy(g_path, env);
            w = claim_main(g_path, exe, &taken);
        }
        if (taken && derived_path(env, g_path, sizeof g_path))
            w = open_at(g_path, exe);
    } else if (g_forked) { /* beside the parent's trace, or its default name */
        const char *base = strrchr(exe, '/');
        char main_path[PATH_MAX];
        snprintf(main_path, sizeof main_path, "%s.trace", base ? base + 1 : exe);
        if (derived_path(g_parent_path[0] ? g_parent_path : main_path, g_path, sizeof g_path))
            w = open_at(g_path, exe);
    } else if (default_path(exe, g_path, sizeof g_path)) {
        fprintf(stderr, "gltrace: recording to %s\n", g_path);
        w = open_at(g_path, exe);
    }
    if (!w) {
        atomic_store(&g_state, STATE_OFF);
        return;
    }
    atomic_store(&g_owner_pid, getpid());
    atomic_store(&g_writer, w);
    atomic_store(&g_state, STATE_ON);
    gltrace_safety_start();
}

static pthread_mutex_t g_seen_lock = PTHREAD_MUTEX_INITIALIZER; /* gltrace_first_time */
static void restart_thread_numbers(void);

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
    /* Another thread may have held these at the fork; only this thread exists now. */
    pthread_mutex_init(&g_open_lock, NULL);
    pthread_mutex_init(&g_seen_lock, NULL);
    restart_thread_numbers(); /* the child's trace numbers its threads from 0 */
}

static at_writer *writer_slow(void)
{
    if (atomic_load_explicit(&g_state, memory_order_relaxed) == STATE_OFF)
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
    char *stat = read_proc("/proc/self/stat", &len);
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

/* _exit and _Exit skip atexit handlers and destructors: write the pending calls
 * first, then end the process as glibc's _exit does (exit_group). Only the process
 * that opened the writer flushes it: a vfork()ed child (which shares our memory,
 * and calls _exit when its exec fails) must not. The caller may be a signal handler
 * that interrupted this very thread inside the writer (or inside malloc): the dying
 * flush never waits long, never allocates, and then writes the complete events
 * without the lock (at_writer_flush_dying). */
static void flush_trace_before_exit(void)
{
    at_writer *w = gltrace_writer_if_open();
    if (w)
        at_writer_flush_dying(w);
}

/* The timeline goes after the trace: every call it holds is in the trace on disk. */
static void finish(void)
{
    finish_trace();
    gltrace_timeline_finish();
}

static void flush_before_exit(void)
{
    gltrace_timeline_finish(); /* flushes the trace first; the dying flush keeps its lock */
    flush_trace_before_exit();
}

GLTRACE_EXPORT __attribute__((noreturn)) void _exit(int status)
{
    flush_before_exit();
    for (;;)
        syscall(SYS_exit_group, status);
}

GLTRACE_EXPORT __attribute__((noreturn)) void _Exit(int status)
{
    flush_before_exit();
    for (;;)
        syscall(SYS_exit_group, status);
}

/* GLTRACE_OUTPUT set by hand: the first process prepares the file (see the top). */
static void prepare_output(void)
{
    const char *env = getenv("GLTRACE_OUTPUT");
    if (!env || !*env || getenv("GLTRACE_OUTPUT_READY"))
        return;
    /* as the launcher claims it (cmd_record.c): never truncated in place, a device
     * written directly; an error is reported when the first GL call opens it */
    gt_claim claim;
    gt_error err;
    gt_error_clear(&err);
    gt_outfile_claim(env, &claim, &err);
    setenv("GLTRACE_OUTPUT_READY", "1", 1);
}

__attribute__((constructor)) static void runtime_init(void)
{
    prepare_output();
    pthread_atfork(NULL, NULL, child_after_fork);
    atexit(finish);
}

__attribute__((destructor)) static void runtime_fini(void) { finish(); }

/* ---- thread numbers ---------------------------------------------------------------- */

static _Atomic uint32_t g_next_thread;
/* initial-exec: libgltrace.so is preloaded, so its TLS is in the static block and a
 * thread's number is one load (no __tls_get_addr call). Stored plus one; 0: unset. */
static __thread uint32_t t_thread_no __attribute__((tls_model("initial-exec")));

/* In a forked child: the forking thread (the only one) becomes thread 0. */
static void restart_thread_numbers(void)
{
    atomic_store(&g_next_thread, 1);
    t_thread_no = 1;
}

uint32_t gltrace_thread_no(void)
{
    uint32_t n = t_thread_no;
    if (__builtin_expect(n != 0, 1))
        return n - 1;
    n = atomic_fetch_add(&g_next_thread, 1);
    t_thread_no = n + 1;
    return n;
}

/* ---- warnings once ----------------------------------------------------------------- */

typedef struct seen_name {
    struct seen_name *next;
    char name[];
} seen_name;

static seen_name *g_seen; /* under g_seen_lock */

/* 1 the first time (what, name) is asked about, 0 afterwards: for one-time warnings. */
int gltrace_first_time(const char *what, const char *name)
{
    size_t lw = strlen(what), ln = strlen(name);
    pthread_mutex_lock(&g_seen_lock);
    int first = 1;
    for (seen_name *s = g_seen; s; s = s->next)
        if (!strncmp(s->name, what, lw) && s->name[lw] == ':' && !strcmp(s->name + lw + 1, name)) {
            first = 0;
            break;
        }
    if (first) {
        seen_name *s = malloc(sizeof *s + lw + ln + 2);
        if (s) {
            memcpy(s->name, what, lw);
            s->name[lw] = ':';
            memcpy(s->name + lw + 1, name, ln + 1);
            s->next = g_seen;
            g_seen = s;
        }
    }
    pthread_mutex_unlock(&g_seen_lock);
    return first;
}

/* ---- real libraries ---------------------------------------------------------------- */

enum { LIB_GL, LIB_GLX, LIB_OPENGL, LIB_EGL, LIB_GLESV2, LIB_GLESV1, NLIBS };

static const struct {
    const char *stem;   /* what a requested name starts with: "libGL.so" */
    const char *soname; /* what we load ourselves */
} g_libs[NLIBS] = {
    [LIB_GL] = {"libGL.so", "libGL.so.1"},
    [LIB_GLX] = {"libGLX.so", "libGLX.so.0"},
    [LIB_OPENGL] = {"libOpenGL.so", "libOpenGL.so.0"},
    [LIB_EGL] = {"libEGL.so", "libEGL.so.1"},
    [LIB_GLESV2] = {"libGLESv2.so", "libGLESv2.so.2"},
    [LIB_GLESV1] = {"libGLESv1_CM.so", "libGLESv1_CM.so.1"},
};

#define LIB_FAILED ((void *)1) /* we tried to load it and could not */

/* Real handles: the ones the program opened through our dlopen, else ours. */
static void *_Atomic g_handles[NLIBS];

/* Which GL-family library a dlopen name means (any directory, any soname version:
 * "/usr/lib/libGL.so.1.7.0", "libEGL.so"), or -1. Vendor libraries such as
 * libGLX_mesa.so.0 or libEGL_nvidia.so.0 are not in the family. */
int gltrace_gl_library(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (int i = 0; i < NLIBS; ++i) {
        size_t n = strlen(g_libs[i].stem);
        if (!strncmp(base, g_libs[i].stem, n) && (base[n] == '\0' || base[n] == '.'))
            return i;
    }
    return -1;
}

static int store_handle(int lib, void *h)
{
    void *expected = NULL;
    if (atomic_compare_exchange_strong(&g_handles[lib], &expected, h))
        return 1;
    if (expected == LIB_FAILED && atomic_compare_exchange_strong(&g_handles[lib], &expected, h))
        return 1;
    return 0;
}

/* Called by the dlopen interposer with the real library the program asked for. */
void gltrace_note_library(int lib, void *real_handle)
{
    if (lib < 0 || lib >= NLIBS || !real_handle)
        return;
    if (!store_handle(lib, real_handle))
        dlclose(real_handle); /* we hold one already; keep the counts balanced */
}

/* The real library's handle: one we hold, else one already in the process
 * (RTLD_NOLOAD), else, when load is set, loaded now. NULL when none. */
static void *lib_handle(int lib, int load)
{
    void *h = atomic_load(&g_handles[lib]);
    if (h == LIB_FAILED)
        return NULL;
    if (h)
        return h;
    h = gltrace_real_dlopen(g_libs[lib].soname, RTLD_LAZY | RTLD_LOCAL | (load ? 0 : RTLD_NOLOAD));
    if (!h) {
        if (load) {
            void *expected = NULL;
            atomic_compare_exchange_strong(&g_handles[lib], &expected, LIB_FAILED);
        }
        return NULL;
    }
    if (!store_handle(lib, h)) {
        dlclose(h);
        h = atomic_load(&g_handles[lib]);
        if (h == LIB_FAILED)
            h = NULL;
    }
    return h;
}

/* Whether p lies inside libgltrace.so itself: returning one of our own functions as
 * the "real" one would make its wrapper call itself forever. */
static int own_address(const void *p)
{
    static const void *_Atomic self_base;
    const void *base = atomic_load(&self_base);
    Dl_info info;
    if (!base) {
        if (!dladdr((const void *)&own_address, &info) || !info.dli_fbase)
            return 0;
        base = info.dli_fbase;
        atomic_store(&self_base, base);
    }
    return dladdr(p, &info) && info.dli_fbase == base;
}

static void *sym_in(int lib, const char *name, int load)
{
    void *h = lib_handle(lib, load);
    if (!h)
        return NULL;
    void *p = dlsym(h, name);
    if (p && own_address(p))
        return NULL;
    return p;
}

typedef void (*proc_fn)(void);
typedef proc_fn (*getproc_fn)(const char *);

/* Through the real glXGetProcAddressARB (libGL or libGLX) or eglGetProcAddress, when
 * their library is loaded (or load is set). */
static void *via_glx(const char *name, int load)
{
    void *gpa = sym_in(LIB_GL, "glXGetProcAddressARB", load);
    if (!gpa)
        gpa = sym_in(LIB_GLX, "glXGetProcAddressARB", load);
    if (!gpa)
        return NULL;
    void *p = (void *)((getproc_fn)gpa)(name);
    return p && !own_address(p) ? p : NULL;
}

static void *via_egl(const char *name, int load)
{
    void *gpa = sym_in(LIB_EGL, "eglGetProcAddress", load);
    if (!gpa)
        return NULL;
    void *p = (void *)((getproc_fn)gpa)(name);
    return p && !own_address(p) ? p : NULL;
}

/* Lookup order:
 *   1. the exported symbol in a candidate library that is already loaded (linked by
 *      the program, or opened through our dlopen), so an EGL/GLES program does not
 *      get libGL and Xlib loaded into it;
 *   2. GetProcAddress of the window-system libraries already loaded (extensions are
 *      only reachable there, with glvnd in particular);
 *   3. the candidates loaded now, in the order egl*: libEGL; glX*: libGL, libGLX;
 *      gl*: libGL, libOpenGL, libGLESv2, libGLESv1_CM; then their GetProcAddress. */
void *gltrace_real(const char *name)
{
    if (!name)
        return NULL;
    int order[4], n = 0;
    int is_egl = !strncmp(name, "egl", 3), is_glx = !strncmp(name, "glX", 3);
    if (is_egl) {
        order[n++] = LIB_EGL;
    } else if (is_glx) {
        order[n++] = LIB_GL;
        order[n++] = LIB_GLX;
    } else {
        order[n++] = LIB_GL;
        order[n++] = LIB_OPENGL;
        order[n++] = LIB_GLESV2;
        order[n++] = LIB_GLESV1;
    }
    void *p = NULL;
    for (int load = 0; load <= 1 && !p; ++load) {
        for (int i = 0; i < n && !p; ++i)
            p = sym_in(order[i], name, load);
        if (!p && !is_egl)
            p = via_glx(name, load);
        if (!p && !is_glx)
            p = via_egl(name, load);
    }
    if (!p && gltrace_first_time("real", name))
        fprintf(stderr, "gltrace: %s not found in the GL, GLX or EGL libraries; "
                        "calls to it do nothing and return zero\n", name);
    return p;
}
