#include "gt_callstate.h"

#define GL_COMPILE_AND_EXECUTE 0x1301

static uint64_t arg_u64(const gt_call *c, int i)
{
    return i >= 0 && (uint32_t)i < c->num_args ? gt_value_uint(&c->args[i]) : 0;
}

void gt_callstate_after(gt_callstate *s, gt_roles r, const gt_call *c)
{
    /* glBegin and glEnd compiled into a list (GL_COMPILE) run only when it is called */
    if ((r.bits & GT_ROLE_BEGIN) && gt_callstate_executes(s))
        s->in_begin_end = true;
    if ((r.bits & GT_ROLE_END) && gt_callstate_executes(s))
        s->in_begin_end = false;
    if (r.bits & GT_ROLE_NEWLIST) {
        s->in_list = true;
        s->list_executes = arg_u64(c, r.arg) == GL_COMPILE_AND_EXECUTE;
    }
    if (r.bits & GT_ROLE_ENDLIST)
        s->in_list = s->list_executes = false;
    if ((r.bits & GT_ROLE_PROGRAM) && r.arg >= 0 && (uint32_t)r.arg < c->num_args)
        s->program = (uint32_t)gt_value_uint(&c->args[r.arg]);
}
