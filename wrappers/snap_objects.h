/* What the state snapshot's data-object parts (snap_buffers.c, snap_textures.c,
 * snap_renderbuffers.c, snap_samplers.c) share: pixel formats, the pixel-store state
 * set for reading and writing pixels, the object parameters samplers and textures have
 * in common. Internal to those files. */
#ifndef SNAP_OBJECTS_H
#define SNAP_OBJECTS_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/* ---- pixel formats (snap_formats.c) ------------------------------------------------- */

/* How the pixels of an uncompressed internal format are read and written losslessly:
 * format and type for glGetTexImage/glReadPixels and glTexImage*, bytes per pixel, and
 * which buffers a blit copies (GL_COLOR_BUFFER_BIT, GL_DEPTH_BUFFER_BIT, ...). */
typedef struct snap_format {
    unsigned internal, format, type, bytes, mask;
} snap_format;

/* The entry of internal, or NULL when the snapshot does not know it. */
const snap_format *snap_format_of(unsigned internal);

/* ---- pixel-store state (snap_pixelstore.c) ------------------------------------------- */

/* The driver's pack or unpack state and pixel buffer binding, saved while the snapshot
 * reads (pack) or while its writes are sized (unpack: the wrappers size pixel blobs from
 * the driver's unpack state). */
typedef struct snap_store {
    int pack;
    int n;
    unsigned pname[16];
    int value[16];
    int buffer; /* the pixel pack/unpack buffer bound, or -1 where none can be */
} snap_store;

/* Saves the driver's pack (pack 1) or unpack state and sets it to tightly packed rows
 * (alignment 1, no row length, skips or image height) with no pixel buffer bound. */
void snap_store_begin(snap *s, snap_store *saved, int pack);
/* Puts the saved state back. */
void snap_store_end(const snap_store *saved);
/* Writes the tightly packed unpack state (fake glPixelStorei, glBindBuffer of
 * GL_PIXEL_UNPACK_BUFFER to 0) the snapshot's uploads are sized for; the state part
 * writes the program's own values afterwards. */
void snap_store_write_unpack(const snap_store *unpack);

/* ---- sampling parameters (snap_sampling.c) ---------------------------------------------- */

/* The sampling parameters of a texture or sampler that differ from a new one's. */
typedef struct snap_param {
    unsigned pname;
    int is_float;
    int count;
    union { int i[4]; float f[4]; } v;
} snap_param;

typedef struct snap_sampling {
    unsigned n;
    snap_param p[24];
} snap_sampling;

/* Reads them: texture (target bound on the active unit: is_texture 1) or sampler name.
 * rectangle: the texture is GL_TEXTURE_RECTANGLE (other defaults). */
void snap_sampling_read(snap *s, snap_sampling *out, int is_texture, unsigned target,
                        unsigned sampler, int rectangle);
/* Writes them: glTexParameter* on target, or glSamplerParameter* on sampler. */
void snap_sampling_write(const snap_sampling *in, int is_texture, unsigned target,
                         unsigned sampler);

/* ---- names ------------------------------------------------------------------------- */

/* The live names of class cls ("texture", ...) the driver knows (is(name) true), in a
 * malloc'd array; returns their number. */
size_t snap_live_names(const char *cls, unsigned char (*is)(unsigned), uint32_t **names);
/* A name above every followed name of class cls: the snapshot's temporary objects'. */
uint32_t snap_free_name(const char *cls);

#endif
