/* Which file a process's live timeline goes to (wrappers/timeline_live.c), as
 * runtime.c chooses the trace's: GLTRACE_TIMELINE ("X.fxt") is claimed, under flock
 * while it is still empty, by the process that writes the main trace; every other
 * process (forked children, other programs of the run) writes "X.<pid>.fxt"
 * ("X.<pid>.<n>.fxt" when taken; no ".fxt" in X: "X.<pid>"), created exclusively. */
#define _GNU_SOURCE
#include "timeline_live_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gltrace_runtime.h"

/* "X.fxt" -> "X.<pid>.fxt" (else "X.<pid>"), "X.<pid>.<n>.fxt" for the first n
 * free; created exclusively. Returns the descriptor, or -1 (message printed). */
static int open_derived(const char *main_path, char *out, size_t size)
{
    size_t len = strlen(main_path), stem = len;
    const char *ext = "";
    if (len > 4 && !strcmp(main_path + len - 4, ".fxt")) {
        stem = len - 4;
        ext = ".fxt";
    }
    unsigned pid = (unsigned)getpid();
    for (unsigned n = 0; n < 10000; ++n) {
        int k = n ? snprintf(out, size, "%.*s.%u.%u%s", (int)stem, main_path, pid, n, ext)
                  : snprintf(out, size, "%.*s.%u%s", (int)stem, main_path, pid, ext);
        if (k < 0 || (size_t)k >= size)
            break;
        int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST) {
            fprintf(stderr, "gltrace: cannot create the timeline %s: %s\n", out, strerror(errno));
            return -1;
        }
    }
    fprintf(stderr, "gltrace: no free name for the timeline beside %s\n", main_path);
    return -1;
}

/* Whether this process writes the main trace (then it may claim the main timeline). */
static int writes_main_trace(int forked)
{
    if (forked)
        return 0;
    const char *out = getenv("GLTRACE_OUTPUT");
    return !out || !*out || !strcmp(out, gltrace_trace_path());
}

int gltrace_timeline_open_file(const char *env, int forked, const char *parent, char *path,
                               size_t size, int *locked)
{
    *locked = 0;
    if (writes_main_trace(forked)) {
        int fd = open(env, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            fprintf(stderr, "gltrace: cannot open the timeline %s: %s\n", env, strerror(errno));
            return -1;
        }
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
        struct stat st;
        if (fstat(fd, &st) == 0 && st.st_size == 0) {
            snprintf(path, size, "%s", env);
            *locked = 1;
            return fd;
        }
        close(fd); /* taken by another process of the run; releases the flock */
    }
    return open_derived(forked && parent[0] ? parent : env, path, size);
}
