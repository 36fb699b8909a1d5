/* Crash safety: a traced program that dies still leaves a readable trace holding
 * every call that returned before it died.
 *
 * Signals. Every catchable signal whose default action ends the process is caught
 * (the table below, and the real-time signals SIGRTMIN..SIGRTMAX: glibc keeps the two
 * below SIGRTMIN, 32 and 33, for its threads and setxid, and refuses handlers there),
 * unless the program ignores it (it stays ignored). The handlers are installed once
 * per process image at the first GL call (a forked child inherits them; installing
 * them again would chain them to themselves). What the handler does depends on what
 * the signal would have done without us:
 *   - default action (the process ends): the trace is flushed as a dying process's
 *     (at_writer_flush_dying: waits a bounded time for a thread inside an event,
 *     else writes the complete events without the lock, never half of one; the
 *     lock is kept, so a call that returns from here on is one that was written), then
 *     the default action is restored and the signal raised again, so the process
 *     dies as it would have (core dump, exit status 128 + N for the launcher);
 *   - a handler the program installed before its first GL call: it is called, with
 *     its own SA_RESTART/SA_NODEFER/SA_RESETHAND flags and mask copied onto ours, so
 *     system calls it interrupts behave as before. Faults and the usual "please
 *     end" signals (SEGV BUS FPE ILL ABRT SYS TRAP, INT TERM HUP QUIT) are flushed
 *     first, with the lock only (the handler may return and the program go on).
 *     Other signals (timers, SIGPROF, SIGUSR*, SIGIO, real-time) are not flushed
 *     before: a profiler's 100 Hz SIGPROF must not write a chunk each time. After
 *     the program's handler returns, a signal it re-raised with the default action
 *     (the usual "clean up, SIG_DFL, raise" idiom) is pending: then the trace is
 *     flushed as dying before we return into that death. A handler that ends with
 *     _exit or exit is covered by the runtime's _exit and atexit flushes (which, like
 *     at_writer_flush, notice an event the signal interrupted on their own thread).
 * We do not interpose sigaction/signal (nor does apitrace): keeping our handler in
 * front of handlers installed later would mean emulating the kernel's per-handler
 * masks, flags and one-shot resets, and glibc's own internal calls bypass
 * interposition anyway; a program that installs a handler after its first GL call
 * replaces ours and keeps exactly its own behaviour, its exits still flushed by
 * _exit/atexit/abort (SIGABRT stays ours unless it was replaced too).
 *
 * Async-signal safety: the handler uses sigaction, sigpending, raise, nanosleep,
 * write(2) (through the writer's stored-chunk flush: no malloc, no Snappy), the
 * mutex's trylock/unlock, and atomics. A signal arriving while another thread's
 * handler flushes waits (bounded) for that flush; a crash inside our own flush
 * (same thread) skips the flush and goes straight on, so it never recurses.
 *
 * A flusher thread writes the pending bytes once a second, so even SIGKILL loses at
 * most about a second of calls. It is started per process: threads do not survive
 * fork(), so a forked child that opens its own trace starts its own flusher. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "gltrace_runtime.h"
#include "gt_thread.h"
#include "timeline_live.h"

/* Standard signals whose default action terminates (or dumps core). */
static const int terminating[] = {
    SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT, SIGBUS,    SIGFPE,
    SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGVTALRM, SIGPROF,
    SIGIO,   SIGSYS,  SIGXCPU, SIGXFSZ,
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
};
/* Flushed before the program's own handler: faults, and requests to end. */
static const int flush_first[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL,  SIGABRT,
                                  SIGSYS,  SIGTRAP, SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static struct sigaction previous[NSIG];
static unsigned char g_flush_first[NSIG];
static atomic_int g_flushing_tid; /* the thread flushing from a handler, 0: none */
/* gltrace_safety_start runs under runtime_writer.c's lock that opens the writer. */
static int g_handlers_installed; /* per image: inherited across fork */
static pid_t g_flusher_pid;      /* the process whose flusher runs */

/* Runs one flush from a handler: a second thread's signal waits (up to ~1 s) for
 * the first one's flush, so the process does not die under it; the same thread
 * (a crash inside the flush) skips. */
static void flush_from_handler(int dying)
{
    int self = (int)syscall(SYS_gettid), none = 0;
    for (int i = 0; !atomic_compare_exchange_strong(&g_flushing_tid, &none, self); ++i) {
        if (none == self || i == 10000)
            return;
        none = 0;
        struct timespec ts = {0, 100000};
        nanosleep(&ts, NULL);
    }
    at_writer *w = gltrace_writer_if_open();
    if (w && dying) {
        int tl = gltrace_timeline_hold_dying();
        at_writer_flush_dying(w); /* keeps the trace's lock, as the timeline's is kept */
        if (tl)
            gltrace_timeline_flush_held();
    } else if (w) {
        at_writer_flush_in_signal(w);
        gltrace_timeline_flush_in_signal();
    }
    atomic_store(&g_flushing_tid, 0);
}

static int is_default(const struct sigaction *sa)
{
    return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == SIG_DFL;
}

/* The program's handler has returned: if it set the default action back and raised
 * the signal again, the process dies as soon as we return. */
static void reraised_by_program(int sig)
{
    struct sigaction now;
    sigset_t pending;
    if (sigaction(sig, NULL, &now) == 0 && is_default(&now) && sigpending(&pending) == 0 &&
        sigismember(&pending, sig) == 1)
        flush_from_handler(1);
}

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    struct sigaction *old = &previous[sig];
    if (is_default(old)) {
        flush_from_handler(1);
        sigaction(sig, old, NULL);
        raise(sig); /* pending until we return, then the default action */
        return;
    }
    if (g_flush_first[sig])
        flush_from_handler(0);
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction)
            old->sa_sigaction(sig, info, ctx);
    } else if (old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
    }
    reraised_by_program(sig);
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

/* Ours in front of what was there: a program's handler keeps its flags and mask
 * (SA_RESTART decides whether a read(2) it interrupts fails with EINTR). */
static void install_one(int sig)
{
    struct sigaction old, sa;
    if (sigaction(sig, NULL, &old) != 0)
        return;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN)
        return; /* a signal the program ignores stays ignored */
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (!is_default(&old)) {
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK |
                      (old.sa_flags & (SA_RESTART | SA_NODEFER | SA_RESETHAND));
        sa.sa_mask = old.sa_mask;
    }
    previous[sig] = old;
    sigaction(sig, &sa, NULL);
}

static void install_handlers(void)
{
    for (size_t i = 0; i < sizeof flush_first / sizeof *flush_first; ++i)
        g_flush_first[flush_first[i]] = 1;
    for (size_t i = 0; i < sizeof terminating / sizeof *terminating; ++i)
        install_one(terminating[i]);
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig)
        install_one(sig);
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
    gt_thread t; /* never takes the program's signals (gt_thread.h) */
    gt_thread_start(&t, flusher, NULL, 1);
}
