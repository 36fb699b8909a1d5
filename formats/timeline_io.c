/* Timeline formats: detection and dispatch to the readers and writers. */
#include "timeline_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_reader.h"
#include "chrome_writer.h"
#include "fxt_reader.h"
#include "fxt_writer.h"
#include "gt_input.h"
#include "tc_reader.h"
#include "tc_writer.h"
#include "xray_reader.h"
#include "xray_writer.h"

const char *tl_format_name(tl_format f)
{
    switch (f) {
    case TL_FMT_FXT: return "FXT";
    case TL_FMT_CHROME: return "Chrome JSON";
    case TL_FMT_XRAY: return "XRay";
    case TL_FMT_TRACECMD: return "trace-cmd";
    case TL_FMT_APITRACE: return "apitrace";
    case TL_FMT_TEXT: return "text";
    default: return "unknown";
    }
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

tl_format tl_format_of_name(const char *path)
{
    static const struct {
        const char *ext;
        tl_format fmt;
    } exts[] = {
        {".fxt", TL_FMT_FXT},         {".json", TL_FMT_CHROME}, {".json.gz", TL_FMT_CHROME},
        {".xray", TL_FMT_XRAY},       {".dat", TL_FMT_TRACECMD}, {".trace", TL_FMT_APITRACE},
        {".txt", TL_FMT_TEXT},
    };
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (ends_with(path, exts[i].ext))
            return exts[i].fmt;
    return TL_FMT_UNKNOWN;
}

static tl_format format_of_bytes(const unsigned char *b, size_t n)
{
    static const unsigned char fxt_magic[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    static const unsigned char tc_magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    if (n >= 8 && memcmp(b, fxt_magic, 8) == 0)
        return TL_FMT_FXT;
    if (n >= 10 && memcmp(b, tc_magic, 10) == 0)
        return TL_FMT_TRACECMD;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return TL_FMT_CHROME; /* gzip: Catapult's compressed JSON */
    if (n >= 2 && (b[0] == 'a' || b[0] == 'A') && (b[1] == 't' || b[1] == 'T'))
        return TL_FMT_APITRACE; /* Snappy container */
    for (size_t i = 0; i < n; i++) {
        if (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')
            continue;
        if (b[i] == '{' || b[i] == '[')
            return TL_FMT_CHROME;
        break;
    }
    /* XRay: a 32-byte header, version 1..5 and type 0 (basic) or 1 (FDR), little-endian */
    if (n >= 32 && b[1] == 0 && b[0] >= 1 && b[0] <= 5 && b[3] == 0 && b[2] <= 1)
        return TL_FMT_XRAY;
    return TL_FMT_UNKNOWN;
}

tl_format tl_format_of_file(const char *path, gt_error *err)
{
    FILE *f = gt_input_fopen(path, NULL, err);
    if (!f)
        return TL_FMT_UNKNOWN;
    unsigned char b[64];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    tl_format fmt = format_of_bytes(b, n);
    if (fmt == TL_FMT_UNKNOWN || fmt == TL_FMT_XRAY) {
        /* the XRay header test is weak: a name that says otherwise wins */
        tl_format by_name = tl_format_of_name(path);
        if (by_name != TL_FMT_UNKNOWN && by_name != TL_FMT_TEXT)
            fmt = by_name;
    }
    if (fmt == TL_FMT_UNKNOWN)
        gt_error_set(err, "%s: not a timeline file this tool reads (FXT, Chrome JSON, XRay, "
                          "trace-cmd .dat, apitrace .trace)", path);
    return fmt;
}

int tl_read(tl_format f, const char *path, gt_timeline *tl, gt_tl_sink *sink,
            const gt_tl_read_opts *opts, gt_error *err)
{
    switch (f) {
    case TL_FMT_FXT: return gt_fxt_read(path, tl, sink, opts, err);
    case TL_FMT_CHROME: return gt_chrome_read(path, tl, sink, opts, err);
    case TL_FMT_XRAY: return gt_xray_read(path, tl, sink, opts, err);
    case TL_FMT_TRACECMD: return gt_tracecmd_read(path, tl, sink, opts, err);
    default:
        gt_error_set(err, "%s: no %s reader", path, tl_format_name(f));
        return -1;
    }
}

/* The writer of one format over path (a temporary file, a device, or "-"). */
static int open_writer(tl_output *o, const char *path, const char *name, gt_error *err)
{
    switch (o->fmt) {
    case TL_FMT_FXT:
        if (!(o->writer = gt_fxt_writer_open(path, NULL, err)))
            return -1;
        o->sink = gt_fxt_writer_sink(o->writer);
        return 0;
    case TL_FMT_CHROME:
        if (!(o->writer = gt_chrome_writer_open(path, err)))
            return -1;
        o->sink = gt_chrome_writer_sink(o->writer);
        return 0;
    case TL_FMT_XRAY:
        if (!(o->writer = gt_xray_writer_open(path, err)))
            return -1;
        o->sink = gt_xray_writer_sink(o->writer);
        /* the map goes beside the output, through its own temporary file */
        if (gt_xray_writer_set_map_path(o->writer, o->has_map ? o->map.path : NULL) != 0) {
            gt_error_set(err, "%s: out of memory", name);
            return -1;
        }
        return 0;
    case TL_FMT_TRACECMD:
        if (!(o->writer = gt_tracecmd_writer_open(path, err)))
            return -1;
        o->sink = gt_tracecmd_writer_sink(o->writer);
        return 0;
    case TL_FMT_TEXT:
        o->text.name = name;
        o->text.out = strcmp(path, "-") ? fopen(path, "w") : stdout;
        if (!o->text.out) {
            gt_error_set(err, "%s: cannot open for writing: %s", name, strerror(errno));
            return -1;
        }
        o->writer = o->text.out;
        o->sink = gt_tl_text_sink(&o->text);
        return 0;
    default:
        gt_error_set(err, "%s: cannot write %s timelines (use .fxt, .json, .xray, .dat or .txt)",
                     name, tl_format_name(o->fmt));
        return -1;
    }
}

/* An XRay output's instrumentation map "OUT.map", unless OUT is a device (no
 * file is made beside /dev/null). */
static int open_map(tl_output *o, const char *path, const char *const *inputs, size_t n,
                    gt_error *err)
{
    if (o->fmt != TL_FMT_XRAY || o->file.direct)
        return 0;
    size_t len = strlen(path) + 5;
    char *map = malloc(len);
    if (!map) {
        gt_error_set(err, "%s: out of memory", path);
        return -1;
    }
    snprintf(map, len, "%s.map", path);
    int rc = gt_outfile_begin(&o->map, map, inputs, n, err);
    free(map);
    o->has_map = rc == 0;
    return rc;
}

int tl_output_open(tl_output *o, const char *path, tl_format f, const char *const *inputs,
                   size_t n, gt_error *err)
{
    memset(o, 0, sizeof *o);
    o->fmt = f;
    if (f == TL_FMT_UNKNOWN || f == TL_FMT_APITRACE) /* refused before anything is made */
        return open_writer(o, path, path, err);
    if (!strcmp(path, "-"))
        return open_writer(o, "-", f == TL_FMT_TEXT ? "<stdout>" : "-", err);
    if (gt_outfile_begin(&o->file, path, inputs, n, err) != 0)
        return -1;
    o->has_file = true;
    if (open_map(o, path, inputs, n, err) != 0 || open_writer(o, o->file.path, path, err) != 0) {
        tl_output_abort(o);
        return -1;
    }
    return 0;
}

/* Closes the writer; 0, or -1 when closing its file failed (err set). */
static int close_writer(tl_output *o, gt_error *err)
{
    int rc = 0;
    if (!o->writer)
        return 0;
    switch (o->fmt) {
    case TL_FMT_FXT: gt_fxt_writer_free(o->writer); break;
    case TL_FMT_CHROME: gt_chrome_writer_free(o->writer); break;
    case TL_FMT_XRAY: gt_xray_writer_free(o->writer); break;
    case TL_FMT_TRACECMD: gt_tracecmd_writer_free(o->writer); break;
    case TL_FMT_TEXT:
        if (o->text.out != stdout && fclose(o->text.out) != 0) {
            gt_error_set(err, "%s: write error: %s", o->text.name, strerror(errno));
            rc = -1;
        }
        break;
    default: break;
    }
    o->writer = NULL;
    return rc;
}

int tl_output_commit(tl_output *o, gt_error *err)
{
    if (close_writer(o, err) != 0) {
        tl_output_abort(o);
        return -1;
    }
    /* the map first: a failure there leaves the old output with its old map */
    if (o->has_map && gt_outfile_commit(&o->map, err) != 0) {
        o->has_map = false;
        tl_output_abort(o);
        return -1;
    }
    o->has_map = false;
    if (o->has_file) {
        o->has_file = false;
        return gt_outfile_commit(&o->file, err);
    }
    return 0;
}

void tl_output_abort(tl_output *o)
{
    gt_error ignored;
    gt_error_clear(&ignored);
    close_writer(o, &ignored);
    if (o->has_map)
        gt_outfile_abort(&o->map);
    if (o->has_file)
        gt_outfile_abort(&o->file);
    o->has_map = o->has_file = false;
}

const char *tl_output_left(const tl_output *o)
{
    return o->has_file ? gt_outfile_left(&o->file) : NULL;
}
