/* Coherent persistent maps (hook_mapbuffer_pages.c): which bytes a commit writes, in
 * apitrace 11's page runs. Used by hook_mapbuffer.c. */
#ifndef HOOK_MAPBUFFER_PAGES_H
#define HOOK_MAPBUFFER_PAGES_H

#include <stddef.h>
#include <stdint.h>

struct map_pages {
    const uint8_t *ptr;    /* the mapped memory the program writes */
    const uint8_t *shadow; /* what the trace holds of it */
    size_t offset;         /* the map's offset in the buffer */
    size_t length;         /* bytes mapped */
    size_t buffer_pages;   /* pages of the whole buffer (apitrace's shadow) */
};

/* Called for each run to write: n bytes at off from the map's start. */
typedef void (*map_pages_write_fn)(void *ctx, size_t off, size_t n);

/* Calls write for each run of pages apitrace would write now, in address order. */
void map_pages_commit(const struct map_pages *m, map_pages_write_fn write, void *ctx);

#endif
