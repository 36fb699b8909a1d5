/* trace-cmd .dat reader (file versions 6 and 7): kernel ftrace events into the
 * timeline model (common/model/gt_timeline.h).
 *
 * sched_switch becomes a context switch; function-graph entry/exit become
 * begin/end slices named by the function (kallsyms); every other event is an
 * instant on its task's track, cat = event system, name = event name, with the
 * CPU ("cpu") and every non-common field as arguments; kernel_stack events
 * carry their stack as stack frames. Saved cmdlines name the threads. Events of
 * every CPU and buffer instance are merged by timestamp (ties: lower CPU first,
 * as trace-cmd report does), holding one page (or one compressed chunk) per CPU. */
#ifndef TC_READER_H
#define TC_READER_H

#include <stddef.h>
#include <stdint.h>

#include "gt_error.h"
#include "gt_timeline.h"

int gt_tracecmd_read(const char *path, gt_timeline *tl, gt_tl_sink *sink,
                     const gt_tl_read_opts *opts, gt_error *err);
int gt_tracecmd_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                         gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err);

#endif
