#include "gt_grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int gt_grow(void *items, size_t *cap, size_t need, size_t size, size_t min_cap)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : min_cap ? min_cap : 1;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return -1;
        n *= 2;
    }
    if (size && n > SIZE_MAX / size)
        return -1;
    void *old;
    memcpy(&old, items, sizeof old);
    void *p = realloc(old, n * size);
    if (!p)
        return -1;
    memcpy(items, &p, sizeof p);
    *cap = n;
    return 0;
}
