/* Building the frame index (at_index.h) in one pass over a trace: the totals info
 * prints, one entry per frame with where to start reading it, and every signature
 * definition re-encoded as the stream writes it. */
#include <stdlib.h>
#include <string.h>

#include "at_format.h"
#include "at_index.h"
#include "gt_grow.h"
#include "gt_progress.h"

typedef struct chunk_pos {
    uint64_t file_pos, stream_off;
} chunk_pos;

typedef struct builder {
    at_index *ix;
    unsigned version;
    chunk_pos *chunks; /* every non-empty Snappy chunk, in file order */
    size_t nchunks, chunks_cap;
    int oom;
    /* the frame being read */
    int in_frame;
    at_index_frame cur;
    uint64_t frame_start;
    int have_prev;               /* the call that ended the frame before */
    uint32_t prev_no;
    uint64_t prev_off;
} builder;

/* ---- signatures, in the stream's encoding ------------------------------------------ */

static void put(builder *b, const void *p, size_t n)
{
    at_index *ix = b->ix;
    if (b->oom || GT_GROW(ix->sig_bytes, ix->sig_cap, ix->sig_len + n, 256) != 0) {
        b->oom = 1;
        return;
    }
    memcpy(ix->sig_bytes + ix->sig_len, p, n);
    ix->sig_len += n;
}

static void put_byte(builder *b, unsigned c)
{
    uint8_t v = (uint8_t)c;
    put(b, &v, 1);
}

static void put_uint(builder *b, uint64_t v)
{
    uint8_t tmp[10];
    unsigned n = 0;
    do {
        tmp[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            tmp[n] |= 0x80;
        n++;
    } while (v);
    put(b, tmp, n);
}

static void put_string(builder *b, const char *s)
{
    size_t n = strlen(s);
    put_uint(b, n);
    put(b, s, n);
}

static void put_sint(builder *b, int64_t v)
{
    put_byte(b, v < 0 ? AT_TYPE_SINT : AT_TYPE_UINT);
    put_uint(b, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

static void put_names(builder *b, uint32_t n, const char *const *names)
{
    put_uint(b, n);
    for (uint32_t i = 0; i < n; ++i)
        put_string(b, names[i]);
}

static void put_frame(builder *b, const gt_frame *f)
{
    if (f->module) { put_byte(b, AT_FRAME_MODULE); put_string(b, f->module); }
    if (f->function) { put_byte(b, AT_FRAME_FUNCTION); put_string(b, f->function); }
    if (f->filename) { put_byte(b, AT_FRAME_FILENAME); put_string(b, f->filename); }
    if (f->line >= 0) { put_byte(b, AT_FRAME_LINE); put_uint(b, (uint64_t)f->line); }
    if (f->offset >= 0) { put_byte(b, AT_FRAME_OFFSET); put_uint(b, (uint64_t)f->offset); }
    put_byte(b, AT_FRAME_END);
}

static void put_sig(builder *b, at_sig_kind kind, const void *sig)
{
    switch (kind) {
    case AT_SIG_FUNCTION: {
        const gt_func_sig *s = sig;
        put_uint(b, s->id), put_string(b, s->name), put_names(b, s->num_args, s->arg_names);
        break;
    }
    case AT_SIG_ENUM: {
        const gt_enum_sig *s = sig;
        put_uint(b, s->id);
        if (b->version >= 3) /* older traces: one pair, no count */
            put_uint(b, s->num_values);
        for (uint32_t i = 0; i < s->num_values; ++i)
            put_string(b, s->values[i].name), put_sint(b, s->values[i].value);
        break;
    }
    case AT_SIG_BITMASK: {
        const gt_bitmask_sig *s = sig;
        put_uint(b, s->id), put_uint(b, s->num_flags);
        for (uint32_t i = 0; i < s->num_flags; ++i)
            put_string(b, s->flags[i].name), put_uint(b, s->flags[i].value);
        break;
    }
    case AT_SIG_STRUCT: {
        const gt_struct_sig *s = sig;
        put_uint(b, s->id), put_string(b, s->name), put_names(b, s->num_members, s->member_names);
        break;
    }
    default: {
        const gt_frame *f = sig;
        put_uint(b, f->id), put_frame(b, f);
        break;
    }
    }
}

/* The bytes live in one growing buffer: defs hold offsets into it until the end. */
static void on_sig(void *ctx, at_sig_kind kind, const void *sig, uint64_t off)
{
    builder *b = ctx;
    at_index *ix = b->ix;
    if (b->oom || GT_GROW(ix->sigs, ix->sigs_cap, ix->nsigs + 1, 64) != 0) {
        b->oom = 1;
        return;
    }
    size_t start = ix->sig_len;
    put_sig(b, kind, sig);
    at_sig_def *d = &ix->sigs[ix->nsigs++];
    d->kind = kind;
    d->off = off;
    d->bytes = (const uint8_t *)(uintptr_t)start;
    d->len = (uint32_t)(ix->sig_len - start);
}

static void on_chunk(void *ctx, uint64_t file_pos, uint64_t stream_off)
{
    builder *b = ctx;
    if (b->oom || GT_GROW(b->chunks, b->chunks_cap, b->nchunks + 1, 64) != 0) {
        b->oom = 1;
        return;
    }
    b->chunks[b->nchunks++] = (chunk_pos){file_pos, stream_off};
}

/* ---- frames ----------------------------------------------------------------------- */

static void push_frame(builder *b, uint64_t end, uint32_t complete)
{
    at_index *ix = b->ix;
    if (b->oom || GT_GROW(ix->frames, ix->frames_cap, ix->nframes + 1, 64) != 0) {
        b->oom = 1;
        return;
    }
    b->cur.size = end - b->frame_start;
    b->cur.complete = complete;
    ix->frames[ix->nframes++] = b->cur;
    b->frame_start = end;
    b->in_frame = 0;
}

static void add_call(builder *b, const gt_call *c, uint64_t here)
{
    at_index *ix = b->ix;
    if (!ix->api && strcmp(at_index_api_name(c->sig->name), "Unknown"))
        ix->api = at_index_api_name(c->sig->name);
    if (!b->in_frame) {
        b->in_frame = 1;
        memset(&b->cur, 0, sizeof b->cur);
        b->cur.first_no = c->no;
        b->cur.start.call_no = b->have_prev ? b->prev_no : c->no;
        b->cur.start.stream_off = b->have_prev ? b->prev_off : c->offset;
    }
    if (c->no < b->cur.start.call_no) {
        b->cur.start.call_no = c->no;
        b->cur.start.stream_off = c->offset;
    }
    if ((c->flags & GT_CALL_FLAG_INCOMPLETE) && ix->first_incomplete_frame == UINT64_MAX)
        ix->first_incomplete_frame = ix->nframes;
    b->cur.last_no = c->no;
    b->cur.calls++;
    if (c->flags & GT_CALL_FLAG_END_FRAME) {
        push_frame(b, here, 1);
        ix->frames_count++;
        b->have_prev = 1;
        b->prev_no = c->no;
        b->prev_off = c->offset;
    }
}

/* The chunk holding each frame's start: the last chunk that begins at or before it. */
static void resolve_chunks(builder *b)
{
    for (size_t i = 0; i < b->ix->nframes; ++i) {
        at_seek_point *p = &b->ix->frames[i].start;
        size_t lo = 0, hi = b->nchunks;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (b->chunks[mid].stream_off <= p->stream_off)
                lo = mid + 1;
            else
                hi = mid;
        }
        p->chunk_pos = lo ? b->chunks[lo - 1].file_pos : 0;
        p->chunk_off = lo ? b->chunks[lo - 1].stream_off : 0;
    }
}

static void finish_sigs(at_index *ix)
{
    for (size_t i = 0; i < ix->nsigs; ++i)
        ix->sigs[i].bytes = ix->sig_bytes + (uintptr_t)ix->sigs[i].bytes;
}

static int copy_header(at_index *ix, const at_reader *r)
{
    ix->version = at_reader_version(r);
    ix->semantic_version = at_reader_semantic_version(r);
    ix->container = at_reader_input(r)->container;
    ix->container_size = at_input_file_size(at_reader_input(r));
    unsigned n = at_reader_num_properties(r);
    if (n && !(ix->props = calloc(n, sizeof *ix->props)))
        return 0;
    for (unsigned i = 0; i < n; ++i, ix->nprops++) {
        const at_property *p = at_reader_property(r, i);
        if (!(ix->props[i].name = strdup(p->name)) || !(ix->props[i].value = strdup(p->value))) {
            free((char *)ix->props[i].name);
            ix->props[i].name = NULL;
            return 0;
        }
    }
    return 1;
}

static int copy_end(at_index *ix, const at_reader *r, const char *trace)
{
    at_reader_stats st;
    at_reader_get_stats(r, &st);
    ix->calls = st.calls;
    ix->incomplete = st.incomplete;
    ix->threads = st.threads;
    ix->functions = st.functions;
    ix->data_size = at_input_offset(at_reader_input(r));
    const char *w = at_reader_warning(r);
    if (!w)
        return 1;
    size_t n = strlen(trace); /* the warning names the trace as given: keep the rest */
    if (!strncmp(w, trace, n) && !strncmp(w + n, ": ", 2))
        w += n + 2;
    return (ix->warning = strdup(w)) != NULL;
}

static void read_all(builder *b, at_reader *r, const char *label)
{
    gt_progress prog;
    if (label)
        gt_progress_start(&prog, label, at_input_file_size(at_reader_input(r)), false);
    uint64_t n = 0;
    gt_call *c;
    while ((c = at_reader_next(r))) {
        if (label)
            gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++n);
        add_call(b, c, at_input_offset(at_reader_input(r)));
        at_reader_release(r, c);
    }
    if (label)
        gt_progress_end(&prog);
}

static at_reader *open_reader(builder *b, const char *trace, gt_error *err)
{
    at_input *in = at_input_open(trace, err);
    if (!in)
        return NULL;
    in->on_chunk = on_chunk; /* before the header is read: its chunk counts too */
    in->on_chunk_ctx = b;
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open_input(in, &ropt, err);
    if (r)
        at_reader_set_sig_hook(r, on_sig, b);
    return r;
}

at_index *at_index_build(const char *trace, const char *progress_label, gt_error *err)
{
    builder b = {0};
    b.ix = calloc(1, sizeof *b.ix);
    if (!b.ix) {
        gt_error_set(err, "%s: out of memory", trace);
        return NULL;
    }
    b.ix->first_incomplete_frame = UINT64_MAX;
    at_reader *r = open_reader(&b, trace, err);
    int ok = r != NULL;
    if (ok) {
        b.version = at_reader_version(r);
        ok = copy_header(b.ix, r);
        if (ok)
            read_all(&b, r, progress_label);
        if (at_reader_error(r)) {
            gt_error_set(err, "%s", at_reader_error(r));
            ok = 0;
        } else if (ok) {
            if (b.in_frame) /* like apitrace, calls after the last swap make no frame */
                push_frame(&b, at_input_offset(at_reader_input(r)), 0);
            ok = copy_end(b.ix, r, trace) && !b.oom;
        }
        if (!ok && !err->set)
            gt_error_set(err, "%s: out of memory", trace);
    }
    at_reader_close(r);
    if (ok) {
        resolve_chunks(&b);
        finish_sigs(b.ix);
    }
    free(b.chunks);
    if (!ok) {
        if (b.ix->sigs) /* bytes still hold offsets: nothing to fix before freeing */
            b.ix->nsigs = 0;
        at_index_free(b.ix);
        return NULL;
    }
    return b.ix;
}
