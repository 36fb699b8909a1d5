/* Timeline files by format: which format a file holds (by its first bytes, else
 * its name), and the reader or writer for it. `gltrace convert` uses this; the
 * formats themselves live in formats/<name>/. */
#ifndef TIMELINE_IO_H
#define TIMELINE_IO_H

#include "gt_outfile.h"
#include "gt_timeline.h"
#include "gt_timeline_text.h"

typedef enum tl_format {
    TL_FMT_UNKNOWN = 0,
    TL_FMT_FXT,      /* .fxt */
    TL_FMT_CHROME,   /* .json, .json.gz */
    TL_FMT_XRAY,     /* .xray (FDR or basic mode) */
    TL_FMT_TRACECMD, /* .dat */
    TL_FMT_APITRACE, /* .trace: a GL trace, replayed with timings */
    TL_FMT_TEXT,     /* .txt: the text form (gt_timeline_text.h), output only */
} tl_format;

const char *tl_format_name(tl_format f);
/* From the file's contents (magic bytes), else from its name. Unreadable files
 * and unknown contents: TL_FMT_UNKNOWN with err set. */
tl_format tl_format_of_file(const char *path, gt_error *err);
/* From a name's extension only (for outputs). */
tl_format tl_format_of_name(const char *path);

/* Reads a timeline file of a format that has a reader (not TL_FMT_APITRACE). */
int tl_read(tl_format f, const char *path, gt_timeline *tl, gt_tl_sink *sink,
            const gt_tl_read_opts *opts, gt_error *err);

typedef struct tl_output {
    tl_format fmt;
    void *writer;
    gt_tl_text text;
    gt_tl_sink sink;
    /* the output (and an XRay output's instrumentation map, OUT.map) through a
     * temporary file beside it, or in place for a device or FIFO (gt_outfile.h) */
    gt_outfile file, map;
    bool has_file, has_map;
} tl_output;

/* Opens the writer of path ("-": the text form on stdout). An output that is the
 * same file as one of the n inputs is refused. */
int tl_output_open(tl_output *o, const char *path, tl_format f, const char *const *inputs,
                   size_t n, gt_error *err);
/* After the sink's finish: closes the writer and puts the files in place. */
int tl_output_commit(tl_output *o, gt_error *err);
/* Abandons the output: frees the writer and removes its temporary files; the
 * target is left as it was. Safe after commit and on a never-opened output. */
void tl_output_abort(tl_output *o);
/* What a failed output leaves at its target, for the error message (NULL for
 * stdout and for an output never opened). */
const char *tl_output_left(const tl_output *o);

#endif
