/* Ring-buffer pages as the kernel writes them (kernel/trace/ring_buffer.c) and
 * libtraceevent's kbuffer reads them: a page header (timestamp, commit = bytes
 * of events, flag bits above bit 27), then events, each a 32-bit word holding
 * type_len (5 bits) and time_delta (27 bits) — low bits first in little-endian
 * files, high bits first in big-endian ones:
 *   type_len 1..28  data of type_len * 4 bytes follows
 *   type_len 0      a 32-bit length (data + 4) follows, then the data
 *   type_len 29     padding: a 32-bit length of the rest follows
 *   type_len 30     time extend: delta += next word << 27
 *   type_len 31     absolute time stamp: next word << 27 | delta, top 5 bits
 *                   taken from the current time */
#include "tc_internal.h"

#define COMMIT_MASK ((1u << 27) - 1)
#define MISSED_EVENTS (1u << 31)
#define TS_MSB (0xf8ull << 56)

enum { T_PADDING = 29, T_EXTEND = 30, T_STAMP = 31 };

int tc_page_load(tc_page *pg, const uint8_t *page, size_t page_len, const tc_page_hdr *h, bool be,
                 const char **why, uint32_t *at)
{
    *at = 0;
    if (page_len < h->data_off)
        return *why = "page shorter than its header", -1;
    uint64_t commit = tc_get_num(page + h->commit_off, h->commit_size, be);
    uint32_t size = (uint32_t)commit & COMMIT_MASK;
    *pg = (tc_page){.page = page, .start = h->data_off, .pos = h->data_off, .be = be,
                    .ts = tc_get_num(page + h->ts_off, 8, be), .missed = (commit & MISSED_EVENTS) != 0};
    if (size > page_len - h->data_off) {
        *at = h->commit_off;
        return *why = "page commit size beyond the page", -1;
    }
    pg->end = h->data_off + size;
    return 0;
}

static uint32_t word(const tc_page *pg, uint32_t at)
{
    return (uint32_t)tc_get_num(pg->page + at, 4, pg->be);
}

int tc_page_next(tc_page *pg, tc_rec *r, const char **why, uint32_t *at)
{
    while (pg->pos < pg->end) {
        uint32_t ev = pg->pos;
        *at = ev;
        if (pg->end - ev < 4)
            return *why = "event header cut by the page's commit size", -1;
        uint32_t w = word(pg, ev);
        uint32_t type_len = pg->be ? w >> 27 : w & 31;
        uint32_t delta = pg->be ? w & COMMIT_MASK : w >> 5;
        uint32_t body = ev + 4, len;
        if (type_len >= T_PADDING || type_len == 0) {
            if (pg->end - body < 4)
                return *why = "event length word cut by the page's commit size", -1;
        }
        switch (type_len) {
        case T_PADDING: /* the rest of the page, or a discarded event */
            len = word(pg, body);
            if (delta == 0 || len > pg->end - body) {
                pg->pos = pg->end;
                return 0;
            }
            pg->pos = body + len;
            continue;
        case T_EXTEND:
            pg->ts += ((uint64_t)word(pg, body) << 27) + delta;
            pg->pos = body + 4;
            continue;
        case T_STAMP:
            pg->ts = (((uint64_t)word(pg, body) << 27) + delta) | (pg->ts & TS_MSB);
            pg->pos = body + 4;
            continue;
        case 0:
            len = word(pg, body);
            if (len < 4)
                return *why = "event length below 4", -1;
            len = ((len - 4) + 3) & ~3u;
            body += 4;
            break;
        default:
            len = type_len * 4;
            break;
        }
        if (len > pg->end - body)
            return *why = "event data beyond the page's commit size", -1;
        pg->ts += delta;
        pg->pos = body + len;
        *r = (tc_rec){.ts = pg->ts, .data = pg->page + body, .len = len, .at = ev};
        return 1;
    }
    return 0;
}
