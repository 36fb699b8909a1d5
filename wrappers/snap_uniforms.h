/* The uniform values and block bindings of a linked program, for the state snapshot's
 * programs part (snap_programs.c). */
#ifndef SNAP_UNIFORMS_H
#define SNAP_UNIFORMS_H

#include "snapshot.h"

/* While collecting: says what of program's uniform state cannot be written; stages:
 * the types of the shaders it linked. */
void snap_uniforms_check(snap *s, unsigned program, const unsigned *stages, size_t nstages);

/* While writing, right after the program's link: glUseProgram(program), each active
 * uniform's value (glGetUniformLocation as the program would have asked, then
 * glUniform*), the uniform block and storage block bindings. */
void snap_uniforms_write(snap *s, unsigned program);

#endif
