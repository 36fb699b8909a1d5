/* Values: the apitrace value kinds, parsed into a call's arena. */
#include <string.h>

#include "at_format.h"
#include "at_reader_internal.h"

static int parse_array(at_reader *r, gt_arena *a, gt_value *v, uint64_t off)
{
    uint64_t n;
    if (!atr_rd_uint(r, &n) || !atr_check_size(r, off, n, MAX_COUNT, "array length"))
        return 0;
    v->kind = GT_ARRAY;
    v->arr.n = 0;
    v->arr.items = NULL;
    size_t cap = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (i == cap && !(v->arr.items = atr_grow(r, a, v->arr.items, sizeof(gt_value), &cap,
                                              n > SIZE_MAX / 64 ? SIZE_MAX / 64 : (size_t)n)))
            return 0;
        if (!atr_parse_value(r, a, &v->arr.items[i]))
            return 0;
        v->arr.n = (size_t)i + 1;
    }
    return 1;
}

static int parse_wstring(at_reader *r, gt_arena *a, gt_value *v, uint64_t off)
{
    uint64_t n, c;
    if (!atr_rd_uint(r, &n) || !atr_check_size(r, off, n, MAX_COUNT, "wide string length"))
        return 0;
    uint32_t *w = NULL;
    size_t cap = 0;
    for (uint64_t i = 0; i < n; ++i) {
        if (i == cap && !(w = atr_grow(r, a, w, sizeof *w, &cap,
                                   n > SIZE_MAX / 8 ? SIZE_MAX / 8 : (size_t)n)))
            return 0;
        if (!atr_rd_uint(r, &c))
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
    if (!atr_rd_uint(r, &n))
        return 0;
    v->kind = GT_BLOB;
    v->blob.size = (size_t)n;
    v->blob.data = NULL;
    if (r->opt.skip_blob_data)
        return atr_check_size(r, off, n, MAX_BLOB, "blob length") && atr_skip_raw(r, n);
    char *p;
    if (!atr_rd_bytes(r, a, n, MAX_BLOB, "blob length", &p))
        return 0;
    v->blob.data = p;
    return 1;
}

static int parse_enum(at_reader *r, gt_value *v)
{
    v->kind = GT_ENUM;
    if (!atr_parse_enum_sig(r, &v->en.sig))
        return 0;
    if (r->version >= 3)
        return atr_rd_sint(r, &v->en.v);
    v->en.v = v->en.sig->values[0].value;
    return 1;
}

static int parse_struct(at_reader *r, gt_arena *a, gt_value *v)
{
    v->kind = GT_STRUCT;
    if (!atr_parse_struct_sig(r, &v->st.sig))
        return 0;
    uint32_t n = v->st.sig->num_members;
    if (!(v->st.members = atr_alloc(r, a, (size_t)n * sizeof(gt_value))))
        return 0;
    memset(v->st.members, 0, (size_t)n * sizeof(gt_value));
    for (uint32_t i = 0; i < n; ++i)
        if (!atr_parse_value(r, a, &v->st.members[i]))
            return 0;
    return 1;
}

static int parse_repr(at_reader *r, gt_arena *a, gt_value *v)
{
    gt_value *pair = atr_alloc(r, a, 2 * sizeof *pair);
    if (!pair)
        return 0;
    memset(pair, 0, 2 * sizeof *pair);
    v->kind = GT_REPR;
    v->repr.human = &pair[0];
    v->repr.machine = &pair[1];
    return atr_parse_value(r, a, &pair[0]) && atr_parse_value(r, a, &pair[1]);
}

/* Compound values, one level deeper. */
static int parse_compound(at_reader *r, gt_arena *a, gt_value *v, int c, uint64_t off)
{
    switch (c) {
    case AT_TYPE_STRING: v->kind = GT_STRING; return atr_rd_string(r, a, &v->str.s, &v->str.len);
    case AT_TYPE_BLOB: return parse_blob(r, a, v, off);
    case AT_TYPE_ENUM: return parse_enum(r, v);
    case AT_TYPE_BITMASK:
        v->kind = GT_BITMASK;
        return atr_parse_bitmask_sig(r, &v->bm.sig) && atr_rd_uint(r, &v->bm.v);
    case AT_TYPE_ARRAY: return parse_array(r, a, v, off);
    case AT_TYPE_STRUCT: return parse_struct(r, a, v);
    case AT_TYPE_REPR: return parse_repr(r, a, v);
    case AT_TYPE_WSTRING: return parse_wstring(r, a, v, off);
    default: return atr_fail(r, off, "unknown value type 0x%02x", c);
    }
}

/* Scalars, most values by far, are read here without a call; the rest nest. A value at
 * the depth limit is refused whatever its kind. */
int atr_parse_value(at_reader *r, gt_arena *a, gt_value *v)
{
    uint64_t off = atr_pos(r);
    int c = 0;
    if (!atr_rd_byte(r, &c))
        return 0;
    if (r->depth >= MAX_DEPTH) {
        r->depth = 0;
        return atr_fail(r, off, "values nested deeper than %d levels", MAX_DEPTH);
    }
    switch (c) {
    case AT_TYPE_NULL: v->kind = GT_NULL; return 1;
    case AT_TYPE_FALSE: v->kind = GT_BOOL; v->b = false; return 1;
    case AT_TYPE_TRUE: v->kind = GT_BOOL; v->b = true; return 1;
    case AT_TYPE_SINT:
        v->kind = GT_SINT;
        if (!atr_rd_uint(r, &v->u))
            return 0;
        v->i = (int64_t)((uint64_t)0 - v->u);
        return 1;
    case AT_TYPE_UINT: v->kind = GT_UINT; return atr_rd_uint(r, &v->u);
    case AT_TYPE_FLOAT: v->kind = GT_FLOAT; return atr_rd_fixed(r, &v->f, 4); /* little-endian host */
    case AT_TYPE_DOUBLE: v->kind = GT_DOUBLE; return atr_rd_fixed(r, &v->d, 8);
    case AT_TYPE_OPAQUE: v->kind = GT_POINTER; return atr_rd_uint(r, &v->u);
    default: break;
    }
    r->depth++;
    int ok = parse_compound(r, a, v, c, off);
    r->depth--;
    return ok;
}
