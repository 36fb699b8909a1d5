#include "gt_error.h"

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

void gt_format_at(char *buf, size_t n, const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    int k = snprintf(buf, n, "%s: offset %llu: ", file ? file : "<input>", (unsigned long long)offset);
    if (k < 0 || (size_t)k >= n)
        k = 0;
    vsnprintf(buf + k, n - (size_t)k, fmt, ap);
}

void gt_error_vat(gt_error *e, const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    if (!e || e->set)
        return;
    gt_format_at(e->msg, sizeof e->msg, file, offset, fmt, ap);
    e->set = 1;
}

void gt_error_at(gt_error *e, const char *file, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gt_error_vat(e, file, offset, fmt, ap);
    va_end(ap);
}
