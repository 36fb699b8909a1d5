/* The file of a process's live timeline (timeline_live_file.c). */
#ifndef TIMELINE_LIVE_FILE_H
#define TIMELINE_LIVE_FILE_H

#include <stddef.h>

/* Opens this process's timeline for writing: env (GLTRACE_TIMELINE) when this
 * process writes the main trace and env is still empty, claimed under flock
 * (*locked = 1: the caller releases it with flock(fd, LOCK_UN) once the header is
 * written); else the derived name beside parent (a forked child's parent's
 * timeline, "" when none) or env. The path taken goes to path. Returns the
 * descriptor, or -1 with a message printed. */
int gltrace_timeline_open_file(const char *env, int forked, const char *parent, char *path,
                               size_t size, int *locked);

#endif
