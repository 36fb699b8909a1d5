/* Whether the current GL context provides a function, before glretrace calls it:
 * libepoxy aborts the process on a function no provider of the context offers
 * (glMakeTextureHandleResidentARB on llvmpipe). The providers of each function come
 * from the registry (specs/providers.py, in the generated table); the answers are
 * cached per context, so the check on the hot path is one byte load and a branch. */
#ifndef GL_AVAIL_H
#define GL_AVAIL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gl_avail {
    bool desktop;   /* desktop GL, else OpenGL ES */
    int version;    /* 10 * major + minor, as epoxy_gl_version() */
    unsigned n;     /* entries of known */
    uint8_t *known; /* by table index: 0 not asked yet, 1 provided, 2 not provided */
} gl_avail;

/* The cache of the context current now (reads its version and API); NULL when out
 * of memory (then every function counts as provided). n: the table's entries. */
gl_avail *gl_avail_new(unsigned n);
void gl_avail_free(gl_avail *a);

/* Whether a provider named in PROVIDERS ("GL1.5 ES2.0 GL_ARB_foo") is in A's context,
 * which must be current. Asks GL (the extension list), not the cache. */
bool gl_avail_check(const gl_avail *a, const char *providers);

/* Cached gl_avail_check of table entry I. PROVIDERS NULL: calls no GL, always true. */
static inline bool gl_avail_has(gl_avail *a, unsigned i, const char *providers)
{
    if (!a || !providers || i >= a->n)
        return true;
    if (!a->known[i])
        a->known[i] = gl_avail_check(a, providers) ? 1 : 2;
    return a->known[i] == 1;
}

#endif
