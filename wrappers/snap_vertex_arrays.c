/* The state snapshot's vertex_arrays (snapshot.h): not written yet. */
#include "snapshot_parts.h"

static void *collect(snap *s)
{
    (void)s;
    return NULL;
}

static void write_part(snap *s, void *data)
{
    (void)s;
    (void)data;
}

static void free_part(void *data) { (void)data; }

const snap_part snap_part_vertex_arrays = {"vertex_arrays", collect, write_part, free_part};
