/* Reader primitives: bytes, varints, strings and blobs, with every declared size
 * checked against what is left of an intact trace, and buffers that grow with the
 * data actually read so a lying length never becomes a huge allocation. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "at_format.h"
#include "at_reader_internal.h"

int atr_fail(at_reader *r, uint64_t off, const char *fmt, ...)
{
    if (!r->failed) {
        char what[GT_ERROR_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        gt_error_at(&r->err, r->in->path, off, "%s", what);
        r->failed = 1;
    }
    return 0;
}

/* The data ran out inside an event. */
int atr_ran_out(at_reader *r)
{
    if (r->in->status == AT_INPUT_ERROR) {
        if (!r->failed)
            gt_error_set(&r->err, "%s", r->in->err.msg);
        r->failed = 1;
        return 0;
    }
    if (!r->cut) {
        r->cut = 1;
        r->cut_offset = atr_pos(r);
    }
    return 0;
}

/* A declared size beyond max is corruption. One that runs past the end of the data
 * is how a trace cut at a chunk boundary looks, so it ends the trace like any cut. */
int atr_check_size(at_reader *r, uint64_t off, uint64_t n, uint64_t max, const char *what)
{
    if (n > max)
        return atr_fail(r, off, "%s %llu is impossible (the limit is %llu)", what,
                        (unsigned long long)n, (unsigned long long)max);
    if (r->in->status == AT_INPUT_END && n > atr_avail(r)) {
        snprintf(r->cut_reason, sizeof r->cut_reason, "trace ends inside a call (%s %llu, %zu bytes left)",
                 what, (unsigned long long)n, atr_avail(r));
        r->cut = 1;
        r->cut_offset = off;
        return 0;
    }
    return 1;
}

int atr_rd_uint_slow(at_reader *r, uint64_t *out)
{
    uint64_t v = 0, off = atr_pos(r);
    for (unsigned i = 0; i < 10; ++i) {
        int c = 0;
        if (!atr_rd_byte(r, &c))
            return 0;
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *out = v;
            return 1;
        }
    }
    return atr_fail(r, off, "varint longer than 10 bytes");
}

int atr_rd_u32(at_reader *r, uint32_t *out, const char *what)
{
    uint64_t off = atr_pos(r), v;
    if (!atr_rd_uint(r, &v))
        return 0;
    if (v > UINT32_MAX)
        return atr_fail(r, off, "%s %llu is out of range", what, (unsigned long long)v);
    *out = (uint32_t)v;
    return 1;
}

int atr_rd_raw(at_reader *r, void *dst, size_t n)
{
    uint8_t *d = dst;
    while (n) {
        if (r->in->cur == r->in->end && !at_input_refill(r->in))
            return atr_ran_out(r);
        size_t k = atr_avail(r) < n ? atr_avail(r) : n;
        memcpy(d, r->in->cur, k);
        r->in->cur += k;
        d += k;
        n -= k;
    }
    return 1;
}

int atr_skip_raw(at_reader *r, uint64_t n)
{
    while (n) {
        if (r->in->cur == r->in->end && !at_input_refill(r->in))
            return atr_ran_out(r);
        size_t k = atr_avail(r) < n ? atr_avail(r) : (size_t)n;
        r->in->cur += k;
        n -= k;
    }
    return 1;
}

void *atr_alloc(at_reader *r, gt_arena *a, size_t n)
{
    void *p = gt_arena_alloc(a, n ? n : 1);
    if (!p)
        atr_fail(r, atr_pos(r), "out of memory");
    return p;
}

/* Reads n bytes plus a NUL into arena memory that grows with the data read. */
int atr_rd_bytes(at_reader *r, gt_arena *a, uint64_t n, uint64_t max, const char *what,
                 char **out)
{
    uint64_t off = atr_pos(r);
    if (!atr_check_size(r, off, n, max, what))
        return 0;
    if (n <= atr_avail(r)) { /* the common case: all in the current block */
        char *p = atr_alloc(r, a, (size_t)n + 1);
        if (!p)
            return 0;
        memcpy(p, r->in->cur, (size_t)n);
        p[n] = '\0';
        r->in->cur += n;
        *out = p;
        return 1;
    }
    size_t cap = atr_avail(r) + 65536, have = 0;
    if (cap > n)
        cap = (size_t)n;
    char *p = atr_alloc(r, a, cap + 1);
    while (p) {
        size_t want = cap - have;
        if (!atr_rd_raw(r, p + have, want))
            return 0;
        have = cap;
        if (have == n) {
            p[n] = '\0';
            *out = p;
            return 1;
        }
        cap = (n - have > have) ? 2 * have : (size_t)n;
        char *np = atr_alloc(r, a, cap + 1);
        if (np)
            memcpy(np, p, have);
        p = np;
    }
    return 0;
}

int atr_rd_string(at_reader *r, gt_arena *a, const char **s, size_t *len)
{
    uint64_t n;
    char *p;
    if (!atr_rd_uint(r, &n) || !atr_rd_bytes(r, a, n, MAX_STRING, "string length", &p))
        return 0;
    *s = p;
    if (len)
        *len = (size_t)n;
    return 1;
}

/* Grows an arena array of elem-sized items from cap to at least need (<= max). */
void *atr_grow(at_reader *r, gt_arena *a, void *old, size_t elem, size_t *cap, size_t max)
{
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > max)
        ncap = max;
    void *p = atr_alloc(r, a, ncap * elem);
    if (p && old)
        memcpy(p, old, *cap * elem);
    *cap = ncap;
    return p;
}

/* Signed values inside enum signatures and after them carry their own tag. */
int atr_rd_sint(at_reader *r, int64_t *v)
{
    uint64_t off = atr_pos(r), u;
    int c = 0;
    if (!atr_rd_byte(r, &c) || (c == AT_TYPE_SINT || c == AT_TYPE_UINT ? !atr_rd_uint(r, &u) : 0))
        return 0;
    if (c == AT_TYPE_SINT)
        *v = (int64_t)((uint64_t)0 - u); /* no signed overflow for 1 << 63 */
    else if (c == AT_TYPE_UINT)
        *v = (int64_t)u;
    else
        return atr_fail(r, off, "expected an integer, found value type 0x%02x", c);
    return 1;
}
