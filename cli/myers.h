/* A line diff as GNU diff (apitrace's diff and sdiff tools) aligns lines, for
 * `gltrace diff`: the identical first and last lines left out of everything; lines
 * the other sequence lacks, and very frequent ones inside runs of
 * those, are set aside before the search (GNU diff's discards); a shortest edit script
 * of the rest (Myers' O(ND) algorithm, linear space); runs of changes slid to merge
 * with their neighbours and to line up with the other sequence's changes. GNU diff
 * gives up minimality after 4096 edits in one region (and, with --speed-large-files,
 * on long diagonals after 200); this search never does, so where two large regions
 * differ completely the alignments may differ. Output as seqmatch.h's opcodes.
 * Memory: O(len(a) + len(b)). */
#ifndef MYERS_H
#define MYERS_H

#include <stddef.h>
#include <stdint.h>

#include "seqmatch.h"

/* 0, or -1 when memory runs out. */
int myers_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
                  size_t *nops);

#endif
