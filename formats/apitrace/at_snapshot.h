/* Where a frame range's state snapshot ends (gt_snapshot_marker.h says how it is
 * marked): for `gltrace info` and the viewer. */
#ifndef AT_SNAPSHOT_H
#define AT_SNAPSHOT_H

#include <stdint.h>

#include "at_reader.h"

/* Whether call is the marker that ends a state snapshot. */
int at_is_snapshot_end(const gt_call *call);

/* The trace's first frame recorded after a snapshot (its gltrace.snapshot property),
 * or -1 when it has no snapshot. */
long long at_snapshot_first_frame(const at_reader *r);

/* Reads r from where it stands to the snapshot's end marker: its call number into
 * *end. Returns 1 when found, 0 when the trace has no marker (a range from frame 0, or
 * cut short), -1 on a read error (at_reader_error says it). */
int at_snapshot_end(at_reader *r, uint32_t *end);

#endif
