/* Chrome Trace Event Format reader: the document around the events
 * (chrome_reader.h). Object form {"traceEvents":[...], ...} with the keys in
 * any order, array form [...] whose closing ']' may be missing (the spec
 * allows it for writers that die mid-trace), gzip around either. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chrome_reader_internal.h"
#include "gt_input.h"

void cr_warn(cr_state *r, unsigned bit, const char *what)
{
    if (r->warned & (1u << bit))
        return;
    r->warned |= 1u << bit;
    if (r->opts && r->opts->warn) {
        char msg[GT_ERROR_MAX];
        snprintf(msg, sizeof msg, "%s: %s", r->lx.name, what);
        r->opts->warn(r->opts->warn_ctx, msg);
    }
}

int cr_deviation(cr_state *r, unsigned bit, size_t off, const char *what)
{
    if (r->strict)
        return cj_fail(&r->lx, off, what);
    cr_warn(r, bit, what);
    return 0;
}

/* ---- traceEvents ---- */

static int events(cr_state *r, bool array_form)
{
    cj_lex *lx = &r->lx;
    for (bool first = true;; first = false) {
        cr_compact(r);
        cj_type t = cr_peek_free(r);
        if (t == CJ_NONE) {
            if (!array_form)
                return cj_fail(lx, lx->pos, "unexpected end of input in traceEvents");
            return cr_deviation(r, CRW_ARRAY_END, lx->pos, "the event array has no closing ]");
        }
        if (cr_accept(r, ']')) {
            if (!first && cr_deviation(r, CRW_TRAILING_COMMA, lx->pos - 1, "trailing comma in the event array") != 0)
                return -1;
            return 0;
        }
        if (t != CJ_OBJECT)
            return cj_fail(lx, lx->pos, "expected an event object");
        if (cr_frame(r) != 0 || cr_event(r) != 0)
            return -1;
        if (cr_accept_free(r, ','))
            continue;
        if (cr_accept(r, ']'))
            return 0;
        if (cr_peek(r) == CJ_NONE)
            continue; /* reported above */
        return cj_fail(lx, lx->pos, "expected , or ] after an event");
    }
}

/* ---- metadata: our wall-clock anchor ---- */

static int read_framed(cr_state *r, cj_value *v)
{
    gt_arena_reset(&r->scratch);
    cr_compact(r);
    cr_peek(r);
    if (cr_frame(r) != 0)
        return -1;
    return cj_value_read(&r->lx, v);
}

static int metadata(cr_state *r)
{
    cj_lex *lx = &r->lx;
    cj_value obj;
    if (read_framed(r, &obj) != 0)
        return -1;
    if (obj.type != CJ_OBJECT)
        return 0; /* someone else's metadata */
    cj_lex sub;
    cj_sub(&sub, lx, &obj);
    sub.pos++;
    bool first = true;
    gt_tl_bytes k;
    int m;
    while ((m = cj_member(&sub, &first, &k)) == 1) {
        cj_value v;
        if (cj_value_read(&sub, &v) != 0)
            return -1;
        /* the clock anchors (gt_timeline.h): Unix time and CLOCK_MONOTONIC */
        static const char wall[] = "gltrace_wall_offset_ns", mono[] = "gltrace_mono_offset_ns";
        uint64_t mag;
        bool neg, is_wall = k.len == sizeof wall - 1 && memcmp(k.p, wall, k.len) == 0;
        if (!is_wall && (k.len != sizeof mono - 1 || memcmp(k.p, mono, k.len) != 0))
            continue;
        if ((v.type != CJ_STRING && v.type != CJ_NUMBER) || !cr_integer(&v.s, &mag, &neg) ||
            mag > (uint64_t)INT64_MAX + neg)
            return cj_fail(lx, v.off, is_wall ? "gltrace_wall_offset_ns is not a 64-bit integer"
                                              : "gltrace_mono_offset_ns is not a 64-bit integer");
        *(is_wall ? &r->tl->has_wall : &r->tl->has_mono) = true;
        *(is_wall ? &r->tl->wall_offset_ns : &r->tl->mono_offset_ns) =
            neg ? (int64_t)(0 - mag) : (int64_t)mag;
    }
    return m;
}

/* ---- the document ---- */

/* Strict mode checks what it skips; liberal mode streams past it unread. */
static int skip_value(cr_state *r)
{
    cj_value v;
    if (r->strict)
        return read_framed(r, &v);
    cr_compact(r);
    cr_peek_free(r);
    return cr_skip(r);
}

static int top_member(cr_state *r, const char *k, size_t klen, size_t off, bool *seen)
{
    cj_lex *lx = &r->lx;
#define KEY(s) (klen == sizeof(s) - 1 && memcmp(k, s, klen) == 0)
    if (KEY("traceEvents")) {
        if (!cr_accept(r, '['))
            return cj_fail(lx, lx->pos, "not a Chrome trace: traceEvents is not an array");
        *seen = true;
        return events(r, false);
    }
    if (KEY("stackFrames"))
        return cr_stack_frames(r);
    if (KEY("metadata"))
        return metadata(r);
    if (KEY("displayTimeUnit")) {
        if (cr_peek(r) != CJ_STRING)
            return cj_fail(lx, lx->pos, "displayTimeUnit is not a string");
        return skip_value(r);
    }
    if (KEY("systemTraceEvents")) {
        if (cr_deviation(r, CRW_SYSTEM_TRACE, off, "systemTraceEvents (ftrace text) skipped") != 0)
            return -1;
        return skip_value(r);
    }
#undef KEY
    if (r->strict)
        return cj_fail(lx, off, "top-level key our writer never writes");
    return skip_value(r); /* otherData, samples, clientInfo, ...: not events */
}

static int object_form(cr_state *r)
{
    cj_lex *lx = &r->lx;
    lx->pos++;
    bool first = true, seen = false;
    char keys[160] = "", key[32];
    size_t nkeys = 0;
    gt_tl_bytes k;
    int m;
    while ((m = cr_member(r, &first, &k, NULL, false)) == 1) {
        /* k lives in the window, which moves: keep what is needed of it */
        size_t klen = k.len;
        memcpy(key, k.p, klen < sizeof key ? klen : sizeof key);
        if (nkeys++ < 4)
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s\"%.*s\"", nkeys > 1 ? ", " : "",
                     (int)(k.len > 24 ? 24 : k.len), k.p);
        if (top_member(r, key, klen < sizeof key ? klen : SIZE_MAX, lx->pos, &seen) != 0)
            return -1;
        cr_compact(r);
    }
    if (m < 0)
        return -1;
    if (!seen) {
        gt_error_set(r->err, "%s: not a Chrome trace: the top-level object has no traceEvents (keys: %s%s)",
                     lx->name, nkeys ? keys : "none", nkeys > 4 ? ", ..." : "");
        return -1;
    }
    return 0;
}

/* Reads the input to its end, keeping nothing: a gzip stream's checksum
 * comes last, and a corrupt one fails the read however little is left. */
static int drain(cr_state *r)
{
    int m;
    do {
        size_t n = cr_source_drop(&r->src, r->src.len);
        cr_sync(r);
        r->lx.pos = r->lx.pos > n ? r->lx.pos - n : 0;
    } while ((m = cr_more(r)) > 0);
    return m;
}

static int document(cr_state *r)
{
    cj_lex *lx = &r->lx;
    while (lx->end < 3 && cr_more(r) > 0)
        ;
    if (lx->end >= 3 && memcmp(lx->p, "\xef\xbb\xbf", 3) == 0) {
        if (cr_deviation(r, CRW_BOM, 0, "UTF-8 byte order mark skipped") != 0)
            return -1;
        lx->pos = 3;
    }
    cj_type t = cr_peek_free(r);
    int rc;
    if (t == CJ_OBJECT) {
        rc = object_form(r);
    } else if (t == CJ_ARRAY) {
        if (r->strict)
            return cj_fail(lx, lx->pos, "array form (our writer writes the object form)");
        lx->pos++;
        rc = events(r, true);
    } else if (t == CJ_NONE) {
        return cj_fail(lx, lx->pos, "empty input");
    } else if (t == CJ_BAD) {
        return cj_fail(lx, lx->pos, "not JSON: expected [ or {");
    } else {
        gt_error_set(r->err, "%s: not a Chrome trace: the document is a single JSON %s", lx->name,
                     t == CJ_STRING ? "string" : t == CJ_NUMBER ? "number" : "literal");
        return -1;
    }
    if (rc != 0)
        return -1;
    if (cr_peek_free(r) != CJ_NONE &&
        cr_deviation(r, CRW_TRAILING, lx->pos, "data after the end of the JSON document ignored") != 0)
        return -1;
    return drain(r);
}

static int finish_checks(cr_state *r)
{
    if (r->open_total == 0)
        return 0;
    char msg[96];
    snprintf(msg, sizeof msg, "%llu B events never ended", (unsigned long long)r->open_total);
    cr_warn(r, CRW_OPEN_B, msg); /* in strict mode too: see pairing() */
    return 0;
}

/* Reads the document from r->src; frees r (and closes the source). */
static int parse(cr_state *r, const char *name, gt_timeline *tl, gt_tl_sink *sink,
                 const gt_tl_read_opts *opts, gt_chrome_read_stats *stats, gt_error *err)
{
    gt_arena_init(&r->scratch);
    cj_init(&r->lx, r->src.buf, r->src.len, name, &r->scratch, err);
    cr_sync(r);
    r->tl = tl;
    r->sink = sink;
    r->opts = opts;
    r->strict = opts && opts->strict;
    r->lx.strict = r->strict;
    r->err = err;
    r->next_frame = CR_FRAME_DENSE;
    chrome_map_init(&r->frames);
    chrome_map_init(&r->koids);
    chrome_map_init(&r->named);
    chrome_map_init(&r->open);
    chrome_map_init(&r->defined);
    chrome_map_init(&r->raw_frames);
    int rc = document(r) == 0 && !r->src.failed && finish_checks(r) == 0 ? 0 : -1;
    if (rc != 0 && !err->set)
        gt_error_set(err, "%s: read failed", name);
    r->st.window = r->src.cap;
    if (stats)
        *stats = r->st;
    chrome_map_free(&r->frames);
    chrome_map_free(&r->koids);
    chrome_map_free(&r->named);
    chrome_map_free(&r->open);
    chrome_map_free(&r->defined);
    chrome_map_free(&r->raw_frames);
    gt_arena_free(&r->scratch);
    cr_source_close(&r->src);
    free(r->args);
    free(r);
    return rc;
}

/* The reader's state, its source set up in place (a z_stream may not move). */
static cr_state *state_new(const char *name, gt_error *err)
{
    cr_state *r = calloc(1, sizeof *r);
    if (!r)
        gt_error_set(err, "%s: out of memory", name);
    return r;
}

static void state_abandon(cr_state *r)
{
    cr_source_close(&r->src);
    free(r);
}

int gt_chrome_read_mem_stats(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                             gt_tl_sink *sink, const gt_tl_read_opts *opts,
                             gt_chrome_read_stats *stats, gt_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!name)
        name = "<memory>";
    cr_state *r = state_new(name, err);
    if (!r)
        return -1;
    if (cr_source_mem(&r->src, data, size, name, err) != 0) {
        state_abandon(r);
        return -1;
    }
    return parse(r, name, tl, sink, opts, stats, err);
}

int gt_chrome_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                       gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err)
{
    return gt_chrome_read_mem_stats(data, size, name, tl, sink, opts, NULL, err);
}

int gt_chrome_read_stream(FILE *f, const char *name, gt_timeline *tl, gt_tl_sink *sink,
                          const gt_tl_read_opts *opts, gt_chrome_read_stats *stats, gt_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    struct stat st;
    uint64_t size = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
    cr_state *r = state_new(name, err);
    if (!r)
        return -1;
    if (cr_source_file(&r->src, f, size, name, err) != 0) {
        state_abandon(r);
        return -1;
    }
    return parse(r, name, tl, sink, opts, stats, err);
}

int gt_chrome_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                   gt_error *err)
{
    bool std = strcmp(path, "-") == 0;
    FILE *f = std ? stdin : gt_input_fopen(path, NULL, err);
    if (!f)
        return -1;
    int rc = gt_chrome_read_stream(f, path, tl, sink, opts, NULL, err);
    if (!std)
        fclose(f);
    return rc;
}
