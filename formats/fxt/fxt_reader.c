/* The FXT reader: walks records (from memory, or from a file in chunks) and
 * turns each into timeline events. Argument and reference decoding is in
 * fxt_reader_args.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "fxt_reader_internal.h"
#include "gt_input.h"

#define TICKS_NS 1000000000ull

static int64_t to_ns(const fxt_rd *r, uint64_t ticks)
{
    if (r->rate == TICKS_NS)
        return (int64_t)ticks; /* our own files: exact, negative times included */
    unsigned __int128 ns = (unsigned __int128)ticks * TICKS_NS / r->rate;
    return ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
}

static int emit(fxt_rd *r, gt_tl_event *ev)
{
    ev->nargs = r->nargs;
    ev->args = r->nargs ? r->args : NULL;
    return gt_tl_emit(r->sink, r->tl, ev, r->err);
}

/* The clock anchors (fxt_format.h): taken into the timeline, not emitted. */
static bool is_anchor(fxt_rd *r, const gt_tl_event *ev)
{
    if (ev->pid || ev->tid || ev->cat || ev->name || r->nargs < 1 || r->nargs > 2)
        return false;
    for (uint32_t i = 0; i < r->nargs; i++)
        if (r->args[i].kind != GT_TL_ARG_I64 ||
            (r->args[i].name != r->m_wall && r->args[i].name != r->m_mono))
            return false;
    for (uint32_t i = 0; i < r->nargs; i++) {
        bool wall = r->args[i].name == r->m_wall;
        *(wall ? &r->tl->has_wall : &r->tl->has_mono) = true;
        *(wall ? &r->tl->wall_offset_ns : &r->tl->mono_offset_ns) = r->args[i].v.i;
    }
    return true;
}

/* Words left after what the record's format describes. */
static int check_end(fxt_rd *r)
{
    if (r->pos == r->nw)
        return 0;
    return fxt_rd_dev(r, FXT_W_EXTRA, fxt_rd_off(r), "%u words after the record's content",
                      r->nw - r->pos);
}

/* ---- metadata, initialization, tables ---- */

#define UNCLAIMED UINT32_MAX /* tables used before any provider record */

int fxt_rd_provider(fxt_rd *r, uint32_t id)
{
    if (r->t->provider == id)
        return 0;
    if (r->t->provider == UNCLAIMED) { /* records before it were this provider's */
        r->t->provider = id;
        return 0;
    }
    for (uint32_t i = 0; i < r->nprov; i++)
        if (r->prov[i]->provider == id) {
            r->t = r->prov[i];
            return 0;
        }
    if (r->nprov == FXT_MAX_PROVIDERS)
        return fxt_rd_dev(r, FXT_W_PROVIDERS, r->off,
                          "more than %d providers: provider %u shares another's tables",
                          FXT_MAX_PROVIDERS, id);
    fxt_tables *t = calloc(1, sizeof *t);
    if (!t) {
        gt_error_set(r->err, "%s: out of memory (provider tables)", r->name);
        return -1;
    }
    t->provider = id;
    r->prov[r->nprov++] = r->t = t;
    return 0;
}

static int rd_magic(fxt_rd *r, uint64_t h)
{
    if (h != FXT_MAGIC_WORD || r->nw != 1)
        return fxt_rd_dev(r, FXT_W_RESERVED, r->off, "malformed magic number record");
    return 0;
}

static int rd_metadata(fxt_rd *r, uint64_t h)
{
    unsigned type = (unsigned)fxt_field(h, 16, 4);
    const char *s;
    int rc = 0;
    switch (type) {
    case FXT_META_PROVIDER_INFO:
        if ((rc = fxt_rd_reserved(r, h, 0xfull << 60, r->off)) != 0 ||
            (rc = fxt_rd_provider(r, (uint32_t)fxt_field(h, 20, 32))) != 0 ||
            (rc = fxt_rd_stream(r, (uint32_t)fxt_field(h, 52, 8), &s)) != 0)
            return rc;
        return check_end(r);
    case FXT_META_PROVIDER_SECTION:
        if ((rc = fxt_rd_reserved(r, h, 0xfffull << 52, r->off)) != 0)
            return rc;
        return fxt_rd_provider(r, (uint32_t)fxt_field(h, 20, 32));
    case FXT_META_PROVIDER_EVENT:
        if ((rc = fxt_rd_reserved(r, h, 0xffull << 56, r->off)) != 0)
            return rc;
        if (fxt_field(h, 52, 4) == 0)
            fxt_rd_note(r, FXT_N_DROPPED, r->off, "a provider's buffer filled up: records were dropped");
        return 0;
    case FXT_META_TRACE_INFO:
        return fxt_field(h, 20, 4) == 0 ? rd_magic(r, h) : 0;
    default: return 0; /* unknown metadata: skipped */
    }
}

static int rd_init(fxt_rd *r, uint64_t h)
{
    uint64_t rate;
    int rc;
    if ((rc = fxt_rd_reserved(r, h, ~0ull << 16, r->off)) != 0 || (rc = fxt_rd_word(r, &rate)) != 0)
        return rc;
    if (rate == 0)
        return fxt_rd_dev(r, FXT_W_RATE, r->off, "initialization record with 0 ticks per second");
    r->rate = rate;
    r->seen_init = true;
    return check_end(r);
}

static int rd_string(fxt_rd *r, uint64_t h)
{
    unsigned idx = (unsigned)fxt_field(h, 16, 15), len = (unsigned)fxt_field(h, 32, 15);
    const char *s;
    int rc;
    if ((rc = fxt_rd_reserved(r, h, 1ull << 31 | 1ull << 47 | 0xffffull << 48, r->off)) != 0 ||
        (rc = fxt_rd_stream(r, len, &s)) != 0 || (rc = check_end(r)) != 0)
        return rc;
    if (idx == 0)
        return fxt_rd_dev(r, FXT_W_INDEX0, r->off, "string record for index 0 (ignored)");
    gt_tl_str id = gt_tl_intern(r->tl, s, len);
    if (id == (gt_tl_str)-1) {
        gt_error_set(r->err, "%s: out of memory interning strings", r->name);
        return -1;
    }
    r->t->str[idx] = id + 1;
    return 0;
}

static int rd_thread_rec(fxt_rd *r, uint64_t h)
{
    unsigned idx = (unsigned)fxt_field(h, 16, 8);
    uint64_t pid, tid;
    int rc;
    if ((rc = fxt_rd_reserved(r, h, ~0ull << 24, r->off)) != 0 || (rc = fxt_rd_word(r, &pid)) != 0 ||
        (rc = fxt_rd_word(r, &tid)) != 0 || (rc = check_end(r)) != 0)
        return rc;
    if (idx == 0)
        return fxt_rd_dev(r, FXT_W_INDEX0, r->off, "thread record for index 0 (ignored)");
    r->t->tpid[idx] = pid;
    r->t->ttid[idx] = tid;
    r->t->tdef[idx] = true;
    return 0;
}

/* ---- events ---- */

static const gt_tl_kind event_kinds[FXT_EV_COUNT] = {
    [FXT_EV_INSTANT] = GT_TL_INSTANT,         [FXT_EV_COUNTER] = GT_TL_COUNTER,
    [FXT_EV_BEGIN] = GT_TL_BEGIN,             [FXT_EV_END] = GT_TL_END,
    [FXT_EV_COMPLETE] = GT_TL_COMPLETE,       [FXT_EV_ASYNC_BEGIN] = GT_TL_ASYNC_BEGIN,
    [FXT_EV_ASYNC_INSTANT] = GT_TL_ASYNC_INSTANT, [FXT_EV_ASYNC_END] = GT_TL_ASYNC_END,
    [FXT_EV_FLOW_BEGIN] = GT_TL_FLOW_BEGIN,   [FXT_EV_FLOW_STEP] = GT_TL_FLOW_STEP,
    [FXT_EV_FLOW_END] = GT_TL_FLOW_END,
};

static int need_init(fxt_rd *r)
{
    if (r->seen_init)
        return 0;
    return fxt_rd_dev(r, FXT_W_INIT, r->off, "no initialization record before the first timestamp: "
                                             "1 tick = 1 ns assumed");
}

static int rd_event(fxt_rd *r, uint64_t h)
{
    unsigned type = (unsigned)fxt_field(h, 16, 4);
    if (type >= FXT_EV_COUNT) {
        fxt_rd_note(r, FXT_N_EVENT_TYPE, r->off, "event type %u skipped", type);
        return 0;
    }
    gt_tl_event ev = {.kind = event_kinds[type]};
    uint64_t ts, extra = 0;
    int rc;
    if ((rc = need_init(r)) != 0 || (rc = fxt_rd_word(r, &ts)) != 0 ||
        (rc = fxt_rd_thread(r, (uint8_t)(h >> 24), &ev.pid, &ev.tid)) != 0 ||
        (rc = fxt_rd_strref(r, (uint16_t)(h >> 32), &ev.cat, NULL)) != 0 ||
        (rc = fxt_rd_strref(r, (uint16_t)(h >> 48), &ev.name, NULL)) != 0 ||
        (rc = fxt_rd_args(r, (unsigned)fxt_field(h, 20, 4))) != 0)
        return rc;
    if (type != FXT_EV_INSTANT && type != FXT_EV_BEGIN && type != FXT_EV_END &&
        (rc = fxt_rd_word(r, &extra)) != 0)
        return rc;
    if ((rc = check_end(r)) != 0)
        return rc;
    ev.ts = to_ns(r, ts);
    if (type == FXT_EV_COMPLETE)
        ev.dur = (int64_t)((uint64_t)to_ns(r, extra) - (uint64_t)ev.ts);
    else
        ev.id = extra;
    if (type == FXT_EV_INSTANT && is_anchor(r, &ev))
        return 0;
    fxt_rd_markers(r, &ev);
    if (ev.kind == GT_TL_STACK_FRAME)
        ev.ts = 0;
    return emit(r, &ev);
}

static int rd_kobj(fxt_rd *r, uint64_t h)
{
    unsigned type = (unsigned)fxt_field(h, 16, 8);
    uint64_t koid;
    gt_tl_event ev = {.kind = type == FXT_KOBJ_THREAD ? GT_TL_THREAD_NAME : GT_TL_PROCESS_NAME};
    int rc;
    if ((rc = fxt_rd_reserved(r, h, ~0ull << 44, r->off)) != 0 || (rc = fxt_rd_word(r, &koid)) != 0 ||
        (rc = fxt_rd_strref(r, (uint16_t)(h >> 24), &ev.name, NULL)) != 0 ||
        (rc = fxt_rd_args(r, (unsigned)fxt_field(h, 40, 4))) != 0 || (rc = check_end(r)) != 0)
        return rc;
    if (type != FXT_KOBJ_PROCESS && type != FXT_KOBJ_THREAD)
        return 0; /* other kernel objects name nothing the model tracks */
    if (type == FXT_KOBJ_PROCESS) {
        ev.pid = koid;
        return emit(r, &ev);
    }
    ev.tid = koid;
    for (uint32_t i = 0; i < r->nargs; i++)
        if (r->args[i].name == r->s_process && r->args[i].kind == GT_TL_ARG_KOID) {
            ev.pid = r->args[i].v.u;
            fxt_rd_drop_arg(r, i);
            break;
        }
    return emit(r, &ev);
}

static int rd_cswitch(fxt_rd *r, uint64_t h)
{
    if (fxt_field(h, 60, 4) != 0) { /* newer scheduling records (wake-ups, ...) */
        fxt_rd_note(r, FXT_N_SCHED, r->off, "scheduling record type %u skipped",
                    (unsigned)fxt_field(h, 60, 4));
        return 0;
    }
    gt_tl_event ev = {.kind = GT_TL_CONTEXT_SWITCH};
    gt_tl_cswitch *cs = &ev.cs;
    cs->cpu = (uint32_t)fxt_field(h, 16, 8);
    cs->out_state = (uint32_t)fxt_field(h, 24, 4);
    cs->out_prio = (int32_t)fxt_field(h, 44, 8);
    cs->in_prio = (int32_t)fxt_field(h, 52, 8);
    uint64_t ts;
    int rc;
    if ((rc = need_init(r)) != 0 || (rc = fxt_rd_word(r, &ts)) != 0 ||
        (rc = fxt_rd_thread(r, (uint8_t)(h >> 28), &cs->out_pid, &cs->out_tid)) != 0 ||
        (rc = fxt_rd_thread(r, (uint8_t)(h >> 36), &cs->in_pid, &cs->in_tid)) != 0 ||
        (rc = check_end(r)) != 0)
        return rc;
    ev.ts = to_ns(r, ts);
    r->nargs = 0;
    return emit(r, &ev);
}

static int rd_log(fxt_rd *r, uint64_t h)
{
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .name = r->s_log};
    uint64_t ts;
    gt_tl_arg *msg = &r->args[0];
    int rc;
    if ((rc = need_init(r)) != 0 || (rc = fxt_rd_reserved(r, h, 1ull << 31 | ~0ull << 40, r->off)) != 0 ||
        (rc = fxt_rd_word(r, &ts)) != 0 ||
        (rc = fxt_rd_thread(r, (uint8_t)(h >> 32), &ev.pid, &ev.tid)) != 0 ||
        (rc = fxt_rd_stream(r, (uint32_t)fxt_field(h, 16, 15), &msg->v.s.p)) != 0 ||
        (rc = check_end(r)) != 0)
        return rc;
    msg->name = r->s_message;
    msg->kind = GT_TL_ARG_STRING;
    msg->v.s.len = (uint32_t)fxt_field(h, 16, 15);
    r->nargs = 1;
    ev.ts = to_ns(r, ts);
    return emit(r, &ev);
}

/* One record of nw words (a large record's header alone is checked here). */
static int rd_record(fxt_rd *r, const uint8_t *p, uint32_t nw, uint64_t off)
{
    r->rec = p;
    r->nw = nw;
    r->pos = 1;
    r->off = off;
    r->nargs = 0;
    uint64_t h = fxt_rd_word_at(r, 0);
    switch (FXT_HDR_TYPE(h)) {
    case FXT_REC_METADATA: return rd_metadata(r, h);
    case FXT_REC_INIT: return rd_init(r, h);
    case FXT_REC_STRING: return rd_string(r, h);
    case FXT_REC_THREAD: return rd_thread_rec(r, h);
    case FXT_REC_EVENT: return rd_event(r, h);
    case FXT_REC_KOBJ: return rd_kobj(r, h);
    case FXT_REC_CSWITCH: return rd_cswitch(r, h);
    case FXT_REC_LOG: return rd_log(r, h);
    case FXT_REC_LARGE:
        return fxt_field(h, 36, 4) == 0 ? fxt_rd_reserved(r, h, 0xfffffull << 44, off) : 0;
    default: return 0; /* blobs, userspace objects, unknown types: skipped by size */
    }
}

/* ---- input: memory, or a file read in chunks ---- */

#define CHUNK (1u << 20) /* larger than any record but large ones, which are skipped */

typedef struct rd_src {
    const uint8_t *mem;
    size_t size;  /* memory: all of it; file: bytes in buf */
    size_t start; /* memory: bytes consumed; file: first unread byte in buf */
    FILE *f;
    uint8_t *buf;
    bool eof;
    uint64_t off; /* file offset of start */
} rd_src;

/* At least n bytes at *p unless the input ends first; returns how many. */
static size_t src_need(rd_src *s, size_t n, const uint8_t **p)
{
    if (s->f && s->size - s->start < n && !s->eof) {
        memmove(s->buf, s->buf + s->start, s->size - s->start);
        s->size -= s->start;
        s->start = 0;
        while (s->size < n && !s->eof) {
            size_t got = fread(s->buf + s->size, 1, CHUNK - s->size, s->f);
            s->size += got;
            s->eof = got == 0;
        }
    }
    *p = (s->f ? s->buf : s->mem) + s->start;
    return s->size - s->start;
}

/* Skips n bytes; returns how many there were. */
static uint64_t src_skip(rd_src *s, uint64_t n)
{
    uint64_t have = s->size - s->start;
    if (n <= have) {
        s->start += n;
        s->off += n;
        return n;
    }
    if (!s->f) { /* memory: the input ends here */
        s->start = s->size;
        s->off += have;
        return have;
    }
    uint64_t done = have;
    while (done < n && !s->eof) { /* a large record: read through it */
        size_t want = n - done < CHUNK ? (size_t)(n - done) : CHUNK;
        size_t got = fread(s->buf, 1, want, s->f);
        done += got;
        s->eof = got == 0;
    }
    s->start = s->size = 0;
    s->off += done;
    return done;
}

static int truncated(fxt_rd *r, uint64_t off, uint64_t want, uint64_t have)
{
    if (fxt_rd_dev(r, FXT_W_TRUNCATED, off, "truncated record: %llu bytes declared, %llu left",
                   (unsigned long long)want, (unsigned long long)have) != 0)
        return -1;
    return 0;
}

static int first_record(fxt_rd *r, uint64_t h)
{
    if (h == FXT_MAGIC_WORD)
        return 0;
    if (h == __builtin_bswap64(FXT_MAGIC_WORD)) {
        gt_error_at(r->err, r->name, 0, "big-endian FXT is not supported");
        return -1;
    }
    return fxt_rd_dev(r, FXT_W_MAGIC, 0, "no FXT magic number record at the start");
}

static int walk(fxt_rd *r, rd_src *s)
{
    const uint8_t *p;
    size_t have;
    while ((have = src_need(s, 8, &p)) != 0) {
        uint64_t off = s->off, h;
        if (have < 8)
            return truncated(r, off, 8, have);
        memcpy(&h, p, 8);
        if (r->nrec++ == 0 && first_record(r, h) != 0)
            return -1;
        bool large = FXT_HDR_TYPE(h) == FXT_REC_LARGE;
        uint64_t words = large ? fxt_field(h, 4, 32) : FXT_HDR_SIZE(h);
        if (words == 0) {
            gt_error_at(r->err, r->name, off, "record of type %u with size 0", FXT_HDR_TYPE(h));
            return -1;
        }
        if (large || words * 8 > have) /* a normal record always fits in a chunk */
            have = src_need(s, large ? 8 : (size_t)words * 8, &p);
        if (!large && words * 8 > have)
            return truncated(r, off, words * 8, have);
        if (rd_record(r, p, large ? 1 : (uint32_t)words, off) < 0)
            return -1;
        uint64_t skipped = src_skip(s, words * 8);
        if (skipped < words * 8)
            return truncated(r, off, words * 8, skipped);
    }
    if (r->nrec == 0)
        return fxt_rd_dev(r, FXT_W_MAGIC, 0, "empty input: no FXT records");
    return 0;
}

/* The names the reader emits or recognises, interned once; false when out of memory. */
static bool intern_names(fxt_rd *r)
{
    gt_tl_str *ids[] = {&r->s_log, &r->s_message, &r->s_process, &r->m_ph,   &r->m_id,
                        &r->m_parent, &r->m_scope, &r->m_stack,  &r->m_wall, &r->m_mono};
    const char *names[] = {"log",           "message",      FXT_KOBJ_ARG_PROCESS, FXT_MARK_PH,
                           FXT_MARK_ID,     FXT_MARK_PARENT, FXT_MARK_SCOPE,     FXT_MARK_STACK,
                           FXT_MARK_WALL,   FXT_MARK_MONO};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if ((*ids[i] = gt_tl_intern_cstr(r->tl, names[i])) == (gt_tl_str)-1)
            return false;
    return true;
}

static int read_src(rd_src *s, const char *name, gt_timeline *tl, gt_tl_sink *sink,
                    const gt_tl_read_opts *opts, gt_error *err)
{
    fxt_rd *r = calloc(1, sizeof *r);
    fxt_tables *t = calloc(1, sizeof *t);
    int rc = -1;
    if (r && t) {
        *r = (fxt_rd){.name = name, .tl = tl, .sink = sink, .err = err, .opts = opts,
                      .strict = opts && opts->strict, .rate = TICKS_NS, .t = t, .nprov = 1};
        r->prov[0] = t;
        t->provider = UNCLAIMED;
        t = NULL;
        if (intern_names(r))
            rc = walk(r, s);
    }
    if (rc != 0 && err && !err->set)
        gt_error_set(err, "%s: out of memory", name);
    for (uint32_t i = 0; r && i < r->nprov; i++)
        free(r->prov[i]);
    free(t);
    free(r);
    return rc;
}

int gt_fxt_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                    gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err)
{
    rd_src s = {.mem = data, .size = size};
    return read_src(&s, name ? name : "<fxt>", tl, sink, opts, err);
}

int gt_fxt_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                gt_error *err)
{
    bool std = strcmp(path, "-") == 0;
    rd_src s = {.f = std ? stdin : gt_input_fopen(path, NULL, err)};
    if (!s.f)
        return -1;
    s.buf = malloc(CHUNK);
    int rc = -1;
    if (!s.buf)
        gt_error_set(err, "%s: out of memory", path);
    else
        rc = read_src(&s, path, tl, sink, opts, err);
    if (rc == 0 && ferror(s.f)) {
        gt_error_set(err, "%s: read failed", path);
        rc = -1;
    }
    free(s.buf);
    if (!std)
        fclose(s.f);
    return rc;
}
