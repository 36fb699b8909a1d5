/* What the state room's files share (the rest of the replayer sees state.h): the
 * sections of the state JSON, "parameters" (state_params.c), "shaders", "uniforms",
 * "buffers" and "shaderstoragebufferblocks" (state_program.c), "textures" and
 * "framebuffer" (state_images.c), and the helpers they have in common. They read the
 * context current now; the replayed program's state they touch to read (active texture
 * unit, pack state, read framebuffer, buffer bindings) is put back. */
#ifndef RETRACE_STATE_DUMP_H
#define RETRACE_STATE_DUMP_H

#include <stdbool.h>
#include <stdio.h>

#include "gt_error.h"
#include "gt_model.h"
#include "state.h"
#include "state_json.h"

/* Whether the current context provides the GL function NAME (one of specs/state.txt's
 * [functions]); calling one it lacks would make libepoxy abort. */
bool state_has(const char *name);
/* The GLenum name of V, or NULL. */
const char *state_enum_name(unsigned v);
/* Writes V as its enum name, or as a number when it has none. */
void state_write_enum(sj *w, unsigned v);
/* glGetIntegerv(PNAME), or DFLT when the context lacks the value (the query fails). */
int state_get_int(unsigned pname, int dflt);
/* Writes MEMBER: the KHR_debug label of object NAME of kind IDENTIFIER (GL_TEXTURE,
 * GL_BUFFER, ...), as apitrace does; nothing when NAME is 0, the context lacks
 * glGetObjectLabel, or the object has no label. */
void state_write_label(sj *w, unsigned identifier, unsigned name, const char *member);
/* Empties GL's error flags; then whether a query raised one. */
void state_clear_errors(void);
bool state_failed(void);

void state_write_parameters(sj *w);
void state_write_program(sj *w);
void state_write_images(sj *w, bool single_buffer);

#endif
