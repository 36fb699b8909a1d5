/* Errors and warnings of the trace-cmd reader, in the "FILE: offset N: what" form. */
#include <stdarg.h>
#include <stdio.h>

#include "tc_internal.h"

static void vformat(char *buf, size_t n, const char *fmt, va_list ap)
{
    vsnprintf(buf, n, fmt, ap);
}

int tc_fail(tc_file *f, uint64_t off, const char *fmt, ...)
{
    char msg[GT_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vformat(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gt_error_at(f->err, f->name, off, "%s", msg);
    return -1;
}

static void vwarn(tc_file *f, uint64_t off, const char *fmt, va_list ap)
{
    if (!f->opts || !f->opts->warn)
        return;
    char msg[GT_ERROR_MAX], line[GT_ERROR_MAX + 64];
    vformat(msg, sizeof msg, fmt, ap);
    snprintf(line, sizeof line, "%s: offset %llu: %s", f->name, (unsigned long long)off, msg);
    f->opts->warn(f->opts->warn_ctx, line);
}

void tc_warn(tc_file *f, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(f, off, fmt, ap);
    va_end(ap);
}

int tc_deviation(tc_file *f, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (f->opts && f->opts->strict) {
        char msg[GT_ERROR_MAX];
        vformat(msg, sizeof msg, fmt, ap);
        va_end(ap);
        gt_error_at(f->err, f->name, off, "%s", msg);
        return -1;
    }
    vwarn(f, off, fmt, ap);
    va_end(ap);
    return 0;
}
