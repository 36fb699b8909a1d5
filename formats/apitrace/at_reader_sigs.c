/* Signatures: written in full on first use and by id afterwards. Tables are indexed
 * by id; a new id may not run far ahead of those defined, so a corrupt id cannot
 * make a table huge. */
#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "at_reader_internal.h"
#include "gt_callflags.h"
#include "gt_grow.h"
#include "gt_roles.h"

static void *sig_alloc(void *ctx, size_t size)
{
    return gt_arena_alloc(&((at_reader *)ctx)->sigs, size);
}


static void *table_get(const sig_table *t, uint64_t id)
{
    return id < t->cap ? t->items[id] : NULL;
}

static const char *const kind_names[AT_SIG_KINDS] = {"function", "enum", "bitmask", "struct",
                                                     "backtrace frame"};

static int table_put(at_reader *r, sig_table *t, uint64_t id, void *item, uint64_t off,
                     at_sig_kind k)
{
    const char *kind = kind_names[k];
    if (id >= t->cap) {
        if (id >= (uint64_t)t->count * 2 + ID_SLACK)
            return atr_fail(r, off, "%s signature id %llu is far beyond the %u defined so far", kind,
                        (unsigned long long)id, t->count);
        size_t ncap = t->cap; /* t->cap is a uint32_t */
        if (GT_GROW(t->items, ncap, (size_t)id + 1, 64) != 0)
            return atr_fail(r, off, "out of memory");
        memset(t->items + t->cap, 0, (ncap - t->cap) * sizeof *t->items);
        t->cap = (uint32_t)ncap;
    }
    t->items[id] = item;
    t->count++;
    if (r->sig_hook) /* once per definition: not on the hot path */
        r->sig_hook(r->sig_hook_ctx, k, item, off);
    return 1;
}

static int rd_names(at_reader *r, uint32_t n, const char ***out, uint64_t off)
{
    if (!atr_check_size(r, off, n, MAX_SIG_COUNT, "name count"))
        return 0;
    size_t cap = 0;
    const char **names = NULL;
    for (uint32_t i = 0; i < n; ++i) {
        if (i == cap && !(names = atr_grow(r, &r->sigs, names, sizeof *names, &cap, n)))
            return 0;
        if (!atr_rd_string(r, &r->sigs, &names[i], NULL))
            return 0;
    }
    *out = names;
    return 1;
}

int atr_parse_func_sig(at_reader *r, const gt_func_sig **out)
{
    uint64_t off = atr_pos(r), id;
    if (!atr_rd_uint(r, &id))
        return 0;
    gt_func_sig *sig = table_get(&r->funcs, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    return atr_define_func_sig(r, off, id, out);
}

int atr_define_func_sig(at_reader *r, uint64_t off, uint64_t id, const gt_func_sig **out)
{
    gt_func_sig *sig;
    if (!(sig = atr_alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->arg_names = NULL;
    if (!atr_rd_string(r, &r->sigs, &sig->name, NULL) || !atr_rd_u32(r, &sig->num_args, "argument count") ||
        !rd_names(r, sig->num_args, &sig->arg_names, off))
        return 0;
    if (sig->num_args > MAX_ARGS)
        return atr_fail(r, off, "function %s has %u arguments", sig->name, sig->num_args);
    sig->flags = gt_callflags_lookup(sig->name);
    if (sig->num_args == 0 && (gt_roles_lookup(sig->name).bits & GT_ROLE_GETERROR))
        r->get_error_sig = sig;
    if (!table_put(r, &r->funcs, id, sig, off, AT_SIG_FUNCTION))
        return 0;
    *out = sig;
    return 1;
}


int atr_parse_enum_sig(at_reader *r, const gt_enum_sig **out)
{
    uint64_t off = atr_pos(r), id;
    if (!atr_rd_uint(r, &id))
        return 0;
    gt_enum_sig *sig = table_get(&r->enums, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = atr_alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->values = NULL;
    sig->by_value = NULL;
    if (r->version >= 3) {
        if (!atr_rd_u32(r, &sig->num_values, "enum value count") ||
            !atr_check_size(r, off, sig->num_values, MAX_SIG_COUNT, "enum value count"))
            return 0;
    } else {
        sig->num_values = 1; /* old traces: one name/value pair per signature */
    }
    size_t cap = 0;
    for (uint32_t i = 0; i < sig->num_values; ++i) {
        if (i == cap && !(sig->values = atr_grow(r, &r->sigs, sig->values, sizeof *sig->values, &cap,
                                            sig->num_values)))
            return 0;
        if (!atr_rd_string(r, &r->sigs, &sig->values[i].name, NULL) ||
            !atr_rd_sint(r, &sig->values[i].value))
            return 0;
    }
    sig->by_value = NULL;
    if (sig->num_values > 16 && !gt_enum_index(sig, sig_alloc, r))
        return atr_fail(r, off, "out of memory");
    if (!table_put(r, &r->enums, id, sig, off, AT_SIG_ENUM))
        return 0;
    *out = sig;
    return 1;
}

int atr_parse_bitmask_sig(at_reader *r, const gt_bitmask_sig **out)
{
    uint64_t off = atr_pos(r), id;
    if (!atr_rd_uint(r, &id))
        return 0;
    gt_bitmask_sig *sig = table_get(&r->bitmasks, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = atr_alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->flags = NULL;
    if (!atr_rd_u32(r, &sig->num_flags, "bitmask flag count") ||
        !atr_check_size(r, off, sig->num_flags, MAX_SIG_COUNT, "bitmask flag count"))
        return 0;
    size_t cap = 0;
    for (uint32_t i = 0; i < sig->num_flags; ++i) {
        if (i == cap && !(sig->flags = atr_grow(r, &r->sigs, sig->flags, sizeof *sig->flags, &cap,
                                           sig->num_flags)))
            return 0;
        if (!atr_rd_string(r, &r->sigs, &sig->flags[i].name, NULL) ||
            !atr_rd_uint(r, &sig->flags[i].value))
            return 0;
    }
    if (!table_put(r, &r->bitmasks, id, sig, off, AT_SIG_BITMASK))
        return 0;
    *out = sig;
    return 1;
}

int atr_parse_struct_sig(at_reader *r, const gt_struct_sig **out)
{
    uint64_t off = atr_pos(r), id;
    if (!atr_rd_uint(r, &id))
        return 0;
    gt_struct_sig *sig = table_get(&r->structs, id);
    if (sig) {
        *out = sig;
        return 1;
    }
    if (!(sig = atr_alloc(r, &r->sigs, sizeof *sig)))
        return 0;
    sig->id = (uint32_t)id;
    sig->member_names = NULL;
    if (!atr_rd_string(r, &r->sigs, &sig->name, NULL) ||
        !atr_rd_u32(r, &sig->num_members, "struct member count") ||
        !rd_names(r, sig->num_members, &sig->member_names, off))
        return 0;
    if (!table_put(r, &r->structs, id, sig, off, AT_SIG_STRUCT))
        return 0;
    *out = sig;
    return 1;
}

int atr_parse_frame(at_reader *r, const gt_frame **out)
{
    uint64_t off = atr_pos(r), id, u;
    if (!atr_rd_uint(r, &id))
        return 0;
    gt_frame *f = table_get(&r->frames, id);
    if (f) {
        *out = f;
        return 1;
    }
    if (!(f = atr_alloc(r, &r->sigs, sizeof *f)))
        return 0;
    f->id = (uint32_t)id;
    f->module = f->function = f->filename = NULL;
    f->line = f->offset = -1;
    for (;;) {
        uint64_t doff = atr_pos(r);
        int c = 0;
        if (!atr_rd_byte(r, &c))
            return 0;
        if (c == AT_FRAME_END)
            break;
        switch (c) {
        case AT_FRAME_MODULE: if (!atr_rd_string(r, &r->sigs, &f->module, NULL)) return 0; break;
        case AT_FRAME_FUNCTION: if (!atr_rd_string(r, &r->sigs, &f->function, NULL)) return 0; break;
        case AT_FRAME_FILENAME: if (!atr_rd_string(r, &r->sigs, &f->filename, NULL)) return 0; break;
        case AT_FRAME_LINE: if (!atr_rd_uint(r, &u)) return 0; f->line = (int64_t)u; break;
        case AT_FRAME_OFFSET: if (!atr_rd_uint(r, &u)) return 0; f->offset = (int64_t)u; break;
        default: return atr_fail(r, doff, "unknown backtrace frame detail 0x%02x", c);
        }
    }
    if (!table_put(r, &r->frames, id, f, off, AT_SIG_FRAME))
        return 0;
    *out = f;
    return 1;
}
