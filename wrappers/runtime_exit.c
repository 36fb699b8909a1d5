/* _exit and _Exit, interposed: they skip atexit handlers and destructors, so the
 * pending calls are written first, then the process ends as glibc's _exit does
 * (exit_group). Only the process that opened the writer flushes it: a vfork()ed child
 * (which shares our memory, and calls _exit when its exec fails) must not. The caller
 * may be a signal handler that interrupted this very thread inside the writer (or
 * inside malloc): the dying flush never waits long, never allocates, and then writes
 * the complete events without the lock (at_writer_flush_dying). */
#define _GNU_SOURCE
#include "gltrace_runtime.h"
#include "timeline_live.h"

#include <sys/syscall.h>
#include <unistd.h>

static void flush_before_exit(void)
{
    gltrace_timeline_finish(); /* flushes the trace first; the dying flush keeps its lock */
    at_writer *w = gltrace_writer_if_open();
    if (w)
        at_writer_flush_dying(w);
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
