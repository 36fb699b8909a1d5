/* The recording runtime of libgltrace.so (wrappers/gltrace_runtime.h): the process's
 * trace writer, per-thread numbers and the lookup of the real GL/GLX/EGL functions.
 *
 * Hot path: gltrace_writer() is one atomic load and a compare once the writer is
 * open, gltrace_thread_no() one TLS load; nothing else allocates or locks outside
 * the writer's own lock. Everything slow (opening the file, finding real functions,
 * warnings) happens once and is cached by the caller.
 *
 * Lifetime of the writer:
 *   - opened on the first recorded call (pthread_once): GLTRACE_OUTPUT names the file
 *     (the `gltrace` launcher always sets it; an empty value turns recording off);
 *     without it "<program>.trace" in the current directory, or "<program>.N.trace"
 *     for the first N that is free (apitrace's naming), created with O_EXCL;
 *   - finished at exit by an atexit handler registered from our constructor, so it
 *     runs after the handlers the program registers in main() (their GL calls are
 *     recorded), and by our destructor as a fallback (library unloaded, odd exits);
 *     when other threads are still running the writer is flushed but not freed, so a
 *     thread still inside a wrapper cannot touch freed memory;
 *   - a forked child stops recording (pthread_atfork handler): it must never write
 *     into the parent's file, and for now it does not open one of its own. Children
 *     created without fork handlers (raw clone syscalls) are not covered; the exit
 *     path checks the pid so such a child at least never flushes into the file. */
#define _GNU_SOURCE
#include "gltrace_runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
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
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pid_t g_owner_pid;                  /* process that opened g_writer */
static char g_path[PATH_MAX];              /* the writer keeps a pointer to it */

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
        if (n == cap) {
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
        int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            close(fd); /* at_writer_open truncates and reopens the file we own now */
            return 1;
        }
        if (errno != EEXIST) {
            fprintf(stderr, "gltrace: cannot create %s: %s; not recording\n", out,
                    strerror(errno));
            return 0;
        }
    }
    fprintf(stderr, "gltrace: no free name for %s.trace; not recording\n", base);
    return 0;
}

static pthread_mutex_t g_seen_lock = PTHREAD_MUTEX_INITIALIZER; /* gltrace_first_time */

static void child_after_fork(void)
{
    /* The parent's writer (its buffer, its lock, its file) stays untouched here. */
    atomic_store(&g_writer, NULL);
    atomic_store(&g_state, STATE_OFF);
    /* Another thread may have held it at the fork; only this thread exists now. */
    pthread_mutex_init(&g_seen_lock, NULL);
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

    if (env) {
        if (strlen(env) >= sizeof g_path) {
            fprintf(stderr, "gltrace: GLTRACE_OUTPUT is too long; not recording\n");
            atomic_store(&g_state, STATE_OFF);
            return;
        }
        strcpy(g_path, env);
    } else if (default_path(exe, g_path, sizeof g_path)) {
        fprintf(stderr, "gltrace: recording to %s\n", g_path);
    } else {
        atomic_store(&g_state, STATE_OFF);
        return;
    }

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
    at_writer *w = at_writer_open(g_path, props, sizeof props / sizeof *props, &err);
    free(cmdline);
    if (!w) {
        fprintf(stderr, "gltrace: %s; not recording\n", err.msg);
        atomic_store(&g_state, STATE_OFF);
        return;
    }
    g_owner_pid = getpid();
    atomic_store(&g_writer, w);
    atomic_store(&g_state, STATE_ON);
    gltrace_safety_start();
}

static at_writer *writer_slow(void)
{
    if (atomic_load_explicit(&g_state, memory_order_relaxed) == STATE_OFF)
        return NULL;
    pthread_once(&g_once, open_writer);
    return atomic_load_explicit(&g_writer, memory_order_acquire);
}

at_writer *gltrace_writer_if_open(void)
{
    return atomic_load_explicit(&g_writer, memory_order_acquire);
}

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

static void finish(void)
{
    if (!atomic_load(&g_writer) || getpid() != g_owner_pid)
        return;
    at_writer *w = atomic_exchange(&g_writer, NULL);
    atomic_store(&g_state, STATE_OFF); /* calls from later exit handlers go unrecorded */
    if (!w)
        return;
    if (other_threads()) {
        /* Another thread may be inside a wrapper with w in hand: keep w alive. */
        if (!at_writer_flush(w))
            fprintf(stderr, "gltrace: %s: writing the trace failed\n", g_path);
        return;
    }
    gt_error err;
    gt_error_clear(&err);
    if (!at_writer_close(w, &err))
        fprintf(stderr, "gltrace: %s\n", err.msg);
}

__attribute__((constructor)) static void runtime_init(void)
{
    pthread_atfork(NULL, NULL, child_after_fork);
    atexit(finish);
}

__attribute__((destructor)) static void runtime_fini(void) { finish(); }

/* ---- thread numbers ---------------------------------------------------------------- */

static _Atomic uint32_t g_next_thread;
/* initial-exec: libgltrace.so is preloaded, so its TLS is in the static block and a
 * thread's number is one load (no __tls_get_addr call). Stored plus one; 0: unset. */
static __thread uint32_t t_thread_no __attribute__((tls_model("initial-exec")));

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
