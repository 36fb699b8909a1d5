/* The fast path of call details: runs of scalar arguments (what nearly every GL call
 * holds) decoded with a local cursor while the block surely holds the longest such
 * detail, so that no byte needs a bounds check of its own. Anything else (another
 * detail, a compound value, an enum not yet defined, an index beyond the arguments
 * made room for, a malformed varint, the block's last bytes) is left where it starts
 * to the general parser (at_reader.c, at_reader_values.c), which reads it, or reports
 * it, exactly as it would have without this path. */
#include <string.h>

#include "at_format.h"
#include "at_reader_internal.h"

/* detail byte, index varint, type byte, enum id varint, tag byte, value varint */
#define LONGEST_SCALAR (1 + 10 + 1 + 10 + 1 + 10)

/* A varint of at most 10 bytes at *p (all present): 1 with *p past it, 0 when longer. */
static inline int varint(const uint8_t **p, uint64_t *out)
{
    const uint8_t *q = *p;
    uint64_t v = q[0];
    if (!(v & 0x80)) {
        *p = q + 1;
        *out = v;
        return 1;
    }
    v &= 0x7f;
    for (unsigned i = 1; i < 10; ++i) {
        uint8_t c = q[i];
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *p = q + i + 1;
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* An enum value under a signature already defined (version 3 and later: tagged). */
static inline int enum_value(const at_reader *r, const uint8_t **p, gt_value *v)
{
    const uint8_t *q = *p;
    uint64_t id, u;
    if (r->version < 3 || !varint(&q, &id) || id >= r->enums.cap || !r->enums.items[id])
        return 0;
    int tag = *q++;
    if ((tag != AT_TYPE_SINT && tag != AT_TYPE_UINT) || !varint(&q, &u))
        return 0;
    v->kind = GT_ENUM;
    v->en.sig = r->enums.items[id];
    v->en.v = tag == AT_TYPE_SINT ? (int64_t)((uint64_t)0 - u) : (int64_t)u;
    *p = q;
    return 1;
}

/* One scalar value at *p into v: 1 with *p past it, 0 (v untouched) when not one. */
static inline int scalar(const uint8_t **p, gt_value *v)
{
    const uint8_t *q = *p + 1;
    uint64_t u;
    switch (**p) {
    case AT_TYPE_NULL: v->kind = GT_NULL; break;
    case AT_TYPE_FALSE: v->kind = GT_BOOL; v->b = false; break;
    case AT_TYPE_TRUE: v->kind = GT_BOOL; v->b = true; break;
    case AT_TYPE_SINT:
        if (!varint(&q, &u))
            return 0;
        v->kind = GT_SINT;
        v->i = (int64_t)((uint64_t)0 - u);
        break;
    case AT_TYPE_UINT:
    case AT_TYPE_OPAQUE:
        if (!varint(&q, &u))
            return 0;
        v->kind = **p == AT_TYPE_UINT ? GT_UINT : GT_POINTER;
        v->u = u;
        break;
    case AT_TYPE_FLOAT: v->kind = GT_FLOAT; memcpy(&v->f, q, 4); q += 4; break; /* little-endian host */
    case AT_TYPE_DOUBLE: v->kind = GT_DOUBLE; memcpy(&v->d, q, 8); q += 8; break;
    default: return 0;
    }
    *p = q;
    return 1;
}

int atr_fast_details(at_reader *r, gt_call *c)
{
    at_input *in = r->in;
    const uint8_t *p = in->cur, *end = in->end;
    while (end - p >= LONGEST_SCALAR) {
        if (*p == AT_DETAIL_END) {
            in->cur = p + 1;
            return 1;
        }
        const uint8_t *q = p + 1;
        uint64_t idx;
        if (*p != AT_DETAIL_ARG || !varint(&q, &idx) || idx >= c->num_args)
            break;
        if (*q == AT_TYPE_ENUM) {
            ++q;
            if (!enum_value(r, &q, &c->args[idx]))
                break;
        } else if (!scalar(&q, &c->args[idx])) {
            break;
        }
        c->arg_at_leave[idx] = (uint8_t)r->in_leave;
        p = q;
    }
    in->cur = p;
    return 0;
}
