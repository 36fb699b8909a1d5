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

#define FLUSH_AT (256u << 10)

typedef struct frame {
    uint64_t id, parent;
    gt_tl_str name, cat;
    size_t seq; /* arrival: of two frames with one id, the later wins, as in a JSON object */
} frame;

struct gt_chrome_writer {
    FILE *f;
    bool own;
    char *name;
    gt_strbuf b;
    uint64_t nevents;
    frame *frames;
    size_t nframes, capframes;
    bool finished;
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

/* ---- pieces of an event ---- */

static void key(gt_strbuf *b, const char *k)
{
    gt_strbuf_putc(b, ',');
    gt_strbuf_putc(b, '"');
    gt_strbuf_puts(b, k);
    gt_strbuf_puts(b, "\":");
}

static void interned(gt_strbuf *b, const gt_timeline *tl, gt_tl_str s)
{
    uint32_t len;
    const char *p = gt_tl_str_get(tl, s, &len);
    gt_json_string(b, p, len);
}

static int arg_value(gt_chrome_writer *w, const gt_tl_arg *a, gt_error *err)
{
    gt_strbuf *b = &w->b;
    switch (a->kind) {
    case GT_TL_ARG_NULL: gt_strbuf_puts(b, "null"); return 0;
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64: gt_strbuf_i64(b, a->v.i); return 0;
    case GT_TL_ARG_U32:
    case GT_TL_ARG_U64:
    case GT_TL_ARG_KOID: gt_strbuf_u64(b, a->v.u); return 0;
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
    key(b, "args");
    gt_strbuf_putc(b, '{');
    bool comma = false;
    if (first_name) {
        gt_strbuf_puts(b, "\"name\":");
        interned(b, tl, *first_name);
        comma = true;
    }
    for (uint32_t i = 0; i < ev->nargs; i++) {
        if (comma)
            gt_strbuf_putc(b, ',');
        comma = true;
        interned(b, tl, ev->args[i].name);
        gt_strbuf_putc(b, ':');
        if (arg_value(w, &ev->args[i], err) != 0)
            return -1;
    }
    gt_strbuf_putc(b, '}');
    return 0;
}

/* {"ph":P,"ts":..,"pid":..,"tid":.. : what every event starts with */
static void head(gt_chrome_writer *w, char ph, const gt_tl_event *ev, bool ts)
{
    gt_strbuf *b = &w->b;
    gt_strbuf_puts(b, w->nevents++ ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
    gt_strbuf_putc(b, ph);
    gt_strbuf_putc(b, '"');
    if (ts) {
        key(b, "ts");
        ct_us(b, ev->ts);
    }
    if (ev->kind == GT_TL_COMPLETE) {
        key(b, "dur");
        ct_us(b, ev->dur);
    }
    key(b, "pid");
    ct_koid(b, ev->pid);
    key(b, "tid");
    ct_koid(b, ev->tid);
}

static void names(gt_strbuf *b, const gt_timeline *tl, const gt_tl_event *ev, bool name)
{
    if (ev->cat) {
        key(b, "cat");
        interned(b, tl, ev->cat);
    }
    if (name) {
        key(b, "name");
        interned(b, tl, ev->name);
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
    names(&w->b, tl, ev, false);
    key(&w->b, "name");
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
    gt_strbuf_puts(b, "\":");
    gt_strbuf_u64(b, v);
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
    gt_strbuf_i64(b, ev->cs.out_prio);
    cswitch_arg(b, "in_pid", ev->cs.in_pid, true);
    cswitch_arg(b, "in_tid", ev->cs.in_tid, true);
    gt_strbuf_puts(b, ",\"in_prio\":");
    gt_strbuf_i64(b, ev->cs.in_prio);
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

static int write_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_chrome_writer *w = self;
    if (w->finished) {
        gt_error_set(err, "%s: event after the end of the document", w->name);
        return -1;
    }
    if (ev->kind == GT_TL_STACK_FRAME)
        return keep_frame(w, ev, err);
    if (ev->kind == GT_TL_CONTEXT_SWITCH)
        cswitch_event(w, ev);
    else if (ev->kind == GT_TL_PROCESS_NAME || ev->kind == GT_TL_THREAD_NAME) {
        if (metadata_event(w, tl, ev, err) != 0)
            return -1;
    } else {
        char ph = phase_of(ev);
        if (!ph || (ev->kind == GT_TL_INSTANT && ev->scope > GT_TL_SCOPE_GLOBAL)) {
            gt_error_set(err, "%s: cannot write a %s event (scope %u)", w->name,
                         gt_tl_kind_name(ev->kind), ev->scope);
            return -1;
        }
        gt_strbuf *b = &w->b;
        head(w, ph, ev, true);
        names(b, tl, ev, ev->kind != GT_TL_END || ev->name);
        if (has_id(ev->kind) || (ev->kind == GT_TL_COUNTER && ev->id)) {
            key(b, "id");
            ct_id(b, ev->id);
        }
        if (ev->kind == GT_TL_INSTANT) {
            key(b, "s");
            gt_strbuf_puts(b, ev->scope == GT_TL_SCOPE_GLOBAL    ? "\"g\""
                              : ev->scope == GT_TL_SCOPE_PROCESS ? "\"p\""
                                                                 : "\"t\"");
        }
        if (ev->kind == GT_TL_FLOW_END && ev->scope != GT_TL_FLOW_BIND_NEXT)
            gt_strbuf_puts(b, ",\"bp\":\"e\"");
        if (ev->stack) {
            key(b, "sf");
            gt_strbuf_u64(b, ev->stack);
        }
        if ((ev->nargs || ev->kind == GT_TL_COUNTER) && args(w, tl, ev, NULL, err) != 0)
            return -1;
        gt_strbuf_putc(b, '}');
    }
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

static void frame_text(gt_strbuf *b, const gt_timeline *tl, const frame *f)
{
    gt_strbuf_puts(b, "\n\"");
    gt_strbuf_u64(b, f->id);
    gt_strbuf_puts(b, "\":{\"name\":");
    interned(b, tl, f->name);
    gt_strbuf_puts(b, ",\"category\":");
    interned(b, tl, f->cat);
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
        frame_text(&w->b, tl, f);
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
