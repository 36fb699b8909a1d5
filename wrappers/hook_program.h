/* Shader programs while recording (hook_program.c): glLinkProgram[ARB] are overridden
 * there (they need the real call before the trace's enter event).
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_PROGRAM_H
#define HOOK_PROGRAM_H

#endif
