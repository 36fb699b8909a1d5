/* Open addressing with linear probing; the table doubles at half full. */
#include "xray_map.h"

#include <stdlib.h>

static size_t slot_of(uint64_t a, uint64_t b, size_t cap)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    return (size_t)h & (cap - 1);
}

int xray_map_get(const xray_map *m, uint64_t a, uint64_t b, uint64_t *v)
{
    if (!m->cap)
        return 0;
    for (size_t i = slot_of(a, b, m->cap);; i = (i + 1) & (m->cap - 1)) {
        const xray_map_slot *s = &m->slots[i];
        if (!s->used)
            return 0;
        if (s->a == a && s->b == b) {
            *v = s->v;
            return 1;
        }
    }
}

static void put_slot(xray_map_slot *slots, size_t cap, uint64_t a, uint64_t b, uint64_t v)
{
    size_t i = slot_of(a, b, cap);
    while (slots[i].used && !(slots[i].a == a && slots[i].b == b))
        i = (i + 1) & (cap - 1);
    slots[i] = (xray_map_slot){a, b, v, 1};
}

static int grow(xray_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    xray_map_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            put_slot(slots, cap, m->slots[i].a, m->slots[i].b, m->slots[i].v);
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int xray_map_put(xray_map *m, uint64_t a, uint64_t b, uint64_t v)
{
    uint64_t old;
    if (xray_map_get(m, a, b, &old)) {
        put_slot(m->slots, m->cap, a, b, v);
        return 0;
    }
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    put_slot(m->slots, m->cap, a, b, v);
    m->count++;
    return 0;
}

void xray_map_free(xray_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}
