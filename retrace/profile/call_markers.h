/* glretrace --markers: each GL call's dump text (apitrace's one-line form: call number,
 * name, arguments without names) inserted before it into the command stream as a
 * KHR_debug marker (GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_MARKER, apitrace's id
 * 0xA3ACE001, notification severity), cut to GL_MAX_DEBUG_MESSAGE_LENGTH - 1, as
 * apitrace's insertCallMarker; GPU debuggers and driver logs show where each call's
 * work comes from. Contexts without KHR_debug get none. */
#ifndef RETRACE_CALL_MARKERS_H
#define RETRACE_CALL_MARKERS_H

#include "gt_model.h"

/* Before GL call C, with a context current and outside glBegin/glEnd. */
void call_marker_insert(const gt_call *c);
/* Frees the text buffer and forgets the contexts (the end of a replay). */
void call_markers_reset(void);

#endif
