/* Internals of the apitrace reader, shared by its parts:
 *   at_reader_prim.c    bytes, varints, strings, sizes checked against what is left
 *   at_reader_sigs.c    signature tables (function, enum, bitmask, struct, frame)
 *   at_reader_values.c  values
 *   at_reader_fast.c    runs of scalar arguments, the common case, without per-byte checks
 *   at_reader.c         events, calls in flight, opening and closing
 * Functions return 1 on success and 0 when the data ran out or was bad; the reader
 * then holds the reason (failed/err, or cut). */
#ifndef AT_READER_INTERNAL_H
#define AT_READER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "at_reader.h"

#define MAX_DEPTH 64   /* nesting of arrays, structs and reprs */
#define MAX_ARGS 65536 /* argument index bound */
#define ID_SLACK 65536 /* how far a new signature id may run ahead of those defined */
#define POOL_MAX 1100 /* the replay keeps up to 1024 calls queued (replay_workers.c) */
/* Sizes no real trace declares: beyond them a length is corruption, not truncation. */
#define MAX_STRING (UINT64_C(1) << 30)
#define MAX_BLOB (UINT64_C(1) << 36)
#define MAX_COUNT (UINT64_C(1) << 32)    /* array and wide string elements */
#define MAX_SIG_COUNT (UINT64_C(1) << 24) /* names, enum values, flags, frames */
#define THREAD_BITS 65536

typedef struct sig_table {
    void **items;
    uint32_t cap, count;
} sig_table;

struct at_reader {
    at_input *in;
    at_reader_options opt;
    unsigned version, semantic_version;
    at_property *props;
    unsigned nprops, props_cap;
    gt_arena sigs; /* signatures and properties: they live as long as the reader */
    sig_table funcs, enums, bitmasks, structs, frames;
    const gt_func_sig *get_error_sig;
    uint32_t next_call_no;
    gt_call **pending; /* calls entered and not yet left, in the order they entered */
    unsigned npending, pending_cap;
    unsigned pending_head; /* at the end: the incomplete calls before it were returned */
    gt_call *pool[POOL_MAX];
    unsigned npool;
    gt_call *scratch; /* leave events of calls we never saw enter */
    int depth;
    int in_leave;    /* parsing a leave event's details */
    int report_enter; /* at_reader_next_event: stop after enter events too */
    gt_call *entered; /* the call whose enter event was just parsed */
    int done, failed, cut;
    uint64_t cut_offset;
    char cut_reason[128]; /* what was being read when the data ran out, if known */
    gt_error err;
    char warning[GT_ERROR_MAX];
    int has_warning;
    uint8_t *thread_seen;
    at_reader_stats stats;
    at_sig_hook sig_hook; /* the index builder's, else NULL */
    void *sig_hook_ctx;
};

/* ---- at_reader_prim.c */
int atr_fail(at_reader *r, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int atr_ran_out(at_reader *r);
int atr_check_size(at_reader *r, uint64_t off, uint64_t n, uint64_t max, const char *what);
int atr_rd_uint_slow(at_reader *r, uint64_t *out);
int atr_rd_u32(at_reader *r, uint32_t *out, const char *what);
int atr_rd_sint(at_reader *r, int64_t *v);
int atr_rd_raw(at_reader *r, void *dst, size_t n);
int atr_skip_raw(at_reader *r, uint64_t n);
void *atr_alloc(at_reader *r, gt_arena *a, size_t n);
int atr_rd_bytes(at_reader *r, gt_arena *a, uint64_t n, uint64_t max, const char *what,
                 char **out);
int atr_rd_string(at_reader *r, gt_arena *a, const char **s, size_t *len);
void *atr_grow(at_reader *r, gt_arena *a, void *old, size_t elem, size_t *cap, size_t max);

/* ---- at_reader_sigs.c */
int atr_parse_func_sig(at_reader *r, const gt_func_sig **out);
/* The definition of function signature id, whose id was read at off. */
int atr_define_func_sig(at_reader *r, uint64_t off, uint64_t id, const gt_func_sig **out);
int atr_parse_enum_sig(at_reader *r, const gt_enum_sig **out);
int atr_parse_bitmask_sig(at_reader *r, const gt_bitmask_sig **out);
int atr_parse_struct_sig(at_reader *r, const gt_struct_sig **out);
int atr_parse_frame(at_reader *r, const gt_frame **out);

/* ---- at_reader_fast.c: the leading run of scalar arguments of a call's details, up
 * to and with the end of the details (1) or up to the first detail it leaves to the
 * general parser (0); in->cur is past what it read. */
int atr_fast_details(at_reader *r, gt_call *c);

/* ---- at_reader_values.c */
int atr_parse_value(at_reader *r, gt_arena *a, gt_value *v);

/* ---- the hot primitives, inline */
static inline uint64_t atr_pos(const at_reader *r) { return at_input_offset(r->in); }

static inline size_t atr_avail(const at_reader *r) { return (size_t)(r->in->end - r->in->cur); }

static inline int atr_rd_byte(at_reader *r, int *c)
{
    at_input *in = r->in;
    if (in->cur == in->end && !at_input_refill(in))
        return atr_ran_out(r);
    *c = *in->cur++;
    return 1;
}

static inline int atr_rd_uint(at_reader *r, uint64_t *out)
{
    const uint8_t *p = r->in->cur;
    if (r->in->end - p >= 10) {
        uint64_t v = 0;
        for (unsigned i = 0; i < 10; ++i) {
            uint8_t c = p[i];
            v |= (uint64_t)(c & 0x7f) << (7 * i);
            if (!(c & 0x80)) {
                r->in->cur = p + i + 1;
                *out = v;
                return 1;
            }
        }
        return atr_fail(r, atr_pos(r), "varint longer than 10 bytes");
    }
    return atr_rd_uint_slow(r, out);
}

/* n bytes (a float, a double) straight from the block when they are all there. */
static inline int atr_rd_fixed(at_reader *r, void *dst, size_t n)
{
    at_input *in = r->in;
    if ((size_t)(in->end - in->cur) >= n) {
        memcpy(dst, in->cur, n);
        in->cur += n;
        return 1;
    }
    return atr_rd_raw(r, dst, n);
}

/* A function signature by id: a table load for one already defined (nearly every
 * call), else its definition, which follows the id. */
static inline int atr_func_sig(at_reader *r, const gt_func_sig **out)
{
    uint64_t off = atr_pos(r), id;
    if (!atr_rd_uint(r, &id))
        return 0;
    if (id < r->funcs.cap && r->funcs.items[id]) {
        *out = r->funcs.items[id];
        return 1;
    }
    return atr_define_func_sig(r, off, id, out);
}

#endif
