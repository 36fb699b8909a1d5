/* A small open-addressing hash map from a pair of 64-bit keys to a 64-bit
 * value: threads by (pid, tid), function names by id, ids by name. */
#ifndef XRAY_MAP_H
#define XRAY_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct xray_map_slot {
    uint64_t a, b, v;
    int used;
} xray_map_slot;

typedef struct xray_map {
    xray_map_slot *slots;
    size_t cap, count; /* cap: 0 or a power of two */
} xray_map;

/* 1 and *v when found, else 0. */
int xray_map_get(const xray_map *m, uint64_t a, uint64_t b, uint64_t *v);
/* Inserts or replaces; -1 when out of memory. */
int xray_map_put(xray_map *m, uint64_t a, uint64_t b, uint64_t v);
void xray_map_free(xray_map *m);

#endif
