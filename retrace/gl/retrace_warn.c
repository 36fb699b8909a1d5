/* The replayers' warnings (retrace_gl.h): formatted here, told to the sink the user of
 * the library chose (glretrace: stderr as apitrace prints them; -b: none; tests and the
 * fuzzer: their own), so that this room calls nothing above it. */
#include <stdarg.h>
#include <stdio.h>

#include "gl/retrace_gl.h"

static void to_stderr(const gt_call *call, const char *msg)
{
    fprintf(stderr, "%u: %s: warning: %s\n", call->no, call->sig ? call->sig->name : "?", msg);
}

static retrace_warn_fn sink = to_stderr;

void retrace_set_warn(retrace_warn_fn fn) { sink = fn; }

retrace_warn_fn retrace_warn_stderr(void) { return to_stderr; }

void retrace_warning(const gt_call *call, const char *fmt, ...)
{
    if (!sink)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sink(call, msg);
}
