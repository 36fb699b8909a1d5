/* gltrace view: the page's timeline of a frame range (api/slices) and the frame holding
 * a call (api/frame_of).
 *
 * The timeline job writes one Chrome JSON for the whole trace (view_replays.c); the page
 * shows a few frames at a time. api/slices reads that JSON with the project's streaming
 * reader and keeps only the events of the frames asked for: the calls' CPU slices
 * (category "gl") and the GPU slices (category "gpu"), both carrying their "call" and
 * "frame" arguments, the debug groups (B/E of category "marker", which carry no frame:
 * kept when they overlap the calls kept) and the frame markers. Names go out once, in a
 * table, each slice naming its entry: a frame of 100k draws repeats few names. */
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "chrome_reader.h"
#include "gt_json.h"
#include "view.h"

#define MAX_SLICE_FRAMES 10000u
/* slices one answer holds at most (CPU + GPU + groups): ~40 bytes each in the JSON */
#define MAX_SLICES 4000000u
#define MAX_GROUP_DEPTH 256
/* frames after the range read for its GPU slices */
#define GPU_LAG_FRAMES 64u

typedef struct slice {
    int64_t ts, dur;
    uint64_t call;     /* groups: depth */
    uint64_t tid;
    uint32_t name;     /* the reader's string id */
} slice;

typedef struct slice_vec {
    slice *v;
    size_t n, cap;
} slice_vec;

typedef struct open_group {
    uint64_t tid;
    int64_t ts;
    uint32_t name;
} open_group;

typedef struct slices_read {
    view_server *v;
    uint64_t first, end; /* the frames asked for: [first, end) */
    gt_tl_str gl, gpu, marker, call, frame;
    slice_vec cpu, gpu_s, groups, marks; /* marks: frame instants (call = frame) */
    open_group open[MAX_GROUP_DEPTH];
    int nopen;
    int64_t t0, t1; /* the time the kept calls span */
    size_t total;
    bool truncated, stopped_early;
} slices_read;

static int push(slices_read *r, slice_vec *sv, const slice *s, gt_error *err)
{
    if (r->total >= MAX_SLICES) {
        r->truncated = true;
        return 0;
    }
    if (sv->n == sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 1024;
        slice *nv = realloc(sv->v, cap * sizeof *nv);
        if (!nv) {
            gt_error_set(err, "out of memory");
            return -1;
        }
        sv->v = nv;
        sv->cap = cap;
    }
    sv->v[sv->n++] = *s;
    r->total++;
    return 0;
}

/* The value of the numeric argument `name`, or -1 when absent or not a count. */
static int64_t arg_u(const gt_tl_event *ev, gt_tl_str name)
{
    for (uint32_t i = 0; i < ev->nargs; ++i) {
        const gt_tl_arg *a = &ev->args[i];
        if (a->name != name)
            continue;
        switch (a->kind) {
        case GT_TL_ARG_I32:
        case GT_TL_ARG_I64: return a->v.i < 0 ? -1 : a->v.i;
        case GT_TL_ARG_U32:
        case GT_TL_ARG_U64: return a->v.u > INT64_MAX ? -1 : (int64_t)a->v.u;
        case GT_TL_ARG_DOUBLE: return a->v.d >= 0 && a->v.d < 9e18 ? (int64_t)a->v.d : -1;
        default: return -1;
        }
    }
    return -1;
}

static int slices_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)tl;
    slices_read *r = self;
    if (atomic_load_explicit(&r->v->stopping, memory_order_relaxed)) {
        gt_error_set(err, "stopped");
        return -1;
    }
    if (ev->kind == GT_TL_BEGIN && ev->cat == r->marker) {
        if (r->nopen < MAX_GROUP_DEPTH)
            r->open[r->nopen] = (open_group){.tid = ev->tid, .ts = ev->ts, .name = ev->name};
        r->nopen++;
        return 0;
    }
    if (ev->kind == GT_TL_END && ev->cat == r->marker) {
        /* the innermost group open on this thread */
        int k = (r->nopen < MAX_GROUP_DEPTH ? r->nopen : MAX_GROUP_DEPTH) - 1;
        while (k >= 0 && r->open[k].tid != ev->tid)
            --k;
        if (r->nopen > MAX_GROUP_DEPTH || k < 0) {
            if (r->nopen > 0)
                r->nopen--;
            return 0;
        }
        open_group g = r->open[k];
        int depth = 0; /* groups open on the same thread below it */
        for (int i = 0; i < k; ++i)
            depth += r->open[i].tid == g.tid;
        memmove(&r->open[k], &r->open[k + 1], (size_t)(r->nopen - k - 1) * sizeof r->open[0]);
        r->nopen--;
        /* the trace's events come in time order: a group that ends before the range's
         * first call ends before every call kept */
        if (r->t1 == INT64_MIN)
            return 0;
        slice s = {.ts = g.ts, .dur = ev->ts - g.ts, .call = (uint64_t)depth, .tid = g.tid,
                   .name = g.name};
        return push(r, &r->groups, &s, err);
    }
    if (ev->kind == GT_TL_INSTANT && ev->name == r->frame) {
        int64_t f = arg_u(ev, r->frame);
        if (f >= 0 && (uint64_t)f >= r->first && (uint64_t)f <= r->end) {
            slice s = {.ts = ev->ts, .call = (uint64_t)f, .tid = ev->tid, .name = ev->name};
            return push(r, &r->marks, &s, err);
        }
        return 0;
    }
    if (ev->kind != GT_TL_COMPLETE || (ev->cat != r->gl && ev->cat != r->gpu))
        return 0;
    int64_t f = arg_u(ev, r->frame), call = arg_u(ev, r->call);
    /* past the range: nothing more to keep. The GPU's slices are written when their
     * timer queries are read, some frames after their calls' (6 on llvmpipe's
     * glxgears): read on well past the range's end */
    if (ev->cat == r->gl && f >= 0 && (uint64_t)f >= r->end + GPU_LAG_FRAMES) {
        r->stopped_early = true;
        gt_error_set(err, "past the range");
        return -1;
    }
    if (f < 0 || call < 0 || (uint64_t)f < r->first || (uint64_t)f >= r->end)
        return 0;
    slice s = {.ts = ev->ts, .dur = ev->dur, .call = (uint64_t)call, .tid = ev->tid,
               .name = ev->name};
    if (ev->cat == r->gl) {
        if (r->t1 == INT64_MIN || ev->ts < r->t0)
            r->t0 = ev->ts;
        if (r->t1 == INT64_MIN || ev->ts + ev->dur > r->t1)
            r->t1 = ev->ts + ev->dur;
    }
    return push(r, ev->cat == r->gl ? &r->cpu : &r->gpu_s, &s, err);
}

/* Name ids are remapped densely in order of first use. */
typedef struct name_map {
    uint32_t *to;    /* reader id -> 1 + index in the table; 0: not yet */
    uint32_t nto;
    uint32_t *ids;   /* the table: reader ids */
    uint32_t n;
} name_map;

static int64_t map_name(name_map *m, uint32_t id)
{
    if (id >= m->nto)
        return 0;
    if (!m->to[id]) {
        m->ids[m->n++] = id;
        m->to[id] = m->n;
    }
    return m->to[id] - 1;
}

static void put_slices(gt_strbuf *out, const char *key, const slice_vec *sv, name_map *m,
                       bool with_tid, int64_t t0, int64_t t1, bool clip)
{
    gt_strbuf_printf(out, ",\n\"%s\": [", key);
    bool first = true;
    for (size_t i = 0; i < sv->n; ++i) {
        const slice *s = &sv->v[i];
        if (clip && (s->ts + s->dur < t0 || s->ts > t1))
            continue;
        gt_strbuf_puts(out, first ? "\n[" : ",\n[");
        first = false;
        gt_strbuf_i64(out, s->ts);
        gt_strbuf_putc(out, ',');
        gt_strbuf_i64(out, s->dur);
        gt_strbuf_putc(out, ',');
        gt_strbuf_u64(out, s->call);
        gt_strbuf_putc(out, ',');
        gt_strbuf_i64(out, map_name(m, s->name));
        if (with_tid) {
            gt_strbuf_putc(out, ',');
            gt_strbuf_u64(out, s->tid);
        }
        gt_strbuf_putc(out, ']');
    }
    gt_strbuf_putc(out, ']');
}

int view_api_slices(view_server *v, const char *first_s, const char *count_s, gt_strbuf *out)
{
    if (!v->ix) {
        view_json_error(out, v->ix_error[0] ? v->ix_error : "the trace has no index");
        return 500;
    }
    uint64_t first, count;
    if (view_arg_u64("first", first_s, 0, UINT64_MAX, &first, out) < 0 ||
        view_arg_u64("count", count_s, 1, MAX_SLICE_FRAMES, &count, out) < 0)
        return 400;
    if (first >= v->ix->nframes) {
        char msg[256];
        snprintf(msg, sizeof msg, "frame %llu is past the end of %s (%zu frames)",
                 (unsigned long long)first, v->trace, v->ix->nframes);
        view_json_error(out, msg);
        return 400;
    }
    if (count == 0)
        count = 1;
    /* "done": the job finished and its JSON was read back (view_replays.c) */
    if (!v->cache_dir || strcmp(view_times_state(v), "done") != 0) {
        view_json_error(out, "no timeline yet: ask api/timeline and wait for its job");
        return 404;
    }
    /* opened as every cache file is (no link followed), then read through its descriptor */
    int fd = view_cache_open(v->cache_fd, "timeline.json");
    if (fd < 0) {
        view_json_error(out, "the timeline is gone from the cache");
        return 404;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    slices_read r = {.v = v, .first = first,
                     .end = first + count > v->ix->nframes ? v->ix->nframes : first + count,
                     .t0 = INT64_MAX, .t1 = INT64_MIN};
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0) {
        close(fd);
        view_json_error(out, "out of memory");
        return 500;
    }
    gt_error err;
    gt_error_clear(&err);
    int status = 200;
    r.gl = gt_tl_intern_cstr(&tl, "gl");
    r.gpu = gt_tl_intern_cstr(&tl, "gpu");
    r.marker = gt_tl_intern_cstr(&tl, "marker");
    r.call = gt_tl_intern_cstr(&tl, "call");
    r.frame = gt_tl_intern_cstr(&tl, "frame");
    gt_tl_sink sink = {.self = &r, .event = slices_event};
    gt_tl_read_opts opts = {0};
    name_map m = {0};
    if (r.gl == (gt_tl_str)-1 || r.gpu == (gt_tl_str)-1 || r.marker == (gt_tl_str)-1 ||
        r.call == (gt_tl_str)-1 || r.frame == (gt_tl_str)-1) {
        gt_error_set(&err, "out of memory");
        status = 500;
    } else if (gt_chrome_read(path, &tl, &sink, &opts, &err) != 0 && !r.stopped_early) {
        status = 500;
    } else {
        gt_error_clear(&err); /* "past the range" */
        /* groups still open at the range's end (their end is later, or not read) */
        for (int k = 0; k < r.nopen && k < MAX_GROUP_DEPTH && r.t1 != INT64_MIN; ++k) {
            int depth = 0;
            for (int i = 0; i < k; ++i)
                depth += r.open[i].tid == r.open[k].tid;
            slice s = {.ts = r.open[k].ts, .dur = r.t1 - r.open[k].ts, .call = (uint64_t)depth,
                       .tid = r.open[k].tid, .name = r.open[k].name};
            if (s.ts <= r.t1 && push(&r, &r.groups, &s, &err) != 0)
                status = 500;
        }
        m.nto = gt_tl_str_count(&tl);
        m.to = calloc(m.nto ? m.nto : 1, sizeof *m.to);
        m.ids = calloc(m.nto ? m.nto : 1, sizeof *m.ids);
        if (status == 200 && (!m.to || !m.ids)) {
            gt_error_set(&err, "out of memory");
            status = 500;
        }
    }
    if (status == 200) {
        int64_t t0 = r.t1 == INT64_MIN ? 0 : r.t0, t1 = r.t1 == INT64_MIN ? 0 : r.t1;
        gt_strbuf_printf(out, "{\"first\": %llu, \"count\": %llu, \"t0\": %lld, \"t1\": %lld, "
                         "\"truncated\": %s",
                         (unsigned long long)first, (unsigned long long)(r.end - first),
                         (long long)t0, (long long)t1, r.truncated ? "true" : "false");
        put_slices(out, "frames", &r.marks, &m, false, 0, 0, false);
        put_slices(out, "cpu", &r.cpu, &m, true, 0, 0, false);
        put_slices(out, "gpu", &r.gpu_s, &m, false, 0, 0, false);
        /* groups around the calls kept (none when no call was) */
        put_slices(out, "groups", &r.groups, &m, true, t0, r.t1 == INT64_MIN ? -1 : t1, true);
        gt_strbuf_puts(out, ",\n\"names\": [");
        for (uint32_t i = 0; i < m.n; ++i) {
            uint32_t len = 0;
            const char *s = gt_tl_str_get(&tl, m.ids[i], &len);
            if (i)
                gt_strbuf_puts(out, ", ");
            gt_json_string(out, s, len);
        }
        gt_strbuf_puts(out, "]}\n");
        if (out->oom) {
            gt_error_set(&err, "out of memory");
            status = 500;
        }
    }
    if (status != 200) {
        gt_strbuf msg;
        gt_strbuf_init(&msg);
        gt_strbuf_printf(&msg, "the timeline %s: %s", path, err.msg);
        view_json_error(out, msg.oom || !msg.data ? err.msg : msg.data);
        gt_strbuf_free(&msg);
    }
    free(m.to);
    free(m.ids);
    free(r.cpu.v);
    free(r.gpu_s.v);
    free(r.groups.v);
    free(r.marks.v);
    gt_timeline_free(&tl);
    close(fd);
    return status;
}

int view_api_frame_of(view_server *v, const char *call_s, gt_strbuf *out)
{
    if (!v->ix) {
        view_json_error(out, v->ix_error[0] ? v->ix_error : "the trace has no index");
        return 500;
    }
    uint64_t no;
    if (!call_s) {
        view_json_error(out, "call= is missing");
        return 400;
    }
    if (view_arg_u64("call", call_s, 0, UINT32_MAX, &no, out) < 0)
        return 400;
    const at_index *ix = v->ix;
    /* the last frame whose first call is at or before the call: frames follow each
     * other in call numbers */
    size_t lo = 0, hi = ix->nframes;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->frames[mid].first_no <= no)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || no > ix->frames[lo - 1].last_no) {
        char msg[256];
        snprintf(msg, sizeof msg, "call %llu is in no frame of %s (calls 0-%u)",
                 (unsigned long long)no, v->trace, v->last_call);
        view_json_error(out, msg);
        return 400;
    }
    gt_strbuf_printf(out, "{\"call\": %llu, \"frame\": %zu}\n", (unsigned long long)no, lo - 1);
    return 200;
}
