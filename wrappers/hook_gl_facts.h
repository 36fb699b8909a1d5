/* The recorder's side of the GL facts (common/glfacts/size_helpers.h): the pixel-store
 * hook named in specs/annotations.txt (hook_gl_facts.c).
 *
 * Plain C types only: the generated wrapper files include this header after their own
 * GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_GL_FACTS_H
#define HOOK_GL_FACTS_H

struct at_writer;

/* glPixelStore*: notes which pixel-store parameters the program set, so that the image
 * sizes query only those. */
void gtw_hook_pixel_store(struct at_writer *w, unsigned pname, long long param);

#endif
