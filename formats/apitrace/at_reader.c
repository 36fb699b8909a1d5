/* Streaming parser of the apitrace event grammar, versions 0 to 6.
 *
 * Every length and count read from the file is checked before use: a declared size
 * that cannot fit in what is left of an intact trace is an error, and buffers for
 * sizes that may still arrive grow with the data actually read, so a lying length
 * never turns into a huge allocation. A stream that stops inside an event is the
 * normal state of a trace whose program crashed: that event's call is dropped (as
 * apitrace does) and the calls still open are returned flagged incomplete. */
#include "at_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "gt_callflags.h"

#define MAX_DEPTH 64          /* nesting of arrays, structs and reprs */
#define MAX_ARGS 65536        /* argument index bound */
#define ID_SLACK 65536        /* how far a new signature id may run ahead */
#define POOL_MAX 64
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
    gt_call **pending;
    unsigned npending, pending_cap;
    gt_call *pool[POOL_MAX];
    unsigned npool;
    gt_call *scratch; /* leave events of calls we never saw enter */
    int depth;
    int in_leave;    /* parsing a leave event's details */
    int report_enter; /* at_reader_next_event: stop after enter events too */
    gt_call *entered; /* the call whose enter event was just parsed */
    int done, failed, cut;
    uint64_t cut_offset;
    gt_error err;
    char warning[GT_ERROR_MAX];
    int has_warning;
    uint8_t *thread_seen;
    at_reader_stats stats;
};

/* ---- errors and end of data ---------------------------------------------------- */

static int fail(at_reader *r, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(at_reader *r, uint64_t off, const char *fmt, ...)
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

static inline uint64_t pos(const at_reader *r) { return at_input_offset(r->in); }

/* The data ran out inside an event. */
static int ran_out(at_reader *r)
{
    if (r->in->status == AT_INPUT_ERROR) {
        if (!r->failed)
            gt_error_set(&r->err, "%s", r->in->err.msg);
        r->failed = 1;
        return 0;
    }
    if (!r->cut) {
        r->cut = 1;
        r->cut_offset = pos(r);
    }
    return 0;
}

static inline size_t avail(const at_reader *r) { return (size_t)(r->in->end - r->in->cur); }

/* A size that cannot fit in the rest of an intact trace is an error, not a cut. */
static int check_size(at_reader *r, uint64_t off, uint64_t n, const char *what)
{
    if (r->in->status == AT_INPUT_END && n > avail(r))
        return fail(r, off, "%s %llu exceeds the %zu bytes left in the trace", what,
                    (unsigned long long)n, avail(r));
    return 1;
}

/* ---- primitives ---------------------------------------------------------------- */

static inline int rd_byte(at_reader *r, int *c)
{
    at_input *in = r->in;
    if (in->cur == in->end && !at_input_refill(in))
        return ran_out(r);
    *c = *in->cur++;
    return 1;
}

static int rd_uint_slow(at_reader *r, uint64_t *out)
{
    uint64_t v = 0, off = pos(r);
    for (unsigned i = 0; i < 10; ++i) {
        int c;
        if (!rd_byte(r, &c))
            return 0;
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *out = v;
            return 1;
        }
    }
    return fail(r, off, "varint longer than 10 bytes");
}

static inline int rd_uint(at_reader *r, uint64_t *out)
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
        return fail(r, pos(r), "varint longer than 10 bytes");
    }
    return rd_uint_slow(r, out);
}

static int rd_u32(at_reader *r, uint32_t *out, const char *what)
{
    uint64_t off = pos(r), v;
    if (!rd_uint(r, &v))
        return 0;
    if (v > UINT32_MAX)
        return fail(r, off, "%s %llu is out of range", what, (unsigned long long)v);
    *out = (uint32_t)v;
    return 1;
}

static int rd_raw(at_reader *r, void *dst, size_t n)
{
    uint8_t *d = dst;
    while (n) {
        if (r->in->cur == r->in->end && !at_input_refill(r->in))
            return ran_out(r);
        size_t k = avail(r) < n ? avail(r) : n;
        memcpy(d, r->in->cur, k);
        r->in->cur += k;
        d += k;
        n -= k;
    }
    return 1;
}

static int skip_raw(at_reader *r, uint64_t n)
{
    while (n) {
        if (r->in->cur == r->in->end && !at_input_refill(r->in))
            return ran_out(r);
        size_t k = avail(r) < n ? avail(r) : (size_t)n;
        r->in->cur += k;
        n -= k;
    }
    return 1;
}

static void *alloc(at_reader *r, gt_arena *a, size_t n)
{
    void *p = gt_arena_alloc(a, n ? n : 1);
    if (!p)
        fail(r, pos(r), "out of memory");
    return p;
}

static void *sig_alloc(void *ctx, size_t size)
{
    return gt_arena_alloc(&((at_reader *)ctx)->sigs, size);
}

/* Reads n bytes plus a NUL into arena memory that grows with the data read. */
static int rd_bytes(at_reader *r, gt_arena *a, uint64_t n, const char *what, char **out)
{
    uint64_t off = pos(r);
    if (!check_size(r, off, n, what))
        return 0;
    if (n >= SIZE_MAX / 2)
        return fail(r, off, "%s %llu is impossible", what, (unsigned long long)n);
    if (n <= avail(r)) { /* the common case: all in the current block */
        char *p = alloc(r, a, (size_t)n + 1);
        if (!p)
            return 0;
        memcpy(p, r->in->cur, (size_t)n);
        p[n] = '\0';
        r->in->cur += n;
        *out = p;
        return 1;
    }
    size_t cap = avail(r) + 65536, have = 0;
    if (cap > n)
        cap = (size_t)n;
    char *p = alloc(r, a, cap + 1);
    while (p) {
        size_t want = cap - have;
        if (!rd_raw(r, p + have, want))
            return 0;
        have = cap;
        if (have == n) {
            p[n] = '\0';
            *out = p;
            return 1;
        }
        cap = (n - have > have) ? 2 * have : (size_t)n;
        char *np = alloc(r, a, cap + 1);
        if (np)
            memcpy(np, p, have);
        p = np;
    }
    return 0;
}

static int rd_string(at_reader *r, gt_arena *a, const char **s, size_t *len)
{
    uint64_t n;
    char *p;
    if (!rd_uint(r, &n) || !rd_bytes(r, a, n, "string length", &p))
        return 0;
    *s = p;
    if (len)
        *len = (size_t)n;
    return 1;
}

/* Grows an arena array of elem-sized items from cap to at least need (<= max). */
static void *grow(at_reader *r, gt_arena *a, void *old, size_t elem, size_t *cap, size_t max)
{
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > max)
        ncap = max;
    void *p = alloc(r, a, ncap * elem);
    if (p && old)
        memcpy(p, old, *cap * elem);
    *cap = ncap;
    return p;
}

/* ---- signature tables ------------------------------------------------------------ */

static void *table_get(const sig_table *t, uint64_t id)
{
    return id < t->cap ? t->items[id] : NULL;
}

static int table_put(at_reader *r, sig_table *t, uint64_t id, void *item, uint64_t off,
                     const char *kind)
{
    if (id >= t->cap) {
        if (id >= (uint64_t)t->count * 2 + ID_SLACK)
            return fail(r, off, "%s signature id %llu is far beyond the %u defined so far", kind,
                        (unsigned long long)id, t->count);
        size_t ncap = t->cap ? t->cap : 64;
        while (ncap <= id)
            ncap *= 2;
        void **n = realloc(t->items, ncap * sizeof *n);
        if (!n)
            return fail(r, off, "out of memory");
        memset(n + t->cap, 0, (ncap - t->cap) * sizeof *n);
        t->items = n;
        t->cap = (uint32_t)ncap;
    }
    t->items[id] = item;
    t->count++;
    return 1;
}

static int rd_names(at_reader *r, uint32_t n, const char ***out, uint64_t off)
{
    if (!check_size(r, off, n, "name count"))
        return 0;
    size_t cap = 0;
    const char **names = NULL;
    for (uint32_t i = 0; i < n; ++i) {
        if (i == cap && !(names = grow(r, &r->sigs, names, sizeof *names, &cap, n)))
            return 0;
        if (!rd_string(r, &r->sigs, &names[i], NULL))
            return 0;
    }
    *out = names;
    return 1;
}

static int parse_func_sig(at_reader *r, const gt_func_sig **out)
{
    uint64_t off = pos(r), id;
    if (!rd_uint(r, &id))
        return 0;
    gt_func_sig *sig = table_get(&r->funcs, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->arg_names = NULL;
    if (!rd_string(r, &r->sigs, &sig->name, NULL) || !rd_u32(r, &sig->num_args, "argument count") ||
        !rd_names(r, sig->num_args, &sig->arg_names, off))
        return 0;
    if (sig->num_args > MAX_ARGS)
        return fail(r, off, "function %s has %u arguments", sig->name, sig->num_args);
    sig->flags = gt_callflags_lookup(sig->name);
    if (sig->num_args == 0 && strcmp(sig->name, "glGetError") == 0)
        r->get_error_sig = sig;
    if (!table_put(r, &r->funcs, id, sig, off, "function"))
        return 0;
    *out = sig;
    return 1;
}

/* Signed values inside enum signatures and after them carry their own tag. */
static int rd_sint(at_reader *r, int64_t *v)
{
    uint64_t off = pos(r), u;
    int c;
    if (!rd_byte(r, &c) || (c == AT_TYPE_SINT || c == AT_TYPE_UINT ? !rd_uint(r, &u) : 0))
        return 0;
    if (c == AT_TYPE_SINT)
        *v = (int64_t)((uint64_t)0 - u); /* no signed overflow for 1 << 63 */
    else if (c == AT_TYPE_UINT)
        *v = (int64_t)u;
    else
        return fail(r, off, "expected an integer, found value type 0x%02x", c);
    return 1;
}

static int parse_enum_sig(at_reader *r, const gt_enum_sig **out)
{
    uint64_t off = pos(r), id;
    if (!rd_uint(r, &id))
        return 0;
    gt_enum_sig *sig = table_get(&r->enums, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->values = NULL;
    sig->by_value = NULL;
    if (r->version >= 3) {
        if (!rd_u32(r, &sig->num_values, "enum value count") ||
            !check_size(r, off, sig->num_values, "enum value count"))
            return 0;
    } else {
        sig->num_values = 1; /* old traces: one name/value pair per signature */
    }
    size_t cap = 0;
    for (uint32_t i = 0; i < sig->num_values; ++i) {
        if (i == cap && !(sig->values = grow(r, &r->sigs, sig->values, sizeof *sig->values, &cap,
                                            sig->num_values)))
            return 0;
        if (!rd_string(r, &r->sigs, &sig->values[i].name, NULL) ||
            !rd_sint(r, &sig->values[i].value))
            return 0;
    }
    sig->by_value = NULL;
    if (sig->num_values > 16 && !gt_enum_index(sig, sig_alloc, r))
        return fail(r, off, "out of memory");
    if (!table_put(r, &r->enums, id, sig, off, "enum"))
        return 0;
    *out = sig;
    return 1;
}

static int parse_bitmask_sig(at_reader *r, const gt_bitmask_sig **out)
{
    uint64_t off = pos(r), id;
    if (!rd_uint(r, &id))
        return 0;
    gt_bitmask_sig *sig = table_get(&r->bitmasks, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->flags = NULL;
    if (!rd_u32(r, &sig->num_flags, "bitmask flag count") ||
        !check_size(r, off, sig->num_flags, "bitmask flag count"))
        return 0;
    size_t cap = 0;
    for (uint32_t i = 0; i < sig->num_flags; ++i) {
        if (i == cap && !(sig->flags = grow(r, &r->sigs, sig->flags, sizeof *sig->flags, &cap,
                                           sig->num_flags)))
            return 0;
        if (!rd_string(r, &r->sigs, &sig->flags[i].name, NULL) ||
            !rd_uint(r, &sig->flags[i].value))
            return 0;
    }
    if (!table_put(r, &r->bitmasks, id, sig, off, "bitmask"))
        return 0;
    *out = sig;
    return 1;
}

static int parse_struct_sig(at_reader *r, const gt_struct_sig **out)
{
    uint64_t off = pos(r), id;
    if (!rd_uint(r, &id))
        return 0;
    gt_struct_sig *sig = table_get(&r->structs, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->member_names = NULL;
    if (!rd_string(r, &r->sigs, &sig->name, NULL) ||
        !rd_u32(r, &sig->num_members, "struct member count") ||
        !rd_names(r, sig->num_members, &sig->member_names, off))
        return 0;
    if (!table_put(r, &r->structs, id, sig, off, "struct"))
        return 0;
    *out = sig;
    return 1;
}

static int parse_frame(at_reader *r, const gt_frame **out)
{
    uint64_t off = pos(r), id, u;
    if (!rd_uint(r, &id))
        return 0;
    gt_frame *f = table_get(&r->frames, id);
    if (f) {
        *out = f;
        return 1;
    }
    if (!(f = alloc(r, &r->sigs, sizeof *f)))
        return 0;
    f->id = (uint32_t)id;
    f->module = f->function = f->filename = NULL;
    f->line = f->offset = -1;
    for (;;) {
        uint64_t doff = pos(r);
        int c;
        if (!rd_byte(r, &c))
            return 0;
        if (c == AT_FRAME_END)
            break;
        switch (c) {
        case AT_FRAME_MODULE: if (!rd_string(r, &r->sigs, &f->module, NULL)) return 0; break;
        case AT_FRAME_FUNCTION: if (!rd_string(r, &r->sigs, &f->function, NULL)) return 0; break;
        case AT_FRAME_FILENAME: if (!rd_string(r, &r->sigs, &f->filename, NULL)) return 0; break;
        case AT_FRAME_LINE: if (!rd_uint(r, &u)) return 0; f->line = (int64_t)u; break;
        case AT_FRAME_OFFSET: if (!rd_uint(r, &u)) return 0; f->offset = (int64_t)u; break;
        default: return fail(r, doff, "unknown backtrace frame detail 0x%02x", c);
        }
    }
    if (!table_put(r, &r->frames, id, f, off, "backtrace frame"))
        return 0;
    *out = f;
    return 1;
}

/* ---- values ---------------------------------------------------------------------- */

static int parse_value(at_reader *r, gt_arena *a, gt_value *v);

static int parse_array(at_reader *r, gt_arena *a, gt_value *v, uint64_t off)
{
    uint64_t n;
    if (!rd_uint(r, &n) || !check_size(r, off, n, "array length"))
        return 0;
    v->kind = GT_ARRAY;
    v->arr.n = 0;
    v->arr.items = NULL;
    size_t cap = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (i == cap && !(v->arr.items = grow(r, a, v->arr.items, sizeof(gt_value), &cap,
                                              n > SIZE_MAX / 64 ? SIZE_MAX / 64 : (size_t)n)))
            return 0;
        if (!parse_value(r, a, &v->arr.items[i]))
            return 0;
        v->arr.n = (size_t)i + 1;
    }
    return 1;
}

static int parse_wstring(at_reader *r, gt_arena *a, gt_value *v, uint64_t off)
{
    uint64_t n, c;
    if (!rd_uint(r, &n) || !check_size(r, off, n, "wide string length"))
        return 0;
    uint32_t *w = NULL;
    size_t cap = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (i == cap && !(w = grow(r, a, w, sizeof *w, &cap,
                                   n > SIZE_MAX / 8 ? SIZE_MAX / 8 : (size_t)n)))
            return 0;
        if (!rd_uint(r, &c))
            return 0;
        w[i] = (uint32_t)c;
    }
    v->kind = GT_WSTRING;
    v->wstr.w = w;
    v->wstr.len = (size_t)n;
    return 1;
}

static int parse_blob(at_reader *r, gt_arena *a, gt_value *v, uint64_t off)
{
    uint64_t n;
    if (!rd_uint(r, &n))
        return 0;
    v->kind = GT_BLOB;
    v->blob.size = (size_t)n;
    v->blob.data = NULL;
    if (r->opt.skip_blob_data)
        return check_size(r, off, n, "blob length") && skip_raw(r, n);
    char *p;
    if (!rd_bytes(r, a, n, "blob length", &p))
        return 0;
    v->blob.data = p;
    return 1;
}

static int parse_enum(at_reader *r, gt_value *v)
{
    v->kind = GT_ENUM;
    if (!parse_enum_sig(r, &v->en.sig))
        return 0;
    if (r->version >= 3)
        return rd_sint(r, &v->en.v);
    v->en.v = v->en.sig->values[0].value;
    return 1;
}

static int parse_struct(at_reader *r, gt_arena *a, gt_value *v)
{
    v->kind = GT_STRUCT;
    if (!parse_struct_sig(r, &v->st.sig))
        return 0;
    uint32_t n = v->st.sig->num_members;
    if (!(v->st.members = alloc(r, a, (size_t)n * sizeof(gt_value))))
        return 0;
    memset(v->st.members, 0, (size_t)n * sizeof(gt_value));
    for (uint32_t i = 0; i < n; ++i)
        if (!parse_value(r, a, &v->st.members[i]))
            return 0;
    return 1;
}

static int parse_repr(at_reader *r, gt_arena *a, gt_value *v)
{
    gt_value *pair = alloc(r, a, 2 * sizeof *pair);
    if (!pair)
        return 0;
    memset(pair, 0, 2 * sizeof *pair);
    v->kind = GT_REPR;
    v->repr.human = &pair[0];
    v->repr.machine = &pair[1];
    return parse_value(r, a, &pair[0]) && parse_value(r, a, &pair[1]);
}

static int parse_value_body(at_reader *r, gt_arena *a, gt_value *v, int c, uint64_t off)
{
    switch (c) {
    case AT_TYPE_NULL: v->kind = GT_NULL; return 1;
    case AT_TYPE_FALSE: v->kind = GT_BOOL; v->b = false; return 1;
    case AT_TYPE_TRUE: v->kind = GT_BOOL; v->b = true; return 1;
    case AT_TYPE_SINT:
        v->kind = GT_SINT;
        if (!rd_uint(r, &v->u))
            return 0;
        v->i = (int64_t)((uint64_t)0 - v->u);
        return 1;
    case AT_TYPE_UINT: v->kind = GT_UINT; return rd_uint(r, &v->u);
    case AT_TYPE_FLOAT: v->kind = GT_FLOAT; return rd_raw(r, &v->f, 4); /* little-endian host */
    case AT_TYPE_DOUBLE: v->kind = GT_DOUBLE; return rd_raw(r, &v->d, 8);
    case AT_TYPE_STRING: v->kind = GT_STRING; return rd_string(r, a, &v->str.s, &v->str.len);
    case AT_TYPE_BLOB: return parse_blob(r, a, v, off);
    case AT_TYPE_ENUM: return parse_enum(r, v);
    case AT_TYPE_BITMASK:
        v->kind = GT_BITMASK;
        return parse_bitmask_sig(r, &v->bm.sig) && rd_uint(r, &v->bm.v);
    case AT_TYPE_ARRAY: return parse_array(r, a, v, off);
    case AT_TYPE_STRUCT: return parse_struct(r, a, v);
    case AT_TYPE_OPAQUE: v->kind = GT_POINTER; return rd_uint(r, &v->u);
    case AT_TYPE_REPR: return parse_repr(r, a, v);
    case AT_TYPE_WSTRING: return parse_wstring(r, a, v, off);
    default: return fail(r, off, "unknown value type 0x%02x", c);
    }
}

static int parse_value(at_reader *r, gt_arena *a, gt_value *v)
{
    uint64_t off = pos(r);
    int c;
    if (!rd_byte(r, &c))
        return 0;
    if (++r->depth > MAX_DEPTH) {
        r->depth = 0;
        return fail(r, off, "values nested deeper than %d levels", MAX_DEPTH);
    }
    int ok = parse_value_body(r, a, v, c, off);
    r->depth--;
    return ok;
}

/* ---- calls ----------------------------------------------------------------------- */

static gt_call *call_get(at_reader *r)
{
    gt_call *c = r->npool ? r->pool[--r->npool] : calloc(1, sizeof *c);
    if (!c) {
        fail(r, pos(r), "out of memory");
        return NULL;
    }
    gt_arena arena = c->arena;
    memset(c, 0, sizeof *c);
    c->arena = arena;
    return c;
}

void at_reader_release(at_reader *r, gt_call *c)
{
    if (!c)
        return;
    gt_arena_reset(&c->arena);
    if (r->npool < POOL_MAX) {
        r->pool[r->npool++] = c;
    } else {
        gt_arena_free(&c->arena);
        free(c);
    }
}

static int set_args(at_reader *r, gt_call *c, uint32_t n)
{
    gt_value *args = alloc(r, &c->arena, (size_t)n * sizeof *args);
    uint8_t *phase = args ? alloc(r, &c->arena, n) : NULL;
    if (!phase)
        return 0;
    memset(args, 0, (size_t)n * sizeof *args);
    memset(phase, 0, n);
    if (c->num_args) {
        memcpy(args, c->args, c->num_args * sizeof *args);
        memcpy(phase, c->arg_at_leave, c->num_args);
    }
    c->args = args;
    c->arg_at_leave = phase;
    c->num_args = n;
    return 1;
}

static int parse_arg(at_reader *r, gt_call *c)
{
    uint64_t off = pos(r), idx;
    if (!rd_uint(r, &idx))
        return 0;
    if (idx >= MAX_ARGS)
        return fail(r, off, "argument index %llu is out of range", (unsigned long long)idx);
    if (idx >= c->num_args && !set_args(r, c, (uint32_t)idx + 1))
        return 0;
    c->arg_at_leave[idx] = (uint8_t)r->in_leave;
    return parse_value(r, &c->arena, &c->args[idx]);
}

static int parse_backtrace(at_reader *r, gt_call *c)
{
    uint64_t off = pos(r);
    uint32_t n;
    if (!rd_u32(r, &n, "backtrace frame count") || !check_size(r, off, n, "backtrace frame count"))
        return 0;
    size_t cap = 0;
    const gt_frame **frames = NULL;
    c->num_frames = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (i == cap && !(frames = grow(r, &c->arena, frames, sizeof *frames, &cap, n)))
            return 0;
        if (!parse_frame(r, &frames[i]))
            return 0;
    }
    c->frames = frames;
    c->num_frames = n;
    c->frames_at_leave = r->in_leave;
    return 1;
}

static int parse_details(at_reader *r, gt_call *c)
{
    for (;;) {
        uint64_t off = pos(r), u;
        int d;
        if (!rd_byte(r, &d))
            return 0;
        switch (d) {
        case AT_DETAIL_END:
            return 1;
        case AT_DETAIL_ARG:
            if (!parse_arg(r, c))
                return 0;
            break;
        case AT_DETAIL_RET:
            if (!(c->ret = alloc(r, &c->arena, sizeof *c->ret)))
                return 0;
            memset(c->ret, 0, sizeof *c->ret);
            if (!parse_value(r, &c->arena, c->ret))
                return 0;
            break;
        case AT_DETAIL_THREAD:
            if (r->version >= 4)
                return fail(r, off, "thread detail in a version %u trace", r->version);
            if (!rd_uint(r, &u))
                return 0;
            c->thread = (uint32_t)u;
            break;
        case AT_DETAIL_BACKTRACE:
            if (!parse_backtrace(r, c))
                return 0;
            break;
        case AT_DETAIL_FLAGS:
            if (!rd_uint(r, &u))
                return 0;
            if (u & AT_FLAG_FAKE)
                c->flags |= GT_CALL_FLAG_FAKE;
            break;
        default:
            return fail(r, off, "unknown call detail 0x%02x in %s", d,
                        c->sig ? c->sig->name : "a call");
        }
    }
}

static int push_pending(at_reader *r, gt_call *c)
{
    if (r->npending == r->pending_cap) {
        unsigned ncap = r->pending_cap ? r->pending_cap * 2 : 16;
        gt_call **n = realloc(r->pending, ncap * sizeof *n);
        if (!n)
            return fail(r, c->offset, "out of memory");
        r->pending = n;
        r->pending_cap = ncap;
    }
    r->pending[r->npending++] = c;
    return 1;
}

static gt_call *take_pending(at_reader *r, uint64_t no)
{
    for (unsigned i = 0; i < r->npending; ++i) {
        if (r->pending[i]->no == no) {
            gt_call *c = r->pending[i];
            memmove(&r->pending[i], &r->pending[i + 1], (r->npending - i - 1) * sizeof c);
            r->npending--;
            return c;
        }
    }
    return NULL;
}

static void note_thread(at_reader *r, uint32_t t)
{
    if (t >= THREAD_BITS)
        return;
    if (!(r->thread_seen[t >> 3] & (1u << (t & 7)))) {
        r->thread_seen[t >> 3] |= (uint8_t)(1u << (t & 7));
        r->stats.threads++;
    }
}

static int parse_enter(at_reader *r, uint64_t off)
{
    uint64_t thread = 0;
    const gt_func_sig *sig = NULL;
    if ((r->version >= 4 && !rd_uint(r, &thread)) || !parse_func_sig(r, &sig))
        return 0;
    gt_call *c = call_get(r);
    if (!c)
        return 0;
    c->no = r->next_call_no++;
    c->thread = (uint32_t)thread;
    c->sig = sig;
    c->flags = sig->flags;
    c->offset = off;
    if (!set_args(r, c, sig->num_args) || !parse_details(r, c) || !push_pending(r, c)) {
        at_reader_release(r, c);
        r->stats.dropped++;
        return 0;
    }
    r->entered = c;
    return 1;
}

/* Returns 1 with *out set to the finished call, or to NULL for a leave event whose
 * enter the trace does not hold. */
static int parse_leave(at_reader *r, gt_call **out)
{
    uint64_t no;
    *out = NULL;
    if (!rd_uint(r, &no))
        return 0;
    gt_call *c = take_pending(r, no);
    r->in_leave = 1;
    if (!c) {
        if (!r->scratch && !(r->scratch = call_get(r)))
            return 0;
        int ok = parse_details(r, r->scratch);
        r->in_leave = 0;
        gt_arena_reset(&r->scratch->arena);
        r->scratch->args = NULL;
        r->scratch->num_args = 0;
        r->scratch->ret = NULL;
        r->scratch->frames = NULL;
        r->scratch->num_frames = 0;
        return ok;
    }
    int ok = parse_details(r, c);
    r->in_leave = 0;
    if (!ok) {
        at_reader_release(r, c);
        r->stats.dropped++;
        return 0;
    }
    *out = c;
    return 1;
}

static int64_t value_as_int(const gt_value *v)
{
    switch (v->kind) {
    case GT_SINT: return v->i;
    case GT_UINT: return (int64_t)v->u;
    case GT_ENUM: return v->en.v;
    case GT_BOOL: return v->b;
    default: return -1;
    }
}

static gt_call *finish(at_reader *r, gt_call *c)
{
    /* apitrace hides glGetError() = GL_NO_ERROR unless asked for verbose output */
    if (c->sig == r->get_error_sig && c->ret && value_as_int(c->ret) == 0)
        c->flags |= GT_CALL_FLAG_VERBOSE;
    r->stats.calls++;
    note_thread(r, c->thread);
    return c;
}

static void set_end_warning(at_reader *r)
{
    if (r->has_warning)
        return;
    const char *why = NULL;
    uint64_t off = pos(r);
    if (r->in->status == AT_INPUT_TRUNCATED)
        why = "file is truncated (its last compressed block is incomplete)";
    else if (r->cut) {
        why = "trace ends inside an event";
        off = r->cut_offset;
    }
    if (!why && !r->stats.incomplete)
        return;
    snprintf(r->warning, sizeof r->warning, "%s: offset %llu: %s%s%llu call(s) left incomplete",
             r->in->path, (unsigned long long)off, why ? why : "", why ? "; " : "",
             (unsigned long long)r->stats.incomplete);
    r->has_warning = 1;
}

gt_call *at_reader_next_event(at_reader *r, at_event_kind *kind)
{
    r->report_enter = 1;
    gt_call *c = at_reader_next(r);
    r->report_enter = 0;
    if (c)
        *kind = r->entered ? AT_EV_ENTER
                : (c->flags & GT_CALL_FLAG_INCOMPLETE) ? AT_EV_INCOMPLETE : AT_EV_LEAVE;
    r->entered = NULL;
    return c;
}

gt_call *at_reader_next(at_reader *r)
{
    r->entered = NULL;
    while (!r->done && !r->failed) {
        at_input *in = r->in;
        if (in->cur == in->end && !at_input_refill(in)) {
            if (in->status == AT_INPUT_ERROR)
                ran_out(r);
            r->done = 1;
            break;
        }
        uint64_t off = pos(r);
        int ev = *in->cur++;
        gt_call *c = NULL;
        int ok;
        if (ev == AT_EVENT_ENTER)
            ok = parse_enter(r, off);
        else if (ev == AT_EVENT_LEAVE)
            ok = parse_leave(r, &c);
        else
            ok = fail(r, off, "unknown event 0x%02x", ev);
        if (!ok) {
            r->done = 1;
            break;
        }
        if (c)
            return finish(r, c);
        if (r->entered && r->report_enter)
            return r->entered;
        r->entered = NULL;
    }
    if (r->failed)
        return NULL;
    if (r->npending) {
        gt_call *c = r->pending[0];
        memmove(&r->pending[0], &r->pending[1], (r->npending - 1) * sizeof c);
        r->npending--;
        c->flags |= GT_CALL_FLAG_INCOMPLETE;
        r->stats.incomplete++;
        return finish(r, c);
    }
    set_end_warning(r);
    return NULL;
}

/* ---- opening --------------------------------------------------------------------- */

static int parse_header(at_reader *r)
{
    uint64_t v;
    if (!rd_uint(r, &v)) {
        if (!r->failed)
            fail(r, pos(r), "file ends before the trace header");
        return 0;
    }
    if (v > AT_VERSION_MAX)
        return fail(r, 0, "unsupported trace version %llu (this reader knows 0 to %d)",
                    (unsigned long long)v, AT_VERSION_MAX);
    r->version = r->semantic_version = (unsigned)v;
    if (r->version < 6)
        return 1;
    uint64_t off = pos(r);
    if (!rd_uint(r, &v))
        return r->failed ? 0 : fail(r, off, "file ends inside the trace header");
    if (v > r->version)
        return fail(r, off, "semantic version %llu is newer than the format version %u",
                    (unsigned long long)v, r->version);
    r->semantic_version = (unsigned)v;
    for (;;) {
        const char *name, *value;
        off = pos(r);
        if (!rd_string(r, &r->sigs, &name, NULL))
            return r->failed ? 0 : fail(r, off, "file ends inside the trace properties");
        if (!name[0])
            return 1;
        if (!rd_string(r, &r->sigs, &value, NULL))
            return r->failed ? 0 : fail(r, off, "file ends inside the trace properties");
        if (r->nprops == r->props_cap) {
            unsigned ncap = r->props_cap ? r->props_cap * 2 : 8;
            at_property *n = realloc(r->props, ncap * sizeof *n);
            if (!n)
                return fail(r, off, "out of memory");
            r->props = n;
            r->props_cap = ncap;
        }
        r->props[r->nprops].name = name;
        r->props[r->nprops].value = value;
        r->nprops++;
    }
}

at_reader *at_reader_open_input(at_input *in, const at_reader_options *opt, gt_error *err)
{
    at_reader *r = calloc(1, sizeof *r);
    if (r)
        r->thread_seen = calloc(THREAD_BITS / 8, 1);
    if (!r || !r->thread_seen) {
        gt_error_set(err, "%s: out of memory", in->path);
        free(r);
        at_input_close(in);
        return NULL;
    }
    r->in = in;
    if (opt)
        r->opt = *opt;
    gt_arena_init(&r->sigs);
    gt_error_clear(&r->err);
    if (!parse_header(r)) {
        gt_error_set(err, "%s", r->err.msg);
        at_reader_close(r);
        return NULL;
    }
    return r;
}

at_reader *at_reader_open(const char *path, const at_reader_options *opt, gt_error *err)
{
    at_input *in = at_input_open(path, err);
    return in ? at_reader_open_input(in, opt, err) : NULL;
}

void at_reader_close(at_reader *r)
{
    if (!r)
        return;
    for (unsigned i = 0; i < r->npending; ++i)
        at_reader_release(r, r->pending[i]);
    if (r->scratch)
        at_reader_release(r, r->scratch);
    for (unsigned i = 0; i < r->npool; ++i) {
        gt_arena_free(&r->pool[i]->arena);
        free(r->pool[i]);
    }
    free(r->pending);
    free(r->funcs.items);
    free(r->enums.items);
    free(r->bitmasks.items);
    free(r->structs.items);
    free(r->frames.items);
    free(r->props);
    free(r->thread_seen);
    gt_arena_free(&r->sigs);
    at_input_close(r->in);
    free(r);
}

unsigned at_reader_version(const at_reader *r) { return r->version; }
unsigned at_reader_semantic_version(const at_reader *r) { return r->semantic_version; }
unsigned at_reader_num_properties(const at_reader *r) { return r->nprops; }
const at_property *at_reader_property(const at_reader *r, unsigned i)
{
    return i < r->nprops ? &r->props[i] : NULL;
}
const at_input *at_reader_input(const at_reader *r) { return r->in; }
const char *at_reader_error(const at_reader *r) { return r->failed ? r->err.msg : NULL; }
const char *at_reader_warning(const at_reader *r) { return r->has_warning ? r->warning : NULL; }

void at_reader_get_stats(const at_reader *r, at_reader_stats *st)
{
    *st = r->stats;
    st->functions = r->funcs.count;
    st->enums = r->enums.count;
    st->bitmasks = r->bitmasks.count;
    st->structs = r->structs.count;
    st->frames = r->frames.count;
}
