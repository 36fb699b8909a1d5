/* What a sequence of calls leaves a GL context in, as the tools that follow calls need
 * it (the replayer, its profiler, `gltrace trim`): inside glBegin/glEnd, compiling a
 * display list, the current program. Each tool keeps one per context or thread, as
 * it follows them, and steps it after each call by the call's roles (gt_roles.h). */
#ifndef GT_CALLSTATE_H
#define GT_CALLSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_model.h"
#include "gt_roles.h"

typedef struct gt_callstate {
    bool in_list;      /* compiling a display list */
    bool in_begin_end; /* between a glBegin and its glEnd, compiled into a list or not:
                        * the replayer reads no GL state there */
    bool in_block;     /* between a glBegin and its glEnd called outside display lists */
    uint32_t program;  /* the current program */
} gt_callstate;

/* Steps S past call C of roles R. */
void gt_callstate_after(gt_callstate *s, gt_roles r, const gt_call *c);

#endif
