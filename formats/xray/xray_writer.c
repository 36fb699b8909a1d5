/* The FDR writer: per-thread buffers of records, nesting of complete slices,
 * the file header, and the companion instrumentation map at finish. */
#include "xray_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray_format.h"
#include "xray_map.h"

#define PREAMBLE (4 * XRAY_METADATA_SIZE)

typedef struct xw_frame {
    uint32_t fid;
    int complete;
    int64_t end; /* complete slices */
} xw_frame;

typedef struct xw_thread {
    uint32_t xpid, xtid;
    uint8_t *buf; /* grows to GT_XRAY_BUFFER_SIZE: memory follows the events */
    size_t len;   /* 0: no buffer started */
    size_t bufcap;
    uint64_t last_tsc;
    int any;     /* a record was written: last_tsc is meaningful */
    xw_frame *stack;
    size_t depth, cap;
} xw_thread;

struct gt_xray_writer {
    FILE *f;
    char *path, *map_path;
    const gt_timeline *tl;
    xray_map fids; /* gt_tl_str -> function id */
    char **fnames; /* [id - 1] */
    uint32_t nfn, fcap;
    xray_map thread_ix; /* (pid, tid) -> index */
    xw_thread *threads;
    size_t nthreads, tcap;
    uint32_t synthetic; /* ids handed out for pid/tid beyond int32 */
    int header_done;
    int buffers; /* thread buffers written */
};

static int oom(gt_xray_writer *w, gt_error *err)
{
    gt_error_set(err, "%s: out of memory", w->path);
    return -1;
}

static int put(gt_xray_writer *w, const void *p, size_t n, gt_error *err)
{
    if (fwrite(p, 1, n, w->f) != n) {
        gt_error_set(err, "%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    return 0;
}

static int header(gt_xray_writer *w, gt_error *err)
{
    uint8_t h[XRAY_HEADER_SIZE] = {0};
    if (w->header_done)
        return 0;
    w->header_done = 1;
    xray_store_le(h, 5, 2);
    xray_store_le(h + 2, XRAY_TYPE_FDR, 2);
    xray_store_le(h + 4, XRAY_CONSTANT_TSC | XRAY_NONSTOP_TSC, 4);
    xray_store_le(h + 8, 1000000000u, 8);
    xray_store_le(h + 16, GT_XRAY_BUFFER_SIZE, 8);
    return put(w, h, sizeof h, err);
}

static void meta(uint8_t *p, unsigned kind, uint64_t a, unsigned an, uint64_t b, unsigned bn)
{
    memset(p, 0, XRAY_METADATA_SIZE);
    p[0] = (uint8_t)(kind << 1 | 1);
    xray_store_le(p + 1, a, an);
    xray_store_le(p + 1 + an, b, bn);
}

static int flush_thread(gt_xray_writer *w, xw_thread *t, gt_error *err)
{
    uint8_t ext[XRAY_METADATA_SIZE];
    if (!t->len)
        return 0;
    meta(ext, XRAY_M_BUFFER_EXTENTS, t->len, 8, 0, 0);
    int rc = header(w, err) || put(w, ext, sizeof ext, err) || put(w, t->buf, t->len, err);
    t->len = 0;
    w->buffers++;
    return rc ? -1 : 0;
}

/* Opens a buffer at tsc: NewBuffer, WallClockTime, PIDEntry, NewCPUId. */
static void preamble(gt_xray_writer *w, xw_thread *t, uint64_t tsc)
{
    int64_t wall = (int64_t)tsc + (w->tl && w->tl->has_wall ? w->tl->wall_offset_ns : 0);
    uint64_t uw = wall > 0 ? (uint64_t)wall : 0;
    meta(t->buf, XRAY_M_NEW_BUFFER, t->xtid, 4, 0, 0);
    meta(t->buf + 16, XRAY_M_WALLCLOCK, uw / 1000000000u, 8, uw % 1000000000u / 1000u, 4);
    meta(t->buf + 32, XRAY_M_PID, t->xpid, 4, 0, 0);
    meta(t->buf + 48, XRAY_M_NEW_CPU_ID, 0, 2, tsc, 8);
    t->len = PREAMBLE;
    t->last_tsc = tsc;
}

/* One function record at tsc (>= the thread's last), with a TSCWrap first when
 * the delta passes 32 bits. */
static int record(gt_xray_writer *w, xw_thread *t, unsigned action, uint32_t fid, uint64_t tsc,
                  gt_error *err)
{
    size_t need = XRAY_METADATA_SIZE + XRAY_FUNCTION_SIZE;
    if (t->len && t->len + need > GT_XRAY_BUFFER_SIZE && flush_thread(w, t, err) != 0)
        return -1;
    if ((t->len ? t->len : PREAMBLE) + need > t->bufcap) {
        size_t cap = t->bufcap ? t->bufcap * 2 : 256;
        uint8_t *b = realloc(t->buf, cap);
        if (!b)
            return oom(w, err);
        t->buf = b;
        t->bufcap = cap;
    }
    if (!t->len)
        preamble(w, t, tsc);
    uint64_t delta = tsc - t->last_tsc;
    if (delta > UINT32_MAX) {
        meta(t->buf + t->len, XRAY_M_TSC_WRAP, tsc, 8, 0, 0);
        t->len += XRAY_METADATA_SIZE;
        delta = 0;
    }
    uint8_t *p = t->buf + t->len;
    xray_store_le(p, (uint64_t)fid << 4 | action << 1, 4);
    xray_store_le(p + 4, delta, 4);
    t->len += XRAY_FUNCTION_SIZE;
    t->last_tsc = tsc;
    t->any = 1;
    return 0;
}

static uint32_t small_id(gt_xray_writer *w, uint64_t id)
{
    return id <= INT32_MAX ? (uint32_t)id : 0x7fffffffu - w->synthetic++;
}

static xw_thread *thread_of(gt_xray_writer *w, uint64_t pid, uint64_t tid, gt_error *err)
{
    uint64_t ix;
    if (xray_map_get(&w->thread_ix, pid, tid, &ix))
        return &w->threads[ix];
    if (w->nthreads == w->tcap) {
        size_t cap = w->tcap ? w->tcap * 2 : 8;
        xw_thread *t = realloc(w->threads, cap * sizeof *t);
        if (!t)
            return oom(w, err), NULL;
        w->threads = t;
        w->tcap = cap;
    }
    xw_thread *t = &w->threads[w->nthreads];
    *t = (xw_thread){.xpid = small_id(w, pid), .xtid = small_id(w, tid)};
    if (xray_map_put(&w->thread_ix, pid, tid, w->nthreads) != 0)
        return oom(w, err), NULL;
    w->nthreads++;
    return t;
}

static int fid_of(gt_xray_writer *w, const gt_timeline *tl, gt_tl_str name, uint32_t *fid,
                  gt_error *err)
{
    uint64_t v;
    if (xray_map_get(&w->fids, name, 0, &v)) {
        *fid = (uint32_t)v;
        return 0;
    }
    if (w->nfn == XRAY_MAX_FUNC_ID) {
        gt_error_set(err, "%s: more than %u distinct slice names", w->path, XRAY_MAX_FUNC_ID);
        return -1;
    }
    if (w->nfn == w->fcap) {
        uint32_t cap = w->fcap ? w->fcap * 2 : 64;
        char **n = realloc(w->fnames, cap * sizeof *n);
        if (!n)
            return oom(w, err);
        w->fnames = n;
        w->fcap = cap;
    }
    uint32_t len;
    const char *s = gt_tl_str_get(tl, name, &len);
    if (!(w->fnames[w->nfn] = strdup(len ? s : "(unnamed)")))
        return oom(w, err);
    *fid = ++w->nfn;
    return xray_map_put(&w->fids, name, 0, *fid) != 0 ? oom(w, err) : 0;
}

static int push(gt_xray_writer *w, xw_thread *t, xw_frame f, gt_error *err)
{
    if (t->depth == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        xw_frame *s = realloc(t->stack, cap * sizeof *s);
        if (!s)
            return oom(w, err);
        t->stack = s;
        t->cap = cap;
    }
    t->stack[t->depth++] = f;
    return 0;
}

/* Exits of the complete slices on top of the stack that end by ts. */
static int close_until(gt_xray_writer *w, xw_thread *t, int64_t ts, gt_error *err)
{
    while (t->depth && t->stack[t->depth - 1].complete && t->stack[t->depth - 1].end <= ts) {
        xw_frame *f = &t->stack[--t->depth];
        uint64_t at = (uint64_t)f->end < t->last_tsc ? t->last_tsc : (uint64_t)f->end;
        if (record(w, t, XRAY_EXIT, f->fid, at, err) != 0)
            return -1;
    }
    return 0;
}

static int slice(gt_xray_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    xw_thread *t = thread_of(w, ev->pid, ev->tid, err);
    if (!t)
        return -1;
    if (ev->ts < 0 || (ev->kind == GT_TL_COMPLETE && ev->dur < 0)) {
        gt_error_set(err, "%s: negative time (ts %lld, dur %lld): XRay TSCs are unsigned", w->path,
                     (long long)ev->ts, (long long)ev->dur);
        return -1;
    }
    if (close_until(w, t, ev->ts, err) != 0)
        return -1;
    if (t->any && (uint64_t)ev->ts < t->last_tsc) {
        gt_error_set(err, "%s: events of thread %llu out of time order (%lld after %llu)", w->path,
                     (unsigned long long)ev->tid, (long long)ev->ts,
                     (unsigned long long)t->last_tsc);
        return -1;
    }
    if (ev->kind == GT_TL_END) {
        /* complete slices still open inside the ending one are cut here */
        while (t->depth && t->stack[t->depth - 1].complete) {
            xw_frame *top = &t->stack[t->depth - 1];
            if (top->end > ev->ts)
                top->end = ev->ts;
            if (close_until(w, t, ev->ts, err) != 0)
                return -1;
        }
        if (t->depth)
            return record(w, t, XRAY_EXIT, t->stack[--t->depth].fid, (uint64_t)ev->ts, err);
        /* a named END whose BEGIN is not in the timeline (an XRay log whose first
         * buffers were lost): an exit record, as the log had */
        uint32_t fid;
        if (!ev->name) {
            gt_error_set(err, "%s: END at %lld on thread %llu with no open slice and no name",
                         w->path, (long long)ev->ts, (unsigned long long)ev->tid);
            return -1;
        }
        return fid_of(w, tl, ev->name, &fid, err) ? -1
                                                  : record(w, t, XRAY_EXIT, fid, (uint64_t)ev->ts, err);
    }
    uint32_t fid;
    if (fid_of(w, tl, ev->name, &fid, err) != 0 ||
        record(w, t, XRAY_ENTRY, fid, (uint64_t)ev->ts, err) != 0)
        return -1;
    xw_frame f = {fid, ev->kind == GT_TL_COMPLETE, 0};
    if (f.complete)
        f.end = ev->dur > INT64_MAX - ev->ts ? INT64_MAX : ev->ts + ev->dur;
    return push(w, t, f, err);
}

static int writer_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    gt_xray_writer *w = self;
    w->tl = tl;
    if (ev->kind != GT_TL_COMPLETE && ev->kind != GT_TL_BEGIN && ev->kind != GT_TL_END)
        return 0;
    return slice(w, tl, ev, err);
}

static int writer_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_xray_writer *w = self;
    w->tl = tl;
    for (size_t i = 0; i < w->nthreads; i++)
        if (close_until(w, &w->threads[i], INT64_MAX, err) != 0 ||
            flush_thread(w, &w->threads[i], err) != 0)
            return -1;
    if (!w->buffers) {
        /* llvm-xray-14 refuses a log without buffers: one empty buffer (thread 0) */
        uint8_t pre[PREAMBLE];
        xw_thread t = {.buf = pre};
        preamble(w, &t, 0);
        if (flush_thread(w, &t, err) != 0)
            return -1;
    }
    if (fflush(w->f) != 0) {
        gt_error_set(err, "%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    if (w->map_path)
        return gt_xray_write_instrmap(w->map_path, (const char *const *)w->fnames, w->nfn, err);
    return 0;
}

gt_xray_writer *gt_xray_writer_open(const char *path, gt_error *err)
{
    gt_xray_writer *w = calloc(1, sizeof *w);
    int out = strcmp(path, "-") == 0;
    if (!w || !(w->path = strdup(path))) {
        free(w);
        gt_error_set(err, "%s: out of memory", path);
        return NULL;
    }
    w->f = out ? stdout : fopen(path, "wb");
    if (!w->f) {
        gt_error_set(err, "%s: %s", path, strerror(errno));
        gt_xray_writer_free(w);
        return NULL;
    }
    if (!out) {
        size_t n = strlen(path) + 5;
        if (!(w->map_path = malloc(n))) {
            gt_error_set(err, "%s: out of memory", path);
            gt_xray_writer_free(w);
            return NULL;
        }
        snprintf(w->map_path, n, "%s.map", path);
    }
    return w;
}

int gt_xray_writer_set_map_path(gt_xray_writer *w, const char *map_path)
{
    char *p = map_path ? strdup(map_path) : NULL;
    if (map_path && !p)
        return -1;
    free(w->map_path);
    w->map_path = p;
    return 0;
}

gt_tl_sink gt_xray_writer_sink(gt_xray_writer *w)
{
    return (gt_tl_sink){.self = w, .event = writer_event, .finish = writer_finish};
}

void gt_xray_writer_free(gt_xray_writer *w)
{
    if (!w)
        return;
    if (w->f && w->f != stdout)
        fclose(w->f);
    for (size_t i = 0; i < w->nthreads; i++) {
        free(w->threads[i].buf);
        free(w->threads[i].stack);
    }
    for (uint32_t i = 0; i < w->nfn; i++)
        free(w->fnames[i]);
    free(w->fnames);
    free(w->threads);
    xray_map_free(&w->fids);
    xray_map_free(&w->thread_ix);
    free(w->path);
    free(w->map_path);
    free(w);
}
