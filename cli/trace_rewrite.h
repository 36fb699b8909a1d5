/* Writing a new trace from one read (repack, trim, sed): the output goes through a
 * temporary file beside it (common/util/gt_outfile.h), renamed into place only when the
 * whole trace is written, so a failure leaves an existing output as it was, and the
 * output may never be the input (its mapping would be truncated under the reader). */
#ifndef TRACE_REWRITE_H
#define TRACE_REWRITE_H

#include <stdbool.h>

#include "at_reader.h"
#include "at_writer.h"
#include "gt_outfile.h"

typedef struct trace_rewrite {
    const char *cmd;      /* "gltrace trim": prefixes messages */
    const char *out_path; /* the final name */
    gt_outfile out;
    bool began;
    at_reader *r;
    at_writer *w;
} trace_rewrite;

/* A property set on the output (NAME=VALUE; replaces the input's of that name). */
typedef struct trace_property {
    const char *name, *value;
} trace_property;

/* apitrace's default output name: IN without its .trace, then SUFFIX ("-trim.trace"),
 * beside IN; NULL when out of memory. */
char *trace_default_output(const char *in, const char *suffix);

/* Opens IN for reading (reader options ROPT, may be NULL) and OUT for writing, with
 * the input's properties and SET's over them. 0, or -1 after saying why on stderr
 * (everything is closed then). */
int trace_rewrite_open(trace_rewrite *t, const char *cmd, const char *in, const char *out,
                       const at_reader_options *ropt, const trace_property *set, unsigned nset);
/* Finishes: with STATUS 0 the output is closed and renamed into place (a failure
 * there is said and makes the status 1); otherwise it is removed and what was kept
 * said. Returns the exit status. */
int trace_rewrite_close(trace_rewrite *t, int status);

#endif
