/* The recording runtime inside libgltrace.so, as the generated wrappers see it.
 *
 * Each generated wrapper (build/gen/wrappers/wrappers_*.gen.c) does, for glClear:
 *
 *   static glClear_fn gt_real;                            -- resolved on first use
 *   if (!gt_real) gt_real = (glClear_fn)gltrace_real("glClear");
 *   at_writer *gt_w = gltrace_writer();                   -- NULL while not recording
 *   if (!gt_w) { if (gt_real) gt_real(mask); return; }
 *   ...prehooks: hand-written, may write fake calls before this one...
 *   gltrace_begin_enter(gt_w, &gtfn_glClear, 0);
 *   ...arguments...
 *   gltrace_backtrace(gt_w, gtfn_glClear.id, "glClear");
 *   uint32_t gt_no = gltrace_end_enter(gt_w);           -- placed in the stream: numbered
 *   if (gt_real) gt_real(mask);                           -- never under the writer lock
 *   gltrace_begin_leave(gt_w, gt_no); ...outputs, return... gltrace_end_leave(gt_w);
 *   ...hooks...
 * A function the driver lacks (gt_real NULL) is recorded and answers zeroes.
 *
 * A late function (specs/emit_c.py says which: scalar arguments only, no drawing,
 * GPU work or waiting) is recorded after its real call while gltrace_record_late()
 * says so: its events then go into the trace together (AT_WRITER_LATE, one lock):
 *
 *   unsigned gt_late = gltrace_record_late();
 *   if (gt_late && gt_real) gt_real(x, y, z);
 *   gltrace_begin_enter(gt_w, &gtfn_glVertex3f, gt_late); ...as above, then
 *   if (!gt_late && gt_real) gt_real(x, y, z); ...
 * The others are written before they run, so a call that crashes or hangs the driver
 * is in the trace.
 */
#ifndef GLTRACE_RUNTIME_H
#define GLTRACE_RUNTIME_H

#include <stdint.h>

#include "at_writer.h"
#include "at_writer_inline.h"
#include "timeline_live.h"

/* The library is built with hidden visibility: only what carries this is exported (the
 * wrappers, the overrides of dlopen, exec* and GetProcAddress). */
#define GLTRACE_EXPORT __attribute__((visibility("default")))

/* The process's trace writer, opened on first use (path from GLTRACE_OUTPUT, else
 * "<program>.trace" with a numbered suffix when taken), flushed at exit. NULL when
 * recording is off or the file could not be opened (a message says why, once). */
at_writer *gltrace_writer(void);

/* The writer if recording has started, without starting it (signal handlers). */
at_writer *gltrace_writer_if_open(void);

/* The trace file this process writes ("" before it opened one): the live timeline
 * (timeline_live.c) takes the main timeline only in the process with the main trace. */
const char *gltrace_trace_path(void);

/* Installs the crash-safety net (runtime_safety.c): flush on fatal signals and on a
 * timer. Called when a process opens its trace file (signal handlers are installed
 * once per program; each process gets its own flusher thread). */
void gltrace_safety_start(void);

/* Writes the caller's stack as the call's backtrace when the function was chosen
 * with --backtrace / GLTRACE_BACKTRACE (backtrace.c). Cheap when it was not. */
void gltrace_backtrace(at_writer *w, uint32_t fid, const char *name);

/* A frame ended (the generated wrappers of END_FRAME functions call it after the real
 * call, recorded or not): frame ranges start and stop here (capture_frames.c). */
void gltrace_frame_end(void);

/* Objects made or deleted (the generated wrappers of the functions that create or
 * delete names of a registry namespace call these after the real call, recorded or
 * not; cls is an index into track_classes.gen.h). Followed only while frame ranges
 * are asked for (capture_track.c): otherwise one load and a branch. */
extern int gltrace_tracking;
void gltrace_track_names_slow(unsigned cls, int gone, long n, const uint32_t *names);

/* Whether what a call made is followed now: frame ranges are asked for, and the call is
 * not the snapshot's own (fake mode, below: it re-creates what is followed already). */
static inline int gltrace_tracking_now(void);

static inline void gltrace_track_names(unsigned cls, int gone, long n, const uint32_t *names)
{
    if (gltrace_tracking_now() && names && n > 0)
        gltrace_track_names_slow(cls, gone, n, names);
}

static inline void gltrace_track_name(unsigned cls, int gone, uint32_t name)
{
    if (gltrace_tracking_now() && name)
        gltrace_track_names_slow(cls, gone, 1, &name);
}

/* Fake mode (snapshot.c, frame ranges): while a thread writes the state snapshot it
 * calls our own wrappers to write its calls, and gltrace_t_fake is AT_WRITER_FAKE: the
 * wrappers then write the call marked fake and do not call the driver; a wrapper with a
 * result answers gltrace_t_fake_ret (the name, pointer or handle the snapshot is
 * re-creating). Hooks run as for the program's own calls. */
extern __thread unsigned gltrace_t_fake __attribute__((tls_model("initial-exec")));
extern __thread uint64_t gltrace_t_fake_ret __attribute__((tls_model("initial-exec")));

static inline int gltrace_faking(void) { return __builtin_expect(gltrace_t_fake != 0, 0); }

static inline int gltrace_tracking_now(void)
{
    return __builtin_expect(gltrace_tracking, 0) && !gltrace_faking();
}

/* Small per-process thread number, 0 for the first thread that made a GL call
 * (runtime_threads.c). Stored plus one; 0: not given yet. */
extern __thread uint32_t gltrace_t_thread_no __attribute__((tls_model("initial-exec")));
uint32_t gltrace_thread_no_slow(void);

static inline uint32_t gltrace_thread_no(void)
{
    uint32_t n = gltrace_t_thread_no;
    return __builtin_expect(n != 0, 1) ? n - 1 : gltrace_thread_no_slow();
}

/* A recorded call's events, in this order around the real call: the trace writer's
 * (at_writer_inline.h) with the caller's thread number, and while the live timeline
 * may run, its hooks too (record_call.c, timeline_live.h). Hand-written wrappers and
 * fake calls use these too, never the writer's directly. flags: AT_WRITER_FAKE,
 * AT_WRITER_LATE (from gltrace_record_late) or 0. end_enter gives the call number. */
void gltrace_begin_enter_timed(at_writer *w, const gt_func_sig *sig, unsigned flags);
uint32_t gltrace_end_enter_timed(at_writer *w);
void gltrace_begin_leave_timed(at_writer *w, uint32_t call_no);
void gltrace_end_leave_timed(at_writer *w);

static inline void gltrace_begin_enter(at_writer *w, const gt_func_sig *sig, unsigned flags)
{
    flags |= gltrace_t_fake;
    if (__builtin_expect(gltrace_timeline_off(), 1))
        atw_begin_enter(w, sig, gltrace_thread_no(), flags);
    else
        gltrace_begin_enter_timed(w, sig, flags);
}

static inline uint32_t gltrace_end_enter(at_writer *w)
{
    if (__builtin_expect(gltrace_timeline_off(), 1))
        return atw_end_enter(w);
    return gltrace_end_enter_timed(w);
}

static inline void gltrace_begin_leave(at_writer *w, uint32_t call_no)
{
    if (__builtin_expect(gltrace_timeline_off(), 1))
        atw_begin_leave(w, call_no);
    else
        gltrace_begin_leave_timed(w, call_no);
}

static inline void gltrace_end_leave(at_writer *w)
{
    if (__builtin_expect(gltrace_timeline_off(), 1))
        atw_end_leave(w);
    else
        gltrace_end_leave_timed(w);
}

/* AT_WRITER_LATE when a late function may be recorded after its real call: always,
 * except while the live timeline may time calls (it needs the enter event first). */
static inline unsigned gltrace_record_late(void)
{
    return gltrace_timeline_off() ? AT_WRITER_LATE : 0;
}


/* The real implementation of a GL, GLX or EGL function: looked up in the real
 * libraries (libGL/libGLX/libOpenGL/libEGL/libGLES*, glvnd or not), then through the
 * real glXGetProcAddressARB/eglGetProcAddress. A function that cannot be found is
 * reported once on stderr and returns NULL; the wrapper then returns zeroes. */
void *gltrace_real(const char *name);

/* One integer from the real glGetIntegerv (0 when it cannot be found): a hook's look
 * at the current context's state, which the program does not see. */
int gltrace_real_geti(unsigned pname);

/* Our wrapper for a GL/GLX/EGL function name (generated sorted table), or NULL. */
void *gltrace_wrapper(const char *name);

/* Whether GetProcAddress gives our wrapper for name even where the driver has none
 * (`provide`/`nodriver` in specs/annotations.txt: apitrace's marker and debug ones). */
int gltrace_provided(const char *name);

/* Our function of apitrace's own extensions (none in the registries: `tool` in
 * specs/annotations.txt) for a GetProcAddress name, given whatever the driver says;
 * NULL for any other name. */
void (*gltrace_tool(const char *name))(void);

#endif
