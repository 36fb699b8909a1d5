/* Chrome Trace Event Format reader: the document around the events
 * (chrome_reader.h). Object form {"traceEvents":[...], ...} with the keys in
 * any order, array form [...] whose closing ']' may be missing (the spec
 * allows it for writers that die mid-trace), gzip around either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "chrome_reader_internal.h"

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
        cj_type t = cj_peek(lx);
        if (t == CJ_NONE) {
            if (!array_form)
                return cj_fail(lx, lx->pos, "unexpected end of input in traceEvents");
            return cr_deviation(r, CRW_ARRAY_END, lx->pos, "the event array has no closing ]");
        }
        if (cj_accept(lx, ']')) {
            if (!first && r->st.events &&
                cr_deviation(r, CRW_TRAILING_COMMA, lx->pos - 1, "trailing comma in the event array") != 0)
                return -1;
            return 0;
        }
        if (t != CJ_OBJECT)
            return cj_fail(lx, lx->pos, "expected an event object");
        if (cr_event(r) != 0)
            return -1;
        if (cj_accept(lx, ','))
            continue;
        if (cj_accept(lx, ']'))
            return 0;
        if (cj_peek(lx) == CJ_NONE)
            continue; /* reported above */
        return cj_fail(lx, lx->pos, "expected , or ] after an event");
    }
}

/* ---- stackFrames ---- */

static int frame(cr_state *r, const cj_value *key, const cj_value *obj)
{
    gt_tl_event e = {.kind = GT_TL_STACK_FRAME};
    uint32_t id, parent = 0;
    if (cr_frame_id(r, key, &id) != 0)
        return -1;
    e.id = id;
    if (obj->type != CJ_OBJECT)
        return cj_fail(&r->lx, obj->off, "stack frame is not an object");
    cj_lex sub;
    cj_sub(&sub, &r->lx, obj);
    sub.pos++;
    bool first = true;
    gt_tl_bytes k;
    int m;
    while ((m = cj_member(&sub, &first, &k)) == 1) {
        cj_value v;
        if (cj_value_read(&sub, &v) != 0)
            return -1;
        bool name = k.len == 4 && !memcmp(k.p, "name", 4), cat = k.len == 8 && !memcmp(k.p, "category", 8);
        if (name || cat) {
            if (v.type != CJ_STRING)
                return cj_fail(&r->lx, v.off, "stack frame name or category is not a string");
            gt_tl_str s = cr_intern(r, &v.s, v.off);
            if (s == (gt_tl_str)-1)
                return -1;
            *(name ? &e.name : &e.cat) = s;
        } else if (k.len == 6 && !memcmp(k.p, "parent", 6)) {
            if (cr_frame_id(r, &v, &parent) != 0)
                return -1;
        } else if (r->strict) {
            return cj_fail(&r->lx, v.off, "stack frame key our writer never writes");
        }
    }
    if (m < 0)
        return -1;
    e.parent = parent;
    r->st.frames++;
    return gt_tl_emit(r->sink, r->tl, &e, r->err);
}

static int stack_frames(cr_state *r)
{
    cj_lex *lx = &r->lx;
    if (cj_peek(lx) != CJ_OBJECT)
        return cj_fail(lx, lx->pos, "stackFrames is not an object");
    lx->pos++;
    bool first = true;
    gt_tl_bytes k;
    int m;
    while ((m = cj_member(lx, &first, &k)) == 1) {
        cj_value key = {.type = CJ_STRING, .s = k, .off = lx->pos}, obj;
        gt_arena_reset(&r->scratch);
        if (cj_value_read(lx, &obj) != 0 || frame(r, &key, &obj) != 0)
            return -1;
    }
    return m;
}

/* ---- metadata: our wall-clock anchor ---- */

static int metadata(cr_state *r)
{
    cj_lex *lx = &r->lx;
    cj_value obj;
    if (cj_value_read(lx, &obj) != 0)
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
        static const char anchor[] = "gltrace_wall_offset_ns";
        uint64_t mag;
        bool neg;
        if (k.len != sizeof anchor - 1 || memcmp(k.p, anchor, k.len) != 0)
            continue;
        if ((v.type != CJ_STRING && v.type != CJ_NUMBER) || !cr_integer(&v.s, &mag, &neg) ||
            mag > (uint64_t)INT64_MAX + neg)
            return cj_fail(lx, v.off, "gltrace_wall_offset_ns is not a 64-bit integer");
        r->tl->has_wall = true;
        r->tl->wall_offset_ns = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    }
    return m;
}

/* ---- the document ---- */

static int skip_value(cr_state *r)
{
    cj_value v;
    gt_arena_reset(&r->scratch);
    return cj_value_read(&r->lx, &v);
}

static int top_member(cr_state *r, const gt_tl_bytes *k, size_t off, bool *seen)
{
    cj_lex *lx = &r->lx;
#define KEY(s) (k->len == sizeof(s) - 1 && memcmp(k->p, s, k->len) == 0)
    if (KEY("traceEvents")) {
        if (!cj_accept(lx, '['))
            return cj_fail(lx, lx->pos, "not a Chrome trace: traceEvents is not an array");
        *seen = true;
        return events(r, false);
    }
    if (KEY("stackFrames"))
        return stack_frames(r);
    if (KEY("metadata"))
        return metadata(r);
    if (KEY("displayTimeUnit")) {
        if (cj_peek(lx) != CJ_STRING)
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
    char keys[160] = "";
    size_t nkeys = 0;
    gt_tl_bytes k;
    int m;
    while ((m = cj_member(lx, &first, &k)) == 1) {
        if (nkeys++ < 4)
            snprintf(keys + strlen(keys), sizeof keys - strlen(keys), "%s\"%.*s\"", nkeys > 1 ? ", " : "",
                     (int)(k.len > 24 ? 24 : k.len), k.p);
        if (top_member(r, &k, lx->pos, &seen) != 0)
            return -1;
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

static int document(cr_state *r)
{
    cj_lex *lx = &r->lx;
    if (lx->end >= 3 && memcmp(lx->p, "\xef\xbb\xbf", 3) == 0) {
        if (cr_deviation(r, CRW_BOM, 0, "UTF-8 byte order mark skipped") != 0)
            return -1;
        lx->pos = 3;
    }
    cj_type t = cj_peek(lx);
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
    if (cj_peek(lx) != CJ_NONE)
        return cr_deviation(r, CRW_TRAILING, lx->pos, "data after the end of the JSON document ignored");
    return 0;
}

static int finish_checks(cr_state *r)
{
    if (r->open_total == 0)
        return 0;
    char msg[96];
    snprintf(msg, sizeof msg, "%llu B events never ended", (unsigned long long)r->open_total);
    return cr_deviation(r, CRW_OPEN_B, r->lx.end, msg);
}

static int parse(const char *data, size_t size, const char *name, gt_timeline *tl, gt_tl_sink *sink,
                 const gt_tl_read_opts *opts, gt_chrome_read_stats *stats, gt_error *err)
{
    cr_state *r = calloc(1, sizeof *r);
    if (!r) {
        gt_error_set(err, "%s: out of memory", name);
        return -1;
    }
    gt_arena_init(&r->scratch);
    cj_init(&r->lx, data, size, name, &r->scratch, err);
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
    int rc = document(r) == 0 && finish_checks(r) == 0 ? 0 : -1;
    if (rc != 0 && !err->set)
        gt_error_set(err, "%s: read failed", name);
    if (stats)
        *stats = r->st;
    chrome_map_free(&r->frames);
    chrome_map_free(&r->koids);
    chrome_map_free(&r->named);
    chrome_map_free(&r->open);
    gt_arena_free(&r->scratch);
    free(r->args);
    free(r);
    return rc;
}

/* ---- gzip ---- */

static int inflate_all(const uint8_t *data, size_t size, const char *name, char **out, size_t *outlen,
                       gt_error *err)
{
    uint64_t limit = (uint64_t)size * 1000 + 65536;
    if (limit > GT_CHROME_MAX_INFLATED)
        limit = GT_CHROME_MAX_INFLATED;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        gt_error_set(err, "%s: cannot start gzip decompression", name);
        return -1;
    }
    size_t cap = size * 4 + 4096 < limit ? size * 4 + 4096 : (size_t)limit, len = 0;
    char *buf = malloc(cap);
    int zr = Z_OK;
    z.next_in = (Bytef *)data;
    while (buf) {
        size_t in_left = size - (size_t)((const uint8_t *)z.next_in - data);
        z.avail_in = in_left > UINT32_MAX ? UINT32_MAX : (uInt)in_left;
        if (len == cap) {
            if (cap >= limit) {
                zr = Z_MEM_ERROR;
                break;
            }
            size_t ncap = cap * 2 < limit ? cap * 2 : (size_t)limit;
            char *nb = realloc(buf, ncap);
            if (!nb)
                break;
            buf = nb;
            cap = ncap;
        }
        size_t room = cap - len;
        z.next_out = (Bytef *)buf + len;
        z.avail_out = room > UINT32_MAX ? UINT32_MAX : (uInt)room;
        zr = inflate(&z, Z_NO_FLUSH);
        len = (size_t)((char *)z.next_out - buf);
        if (zr == Z_STREAM_END) {
            /* another gzip member may follow (concatenated files) */
            size_t at = (size_t)((const uint8_t *)z.next_in - data);
            if (size - at >= 2 && data[at] == 0x1f && data[at + 1] == 0x8b && inflateReset(&z) == Z_OK)
                continue;
            break;
        }
        if (zr != Z_OK && !(zr == Z_BUF_ERROR && z.avail_out == 0))
            break;
    }
    size_t consumed = (size_t)((const uint8_t *)z.next_in - data);
    inflateEnd(&z);
    if (!buf) {
        gt_error_set(err, "%s: out of memory decompressing gzip", name);
        return -1;
    }
    if (zr != Z_STREAM_END) {
        free(buf);
        if (zr == Z_MEM_ERROR)
            gt_error_set(err, "%s: gzip data inflates beyond %llu bytes", name, (unsigned long long)limit);
        else
            gt_error_at(err, name, consumed, "gzip data %s",
                        zr == Z_BUF_ERROR || zr == Z_OK ? "cut short" : "corrupt");
        return -1;
    }
    *out = buf;
    *outlen = len;
    return 0;
}

int gt_chrome_read_mem_stats(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                             gt_tl_sink *sink, const gt_tl_read_opts *opts,
                             gt_chrome_read_stats *stats, gt_error *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!name)
        name = "<memory>";
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) {
        char *text;
        size_t len;
        if (inflate_all(data, size, name, &text, &len, err) != 0)
            return -1;
        int rc = parse(text, len, name, tl, sink, opts, stats, err);
        free(text);
        return rc;
    }
    return parse((const char *)data, size, name, tl, sink, opts, stats, err);
}

int gt_chrome_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                       gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err)
{
    return gt_chrome_read_mem_stats(data, size, name, tl, sink, opts, NULL, err);
}

int gt_chrome_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                   gt_error *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        gt_error_set(err, "%s: cannot open the file", path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0, n;
    uint8_t *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int ioerr = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || ioerr) {
        gt_error_set(err, "%s: %s", path, buf ? "read error" : "out of memory reading the file");
        free(buf);
        return -1;
    }
    int rc = gt_chrome_read_mem(buf, len, path, tl, sink, opts, err);
    free(buf);
    return rc;
}
