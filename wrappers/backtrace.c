/* Backtraces of chosen calls. Placeholder until backtraces land: no call is chosen. */
#include "gltrace_runtime.h"

void gltrace_backtrace(at_writer *w, uint32_t fid, const char *name)
{
    (void)w;
    (void)fid;
    (void)name;
}
