/* The status channel from libgltrace.so back to the `gltrace` launcher
 * (record_status.c): a pipe whose write end the launcher leaves open in the
 * program, named by GLTRACE_STATUS_FD="FD:INODE". A recording process that cannot
 * write its trace or timeline (a full disk, /dev/full, EIO) sends one line saying
 * why, "trace: REASON" or "timeline: REASON"; the launcher repeats it with what the file kept and exits non-zero, even
 * when the program itself exited 0. */
#ifndef RECORD_STATUS_H
#define RECORD_STATUS_H

#include <stddef.h>

/* Launcher: makes the pipe and sets GLTRACE_STATUS_FD for the child. Returns the
 * read end (close-on-exec) or -1 with a message printed; *write_fd gets the write
 * end, to close in the launcher once the child is started. */
int gltrace_status_open(int *write_fd);

/* Launcher, after the program ended: the lines sent (NUL-terminated, at most
 * size - 1 bytes), without waiting for processes that still hold the pipe. */
size_t gltrace_status_read(int fd, char *out, size_t size);

/* Runtime: sends one line (printf-style, no newline) when the launcher listens.
 * The descriptor is checked against the pipe's inode first: the program may have
 * closed it and given its number to a file of its own. Async-signal-unsafe. */
void gltrace_status_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
