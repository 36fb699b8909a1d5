/* A text form of timeline events, one line per event, for tests and for
 * `gltrace convert --print`: tab-separated
 *   kind ts dur pid tid cat name id stack args
 * kind is gt_tl_kind_name(); numbers are decimal; id is the parent frame for a
 * stack frame (whose own id is the arg frame=); instants and objects start their
 * args with scope=; args are space-separated
 * name=value with strings in double quotes (\\ \" \n \t and \xNN escaped).
 * A context switch puts its fields in args (cpu, out_pid, out_tid, in_pid,
 * in_tid, out_state, out_prio, in_prio) and the incoming thread in pid/tid. */
#ifndef GT_TIMELINE_TEXT_H
#define GT_TIMELINE_TEXT_H

#include <stdio.h>

#include "gt_timeline.h"

typedef struct gt_tl_text {
    FILE *out;
    const char *name; /* for write errors */
} gt_tl_text;

gt_tl_sink gt_tl_text_sink(gt_tl_text *t);

#endif
