/* Chrome Trace Event Format writer (JSON object form,
 * ../shared/formats/chrome-trace-event-format.md): a gt_tl_sink that writes
 * {"displayTimeUnit":"ns","traceEvents":[...],"stackFrames":{...}} (and
 * "metadata" with the wall-clock anchor when the timeline has one) with
 * ts/dur in microseconds at nanosecond precision, M events for process and
 * thread names, and correct JSON escaping. Events stream out as they come;
 * stack frames are kept until finish, which closes the document. The choices
 * the format leaves open (large koids, ids, context switches) are listed at
 * the top of chrome_writer.c; chrome_reader.h reads them all back. */
#ifndef CHROME_WRITER_H
#define CHROME_WRITER_H

#include <stdio.h>

#include "gt_timeline.h"

typedef struct gt_chrome_writer gt_chrome_writer;

/* path "-" writes to stdout. */
gt_chrome_writer *gt_chrome_writer_open(const char *path, gt_error *err);
gt_chrome_writer *gt_chrome_writer_open_stream(FILE *f, const char *name, gt_error *err);
gt_tl_sink gt_chrome_writer_sink(gt_chrome_writer *w);
void gt_chrome_writer_free(gt_chrome_writer *w);

#endif
