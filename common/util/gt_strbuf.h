/* Growable byte buffer for building output text; written out in large pieces. */
#ifndef GT_STRBUF_H
#define GT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct gt_strbuf {
    char *data;
    size_t len, cap;
    int oom; /* set once an allocation failed; later appends are dropped */
} gt_strbuf;

void gt_strbuf_init(gt_strbuf *b);
void gt_strbuf_free(gt_strbuf *b);
/* Room for extra more bytes: 0, or -1 (and oom set) when memory runs out. */
int gt_strbuf_reserve(gt_strbuf *b, size_t extra);
void gt_strbuf_printf(gt_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gt_strbuf_u64(gt_strbuf *b, uint64_t v);
void gt_strbuf_i64(gt_strbuf *b, int64_t v);
void gt_strbuf_hex(gt_strbuf *b, uint64_t v); /* lowercase, no prefix */
/* Writes the contents to f and empties the buffer; 0, or -1 on a write error. */
int gt_strbuf_flush(gt_strbuf *b, FILE *f);

static inline void gt_strbuf_put(gt_strbuf *b, const char *s, size_t n)
{
    /* n == 0: an empty buffer (data and s may be NULL) is valid input, and
     * memcpy with a NULL pointer is undefined even for 0 bytes. */
    if (n == 0)
        return;
    if (b->cap - b->len < n && gt_strbuf_reserve(b, n) < 0)
        return;
    if (n <= 16) { /* most pieces are a few bytes: no call to memcpy */
        for (size_t i = 0; i < n; ++i)
            b->data[b->len + i] = s[i];
    } else {
        memcpy(b->data + b->len, s, n);
    }
    b->len += n;
}

static inline void gt_strbuf_puts(gt_strbuf *b, const char *s) { gt_strbuf_put(b, s, strlen(s)); }

static inline void gt_strbuf_putc(gt_strbuf *b, char c)
{
    if (b->cap == b->len && gt_strbuf_reserve(b, 1) < 0)
        return;
    b->data[b->len++] = c;
}

#endif
