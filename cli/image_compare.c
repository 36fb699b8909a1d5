/* See image_compare.h. */
#include <math.h>
#include <stdlib.h>

#include "image_compare.h"

static uint8_t absdiff(uint8_t a, uint8_t b) { return a > b ? a - b : b - a; }

/* PIL's RGB -> L: (R * 299 + G * 587 + B * 114) / 1000, in its fixed point */
static uint8_t grey(uint8_t r, uint8_t g, uint8_t b)
{
    return (uint8_t)(((uint32_t)r * 19595 + (uint32_t)g * 38470 + (uint32_t)b * 7471 + 0x8000) >> 16);
}

image_diff image_compare(const gt_image *ref, const gt_image *src, double fuzz, bool alpha)
{
    image_diff d = {0};
    if (ref->width != src->width || ref->height != src->height) {
        d.size_mismatch = true;
        return d;
    }
    double limit = 255.0 * fuzz;
    size_t n = (size_t)ref->width * ref->height;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t *a = ref->rgba + 4 * i, *b = src->rgba + 4 * i;
        uint8_t dr = absdiff(a[0], b[0]), dg = absdiff(a[1], b[1]), db = absdiff(a[2], b[2]);
        uint8_t da = alpha ? absdiff(a[3], b[3]) : 0;
        uint8_t m = dr > dg ? dr : dg;
        m = m > db ? m : db;
        m = m > da ? m : da;
        if (m > d.max_channel)
            d.max_channel = m;
        /* with alpha PIL's L of an RGBA difference ignores alpha too; a pixel whose only
         * difference is alpha still counts here, since -a asks for alpha to matter */
        if (grey(dr, dg, db) > (uint8_t)floor(limit) || (alpha && da > limit))
            d.differing++;
    }
    return d;
}

void image_diff_render(const gt_image *ref, const gt_image *src, double fuzz, uint8_t *out)
{
    static const uint8_t red[3] = {0xf1, 0x00, 0x1e};
    size_t n = (size_t)src->width * src->height;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t *a = ref->rgba + 4 * i, *b = src->rgba + 4 * i;
        uint8_t m = absdiff(a[0], b[0]);
        m = absdiff(a[1], b[1]) > m ? absdiff(a[1], b[1]) : m;
        m = absdiff(a[2], b[2]) > m ? absdiff(a[2], b[2]) : m;
        double mask = fuzz > 0 ? fmin(m / fuzz, 255.0) / 255.0 : (m ? 1.0 : 0.0);
        for (int c = 0; c < 3; ++c) {
            double marked = red[c] * mask + 255.0 * (1.0 - mask); /* red over white */
            double v = b[c] * (1.0 - 0xcc / 255.0) + marked * (0xcc / 255.0);
            out[3 * i + c] = (uint8_t)lround(v);
        }
    }
}
