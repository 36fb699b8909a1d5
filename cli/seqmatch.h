/* Python difflib's SequenceMatcher over sequences of integers (line ids): the same
 * matching blocks and opcodes as apitrace's tracediff.py and jsondiff.py get from it,
 * including its "autojunk" rule (in a b of 200 items or more, an item found more than
 * 1% + 1 times is never used to start a match). Memory: O(len(a) + len(b)). */
#ifndef SEQMATCH_H
#define SEQMATCH_H

#include <stddef.h>
#include <stdint.h>

typedef enum sm_tag { SM_EQUAL, SM_REPLACE, SM_DELETE, SM_INSERT } sm_tag;

typedef struct sm_opcode {
    sm_tag tag;
    size_t a0, a1, b0, b1; /* a[a0:a1] becomes b[b0:b1] */
} sm_opcode;

/* The opcodes turning a (na items) into b (nb items), as get_opcodes() returns them:
 * *ops (malloc'd) and *nops. Items are equal when their ids are. Returns 0, or -1 when
 * memory runs out. */
int sm_opcodes(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, sm_opcode **ops,
               size_t *nops);

#endif
