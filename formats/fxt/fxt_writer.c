/* The FXT writer: a gt_tl_sink turning timeline events into FXT records.
 * Each record is built whole in a large word buffer (strings and threads it
 * refers to are registered first), then the buffer goes out with fwrite. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_writer_internal.h"

/* One argument ready to write: header word, optional value word, optional
 * inline string value. */
typedef struct wr_arg {
    uint64_t hdr;
    uint64_t val;
    const char *s;
    uint32_t slen;
    uint8_t has_val;
} wr_arg;

typedef struct wr_args {
    wr_arg a[FXT_MAX_ARGS];
    uint32_t n;
    uint32_t words;  /* all arguments together */
    uint32_t swords; /* of which inline string values */
} wr_args;

int fxt_w_reserve(gt_fxt_writer *w, uint32_t n, gt_error *err)
{
    if (w->nw + n <= FXT_BUF_WORDS)
        return 0;
    return gt_fxt_writer_flush(w, err);
}

int gt_fxt_writer_flush(gt_fxt_writer *w, gt_error *err)
{
    if (w->nw && fwrite(w->buf, 8, w->nw, w->f) != w->nw) {
        gt_error_set(err, "%s: write failed: %s", w->name, strerror(errno));
        w->nw = 0;
        return -1;
    }
    w->nw = 0;
    /* ferror too: glibc's unbuffered streams (fopencookie, the live timeline) can
     * report a failed write as written and leave only the error flag */
    if (fflush(w->f) != 0 || ferror(w->f)) {
        gt_error_set(err, "%s: write failed: %s", w->name, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- arguments ---- */

static void add_arg(wr_args *as, unsigned type, uint16_t name, uint64_t hi32, const uint64_t *val)
{
    wr_arg *a = &as->a[as->n++];
    a->hdr = type | (uint64_t)name << 16 | hi32 << 32;
    a->has_val = val != NULL;
    a->val = val ? *val : 0;
    a->s = NULL;
    a->slen = 0;
    as->words += 1u + a->has_val;
}

static void add_string_arg(wr_args *as, uint16_t name, const char *s, uint32_t len)
{
    if (len > FXT_MAX_STRING_LEN)
        len = FXT_MAX_STRING_LEN;
    add_arg(as, FXT_ARG_STRING, name, len ? (FXT_STRREF_INLINE | len) : 0, NULL);
    wr_arg *a = &as->a[as->n - 1];
    a->s = s;
    a->slen = len;
    as->words += (len + 7) / 8;
    as->swords += (len + 7) / 8;
}

static void add_model_arg(wr_args *as, uint16_t name, const gt_tl_arg *a)
{
    switch (a->kind) {
    case GT_TL_ARG_NULL: add_arg(as, FXT_ARG_NULL, name, 0, NULL); break;
    case GT_TL_ARG_I32: add_arg(as, FXT_ARG_I32, name, (uint32_t)(int32_t)a->v.i, NULL); break;
    case GT_TL_ARG_U32: add_arg(as, FXT_ARG_U32, name, (uint32_t)a->v.u, NULL); break;
    case GT_TL_ARG_I64: add_arg(as, FXT_ARG_I64, name, 0, (const uint64_t *)&a->v.i); break;
    case GT_TL_ARG_U64: add_arg(as, FXT_ARG_U64, name, 0, &a->v.u); break;
    case GT_TL_ARG_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &a->v.d, 8);
        add_arg(as, FXT_ARG_DOUBLE, name, 0, &bits);
        break;
    }
    case GT_TL_ARG_POINTER: add_arg(as, FXT_ARG_POINTER, name, 0, &a->v.u); break;
    case GT_TL_ARG_KOID: add_arg(as, FXT_ARG_KOID, name, 0, &a->v.u); break;
    case GT_TL_ARG_BOOL: add_arg(as, FXT_ARG_BOOL, name, a->v.b ? 1 : 0, NULL); break;
    case GT_TL_ARG_STRING:
    case GT_TL_ARG_JSON: /* FXT has no JSON: its text travels as a string */
    default: add_string_arg(as, name, a->v.s.p, a->v.s.len); break;
    }
}

/* The model's arguments, keeping room for `reserve` marker arguments. */
static int model_args(gt_fxt_writer *w, const gt_timeline *tl, const gt_tl_event *ev,
                      unsigned reserve, wr_args *as, gt_error *err)
{
    as->n = as->words = as->swords = 0;
    uint32_t n = ev->nargs;
    if (n > FXT_MAX_ARGS - reserve) {
        w->dropped_args += n - (FXT_MAX_ARGS - reserve);
        n = FXT_MAX_ARGS - reserve;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint16_t name;
        if (fxt_w_strref(w, tl, ev->args[i].name, &name, err) != 0)
            return -1;
        add_model_arg(as, name, &ev->args[i]);
    }
    return 0;
}

static int fixed_arg(gt_fxt_writer *w, wr_args *as, unsigned type, unsigned name_fix, uint64_t v,
                     gt_error *err)
{
    uint16_t name;
    if (fxt_w_fixref(w, name_fix, &name, err) != 0)
        return -1;
    add_arg(as, type, name, type == FXT_ARG_U32 ? v : 0, type == FXT_ARG_U32 ? NULL : &v);
    return 0;
}

/* A marker string argument: value indexed when it is one of ours, else inline. */
static int marker_arg(gt_fxt_writer *w, wr_args *as, unsigned name_fix, char c, gt_error *err)
{
    static const char letters[] = "NODPFpg";
    uint16_t name, val = 0;
    if (fxt_w_fixref(w, name_fix, &name, err) != 0)
        return -1;
    const char *l = c ? strchr(letters, c) : NULL;
    if (!l) { /* a byte of ours not in the table: inline, kept in the value word */
        add_string_arg(as, name, NULL, 1);
        wr_arg *a = &as->a[as->n - 1];
        a->val = (uint8_t)c;
        a->s = (const char *)&a->val;
        return 0;
    }
    if (fxt_w_fixref(w, FXT_FIX_N + (unsigned)(l - letters), &val, err) != 0)
        return -1;
    add_arg(as, FXT_ARG_STRING, name, val, NULL);
    return 0;
}

/* Cuts inline string values so the record stays within 4095 words. */
static void fit_args(wr_args *as, uint32_t other_words)
{
    uint32_t fixed = other_words + as->words - as->swords;
    if (fixed + as->swords <= FXT_MAX_RECORD_WORDS)
        return;
    uint32_t budget = FXT_MAX_RECORD_WORDS - fixed; /* fixed <= 3 + 2*15 + 2 */
    as->words = fixed - other_words;
    for (uint32_t i = 0; i < as->n; i++) {
        wr_arg *a = &as->a[i];
        if (!a->slen)
            continue;
        uint32_t wds = (a->slen + 7) / 8;
        if (wds > budget) {
            wds = budget;
            a->slen = wds * 8;
            a->hdr = (a->hdr & ~(0xffffull << 32)) |
                     (uint64_t)(a->slen ? FXT_STRREF_INLINE | a->slen : 0) << 32;
        }
        budget -= wds;
        as->words += wds;
    }
}

static uint64_t *put_args(uint64_t *p, const wr_args *as)
{
    for (uint32_t i = 0; i < as->n; i++) {
        const wr_arg *a = &as->a[i];
        uint32_t size = 1u + a->has_val + (a->slen + 7) / 8;
        *p++ = a->hdr | (uint64_t)size << 4;
        if (a->has_val)
            *p++ = a->val;
        if (a->slen)
            p = fxt_w_stream(p, a->s, a->slen);
    }
    return p;
}

/* ---- records ---- */

static int put_event(gt_fxt_writer *w, unsigned evtype, uint8_t thr, uint16_t cat, uint16_t name,
                     int64_t ts, wr_args *as, const uint64_t *extra, gt_error *err)
{
    uint32_t other = 2u + (extra != NULL);
    fit_args(as, other);
    uint32_t words = other + as->words;
    if (fxt_w_reserve(w, words, err) != 0)
        return -1;
    uint64_t *p = w->buf + w->nw;
    p[0] = FXT_REC_EVENT | (uint64_t)words << 4 | (uint64_t)evtype << 16 | (uint64_t)as->n << 20 |
           (uint64_t)thr << 24 | (uint64_t)cat << 32 | (uint64_t)name << 48;
    p[1] = (uint64_t)ts;
    p = put_args(p + 2, as);
    if (extra)
        *p = *extra;
    w->nw += words;
    return 0;
}

static int put_kobj(gt_fxt_writer *w, unsigned objtype, uint16_t name, uint64_t koid, wr_args *as,
                    gt_error *err)
{
    fit_args(as, 2);
    uint32_t words = 2 + as->words;
    if (fxt_w_reserve(w, words, err) != 0)
        return -1;
    uint64_t *p = w->buf + w->nw;
    p[0] = FXT_REC_KOBJ | (uint64_t)words << 4 | (uint64_t)objtype << 16 | (uint64_t)name << 24 |
           (uint64_t)as->n << 40;
    p[1] = koid;
    put_args(p + 2, as);
    w->nw += words;
    return 0;
}

static int write_name(gt_fxt_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    bool thread = ev->kind == GT_TL_THREAD_NAME;
    wr_args as;
    uint16_t name;
    if (model_args(w, tl, ev, thread, &as, err) != 0 || fxt_w_strref(w, tl, ev->name, &name, err) != 0)
        return -1;
    if (thread && fixed_arg(w, &as, FXT_ARG_KOID, FXT_FIX_PROCESS, ev->pid, err) != 0)
        return -1;
    return put_kobj(w, thread ? FXT_KOBJ_THREAD : FXT_KOBJ_PROCESS, name, thread ? ev->tid : ev->pid,
                    &as, err);
}

static int write_cswitch(gt_fxt_writer *w, const gt_tl_event *ev, gt_error *err)
{
    const gt_tl_cswitch *cs = &ev->cs;
    uint8_t out, in;
    if (fxt_w_threadref(w, cs->out_pid, cs->out_tid, &out, err) != 0 ||
        fxt_w_threadref(w, cs->in_pid, cs->in_tid, &in, err) != 0 || fxt_w_reserve(w, 2, err) != 0)
        return -1;
    uint64_t *p = w->buf + w->nw;
    p[0] = FXT_REC_CSWITCH | 2u << 4 | (uint64_t)(cs->cpu & 0xff) << 16 |
           (uint64_t)(cs->out_state & 0xf) << 24 | (uint64_t)out << 28 | (uint64_t)in << 36 |
           (uint64_t)(uint8_t)cs->out_prio << 44 | (uint64_t)(uint8_t)cs->in_prio << 52;
    p[1] = (uint64_t)ev->ts;
    w->nw += 2;
    return 0;
}

/* FXT event type of a model kind; -1 for kinds written another way. */
static int fxt_event_type(gt_tl_kind k)
{
    switch (k) {
    case GT_TL_COMPLETE: return FXT_EV_COMPLETE;
    case GT_TL_BEGIN: return FXT_EV_BEGIN;
    case GT_TL_END: return FXT_EV_END;
    case GT_TL_INSTANT: case GT_TL_OBJECT: case GT_TL_SAMPLE: case GT_TL_STACK_FRAME:
        return FXT_EV_INSTANT;
    case GT_TL_COUNTER: return FXT_EV_COUNTER;
    case GT_TL_ASYNC_BEGIN: return FXT_EV_ASYNC_BEGIN;
    case GT_TL_ASYNC_INSTANT: return FXT_EV_ASYNC_INSTANT;
    case GT_TL_ASYNC_END: return FXT_EV_ASYNC_END;
    case GT_TL_FLOW_BEGIN: return FXT_EV_FLOW_BEGIN;
    case GT_TL_FLOW_STEP: return FXT_EV_FLOW_STEP;
    case GT_TL_FLOW_END: return FXT_EV_FLOW_END;
    default: return -1;
    }
}

static unsigned marker_count(const gt_tl_event *ev)
{
    unsigned n = ev->stack != 0;
    switch (ev->kind) {
    case GT_TL_OBJECT: return n + 2;
    case GT_TL_SAMPLE: return n + 1;
    case GT_TL_STACK_FRAME: return n + 3;
    case GT_TL_INSTANT: return n + (ev->scope != 0);
    default: return n;
    }
}

static int add_markers(gt_fxt_writer *w, const gt_tl_event *ev, wr_args *as, gt_error *err)
{
    int rc = 0;
    switch (ev->kind) {
    case GT_TL_OBJECT:
        rc = marker_arg(w, as, FXT_FIX_PH, (char)ev->scope, err) ||
             fixed_arg(w, as, FXT_ARG_U64, FXT_FIX_ID, ev->id, err);
        break;
    case GT_TL_SAMPLE: rc = marker_arg(w, as, FXT_FIX_PH, 'P', err); break;
    case GT_TL_STACK_FRAME:
        rc = marker_arg(w, as, FXT_FIX_PH, 'F', err) ||
             fixed_arg(w, as, FXT_ARG_U64, FXT_FIX_ID, ev->id, err) ||
             fixed_arg(w, as, FXT_ARG_U64, FXT_FIX_PARENT, ev->parent, err);
        break;
    case GT_TL_INSTANT:
        if (ev->scope)
            rc = marker_arg(w, as, FXT_FIX_SCOPE,
                            ev->scope == GT_TL_SCOPE_PROCESS  ? 'p'
                            : ev->scope == GT_TL_SCOPE_GLOBAL ? 'g'
                                                              : (char)ev->scope,
                            err);
        break;
    default: break;
    }
    if (!rc && ev->stack)
        rc = fixed_arg(w, as, FXT_ARG_U32, FXT_FIX_STACK, ev->stack, err);
    return rc ? -1 : 0;
}

static int write_event(gt_fxt_writer *w, const gt_timeline *tl, const gt_tl_event *ev, int evtype,
                       gt_error *err)
{
    uint8_t thr;
    uint16_t cat, name;
    wr_args as;
    if (fxt_w_threadref(w, ev->pid, ev->tid, &thr, err) != 0 ||
        fxt_w_strref(w, tl, ev->cat, &cat, err) != 0 || fxt_w_strref(w, tl, ev->name, &name, err) != 0 ||
        model_args(w, tl, ev, marker_count(ev), &as, err) != 0)
        return -1;
    if (marker_count(ev) && add_markers(w, ev, &as, err) != 0)
        return -1;
    uint64_t extra;
    const uint64_t *xp = &extra;
    switch (evtype) {
    case FXT_EV_COMPLETE: extra = (uint64_t)ev->ts + (uint64_t)ev->dur; break;
    case FXT_EV_INSTANT: case FXT_EV_BEGIN: case FXT_EV_END: xp = NULL; break;
    default: extra = ev->id; break;
    }
    int64_t ts = ev->kind == GT_TL_STACK_FRAME ? 0 : ev->ts;
    return put_event(w, (unsigned)evtype, thr, cat, name, ts, &as, xp, err);
}

/* The clock anchors (fxt_format.h), once, as soon as the timeline has one. */
static int write_anchor(gt_fxt_writer *w, const gt_timeline *tl, gt_error *err)
{
    uint8_t thr;
    wr_args as = {0};
    w->wall_written = true;
    if (fxt_w_threadref(w, 0, 0, &thr, err) != 0 ||
        (tl->has_wall &&
         fixed_arg(w, &as, FXT_ARG_I64, FXT_FIX_WALL, (uint64_t)tl->wall_offset_ns, err) != 0) ||
        (tl->has_mono &&
         fixed_arg(w, &as, FXT_ARG_I64, FXT_FIX_MONO, (uint64_t)tl->mono_offset_ns, err) != 0))
        return -1;
    return put_event(w, FXT_EV_INSTANT, thr, 0, 0, 0, &as, NULL, err);
}

static int sink_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_fxt_writer *w = self;
    if ((tl->has_wall || tl->has_mono) && !w->wall_written && write_anchor(w, tl, err) != 0)
        return -1;
    int t = fxt_event_type(ev->kind);
    if (t >= 0) {
        if (ev->kind == GT_TL_STACK_FRAME) { /* frames live on thread (0, 0) at time 0 */
            gt_tl_event e = *ev;
            e.pid = e.tid = 0;
            return write_event(w, tl, &e, t, err);
        }
        return write_event(w, tl, ev, t, err);
    }
    switch (ev->kind) {
    case GT_TL_PROCESS_NAME:
    case GT_TL_THREAD_NAME: return write_name(w, tl, ev, err);
    case GT_TL_CONTEXT_SWITCH: return write_cswitch(w, ev, err);
    default:
        gt_error_set(err, "%s: timeline event kind %d has no FXT form", w->name, (int)ev->kind);
        return -1;
    }
}

static int sink_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_fxt_writer *w = self;
    if ((tl->has_wall || tl->has_mono) && !w->wall_written && write_anchor(w, tl, err) != 0)
        return -1;
    return gt_fxt_writer_flush(w, err);
}

gt_tl_sink gt_fxt_writer_sink(gt_fxt_writer *w)
{
    return (gt_tl_sink){.self = w, .event = sink_event, .finish = sink_finish};
}

/* ---- opening ---- */

static void put_header(gt_fxt_writer *w, const char *provider)
{
    uint64_t *p = w->buf;
    size_t plen = strlen(provider);
    if (plen > 255) /* 8-bit length field */
        plen = 255;
    p[0] = FXT_MAGIC_WORD;
    p[1] = FXT_REC_INIT | 2u << 4;
    p[2] = 1000000000u; /* ticks per second: model time is ns */
    uint32_t pw = 1 + (uint32_t)FXT_WORDS(plen);
    p[3] = FXT_REC_METADATA | (uint64_t)pw << 4 | (uint64_t)FXT_META_PROVIDER_INFO << 16 |
           (uint64_t)plen << 52; /* provider id 0 */
    fxt_w_stream(p + 4, provider, (uint32_t)plen);
    w->nw = 3 + pw;
}

gt_fxt_writer *gt_fxt_writer_open_stream(FILE *f, const char *name, const char *provider,
                                         gt_error *err)
{
    gt_fxt_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->buf = malloc(FXT_BUF_WORDS * sizeof *w->buf);
        w->name = strdup(name ? name : "<fxt>");
    }
    if (!w || !w->buf || !w->name) {
        gt_error_set(err, "%s: out of memory", name ? name : "<fxt>");
        if (w) {
            free(w->buf);
            free(w->name);
            free(w);
        }
        return NULL;
    }
    w->f = f;
    fxt_w_tables_init(w);
    put_header(w, provider ? provider : "gltrace");
    return w;
}

gt_fxt_writer *gt_fxt_writer_open(const char *path, const char *provider, gt_error *err)
{
    bool std = strcmp(path, "-") == 0;
    FILE *f = std ? stdout : fopen(path, "wb");
    if (!f) {
        gt_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    gt_fxt_writer *w = gt_fxt_writer_open_stream(f, path, provider, err);
    if (!w) {
        if (!std)
            fclose(f);
        return NULL;
    }
    w->own = !std;
    return w;
}

void gt_fxt_writer_free(gt_fxt_writer *w)
{
    if (!w)
        return;
    gt_error ignored;
    gt_error_clear(&ignored);
    gt_fxt_writer_flush(w, &ignored); /* what finish did not write yet */
    if (w->own)
        fclose(w->f);
    fxt_w_tables_free(w);
    free(w->buf);
    free(w->name);
    free(w);
}
