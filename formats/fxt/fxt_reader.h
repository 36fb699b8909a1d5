/* Fuchsia trace format (FXT) reader: streams records into the timeline model
 * (../shared/formats/fuchsia-trace-format.md). Ticks become nanoseconds with the
 * initialization record's rate (1e9 ticks/s when absent); string and thread
 * refs, indexed or inline, are resolved; kernel objects naming processes and
 * threads become PROCESS_NAME / THREAD_NAME; context switches become
 * GT_TL_CONTEXT_SWITCH; log records become instants (name "log", argument
 * "message"); the markers of fxt_format.h restore the kinds FXT lacks.
 * Blob, userspace-object, large and unknown records are skipped by size.
 *
 * Liberal by default: deviations real writers make (nonzero padding or
 * reserved bits, zero-size arguments, no magic or initialization record,
 * undefined refs, a record cut at the end) are read with a warning through
 * opts->warn. opts->strict refuses each of them with "FILE: offset N: what".
 * Memory is bounded: the file is read in chunks; each provider of an archive
 * (up to 64) has its own string and thread tables of the spec's sizes. */
#ifndef FXT_READER_H
#define FXT_READER_H

#include <stddef.h>
#include <stdint.h>

#include "gt_timeline.h"

/* opts may be NULL (liberal, silent). 0 on success, -1 with err set. */
int gt_fxt_read(const char *path, gt_timeline *tl, gt_tl_sink *sink, const gt_tl_read_opts *opts,
                gt_error *err);
int gt_fxt_read_mem(const uint8_t *data, size_t size, const char *name, gt_timeline *tl,
                    gt_tl_sink *sink, const gt_tl_read_opts *opts, gt_error *err);

#endif
