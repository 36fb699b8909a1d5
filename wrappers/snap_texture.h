/* The state snapshot's textures, as the files of that part share them: what collect
 * finds (snap_textures.c), how contents are read (snap_texture_read.c) and written
 * (snap_texture_write.c). Internal to those files. */
#ifndef SNAP_TEXTURE_H
#define SNAP_TEXTURE_H

#include "snap_objects.h"

enum { SNAP_TEX_LEVELS = 16, SNAP_TEX_FACES = 6 };

/* One image: a level of a target, or of one cube map face. */
typedef struct snap_image {
    int width, height, depth; /* 0: no image */
    unsigned internal;
    int compressed, compressed_size;
    int samples, fixed_locations;
} snap_image;

typedef struct snap_texture {
    uint32_t name;
    unsigned target;
    int immutable, immutable_levels;
    int nlevels; /* levels 0..nlevels-1 examined */
    int nfaces;  /* 6 for cube maps, else 1 */
    snap_image image[SNAP_TEX_LEVELS][SNAP_TEX_FACES];
    int read;    /* contents are read (else storage only) */
    struct snap_ms *ms; /* a multisample texture's samples (snap_multisample.h), or NULL */
    snap_sampling sampling;
    /* buffer textures */
    unsigned buffer, buffer_format;
    long long buffer_offset, buffer_size, buffer_whole;
} snap_texture;

/* Whether the target is multisampled; how many dimensions its images' calls take
 * (glTexImage1D/2D/3D); the target of face f's images. */
int snap_tex_multisample(unsigned target);
int snap_tex_dims(unsigned target);
unsigned snap_tex_face(const snap_texture *t, int face);

/* Why the contents of t's image cannot be read in this context (a phrase), or NULL. */
const char *snap_tex_unreadable(snap *s, const snap_texture *t, const snap_image *im);
/* The bytes of an image as read and written (compressed: its compressed size). */
size_t snap_tex_image_bytes(const snap_image *im);
/* Reads the image of level `level`, face `face` of t (bound to its target in the
 * driver) into out (snap_tex_image_bytes); returns 0 when it could not. */
int snap_tex_read(snap *s, const snap_texture *t, int level, int face, void *out);

/* Writes t's calls; t is bound to its target in the driver (reads go through it). */
void snap_tex_write(snap *s, const snap_texture *t);

#endif
