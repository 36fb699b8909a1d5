/* Client-side vertex arrays while recording (hook_client_arrays.c): hooks on the
 * *Pointer functions and prehooks on the draw calls, referenced from
 * specs/annotations.txt.
 *
 * Plain C types only: the generated wrapper files include this header after their
 * own GL type preludes, and the arguments convert implicitly. */
#ifndef HOOK_CLIENT_ARRAYS_H
#define HOOK_CLIENT_ARRAYS_H

struct at_writer;

/* After the pointer calls: note that client memory is in use. */
void gth_attrib_pointer(struct at_writer *w, unsigned index, int size, unsigned type,
                        unsigned char normalized, int stride, const void *pointer);
void gth_attrib_ipointer(struct at_writer *w, unsigned index, int size, unsigned type,
                         int stride, const void *pointer);
void gth_sized_pointer(struct at_writer *w, int size, unsigned type, int stride,
                       const void *pointer);
void gth_unsized_pointer(struct at_writer *w, unsigned type, int stride, const void *pointer);

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
void gth_multi_draw_arrays(struct at_writer *w, unsigned mode, const int *first,
                           const int *count, int drawcount);
void gth_multi_draw_elements(struct at_writer *w, unsigned mode, const int *count,
                             unsigned type, const void *const *indices, int drawcount);
void gth_multi_draw_elements_base_vertex(struct at_writer *w, unsigned mode, const int *count,
                                         unsigned type, const void *const *indices,
                                         int drawcount, const int *basevertex);

#endif
