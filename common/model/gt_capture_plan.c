#define _GNU_SOURCE
#include "gt_capture_plan.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

int gt_capture_init(gt_capture_plan *c, const gt_frameranges *r, int by_trigger, gt_error *err)
{
    memset(c, 0, sizeof *c);
    c->ranges = *r;
    c->by_trigger = by_trigger;
    if (by_trigger && r->n) {
        gt_error_set(err, "a trigger takes \"+N\" frames or none, not frame numbers");
        return -1;
    }
    if (!by_trigger && !r->n) {
        gt_error_set(err, "no frame range (\"+N\" needs a trigger)");
        return -1;
    }
    return 0;
}

static unsigned start(gt_capture_plan *c, uint64_t first, uint64_t last)
{
    c->writing = 1;
    c->first = first;
    c->last = last;
    return GT_CAPTURE_START;
}

unsigned gt_capture_begin(gt_capture_plan *c)
{
    if (c->by_trigger || c->ranges.r[0].first != 0)
        return 0;
    c->next = 1;
    return start(c, 0, c->ranges.r[0].last);
}

static unsigned triggered_step(gt_capture_plan *c, uint64_t ended, int triggered)
{
    unsigned act = 0;
    if (c->writing && (ended == c->last || (triggered && c->last == GT_CAPTURE_OPEN_END))) {
        c->writing = 0;
        act |= GT_CAPTURE_STOP;
        triggered = 0; /* it was the stop, or came while N frames were written */
    }
    if (!c->writing && triggered) {
        uint64_t n = c->ranges.per_trigger;
        act |= start(c, ended + 1, n ? ended + n : GT_CAPTURE_OPEN_END);
    }
    return act;
}

unsigned gt_capture_frame_end(gt_capture_plan *c, uint64_t ended, int triggered)
{
    if (c->by_trigger)
        return triggered_step(c, ended, triggered);
    unsigned act = 0;
    if (c->writing && ended >= c->last) {
        c->writing = 0;
        act |= GT_CAPTURE_STOP;
    }
    if (!c->writing && c->next < c->ranges.n && c->ranges.r[c->next].first == ended + 1) {
        act |= start(c, ended + 1, c->ranges.r[c->next].last);
        c->next++;
    }
    return act;
}

int gt_capture_done(const gt_capture_plan *c)
{
    return !c->by_trigger && !c->writing && c->next == c->ranges.n;
}

int gt_capture_signal(const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (*s && !*end)
        return n > 0 && n < NSIG ? (int)n : 0;
    if (!strncmp(s, "SIG", 3))
        s += 3;
    for (int i = 1; i < NSIG; ++i) {
        const char *abbrev = sigabbrev_np(i);
        if (abbrev && !strcmp(abbrev, s))
            return i;
    }
    return 0;
}
