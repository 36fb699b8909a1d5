/* Where a frame range's state snapshot ends (at_snapshot.h). */
#include "at_snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "gt_snapshot_marker.h"

int at_is_snapshot_end(const gt_call *call)
{
    if (!call->sig || strcmp(call->sig->name, "glStringMarkerGREMEDY") || call->num_args < 2)
        return 0;
    const gt_value *s = &call->args[1];
    return s->kind == GT_STRING && s->str.s &&
           !strncmp(s->str.s, GT_SNAPSHOT_END_MARKER, strlen(GT_SNAPSHOT_END_MARKER));
}

long long at_snapshot_first_frame(const at_reader *r)
{
    for (unsigned i = 0; i < at_reader_num_properties(r); ++i) {
        const at_property *p = at_reader_property(r, i);
        if (!strcmp(p->name, GT_SNAPSHOT_PROPERTY))
            return strtoll(p->value, NULL, 10);
    }
    return -1;
}

int at_snapshot_end(at_reader *r, uint32_t *end)
{
    gt_call *c;
    while ((c = at_reader_next(r)) != NULL) {
        int found = at_is_snapshot_end(c);
        *end = c->no;
        at_reader_release(r, c);
        if (found)
            return 1;
    }
    return at_reader_error(r) ? -1 : 0;
}
