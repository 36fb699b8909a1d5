/* libFuzzer target: any bytes as the contents of a frame index (formats/apitrace/
 * at_index.c), past its head: the stamp and checksum stop accidental damage, not a
 * crafted file. Nothing may crash, leak, hang or allocate beyond the input's size; an
 * accepted index answers where every frame range starts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "at_index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    at_index *ix;
    gt_error err;
    gt_error_clear(&err);
    if (at_index_parse_contents(data, size, &ix, &err) != 0) {
        if (!err.set)
            abort(); /* a refusal always says why */
        return 0;
    }
    for (uint64_t f = 0; f < ix->nframes && f < 64; ++f) {
        at_seek_point p;
        uint32_t after;
        if (at_index_frames_start(ix, f, ix->nframes - 1, &p, &after) && f && after == UINT32_MAX)
            abort();
    }
    at_index_free(ix);
    return 0;
}
