/* Value writers the generated wrappers call for values that need more than one
 * writer call: strings with lengths, pixel and index data that may
 * be offsets into bound buffers. Attribute lists: attrib_lists.h. */
#ifndef GTW_VALUES_H
#define GTW_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "at_writer.h"
#include "gltrace_runtime.h" /* GLTRACE_EXPORT */

/* A length from the API (possibly negative or absurd) as an element count. */
static inline size_t gtw_count(long long n) { return n > 0 ? (size_t)n : 0; }

/* A string of n bytes, or NUL-terminated when n < 0. */
void gtw_string_n(at_writer *w, const char *s, long long n);
/* An output string the call wrote into a buffer of at most max bytes. */
void gtw_out_string(at_writer *w, const char *s, long long max);
/* count strings, each NUL-terminated or of lengths[i] bytes when lengths[i] >= 0. */
void gtw_strings(at_writer *w, const char *const *s, long long count, const int *lengths);
/* An array of opaque pointers. */
void gtw_pointers(at_writer *w, const void *const *p, size_t n);
/* Pixel data: n bytes of client memory, or the offset p when a pixel unpack buffer
 * is bound. */
void gtw_blob_unpack(at_writer *w, const void *p, size_t n);
/* Index data: n bytes of client memory, or the offset p when an element array
 * buffer is bound. */
void gtw_blob_elements(at_writer *w, const void *p, size_t n);
/* Draw commands of the indirect draws: a blob, or an offset when a
 * GL_DRAW_INDIRECT_BUFFER is bound (client memory is the compatibility profile's). */
void gtw_blob_indirect(at_writer *w, const void *p, size_t n);
/* Whether a pixel pack buffer is bound: then the pointer of a call that writes pixels
 * (glGetnTexImage, glGetPolygonStipple, ...) is an offset into it, not memory. */
int gtw_pack_bound(void);
/* n index lists (glMultiDrawElements' indices): list i holds count[i] indices of
 * type; blobs, or offsets with an element buffer bound. */
void gtw_element_lists(at_writer *w, const void *const *p, const int *count, unsigned type,
                       size_t n);

/* `symbolic` parameters (gtw_symbolic.c): param as a GLenum when pname's values are
 * enums and param is whole, else as the int, float or double it is. */
void gtw_symbolic_int(at_writer *w, unsigned pname, int param);
void gtw_symbolic_float(at_writer *w, unsigned pname, float param);
void gtw_symbolic_double(at_writer *w, unsigned pname, double param);

/* Structures (gtw_glx.c): a pointer to one struct, or NULL. */
void gtw_struct_XVisualInfo(at_writer *w, const void *p);
/* glXQueryRendererIntegerMESA's output, sized and named by its attribute (gtw_glx.c). */
void gtw_glx_renderer_value(at_writer *w, int attribute, const unsigned *value);

/* Hooks run after the call is recorded (referenced from specs/annotations.txt). */
void gtw_hook_bind_buffer(at_writer *w, unsigned target, unsigned buffer);

#endif
