/* glretrace's profiling: times each replayed call (timing.h) and turns the calls into
 * timeline events (common/model/gt_timeline.h) sent to the FXT and/or Chrome JSON writers,
 * and/or into apitrace's text profile (profile_text.h).
 *
 * Events (pid TLR_PID; traced thread N is tid N + 1, named "thread N"; the GPU track
 * is GT_TL_GPU_TID(TLR_PID), named "GPU"; ts in ns from the start of the replay):
 *  - process name: the trace's process.name property, else the trace's file name;
 *  - one COMPLETE per call (cat "gl", name = the function, CPU ts/dur), args `call`
 *    (call number), `frame` (frame index) and, for GPU work, the call's scalar
 *    arguments named in specs/roles.txt (mode, count, instancecount, ...); `stack` when
 *    the call carries a backtrace. Calls not replayed (no replayer, no context) get
 *    theirs too, as short as doing nothing takes;
 *  - with --pgpu, a COMPLETE (cat "gpu") on the GPU track for each call doing GPU work
 *    (flagged render, dispatches, clears, blits, swaps; glBegin..glEnd as glBegin),
 *    with the same name, `call` and `frame`, once its queries are read (frames later);
 *  - an INSTANT "frame" (process scope, tid 0, arg `frame` = k) where frame k starts:
 *    at the first call, then at the end of each frame-ending call;
 *  - the frame counter the recorder's live timeline writes too (gt_timeline_frame.h):
 *    a COUNTER "frame" with `ms` and `calls` at each frame's end, on its thread's
 *    track (the calls after the last frame's end make one more, at the last call);
 *  - glPushDebugGroup/glPushGroupMarkerEXT .. pops: BEGIN/END (cat "marker", name = the
 *    message) around the push and pop calls; glDebugMessageInsert,
 *    glStringMarkerGREMEDY, glInsertEventMarkerEXT: INSTANT (thread scope);
 *  - STACK_FRAMEs: one per distinct (frame, caller chain), parents first.
 * GPU times on the CPU clock: see timing.h for the mapping and its error. */
#ifndef RETRACE_TIMELINE_REPLAY_H
#define RETRACE_TIMELINE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/replay_threads.h"
#include "gt_error.h"
#include "gt_model.h"

#define TLR_PID 1

typedef struct tlr_options {
    bool pcpu, pgpu;
    bool text;             /* apitrace's text profile on stdout */
    bool frame_times;      /* ... with when each frame's rendering finished (--pframe-times) */
    bool ppd, pmem;        /* ... with pixels drawn per draw call, memory use per call */
    int64_t min_cpu_ns;    /* text profile: calls faster than this are left out */
    const char *fxt_path;  /* NULL: none */
    const char *chrome_path;
    const char *input_path; /* the trace: refused as an output (common/util/gt_outfile.h) */
    const char *process_name;
    bool verbose;           /* a summary of events and GPU times on stderr at the end */
} tlr_options;

/* Opens the outputs. 0, or -1 with err set. */
int tlr_start(const tlr_options *o, gt_error *err);
/* Whether profiling is on (tlr_start succeeded, tlr_finish not called). */
bool tlr_active(void);
/* Before the replay turns to the calls of traced thread TH (every call is preceded by
 * one, and the first names the thread's track). */
void tlr_switch_thread(replay_thread *th);
/* Before the first call profiled: the frame it is in (calls before were not profiled). */
void tlr_first_frame(uint32_t frame);
/* Around the replay of a call (replayed false: skipped, no replayer or no context). */
void tlr_before(const gt_call *c, bool replayed);
void tlr_after(const gt_call *c);
/* An SDL context is about to be deleted. */
void tlr_context_destroyed(void *ctx);
/* Reads (waiting) the GPU queries of the current context: at the end of the replay the
 * main loop makes each traced thread's context current in turn and calls this. */
void tlr_drain_current(void);
/* Closes open slices, reports what GPU queries are still pending as lost, completes the
 * outputs and the text profile. 0, or -1 with err set when an output failed. */
int tlr_finish(gt_error *err);

#endif
