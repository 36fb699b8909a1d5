/* A small PNG encoder (8-bit grey, RGB or RGBA, no interlace, one IDAT made with zlib's
 * compress2) for glretrace's snapshots and state dumps, and a decoder (gt_png_read.c: 8-bit grey, RGB,
 * palette, grey+alpha and RGBA, not interlaced) for the image tools. */
#ifndef GT_PNG_H
#define GT_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_strbuf.h"

/* Appends the PNG of height rows of width*channels bytes (channels 1: grey, 3: RGB,
 * 4: RGBA), consecutive rows stride bytes apart, to OUT. bottom_up: the first row in
 * memory is the bottom of the image (as glReadPixels returns it). 0, or -1 with err. */
int gt_png_encode(gt_strbuf *out, const uint8_t *pixels, unsigned width, unsigned height,
                  unsigned channels, size_t stride, bool bottom_up, gt_error *err);
/* Packs N RGBA pixels into N RGB pixels in place (alpha dropped): a read-back's
 * GL_RGBA bytes as an RGB image. */
void gt_png_rgba_to_rgb(uint8_t *px, size_t n);
/* Writes height rows of width*channels bytes (channels 3 or 4), consecutive rows
 * stride bytes apart, to path. bottom_up: the first row in memory is the bottom of
 * the image (as glReadPixels returns it). Returns 0, or -1 with err set. */
int gt_png_write(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                 unsigned channels, size_t stride, bool bottom_up, gt_error *err);

/* The same, replacing the name itself: a symbolic link at path is replaced by the
 * new file, never written through (gt_outfile_begin_name). */
int gt_png_write_name(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                      unsigned channels, size_t stride, bool bottom_up, gt_error *err);

typedef struct gt_image {
    uint32_t width, height;
    uint8_t *rgba; /* width * height RGBA pixels, the top row first */
    bool has_alpha; /* the file had an alpha channel (else alpha is 255) */
} gt_image;

/* Reads an 8-bit, non-interlaced PNG (at most 2^28 pixels, 256 MiB of file) as RGBA.
 * 0, or -1 with err set ("PATH: offset N: what"). */
int gt_png_read(const char *path, gt_image *img, gt_error *err);
/* The same from memory; NAME names the data in messages. */
int gt_png_decode(const uint8_t *data, size_t size, const char *name, gt_image *img, gt_error *err);
void gt_image_free(gt_image *img);

#endif
