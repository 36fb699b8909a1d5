/* Timeline files: which format a file holds, and its reader or writer, for every row
 * of the table of formats (timeline_formats.c). */
#include "timeline_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_input.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

const tl_format *tl_format_of_name(const char *path)
{
    for (const tl_format *const *f = tl_formats; *f; f++)
        for (size_t i = 0; i < TL_NEXTS && (*f)->exts[i]; i++)
            if (ends_with(path, (*f)->exts[i]))
                return *f;
    return NULL;
}

static bool is_input(const tl_format *f) { return f && (f->read || f->replayed); }

/* Appends to out (size bytes, NUL-terminated, cut when full). */
static void append(char *out, size_t size, const char *s)
{
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s", s);
}

/* The formats that pass, as "NAME (.ext, .ext), ..." for messages. */
static void list_formats(char *out, size_t size, bool (*pass)(const tl_format *f))
{
    out[0] = '\0';
    for (const tl_format *const *f = tl_formats; *f; f++) {
        if (!pass(*f))
            continue;
        append(out, size, out[0] ? ", " : "");
        append(out, size, (*f)->name);
        for (size_t i = 0; i < TL_NEXTS && (*f)->exts[i]; i++) {
            append(out, size, i ? ", " : " (");
            append(out, size, (*f)->exts[i]);
        }
        append(out, size, (*f)->exts[0] ? ")" : "");
    }
}

static const tl_format *format_of_bytes(const unsigned char *b, size_t n)
{
    for (const tl_format *const *f = tl_formats; *f; f++)
        if ((*f)->sniff && (*f)->sniff(b, n))
            return *f;
    return NULL;
}

const tl_format *tl_format_of_file(const char *path, gt_error *err)
{
    FILE *f = gt_input_fopen(path, NULL, err);
    if (!f)
        return NULL;
    unsigned char b[64];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    const tl_format *fmt = format_of_bytes(b, n);
    if (!fmt || fmt->weak_sniff) {
        const tl_format *by_name = tl_format_of_name(path);
        if (is_input(by_name))
            fmt = by_name;
    }
    if (!fmt) {
        char known[256];
        list_formats(known, sizeof known, is_input);
        gt_error_set(err, "%s: not a timeline file this tool reads: %s", path, known);
    }
    return fmt;
}

int tl_read(const tl_format *f, const char *path, gt_timeline *tl, gt_tl_sink *sink,
            const gt_tl_read_opts *opts, gt_error *err)
{
    if (!f || !f->read) {
        gt_error_set(err, "%s: no %s reader", path, f ? f->name : "unknown");
        return -1;
    }
    return f->read(path, tl, sink, opts, err);
}

static bool is_output(const tl_format *f) { return f->write_open != NULL; }

/* The writer of one format over path (a temporary file, a device, or "-"). */
static int open_writer(tl_output *o, const char *path, const char *name, gt_error *err)
{
    if (o->fmt && o->fmt->write_open)
        return o->fmt->write_open(o, path, name, err);
    char known[256];
    list_formats(known, sizeof known, is_output);
    gt_error_set(err, "%s: cannot write %s timelines (use %s)", name,
                 o->fmt ? o->fmt->name : "unknown", known);
    return -1;
}

/* An XRay output's instrumentation map "OUT.map", unless OUT is a device (no
 * file is made beside /dev/null). */
static int open_map(tl_output *o, const char *path, const char *const *inputs, size_t n,
                    gt_error *err)
{
    if (!o->fmt->map || o->file.direct)
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

int tl_output_open(tl_output *o, const char *path, const tl_format *f,
                   const char *const *inputs, size_t n, gt_error *err)
{
    memset(o, 0, sizeof *o);
    o->fmt = f;
    if (!f || !f->write_open) /* refused before anything is made */
        return open_writer(o, path, path, err);
    if (!strcmp(path, "-"))
        return open_writer(o, "-", f == &tl_format_text ? "<stdout>" : "-", err);
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
    if (!o->writer)
        return 0;
    int rc = o->fmt->write_close(o, err);
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
