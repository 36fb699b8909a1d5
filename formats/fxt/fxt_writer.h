/* Fuchsia trace format (FXT) writer: a gt_tl_sink that writes the timeline
 * model as FXT records (../shared/formats/fuchsia-trace-format.md): magic,
 * initialization (1e9 ticks/s: model time is ns), provider info, string and
 * thread tables with indexed references, kernel-object records for process and
 * thread names, then events. Writing is buffered; the sink's finish flushes. */
#ifndef FXT_WRITER_H
#define FXT_WRITER_H

#include <stdio.h>

#include "gt_timeline.h"

typedef struct gt_fxt_writer gt_fxt_writer;

/* path "-" writes to stdout. provider may be NULL ("gltrace"). */
gt_fxt_writer *gt_fxt_writer_open(const char *path, const char *provider, gt_error *err);
/* Writes to an open stream the caller keeps owning (tests, in-memory files). */
gt_fxt_writer *gt_fxt_writer_open_stream(FILE *f, const char *name, const char *provider, gt_error *err);
gt_tl_sink gt_fxt_writer_sink(gt_fxt_writer *w);
/* Writes buffered records out now (the recorder calls this from its flusher). */
int gt_fxt_writer_flush(gt_fxt_writer *w, gt_error *err);
void gt_fxt_writer_free(gt_fxt_writer *w);

#endif
