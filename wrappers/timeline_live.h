/* The live timeline of a recording (`gltrace --timeline=OUT.fxt`, GLTRACE_TIMELINE):
 * beside the trace, an FXT file with the CPU duration of every recorded call as the
 * program ran it (wrappers/timeline_live.c).
 *
 * Every recorded call, generated or hand-written, writes its events through the
 * recording layer (gltrace_runtime.h: gltrace_begin_enter ... gltrace_end_leave,
 * record_call.c), which calls the hooks below around the trace writer's: the clock is
 * read after the enter event is written and before the leave event starts, around
 * the real call, outside any lock. While the timeline is off, a call pays one
 * predictable branch per event (gltrace_timeline_off).
 *
 * The runtime calls the flush and finish functions from its exit paths and
 * crash-safety net, beside the matching calls for the trace writer. */
#ifndef TIMELINE_LIVE_H
#define TIMELINE_LIVE_H

#include <stdatomic.h>
#include <stdint.h>

#include "gt_model.h"

/* The timeline's state: written by timeline_live.c only, read on every recorded call. */
enum { GLTRACE_TL_UNINIT, GLTRACE_TL_ON, GLTRACE_TL_OFF };
extern _Atomic int gltrace_timeline_state;

/* Whether the timeline is off for good in this process (no GLTRACE_TIMELINE, or its
 * file failed): then the hooks below need not be called. */
static inline int gltrace_timeline_off(void)
{
    return atomic_load_explicit(&gltrace_timeline_state, memory_order_relaxed) == GLTRACE_TL_OFF;
}

/* A recorded call's hooks, in its order, while the timeline is not off:
 *   ready     before the enter event: opens the timeline at the first call; whether
 *             calls are timed now;
 *   entered   after the enter event was begun (call number no; timed: ready said so
 *             and the call is not fake: fake calls get no event);
 *   started   after the enter event ended: the real call starts;
 *   returned  before the leave event of call no begins: the real call has returned;
 *   left      after the leave event ended: the call's timeline event is written. */
int gltrace_timeline_ready(void);
void gltrace_timeline_entered(const gt_func_sig *sig, uint32_t no, uint32_t thread, int timed);
void gltrace_timeline_started(void);
void gltrace_timeline_returned(uint32_t no);
void gltrace_timeline_left(void);

/* Writes the trace's pending calls, then the timeline's buffered records (whole
 * records only). Never waits: when a thread is inside the trace writer or an event,
 * nothing is written (signal handlers, the flusher thread). */
void gltrace_timeline_flush(void);
/* The same from a signal handler: nothing it does allocates. */
void gltrace_timeline_flush_in_signal(void);
/* A dying process's handler: hold takes the timeline's lock (waiting a bounded time
 * for another thread; 0 when not had, also when the caller's own thread holds it),
 * the caller writes the trace, then flush_held writes the timeline and keeps the lock,
 * so that no thread starts a write the death would cut short (a torn last record). */
int gltrace_timeline_hold_dying(void);
void gltrace_timeline_flush_held(void);

/* Writes everything and closes the file; later calls go unrecorded in the
 * timeline, as they do in the trace. Call it after the trace's own exit flush.
 * Never waits long (about 200 ms at most for a thread inside an event or the trace
 * writer, then the timeline's tail is lost): it runs from exit handlers, _exit and
 * _Exit. */
void gltrace_timeline_finish(void);

#endif
