/* Chrome Trace Event Format writer (chrome_writer.h).
 *
 * Layout: {"displayTimeUnit":"ns","traceEvents":[ one event a line ],
 * "stackFrames":{...}} and, when the timeline has a wall-clock anchor,
 * "metadata":{"gltrace_wall_offset_ns":"N"} (a string: exact beyond 2^53),
 * which chrome_reader.c restores. Choices the format leaves open:
 * - pid/tid up to 2^32-1 are numbers; larger koids (GT_TL_GPU_TID,
 *   GT_TL_CPU_PID) are decimal strings: Perfetto's importer takes numbers
 *   only up to 2^32-1 and keys string ids by their text, and JavaScript
 *   numbers lose precision beyond 2^53.
 * - ids are "0x..." strings; flow ends carry "bp":"e" (bind to the enclosing
 *   slice) unless their scope is GT_TL_FLOW_BIND_NEXT.
 * - arguments: integers as numbers, doubles always with '.' or an exponent,
 *   pointers as "0x..." strings, GT_TL_ARG_JSON verbatim (checked valid).
 * - context switches, which the format lacks, are "i" events in category
 *   "gltrace.context_switch" on the CPU's track; the reader turns them back. */
#include "chrome_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_json.h"
#include "chrome_text.h"
#include "gt_grow.h"
#include "gt_strbuf.h"

#define FLUSH_AT (1u << 20)
/* Longest event head (head()): ",\n{"ph":"X"" and four numbers of at most 25 bytes
 * (a sign, 20 digits, '.', 3 decimals) with their keys. */
#define HEAD_MAX 160
/* Escaped interned strings are kept for reuse (names and categories repeat on every
 * event) when no longer than this, until the kept text reaches ESC_MAX_TOTAL: memory
 * stays bounded whatever the timeline holds. */
#define ESC_MAX_STR 256
#define ESC_MAX_TOTAL (16u << 20)

typedef struct frame {
    uint64_t id, parent;
    gt_tl_str name, cat;
    size_t seq; /* arrival: of two frames with one id, the later wins, as in a JSON object */
} frame;

/* An interned string's escaped JSON text ("..." included) in esc_text; len 0: not kept. */
typedef struct esc_ref {
    uint32_t off, len;
} esc_ref;

struct gt_chrome_writer {
    FILE *f;
    bool own;
    char *name;
    gt_strbuf b;
    uint64_t nevents;
    frame *frames;
    size_t nframes, capframes;
    bool finished;
    /* escaped strings by id, for the timeline esc_tl (ids mean nothing in another) */
    const gt_timeline *esc_tl;
    esc_ref *esc;
    size_t capesc;
    gt_strbuf esc_text;
};

static gt_chrome_writer *writer_new(FILE *f, bool own, const char *name, gt_error *err)
{
    gt_chrome_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->name = strdup(name))) {
        free(w);
        if (own)
            fclose(f);
        gt_error_set(err, "%s: out of memory", name);
        return NULL;
    }
    w->f = f;
    w->own = own;
    gt_strbuf_init(&w->b);
    gt_strbuf_init(&w->esc_text);
    gt_strbuf_puts(&w->b, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    return w;
}

gt_chrome_writer *gt_chrome_writer_open(const char *path, gt_error *err)
{
    if (strcmp(path, "-") == 0)
        return writer_new(stdout, false, "<stdout>", err);
    FILE *f = fopen(path, "wb");
    if (!f) {
        gt_error_set(err, "%s: cannot create the file: %s", path, strerror(errno));
        return NULL;
    }
    return writer_new(f, true, path, err);
}

gt_chrome_writer *gt_chrome_writer_open_stream(FILE *f, const char *name, gt_error *err)
{
    return writer_new(f, false, name ? name : "<stream>", err);
}

void gt_chrome_writer_free(gt_chrome_writer *w)
{
    if (!w)
        return;
    if (w->own)
        fclose(w->f);
    gt_strbuf_free(&w->b);
    gt_strbuf_free(&w->esc_text);
    free(w->esc);
    free(w->frames);
    free(w->name);
    free(w);
}

static int flush(gt_chrome_writer *w, gt_error *err)
{
    if (w->b.oom) {
        gt_error_set(err, "%s: out of memory", w->name);
        return -1;
    }
    if (gt_strbuf_flush(&w->b, w->f) < 0) {
        gt_error_set(err, "%s: write error: %s", w->name, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- numbers: written in place, two digits a step (millions of events a replay) ---- */

static const char digit_pairs[] = "0001020304050607080910111213141516171819"
                                  "2021222324252627282930313233343536373839"
                                  "4041424344454647484950515253545556575859"
                                  "6061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

/* How many decimal digits v has. */
static unsigned digit_count(uint64_t v)
{
    unsigned n = 1;
    for (; v >= 10000; v /= 10000)
        n += 4;
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* The decimal digits of v, ending at end. */
static void digits_before(char *end, uint64_t v)
{
    char *p = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * r, 2);
    }
    if (v >= 10)
        memcpy(p - 2, digit_pairs + 2 * v, 2);
    else
        p[-1] = (char)('0' + v);
}

/* The pieces below write at p, which has room (HEAD_MAX, or what put_* reserved),
 * and return the byte after what they wrote. */
static char *text_lit(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define TEXT_LIT(p, s) text_lit((p), (s), sizeof(s) - 1)

static char *text_u64(char *p, uint64_t v)
{
    p += digit_count(v);
    digits_before(p, v);
    return p;
}

static char *text_i64(char *p, int64_t v)
{
    if (v < 0)
        *p++ = '-';
    return text_u64(p, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* ns as microseconds, exactly, trailing zeros dropped (as ct_us: 1234500 -> 1234.5) */
static char *text_us(char *p, int64_t ns)
{
    uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0)
        *p++ = '-';
    p = text_u64(p, m / 1000);
    unsigned frac = (unsigned)(m % 1000);
    if (frac) {
        p[0] = '.';
        p[1] = (char)('0' + frac / 100);
        memcpy(p + 2, digit_pairs + 2 * (frac % 100), 2);
        p += 4;
        while (p[-1] == '0')
            p--;
    }
    return p;
}

/* a pid or tid as ct_koid: a number up to 2^32-1, a decimal string beyond */
static char *text_koid(char *p, uint64_t v)
{
    if (v <= UINT32_MAX)
        return text_u64(p, v);
    *p++ = '"';
    p = text_u64(p, v);
    *p++ = '"';
    return p;
}

static void put_u64(gt_strbuf *b, uint64_t v)
{
    if (gt_strbuf_reserve(b, 20) == 0)
        b->len = (size_t)(text_u64(b->data + b->len, v) - b->data);
}

static void put_i64(gt_strbuf *b, int64_t v)
{
    if (gt_strbuf_reserve(b, 21) == 0)
        b->len = (size_t)(text_i64(b->data + b->len, v) - b->data);
}

/* a literal, its length known when compiling */
#define PUT_LIT(b, s) gt_strbuf_put((b), (s), sizeof(s) - 1)

/* ---- pieces of an event ---- */

/* The escaped text of interned string s, kept for the next time; NULL when it is
 * not kept (too long, past the budget, out of memory, or an id not interned yet,
 * whose text is "" now and another one later). */
static const esc_ref *escaped(gt_chrome_writer *w, const gt_timeline *tl, gt_tl_str s)
{
    if (tl != w->esc_tl) { /* another timeline: its ids name other strings */
        w->esc_tl = tl;
        w->esc_text.len = 0;
        if (w->esc)
            memset(w->esc, 0, w->capesc * sizeof *w->esc);
    }
    if (s < w->capesc && w->esc[s].len)
        return &w->esc[s];
    uint32_t len;
    const char *p = gt_tl_str_get(tl, s, &len);
    if (s >= gt_tl_str_count(tl) || len > ESC_MAX_STR || w->esc_text.len > ESC_MAX_TOTAL ||
        w->esc_text.oom)
        return NULL;
    if (s >= w->capesc) {
        size_t cap = w->capesc;
        if (GT_GROW(w->esc, cap, (size_t)s + 1, 256) != 0)
            return NULL;
        memset(w->esc + w->capesc, 0, (cap - w->capesc) * sizeof *w->esc);
        w->capesc = cap;
    }
    size_t off = w->esc_text.len;
    gt_json_string(&w->esc_text, p, len);
    if (w->esc_text.oom)
        return NULL;
    w->esc[s] = (esc_ref){(uint32_t)off, (uint32_t)(w->esc_text.len - off)};
    return &w->esc[s];
}

static void interned(gt_chrome_writer *w, const gt_timeline *tl, gt_tl_str s)
{
    const esc_ref *r = escaped(w, tl, s);
    if (r) {
        gt_strbuf_put(&w->b, w->esc_text.data + r->off, r->len);
        return;
    }
    uint32_t len;
    const char *p = gt_tl_str_get(tl, s, &len);
    gt_json_string(&w->b, p, len);
}

static int arg_value(gt_chrome_writer *w, const gt_tl_arg *a, gt_error *err)
{
    gt_strbuf *b = &w->b;
    switch (a->kind) {
    case GT_TL_ARG_NULL: gt_strbuf_puts(b, "null"); return 0;
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64: put_i64(b, a->v.i); return 0;
    case GT_TL_ARG_U32:
    case GT_TL_ARG_U64:
    case GT_TL_ARG_KOID: put_u64(b, a->v.u); return 0;
    case GT_TL_ARG_DOUBLE: ct_double(b, a->v.d); return 0;
    case GT_TL_ARG_STRING: gt_json_string(b, a->v.s.p, a->v.s.len); return 0;
    case GT_TL_ARG_POINTER: ct_id(b, a->v.u); return 0;
    case GT_TL_ARG_BOOL: gt_strbuf_puts(b, a->v.b ? "true" : "false"); return 0;
    case GT_TL_ARG_JSON:
        if (!cj_is_json(a->v.s.p, a->v.s.len)) {
            gt_error_set(err, "%s: a JSON argument is not one valid JSON value", w->name);
            return -1;
        }
        gt_json_verbatim(b, a->v.s.p, a->v.s.len);
        return 0;
    }
    gt_error_set(err, "%s: argument of unknown kind %d", w->name, (int)a->kind);
    return -1;
}

/* "args":{...}; first_name: a leading "name" member (metadata events). */
static int args(gt_chrome_writer *w, const gt_timeline *tl, const gt_tl_event *ev,
                const gt_tl_str *first_name, gt_error *err)
{
    gt_strbuf *b = &w->b;
    PUT_LIT(b, ",\"args\":{");
    bool comma = false;
    if (first_name) {
        PUT_LIT(b, "\"name\":");
        interned(w, tl, *first_name);
        comma = true;
    }
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (comma)
            gt_strbuf_putc(b, ',');
        comma = true;
        interned(w, tl, ev->args[i].name);
        gt_strbuf_putc(b, ':');
        if (arg_value(w, &ev->args[i], err) != 0)
            return -1;
    }
    gt_strbuf_putc(b, '}');
    return 0;
}

/* {"ph":P,"ts":..,"pid":..,"tid":.. : what every event starts with, at p (HEAD_MAX
 * bytes of room). */
static char *head_text(gt_chrome_writer *w, char *p, char ph, const gt_tl_event *ev, bool ts)
{
    if (w->nevents++)
        *p++ = ',';
    p = TEXT_LIT(p, "\n{\"ph\":\"");
    *p++ = ph;
    *p++ = '"';
    if (ts) {
        p = TEXT_LIT(p, ",\"ts\":");
        p = text_us(p, ev->ts);
    }
    if (ev->kind == GT_TL_COMPLETE) {
        p = TEXT_LIT(p, ",\"dur\":");
        p = text_us(p, ev->dur);
    }
    p = TEXT_LIT(p, ",\"pid\":");
    p = text_koid(p, ev->pid);
    p = TEXT_LIT(p, ",\"tid\":");
    return text_koid(p, ev->tid);
}

static void head(gt_chrome_writer *w, char ph, const gt_tl_event *ev, bool ts)
{
    gt_strbuf *b = &w->b;
    if (gt_strbuf_reserve(b, HEAD_MAX) < 0)
        return; /* oom is set: the next flush reports it */
    b->len = (size_t)(head_text(w, b->data + b->len, ph, ev, ts) - b->data);
}

static void names(gt_chrome_writer *w, const gt_timeline *tl, const gt_tl_event *ev, bool name)
{
    if (ev->cat) {
        PUT_LIT(&w->b, ",\"cat\":");
        interned(w, tl, ev->cat);
    }
    if (name) {
        PUT_LIT(&w->b, ",\"name\":");
        interned(w, tl, ev->name);
    }
}

static char phase_of(const gt_tl_event *ev)
{
    static const char ph[GT_TL_KIND_COUNT] = {
        [GT_TL_PROCESS_NAME] = 'M', [GT_TL_THREAD_NAME] = 'M',   [GT_TL_COMPLETE] = 'X',
        [GT_TL_BEGIN] = 'B',        [GT_TL_END] = 'E',           [GT_TL_INSTANT] = 'i',
        [GT_TL_COUNTER] = 'C',      [GT_TL_ASYNC_BEGIN] = 'b',   [GT_TL_ASYNC_INSTANT] = 'n',
        [GT_TL_ASYNC_END] = 'e',    [GT_TL_FLOW_BEGIN] = 's',    [GT_TL_FLOW_STEP] = 't',
        [GT_TL_FLOW_END] = 'f',     [GT_TL_SAMPLE] = 'P',        [GT_TL_CONTEXT_SWITCH] = 'i',
    };
    if (ev->kind == GT_TL_OBJECT)
        return ev->scope == 'N' || ev->scope == 'O' || ev->scope == 'D' ? (char)ev->scope : 0;
    return (unsigned)ev->kind < GT_TL_KIND_COUNT ? ph[ev->kind] : 0;
}

static bool has_id(gt_tl_kind k)
{
    return k == GT_TL_ASYNC_BEGIN || k == GT_TL_ASYNC_INSTANT || k == GT_TL_ASYNC_END ||
           k == GT_TL_FLOW_BEGIN || k == GT_TL_FLOW_STEP || k == GT_TL_FLOW_END || k == GT_TL_OBJECT;
}

static int metadata_event(gt_chrome_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    head(w, 'M', ev, false);
    names(w, tl, ev, false);
    PUT_LIT(&w->b, ",\"name\":");
    gt_strbuf_puts(&w->b, ev->kind == GT_TL_PROCESS_NAME ? "\"process_name\"" : "\"thread_name\"");
    if (args(w, tl, ev, &ev->name, err) != 0)
        return -1;
    gt_strbuf_putc(&w->b, '}');
    return 0;
}

static void cswitch_arg(gt_strbuf *b, const char *k, uint64_t v, bool comma)
{
    if (comma)
        gt_strbuf_putc(b, ',');
    gt_strbuf_putc(b, '"');
    gt_strbuf_puts(b, k);
    PUT_LIT(b, "\":");
    put_u64(b, v);
}

static void cswitch_event(gt_chrome_writer *w, const gt_tl_event *ev)
{
    gt_tl_event track = *ev;
    track.pid = GT_TL_CPU_PID;
    track.tid = ev->cs.cpu;
    head(w, 'i', &track, true);
    gt_strbuf *b = &w->b;
    gt_strbuf_puts(b, ",\"s\":\"t\",\"cat\":\"gltrace.context_switch\",\"name\":\"context_switch\",\"args\":{");
    cswitch_arg(b, "cpu", ev->cs.cpu, false);
    cswitch_arg(b, "out_state", ev->cs.out_state, true);
    cswitch_arg(b, "out_pid", ev->cs.out_pid, true);
    cswitch_arg(b, "out_tid", ev->cs.out_tid, true);
    gt_strbuf_puts(b, ",\"out_prio\":");
    put_i64(b, ev->cs.out_prio);
    cswitch_arg(b, "in_pid", ev->cs.in_pid, true);
    cswitch_arg(b, "in_tid", ev->cs.in_tid, true);
    gt_strbuf_puts(b, ",\"in_prio\":");
    put_i64(b, ev->cs.in_prio);
    gt_strbuf_puts(b, "}}");
}

static int keep_frame(gt_chrome_writer *w, const gt_tl_event *ev, gt_error *err)
{
    if (ev->id == 0 || ev->id > UINT32_MAX || ev->parent > UINT32_MAX) {
        /* events refer to frames by 32-bit ids */
        gt_error_set(err, "%s: stack frame id %llu (parent %llu) not from 1 to 2^32-1", w->name,
                     (unsigned long long)ev->id, (unsigned long long)ev->parent);
        return -1;
    }
    if (GT_GROW(w->frames, w->capframes, w->nframes + 1, 64) != 0) {
        gt_error_set(err, "%s: out of memory keeping stack frames", w->name);
        return -1;
    }
    w->frames[w->nframes] = (frame){ev->id, ev->parent, ev->name, ev->cat, w->nframes};
    w->nframes++;
    return 0;
}

/* ---- the replay's events, quickly ---- */

#define QUICK_ARGS 8
#define QUICK_NUM 24 /* room for an integer: a sign and 20 digits */

static bool quick_arg(gt_tl_arg_kind k)
{
    return k == GT_TL_ARG_I32 || k == GT_TL_ARG_I64 || k == GT_TL_ARG_U32 || k == GT_TL_ARG_U64 ||
           k == GT_TL_ARG_KOID;
}

/* A COMPLETE event with integer arguments and short names, the bulk of a replay's
 * timeline, written in one reservation: the same text as the general path, without
 * its checks per piece. false when ev is not one (the general path writes it). */
static bool quick_event(gt_chrome_writer *w, const gt_timeline *tl, const gt_tl_event *ev)
{
    if (ev->kind != GT_TL_COMPLETE || ev->nargs > QUICK_ARGS)
        return false;
    /* copies: finding a later string may move the table and the text */
    esc_ref cat = {0, 0}, name, arg[QUICK_ARGS];
    const esc_ref *r;
    if (ev->cat && !(r = escaped(w, tl, ev->cat)))
        return false;
    if (ev->cat)
        cat = *r;
    if (!(r = escaped(w, tl, ev->name)))
        return false;
    name = *r;
    size_t need = HEAD_MAX + 16 + cat.len + name.len + 8 + QUICK_NUM + 16;
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (!quick_arg(ev->args[i].kind) || !(r = escaped(w, tl, ev->args[i].name)))
            return false;
        arg[i] = *r;
        need += arg[i].len + 2 + QUICK_NUM;
    }
    gt_strbuf *b = &w->b;
    if (gt_strbuf_reserve(b, need) < 0)
        return true; /* oom is set: the next flush reports it */
    const char *text = w->esc_text.data;
    char *p = head_text(w, b->data + b->len, 'X', ev, true);
    if (ev->cat) {
        p = TEXT_LIT(p, ",\"cat\":");
        p = text_lit(p, text + cat.off, cat.len);
    }
    p = TEXT_LIT(p, ",\"name\":");
    p = text_lit(p, text + name.off, name.len);
    if (ev->stack) {
        p = TEXT_LIT(p, ",\"sf\":");
        p = text_u64(p, ev->stack);
    }
    if (ev->nargs) {
        p = TEXT_LIT(p, ",\"args\":{");
        for (uint32_t i = 0; i < ev->nargs; i++) {
            if (i)
                *p++ = ',';
            p = text_lit(p, text + arg[i].off, arg[i].len);
            *p++ = ':';
            const gt_tl_arg *a = &ev->args[i];
            p = a->kind == GT_TL_ARG_I32 || a->kind == GT_TL_ARG_I64 ? text_i64(p, a->v.i)
                                                                     : text_u64(p, a->v.u);
        }
        *p++ = '}';
    }
    *p++ = '}';
    b->len = (size_t)(p - b->data);
    return true;
}

/* Any other event: each piece checked and written in turn. */
static int other_event(gt_chrome_writer *w, const gt_timeline *tl, const gt_tl_event *ev,
                       gt_error *err)
{
    if (ev->kind == GT_TL_CONTEXT_SWITCH) {
        cswitch_event(w, ev);
        return 0;
    }
    if (ev->kind == GT_TL_PROCESS_NAME || ev->kind == GT_TL_THREAD_NAME)
        return metadata_event(w, tl, ev, err);
    char ph = phase_of(ev);
    if (!ph || (ev->kind == GT_TL_INSTANT && ev->scope > GT_TL_SCOPE_GLOBAL)) {
        gt_error_set(err, "%s: cannot write a %s event (scope %u)", w->name,
                     gt_tl_kind_name(ev->kind), ev->scope);
        return -1;
    }
    gt_strbuf *b = &w->b;
    head(w, ph, ev, true);
    names(w, tl, ev, ev->kind != GT_TL_END || ev->name);
    if (has_id(ev->kind) || (ev->kind == GT_TL_COUNTER && ev->id)) {
        PUT_LIT(b, ",\"id\":");
        ct_id(b, ev->id);
    }
    if (ev->kind == GT_TL_INSTANT) {
        PUT_LIT(b, ",\"s\":");
        gt_strbuf_puts(b, ev->scope == GT_TL_SCOPE_GLOBAL    ? "\"g\""
                          : ev->scope == GT_TL_SCOPE_PROCESS ? "\"p\""
                                                             : "\"t\"");
    }
    if (ev->kind == GT_TL_FLOW_END && ev->scope != GT_TL_FLOW_BIND_NEXT)
        gt_strbuf_puts(b, ",\"bp\":\"e\"");
    if (ev->stack) {
        PUT_LIT(b, ",\"sf\":");
        put_u64(b, ev->stack);
    }
    if ((ev->nargs || ev->kind == GT_TL_COUNTER) && args(w, tl, ev, NULL, err) != 0)
        return -1;
    gt_strbuf_putc(b, '}');
    return 0;
}

static int write_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_chrome_writer *w = self;
    if (w->finished) {
        gt_error_set(err, "%s: event after the end of the document", w->name);
        return -1;
    }
    if (ev->kind == GT_TL_STACK_FRAME)
        return keep_frame(w, ev, err);
    if (!quick_event(w, tl, ev) && other_event(w, tl, ev, err) != 0)
        return -1;
    return w->b.len >= FLUSH_AT ? flush(w, err) : 0;
}

/* ---- finish: stack frames, metadata, closing brace ---- */

static int by_id(const void *a, const void *b)
{
    const frame *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void frame_text(gt_chrome_writer *w, const gt_timeline *tl, const frame *f)
{
    gt_strbuf *b = &w->b;
    uint32_t len;
    const char *name = gt_tl_str_get(tl, f->name, &len);
    gt_strbuf_puts(b, "\n\"");
    gt_strbuf_u64(b, f->id);
    gt_strbuf_puts(b, "\":{\"name\":");
    gt_json_string(b, name, len); /* once each: not kept */
    gt_strbuf_puts(b, ",\"category\":");
    interned(w, tl, f->cat);
    if (f->parent) {
        gt_strbuf_puts(b, ",\"parent\":\"");
        gt_strbuf_u64(b, f->parent);
        gt_strbuf_putc(b, '"');
    }
    gt_strbuf_putc(b, '}');
}

static int write_frames(gt_chrome_writer *w, const gt_timeline *tl, gt_error *err)
{
    if (w->nframes)
        qsort(w->frames, w->nframes, sizeof *w->frames, by_id);
    gt_strbuf_puts(&w->b, "\"stackFrames\":{");
    bool comma = false;
    for (size_t i = 0; i < w->nframes; i++) {
        const frame *f = &w->frames[i];
        if (i + 1 < w->nframes && f[1].id == f->id)
            continue; /* defined again later: one key each */
        if (comma)
            gt_strbuf_putc(&w->b, ',');
        comma = true;
        frame_text(w, tl, f);
        if (w->b.len >= FLUSH_AT && flush(w, err) != 0)
            return -1;
    }
    gt_strbuf_putc(&w->b, '}');
    return 0;
}

static int write_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_chrome_writer *w = self;
    if (w->finished) {
        gt_error_set(err, "%s: finished twice", w->name);
        return -1;
    }
    w->finished = true;
    gt_strbuf_puts(&w->b, "\n],\n");
    if (write_frames(w, tl, err) != 0)
        return -1;
    /* the clock anchors (gt_timeline.h), as strings: exact beyond 2^53 */
    if (tl->has_wall || tl->has_mono) {
        gt_strbuf_puts(&w->b, ",\n\"metadata\":{");
        if (tl->has_wall) {
            gt_strbuf_puts(&w->b, "\"gltrace_wall_offset_ns\":\"");
            gt_strbuf_i64(&w->b, tl->wall_offset_ns);
            gt_strbuf_puts(&w->b, tl->has_mono ? "\"," : "\"");
        }
        if (tl->has_mono) {
            gt_strbuf_puts(&w->b, "\"gltrace_mono_offset_ns\":\"");
            gt_strbuf_i64(&w->b, tl->mono_offset_ns);
            gt_strbuf_puts(&w->b, "\"");
        }
        gt_strbuf_puts(&w->b, "}");
    }
    gt_strbuf_puts(&w->b, "}\n");
    if (flush(w, err) != 0)
        return -1;
    if (fflush(w->f) != 0) {
        gt_error_set(err, "%s: write error: %s", w->name, strerror(errno));
        return -1;
    }
    return 0;
}

gt_tl_sink gt_chrome_writer_sink(gt_chrome_writer *w)
{
    return (gt_tl_sink){.self = w, .event = write_event, .finish = write_finish};
}
