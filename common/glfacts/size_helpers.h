/* Sizes of arrays and blobs that depend on enums or GL state: one helper per
 * COMPSIZE form named in specs/annotations.txt. Each returns an element count
 * (arrays) or a byte count (blobs); an unknown enum gives a small safe size,
 * never more than the call can have passed.
 *
 * The recorder sizes what it writes with them and the replayer checks what it reads
 * with the same facts. The GL state a size depends on (list counts, the unpack state)
 * comes through the query the user gives once, before the first size is asked. */
#ifndef SIZE_HELPERS_H
#define SIZE_HELPERS_H

/* How the helpers read the GL state. */
typedef struct gtsz_gl {
    /* glGetIntegerv of one value, as the traced program was told it (a list is sized
     * with the length the program saw: the recorder hides program binary formats). */
    int (*get_integer)(unsigned pname);
} gtsz_gl;

/* Makes gl the helpers' query (kept, not copied). Until a query is given, every GL
 * value reads 0. */
void gtsz_use_gl(const gtsz_gl *gl);

/* Notes that the program set a pixel-store parameter (glPixelStore*): the image sizes
 * query only those set, the others are at their defaults (and a GLES2 context would
 * reject queries of most of them). */
void gtsz_note_pixel_store(unsigned pname);

/* Values taken or returned for a pname (glGetFloatv, glLightfv, glTexParameteriv...). */
long long gtsz_pname(unsigned pname);
/* Values of glClearBuffer*v for a buffer (GL_COLOR: 4, GL_DEPTH/GL_STENCIL: 1). */
long long gtsz_clear_buffer(unsigned buffer);
/* count elements of an index or list type (GL_UNSIGNED_SHORT, GL_2_BYTES...), in bytes. */
long long gtsz_count_type(long long count, unsigned type);
/* A byte count passed as is. */
long long gtsz_bytes(long long size);
/* drawcount draw commands of `size` bytes every `stride` (0: packed) bytes. */
long long gtsz_indirect(long long drawcount, long long stride, long long size);
/* Pixel data read by glTexImage*, glDrawPixels...: bytes, honouring the unpack state. */
long long gtsz_image_1d(unsigned format, unsigned type, long long width);
long long gtsz_image_2d(unsigned format, unsigned type, long long width, long long height);
long long gtsz_image_3d(unsigned format, unsigned type, long long width, long long height,
                        long long depth);
/* size, or 0 for a proxy target (glTexImage2D(GL_PROXY_TEXTURE_2D, ...) reads no pixels,
 * and programs pass pointers to less, or to nothing). */
long long gtsz_unless_proxy(unsigned target, long long size);
/* glBitmap: 1 bit per pixel, honouring the unpack state. */
long long gtsz_bitmap(long long width, long long height);

/* One texel (glClearTexImage), a colour table of count entries, a filter's row. */
long long gtsz_texel(unsigned format, unsigned type);
long long gtsz_image_count(unsigned format, unsigned type, long long count);
long long gtsz_filter(unsigned target, unsigned format, unsigned type, long long len);
/* Evaluator control points (glMap1*, glMap2*), in values. */
long long gtsz_map1(unsigned target, long long stride, long long order);
long long gtsz_map2(unsigned target, long long ustride, long long uorder, long long vstride,
                    long long vorder);
/* Entries of a pixel map (glGetPixelMap*), from the map's size query. */
long long gtsz_pixel_map(unsigned map);

#endif
