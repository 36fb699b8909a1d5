/* Starting a reader in the middle of a stream (the frame index, at_index.c): the
 * signatures defined before the start are fed back to the parser from the index, then
 * the input restarts at a Snappy chunk. Nothing here runs per call. */
#include <stdio.h>

#include "at_reader_internal.h"

void at_reader_set_sig_hook(at_reader *r, at_sig_hook fn, void *ctx)
{
    r->sig_hook = fn;
    r->sig_hook_ctx = ctx;
}

static uint32_t table_count(const at_reader *r, at_sig_kind k)
{
    const sig_table *t[AT_SIG_KINDS] = {&r->funcs, &r->enums, &r->bitmasks, &r->structs,
                                        &r->frames};
    return t[k]->count;
}

static int parse_def(at_reader *r, at_sig_kind k)
{
    const void *sig;
    switch (k) {
    case AT_SIG_FUNCTION: return atr_parse_func_sig(r, (const gt_func_sig **)&sig);
    case AT_SIG_ENUM: return atr_parse_enum_sig(r, (const gt_enum_sig **)&sig);
    case AT_SIG_BITMASK: return atr_parse_bitmask_sig(r, (const gt_bitmask_sig **)&sig);
    case AT_SIG_STRUCT: return atr_parse_struct_sig(r, (const gt_struct_sig **)&sig);
    case AT_SIG_FRAME: return atr_parse_frame(r, (const gt_frame **)&sig);
    default: return atr_fail(r, 0, "unknown signature kind %d", (int)k);
    }
}

/* Parses one stored definition with the stream's own parser, over the stored bytes
 * alone: it must define a new signature and use every byte, or the index is wrong
 * (a known id would be taken as a reference and define nothing). */
static int preload(at_reader *r, const at_sig_def *d, const char *path)
{
    at_input raw, *in = r->in;
    at_input_init_raw(&raw, d->bytes, d->len, d->off, path);
    uint32_t before = d->kind < AT_SIG_KINDS ? table_count(r, d->kind) : 0;
    r->in = &raw;
    int ok = parse_def(r, d->kind);
    r->in = in;
    if (!ok) {
        if (!r->failed)
            atr_fail(r, d->off, "signature stored in the index ends early");
        return 0;
    }
    if (raw.cur != raw.end || table_count(r, d->kind) != before + 1)
        return atr_fail(r, d->off, "signature stored in the index does not define one signature");
    return 1;
}

int at_reader_seek(at_reader *r, const at_sig_def *defs, size_t ndefs, const at_seek_point *p,
                   gt_error *err)
{
    if (r->next_call_no || r->npending || r->done || r->failed) {
        gt_error_set(err, "%s: seeking is only possible before the first call", r->in->path);
        return 0;
    }
    for (size_t i = 0; i < ndefs && defs[i].off < p->stream_off; ++i) {
        if (!preload(r, &defs[i], r->in->path)) {
            gt_error_set(err, "%s", r->err.msg);
            return 0;
        }
    }
    if (p->chunk_off > p->stream_off ||
        !at_input_seek_chunk(r->in, p->chunk_pos, p->chunk_off, p->stream_off - p->chunk_off)) {
        r->failed = 1;
        gt_error_set(err, "%s", r->in->err.set ? r->in->err.msg : "bad seek point");
        return 0;
    }
    r->next_call_no = p->call_no;
    return 1;
}
