/* Timeline files by format: which format a file holds (by its first bytes, else
 * its name), and the reader or writer for it, from the table of formats
 * (timeline_formats.c). `gltrace convert` uses this; the formats themselves live in
 * formats/<name>/. */
#ifndef TIMELINE_IO_H
#define TIMELINE_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "gt_outfile.h"
#include "gt_timeline.h"
#include "gt_timeline_text.h"

typedef struct tl_output tl_output;

#define TL_NEXTS 4 /* the most name endings a format has */

/* One timeline format, a row of the table in timeline_formats.c. */
typedef struct tl_format {
    const char *name;    /* in messages: "FXT" */
    const char *exts[TL_NEXTS]; /* the endings of its files' names (".json", ".json.gz") */
    /* Whether a file's first bytes (n of them, at most 64) are this format's; NULL:
     * known by name only. A weak test may match other files: a name that says
     * otherwise wins. */
    bool (*sniff)(const unsigned char *b, size_t n);
    bool weak_sniff;
    /* Reads a whole file into sink (gt_timeline.h); NULL: not read here */
    int (*read)(const char *path, gt_timeline *tl, gt_tl_sink *sink,
                const gt_tl_read_opts *opts, gt_error *err);
    bool replayed; /* a GL trace: its user replays it into a timeline (gltrace convert) */
    /* Opens o's writer over path (a temporary file, a device, or "-" for stdout) and
     * sets o->writer and o->sink; name is the output's name for messages. NULL: no
     * writer. write_close frees the writer: 0, or -1 when closing its file failed. */
    int (*write_open)(tl_output *o, const char *path, const char *name, gt_error *err);
    int (*write_close)(tl_output *o, gt_error *err);
    bool sorted; /* its writer takes the events in time order */
    bool map;    /* its writer also writes an instrumentation map, OUT.map */
} tl_format;

/* Every format, NULL-terminated, in the order files' first bytes are tried. */
extern const tl_format *const tl_formats[];
/* The formats others name: FXT (what a replay writes), the text form (stdout). */
extern const tl_format tl_format_fxt, tl_format_text;

/* From the file's contents (magic bytes), else from its name. Unreadable files
 * and unknown contents: NULL with err set. */
const tl_format *tl_format_of_file(const char *path, gt_error *err);
/* From a name's extension only (for outputs); NULL when none fits. */
const tl_format *tl_format_of_name(const char *path);

/* Reads a timeline file of a format that has a reader. */
int tl_read(const tl_format *f, const char *path, gt_timeline *tl, gt_tl_sink *sink,
            const gt_tl_read_opts *opts, gt_error *err);

struct tl_output {
    const tl_format *fmt; /* NULL: no output */
    void *writer;
    gt_tl_text text;
    gt_tl_sink sink;
    /* the output (and an XRay output's instrumentation map, OUT.map) through a
     * temporary file beside it, or in place for a device or FIFO (gt_outfile.h) */
    gt_outfile file, map;
    bool has_file, has_map;
};

/* Opens the writer of path ("-": the text form on stdout). An output that is the
 * same file as one of the n inputs is refused. */
int tl_output_open(tl_output *o, const char *path, const tl_format *f, const char *const *inputs,
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
