/* A small hash map from byte strings to 64-bit values, for the Chrome
 * reader's id tables (stack frame ids, string pids and tids, open slices per
 * thread). Keys are copied; the map grows with the number of distinct keys
 * only, never with the number of events. */
#ifndef CHROME_MAP_H
#define CHROME_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "gt_arena.h"

typedef struct cm_slot {
    const char *key;
    uint32_t len;
    uint64_t value;
} cm_slot;

typedef struct chrome_map {
    cm_slot *slots;
    size_t nslots, count; /* nslots: a power of two, or 0 before the first insert */
    gt_arena keys;
} chrome_map;

void chrome_map_init(chrome_map *m);
void chrome_map_free(chrome_map *m);
/* The slot of key, or NULL when absent. */
cm_slot *chrome_map_find(chrome_map *m, const void *key, size_t len);
/* The slot of key, inserted with value 0 (*added set) when absent; NULL when
 * out of memory. */
cm_slot *chrome_map_get(chrome_map *m, const void *key, size_t len, int *added);

#endif
