/* Bump allocator for per-call data: a call's values live and die together, so
 * freeing is one reset. Blocks are kept for reuse, so steady-state parsing
 * allocates nothing. */
#ifndef GT_ARENA_H
#define GT_ARENA_H

#include <stddef.h>

typedef struct gt_arena_block gt_arena_block;

typedef struct gt_arena {
    gt_arena_block *head;  /* block being filled */
    gt_arena_block *spare; /* emptied blocks kept for reuse */
    size_t used;           /* bytes handed out since the last reset */
} gt_arena;

void gt_arena_init(gt_arena *a);
/* Returns size bytes aligned for any value, or NULL when out of memory. */
void *gt_arena_alloc(gt_arena *a, size_t size);
/* Forgets every allocation but keeps one modest block for the next call. */
void gt_arena_reset(gt_arena *a);
void gt_arena_free(gt_arena *a);

#endif
