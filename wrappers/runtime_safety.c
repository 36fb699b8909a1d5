/* Crash safety: a traced program that dies still leaves a readable trace.
 *
 * Fatal and terminating signals flush the trace, then go on to whatever the program
 * (or the default action) would have done: the previous handler is called, or the
 * default action restored and the signal raised again. A flusher thread writes the
 * pending bytes once a second, so even SIGKILL loses at most about a second.
 * Flushes never wait: a thread inside the writer at that moment means this flush is
 * skipped (the next one, or the exit handler, catches up). */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gltrace_runtime.h"

static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS,
                             SIGFPE, SIGILL, SIGABRT, SIGPIPE};
static struct sigaction previous[NSIG];
static volatile sig_atomic_t in_handler;

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    if (!in_handler) { /* a crash inside the flush itself must not recurse */
        in_handler = 1;
        at_writer *w = gltrace_writer_if_open();
        if (w)
            at_writer_try_flush(w);
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
    }
}

void gltrace_safety_start(void)
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
