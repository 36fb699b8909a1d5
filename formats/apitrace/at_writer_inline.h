/* The writer's hot calls as inline functions, for callers on every recorded call
 * (the generated wrappers): the same calls as at_writer.h, whose functions are these
 * (at_writer.c, at_writer_values.c), without a function call per value. */
#ifndef AT_WRITER_INLINE_H
#define AT_WRITER_INLINE_H

#include "at_format.h"
#include "at_writer_internal.h"

/* The event's fields reset: the thread's scratch, or the stream once it has none. */
at_wevent *at_wevent_start_slow(at_writer *w, bool late);

AT_INLINE at_wevent *atw_start(at_writer *w, bool late)
{
    at_wevent *ev = &at_t_ev;
    if (__builtin_expect(!ev->buf, 0))
        return at_wevent_start_slow(w, late);
    ev->w = w;
    ev->epoch = atomic_load_explicit(&w->epoch, memory_order_acquire);
    ev->late = late;
    ev->leaving = ev->direct = ev->placed = ev->dropping = 0;
    ev->npatch = 0;
    ev->cur = ev->buf;
    ev->end = ev->buf + AT_SCRATCH;
    return ev;
}

AT_INLINE void atw_begin_enter(at_writer *w, const gt_func_sig *sig, uint32_t thread,
                                   unsigned flags)
{
    at_wevent *ev = atw_start(w, (flags & AT_WRITER_LATE) != 0);
    ev_byte_uint(ev, AT_EVENT_ENTER, thread);
    ev_uint(ev, sig->id);
    if (!at_sig_known(w, AT_SIG_FUNC, sig->id))
        at_wevent_sig(ev, AT_SIG_FUNC, sig->id, sig);
    if (flags & AT_WRITER_FAKE)
        ev_byte_uint(ev, AT_DETAIL_FLAGS, AT_FLAG_FAKE);
}

AT_INLINE uint32_t atw_end_enter(at_writer *w)
{
    (void)w;
    at_wevent *ev = &at_t_ev;
    ev_byte(ev, AT_DETAIL_END);
    if (ev->late) { /* placed with its leave event */
        ev->leaving = 1;
        if (!ev->direct)
            ev->leave_at = (uint32_t)(ev->cur - ev->buf);
        return AT_WRITER_NO_CALL;
    }
    at_wevent_commit(ev);
    return ev->call_no;
}

AT_INLINE void atw_begin_leave(at_writer *w, uint32_t call_no)
{
    at_wevent *ev = &at_t_ev;
    if (ev->w == w && ev->late && ev->leaving) {
        if (ev->direct) { /* its enter event was placed: the head goes now */
            ev_byte(ev, AT_EVENT_LEAVE);
            ev_uint(ev, ev->call_no);
        }
        return;
    }
    ev = atw_start(w, false);
    ev->epoch = ev->call_epoch; /* placed with its enter event's file, or dropped */
    ev->leaving = ev->placed = 1;
    ev_byte_uint(ev, AT_EVENT_LEAVE, call_no);
}

AT_INLINE void atw_end_leave(at_writer *w)
{
    (void)w;
    at_wevent *ev = &at_t_ev;
    ev_byte(ev, AT_DETAIL_END);
    at_wevent_commit(ev);
    ev->late = ev->leaving = 0;
}

AT_LEAF void atw_begin_arg(at_writer *w, uint32_t index)
{
    (void)w;
    ev_byte_uint(&at_t_ev, AT_DETAIL_ARG, index);
}

AT_INLINE void atw_begin_return(at_writer *w)
{
    (void)w;
    ev_byte(&at_t_ev, AT_DETAIL_RET);
}

AT_LEAF void atw_uint(at_writer *w, uint64_t v)
{
    (void)w;
    ev_byte_uint(&at_t_ev, AT_TYPE_UINT, v);
}

AT_LEAF void atw_sint(at_writer *w, int64_t v)
{
    (void)w;
    if (v < 0)
        ev_byte_uint(&at_t_ev, AT_TYPE_SINT, (uint64_t)0 - (uint64_t)v);
    else
        ev_byte_uint(&at_t_ev, AT_TYPE_UINT, (uint64_t)v);
}

AT_LEAF void atw_float(at_writer *w, float v)
{
    (void)w; /* little-endian hosts only, like apitrace */
    ev_tag_write(&at_t_ev, AT_TYPE_FLOAT, &v, sizeof v);
}

AT_LEAF void atw_double(at_writer *w, double v)
{
    (void)w;
    ev_tag_write(&at_t_ev, AT_TYPE_DOUBLE, &v, sizeof v);
}

AT_INLINE void atw_null(at_writer *w)
{
    (void)w;
    ev_byte(&at_t_ev, AT_TYPE_NULL);
}

AT_INLINE void atw_pointer(at_writer *w, uint64_t addr)
{
    if (!addr)
        atw_null(w);
    else
        ev_byte_uint(&at_t_ev, AT_TYPE_OPAQUE, addr);
}

AT_INLINE void atw_enum(at_writer *w, const gt_enum_sig *sig, int64_t v)
{
    at_wevent *ev = &at_t_ev;
    ev_byte_uint(ev, AT_TYPE_ENUM, sig->id);
    if (!at_sig_known(w, AT_SIG_ENUM, sig->id))
        at_wevent_sig(ev, AT_SIG_ENUM, sig->id, sig);
    atw_sint(w, v);
}

AT_INLINE void atw_bitmask(at_writer *w, const gt_bitmask_sig *sig, uint64_t v)
{
    at_wevent *ev = &at_t_ev;
    ev_byte_uint(ev, AT_TYPE_BITMASK, sig->id);
    if (!at_sig_known(w, AT_SIG_BITMASK, sig->id))
        at_wevent_sig(ev, AT_SIG_BITMASK, sig->id, sig);
    ev_uint(ev, v); /* raw, untagged: what apitrace writes and reads */
}

#endif
