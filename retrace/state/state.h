/* The state room (retrace/state): the GL state of the current context as apitrace's
 * `glretrace -D CALL` writes it (JSON that qapitrace and apitrace's scripts read), once
 * (-D) or at call after call (--state-server). What the main loop calls; the room's own
 * files share state_dump.h.
 *
 * --state-server, for `gltrace view`: requests are call numbers, one per line on stdin;
 * the replay runs forward to each (or the first later call with a current context
 * outside glBegin/glEnd, as -D) and answers on stdout:
 *   progress C          the last call replayed, at most every 100 ms while it runs
 *   state N LEN         then exactly LEN bytes: -D's JSON after call N
 *   error MESSAGE       no state: "behind ..." (the call asked for is before where the
 *                       replay stands: start a new process), "bad request ...", or the
 *                       trace ended first
 * The replay waits for the next request after each answer; EOF on stdin ends it. */
#ifndef RETRACE_STATE_H
#define RETRACE_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gt_error.h"
#include "gt_model.h"

/* Writes the state JSON after CALL (named in messages) to OUT (state_dump.c).
 * single_buffer: the window's colour is its front buffer. 0, or -1 with err set. */
int state_dump(FILE *out, const gt_call *call, bool single_buffer, gt_error *err);

/* --state-server (state_server.c). Reads the first request: 1 when there is one, 0 at
 * EOF (nothing to replay). */
int state_server_begin(void);
/* After call c ran; can_dump: a context is current and not inside glBegin/glEnd.
 * Returns true when the replay is to stop (stdin closed, a call behind asked for). */
bool state_server_after(const gt_call *c, bool can_dump, bool single_buffer);
/* The trace ended (at last_call): a pending request is answered with an error. */
void state_server_end(uint32_t last_call);

#endif
