#include "gt_timeline_frame.h"

int gt_tl_frame_strs_init(gt_timeline *tl, gt_tl_frame_strs *s)
{
    const gt_tl_str bad = (gt_tl_str)-1;
    s->frame = gt_tl_intern_cstr(tl, "frame");
    s->gl = gt_tl_intern_cstr(tl, "gl");
    s->ms = gt_tl_intern_cstr(tl, "ms");
    s->calls = gt_tl_intern_cstr(tl, "calls");
    return s->frame == bad || s->gl == bad || s->ms == bad || s->calls == bad ? -1 : 0;
}

gt_tl_event gt_tl_frame_counter(const gt_tl_frame_strs *s, gt_tl_arg args[2], uint64_t pid,
                                uint64_t tid, int64_t start, int64_t end, uint64_t calls)
{
    args[0] = (gt_tl_arg){.name = s->ms, .kind = GT_TL_ARG_DOUBLE, .v.d = (double)(end - start) / 1e6};
    args[1] = (gt_tl_arg){.name = s->calls, .kind = GT_TL_ARG_U64, .v.u = calls};
    return (gt_tl_event){.kind = GT_TL_COUNTER, .ts = end, .pid = pid, .tid = tid, .cat = s->gl,
                         .name = s->frame, .nargs = 2, .args = args};
}
