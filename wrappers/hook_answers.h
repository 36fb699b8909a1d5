/* The answers the recorder changes (hook_answers.c), named by `invoke` annotations in
 * specs/annotations.txt: each makes the real call through `real` and changes what the
 * program sees; the generated wrapper records the changed answer, as apitrace does.
 *
 * Plain C types only: the generated wrapper files include this header after their own
 * GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_ANSWERS_H
#define HOOK_ANSWERS_H

#include <stdint.h>

typedef void (*gth_proc)(void);

void gth_invoke_get_integer_v(gth_proc real, unsigned pname, int *data);
void gth_invoke_get_integer64_v(gth_proc real, unsigned pname, int64_t *data);
void gth_invoke_get_boolean_v(gth_proc real, unsigned pname, unsigned char *data);
void gth_invoke_get_float_v(gth_proc real, unsigned pname, float *data);
void gth_invoke_get_double_v(gth_proc real, unsigned pname, double *data);
void gth_invoke_get_program_iv(gth_proc real, unsigned program, unsigned pname, int *params);
void gth_invoke_get_program_binary(gth_proc real, unsigned program, int buf_size, int *length,
                                   unsigned *binary_format, void *binary);
void gth_invoke_program_binary(gth_proc real, unsigned program, unsigned binary_format,
                               const void *binary, int length);
const unsigned char *gth_invoke_get_string(gth_proc real, unsigned name);
const unsigned char *gth_invoke_get_stringi(gth_proc real, unsigned name, unsigned index);

/* The value of a count pname as the program sees it: the GL facts' query
 * (hook_gl_facts.c), so a list is recorded with the length the program was told. */
int gth_answer_count(unsigned pname);

#endif
