/* The GL facts (common/glfacts) as the recorder uses them: their GL query is the answer
 * the program saw (hook_answers.c: hidden program binary formats count 0), so a list is
 * recorded with the length the program's buffer has. */
#include "hook_gl_facts.h"
#include "hook_answers.h"
#include "size_helpers.h"

static const gtsz_gl answers = {.get_integer = gth_answer_count};

/* Our constructors run before the program's, so before its first GL call. */
__attribute__((constructor)) static void use_answers(void)
{
    gtsz_use_gl(&answers);
}

void gtw_hook_pixel_store(struct at_writer *w, unsigned pname, long long param)
{
    (void)w;
    (void)param;
    gtsz_note_pixel_store(pname);
}
