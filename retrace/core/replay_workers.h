/* The replay's threads (as apitrace's glretrace): the main loop reads and decodes the
 * trace on its own thread while each traced thread's calls run on an OS thread of their
 * own, so each keeps its context current as the traced program did (binding a context
 * again at every switch of traced thread costs an X round trip with Mesa's GLX) and
 * decoding overlaps dispatch.
 *
 * Calls still run one at a time in trace order: they go through one ring, and only the
 * worker that owns the oldest call not yet run may run it (a baton). So the replayer's
 * state needs no locks; it passes from worker to worker with the baton. Calls come back
 * to the main loop (the done callback, on the main thread) once run, so the reader that
 * made them is only ever used by one thread.
 *
 * single: every traced thread's calls on one worker (--singlethread), which then
 * rebinds contexts when the traced thread changes. */
#ifndef RETRACE_REPLAY_WORKERS_H
#define RETRACE_REPLAY_WORKERS_H

#include <stdbool.h>

#include "gt_error.h"
#include "gt_model.h"

typedef struct replay_workers_callbacks {
    void (*run)(gt_call *c);            /* on a worker: replays c */
    void (*done)(gt_call *c, bool keep); /* on the main thread: c has run */
    void (*thread_exit)(void);          /* on each worker as it ends, one at a time */
} replay_workers_callbacks;

/* 0, or -1 with err set. */
int replay_workers_start(const replay_workers_callbacks *cb, bool single, gt_error *err);
/* Queues c for its traced thread's worker; keep is handed back to done. Blocks while
 * the ring is full. 0, or -1 with err set when no worker thread can be started. */
int replay_workers_push(gt_call *c, bool keep, gt_error *err);
/* Waits until every queued call has run and has been handed to done. */
void replay_workers_drain(void);
/* Drains, then ends the workers (each calls thread_exit) and joins them. */
void replay_workers_stop(void);

#endif
