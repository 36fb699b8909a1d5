/* A line diff as GNU diff (apitrace's diff and sdiff tools, with its
 * --speed-large-files) aligns lines, for `gltrace diff`: the identical first and last
 * lines left out of everything; lines the other sequence lacks, and very frequent
 * ones inside runs of those, set aside before the search (GNU diff's discards); an
 * edit script of the rest by Myers' O(ND) algorithm (linear space), which settles for
 * a good split point after 200 edits where a diagonal made much progress, and for the
 * furthest point reached after max(4096, about sqrt(lines)) edits, as GNU diff does;
 * runs of changes slid to merge with their neighbours and to line up with the other
 * sequence's changes. Output as seqmatch.h's opcodes. Memory: O(len(a) + len(b)). */
#ifndef MYERS_H
#define MYERS_H

#include <stddef.h>
#include <stdint.h>

#include "seqmatch.h"

/* 0, or -1 when memory runs out. */
int myers_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
                  size_t *nops);

#endif
