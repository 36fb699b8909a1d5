/* Snappy block encoder; see at_snappy_encode.h. A block is the uncompressed length as
 * a varint, then elements: literals (tag 00: length - 1 in the tag's upper six bits,
 * or 60..63 there and the length - 1 in the next 1..4 bytes) and copies (tag 10:
 * length - 1 in the upper six bits, then a 2-byte little-endian offset; tag 01 for
 * short near ones). */
#include "at_snappy_encode.h"

#include <string.h>

enum { BLOCK = 1 << 16, MIN_MATCH = 4, MAX_COPY = 64 };

static uint32_t load32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint32_t hash(uint32_t v) { return (v * 0x1e35a7bdu) >> (32 - AT_SNAPPY_TABLE_BITS); }

static uint8_t *put_literal(uint8_t *o, const uint8_t *p, size_t n)
{
    if (n == 0)
        return o;
    size_t m = n - 1;
    if (m < 60) {
        *o++ = (uint8_t)(m << 2);
    } else {
        int bytes = m < (1u << 8) ? 1 : m < (1u << 16) ? 2 : m < (1u << 24) ? 3 : 4;
        *o++ = (uint8_t)((59 + bytes) << 2);
        for (int i = 0; i < bytes; ++i)
            *o++ = (uint8_t)(m >> (8 * i));
    }
    memcpy(o, p, n);
    return o + n;
}

static uint8_t *put_copy2(uint8_t *o, size_t offset, size_t len)
{
    *o++ = (uint8_t)(((len - 1) << 2) | 2);
    *o++ = (uint8_t)offset;
    *o++ = (uint8_t)(offset >> 8);
    return o;
}

/* Copies of 64 bytes, then the rest: a short near one in two bytes (tag 01: length - 4
 * in bits 2..4, the offset's bits 8..10 in bits 5..7, then its low byte). */
static uint8_t *put_copy(uint8_t *o, size_t offset, size_t len)
{
    while (len >= MAX_COPY + MIN_MATCH) {
        o = put_copy2(o, offset, MAX_COPY);
        len -= MAX_COPY;
    }
    if (len > MAX_COPY) { /* leave at least MIN_MATCH for the last one */
        o = put_copy2(o, offset, MAX_COPY - MIN_MATCH);
        len -= MAX_COPY - MIN_MATCH;
    }
    if (len >= MIN_MATCH && len < 12 && offset < 2048) {
        *o++ = (uint8_t)(((offset >> 8) << 5) | ((len - MIN_MATCH) << 2) | 1);
        *o++ = (uint8_t)offset;
        return o;
    }
    return put_copy2(o, offset, len);
}

/* One block of at most 64 KiB: offsets stay within it (2-byte copies suffice). */
static uint8_t *encode_block(const uint8_t *p, size_t n, uint8_t *o, uint16_t *table)
{
    memset(table, 0, AT_SNAPPY_TABLE_SIZE * sizeof *table);
    size_t lit = 0, i = 1;
    while (n >= MIN_MATCH && i + MIN_MATCH <= n) {
        uint32_t v = load32(p + i);
        uint32_t h = hash(v);
        size_t cand = table[h];
        table[h] = (uint16_t)i;
        if (cand >= i || load32(p + cand) != v) {
            i++;
            continue;
        }
        size_t len = MIN_MATCH;
        while (i + len < n && p[cand + len] == p[i + len])
            len++;
        o = put_literal(o, p + lit, i - lit);
        o = put_copy(o, i - cand, len);
        i += len;
        lit = i;
        if (i + MIN_MATCH <= n) /* what follows a match often repeats from just before */
            table[hash(load32(p + i - 1))] = (uint16_t)(i - 1);
    }
    return put_literal(o, p + lit, n - lit);
}

size_t at_snappy_encode(const uint8_t *src, size_t n, uint8_t *dst, uint16_t *table)
{
    uint8_t *o = dst;
    for (size_t v = n;; v >>= 7) { /* the uncompressed length */
        *o++ = (uint8_t)(v < 0x80 ? v : (v & 0x7f) | 0x80);
        if (v < 0x80)
            break;
    }
    for (size_t at = 0; at < n; at += BLOCK)
        o = encode_block(src + at, n - at < BLOCK ? n - at : BLOCK, o, table);
    return (size_t)(o - dst);
}
