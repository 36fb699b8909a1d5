/* A minimal line diff (Myers' O(ND) algorithm, linear space), laid out as GNU diff
 * lays out its changes, for `gltrace diff`'s diff and sdiff tools: lines that match
 * nothing in the other sequence are set aside before the search, and runs of changes
 * are slid to merge with their neighbours and to line up with the other sequence's
 * changes. Output as seqmatch.h's opcodes. Memory: O(len(a) + len(b)). */
#ifndef MYERS_H
#define MYERS_H

#include <stddef.h>
#include <stdint.h>

#include "seqmatch.h"

/* 0, or -1 when memory runs out. */
int myers_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
                  size_t *nops);

#endif
