/* The snapshot's other contexts (snapshot_contexts.c): vertex arrays, framebuffers and
 * the context state belong to one context, not to its share group. The snapshot reads
 * the frame thread's context; a context no thread has current is made current on the
 * frame thread for a moment to be read too (and back), in the driver and in the trace;
 * one current on another thread cannot be, and is said so. */
#ifndef SNAPSHOT_CONTEXTS_H
#define SNAPSHOT_CONTEXTS_H

#include <stddef.h>

#include "snapshot.h"
#include "track_ws.h"

typedef struct snap_contexts {
    ws_setup ws;
    ws_current frame;  /* what the frame thread has current */
    int have_frame;
    ws_current *others; /* contexts no thread has current, as last bound */
    size_t n;
} snap_contexts;

/* Finds them (the contexts current on other threads are said unreadable on s). 0, or
 * -1 when out of memory (said). */
int snap_contexts_find(snap *s, snap_contexts *l);
void snap_contexts_free(snap_contexts *l);

/* What the calling (frame) thread has current in ws: 1 with *out set, 0 when nothing. */
int snap_frame_binding(const ws_setup *ws, ws_current *out);

/* The size of the drawable the calling (frame) thread has current: the window-system
 * part's fake glViewport (0 x 0 when it has none). */
void snap_frame_drawable_size(int size[2]);

/* Makes b current on this thread in the driver (X errors caught): 1 when it is. */
int snap_context_enter(const ws_current *b);

#endif
