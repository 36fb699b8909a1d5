/* The window-system part of the state snapshot (snap_ws.c), for the snapshot's other
 * contexts (snapshot_contexts.c): a MakeCurrent written, a drawable's size. */
#ifndef SNAP_WS_H
#define SNAP_WS_H

#include "track_ws.h"

/* The size of c's draw drawable, from the driver; 0 x 0 when unknown. */
void snap_ws_drawable_size(const ws_current *c, int size[2]);

/* Writes c's MakeCurrent (fake mode), then, when size is not empty, the fake
 * glViewport and glScissor of the context's first MakeCurrent. */
void snap_ws_write_current(const ws_current *c, const int size[2]);

#endif
