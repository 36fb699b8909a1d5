/* Fuchsia trace format (FXT) writer: a gt_tl_sink that writes the timeline
 * model as FXT records (../shared/formats/fuchsia-trace-format.md): magic,
 * initialization (1e9 ticks/s: model time is ns), provider info, string and
 * thread tables with indexed references, kernel-object records for process and
 * thread names, then events. Writing is buffered; the sink's finish flushes.
 *
 * Mapping (fxt_format.h has the details): names, categories and argument
 * names are indexed strings (string records at first use; when the 32767
 * indices are used up they are reused round robin); (pid, tid) pairs are
 * indexed threads (255, reused likewise); string argument values, which the
 * model does not intern, are inline. Strings are cut at 32000 bytes and
 * inline values further so a record stays within 4095 words. FXT holds at
 * most 15 arguments per record: further ones are dropped. JSON arguments
 * become strings. Context switches keep the low 8 bits of cpu and
 * priorities and 4 bits of the thread state. Object, sample and stack-frame
 * events, instant scopes and event stacks travel as marker arguments that
 * gt_fxt_read turns back into the same model events. */
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
