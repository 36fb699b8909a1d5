/* A recorded call's four events while the live timeline may run (gltrace_runtime.h
 * calls these when it is not off for good): the trace writer's, and the timeline's
 * hooks around the real call (timeline_live.h). */
#include "gltrace_runtime.h"
#include "timeline_live.h"

/* Fake mode (gltrace_runtime.h): set while a thread writes a frame range's snapshot. */
__thread unsigned gltrace_t_fake __attribute__((tls_model("initial-exec")));
__thread uint64_t gltrace_t_fake_ret __attribute__((tls_model("initial-exec")));

/* The call being entered on this thread, for the timeline once its number is known
 * (end_enter): nothing records between a thread's begin_enter and end_enter. */
static __thread const gt_func_sig *t_sig;
static __thread uint32_t t_thread;
static __thread int t_timed;

void gltrace_begin_enter_timed(at_writer *w, const gt_func_sig *sig, unsigned flags)
{
    uint32_t thread = gltrace_thread_no();
    t_timed = gltrace_timeline_ready() && !(flags & AT_WRITER_FAKE);
    t_sig = sig;
    t_thread = thread;
    at_writer_begin_enter(w, sig, thread, flags & ~(unsigned)AT_WRITER_LATE);
}

uint32_t gltrace_end_enter_timed(at_writer *w)
{
    uint32_t no = at_writer_end_enter(w);
    if (__builtin_expect(!gltrace_timeline_off(), 0) && t_sig) {
        gltrace_timeline_entered(t_sig, no, t_thread, t_timed);
        t_sig = NULL;
        gltrace_timeline_started();
    }
    return no;
}

void gltrace_begin_leave_timed(at_writer *w, uint32_t call_no)
{
    if (__builtin_expect(!gltrace_timeline_off(), 0))
        gltrace_timeline_returned(call_no);
    at_writer_begin_leave(w, call_no);
}

void gltrace_end_leave_timed(at_writer *w)
{
    at_writer_end_leave(w);
    if (__builtin_expect(!gltrace_timeline_off(), 0))
        gltrace_timeline_left();
}
