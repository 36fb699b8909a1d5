/* What a recording whose trace could not be fully written kept (record_kept.c), for
 * the launcher's report (cmd_record.c). */
#ifndef RECORD_KEPT_H
#define RECORD_KEPT_H

#include <stddef.h>

/* "N calls, M frames (B bytes)" of the trace at path, as far as it reads. Returns 0
 * when path is not a regular file. */
int gltrace_trace_kept(const char *path, char *out, size_t size);

#endif
