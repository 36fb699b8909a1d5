/* A small PNG encoder: 8-bit RGB or RGBA, no interlace, one IDAT made with zlib's
 * compress2, chunk CRCs with crc32. Used by glretrace's snapshots. */
#ifndef GT_PNG_H
#define GT_PNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

/* Writes height rows of width*channels bytes (channels 3 or 4), consecutive rows
 * stride bytes apart, to path. bottom_up: the first row in memory is the bottom of
 * the image (as glReadPixels returns it). Returns 0, or -1 with err set. */
int gt_png_write(const char *path, const uint8_t *pixels, unsigned width, unsigned height,
                 unsigned channels, size_t stride, bool bottom_up, gt_error *err);

#endif
