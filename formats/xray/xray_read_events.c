/* The reader's common services: warnings and errors with offsets, TSC to
 * nanoseconds, the thread table, function names, and the events it sends. */
#include "xray_read_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_grow.h"

int xr_fail(xr_reader *r, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gt_error_vat(r->err, r->name, off, fmt, ap);
    va_end(ap);
    return -1;
}

int xr_deviation(xr_reader *r, size_t off, const char *fmt, ...)
{
    char msg[GT_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->opts->strict)
        return xr_fail(r, off, "%s (strict)", msg);
    if (!r->opts->warn || r->nwarn > XR_MAX_WARNINGS)
        return 0;
    char line[GT_ERROR_MAX + 64];
    if (r->nwarn++ == XR_MAX_WARNINGS)
        snprintf(line, sizeof line, "%s: further warnings suppressed", r->name);
    else
        snprintf(line, sizeof line, "%s: offset %zu: %s", r->name, off, msg);
    r->opts->warn(r->opts->warn_ctx, line);
    return 0;
}

const uint8_t *xr_fetch(xr_reader *r, size_t off, size_t len)
{
    if (off > r->size || len > r->size - off || r->fd < 0) {
        xr_fail(r, off, "read of %zu bytes past the end of the log", len);
        return NULL;
    }
    size_t want = len > XR_WINDOW ? len : XR_WINDOW;
    if (want > r->size - off)
        want = r->size - off;
    if (want > r->buf_cap) {
        uint8_t *b = realloc(r->buf, want);
        if (!b) {
            xr_fail(r, off, "out of memory (a record of %zu bytes)", len);
            return NULL;
        }
        r->buf = b;
        r->buf_cap = want;
    }
    for (size_t got = 0; got < want;) {
        ssize_t n = pread(r->fd, r->buf + got, want - got, (off_t)(off + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            xr_fail(r, off + got, "read error: %s", n < 0 ? strerror(errno) : "the file shrank");
            return NULL;
        }
        got += (size_t)n;
    }
    r->win = r->buf;
    r->win_off = off;
    r->win_len = want;
    return r->buf;
}

int xr_bad_record(xr_reader *r, size_t off, const char *what)
{
    if (++r->bad_run > XR_MAX_BAD_RECORDS)
        return xr_fail(r, off, "%u records in a row skipped (%s): not XRay records; giving up",
                       XR_MAX_BAD_RECORDS, what);
    return xr_deviation(r, off, "%s; skipped", what);
}

/* ns = (tsc - base) * 1e9 / frequency, exact. The base is 0, so times stay on
 * the TSC's own clock (close to CLOCK_MONOTONIC with a right frequency), unless
 * the first TSC converted would use more than half of int64: then it is that TSC. */
int xr_ts(xr_reader *r, uint64_t tsc, size_t off, int64_t *ns)
{
    uint64_t freq = r->h.cycle_frequency ? r->h.cycle_frequency : 1000000000u;
    if (!r->base_set) {
        r->base_set = 1;
        if ((unsigned __int128)tsc * 1000000000u / freq > INT64_MAX / 2)
            r->base_tsc = tsc;
    }
    __int128 v = ((__int128)tsc - (__int128)r->base_tsc) * 1000000000 / (__int128)freq;
    if (v > INT64_MAX || v < INT64_MIN)
        return xr_fail(r, off, "timestamp counter %llu at %llu Hz is out of the int64 ns range",
                       (unsigned long long)tsc, (unsigned long long)freq);
    *ns = (int64_t)v;
    return 0;
}

/* Threads are allocated one by one: pending entries and buffers keep pointers. */
xr_thread *xr_thread_get(xr_reader *r, uint64_t pid, uint64_t tid)
{
    uint64_t ix;
    if (xray_map_get(&r->thread_ix, pid, tid, &ix))
        return r->threads[ix];
    if (GT_GROW(r->threads, r->cap, r->nthreads + 1, 16) != 0)
        goto oom;
    xr_thread *t = malloc(sizeof *t);
    if (!t || xray_map_put(&r->thread_ix, pid, tid, r->nthreads) != 0) {
        free(t);
        goto oom;
    }
    *t = (xr_thread){.pid = pid, .tid = tid};
    return r->threads[r->nthreads++] = t;
oom:
    gt_error_set(r->err, "%s: out of memory", r->name);
    return NULL;
}

static gt_tl_str fn_name(xr_reader *r, uint32_t fid)
{
    uint64_t v;
    if (xray_map_get(&r->names, fid, 0, &v))
        return (gt_tl_str)v;
    const char *sym = r->map ? gt_xray_instrmap_name(r->map, fid) : NULL;
    char buf[32];
    if (!sym) {
        snprintf(buf, sizeof buf, "fn#%u", fid);
        sym = buf;
    }
    gt_tl_str s = gt_tl_intern_cstr(r->tl, sym);
    if (s == (gt_tl_str)-1 || xray_map_put(&r->names, fid, 0, s) != 0) {
        gt_error_set(r->err, "%s: out of memory", r->name);
        return (gt_tl_str)-1;
    }
    return s;
}

static int emit(xr_reader *r, gt_tl_event *ev, xr_thread *th, uint64_t tsc, size_t off)
{
    ev->pid = th->pid;
    ev->tid = th->tid;
    if (xr_ts(r, tsc, off, &ev->ts) != 0)
        return -1;
    r->nevents++;
    r->bad_run = 0;
    return gt_tl_emit(r->sink, r->tl, ev, r->err);
}

int xr_flush_pending(xr_reader *r)
{
    xr_pending *p = &r->pending;
    if (!p->active)
        return 0;
    p->active = 0;
    gt_tl_arg args[XR_MAX_ARGS];
    for (uint32_t i = 0; i < p->nargs && i < XR_MAX_ARGS; i++)
        args[i] = (gt_tl_arg){.name = r->s_arg[i], .kind = GT_TL_ARG_U64, .v.u = p->args[i]};
    gt_tl_event ev = {.kind = GT_TL_BEGIN, .cat = r->s_cat, .name = fn_name(r, p->fid),
                      .nargs = p->nargs < XR_MAX_ARGS ? p->nargs : XR_MAX_ARGS, .args = args};
    if (ev.name == (gt_tl_str)-1)
        return -1;
    p->th->depth++;
    return emit(r, &ev, p->th, p->tsc, p->off);
}

int xr_entry(xr_reader *r, xr_thread *th, uint32_t fid, uint64_t tsc, size_t off)
{
    if (xr_flush_pending(r) != 0)
        return -1;
    r->pending = (xr_pending){.active = 1, .fid = fid, .tsc = tsc, .off = off, .th = th};
    return 0;
}

int xr_arg(xr_reader *r, uint64_t arg, size_t off)
{
    xr_pending *p = &r->pending;
    if (!p->active)
        return xr_deviation(r, off, "call argument without a function entry; ignored");
    if (p->nargs == XR_MAX_ARGS &&
        xr_deviation(r, off, "more than %d call arguments; the rest ignored", XR_MAX_ARGS) != 0)
        return -1;
    if (p->nargs < XR_MAX_ARGS)
        p->args[p->nargs] = arg;
    if (p->nargs <= XR_MAX_ARGS)
        p->nargs++;
    return 0;
}

int xr_exit(xr_reader *r, xr_thread *th, uint32_t fid, uint64_t tsc, size_t off)
{
    if (xr_flush_pending(r) != 0)
        return -1;
    if (th->depth)
        th->depth--;
    else if (xr_deviation(r, off, "exit of function %u on thread %llu without an entry", fid,
                          (unsigned long long)th->tid) != 0)
        return -1;
    gt_tl_event ev = {.kind = GT_TL_END, .cat = r->s_cat, .name = fn_name(r, fid)};
    if (ev.name == (gt_tl_str)-1)
        return -1;
    return emit(r, &ev, th, tsc, off);
}

int xr_event(xr_reader *r, xr_thread *th, int typed, uint32_t type, uint64_t tsc,
             const uint8_t *data, uint32_t len, size_t off)
{
    if (xr_flush_pending(r) != 0)
        return -1;
    gt_tl_arg args[2] = {
        {.name = r->s_data, .kind = GT_TL_ARG_STRING, .v.s = {(const char *)data, len}},
        {.name = r->s_type, .kind = GT_TL_ARG_U32, .v.u = type},
    };
    gt_tl_event ev = {.kind = GT_TL_INSTANT, .cat = r->s_cat,
                      .name = typed ? r->s_typed : r->s_custom, .scope = GT_TL_SCOPE_THREAD,
                      .nargs = typed ? 2 : 1, .args = args};
    return emit(r, &ev, th, tsc, off);
}
