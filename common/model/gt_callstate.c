#include "gt_callstate.h"

void gt_callstate_after(gt_callstate *s, gt_roles r, const gt_call *c)
{
    if (r.bits & (GT_ROLE_BEGIN | GT_ROLE_END)) {
        s->in_begin_end = (r.bits & GT_ROLE_BEGIN) != 0;
        if (!s->in_list) /* compiled into a list: it runs when the list is called */
            s->in_block = s->in_begin_end;
    }
    if (r.bits & (GT_ROLE_NEWLIST | GT_ROLE_ENDLIST))
        s->in_list = (r.bits & GT_ROLE_NEWLIST) != 0;
    if ((r.bits & GT_ROLE_PROGRAM) && r.arg >= 0 && (uint32_t)r.arg < c->num_args)
        s->program = (uint32_t)gt_value_uint(&c->args[r.arg]);
}
