/* Hash map of byte strings (chrome_map.h): open addressing, FNV-1a. */
#include "chrome_map.h"

#include <stdlib.h>
#include <string.h>

void chrome_map_init(chrome_map *m)
{
    memset(m, 0, sizeof *m);
    gt_arena_init(&m->keys);
}

void chrome_map_free(chrome_map *m)
{
    free(m->slots);
    gt_arena_free(&m->keys);
    memset(m, 0, sizeof *m);
}

static uint64_t hash(const void *key, size_t len)
{
    const unsigned char *p = key;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static cm_slot *probe(cm_slot *slots, size_t nslots, const void *key, size_t len)
{
    size_t mask = nslots - 1, i = (size_t)hash(key, len) & mask;
    while (slots[i].key && !(slots[i].len == len && memcmp(slots[i].key, key, len) == 0))
        i = (i + 1) & mask;
    return &slots[i];
}

cm_slot *chrome_map_find(chrome_map *m, const void *key, size_t len)
{
    if (!m->nslots)
        return NULL;
    cm_slot *s = probe(m->slots, m->nslots, key, len);
    return s->key ? s : NULL;
}

static int grow(chrome_map *m)
{
    size_t n = m->nslots ? m->nslots * 2 : 64;
    cm_slot *slots = calloc(n, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slots[i].key)
            *probe(slots, n, m->slots[i].key, m->slots[i].len) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->nslots = n;
    return 0;
}

cm_slot *chrome_map_get(chrome_map *m, const void *key, size_t len, int *added)
{
    *added = 0;
    if (len > UINT32_MAX)
        return NULL;
    if ((m->count + 1) * 2 > m->nslots && grow(m) != 0)
        return NULL;
    cm_slot *s = probe(m->slots, m->nslots, key, len);
    if (s->key)
        return s;
    char *copy = gt_arena_alloc(&m->keys, len ? len : 1);
    if (!copy)
        return NULL;
    if (len)
        memcpy(copy, key, len);
    *s = (cm_slot){copy, (uint32_t)len, 0};
    m->count++;
    *added = 1;
    return s;
}
