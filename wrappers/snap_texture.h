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
    /* GLES: glTexImage*'s own format and type where the program gave them (GLES 2's
     * unsized formats need them; 0: the internal format's, snap_format_of); why a
     * compressed image's upload is not kept (NULL: kept, compressed_size bytes) */
    unsigned format, type;
    const char *why;
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
/* A texture's target: the one followed since the program started (track_objects.c),
 * else the driver's answer where it has one (GL 4.5, ARB_direct_state_access; a buffer
 * texture's is an error in Mesa, and so is any in a compatibility profile), else 0. */
unsigned snap_tex_target(snap *s, uint32_t name);
int snap_tex_multisample(unsigned target);
int snap_tex_dims(unsigned target);
unsigned snap_tex_face(const snap_texture *t, int face);

/* The format an image is read and written in: its own format and type (GLES, in own),
 * else its internal format's; NULL when not known. */
const snap_format *snap_tex_format(const snap_image *im, snap_format *own);

/* GLES (snap_texture_es.c): t's images as the program specified them, followed while
 * recording (track_tex_images.c), where the driver cannot say (before GLES 3.1). */
void snap_tex_collect_followed(snap *s, snap_texture *t);
/* GLES: the kept upload of each compressed image of t (its size, or why none). */
void snap_tex_followed_uploads(snap_texture *t);
/* GLES: why an image cannot be read through a framebuffer here, or NULL (t bound). */
const char *snap_tex_es_probe(snap *s, const snap_texture *t, int level, int face);
/* GLES: the framebuffer target reads bind (GL_FRAMEBUFFER before GLES 3) and its
 * binding. */
unsigned snap_tex_es_fb(snap *s, unsigned *binding);

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
