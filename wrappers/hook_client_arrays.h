/* Client-side vertex arrays while recording (hook_client_arrays.c): hooks on the
 * *Pointer functions and prehooks on the draw calls, referenced from
 * specs/annotations.txt.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_CLIENT_ARRAYS_H
#define HOOK_CLIENT_ARRAYS_H

struct at_writer;

/* After a pointer call made with no GL_ARRAY_BUFFER bound (hook_client_pointers.c):
 * client memory is in use (generic: a generic attribute, else a conventional array). */
void gth_note_client_pointer(int generic, const void *pointer);

/* After glLockArraysEXT: the draws read at least first + count vertices. */
void gth_lock_arrays(struct at_writer *w, int first, int count);

/* Before the draw calls: fake pointer calls carrying the client data as blobs. */
void gth_draw_arrays(struct at_writer *w, unsigned mode, int first, int count);
void gth_draw_arrays_instanced(struct at_writer *w, unsigned mode, int first, int count,
                               int instancecount);
void gth_draw_arrays_instanced_base_instance(struct at_writer *w, unsigned mode, int first,
                                             int count, int instancecount,
                                             unsigned baseinstance);
void gth_draw_elements(struct at_writer *w, unsigned mode, int count, unsigned type,
                       const void *indices);
void gth_draw_elements_base_vertex(struct at_writer *w, unsigned mode, int count,
                                   unsigned type, const void *indices, int basevertex);
void gth_draw_range_elements(struct at_writer *w, unsigned mode, unsigned start, unsigned end,
                             int count, unsigned type, const void *indices);
void gth_draw_range_elements_base_vertex(struct at_writer *w, unsigned mode, unsigned start,
                                         unsigned end, int count, unsigned type,
                                         const void *indices, int basevertex);
void gth_draw_elements_instanced(struct at_writer *w, unsigned mode, int count, unsigned type,
                                 const void *indices, int instancecount);
void gth_draw_elements_instanced_base_vertex(struct at_writer *w, unsigned mode, int count,
                                             unsigned type, const void *indices,
                                             int instancecount, int basevertex);
void gth_draw_elements_instanced_base_instance(struct at_writer *w, unsigned mode, int count,
                                               unsigned type, const void *indices,
                                               int instancecount, unsigned baseinstance);
void gth_draw_elements_instanced_base_vertex_base_instance(
    struct at_writer *w, unsigned mode, int count, unsigned type, const void *indices,
    int instancecount, int basevertex, unsigned baseinstance);
void gth_draw_arrays_indirect(struct at_writer *w, unsigned mode, const void *indirect);
void gth_draw_elements_indirect(struct at_writer *w, unsigned mode, unsigned type,
                                const void *indirect);
void gth_multi_draw_arrays(struct at_writer *w, unsigned mode, const int *first,
                           const int *count, int drawcount);
void gth_multi_draw_elements(struct at_writer *w, unsigned mode, const int *count,
                             unsigned type, const void *const *indices, int drawcount);
void gth_multi_draw_elements_base_vertex(struct at_writer *w, unsigned mode, const int *count,
                                         unsigned type, const void *const *indices,
                                         int drawcount, const int *basevertex);

#endif
