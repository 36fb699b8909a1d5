/* Frame ranges and triggers at record time (capture_frames.c): which frames the
 * recording library writes, for runtime_writer.c, which opens and ends their traces. */
#ifndef CAPTURE_FRAMES_H
#define CAPTURE_FRAMES_H

#include <stddef.h>

/* Whether GLTRACE_FRAMES or GLTRACE_TRIGGER asked for ranges (read once, at load). */
int gltrace_capture_on(void);

/* At the first recorded call, with ranges: 1 when writing starts there (a range from
 * frame 0), its name ("0-9") in name; 0 when nothing is written yet. */
int gltrace_capture_first(char *name, size_t size);

/* fn runs at each range's start, before its first call is written, with the range's
 * first frame (the object tracker registers itself: capture_track.c). One at most. */
void gltrace_capture_on_range_start(void (*fn)(unsigned long long first));

/* fn opens a range that starts after the first frame: it writes the state snapshot
 * into the range's trace, which it opens (snapshot.c registers itself). */
void gltrace_capture_set_snapshot(int (*fn)(const char *range, unsigned long long first));

#endif
