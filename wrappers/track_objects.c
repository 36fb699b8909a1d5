/* Texture targets followed before a frame range (hook_track_objects.h): a small hash
 * table, name -> the target it was first bound to, filled only for names not in it yet.
 * Binds are frequent and almost always of known names: each thread remembers the names
 * it saw in a small direct-mapped cache, so that a bind of a known name costs a load and
 * a compare, not the lock. A delete drops the name and makes every cache stale (the name
 * may come back with another target). */
#include "hook_track_objects.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { CACHE = 64 };

struct entry {
    uint32_t name; /* 0: empty */
    uint32_t target;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct entry *g_table; /* linear probing, g_cap a power of two */
static size_t g_cap, g_count;
static atomic_uint g_generation = 1; /* bumped by deletes: caches are stale */

/* initial-exec: a thread-local access without a call into the dynamic linker */
static __thread uint32_t t_cache[CACHE] __attribute__((tls_model("initial-exec")));
static __thread unsigned t_generation __attribute__((tls_model("initial-exec")));

static size_t slot_of(uint32_t name, size_t cap) { return (name * 2654435761u) & (cap - 1); }

/* The entry of name, or the empty slot where it would go (callers hold g_lock). */
static struct entry *find(uint32_t name)
{
    size_t i = slot_of(name, g_cap);
    while (g_table[i].name && g_table[i].name != name)
        i = (i + 1) & (g_cap - 1);
    return &g_table[i];
}

static int grow(void)
{
    size_t cap = g_cap ? g_cap * 2 : 256;
    struct entry *old = g_table, *table = calloc(cap, sizeof *table);
    if (!table)
        return 0;
    size_t old_cap = g_cap;
    g_table = table;
    g_cap = cap;
    for (size_t i = 0; i < old_cap; ++i)
        if (old[i].name)
            *find(old[i].name) = old[i];
    free(old);
    return 1;
}

static void note(unsigned target, uint32_t name)
{
    if (!name)
        return;
    unsigned generation = atomic_load_explicit(&g_generation, memory_order_acquire);
    if (t_generation != generation) {
        for (int i = 0; i < CACHE; ++i)
            t_cache[i] = 0;
        t_generation = generation;
    }
    if (t_cache[name % CACHE] == name)
        return;
    pthread_mutex_lock(&g_lock);
    if ((g_count + 1) * 2 <= g_cap || grow()) {
        struct entry *e = find(name);
        if (!e->name) {
            e->name = name;
            e->target = target;
            ++g_count;
        }
    }
    pthread_mutex_unlock(&g_lock);
    t_cache[name % CACHE] = name;
}

void gth_track_bind_texture(unsigned target, unsigned texture) { note(target, texture); }

void gth_track_bind_multi_texture(unsigned unit, unsigned target, unsigned texture)
{
    (void)unit;
    note(target, texture);
}

void gth_track_create_textures(unsigned target, int n, const unsigned *textures)
{
    for (int i = 0; textures && i < n; ++i)
        note(target, textures[i]);
}

/* glTextureView gives a generated name its target without a bind. */
void gth_track_texture_view(unsigned texture, unsigned target, unsigned orig, unsigned format,
                            unsigned min_level, unsigned levels, unsigned min_layer,
                            unsigned layers)
{
    (void)orig, (void)format, (void)min_level, (void)levels, (void)min_layer, (void)layers;
    note(target, texture);
}

/* Removes name, shifting back the entries after it that probed past its slot. */
static void drop(uint32_t name)
{
    struct entry *e = find(name);
    if (!e->name)
        return;
    size_t hole = (size_t)(e - g_table);
    e->name = 0;
    --g_count;
    for (size_t i = (hole + 1) & (g_cap - 1); g_table[i].name; i = (i + 1) & (g_cap - 1)) {
        size_t home = slot_of(g_table[i].name, g_cap);
        /* the entry may move into the hole unless its home lies in (hole, i] */
        if ((i > hole && (home <= hole || home > i)) || (i < hole && home <= hole && home > i)) {
            g_table[hole] = g_table[i];
            g_table[i].name = 0;
            hole = i;
        }
    }
}

void gth_track_delete_textures(int n, const unsigned *textures)
{
    if (!textures || n <= 0)
        return;
    pthread_mutex_lock(&g_lock);
    for (int i = 0; g_cap && i < n; ++i)
        if (textures[i])
            drop(textures[i]);
    pthread_mutex_unlock(&g_lock);
    atomic_fetch_add_explicit(&g_generation, 1, memory_order_release);
}

unsigned gth_texture_target(uint32_t name)
{
    pthread_mutex_lock(&g_lock);
    unsigned target = g_cap && name ? find(name)->target : 0;
    pthread_mutex_unlock(&g_lock);
    return target;
}
