/* Which calls `gltrace trim` writes: the selected ones and, unless exact, the earlier
 * calls they depend on, so that the trimmed trace replays what the full trace drew in
 * the selection. Every call up to the last selected one passes through trim_deps_add
 * once, in the trace's order (one pass, with blobs skipped); the decisions are then
 * read back by index while the trace is read again and written.
 *
 * The functions' roles come from specs/roles.txt (gt_roles.h), the state they set from
 * specs/trim.txt (trim_rules.h). Dropped: calls without
 * side effects (queries), frame ends (swaps: the output's frames are the selected ones),
 * drawing into a window that a swap of that window shows before the selection (draws,
 * clears, blits, immediate mode's glBegin/glVertex/glEnd, keeping the current colour,
 * normal... set between them: the selected frames draw over those pixels; what a thread
 * draws for a swap inside the selection is kept, even when another thread's swap ends a
 * frame in between), and setters of context state (clear colour, enables, bindings,
 * vertex attribute pointers, uniforms, ...) that a later setter of the same state
 * replaced before anything kept read them. Kept: everything else (context and drawable
 * creation and binding, objects and their data, display lists, mapped-memory writes,
 * drawing into framebuffer objects or transform feedback, compute), which, like every
 * selected call, depends on all state set before it: the setters current then are kept,
 * with the setters they read (the program a uniform went to, the buffer an attribute
 * pointer took).
 *
 * Left for later: objects deleted before the selection are kept with all their calls.
 * A frame that does not clear the window but draws over the previous frame's pixels
 * starts from an empty window, and a read-back of the window before the selection (into
 * a pixel pack buffer used later) reads what remains without the dropped drawing. */
#ifndef TRIM_DEPS_H
#define TRIM_DEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_model.h"

typedef struct trim_deps trim_deps;

/* EXACT: keep the selection alone (apitrace's trim). NULL when out of memory. */
trim_deps *trim_deps_new(bool exact);
void trim_deps_free(trim_deps *d);
/* The first pass, from the first call to the first selected one: which windows are
 * shown (swapped) before the selection, and when last. Returns 0 to go on, 1 once the
 * first selected call is met, -1 when memory ran out. */
int trim_deps_scan(trim_deps *d, const gt_call *c, uint64_t index, bool selected);
/* The second pass: call C, the trace's INDEX-th (0, 1, ...), SELECTED or not. 0, or -1
 * when memory ran out. */
int trim_deps_add(trim_deps *d, const gt_call *c, uint64_t index, bool selected);
/* Whether the INDEX-th call is written, once every call up to the last selected one has
 * been added. */
bool trim_deps_keep(const trim_deps *d, uint64_t index);
/* The number of calls kept. */
uint64_t trim_deps_kept(const trim_deps *d);

#endif
