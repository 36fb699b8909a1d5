/* The GL object names alive in the process while frame ranges are asked for
 * (gltrace_runtime.h: gltrace_track_*): what a range's state snapshot will have to
 * recreate. The generated wrappers of the functions that create or delete names of a
 * registry namespace (glGen*, glCreate*, glDelete*: specs/gen_leaks.py's rows) report
 * here after the real call, recorded or not. One set per class of
 * track_classes.gen.h, for the whole process (not yet per share group, as `gltrace
 * leaks`), under one lock: these calls are rare next to the rest.
 *
 * GLTRACE_CAPTURE_DEBUG=objects prints the live names at each range's start on
 * stderr (tests compare them with `gltrace leaks` of a full recording). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_frames.h"
#include "capture_track.h"
#include "gltrace_runtime.h"
#include "track_classes.gen.h"

int gltrace_tracking;

/* Open addressing with linear probing and backward-shift deletion (no tombstones);
 * 0 is never a name. */
typedef struct name_set {
    uint32_t *slot;
    size_t cap, n; /* cap a power of two, or 0 */
} name_set;

static name_set g_sets[GT_TRACK_CLASSES];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_lost; /* out of memory once: the sets are incomplete */

static size_t home(const name_set *s, uint32_t v) { return (v * 2654435761u) & (s->cap - 1); }

static int grow(name_set *s)
{
    size_t cap = s->cap ? s->cap * 2 : 64;
    uint32_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return 0;
    name_set t = {slot, cap, 0};
    for (size_t i = 0; i < s->cap; ++i) {
        uint32_t v = s->slot[i];
        if (!v)
            continue;
        size_t j = home(&t, v);
        while (t.slot[j])
            j = (j + 1) & (cap - 1);
        t.slot[j] = v;
        t.n++;
    }
    free(s->slot);
    *s = t;
    return 1;
}

static void add(name_set *s, uint32_t v)
{
    if ((s->n + 1) * 2 > s->cap && !grow(s)) {
        g_lost = 1;
        return;
    }
    size_t j = home(s, v);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == v)
            return;
    s->slot[j] = v;
    s->n++;
}

static void drop(name_set *s, uint32_t v)
{
    if (!s->cap)
        return;
    size_t j = home(s, v);
    while (s->slot[j] != v) {
        if (!s->slot[j])
            return;
        j = (j + 1) & (s->cap - 1);
    }
    /* backward shift: later entries of the run move up into the hole */
    for (size_t k = (j + 1) & (s->cap - 1); s->slot[k]; k = (k + 1) & (s->cap - 1)) {
        size_t h = home(s, s->slot[k]);
        if (((k - h) & (s->cap - 1)) >= ((k - j) & (s->cap - 1))) {
            s->slot[j] = s->slot[k];
            j = k;
        }
    }
    s->slot[j] = 0;
    s->n--;
}

void gltrace_track_names_slow(unsigned cls, int gone, long n, const uint32_t *names)
{
    if (cls >= GT_TRACK_CLASSES)
        return;
    pthread_mutex_lock(&g_lock);
    for (long i = 0; i < n; ++i)
        if (names[i])
            (gone ? drop : add)(&g_sets[cls], names[i]);
    pthread_mutex_unlock(&g_lock);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int gltrace_track_class(const char *name)
{
    for (int c = 0; c < GT_TRACK_CLASSES; ++c)
        if (!strcmp(gt_track_class_names[c], name))
            return c;
    return -1;
}

/* The names of s, sorted, into *out (malloc'd); called with g_lock held. */
static size_t sorted_names(const name_set *s, uint32_t **out)
{
    uint32_t *v = s->n ? malloc(s->n * sizeof *v) : NULL;
    size_t k = 0;
    for (size_t i = 0; v && i < s->cap; ++i)
        if (s->slot[i])
            v[k++] = s->slot[i];
    if (k)
        qsort(v, k, sizeof *v, cmp_u32);
    *out = v;
    return k;
}

size_t gltrace_tracked_names(int cls, uint32_t **names)
{
    *names = NULL;
    if (cls < 0 || cls >= GT_TRACK_CLASSES)
        return 0;
    pthread_mutex_lock(&g_lock);
    size_t n = sorted_names(&g_sets[cls], names);
    pthread_mutex_unlock(&g_lock);
    return n;
}

int gltrace_tracking_lost(void) { return g_lost; }

/* GLTRACE_CAPTURE_DEBUG=objects: "gltrace: frame F: live CLASS: 1 2 3" per class. */
static void report(unsigned long long frame)
{
    pthread_mutex_lock(&g_lock);
    for (unsigned c = 0; c < GT_TRACK_CLASSES; ++c) {
        uint32_t *v;
        size_t k = sorted_names(&g_sets[c], &v);
        fprintf(stderr, "gltrace: frame %llu: live %s:", frame, gt_track_class_names[c]);
        for (size_t i = 0; i < k; ++i)
            fprintf(stderr, " %u", v[i]);
        fputc('\n', stderr);
        free(v);
    }
    if (g_lost)
        fprintf(stderr, "gltrace: frame %llu: out of memory: the live objects are not all "
                        "known\n", frame);
    pthread_mutex_unlock(&g_lock);
}

__attribute__((constructor)) static void track_init(void)
{
    gltrace_tracking = gltrace_capture_on();
    const char *debug = getenv("GLTRACE_CAPTURE_DEBUG");
    if (gltrace_tracking && debug && !strcmp(debug, "objects"))
        gltrace_capture_on_range_start(report);
}
