/* What `gltrace trim` keeps of the calls before and between the ones selected, so that
 * the trimmed trace replays what the full trace drew in the selected calls: one pass
 * over the trace in call order, deciding each call as it comes.
 *
 * Kept: every call that changes what later calls see: context and drawable creation and
 * binding, objects and their data, bindings and state, shaders, display lists (whole),
 * mapped-memory writes (fake memcpy), and drawing into anything but the window (a
 * framebuffer object or transform feedback: a texture drawn in frame 3 may be sampled in
 * frame 50), compute dispatches and display-list calls (they may set state).
 * Dropped: calls without side effects (queries), frame ends (swaps: the output's frames
 * are the selected ones), and drawing into the window (draws, clears, blits, immediate
 * mode's glBegin/glVertex/glEnd; the current colour, normal and texture coordinates set
 * between them are kept, as they outlive the block), whose pixels the selected frames
 * draw over.
 *
 * Left for later: objects deleted before the selection are kept with all their calls,
 * and state set again before the selection keeps its earlier settings; both only cost
 * size. A frame that does not clear the window but draws over the previous frame's
 * pixels starts from an empty window. */
#ifndef TRIM_DEPS_H
#define TRIM_DEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_model.h"

typedef struct trim_deps trim_deps;

trim_deps *trim_deps_new(void);
void trim_deps_free(trim_deps *d);
/* Whether call C, not selected itself, must be kept for the selected calls after it.
 * Every call of the trace up to the last selected one goes through trim_deps_track,
 * selected or not, in the trace's order, after this question. */
bool trim_deps_needed(const trim_deps *d, const gt_call *c);
/* Follows the state the call changes (current context, framebuffer bindings, open
 * immediate-mode blocks and display lists). 0, or -1 when memory ran out. */
int trim_deps_track(trim_deps *d, const gt_call *c);

#endif
