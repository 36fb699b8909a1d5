/* exec interposition: a successful exec replaces the process image and with it the
 * writer's pending bytes (up to a second of calls: apitrace loses them too). Before
 * every exec-family call the timeline and the trace are flushed, and the trace's
 * lock is kept across the real call, so no other thread adds an event the new
 * image would drop; when the exec fails the lock is released and recording goes on.
 * The new image, preloaded again, writes its own derived trace (runtime_file.c).
 *
 * Covered: execve, execv, execvp, execvpe, execl, execlp, execle, fexecve, execveat
 * (the variadic ones build their argv on the stack, as glibc's do, and go through
 * ours). Not needed: posix_spawn, posix_spawnp, system, popen (the parent lives
 * on; glibc's own execs inside them, and inside execvp's PATH search, call its
 * internal __execve, which nobody can interpose). Nothing happens in a vfork()ed
 * child (gltrace_writer_if_open is NULL outside the process that opened the trace:
 * the child shares the parent's memory, lock included), nor when the caller's own
 * thread is inside an event (an exec from a signal handler that interrupted it).
 *
 * The real functions are looked up by our constructor, so that an exec from a
 * vfork()ed child or a signal handler (where execve is allowed) never runs dlsym. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "gltrace_runtime.h"
#include "timeline_live.h"


typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);

static struct {
    execve_fn execve, execvpe;
    execv_fn execv, execvp;
    fexecve_fn fexecve;
    execveat_fn execveat;
} real;

static void *next(const char *name) { return dlsym(RTLD_NEXT, name); }

__attribute__((constructor)) static void exec_init(void)
{
    real.execve = (execve_fn)next("execve");
    real.execvpe = (execve_fn)next("execvpe");
    real.execv = (execv_fn)next("execv");
    real.execvp = (execv_fn)next("execvp");
    real.fexecve = (fexecve_fn)next("fexecve");
    real.execveat = (execveat_fn)next("execveat");
}

/* Flushes and holds the trace: the writer to release, or NULL. */
static at_writer *before_exec(void)
{
    at_writer *w = gltrace_writer_if_open();
    if (!w)
        return NULL;
    gltrace_timeline_flush(); /* its calls are in the trace file first (timeline_live.c) */
    return at_writer_hold_flushed(w) ? w : NULL;
}

/* The exec failed (its result is r, errno its error): recording goes on. */
static int after_exec(at_writer *w, int r)
{
    int e = errno;
    if (w)
        at_writer_release(w);
    errno = e;
    return r;
}

static int unavailable(void)
{
    errno = ENOSYS;
    return -1;
}

GLTRACE_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    if (!real.execve)
        exec_init();
    if (!real.execve)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.execve(path, argv, envp));
}

GLTRACE_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    if (!real.execvpe)
        exec_init();
    if (!real.execvpe)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.execvpe(file, argv, envp));
}

GLTRACE_EXPORT int execv(const char *path, char *const argv[])
{
    if (!real.execv)
        exec_init();
    if (!real.execv)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.execv(path, argv));
}

GLTRACE_EXPORT int execvp(const char *file, char *const argv[])
{
    if (!real.execvp)
        exec_init();
    if (!real.execvp)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.execvp(file, argv));
}

GLTRACE_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    if (!real.fexecve)
        exec_init();
    if (!real.fexecve)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.fexecve(fd, argv, envp));
}

GLTRACE_EXPORT int execveat(int dirfd, const char *path, char *const argv[],
                            char *const envp[], int flags)
{
    if (!real.execveat)
        exec_init();
    if (!real.execveat)
        return unavailable();
    at_writer *w = before_exec();
    return after_exec(w, real.execveat(dirfd, path, argv, envp, flags));
}

/* The variadic forms: count the arguments, then copy them into an array on the
 * stack (execl must not allocate: it may follow a vfork). */
static size_t count_args(const char *arg0, va_list ap)
{
    size_t n = 1;
    if (!arg0)
        return 0;
    while (va_arg(ap, const char *))
        ++n;
    return n;
}

/* The variadic exec calls' arguments as an argv array (a VLA in the caller's frame, so a
 * macro): ARGV holds ARG0 and what follows it up to its NULL; AP is left open after the
 * NULL (execle's environment comes next) for the caller to end. */
#define GATHER_ARGV(argv, arg0, ap)                                                       \
    va_start(ap, arg0);                                                                   \
    size_t n_ = count_args(arg0, ap);                                                     \
    va_end(ap);                                                                           \
    char *argv[n_ + 1];                                                                   \
    va_start(ap, arg0);                                                                   \
    argv[0] = (char *)(arg0);                                                             \
    for (size_t i_ = 1; i_ <= n_; ++i_)                                                   \
        argv[i_] = va_arg(ap, char *); /* the last one read is the NULL */                \
    argv[n_] = NULL

GLTRACE_EXPORT int execl(const char *path, const char *arg0, ...)
{
    va_list ap;
    GATHER_ARGV(argv, arg0, ap);
    va_end(ap);
    return execv(path, argv);
}

GLTRACE_EXPORT int execlp(const char *file, const char *arg0, ...)
{
    va_list ap;
    GATHER_ARGV(argv, arg0, ap);
    va_end(ap);
    return execvp(file, argv);
}

GLTRACE_EXPORT int execle(const char *path, const char *arg0, ...)
{
    va_list ap;
    GATHER_ARGV(argv, arg0, ap);
    char *const *envp = va_arg(ap, char *const *); /* after the NULL */
    va_end(ap);
    return execve(path, argv, envp);
}
