/* Shader programs while recording (hook_program.c): the hooks that hide program
 * binaries, referenced from specs/annotations.txt. glLinkProgram[ARB] are overridden
 * there too (they need the real call before the trace's enter event).
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_PROGRAM_H
#define HOOK_PROGRAM_H

#include <stdint.h>

struct at_writer;

void gth_get_program_iv(struct at_writer *w, unsigned program, unsigned pname, int *params);
void gth_get_integer_v(struct at_writer *w, unsigned pname, int *data);
void gth_get_integer64_v(struct at_writer *w, unsigned pname, int64_t *data);

#endif
