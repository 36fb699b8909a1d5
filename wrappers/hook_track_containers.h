/* The context each container object (vertex array, framebuffer, transform feedback,
 * program pipeline: never shared between contexts) was made in, followed before a frame
 * range (track_containers.c, `track` lines of specs/annotations.txt): the snapshot
 * writes the current context's and says which belong to others.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_TRACK_CONTAINERS_H
#define HOOK_TRACK_CONTAINERS_H

void gtt_ctr_gen_vertex_arrays(int n, const unsigned *names);
void gtt_ctr_delete_vertex_arrays(int n, const unsigned *names);
void gtt_ctr_gen_framebuffers(int n, const unsigned *names);
void gtt_ctr_delete_framebuffers(int n, const unsigned *names);
void gtt_ctr_gen_transform_feedbacks(int n, const unsigned *names);
void gtt_ctr_delete_transform_feedbacks(int n, const unsigned *names);
void gtt_ctr_gen_program_pipelines(int n, const unsigned *names);
void gtt_ctr_delete_program_pipelines(int n, const unsigned *names);

/* The context each thread has current, and contexts gone. */
void gtt_ctr_glx_make_current(void *dpy, unsigned long drawable, void *ctx, int ret);
void gtt_ctr_glx_make_context_current(void *dpy, unsigned long draw, unsigned long read,
                                      void *ctx, int ret);
void gtt_ctr_egl_make_current(void *dpy, void *draw, void *read, void *ctx, unsigned ret);
void gtt_ctr_glx_destroy_context(void *dpy, void *ctx);
void gtt_ctr_egl_destroy_context(void *dpy, void *ctx, unsigned ret);

#endif
