#include "gt_strbuf.h"

#include <stdlib.h>

#include "gt_grow.h"

void gt_strbuf_init(gt_strbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void gt_strbuf_free(gt_strbuf *b)
{
    free(b->data);
    gt_strbuf_init(b);
}

int gt_strbuf_reserve(gt_strbuf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (b->cap - b->len >= extra)
        return 0;
    if (extra > SIZE_MAX - b->len || GT_GROW(b->data, b->cap, b->len + extra, 4096) != 0) {
        b->oom = 1;
        return -1;
    }
    return 0;
}

void gt_strbuf_printf(gt_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (int tries = 0; tries < 2; ++tries) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        if (gt_strbuf_reserve(b, (size_t)n + 1) < 0)
            return;
    }
}

void gt_strbuf_u64(gt_strbuf *b, uint64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    gt_strbuf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

void gt_strbuf_i64(gt_strbuf *b, int64_t v)
{
    if (v < 0) {
        gt_strbuf_putc(b, '-');
        gt_strbuf_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        gt_strbuf_u64(b, (uint64_t)v);
    }
}

void gt_strbuf_hex(gt_strbuf *b, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    char *p = tmp + sizeof tmp;
    do {
        *--p = digits[v & 15];
        v >>= 4;
    } while (v);
    gt_strbuf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

int gt_strbuf_flush(gt_strbuf *b, FILE *f)
{
    int ok = b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len;
    b->len = 0;
    return ok ? 0 : -1;
}
