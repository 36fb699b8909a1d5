/* Errors and warnings of the trace-cmd reader, in the "FILE: offset N: what" form. */
#include <stdarg.h>
#include <stdbool.h>

#include "tc_internal.h"

int tc_fail(tc_file *f, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gt_error_vat(f->err, f->name, off, fmt, ap);
    va_end(ap);
    return -1;
}

static void vwarn(tc_file *f, uint64_t off, const char *fmt, va_list ap)
{
    if (!f->opts || !f->opts->warn)
        return;
    char line[GT_ERROR_MAX];
    gt_format_at(line, sizeof line, f->name, off, fmt, ap);
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
    bool strict = f->opts && f->opts->strict;
    if (strict)
        gt_error_vat(f->err, f->name, off, fmt, ap);
    else
        vwarn(f, off, fmt, ap);
    va_end(ap);
    return strict ? -1 : 0;
}
