/* gltrace view's answers from the trace itself: summary, frames, calls, search. Each
 * request reads what it needs through the frame index (at_reader_seek), with a reader
 * of its own: requests run on several threads and share only the index, which is
 * read-only once the server runs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gt_json.h"
#include "view.h"

#define MAX_PAGE_FRAMES 100000u
#define MAX_PAGE_CALLS 10000u
#define MAX_SEARCH_LIMIT 10000u
/* calls one search request reads at most: it then answers "next" to go on from */
#define SEARCH_SCAN_CAP 500000u

void view_json_error(gt_strbuf *out, const char *msg)
{
    out->len = 0;
    gt_strbuf_puts(out, "{\"error\": ");
    gt_json_string(out, msg, strlen(msg));
    gt_strbuf_puts(out, "}\n");
}

static int error_status(gt_strbuf *out, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int error_status(gt_strbuf *out, int status, const char *fmt, ...)
{
    char msg[GT_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    view_json_error(out, msg);
    return status;
}

int view_arg_u64(const char *name, const char *s, uint64_t def, uint64_t max, uint64_t *out,
                 gt_strbuf *err_body)
{
    if (!s) {
        *out = def;
        return 0;
    }
    /* strtoull alone takes "-1", " 5" and "" */
    int ok = *s >= '0' && *s <= '9';
    char *end = NULL;
    errno = 0;
    unsigned long long n = ok ? strtoull(s, &end, 10) : 0;
    if (!ok || *end || errno == ERANGE || n > max) {
        if (ok && !*end)
            error_status(err_body, 400, "%s=%s is past the end (at most %llu)", name, s,
                         (unsigned long long)max);
        else
            error_status(err_body, 400, "%s=\"%.64s\" is not a number", name, s);
        return -1;
    }
    *out = n;
    return 1;
}

static int no_index(view_server *v, gt_strbuf *out)
{
    return error_status(out, 500, "%s", v->ix_error[0] ? v->ix_error : "the trace has no index");
}

int view_api_summary(view_server *v, gt_strbuf *out)
{
    if (!v->ix)
        return no_index(v, out);
    const at_index *ix = v->ix;
    gt_strbuf_puts(out, "{\"file\": ");
    gt_json_string(out, v->trace, strlen(v->trace));
    const char *api = ix->api ? ix->api : "Unknown";
    gt_strbuf_printf(out, ", \"size\": %llu, \"calls\": %llu, \"frames\": %llu, \"threads\": %u, "
                     "\"api\": ", (unsigned long long)v->trace_size, (unsigned long long)ix->calls,
                     (unsigned long long)ix->frames_count, ix->threads);
    gt_json_string(out, api, strlen(api));
    gt_strbuf_printf(out, ", \"version\": %u, \"indexed\": %s, \"thumbs_dir\": ", ix->version,
                     v->indexed ? "true" : "false");
    if (v->thumbs_dir)
        gt_json_string(out, v->thumbs_dir, strlen(v->thumbs_dir));
    else
        gt_strbuf_puts(out, "null");
    gt_strbuf_puts(out, ", \"snapshot\": ");
    if (v->snap_first < 0)
        gt_strbuf_puts(out, "null");
    else if (v->snap_found)
        gt_strbuf_printf(out, "{\"first_frame\": %lld, \"end_call\": %u, \"calls\": %llu}",
                         v->snap_first, v->snap_end, (unsigned long long)v->snap_calls);
    else
        gt_strbuf_printf(out, "{\"first_frame\": %lld, \"end_call\": null, \"calls\": null}",
                         v->snap_first);
    gt_strbuf_puts(out, "}\n");
    return 200;
}

int view_api_frames(view_server *v, const char *first_s, const char *count_s, gt_strbuf *out)
{
    if (!v->ix)
        return no_index(v, out);
    const at_index *ix = v->ix;
    uint64_t first, count;
    if (view_arg_u64("first", first_s, 0, ix->nframes, &first, out) < 0 ||
        view_arg_u64("count", count_s, 100, MAX_PAGE_FRAMES, &count, out) < 0)
        return 400;
    uint64_t end = first + count > ix->nframes ? ix->nframes : first + count;
    const char *times = view_times_state(v); /* before the arrays: "done" means they are in */
    pthread_mutex_lock(&v->scan_lock);
    const uint32_t *draws = v->frame_draws;
    const uint64_t *cpu = v->frame_cpu_ns, *gpu = v->frame_gpu_ns; /* set once, then kept */
    pthread_mutex_unlock(&v->scan_lock);
    gt_strbuf_printf(out, "{\"total\": %llu, \"times\": \"%s\", \"frames\": [",
                     (unsigned long long)ix->nframes, times);
    for (uint64_t f = first; f < end; ++f) {
        const at_index_frame *fr = &ix->frames[f];
        gt_strbuf_printf(out, "%s\n{\"frame\": %llu, \"first_call\": %u, \"last_call\": %u, "
                         "\"calls\": %llu, \"draws\": ", f > first ? "," : "",
                         (unsigned long long)f, fr->first_no, fr->last_no,
                         (unsigned long long)fr->calls);
        if (draws)
            gt_strbuf_u64(out, draws[f]);
        else
            gt_strbuf_puts(out, "null");
        gt_strbuf_puts(out, ", \"cpu_ns\": ");
        if (cpu)
            gt_strbuf_u64(out, cpu[f]);
        else
            gt_strbuf_puts(out, "null");
        gt_strbuf_puts(out, ", \"gpu_ns\": ");
        if (gpu)
            gt_strbuf_u64(out, gpu[f]);
        else
            gt_strbuf_puts(out, "null");
        gt_strbuf_printf(out, ", \"thumb\": %s, \"complete\": %s",
                         fr->complete && view_thumb_exists(v, fr->last_no) ? "true" : "false",
                         fr->complete ? "true" : "false");
        if (v->snap_first >= 0) /* frame k of a range's trace is the program's A+k */
            gt_strbuf_printf(out, ", \"program_frame\": %llu",
                             (unsigned long long)v->snap_first + (unsigned long long)f);
        gt_strbuf_putc(out, '}');
    }
    gt_strbuf_puts(out, "]}\n");
    return 200;
}

/* ---- reading calls from a frame on ---------------------------------------------------- */

typedef struct frame_reader {
    at_reader *r;
    uint64_t frame;    /* the frame of the calls coming out now */
    uint32_t after_no; /* after a seek: the call whose coming out starts `frame`;
                          UINT32_MAX once counting */
    const atomic_bool *stop; /* the server stops: a read from the start ends early */
} frame_reader;

/* Opens the trace at frame f: through the index when it can stand in for a full read
 * (else from the start, counting frames). 0, or -1 with err set. */
static int fr_open(view_server *v, uint64_t f, frame_reader *fr, gt_error *err)
{
    at_reader_options ropt = {.skip_blob_data = true};
    fr->frame = 0;
    fr->after_no = UINT32_MAX;
    fr->stop = &v->stopping;
    if (!(fr->r = at_reader_open(v->trace, &ropt, err)))
        return -1;
    at_seek_point p;
    uint32_t after;
    if (!at_index_frames_start(v->ix, f, f, &p, &after))
        return 0;
    if (at_reader_seek(fr->r, v->ix->sigs, v->ix->nsigs, &p, err)) {
        fr->frame = f;
        fr->after_no = after;
        return 0;
    }
    /* the index failed us (the trace changed under it?): read from the start */
    at_reader_close(fr->r);
    gt_error_clear(err);
    return (fr->r = at_reader_open(v->trace, &ropt, err)) ? 0 : -1;
}

/* The next call at or after the frame asked for, with its frame in *frame; NULL at the
 * end or on error (at_reader_error). */
static gt_call *fr_next(frame_reader *fr, uint64_t *frame)
{
    gt_call *c;
    while (!atomic_load_explicit(fr->stop, memory_order_relaxed) && (c = at_reader_next(fr->r))) {
        if (fr->after_no != UINT32_MAX) { /* still in the frame before the one asked for */
            if (c->no == fr->after_no)
                fr->after_no = UINT32_MAX;
            at_reader_release(fr->r, c);
            continue;
        }
        *frame = fr->frame;
        if (c->flags & GT_CALL_FLAG_END_FRAME)
            ++fr->frame;
        return c;
    }
    return NULL;
}

static void call_text(gt_strbuf *b, const gt_call *c)
{
    static const at_dump_options o = {.arg_names = true}; /* one line, no number, no colour */
    gt_strbuf t;
    gt_strbuf_init(&t);
    at_dump_call(&t, c, &o);
    gt_json_string(b, t.data ? t.data : "", t.len);
    gt_strbuf_free(&t);
}

/* One backtrace frame as `gltrace dump` prints it, without the newline. */
static void frame_text(gt_strbuf *b, const gt_frame *f)
{
    gt_strbuf t;
    gt_strbuf_init(&t);
    gt_strbuf_puts(&t, f->module ? f->module : "?");
    if (f->function)
        gt_strbuf_printf(&t, ": %s", f->function);
    if (f->offset >= 0)
        gt_strbuf_printf(&t, "+0x%llx", (unsigned long long)f->offset);
    if (f->filename) {
        gt_strbuf_printf(&t, ": %s", f->filename);
        if (f->line >= 0)
            gt_strbuf_printf(&t, ":%lld", (long long)f->line);
    }
    gt_json_string(b, t.data ? t.data : "", t.len);
    gt_strbuf_free(&t);
}

int view_api_calls(view_server *v, const char *frame_s, const char *first_s, const char *count_s,
                   gt_strbuf *out)
{
    if (!v->ix)
        return no_index(v, out);
    const at_index *ix = v->ix;
    uint64_t f, first, count;
    if (!frame_s)
        return error_status(out, 400, "frame= is missing");
    if (view_arg_u64("frame", frame_s, 0, UINT64_MAX, &f, out) < 0 ||
        view_arg_u64("first", first_s, 0, UINT64_MAX, &first, out) < 0 ||
        view_arg_u64("count", count_s, 100, MAX_PAGE_CALLS, &count, out) < 0)
        return 400;
    if (f >= ix->nframes)
        return error_status(out, 400, "frame %llu is past the end of %s (%zu frames)",
                            (unsigned long long)f, v->trace, ix->nframes);
    const at_index_frame *fi = &ix->frames[f];
    if (first > fi->calls)
        return error_status(out, 400, "first=%llu is past the end of frame %llu (%llu calls)",
                            (unsigned long long)first, (unsigned long long)f,
                            (unsigned long long)fi->calls);
    int depth = 0;
    pthread_mutex_lock(&v->scan_lock);
    if (v->frame_depth)
        depth = (int)v->frame_depth[f];
    pthread_mutex_unlock(&v->scan_lock);

    gt_error err;
    gt_error_clear(&err);
    frame_reader fr;
    if (fr_open(v, f, &fr, &err) < 0)
        return error_status(out, 500, "%s", err.msg);
    gt_strbuf_printf(out, "{\"frame\": %llu, \"total\": %llu, \"calls\": [",
                     (unsigned long long)f, (unsigned long long)fi->calls);
    uint64_t k = 0, cf;
    gt_call *c;
    int status = 200;
    while (k < first + count && (c = fr_next(&fr, &cf))) {
        if (cf > f) {
            at_reader_release(fr.r, c);
            break;
        }
        if (cf < f) { /* reading from the start: frames before */
            at_reader_release(fr.r, c);
            continue;
        }
        const char *group = NULL;
        int d = depth;
        if (c->flags & GT_CALL_FLAG_MARKER_PUSH) {
            group = "\"begin\"";
            ++depth;
        } else if (c->flags & GT_CALL_FLAG_MARKER_POP) {
            group = "\"end\"";
            d = depth = depth > 0 ? depth - 1 : 0;
        }
        if (k >= first) {
            gt_strbuf_printf(out, "%s\n{\"no\": %u, \"thread\": %u, \"text\": ", k > first ? "," : "",
                             c->no, c->thread);
            call_text(out, c);
            gt_strbuf_printf(out, ", \"depth\": %d, \"group\": %s, \"draw\": %s, \"verbose\": %s, "
                             "\"backtrace\": ", d, group ? group : "null",
                             c->flags & GT_CALL_FLAG_RENDER ? "true" : "false",
                             c->flags & GT_CALL_FLAG_VERBOSE ? "true" : "false");
            if (c->frames) {
                gt_strbuf_putc(out, '[');
                for (uint32_t i = 0; i < c->num_frames; ++i) {
                    if (i)
                        gt_strbuf_puts(out, ", ");
                    frame_text(out, c->frames[i]);
                }
                gt_strbuf_putc(out, ']');
            } else {
                gt_strbuf_puts(out, "null");
            }
            /* the state snapshot: frame 0's first calls, k counted from the frame's start */
            if (v->snap_found && f == 0 && k < v->snap_calls)
                gt_strbuf_puts(out, ", \"snapshot\": true");
            gt_strbuf_putc(out, '}');
        }
        ++k;
        at_reader_release(fr.r, c);
    }
    if (at_reader_error(fr.r))
        status = error_status(out, 500, "%s", at_reader_error(fr.r));
    else
        gt_strbuf_puts(out, "]}\n");
    at_reader_close(fr.r);
    if (out->oom)
        status = error_status(out, 500, "out of memory");
    return status;
}

/* ---- search ----------------------------------------------------------------------------- */

struct view_search {
    view_server *v;
    frame_reader fr;
    char *needle; /* lowercase */
    size_t nlen;
    uint32_t from;
    uint64_t limit, found, scanned;
    uint32_t last_no;
    bool any, done;
    gt_strbuf text;
};

static void lower(char *s, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (s[i] >= 'A' && s[i] <= 'Z')
            s[i] = (char)(s[i] - 'A' + 'a');
}

int view_search_start(view_server *v, const char *q, const char *from_s, const char *limit_s,
                      view_search **out_s, gt_strbuf *err_body)
{
    *out_s = NULL;
    if (!v->ix)
        return no_index(v, err_body);
    uint64_t from, limit;
    if (!q || !*q)
        return error_status(err_body, 400, "q= is missing or empty");
    if (view_arg_u64("from", from_s, 0, UINT32_MAX, &from, err_body) < 0 ||
        view_arg_u64("limit", limit_s, 100, MAX_SEARCH_LIMIT, &limit, err_body) < 0)
        return 400;
    if (from > v->last_call)
        return error_status(err_body, 400, "from=%llu is past the end of %s (last call %u)",
                            (unsigned long long)from, v->trace, v->last_call);
    view_search *s = calloc(1, sizeof *s);
    if (!s || !(s->needle = strdup(q))) {
        free(s);
        return error_status(err_body, 500, "out of memory");
    }
    s->v = v;
    s->nlen = strlen(q);
    lower(s->needle, s->nlen);
    s->from = (uint32_t)from;
    s->limit = limit ? limit : 1;
    gt_strbuf_init(&s->text);
    /* the first frame that may hold call `from`: frames end in call order */
    size_t lo = 0, hi = v->ix->nframes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->ix->frames[mid].last_no < s->from)
            lo = mid + 1;
        else
            hi = mid;
    }
    gt_error err;
    gt_error_clear(&err);
    if (fr_open(v, lo < v->ix->nframes ? lo : 0, &s->fr, &err) < 0) {
        view_search_free(s);
        return error_status(err_body, 500, "%s", err.msg);
    }
    *out_s = s;
    return 200;
}

int view_search_next(view_search *s, gt_strbuf *out)
{
    if (s->done)
        return 0;
    uint64_t frame;
    gt_call *c;
    int batch = 0;
    while (out->len < 16384 && batch < 20000) {
        if (s->found >= s->limit || s->scanned >= SEARCH_SCAN_CAP) {
            gt_strbuf_printf(out, "{\"done\": true, \"scanned\": %llu, \"next\": %u}\n",
                             (unsigned long long)s->scanned, s->last_no + 1);
            s->done = true;
            return 0;
        }
        if (!(c = fr_next(&s->fr, &frame))) {
            const char *e = at_reader_error(s->fr.r);
            if (e) {
                gt_strbuf_puts(out, "{\"error\": ");
                gt_json_string(out, e, strlen(e));
                gt_strbuf_puts(out, "}\n");
            }
            gt_strbuf_printf(out, "{\"done\": true, \"scanned\": %llu, \"next\": null}\n",
                             (unsigned long long)s->scanned);
            s->done = true;
            return 0;
        }
        ++batch;
        if (c->no < s->from) {
            at_reader_release(s->fr.r, c);
            continue;
        }
        ++s->scanned;
        s->last_no = c->no;
        static const at_dump_options o = {.arg_names = true};
        s->text.len = 0;
        at_dump_call(&s->text, c, &o);
        gt_strbuf_putc(&s->text, '\0');
        if (s->text.oom) {
            at_reader_release(s->fr.r, c);
            gt_strbuf_puts(out, "{\"error\": \"out of memory\"}\n");
            s->done = true;
            return 0;
        }
        /* the text as sent, and a lowercase copy after it for matching */
        size_t n = s->text.len - 1;
        if (gt_strbuf_reserve(&s->text, n + 1) == 0) {
            memcpy(s->text.data + n + 1, s->text.data, n + 1);
            char *low = s->text.data + n + 1;
            lower(low, n);
            if (strstr(low, s->needle)) {
                gt_strbuf_printf(out, "{\"no\": %u, \"frame\": %llu, \"text\": ", c->no,
                                 (unsigned long long)frame);
                gt_json_string(out, s->text.data, n);
                gt_strbuf_puts(out, "}\n");
                ++s->found;
            }
        }
        at_reader_release(s->fr.r, c);
    }
    return 1;
}

void view_search_free(view_search *s)
{
    if (!s)
        return;
    if (s->fr.r)
        at_reader_close(s->fr.r);
    gt_strbuf_free(&s->text);
    free(s->needle);
    free(s);
}
