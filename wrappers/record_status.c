/* The status channel from the recording runtime to the launcher (record_status.h). */
#define _GNU_SOURCE
#include "record_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gltrace_status_open(int *write_fd)
{
    int p[2];
    struct stat st;
    char value[64];
    if (pipe2(p, O_CLOEXEC) != 0) {
        fprintf(stderr, "gltrace: pipe: %s\n", strerror(errno));
        return -1;
    }
    /* the write end is inherited by the program (and what it execs) */
    /* non-blocking both ways: a full pipe drops a line rather than stall the program */
    if (fcntl(p[1], F_SETFD, 0) != 0 || fcntl(p[0], F_SETFL, O_NONBLOCK) != 0 ||
        fcntl(p[1], F_SETFL, O_NONBLOCK) != 0 ||
        fstat(p[1], &st) != 0) {
        fprintf(stderr, "gltrace: status pipe: %s\n", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    snprintf(value, sizeof value, "%d:%llu", p[1], (unsigned long long)st.st_ino);
    if (setenv("GLTRACE_STATUS_FD", value, 1) != 0) {
        fprintf(stderr, "gltrace: cannot set the environment: %s\n", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    *write_fd = p[1];
    return p[0];
}

size_t gltrace_status_read(int fd, char *out, size_t size)
{
    size_t n = 0;
    while (n + 1 < size) {
        ssize_t k = read(fd, out + n, size - 1 - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break; /* EOF, or EAGAIN: a process still holds the pipe */
        n += (size_t)k;
    }
    out[n] = '\0';
    return n;
}

/* The launcher's pipe, when GLTRACE_STATUS_FD still names it; else -1. */
static int status_fd(void)
{
    const char *env = getenv("GLTRACE_STATUS_FD");
    char *end;
    if (!env || !*env)
        return -1;
    long fd = strtol(env, &end, 10);
    if (*end != ':' || fd < 0)
        return -1;
    unsigned long long ino = strtoull(end + 1, NULL, 10);
    struct stat st;
    if (fstat((int)fd, &st) != 0 || !S_ISFIFO(st.st_mode) || st.st_ino != ino)
        return -1;
    return (int)fd;
}

void gltrace_status_report(const char *fmt, ...)
{
    int fd = status_fd();
    if (fd < 0)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    /* one write of less than PIPE_BUF bytes: lines of several processes never mix */
    ssize_t k = write(fd, line, (size_t)n);
    (void)k;
}
