/* trace-cmd .dat writer (file version 7, uncompressed): timeline slices and
 * instants as events of our own ftrace system "gltrace", readable by
 * `trace-cmd report` and KernelShark.
 *
 *   gltrace:call     a complete slice: call (the "call" argument, else 0), dur (ns),
 *                    name, cat, args
 *   gltrace:begin    a begin slice: name, cat, args     gltrace:end    an end slice
 *   gltrace:instant  an instant: name, cat, args
 * args holds the other arguments as "name=value ..." text (strings unquoted, at
 * most 1 KiB); the reader gives it back as one string argument "args".
 *
 *   sched:sched_switch  a context switch, laid out as Linux does, on its real CPU
 *                    (comms from its prev_comm/next_comm arguments, else the names
 *                    known so far)
 *
 * Each thread track gets its own "CPU", numbered after the real CPUs of context
 * switches, so its events stay in time order; a timestamp earlier than the
 * previous one on a CPU is written as an absolute time stamp. Thread and process
 * names become saved cmdlines; ids beyond int32 (GPU tracks) get pids from 2^30 up.
 * Other event kinds (counters, flows, async, stack frames, ...) have no mapping
 * and are skipped.
 * Pages are spooled to a temporary file; the .dat is written at finish. */
#ifndef TC_WRITER_H
#define TC_WRITER_H

#include "gt_error.h"
#include "gt_timeline.h"

typedef struct gt_tracecmd_writer gt_tracecmd_writer;

gt_tracecmd_writer *gt_tracecmd_writer_open(const char *path, gt_error *err); /* "-" = stdout */
gt_tl_sink gt_tracecmd_writer_sink(gt_tracecmd_writer *w);
void gt_tracecmd_writer_free(gt_tracecmd_writer *w);

#endif
