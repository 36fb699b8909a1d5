/* Growth of dynamic arrays: the one place that doubles a capacity and reallocates. */
#ifndef GT_GROW_H
#define GT_GROW_H

#include <stddef.h>

/* Ensures *items has room for `need` elements of `size` bytes: grows the capacity
 * *cap geometrically (doubling, from at least `min_cap` when *cap is 0), checking the
 * byte count for overflow. Returns 0, or -1 when the count overflows or realloc fails;
 * on failure *items and *cap are unchanged (the caller keeps its own error path).
 *
 * `items` is the address of the caller's array pointer (T **), taken as void * so
 * that any T works without casts; the pointer is read and written with memcpy (object
 * pointers share void *'s representation on every platform we build for). */
int gt_grow(void *items, size_t *cap, size_t need, size_t size, size_t min_cap)
    __attribute__((warn_unused_result));

/* GT_GROW(arr, cap, need, min_cap): gt_grow with the element size taken from arr, so
 * it cannot disagree with the array's type; cap must be a size_t lvalue. */
#define GT_GROW(arr, cap, need, min_cap) \
    gt_grow(&(arr), &(cap), (need), sizeof *(arr), (min_cap))

#endif
