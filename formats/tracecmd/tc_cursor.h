/* Bounds-checked reading of file-endian numbers and strings from a byte range.
 * Every read checks what remains; a failed read leaves the cursor where it was. */
#ifndef TC_CURSOR_H
#define TC_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct tc_cur {
    const uint8_t *p;
    size_t len, pos;
    uint64_t base; /* file offset of p[0], for error messages */
    bool be;       /* big-endian numbers */
    bool virt;     /* decompressed bytes: errors point at base, the section */
} tc_cur;

static inline tc_cur tc_cur_make(const uint8_t *p, size_t len, uint64_t base, bool be)
{
    return (tc_cur){.p = p, .len = len, .pos = 0, .base = base, .be = be, .virt = false};
}

static inline size_t tc_left(const tc_cur *c) { return c->len - c->pos; }
static inline uint64_t tc_off(const tc_cur *c) { return c->virt ? c->base : c->base + c->pos; }

static inline uint64_t tc_get_num(const uint8_t *p, unsigned n, bool be)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
    return v;
}

static inline bool tc_num(tc_cur *c, unsigned n, uint64_t *v)
{
    if (tc_left(c) < n)
        return false;
    *v = tc_get_num(c->p + c->pos, n, c->be);
    c->pos += n;
    return true;
}

static inline bool tc_u16(tc_cur *c, uint16_t *v)
{
    uint64_t x;
    if (!tc_num(c, 2, &x))
        return false;
    *v = (uint16_t)x;
    return true;
}

static inline bool tc_u32(tc_cur *c, uint32_t *v)
{
    uint64_t x;
    if (!tc_num(c, 4, &x))
        return false;
    *v = (uint32_t)x;
    return true;
}

static inline bool tc_u64(tc_cur *c, uint64_t *v) { return tc_num(c, 8, v); }

/* A NUL-terminated string: *s points into the data, *n excludes the NUL. */
static inline bool tc_str(tc_cur *c, const char **s, size_t *n)
{
    const uint8_t *z = memchr(c->p + c->pos, 0, tc_left(c));
    if (!z)
        return false;
    *s = (const char *)(c->p + c->pos);
    *n = (size_t)(z - (c->p + c->pos));
    c->pos += *n + 1;
    return true;
}

static inline bool tc_bytes(tc_cur *c, uint64_t n, const uint8_t **b)
{
    if (n > tc_left(c))
        return false;
    *b = c->p + c->pos;
    c->pos += (size_t)n;
    return true;
}

#endif
