/* The setters of the context state (snap_state_set.c): collected from the driver, then
 * written through our wrappers, one section at a time (snap_state.h). */
#ifndef SNAP_STATE_SET_H
#define SNAP_STATE_SET_H

#include <stddef.h>

#include "snap_state.h"

/* One setter call to write, with the values read. */
typedef struct {
    const snap_setter *set;
    unsigned obj; /* the light, the face, or 0 */
    int unit;     /* the texture unit it belongs to, or -1 */
    snap_value v[16];
} snap_set_call;

typedef struct {
    snap_set_call *calls;
    size_t n, cap;
} snap_set_list;

/* Whether setter t is asked in this context (its providers and conditions). */
int snap_state_applies(const snap *s, int core, const snap_setter *t);

/* Reads the setters of section sec (obj: the light or face it walks; unit: the texture
 * unit active in the driver, or -1) and adds those whose values are not the defaults
 * to list; what has no setter and is not the default is said unreadable. 0, or -1 out
 * of memory. */
int snap_state_set_collect(snap *s, snap_set_list *list, unsigned sec, unsigned obj, int unit,
                           int core);

/* Writes the calls of section sec and unit (-1: none) in the order collected. */
void snap_state_set_write(const snap_set_list *list, unsigned sec, int unit);

void snap_state_set_free(snap_set_list *list);

#endif
