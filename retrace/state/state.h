/* glretrace --state-server: the GL state at call after call, for `gltrace view`.
 *
 * Requests are call numbers, one per line on stdin; the replay runs forward to each
 * (or the first later call with a current context outside glBegin/glEnd, as -D) and
 * answers on stdout:
 *   progress C          the last call replayed, at most every 100 ms while it runs
 *   state N LEN         then exactly LEN bytes: -D's JSON after call N
 *   error MESSAGE       no state: "behind ..." (the call asked for is before where the
 *                       replay stands: start a new process), "bad request ...", or the
 *                       trace ended first
 * The replay waits for the next request after each answer; EOF on stdin ends it. */
#ifndef RETRACE_STATE_SERVER_H
#define RETRACE_STATE_SERVER_H

#include <stdbool.h>

#include "gt_model.h"

/* Reads the first request: 1 when there is one, 0 at EOF (nothing to replay). */
int state_server_begin(void);
/* After call c ran; can_dump: a context is current and not inside glBegin/glEnd.
 * Returns true when the replay is to stop (stdin closed, a call behind asked for). */
bool state_server_after(const gt_call *c, bool can_dump, bool single_buffer);
/* The trace ended (at last_call): a pending request is answered with an error. */
void state_server_end(uint32_t last_call);

#endif
