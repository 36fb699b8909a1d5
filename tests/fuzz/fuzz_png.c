/* libFuzzer target: any bytes as a PNG (common/util/gt_png_read.c, read by diff-images).
 * Nothing may crash, leak, hang or allocate beyond the image size the header gives
 * (itself bounded); a decoded image has every pixel written. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gt_png.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_image img;
    gt_error err;
    gt_error_clear(&err);
    if (gt_png_decode(data, size, "fuzz.png", &img, &err) == 0) {
        uint64_t sum = 0; /* reads every pixel: MSan/ASan see uninitialised or short buffers */
        for (size_t i = 0; i < (size_t)img.width * img.height * 4; ++i)
            sum += img.rgba[i];
        if (sum == UINT64_MAX)
            abort();
        gt_image_free(&img);
    } else if (!err.set) {
        abort(); /* a failure always says why */
    }
    return 0;
}
