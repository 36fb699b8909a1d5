/* The GL objects alive before a frame range (capture_track.c): what its state snapshot
 * re-creates. */
#ifndef CAPTURE_TRACK_H
#define CAPTURE_TRACK_H

#include <stddef.h>
#include <stdint.h>

/* The class id of track_classes.gen.h named name ("buffer", "texture", ...), or -1. */
int gltrace_track_class(const char *name);

/* The live names of class cls, sorted, in a malloc'd array (*names; NULL when there are
 * none). Returns their number. Names the program generated but never bound are
 * included: the snapshot asks the driver (glIs*) which exist. */
size_t gltrace_tracked_names(int cls, uint32_t **names);

/* Whether the sets lost names (out of memory once): the snapshot says so. */
int gltrace_tracking_lost(void);

#endif
