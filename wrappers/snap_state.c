/* The state snapshot's context state (snapshot.h), the last part written: the setters
 * of specs/state_setters.txt whose values are not the GL's defaults (snap_state_set.c),
 * the fixed-function state (snap_state_ff.c), indexed state (snap_state_indexed.c),
 * then the bindings (snap_state_bind.c), since the other parts bound what they made.
 * Only what the context provides is read: the program's GL error stays as it was.
 *
 * What the other parts may leave changed in the replayed context, and this part writes
 * whatever its value: every binding (textures on the units up to the last one the
 * program bound, buffers, framebuffers, program, vertex array), the active texture
 * unit, the client's, the pixel store, the matrix mode. Any other state they change for
 * their own calls they put back to the GL's defaults: values equal to the defaults are
 * not written here. */
#include <stdlib.h>

#include "snap_state_bind.h"
#include "snap_state_ff.h"
#include "snap_state_indexed.h"
#include "snap_state_set.h"
#include "snapshot_parts.h"

typedef struct {
    snap_set_list set;
    snap_state_ff ff;
    snap_state_indexed indexed;
    snap_state_bind bind;
} state_data;

static void free_part(void *data)
{
    state_data *d = data;
    snap_state_set_free(&d->set);
    snap_state_indexed_free(&d->indexed);
    snap_state_bind_free(&d->bind);
    free(d);
}

static void *collect(snap *s)
{
    state_data *d = calloc(1, sizeof *d);
    if (!d) {
        snap_unreadable(s, "context state: out of memory");
        return NULL;
    }
    int core = snap_state_core(s);
    if (snap_state_set_collect(s, &d->set, SNAP_SEC_GET, 0, -1, core) != 0 ||
        snap_state_ff_collect(s, &d->ff, &d->set, core) != 0 ||
        snap_state_indexed_collect(s, &d->indexed, core) != 0 ||
        snap_state_bind_collect(s, &d->bind, core) != 0) {
        snap_unreadable(s, "context state: out of memory");
        free_part(d);
        return NULL;
    }
    return d;
}

static void write_part(snap *s, void *data)
{
    (void)s;
    const state_data *d = data;
    snap_state_set_write(&d->set, SNAP_SEC_GET, -1);
    snap_state_ff_write(&d->ff, &d->set);
    snap_state_indexed_write(&d->indexed);
    snap_state_bind_write(&d->bind);
}

const snap_part snap_part_state = {"state", collect, write_part, free_part};
