/* Frame ranges to record, as `gltrace --frames` and GLTRACE_FRAMES give them:
 *
 *   ranges = range (',' range)*
 *   range  = A '-' B     frames A to B, both included (frames counted from 0, as
 *                        `gltrace dump --calls=frame` and glretrace count them)
 *          | A           frame A alone
 *          | '+' N       with a trigger only: N frames from each trigger
 *
 * Ranges must ascend and not overlap (each one is a trace of its own). */
#ifndef GT_FRAMERANGES_H
#define GT_FRAMERANGES_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"

#define GT_FRAMERANGES_MAX 64

typedef struct gt_framerange {
    uint64_t first, last;
} gt_framerange;

typedef struct gt_frameranges {
    gt_framerange r[GT_FRAMERANGES_MAX];
    size_t n;
    uint64_t per_trigger; /* "+N": N; 0 when the ranges are frame numbers */
} gt_frameranges;

/* Parses text into *out: 0, or -1 with err naming the text and the offset. */
int gt_frameranges_parse(const char *text, gt_frameranges *out, gt_error *err);

#endif
