/* The FDR writer's sink: function ids by name, threads, the nesting of slices
 * into entry and exit records, events, and the instrumentation map at finish.
 * The records themselves are written by xray_writer_records.c. */
#include "xray_writer_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"

static uint32_t small_id(gt_xray_writer *w, uint64_t id)
{
    return id <= INT32_MAX ? (uint32_t)id : 0x7fffffffu - w->synthetic++;
}

static xw_thread *thread_of(gt_xray_writer *w, uint64_t pid, uint64_t tid, gt_error *err)
{
    uint64_t ix;
    if (xray_map_get(&w->thread_ix, pid, tid, &ix))
        return &w->threads[ix];
    if (GT_GROW(w->threads, w->tcap, w->nthreads + 1, 8) != 0)
        return xw_oom(w, err), NULL;
    xw_thread *t = &w->threads[w->nthreads];
    *t = (xw_thread){.xpid = small_id(w, pid), .xtid = small_id(w, tid)};
    if (xray_map_put(&w->thread_ix, pid, tid, w->nthreads) != 0)
        return xw_oom(w, err), NULL;
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
        size_t cap = w->fcap; /* a uint32_t, as function ids are */
        if (GT_GROW(w->fnames, cap, cap + 1, 64) != 0)
            return xw_oom(w, err);
        w->fcap = (uint32_t)cap;
    }
    uint32_t len;
    const char *s = gt_tl_str_get(tl, name, &len);
    if (!(w->fnames[w->nfn] = strdup(len ? s : "(unnamed)")))
        return xw_oom(w, err);
    *fid = ++w->nfn;
    return xray_map_put(&w->fids, name, 0, *fid) != 0 ? xw_oom(w, err) : 0;
}

static int push(gt_xray_writer *w, xw_thread *t, xw_frame f, gt_error *err)
{
    if (GT_GROW(t->stack, t->cap, t->depth + 1, 16) != 0)
        return xw_oom(w, err);
    t->stack[t->depth++] = f;
    return 0;
}

/* Exits of the complete slices on top of the stack that end by ts. */
static int close_until(gt_xray_writer *w, xw_thread *t, int64_t ts, gt_error *err)
{
    while (t->depth && t->stack[t->depth - 1].complete && t->stack[t->depth - 1].end <= ts) {
        xw_frame *f = &t->stack[--t->depth];
        uint64_t at = (uint64_t)f->end < t->last_tsc ? t->last_tsc : (uint64_t)f->end;
        if (xw_function(w, t, XRAY_EXIT, f->fid, at, NULL, 0, err) != 0)
            return -1;
    }
    return 0;
}

/* Integer arguments become call arguments (in order); others have no place. */
static int int_arg(const gt_tl_arg *a, uint64_t *v)
{
    switch (a->kind) {
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64: *v = (uint64_t)a->v.i; return 1;
    case GT_TL_ARG_U32:
    case GT_TL_ARG_U64:
    case GT_TL_ARG_POINTER:
    case GT_TL_ARG_KOID: *v = a->v.u; return 1;
    case GT_TL_ARG_BOOL: *v = a->v.b; return 1;
    default: return 0;
    }
}

/* Checks time and order of an event on thread t, closing the complete slices
 * that end by its time. */
static int arrive(gt_xray_writer *w, xw_thread *t, const gt_tl_event *ev, gt_error *err)
{
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
    return 0;
}

/* An instant: a custom event whose payload is its "data" string argument, or
 * its name; "xray_typed_event" with a "type" argument is a typed event (what
 * the reader makes of XRay's events, so they survive a round trip). */
static int instant(gt_xray_writer *w, const gt_timeline *tl, xw_thread *t, const gt_tl_event *ev,
                   gt_error *err)
{
    uint32_t len;
    const char *name = gt_tl_str_get(tl, ev->name, &len);
    const gt_tl_arg *data = gt_tl_arg_find(tl, ev, "data");
    const gt_tl_arg *type = gt_tl_arg_find(tl, ev, "type");
    int typed = strcmp(name, "xray_typed_event") == 0 && type && type->kind == GT_TL_ARG_U32;
    const void *p = name;
    if (data && data->kind == GT_TL_ARG_STRING) {
        p = data->v.s.p;
        len = data->v.s.len;
    }
    return xw_event(w, t, typed, typed ? (uint16_t)type->v.u : 0, (uint64_t)ev->ts, p, len, err);
}

static int slice(gt_xray_writer *w, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    xw_thread *t = thread_of(w, ev->pid, ev->tid, err);
    if (!t)
        return -1;
    if (arrive(w, t, ev, err) != 0)
        return -1;
    if (ev->kind == GT_TL_INSTANT)
        return instant(w, tl, t, ev, err);
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
            return xw_function(w, t, XRAY_EXIT, t->stack[--t->depth].fid, (uint64_t)ev->ts, NULL, 0,
                               err);
        /* a named END whose BEGIN is not in the timeline (an XRay log whose first
         * buffers were lost): an exit record, as the log had */
        uint32_t fid;
        if (!ev->name) {
            gt_error_set(err, "%s: END at %lld on thread %llu with no open slice and no name",
                         w->path, (long long)ev->ts, (unsigned long long)ev->tid);
            return -1;
        }
        if (fid_of(w, tl, ev->name, &fid, err) != 0)
            return -1;
        return xw_function(w, t, XRAY_EXIT, fid, (uint64_t)ev->ts, NULL, 0, err);
    }
    uint32_t fid, nargs = 0;
    uint64_t args[XW_MAX_ARGS];
    for (uint32_t i = 0; i < ev->nargs && nargs < XW_MAX_ARGS; i++)
        if (int_arg(&ev->args[i], &args[nargs]))
            nargs++;
    if (fid_of(w, tl, ev->name, &fid, err) != 0 ||
        xw_function(w, t, XRAY_ENTRY, fid, (uint64_t)ev->ts, args, nargs, err) != 0)
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
    if (ev->kind != GT_TL_COMPLETE && ev->kind != GT_TL_BEGIN && ev->kind != GT_TL_END &&
        ev->kind != GT_TL_INSTANT)
        return 0;
    return slice(w, tl, ev, err);
}

static int writer_finish(void *self, const gt_timeline *tl, gt_error *err)
{
    gt_xray_writer *w = self;
    w->tl = tl;
    for (size_t i = 0; i < w->nthreads; i++)
        if (close_until(w, &w->threads[i], INT64_MAX, err) != 0 ||
            xw_flush_thread(w, &w->threads[i], err) != 0)
            return -1;
    if (!w->buffers && xw_empty_buffer(w, err) != 0)
        return -1;
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
