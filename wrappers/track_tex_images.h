/* What the state snapshot asks of the texture images followed on GLES contexts
 * (track_tex_images.c, hooks in hook_track_tex_images.h): each image's specification as
 * the program made it, and a copy of each compressed image's upload. One table for the
 * process, keyed by texture name, as track_objects.c's targets. */
#ifndef TRACK_TEX_IMAGES_H
#define TRACK_TEX_IMAGES_H

#include <stddef.h>
#include <stdint.h>

enum { GTT_TEX_LEVELS = 16, GTT_TEX_FACES = 6 };

typedef struct gtt_tex_image {
    int width, height, depth; /* 0: no image */
    unsigned internal;        /* as the program passed it (GLES 2: unsized, GL_RGBA) */
    unsigned format, type;    /* glTexImage*'s own pair; 0 where it gave none */
    int compressed;
    size_t data_size;         /* a compressed image's kept upload; 0: none (why says) */
    const char *why;          /* why a compressed image's upload is not kept */
} gtt_tex_image;

typedef struct gtt_tex_spec {
    int immutable_levels; /* glTexStorage*'s levels, 0: mutable */
    const char *why;      /* why its images are not followed (an EGLImage's), or NULL */
    gtt_tex_image image[GTT_TEX_LEVELS][GTT_TEX_FACES];
} gtt_tex_spec;

/* Copies what is followed of texture name into out; returns 0 when nothing is. */
int gtt_tex_spec_of(uint32_t name, gtt_tex_spec *out);

/* Copies the kept upload of a compressed image (face 0 unless a cube map face) into
 * out, when it holds exactly size bytes; returns 0 otherwise. */
int gtt_tex_data(uint32_t name, int level, int face, void *out, size_t size);

/* The block of a compressed internal format (ETC1/ETC2/EAC, S3TC, RGTC, BPTC, ASTC):
 * its width and height in texels and its bytes; 0 when not known. */
int gtt_tex_block(unsigned internal, int *width, int *height, int *bytes);

#endif
