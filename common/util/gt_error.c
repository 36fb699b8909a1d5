#include "gt_error.h"

#include <stdarg.h>
#include <stdio.h>

void gt_error_clear(gt_error *e)
{
    e->msg[0] = '\0';
    e->set = 0;
}

void gt_error_set(gt_error *e, const char *fmt, ...)
{
    if (!e || e->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->set = 1;
}

void gt_error_at(gt_error *e, const char *file, uint64_t offset, const char *fmt, ...)
{
    if (!e || e->set)
        return;
    int n = snprintf(e->msg, sizeof e->msg, "%s: offset %llu: ", file ? file : "<input>",
                     (unsigned long long)offset);
    if (n < 0 || (size_t)n >= sizeof e->msg)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + n, sizeof e->msg - (size_t)n, fmt, ap);
    va_end(ap);
    e->set = 1;
}
