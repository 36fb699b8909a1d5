/* How a frame range's trace marks the end of its state snapshot (wrappers/snapshot.c
 * writes it; `gltrace info` and the viewer look for it): the snapshot's last call is a
 * fake glStringMarkerGREMEDY whose text starts with GT_SNAPSHOT_END_MARKER (both
 * replayers ignore that marker), and the trace has the property gltrace.snapshot (the
 * first frame recorded after it). */
#ifndef GT_SNAPSHOT_MARKER_H
#define GT_SNAPSHOT_MARKER_H

#define GT_SNAPSHOT_END_MARKER "gltrace: end of the state snapshot"
#define GT_SNAPSHOT_PROPERTY "gltrace.snapshot"
#define GT_SNAPSHOT_UNREADABLE_PROPERTY "gltrace.snapshot.unreadable"

#endif
