/* When a recording with frame ranges or a trigger writes (`gltrace --frames`,
 * `--trigger`): the decisions at each frame boundary, kept apart from the recorder
 * that acts on them, so they can be tested alone.
 *
 * Frames are counted on the program's first thread that shows a window (its swaps);
 * frame N ends with its swap. A range A-B is written from frame A's first call to
 * frame B's swap. With a trigger (a signal), the first signal starts writing at the
 * next frame boundary and the second stops it at the next one; with "+N" each signal
 * writes N frames (a signal while they are written is ignored). Each written range
 * is a trace of its own. */
#ifndef GT_CAPTURE_PLAN_H
#define GT_CAPTURE_PLAN_H

#include <stdint.h>

#include "gt_frameranges.h"

enum { GT_CAPTURE_STOP = 1, GT_CAPTURE_START = 2 };

#define GT_CAPTURE_OPEN_END UINT64_MAX

typedef struct gt_capture_plan {
    gt_frameranges ranges;
    int by_trigger;      /* ranges start at triggers, not at frame numbers */
    size_t next;         /* the next of ranges.r to start */
    int writing;
    uint64_t first, last; /* the range being written; last GT_CAPTURE_OPEN_END: until a trigger */
} gt_capture_plan;

/* by_trigger with numbered ranges is an error (-1, err set): a range is either
 * numbered or triggered. */
int gt_capture_init(gt_capture_plan *c, const gt_frameranges *r, int by_trigger, gt_error *err);
/* Before the program's first call: GT_CAPTURE_START when a range starts at frame 0. */
unsigned gt_capture_begin(gt_capture_plan *c);
/* Frame `ended` just ended (its swap returned); triggered: a trigger came since the
 * last boundary. Returns GT_CAPTURE_STOP (the range being written ended with this
 * frame), GT_CAPTURE_START (one begins with the next frame), both (stop, then start:
 * adjacent ranges) or 0. */
unsigned gt_capture_frame_end(gt_capture_plan *c, uint64_t ended, int triggered);
/* No range is left to write (numbered ranges only): the rest runs untraced. */
int gt_capture_done(const gt_capture_plan *c);

/* The trigger's signal from its name as users write it ("SIGUSR2", "USR2") or its
 * number; 0 when it names no signal. */
int gt_capture_signal(const char *name);

#endif
