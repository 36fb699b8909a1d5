/* Which file a process's live timeline goes to (wrappers/timeline_live.c), as
 * runtime_file.c chooses the trace's: GLTRACE_TIMELINE ("X.fxt") is claimed, under flock
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

#include "derived_file.h"
#include "gltrace_runtime.h"
#include "record_status.h"

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
            gltrace_status_report("timeline: cannot open %s: %s", env, strerror(errno));
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
    return gltrace_create_derived(forked && parent[0] ? parent : env, ".fxt", "timeline", path, size);
}
