/* The args object of a Chrome event as typed model arguments: integers I64
 * (U64 beyond), other numbers DOUBLE, strings, booleans, null, and nested
 * objects and arrays as GT_TL_ARG_JSON, verbatim. */
#include <stdlib.h>
#include <string.h>

#include "chrome_reader_internal.h"
#include "gt_grow.h"

static int grow_args(cr_state *r, uint32_t n)
{
    size_t cap = r->capargs; /* a uint32_t */
    if (GT_GROW(r->args, cap, (size_t)n + 1, 16) != 0)
        return -1;
    r->capargs = (uint32_t)cap;
    return 0;
}

static void typed(const cj_value *v, gt_tl_arg *a)
{
    uint64_t mag;
    bool neg;
    switch (v->type) {
    case CJ_STRING: a->kind = GT_TL_ARG_STRING; a->v.s = v->s; return;
    case CJ_TRUE:
    case CJ_FALSE: a->kind = GT_TL_ARG_BOOL; a->v.b = v->type == CJ_TRUE; return;
    case CJ_OBJECT:
    case CJ_ARRAY: a->kind = GT_TL_ARG_JSON; a->v.s = v->s; return;
    case CJ_NUMBER:
        if (cr_integer(&v->s, &mag, &neg) && (!neg || mag <= (uint64_t)INT64_MAX + 1)) {
            if (neg || mag <= INT64_MAX) {
                a->kind = GT_TL_ARG_I64;
                a->v.i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
            } else {
                a->kind = GT_TL_ARG_U64;
                a->v.u = mag;
            }
            return;
        }
        a->kind = GT_TL_ARG_DOUBLE;
        char tmp[64];
        if (v->s.len < sizeof tmp) {
            memcpy(tmp, v->s.p, v->s.len);
            tmp[v->s.len] = '\0';
            a->v.d = strtod(tmp, NULL);
        } else {
            a->v.d = 0; /* a 64-digit number: only its order of magnitude could survive */
            if (v->s.len) {
                char *t = malloc((size_t)v->s.len + 1);
                if (t) {
                    memcpy(t, v->s.p, v->s.len);
                    t[v->s.len] = '\0';
                    a->v.d = strtod(t, NULL);
                }
                free(t);
            }
        }
        return;
    default: a->kind = GT_TL_ARG_NULL; return;
    }
}

int cr_args(cr_state *r, const cj_value *raw, uint32_t *n, bool skip_name, cj_value *name_out)
{
    *n = 0;
    if (raw->type == CJ_NONE)
        return 0;
    if (raw->type != CJ_OBJECT)
        return cr_deviation(r, CRW_BAD_ARGS, raw->off, "args is not an object: ignored");
    cj_lex sub;
    cj_sub(&sub, &r->lx, raw);
    sub.pos++;
    bool first = true;
    gt_tl_bytes key;
    int m;
    while ((m = cj_member(&sub, &first, &key)) == 1) {
        size_t koff = sub.pos;
        cj_value v;
        if (cj_value_read(&sub, &v) != 0)
            return -1;
        if (skip_name && key.len == 4 && memcmp(key.p, "name", 4) == 0) {
            *name_out = v;
            continue;
        }
        if (grow_args(r, *n))
            return cj_fail(&r->lx, koff, "out of memory");
        gt_tl_arg *a = &r->args[*n];
        memset(a, 0, sizeof *a);
        if ((a->name = cr_intern(r, &key, koff)) == (gt_tl_str)-1)
            return -1;
        typed(&v, a);
        (*n)++;
    }
    return m;
}
