/* leaks_objects.h: the table's lookup and the sets of objects alive. */
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"
#include "leaks_objects.h"

static int cmp_name(const void *key, const void *row)
{
    return strcmp(key, ((const lk_func *)row)->name);
}

const lk_func *lk_lookup(const char *name)
{
    return bsearch(name, lk_funcs, lk_num_funcs, sizeof *lk_funcs, cmp_name);
}

lk_kind *lk_kind_get(lk_state *s, const char *kind)
{
    for (size_t i = 0; i < s->n; ++i)
        if (!strcmp(s->kinds[i].kind, kind))
            return &s->kinds[i];
    if (GT_GROW(s->kinds, s->cap, s->n + 1, 8) < 0)
        return NULL;
    lk_kind *k = &s->kinds[s->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    return k;
}

static size_t slot_of(uint64_t name, size_t size)
{
    return (size_t)((name * 0x9e3779b97f4a7c15ull) >> 17) & (size - 1);
}

/* The map slot holding name, or the free slot where it would go. */
static size_t find_slot(const lk_kind *k, uint64_t name)
{
    size_t at = slot_of(name, k->map_size);
    while (k->map[at] && k->entries[k->map[at] - 1].name != name)
        at = (at + 1) & (k->map_size - 1);
    return at;
}

/* Rebuilds the map (and drops dead entries) at twice the alive count. */
static int rebuild(lk_kind *k)
{
    size_t alive = 0;
    for (size_t i = 0; i < k->n; ++i)
        if (k->entries[i].alive)
            k->entries[alive++] = k->entries[i];
    k->n = alive;
    size_t size = 64;
    while (size < alive * 4 + 4)
        size *= 2;
    uint32_t *map = calloc(size, sizeof *map);
    if (!map)
        return -1;
    free(k->map);
    k->map = map;
    k->map_size = size;
    k->used = alive;
    for (size_t i = 0; i < alive; ++i)
        k->map[find_slot(k, k->entries[i].name)] = (uint32_t)i + 1;
    return 0;
}

int lk_create(lk_kind *k, uint64_t name, uint32_t call_no, uint64_t ctx)
{
    if ((k->used + 1) * 2 > k->map_size && rebuild(k) < 0)
        return -1;
    size_t at = find_slot(k, name);
    if (k->map[at]) { /* alive again: a dictionary entry keeps its place */
        lk_entry *e = &k->entries[k->map[at] - 1];
        e->call_no = call_no;
        e->ctx = ctx;
        return 0;
    }
    if (k->n >= UINT32_MAX - 1 || GT_GROW(k->entries, k->cap, k->n + 1, 64) < 0)
        return -1;
    k->entries[k->n] = (lk_entry){name, ctx, call_no, 1};
    k->map[at] = (uint32_t)++k->n;
    ++k->used;
    return 0;
}

void lk_delete(lk_kind *k, uint64_t name)
{
    if (!k->map_size)
        return;
    size_t at = find_slot(k, name);
    if (!k->map[at])
        return; /* never created in the trace: as apitrace, ignored */
    k->entries[k->map[at] - 1].alive = 0;
    /* Removal from linear probing: the later entries of the run are placed again. */
    k->map[at] = 0;
    for (size_t j = (at + 1) & (k->map_size - 1); k->map[j]; j = (j + 1) & (k->map_size - 1)) {
        uint32_t idx = k->map[j];
        k->map[j] = 0;
        k->map[find_slot(k, k->entries[idx - 1].name)] = idx;
    }
    --k->used;
}

static int cmp_entry(const void *pa, const void *pb)
{
    const lk_entry *a = pa, *b = pb;
    if (a->call_no != b->call_no)
        return a->call_no < b->call_no ? -1 : 1;
    return a->alive < b->alive ? -1 : a->alive > b->alive; /* `alive` holds the order here */
}

int lk_take_alive(lk_kind *k, lk_entry **out, size_t *n)
{
    size_t alive = 0;
    *out = malloc((k->n ? k->n : 1) * sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < k->n; ++i)
        if (k->entries[i].alive) {
            (*out)[alive] = k->entries[i];
            (*out)[alive].alive = (uint32_t)alive; /* the order of creation, for ties */
            ++alive;
        }
    *n = alive;
    if (alive > 1)
        qsort(*out, alive, sizeof **out, cmp_entry);
    k->n = 0;
    k->used = 0;
    if (k->map)
        memset(k->map, 0, k->map_size * sizeof *k->map);
    return 0;
}

void lk_state_free(lk_state *s)
{
    for (size_t i = 0; i < s->n; ++i) {
        free(s->kinds[i].entries);
        free(s->kinds[i].map);
    }
    free(s->kinds);
    memset(s, 0, sizeof *s);
}
