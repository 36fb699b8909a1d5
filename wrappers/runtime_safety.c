/* Crash safety: a traced program that dies still leaves a readable trace.
 *
 * Fatal and terminating signals flush the trace, then go on to whatever the program
 * (or the default action) would have done: the previous handler is called, or the
 * default action restored and the signal raised again. The handlers are installed
 * once per process image (a forked child inherits them, and installing them again
 * would chain them to themselves); a signal arriving while a flush from a handler is
 * under way (a crash inside the flush itself, a second signal) skips the flush and
 * goes straight on, so the handler never recurses into the writer.
 *
 * A flusher thread writes the pending bytes once a second, so even SIGKILL loses at
 * most about a second of calls. It is started per process: threads do not survive
 * fork(), so a forked child that opens its own trace starts its own flusher.
 *
 * Flushes from here never wait: a thread inside the writer at that moment (holding
 * its lock between the begin and end of an event) means this flush is skipped; the
 * next tick, or the exit handler, catches up. One consequence: a SIGSEGV raised
 * inside a wrapper while the writer's lock is held (a bad pointer argument read
 * while recording it) cannot flush; the calls since the last flush (at most about a
 * second, or one 1 MiB chunk) are lost. Calls complete before the crash point
 * otherwise are all written: each call's enter event is finished (lock released)
 * before the real function runs. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "gltrace_runtime.h"
#include "timeline_live.h"

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS,
                             SIGFPE, SIGILL, SIGABRT, SIGPIPE, SIGXCPU, SIGXFSZ,
                             SIGSYS};
static struct sigaction previous[NSIG];
static volatile sig_atomic_t in_handler;
/* gltrace_safety_start runs under runtime.c's lock that opens the writer. */
static int g_handlers_installed; /* per image: inherited across fork */
static pid_t g_flusher_pid;      /* the process whose flusher runs */

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    if (!in_handler) { /* a crash inside the flush itself must not recurse */
        in_handler = 1;
        at_writer *w = gltrace_writer_if_open();
        if (w)
            at_writer_try_flush_in_signal(w);
        gltrace_timeline_flush();
        in_handler = 0;
    }
    struct sigaction *old = &previous[sig];
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction)
            old->sa_sigaction(sig, info, ctx);
    } else if (old->sa_handler == SIG_IGN) {
        return;
    } else if (old->sa_handler == SIG_DFL) {
        sigaction(sig, old, NULL);
        raise(sig); /* delivered when we return, with the default action */
    } else {
        old->sa_handler(sig);
    }
}

static void *flusher(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec ts = {1, 0};
        while (nanosleep(&ts, &ts) != 0)
            ;
        at_writer *w = gltrace_writer_if_open();
        if (!w)
            return NULL;
        at_writer_try_flush(w);
        gltrace_timeline_flush();
    }
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; ++i) {
        struct sigaction old;
        if (sigaction(caught[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN)
            continue; /* a signal the program ignores stays ignored */
        previous[caught[i]] = old;
        sigaction(caught[i], &sa, NULL);
    }
}

void gltrace_safety_start(void)
{
    if (!g_handlers_installed) {
        g_handlers_installed = 1;
        install_handlers();
    }
    pid_t self = getpid();
    if (g_flusher_pid == self)
        return;
    g_flusher_pid = self;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old_mask;
    sigfillset(&all); /* the flusher never takes the program's signals */
    pthread_sigmask(SIG_SETMASK, &all, &old_mask);
    pthread_create(&t, &attr, flusher, NULL);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    pthread_attr_destroy(&attr);
}
