/* Error reporting shared by every module: a message buffer the caller owns.
 * Library code fills it and returns a failure code; only main() decides to exit. */
#ifndef GT_ERROR_H
#define GT_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define GT_ERROR_MAX 512

typedef struct gt_error {
    char msg[GT_ERROR_MAX];
    int set; /* nonzero once a message is stored */
} gt_error;

void gt_error_clear(gt_error *e);

/* Stores a printf-style message; the first message wins so the root cause survives. */
void gt_error_set(gt_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Stores "FILE: offset N: what", the form every reader uses for bad input. */
void gt_error_at(gt_error *e, const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void gt_error_vat(gt_error *e, const char *file, uint64_t offset, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Formats "FILE: offset N: what" into BUF (N bytes, always terminated): the readers'
 * warnings take the same form as their errors. */
void gt_format_at(char *buf, size_t n, const char *file, uint64_t offset, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

#endif
