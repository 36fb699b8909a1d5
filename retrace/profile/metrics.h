/* apitrace's profiling metrics: the selection and the passes are public (replay.h: its
 * syntax and output); here the backends and the replay's hooks (core/replay.c).
 *
 * Backends: `opengl` (metrics_opengl.c: CPU Start/Duration from the CPU clock, or
 * GL_TIMESTAMP when a GPU time is asked for, as apitrace; GPU Start/Duration from
 * GL_TIMESTAMP queries, else GL_TIME_ELAPSED; GPU Disjoint (EXT_disjoint_timer_query);
 * Pixels Drawn (GL_SAMPLES_PASSED); VSIZE and RSS from /proc/self/stat).
 * `GL_AMD_performance_monitor` and `GL_INTEL_performance_query` (metrics_ext.h): the
 * driver's counters for frames and draw calls, "not supported" when the context lacks
 * the extension (llvmpipe lacks both), as apitrace says. The backends take their passes
 * in turn, in the order the selection first names them (metrics_select.c). Metrics the
 * context lacks are warned about and left out ("Warning: Metric GPU Duration not
 * enabled (error 1)."), as apitrace does.
 *
 * Boundaries: a frame runs from the first context made current (then from each frame's
 * end, just before its swap) to the next frame end; a context switch ends it early
 * (apitrace's pausePass). Calls: GL calls apitrace's replayer profiles (not inside
 * display lists, not between glBegin and glEnd; glBegin lasts until glEnd); draw calls:
 * apitrace's draws (glDraw*Arrays*, glDraw*Elements*, glCallList(s), glClear, glRect*,
 * glDrawPixels, glBlitFramebuffer*, glDrawTransformFeedback*, glEvalMesh*, glBegin,
 * glDispatchCompute*).
 *
 * GPU results are read at each frame end (waiting for them), as apitrace does. Two
 * passes over the trace when Pixels Drawn (or GPU Duration without timestamps) is asked
 * for frames and for calls: the frames' in the first, the calls' in the second.
 *
 * Not thread-safe: the replay runs every traced thread on one thread when metrics are on. */
#ifndef RETRACE_METRICS_H
#define RETRACE_METRICS_H

#include <stdbool.h>

#include "gt_model.h"
#include "replay.h"

/* The replay's hooks (core/replay.c). Around anything that may change the current
 * context (a MakeCurrent call, a switch of traced thread): */
void metrics_before_switch(metrics *mx);
void metrics_after_switch(metrics *mx);
/* Around each replayed call (GL or not; the metrics pick theirs). */
void metrics_call_begin(metrics *mx, const gt_call *c);
void metrics_call_end(metrics *mx, const gt_call *c);
/* A frame ends (before its swap). */
void metrics_frame_end(metrics *mx);
/* An SDL context is about to be deleted (its results are read first when current). */
void metrics_context_destroyed(metrics *mx, void *sdl_ctx);
/* The end of a pass, with the last context still current: the last frame ends, every
 * result of the current context is read. Other contexts' are read by
 * metrics_drain_current while each is current. */
void metrics_end_pass(metrics *mx);
void metrics_drain_current(metrics *mx);

#endif
