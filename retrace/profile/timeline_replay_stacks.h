/* The stack frames of glretrace's timeline (timeline_replay.h): one STACK_FRAME event
 * per distinct (frame, caller chain) of the calls' backtraces, parents first. */
#ifndef RETRACE_TIMELINE_REPLAY_STACKS_H
#define RETRACE_TIMELINE_REPLAY_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "gt_model.h"
#include "gt_timeline.h"

typedef struct tlr_stack_node {
    uint64_t parent;
    uint32_t frame_id;
    uint32_t id;
} tlr_stack_node;

/* How the nodes reach the timeline: its emitter and string interner. */
typedef struct tlr_stack_out {
    void (*emit)(gt_tl_event *ev);
    gt_tl_str (*intern)(const char *s);
} tlr_stack_out;

/* Open-addressing table of (parent, frame id) -> node id; zeroed: empty. */
typedef struct tlr_stacks {
    tlr_stack_node *nodes;
    size_t n, cap; /* cap: 0 or a power of two */
    uint32_t next_id;
} tlr_stacks;

/* The leaf node of C's backtrace (frames[0] is the innermost), emitting the nodes new
 * to S; 0 without a backtrace, or out of memory. */
uint32_t tlr_stacks_of_call(tlr_stacks *s, const gt_call *c, const tlr_stack_out *out);
void tlr_stacks_free(tlr_stacks *s);

#endif
