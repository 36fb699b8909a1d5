#include "gt_model.h"

#include <stdlib.h>

const char *gt_enum_name(const gt_enum_sig *sig, int64_t v)
{
    if (!sig->by_value) {
        for (uint32_t i = 0; i < sig->num_values; ++i)
            if (sig->values[i].value == v)
                return sig->values[i].name;
        return NULL;
    }
    /* lower bound of v in the sorted index: the first-listed name for the value */
    uint32_t lo = 0, hi = sig->num_values;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sig->values[sig->by_value[mid]].value < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < sig->num_values && sig->values[sig->by_value[lo]].value == v)
        return sig->values[sig->by_value[lo]].name;
    return NULL;
}

/* qsort has no context argument; per thread, as readers run on several (gltrace view) */
static _Thread_local const gt_enum_value *sort_values;

static int cmp_index(const void *a, const void *b)
{
    uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
    int64_t va = sort_values[ia].value, vb = sort_values[ib].value;
    if (va != vb)
        return va < vb ? -1 : 1;
    return ia < ib ? -1 : ia > ib;
}

int gt_enum_index(gt_enum_sig *sig, void *(*alloc)(void *ctx, size_t size), void *ctx)
{
    uint32_t *idx = alloc(ctx, (size_t)sig->num_values * sizeof *idx);
    if (!idx)
        return 0;
    for (uint32_t i = 0; i < sig->num_values; ++i)
        idx[i] = i;
    sort_values = sig->values;
    qsort(idx, sig->num_values, sizeof *idx, cmp_index);
    sort_values = NULL;
    sig->by_value = idx;
    return 1;
}

int64_t gt_value_sint(const gt_value *v)
{
    if (!v)
        return 0;
    switch (v->kind) {
    case GT_SINT: return v->i;
    case GT_UINT: case GT_POINTER: return (int64_t)v->u;
    case GT_FLOAT: return (int64_t)v->f;
    case GT_DOUBLE: return (int64_t)v->d;
    case GT_ENUM: return v->en.v;
    case GT_BITMASK: return (int64_t)v->bm.v;
    case GT_BOOL: return v->b;
    case GT_REPR: return gt_value_sint(v->repr.machine);
    case GT_ARRAY: return v->arr.n ? gt_value_sint(&v->arr.items[0]) : 0;
    default: return 0;
    }
}

uint64_t gt_value_uint(const gt_value *v)
{
    if (!v)
        return 0;
    switch (v->kind) {
    case GT_UINT: case GT_POINTER: return v->u;
    case GT_FLOAT: return (uint64_t)(int64_t)v->f;
    case GT_DOUBLE: return (uint64_t)(int64_t)v->d;
    case GT_BITMASK: return v->bm.v;
    case GT_REPR: return gt_value_uint(v->repr.machine);
    case GT_ARRAY: return v->arr.n ? gt_value_uint(&v->arr.items[0]) : 0;
    default: return (uint64_t)gt_value_sint(v);
    }
}
