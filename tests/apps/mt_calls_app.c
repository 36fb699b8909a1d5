/* mt_calls_app: N threads make GL calls in a tight loop and publish, after each call
 * returns, how many they have completed; the fault-injection test
 * (tests/integration/signal_faults.sh) kills the recording at a random moment and
 * checks that every published call is in the trace.
 *
 *   mt_calls_app COUNTS_FILE [THREADS [EXEC_AFTER_MS PROGRAM ARGS...]]
 *
 * Each thread opens its own X connection, makes its own context current on a 16x16
 * pbuffer, then calls glClearStencil(t << 24 | i) for i = 0, 1, ... (t: the thread's
 * index), so the trace shows which calls of which thread are there. COUNTS_FILE
 * (created, 4 KiB, mapped shared) holds uint64 words: [0] the pid, [1] 1 once every
 * thread has made its first call, [2] THREADS, [8 + t] the calls thread t has
 * completed, stored (release) after each call returns, [128 + t] thread t's id (for
 * tgkill: a signal sent to the process goes to the idle main thread). The store goes to a shared
 * file mapping: it survives the process however it dies, and costs no system call.
 * The process is made non-dumpable, so fatal signals leave no core dumps behind.
 *
 * With EXEC_AFTER_MS: that many ms after every thread started, the main thread
 * execv()s PROGRAM (no fork) while the threads keep calling. */
#define _GNU_SOURCE
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { MAX_THREADS = 64, WORD_COUNTS = 8, WORD_TIDS = 128, MAX_CALLS = 1 << 24 };

static _Atomic uint64_t *g_words;
static pthread_barrier_t g_started;

static void die(const char *what)
{
    fprintf(stderr, "mt_calls_app: %s\n", what);
    exit(1);
}

/* Its own display connection, context and pbuffer, current on this thread. */
static void make_current(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy)
        die("no display");
    int attrs[] = {GLX_DRAWABLE_TYPE, GLX_PBUFFER_BIT, GLX_RENDER_TYPE, GLX_RGBA_BIT,
                   GLX_STENCIL_SIZE, 8, None};
    int n = 0;
    GLXFBConfig *cfg = glXChooseFBConfig(dpy, DefaultScreen(dpy), attrs, &n);
    if (!cfg || n < 1)
        die("no pbuffer config");
    int pb_attrs[] = {GLX_PBUFFER_WIDTH, 16, GLX_PBUFFER_HEIGHT, 16, None};
    GLXPbuffer pb = glXCreatePbuffer(dpy, cfg[0], pb_attrs);
    GLXContext ctx = glXCreateNewContext(dpy, cfg[0], GLX_RGBA_TYPE, NULL, True);
    if (!pb || !ctx || !glXMakeContextCurrent(dpy, pb, pb, ctx))
        die("no context");
    XFree(cfg);
}

static void *worker(void *arg)
{
    unsigned t = (unsigned)(uintptr_t)arg;
    g_words[WORD_TIDS + t] = (uint64_t)syscall(SYS_gettid);
    make_current();
    _Atomic uint64_t *count = &g_words[WORD_COUNTS + t];
    for (uint32_t i = 0; i < MAX_CALLS; ++i) {
        glClearStencil((GLint)(t << 24 | i));
        atomic_store_explicit(count, i + 1, memory_order_release);
        if (i == 0)
            pthread_barrier_wait(&g_started);
    }
    while (pause() == -1) /* all calls made: wait for the signal */
        ;
    return NULL;
}

static void map_counts(const char *path, unsigned threads)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, 4096) != 0)
        die("cannot create the counts file");
    g_words = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (g_words == MAP_FAILED)
        die("cannot map the counts file");
    close(fd);
    g_words[0] = (uint64_t)getpid();
    g_words[2] = threads;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: mt_calls_app COUNTS_FILE [THREADS [EXEC_AFTER_MS PROGRAM ARGS...]]");
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 8;
    if (threads < 1 || threads > MAX_THREADS)
        die("THREADS: 1 to 64");
    prctl(PR_SET_DUMPABLE, 0);
    XInitThreads();
    map_counts(argv[1], threads);
    pthread_barrier_init(&g_started, NULL, threads + 1);
    for (unsigned t = 0; t < threads; ++t) {
        pthread_t th;
        if (pthread_create(&th, NULL, worker, (void *)(uintptr_t)t) != 0)
            die("cannot start a thread");
    }
    pthread_barrier_wait(&g_started);
    atomic_store(&g_words[1], 1);
    if (argc > 4) {
        long ms = atol(argv[3]);
        struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
        nanosleep(&ts, NULL);
        execv(argv[4], argv + 4);
        die("execv failed");
    }
    for (;;)
        pause();
}
