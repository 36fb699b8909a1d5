/* The recording runtime's own interface between its files (not for the generated
 * wrappers, which see gltrace_runtime.h): the real dlopen, the GL-family libraries the
 * program opened, one-time warnings, and the opening of this process's trace. */
#ifndef RUNTIME_PRIVATE_H
#define RUNTIME_PRIVATE_H

#include <stddef.h>

#include "at_writer.h"

/* The real dlopen, past our interposer (override_dlopen.c). */
void *gltrace_real_dlopen(const char *file, int flags);

/* Which GL-family library a dlopen name means (any directory, any soname version:
 * "/usr/lib/libGL.so.1.7.0", "libEGL.so"), or -1 (runtime_real.c). Vendor libraries
 * such as libGLX_mesa.so.0 or libEGL_nvidia.so.0 are not in the family. */
int gltrace_gl_library(const char *file);

/* The dlopen interposer hands over the real library the program asked for, which the
 * real-function lookup searches first (runtime_real.c). */
void gltrace_note_library(int lib, void *real_handle);

/* 1 the first time (what, name) is asked about, 0 afterwards: for one-time warnings
 * (runtime_warn.c). */
int gltrace_first_time(const char *what, const char *name);

/* Opens this process's trace (runtime_file.c says which file), writing its name into
 * path (size bytes). forked: a fork()ed copy of a recording process, whose trace is
 * named after parent_path (its parent's trace; "" when the parent had none yet).
 * Returns NULL when recording is off (GLTRACE_OUTPUT is empty) or the file could not
 * be opened (said on stderr and to the launcher). */
at_writer *gltrace_open_trace(int forked, const char *parent_path, char *path, size_t size);

/* Opens the trace of a frame range (range: "A-B"): "<stem>.A-B.trace", stem being
 * GLTRACE_OUTPUT without ".trace" (else the program's name, here), or
 * "<stem>.A-B.<n>.trace" for the first n free; the name goes into path, the stem's
 * length into *stem_len. extra: properties after the process's; reuse: the finished
 * writer of the previous range, which writes it (at_writer_reopen), or NULL. NULL
 * when it could not be made (said on stderr and to the launcher). */
at_writer *gltrace_open_range_trace(const char *range, char *path, size_t size, size_t *stem_len,
                                     const at_writer_property *extra, unsigned nextra,
                                     at_writer *reuse);

/* Frame ranges (capture_frames.c drives them, runtime_writer.c does it): the trace of
 * the range named range ("A-B", or "A-" until a trigger ends it) starts now; the one
 * being written ends now (flushed and closed; threads still inside a call with it
 * write nothing more), renamed for final_range when its name was "A-" (never over
 * an existing file). */
void gltrace_writer_end_range(const char *final_range);

/* A range that starts after the first frame (its state snapshot first: snapshot.c):
 * open_range opens its trace, with the properties extra after the process's, for the
 * calling thread alone (it writes the snapshot); publish lets every thread write.
 * open_range returns NULL when the trace could not be opened (recording stops). */
at_writer *gltrace_writer_open_range(const char *range, const at_writer_property *extra,
                                     unsigned nextra);
void gltrace_writer_publish(void);

/* A whole /proc file in a malloc'd NUL-terminated buffer, its size in *len; NULL when
 * it cannot be read (runtime_file.c). */
char *gltrace_read_proc(const char *path, size_t *len);

#endif
