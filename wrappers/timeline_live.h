/* The live timeline of a recording (`gltrace --timeline=OUT.fxt`, GLTRACE_TIMELINE):
 * beside the trace, an FXT file with the CPU duration of every recorded call as the
 * program ran it (wrappers/timeline_live.c).
 *
 * It needs no code in the wrappers: libgltrace.so is linked with
 * --wrap=at_writer_{begin,end}_{enter,leave} (recording.cmake), so every call that
 * reaches the trace writer, generated or hand-written, passes through
 * timeline_live.c, which reads CLOCK_MONOTONIC after the enter event is written
 * and before the leave event starts: around the real call, outside any lock.
 *
 * The runtime calls the functions below from its exit paths and crash-safety net,
 * beside the matching calls for the trace writer. */
#ifndef TIMELINE_LIVE_H
#define TIMELINE_LIVE_H

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
