/* A recorded call's four events (gltrace_runtime.h): the trace writer's, and the live
 * timeline's hooks around the real call (timeline_live.h), each behind one predictable
 * branch while there is no timeline. */
#include "gltrace_runtime.h"
#include "timeline_live.h"

uint32_t gltrace_begin_enter(at_writer *w, const gt_func_sig *sig, unsigned flags)
{
    uint32_t thread = gltrace_thread_no();
    if (__builtin_expect(gltrace_timeline_off(), 1))
        return at_writer_begin_enter(w, sig, thread, flags);
    int timed = gltrace_timeline_ready() && !(flags & AT_WRITER_FAKE);
    uint32_t no = at_writer_begin_enter(w, sig, thread, flags);
    gltrace_timeline_entered(sig, no, thread, timed);
    return no;
}

void gltrace_end_enter(at_writer *w)
{
    at_writer_end_enter(w);
    if (__builtin_expect(!gltrace_timeline_off(), 0))
        gltrace_timeline_started();
}

void gltrace_begin_leave(at_writer *w, uint32_t call_no)
{
    if (__builtin_expect(!gltrace_timeline_off(), 0))
        gltrace_timeline_returned(call_no);
    at_writer_begin_leave(w, call_no);
}

void gltrace_end_leave(at_writer *w)
{
    at_writer_end_leave(w);
    if (__builtin_expect(!gltrace_timeline_off(), 0))
        gltrace_timeline_left();
}
