#include "gt_arena.h"

#include <stdint.h>
#include <stdlib.h>

/* Blocks start small, because a call in flight holds its arena and a trace may hold
 * many such calls, and double up to BLOCK_MAX. */
#define BLOCK_FIRST 512u
#define BLOCK_MAX (64u * 1024u)
#define KEEP_MAX (256u * 1024u) /* bigger blocks are returned to malloc on reset */

struct gt_arena_block {
    gt_arena_block *next;
    size_t size, pos;
    max_align_t data[];
};

void gt_arena_init(gt_arena *a)
{
    a->head = a->spare = NULL;
    a->used = 0;
}

static gt_arena_block *new_block(gt_arena *a, size_t need)
{
    if (a->spare && a->spare->size >= need) {
        gt_arena_block *b = a->spare;
        a->spare = b->next;
        b->pos = 0;
        return b;
    }
    size_t size = a->head ? a->head->size * 2 : BLOCK_FIRST;
    if (size > BLOCK_MAX)
        size = BLOCK_MAX;
    if (size < need)
        size = need;
    gt_arena_block *b = malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->size = size;
    b->pos = 0;
    return b;
}

void *gt_arena_alloc(gt_arena *a, size_t size)
{
    const size_t align = sizeof(max_align_t);
    if (size > SIZE_MAX - align)
        return NULL;
    size = (size + align - 1) & ~(align - 1);
    gt_arena_block *b = a->head;
    if (!b || b->size - b->pos < size) {
        b = new_block(a, size);
        if (!b)
            return NULL;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->pos;
    b->pos += size;
    a->used += size;
    return p;
}

void gt_arena_reset(gt_arena *a)
{
    gt_arena_block *b = a->head;
    while (b) {
        gt_arena_block *next = b->next;
        if (b->size > KEEP_MAX) {
            free(b);
        } else {
            b->pos = 0;
            b->next = a->spare;
            a->spare = b;
        }
        b = next;
    }
    a->head = NULL;
    a->used = 0;
}

void gt_arena_free(gt_arena *a)
{
    gt_arena_reset(a);
    while (a->spare) {
        gt_arena_block *next = a->spare->next;
        free(a->spare);
        a->spare = next;
    }
}
