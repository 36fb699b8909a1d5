/* The live object names the snapshot's data-object parts re-create, and names for
 * their temporary objects (snap_objects.h). */
#include "snap_objects.h"

#include <stdlib.h>

#include "capture_track.h"

size_t snap_live_names(const char *cls, unsigned char (*is)(unsigned), uint32_t **names)
{
    *names = NULL;
    int id = gltrace_track_class(cls);
    if (id < 0)
        return 0;
    uint32_t *all = NULL;
    size_t n = gltrace_tracked_names(id, &all), live = 0;
    /* generated but never bound, or another share group's: not this context's object */
    for (size_t i = 0; i < n; ++i)
        if (is(all[i]))
            all[live++] = all[i];
    if (!live) {
        free(all);
        all = NULL;
    }
    *names = all;
    return live;
}

uint32_t snap_free_name(const char *cls)
{
    int id = gltrace_track_class(cls);
    uint32_t *all = NULL;
    size_t n = id < 0 ? 0 : gltrace_tracked_names(id, &all);
    uint32_t top = n ? all[n - 1] : 0; /* sorted */
    free(all);
    return top + 1;
}
