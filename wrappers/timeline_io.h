/* Timeline files by format: which format a file holds (by its first bytes, else
 * its name), and the reader or writer for it. `gltrace convert` uses this; the
 * formats themselves live in formats/<name>/. */
#ifndef TIMELINE_IO_H
#define TIMELINE_IO_H

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
} tl_output;

int tl_output_open(tl_output *o, const char *path, tl_format f, gt_error *err);
/* Frees the writer (after the sink's finish, or to abandon the output). */
void tl_output_close(tl_output *o);

#endif
