/* Comparing two snapshots as apitrace's diff-images (snapdiff.py) does: the absolute
 * difference per channel; a pixel differs when the grey level (ITU-R 601, as PIL's
 * "L" conversion) of that difference exceeds 255 * fuzz; the difference image is the
 * source faded towards white with differing pixels in strong red. */
#ifndef IMAGE_COMPARE_H
#define IMAGE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "gt_png.h"

typedef struct image_diff {
    bool size_mismatch;
    uint64_t differing;   /* pixels beyond the fuzz (apitrace's "ae") */
    uint8_t max_channel;  /* the largest difference of any channel */
} image_diff;

/* Compares REF and SRC (with alpha: the alpha channel counts too). */
image_diff image_compare(const gt_image *ref, const gt_image *src, double fuzz, bool alpha);
/* The difference image (RGB, SRC's size) into OUT (width * height * 3 bytes). */
void image_diff_render(const gt_image *ref, const gt_image *src, double fuzz, uint8_t *out);

#endif
