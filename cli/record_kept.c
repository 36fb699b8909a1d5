/* What a recording whose trace could not be fully written kept (record_kept.h). */
#include "record_kept.h"

#include <stdio.h>
#include <sys/stat.h>

#include "at_reader.h"
#include "gltrace_cmds.h"

int gltrace_trace_kept(const char *path, char *out, size_t size)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, &err);
    if (!r) {
        snprintf(out, size, "no readable calls (%lld bytes)", (long long)st.st_size);
        return 1;
    }
    uint64_t calls = 0, frames = 0;
    gt_call *c;
    while ((c = at_reader_next(r))) {
        calls++;
        frames += (c->flags & GT_CALL_FLAG_END_FRAME) != 0;
        at_reader_release(r, c);
    }
    at_reader_close(r);
    snprintf(out, size, "%llu calls, %llu frames (%lld bytes)", (unsigned long long)calls,
             (unsigned long long)frames, (long long)st.st_size);
    return 1;
}
