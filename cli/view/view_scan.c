/* One background pass over the trace for what the index does not hold: the draws of
 * each frame and the debug-group depth at each frame's start (groups may span frames,
 * so a frame read alone cannot know its depth). Until it is done, frames answer
 * "draws": null and calls count depth from their frame's start. */
#include <stdio.h>
#include <stdlib.h>

#include "at_reader.h"
#include "view.h"

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
