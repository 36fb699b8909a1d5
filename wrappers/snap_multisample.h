/* Multisample contents for the state snapshot (snapshot.h), sample by sample: read back
 * in the program's context by a compute shader that texelFetches every sample into a
 * shader storage buffer (snap_multisample_read.c), written as an upload of the samples
 * into a temporary 2D array texture (a layer per sample) and a per-sample-shaded draw
 * from it into each layer of the object (snap_multisample_write.c). Used by the texture
 * part (2D multisample textures and their arrays) and the renderbuffer part (read
 * through a temporary multisample texture, drawn into directly). Internal to those. */
#ifndef SNAP_MULTISAMPLE_H
#define SNAP_MULTISAMPLE_H

#include "snap_objects.h"

/* How the samples are carried: RGBA32F (normalized and float colour), RGBA32I, RGBA32UI,
 * or depth (in the red component of RGBA32F, written as gl_FragDepth). */
enum { SNAP_MS_FLOAT, SNAP_MS_INT, SNAP_MS_UINT, SNAP_MS_DEPTH };

typedef struct snap_ms {
    unsigned internal;
    int kind, srgb;
    int width, height, layers, samples;
    /* four 32-bit values per sample, at ((layer * samples + sample) * height + y) * width
     * + x: the temporary array texture's layers as written */
    void *texels;
} snap_ms;

/* Why multisample contents of internal format cannot be read and written back in this
 * context (a phrase ending in "contents not read"), or NULL. */
const char *snap_ms_unreadable(snap *s, unsigned internal);

/* The samples of texture `name` (target GL_TEXTURE_2D_MULTISAMPLE[_ARRAY]; layers 1 for
 * the former), or NULL when they cannot be read: said unreadable (snapshot.h) as
 * "texture N: ...". The driver's state is as it was after. */
snap_ms *snap_ms_read_texture(snap *s, unsigned name, unsigned target, unsigned internal,
                              int width, int height, int layers, int samples);
/* The same for a multisample renderbuffer (copied into a temporary texture first). */
snap_ms *snap_ms_read_renderbuffer(snap *s, unsigned name, unsigned internal, int width,
                                   int height, int samples);
void snap_ms_free(snap_ms *m);

/* Writes m into object `name` of target (GL_TEXTURE_2D_MULTISAMPLE[_ARRAY] or
 * GL_RENDERBUFFER), whose storage is written: fake calls that draw it and put back what
 * they change in the replayed context. */
void snap_ms_write(snap *s, unsigned target, unsigned name, const snap_ms *m);

#endif
