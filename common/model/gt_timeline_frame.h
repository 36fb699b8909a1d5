/* The frame counter of gltrace's two timelines, the recorder's live one and glretrace's,
 * so that one program's recorded and replayed timelines show the same track: at each
 * frame's end, a COUNTER "frame" (category "gl", on the thread that ended the frame)
 * with the series `ms` (the frame's duration in milliseconds: since the previous
 * frame's end, or the frame's first call) and `calls` (the calls in the frame). */
#ifndef GT_TIMELINE_FRAME_H
#define GT_TIMELINE_FRAME_H

#include "gt_timeline.h"

typedef struct gt_tl_frame_strs {
    gt_tl_str frame, gl, ms, calls;
} gt_tl_frame_strs;

/* Interns the counter's strings in TL: 0, or -1 when out of memory. */
int gt_tl_frame_strs_init(gt_timeline *tl, gt_tl_frame_strs *s);

/* The counter of the frame from START to END (ns) of CALLS calls, on track PID/TID;
 * its series are written to ARGS, which the event points to. */
gt_tl_event gt_tl_frame_counter(const gt_tl_frame_strs *s, gt_tl_arg args[2], uint64_t pid,
                                uint64_t tid, int64_t start, int64_t end, uint64_t calls);

#endif
