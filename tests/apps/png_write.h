/* Minimal PNG encoder for the demo apps: 8-bit RGB or RGBA, top-down rows, no interlace.
 * Uses zlib (compress2 for the IDAT stream, crc32 for chunk CRCs). */
#ifndef GLTRACE_APPS_PNG_WRITE_H
#define GLTRACE_APPS_PNG_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Writes `rows` (height rows of width*channels bytes each, first row = top of the image,
 * consecutive rows `stride` bytes apart) to `path` as a PNG. channels is 3 (RGB) or 4 (RGBA).
 * Returns 0 on success, -1 on failure (errno-style message already printed to stderr). */
int png_write(const char *path, const uint8_t *rows, unsigned width, unsigned height,
              unsigned channels, size_t stride);

#endif
