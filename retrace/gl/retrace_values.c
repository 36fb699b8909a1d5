/* The runtime of the generated GL replayers: values from the call model, scratch
 * memory, object name maps per namespace, uniform locations per program and the map
 * of traced pointers (mapped buffers). See retrace_gl.h.
 *
 * The maps are unlocked: the replay core runs one call at a time (threads of a trace
 * take turns, as apitrace's). Scratch is per thread. Names of shared objects are mapped
 * per share group, names of container objects (FBOs, VAOs, ...) per context, as the
 * core says with retrace_map_context; until it does, everything is one group. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <epoxy/gl.h>

#include "gt_grow.h"
#include "retrace_gl.h"

/* ---- values ---------------------------------------------------------------------------- */

int64_t retrace_sint_slow(const gt_value *v) { return gt_value_sint(v); }

uint64_t retrace_uint_slow(const gt_value *v) { return gt_value_uint(v); }

double retrace_float_slow(const gt_value *v)
{
    switch (v->kind) {
    case GT_FLOAT: return v->f;
    case GT_DOUBLE: return v->d;
    case GT_UINT: case GT_POINTER: return (double)v->u;
    case GT_REPR: return v->repr.machine ? retrace_float(v->repr.machine) : 0;
    case GT_ARRAY: return v->arr.n ? retrace_float(&v->arr.items[0]) : 0;
    default: return (double)retrace_sint(v);
    }
}

/* ---- scratch --------------------------------------------------------------------------- */

enum { SCRATCH_BLOCK = 64 * 1024 };

typedef struct scratch_big {
    struct scratch_big *next;
    max_align_t data[];
} scratch_big;

static _Thread_local struct {
    max_align_t *block; /* SCRATCH_BLOCK bytes, reused */
    size_t used;
    scratch_big *big;   /* allocations that do not fit: freed at reset */
} scratch;

static void *oom(size_t size)
{
    fprintf(stderr, "glretrace: out of memory (%zu bytes)\n", size);
    abort(); /* the replay cannot go on without the call's data */
}

void *retrace_scratch(size_t size)
{
    size_t need = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!need)
        need = sizeof(max_align_t);
    if (!scratch.block && !(scratch.block = malloc(SCRATCH_BLOCK)))
        oom(SCRATCH_BLOCK);
    if (need <= SCRATCH_BLOCK - scratch.used) {
        void *p = (char *)scratch.block + scratch.used;
        scratch.used += need;
        return p;
    }
    if (need > SIZE_MAX - sizeof(scratch_big))
        oom(size);
    scratch_big *b = malloc(sizeof *b + need);
    if (!b)
        oom(size);
    b->next = scratch.big;
    scratch.big = b;
    return b->data;
}

void retrace_scratch_reset(void)
{
    scratch.used = 0;
    while (scratch.big) {
        scratch_big *next = scratch.big->next;
        free(scratch.big);
        scratch.big = next;
    }
}

void retrace_scratch_free(void)
{
    retrace_scratch_reset();
    free(scratch.block);
    scratch.block = NULL;
}

/* ---- pointers -------------------------------------------------------------------------- */

static void store(void *dst, const gt_value *item, int kind, unsigned size)
{
    switch (kind) {
    case 'f': case 'd':
        if (size == sizeof(float)) {
            float f = (float)retrace_float(item);
            memcpy(dst, &f, sizeof f);
        } else {
            double d = retrace_float(item);
            memcpy(dst, &d, sizeof d);
        }
        return;
    case 'p': {
        const void *p = retrace_pointer(item, 'u', 1);
        memcpy(dst, &p, sizeof p < size ? sizeof p : size);
        return;
    }
    default: {
        uint64_t u = kind == 'i' ? (uint64_t)retrace_sint(item) : retrace_uint(item);
        switch (size) { /* little and big endian alike: narrow by value */
        case 1: { uint8_t x = (uint8_t)u; memcpy(dst, &x, 1); return; }
        case 2: { uint16_t x = (uint16_t)u; memcpy(dst, &x, 2); return; }
        case 4: { uint32_t x = (uint32_t)u; memcpy(dst, &x, 4); return; }
        default: memcpy(dst, &u, size < 8 ? size : 8); return;
        }
    }
    }
}

const void *retrace_pointer(const gt_value *v, int kind, unsigned elem_size)
{
    switch (v->kind) {
    case GT_UINT: case GT_POINTER: return (const void *)(uintptr_t)v->u; /* offsets */
    case GT_SINT: return (const void *)(uintptr_t)v->i;
    case GT_STRING: return v->str.s;
    case GT_BLOB: return v->blob.data;
    case GT_REPR: return v->repr.machine ? retrace_pointer(v->repr.machine, kind, elem_size) : NULL;
    case GT_ARRAY: {
        if (!elem_size)
            elem_size = 1;
        char *out = retrace_scratch(v->arr.n * elem_size);
        for (size_t i = 0; i < v->arr.n; ++i)
            store(out + i * elem_size, &v->arr.items[i], kind, elem_size);
        return out;
    }
    default: return NULL; /* GT_NULL, GT_ABSENT, ... */
    }
}

/* Kept client arrays: a ring of copies; the oldest go once there are many or they are
 * large, but never the newest KEEP_MIN (more than one draw's arrays). */
enum { KEEP_MAX = 1024, KEEP_MIN = 64 };
static const size_t KEEP_BYTES = (size_t)256 << 20;
static struct {
    void *p[KEEP_MAX];
    size_t size[KEEP_MAX];
    unsigned first, n;
    size_t bytes;
} kept;

const void *retrace_pointer_keep(const gt_value *v)
{
    if (v->kind != GT_BLOB || !v->blob.data)
        return retrace_pointer(v, 'u', 1);
    while (kept.n == KEEP_MAX || (kept.n > KEEP_MIN && kept.bytes + v->blob.size > KEEP_BYTES)) {
        free(kept.p[kept.first]);
        kept.bytes -= kept.size[kept.first];
        kept.first = (kept.first + 1) % KEEP_MAX;
        kept.n--;
    }
    void *copy = malloc(v->blob.size ? v->blob.size : 1);
    if (!copy)
        oom(v->blob.size);
    memcpy(copy, v->blob.data, v->blob.size);
    unsigned slot = (kept.first + kept.n++) % KEEP_MAX;
    kept.p[slot] = copy;
    kept.size[slot] = v->blob.size;
    kept.bytes += v->blob.size;
    return copy;
}

/* ---- outputs --------------------------------------------------------------------------- */

static size_t traced_count(const gt_value *v)
{
    switch (v->kind) {
    case GT_ARRAY: return v->arr.n;
    case GT_BLOB: return v->blob.size;
    case GT_STRING: return v->str.len + 1;
    default: return 0;
    }
}

size_t retrace_out_count(const gt_value *v, int64_t n)
{
    size_t c = traced_count(v);
    return n > 0 && (uint64_t)n > c ? (size_t)n : c;
}

void *retrace_out(const gt_value *v, int64_t count, size_t elem_size)
{
    if (v->kind == GT_NULL)
        return NULL;
    size_t n = retrace_out_count(v, count);
    size_t size = (n ? n : 1) * (elem_size ? elem_size : 1);
    if (size < 64)
        size = 64; /* room for a single value whatever the trace says */
    void *p = retrace_scratch(size);
    memset(p, 0, size);
    return p;
}

/* Outputs the GL keeps a pointer to: a ring of the newest, since a context holds one
 * selection and one feedback buffer, and the program may replace them any time. */
enum { RETRACE_OUT_KEPT = 16 };
static void *out_kept[RETRACE_OUT_KEPT];
static unsigned out_kept_next;

void *retrace_out_keep(const gt_value *v, int64_t count, size_t elem_size)
{
    if (v->kind == GT_NULL)
        return NULL;
    size_t n = retrace_out_count(v, count), elem = elem_size ? elem_size : 1;
    if (n > SIZE_MAX / elem - 64)
        oom(SIZE_MAX);
    void *p = calloc((n ? n : 1) * elem + 64, 1);
    if (!p)
        oom(n * elem);
    free(out_kept[out_kept_next]);
    out_kept[out_kept_next] = p;
    out_kept_next = (out_kept_next + 1) % RETRACE_OUT_KEPT;
    return p;
}

/* ---- name maps ------------------------------------------------------------------------- */

/* Open addressing, linear probing; keys are traced names + 1 so that 0 marks a free slot,
 * and deleted slots keep a tombstone (value MAP_GONE) until the table grows. */
typedef struct name_map {
    uint64_t *keys, *vals;
    size_t cap, used; /* used counts tombstones too */
} name_map;

#define MAP_GONE UINT64_MAX

static const char *const namespaces[] = {
    /* shared by the contexts of a share group */
    "buffer", "texture", "renderbuffer", "program", "shader", "sampler", "display list", "sync",
    "handleARB", /* GL_ARB_shader_objects: programs and shaders alike */
    /* container objects, each context its own (GL 4.6 compatibility, 5.1.3) */
    "framebuffer", "vertex array", "transform feedback", "program pipeline", "query",
};
enum { NUM_NS = sizeof namespaces / sizeof *namespaces, FIRST_PER_CONTEXT = 9, MAX_EXTRA = 8 };
static const char *extra_ns[MAX_EXTRA]; /* namespaces named by hand-written code, first come */

/* The maps of every (namespace, owner): the owner is the traced share group for shared
 * namespaces and namespaces named by hand, the traced context for per-context ones. */
typedef struct owned_map {
    unsigned ns;
    uint64_t owner;
    name_map map;
} owned_map;
static owned_map **owned;
static size_t num_owned;
static uint64_t cur_context, cur_group;
static name_map *cur[NUM_NS + MAX_EXTRA]; /* the current owners' maps, found lazily */

void retrace_map_context(uint64_t context, uint64_t share_group)
{
    if (context == cur_context && share_group == cur_group)
        return;
    cur_context = context;
    cur_group = share_group;
    memset(cur, 0, sizeof cur);
}

static name_map *owned_map_of(unsigned ns)
{
    uint64_t owner = ns >= FIRST_PER_CONTEXT && ns < NUM_NS ? cur_context : cur_group;
    for (size_t i = 0; i < num_owned; ++i)
        if (owned[i]->ns == ns && owned[i]->owner == owner)
            return &owned[i]->map;
    owned_map **grown = realloc(owned, (num_owned + 1) * sizeof *owned);
    owned_map *m = calloc(1, sizeof *m);
    if (!grown || !m)
        oom(sizeof *m);
    owned = grown;
    m->ns = ns;
    m->owner = owner;
    owned[num_owned++] = m;
    return &m->map;
}

static name_map *map_of(const char *ns)
{
    unsigned i = 0;
    for (; i < NUM_NS; ++i)
        if (ns == namespaces[i] || !strcmp(ns, namespaces[i]))
            break;
    if (i == NUM_NS) {
        for (unsigned j = 0;; ++j) {
            if (j == MAX_EXTRA)
                return NULL;
            if (!extra_ns[j])
                extra_ns[j] = ns;
            if (!strcmp(ns, extra_ns[j])) {
                i = NUM_NS + j;
                break;
            }
        }
    }
    if (!cur[i])
        cur[i] = owned_map_of(i);
    return cur[i];
}

static size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL; /* splitmix/murmur finalizer */
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

static void map_grow(name_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    uint64_t *keys = calloc(cap, sizeof *keys), *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals)
        oom(cap * sizeof *keys);
    size_t used = 0;
    for (size_t i = 0; i < m->cap; ++i) {
        if (!m->keys[i] || m->vals[i] == MAP_GONE)
            continue;
        size_t s = slot_of(m->keys[i], cap);
        while (keys[s])
            s = (s + 1) & (cap - 1);
        keys[s] = m->keys[i];
        vals[s] = m->vals[i];
        used++;
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    m->used = used;
}

static uint64_t *map_find(name_map *m, uint64_t traced)
{
    if (!m->cap)
        return NULL;
    uint64_t key = traced + 1;
    for (size_t s = slot_of(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
        if (!m->keys[s])
            return NULL;
        if (m->keys[s] == key)
            return m->vals[s] == MAP_GONE ? NULL : &m->vals[s];
    }
}

uint64_t retrace_map_get(const char *ns, uint64_t traced)
{
    name_map *m = traced ? map_of(ns) : NULL;
    uint64_t *v = m ? map_find(m, traced) : NULL;
    return v ? *v : traced;
}

/* Inserts or replaces key (never 0: 0 marks an empty slot). */
static void map_put(name_map *m, uint64_t key, uint64_t val)
{
    if ((m->used + 1) * 4 >= m->cap * 3)
        map_grow(m);
    size_t s = slot_of(key, m->cap);
    while (m->keys[s] && m->keys[s] != key)
        s = (s + 1) & (m->cap - 1);
    if (!m->keys[s])
        m->used++;
    m->keys[s] = key;
    m->vals[s] = val;
}

void retrace_map_set(const char *ns, uint64_t traced, uint64_t replayed)
{
    name_map *m = map_of(ns);
    if (!m || traced == UINT64_MAX)
        return;
    map_put(m, traced + 1, replayed == MAP_GONE ? MAP_GONE - 1 : replayed);
}

void retrace_map_del(const char *ns, uint64_t traced)
{
    name_map *m = map_of(ns);
    uint64_t *v = m ? map_find(m, traced) : NULL;
    if (v)
        *v = MAP_GONE;
}

static uint64_t load_elem(const void *p, size_t i, size_t size)
{
    const char *c = (const char *)p + i * size;
    switch (size) {
    case 1: return *(const uint8_t *)c;
    case 2: { uint16_t x; memcpy(&x, c, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, c, 4); return x; }
    default: { uint64_t x = 0; memcpy(&x, c, size < 8 ? size : 8); return x; }
    }
}

const void *retrace_map_names(const char *ns, const gt_value *v, size_t elem_size)
{
    if (v->kind != GT_ARRAY)
        return retrace_pointer(v, 'u', (unsigned)elem_size);
    char *out = retrace_scratch(v->arr.n * elem_size);
    for (size_t i = 0; i < v->arr.n; ++i) {
        gt_value mapped = {.kind = GT_UINT};
        mapped.u = retrace_map_get(ns, retrace_uint(&v->arr.items[i]));
        store(out + i * elem_size, &mapped, 'u', (unsigned)elem_size);
    }
    return out;
}

void retrace_map_set_names(const char *ns, const gt_value *traced, const void *replayed,
                           size_t elem_size, size_t n)
{
    if (traced->kind != GT_ARRAY || !replayed)
        return;
    for (size_t i = 0; i < traced->arr.n && i < n; ++i)
        retrace_map_set(ns, retrace_uint(&traced->arr.items[i]), load_elem(replayed, i, elem_size));
}

void retrace_unmap_names(const char *ns, const gt_value *v)
{
    if (v->kind != GT_ARRAY)
        return;
    for (size_t i = 0; i < v->arr.n; ++i)
        retrace_map_del(ns, retrace_uint(&v->arr.items[i]));
}

void retrace_map_range(const char *ns, const gt_value *traced, uint64_t replayed, int64_t range)
{
    if (!traced)
        return;
    uint64_t first = retrace_uint(traced);
    if (!first || !replayed)
        return; /* the GL created none then, or now */
    for (int64_t i = 0; i < range; ++i)
        retrace_map_set(ns, first + (uint64_t)i, replayed + (uint64_t)i);
}

void retrace_unmap_range(const char *ns, uint64_t traced, int64_t range)
{
    for (int64_t i = 0; i < range; ++i)
        retrace_map_del(ns, traced + (uint64_t)i);
}

/* ---- uniform locations ----------------------------------------------------------------- */

/* One map keyed by (program << 32 | location): programs and locations are 32-bit in GL.
 * Until some location differs from the traced one (the same driver usually assigns the
 * same), lookups return the traced location without asking GL for the current program. */
static name_map locations;
static bool locations_differ;

static uint64_t location_key(uint64_t program, int64_t traced)
{
    return program << 32 | (uint32_t)traced;
}

int64_t retrace_location_get(uint64_t program, int64_t traced)
{
    if (traced < 0)
        return traced; /* -1: ignored by GL, as in the recording */
    uint64_t *v = map_find(&locations, location_key(program, traced));
    return v ? (int64_t)(int32_t)(uint32_t)*v : traced;
}

int64_t retrace_location_current(int64_t traced)
{
    if (!locations_differ || traced < 0)
        return traced;
    return retrace_location_get(retrace_current_program(), traced);
}

void retrace_location_set(uint64_t program, int64_t traced, int64_t replayed)
{
    if (traced < 0)
        return;
    if (replayed != traced)
        locations_differ = true;
    map_put(&locations, location_key(program, traced) + 1, (uint32_t)replayed);
}

uint64_t retrace_current_program(void)
{
    GLint program = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    return (uint64_t)(uint32_t)program;
}

/* ---- traced pointers ------------------------------------------------------------------- */

typedef struct region {
    uint64_t traced, size, key;
    void *replayed;
} region;

static region *regions;
static size_t num_regions, cap_regions;

void retrace_ptr_set_key(uint64_t traced, void *replayed, uint64_t size, uint64_t key)
{
    for (size_t i = 0; i < num_regions; ++i) {
        if (regions[i].traced == traced) { /* the same address mapped again */
            memmove(&regions[i], &regions[i + 1], (num_regions - i - 1) * sizeof *regions);
            num_regions--;
            break;
        }
    }
    if (GT_GROW(regions, cap_regions, num_regions + 1, 16) != 0)
        oom((cap_regions ? cap_regions * 2 : 16) * sizeof *regions);
    regions[num_regions++] = (region){traced, size, key, replayed};
}

void retrace_ptr_set(uint64_t traced, void *replayed, uint64_t size)
{
    retrace_ptr_set_key(traced, replayed, size, 0);
}

void retrace_ptr_del_key(uint64_t key)
{
    size_t j = 0;
    for (size_t i = 0; i < num_regions; ++i)
        if (regions[i].key != key)
            regions[j++] = regions[i];
    num_regions = j;
}

void *retrace_ptr_lookup(uint64_t traced, uint64_t *room)
{
    for (size_t i = num_regions; i-- > 0;) { /* the newest region wins */
        const region *r = &regions[i];
        if (traced == r->traced || (traced > r->traced && traced - r->traced < r->size)) {
            if (room)
                *room = r->size - (traced - r->traced);
            return (char *)r->replayed + (traced - r->traced);
        }
    }
    if (room)
        *room = 0;
    return NULL;
}

void *retrace_ptr_get(uint64_t traced)
{
    return retrace_ptr_lookup(traced, NULL);
}

/* ---- the end of a replay --------------------------------------------------------------- */

static void map_free(name_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

void retrace_values_free(void)
{
    retrace_programs_free();
    retrace_scratch_free();
    for (; kept.n; kept.n--, kept.first = (kept.first + 1) % KEEP_MAX)
        free(kept.p[kept.first]);
    memset(&kept, 0, sizeof kept);
    for (unsigned i = 0; i < RETRACE_OUT_KEPT; ++i) {
        free(out_kept[i]);
        out_kept[i] = NULL;
    }
    out_kept_next = 0;
    for (size_t i = 0; i < num_owned; ++i) {
        map_free(&owned[i]->map);
        free(owned[i]);
    }
    free(owned);
    owned = NULL;
    num_owned = 0;
    memset(extra_ns, 0, sizeof extra_ns);
    cur_context = cur_group = 0;
    memset(cur, 0, sizeof cur);
    map_free(&locations);
    locations_differ = false;
    free(regions);
    regions = NULL;
    num_regions = cap_regions = 0;
}
