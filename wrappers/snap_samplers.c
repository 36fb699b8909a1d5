/* The state snapshot's samplers (snapshot.h): each live sampler re-created with
 * glGenSamplers and glSamplerParameter* of every parameter that differs from a new
 * sampler's (snap_sampling.c). */
#include "snap_objects.h"

#include <stdlib.h>

#include "protos.gen.h"

struct sampler {
    uint32_t name;
    snap_sampling sampling;
};

struct samplers {
    size_t n;
    struct sampler *s;
};

static void *collect(snap *s)
{
    if (!snap_real_has("glIsSampler"))
        return NULL;
    uint32_t *names;
    size_t n = snap_live_names("sampler", SNAP_REAL(glIsSampler), &names);
    if (!n)
        return NULL;
    struct samplers *all = calloc(1, sizeof *all);
    struct sampler *each = calloc(n, sizeof *each);
    if (!all || !each) {
        snap_unreadable(s, "out of memory: %zu samplers not written", n);
        free(all), free(each), free(names);
        return NULL;
    }
    all->n = n;
    all->s = each;
    for (size_t i = 0; i < n; ++i) {
        each[i].name = names[i];
        snap_sampling_read(s, &each[i].sampling, 0, 0, names[i], 0);
    }
    free(names);
    return all;
}

static void write_part(snap *s, void *data)
{
    (void)s;
    struct samplers *all = data;
    for (size_t i = 0; i < all->n; ++i) {
        GLuint name = all->s[i].name;
        glGenSamplers(1, &name);
        snap_sampling_write(&all->s[i].sampling, 0, 0, all->s[i].name);
    }
}

static void free_part(void *data)
{
    struct samplers *all = data;
    free(all->s);
    free(all);
}

const snap_part snap_part_samplers = {"samplers", collect, write_part, free_part};
