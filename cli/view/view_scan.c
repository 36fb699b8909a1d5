/* One background pass over the trace for what the index does not hold: the draws of
 * each frame and the debug-group depth at each frame's start (groups may span frames,
 * so a frame read alone cannot know its depth). Until it is done, frames answer
 * "draws": null and calls count depth from their frame's start.
 * Also here: the CPU and GPU time of each frame, read from the timeline job's Chrome
 * JSON (view_profile_read), and where a frame range's state snapshot ends
 * (view_snapshot_find). */
#include <stdio.h>
#include <stdlib.h>

#include "at_reader.h"
#include "at_snapshot.h"
#include "chrome_reader.h"
#include "view.h"

/* Read before serving, not by the background pass: api/calls flags the snapshot's
 * calls from the first request on. The snapshot is written at a frame boundary before
 * the range's first call, with no frame-ending call in it: the marker is in frame 0,
 * and the read stops at frame 0's end (it costs what reading frame 0 costs). */
void view_snapshot_find(view_server *v)
{
    v->snap_first = -1;
    if (!v->ix)
        return;
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(v->trace, &ropt, &err);
    if (!r)
        return; /* the index was read: the requests will say why the trace is not */
    v->snap_first = at_snapshot_first_frame(r);
    gt_call *c = NULL;
    uint64_t n = 0;
    while (v->snap_first >= 0 && !v->snap_found && (c = at_reader_next(r))) {
        ++n;
        if (at_is_snapshot_end(c)) {
            v->snap_found = true;
            v->snap_end = c->no;
            v->snap_calls = n;
        }
        bool frame_end = (c->flags & GT_CALL_FLAG_END_FRAME) != 0;
        at_reader_release(r, c);
        if (frame_end)
            break;
    }
    if (v->snap_first >= 0 && !v->snap_found)
        fprintf(stderr, "gltrace view: note: %s: property gltrace.snapshot says a state "
                "snapshot comes first, but frame 0 has no end marker%s%s\n", v->trace,
                at_reader_error(r) ? ": " : "", at_reader_error(r) ? at_reader_error(r) : "");
    at_reader_close(r);
}

static void *scan_main(void *arg)
{
    view_server *v = arg;
    size_t n = v->ix->nframes;
    uint32_t *draws = calloc(n ? n : 1, sizeof *draws);
    uint32_t *depth = calloc(n ? n : 1, sizeof *depth);
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = (draws && depth) ? at_reader_open(v->trace, &ropt, &err) : NULL;
    if (!r) {
        fprintf(stderr, "gltrace view: note: no draw counts: %s\n",
                draws && depth ? err.msg : "out of memory");
        free(draws);
        free(depth);
        return NULL;
    }
    size_t f = 0;
    uint32_t d = 0;
    gt_call *c;
    while (!atomic_load(&v->stopping) && (c = at_reader_next(r))) {
        if (f < n) {
            if (c->flags & GT_CALL_FLAG_RENDER)
                ++draws[f];
            if (c->flags & GT_CALL_FLAG_MARKER_PUSH)
                ++d;
            else if ((c->flags & GT_CALL_FLAG_MARKER_POP) && d > 0)
                --d;
            if ((c->flags & GT_CALL_FLAG_END_FRAME) && ++f < n)
                depth[f] = d;
        }
        at_reader_release(r, c);
    }
    /* a damaged trace: the frames read are right, the rest stay 0 */
    if (at_reader_error(r))
        fprintf(stderr, "gltrace view: note: draw counts stop at frame %zu: %s\n", f,
                at_reader_error(r));
    at_reader_close(r);
    if (atomic_load(&v->stopping)) {
        free(draws);
        free(depth);
        return NULL;
    }
    pthread_mutex_lock(&v->scan_lock);
    v->frame_draws = draws;
    v->frame_depth = depth;
    pthread_mutex_unlock(&v->scan_lock);
    return NULL;
}

int view_scan_start(view_server *v)
{
    if (!v->ix)
        return -1;
    if (pthread_create(&v->scan_thread, NULL, scan_main, v) != 0)
        return -1;
    v->scan_started = true;
    return 0;
}

void view_scan_join(view_server *v)
{
    /* v->stopping is set first: the pass ends at its next call */
    if (v->scan_started)
        pthread_join(v->scan_thread, NULL);
    v->scan_started = false;
}

/* ---- CPU and GPU time per frame, from the timeline ------------------------------------ */

typedef struct profile_sums {
    view_server *v;
    gt_tl_str gl, gpu, frame; /* ids interned before reading: the reader's are the same */
    uint64_t *cpu, *gpu_ns;
    uint64_t gpu_events;
} profile_sums;

static int profile_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)tl;
    profile_sums *p = self;
    if (atomic_load_explicit(&p->v->stopping, memory_order_relaxed)) {
        gt_error_set(err, "stopped");
        return -1;
    }
    if (ev->kind != GT_TL_COMPLETE || (ev->cat != p->gl && ev->cat != p->gpu) || ev->dur <= 0)
        return 0;
    const gt_tl_arg *a = NULL;
    for (uint32_t i = 0; i < ev->nargs && !a; ++i)
        if (ev->args[i].name == p->frame)
            a = &ev->args[i];
    if (!a)
        return 0;
    uint64_t f;
    switch (a->kind) {
    case GT_TL_ARG_I32:
    case GT_TL_ARG_I64:
        if (a->v.i < 0)
            return 0;
        f = (uint64_t)a->v.i;
        break;
    case GT_TL_ARG_U32:
    case GT_TL_ARG_U64: f = a->v.u; break;
    case GT_TL_ARG_DOUBLE:
        if (!(a->v.d >= 0 && a->v.d < 1e18))
            return 0;
        f = (uint64_t)a->v.d;
        break;
    default: return 0;
    }
    if (f >= p->v->ix->nframes)
        return 0;
    if (ev->cat == p->gl) {
        p->cpu[f] += (uint64_t)ev->dur;
    } else {
        p->gpu_ns[f] += (uint64_t)ev->dur;
        p->gpu_events++;
    }
    return 0;
}

int view_profile_read(view_server *v, const char *json_path, gt_error *err)
{
    if (!v->ix) {
        gt_error_set(err, "no index");
        return -1;
    }
    size_t n = v->ix->nframes ? v->ix->nframes : 1;
    profile_sums p = {.v = v, .cpu = calloc(n, sizeof(uint64_t)),
                      .gpu_ns = calloc(n, sizeof(uint64_t))};
    gt_timeline tl;
    if (!p.cpu || !p.gpu_ns || gt_timeline_init(&tl) != 0) {
        free(p.cpu);
        free(p.gpu_ns);
        gt_error_set(err, "out of memory");
        return -1;
    }
    p.gl = gt_tl_intern_cstr(&tl, "gl");
    p.gpu = gt_tl_intern_cstr(&tl, "gpu");
    p.frame = gt_tl_intern_cstr(&tl, "frame");
    gt_tl_sink sink = {.self = &p, .event = profile_event};
    gt_tl_read_opts opts = {0};
    int rc = -1;
    if (p.gl == (gt_tl_str)-1 || p.gpu == (gt_tl_str)-1 || p.frame == (gt_tl_str)-1)
        gt_error_set(err, "out of memory");
    else
        rc = gt_chrome_read(json_path, &tl, &sink, &opts, err);
    gt_timeline_free(&tl);
    if (rc != 0) {
        free(p.cpu);
        free(p.gpu_ns);
        return -1;
    }
    if (!p.gpu_events) { /* no timer queries (or no GPU work at all): unknown */
        free(p.gpu_ns);
        p.gpu_ns = NULL;
    }
    /* published once: api/frames reads the arrays after letting go of the lock */
    pthread_mutex_lock(&v->scan_lock);
    bool first = !v->profile_known;
    if (first) {
        v->frame_cpu_ns = p.cpu;
        v->frame_gpu_ns = p.gpu_ns;
        v->profile_known = true;
    }
    pthread_mutex_unlock(&v->scan_lock);
    if (!first) {
        free(p.cpu);
        free(p.gpu_ns);
    }
    return 0;
}
