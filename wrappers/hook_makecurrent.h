/* Fake glViewport/glScissor at the first MakeCurrent of each context
 * (hook_makecurrent.c), referenced from specs/annotations.txt.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL/GLX/EGL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_MAKECURRENT_H
#define HOOK_MAKECURRENT_H

struct at_writer;

void gth_glx_make_current(struct at_writer *w, void *dpy, unsigned long drawable, void *ctx,
                          int ret);
void gth_glx_make_context_current(struct at_writer *w, void *dpy, unsigned long draw,
                                  unsigned long read, void *ctx, int ret);
void gth_glx_destroy_context(struct at_writer *w, void *dpy, void *ctx);
void gth_egl_make_current(struct at_writer *w, void *dpy, void *draw, void *read, void *ctx,
                          unsigned ret);
void gth_egl_destroy_context(struct at_writer *w, void *dpy, void *ctx, unsigned ret);

/* ctx has had its fake glViewport/glScissor: a frame range's snapshot wrote them. */
void gth_context_seen(void *ctx);

#endif
