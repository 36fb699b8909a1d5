/* The table of timeline formats: one row each, with what identifies its files (names,
 * first bytes) and its reader and writer. timeline_io.c does the rest for every row.
 * A new format is its folder (formats/NAME/, a library), a row here with its small
 * adapters, and the folder in formats/CMakeLists.txt. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chrome_reader.h"
#include "chrome_writer.h"
#include "fxt_reader.h"
#include "fxt_writer.h"
#include "tc_reader.h"
#include "tc_writer.h"
#include "timeline_io.h"
#include "xray_reader.h"
#include "xray_writer.h"

/* ---- FXT ---------------------------------------------------------------------------- */

static bool fxt_sniff(const unsigned char *b, size_t n)
{
    static const unsigned char magic[8] = {0x10, 0x00, 0x04, 0x46, 0x78, 0x54, 0x16, 0x00};
    return n >= 8 && memcmp(b, magic, 8) == 0;
}

static int fxt_write_open(tl_output *o, const char *path, const char *name, gt_error *err)
{
    (void)name;
    if (!(o->writer = gt_fxt_writer_open(path, NULL, err)))
        return -1;
    o->sink = gt_fxt_writer_sink(o->writer);
    return 0;
}

static int fxt_write_close(tl_output *o, gt_error *err)
{
    (void)err;
    gt_fxt_writer_free(o->writer);
    return 0;
}

const tl_format tl_format_fxt = {
    .name = "FXT", .exts = {".fxt"}, .sniff = fxt_sniff, .read = gt_fxt_read,
    .write_open = fxt_write_open, .write_close = fxt_write_close,
};

/* ---- Chrome JSON -------------------------------------------------------------------- */

static bool chrome_sniff(const unsigned char *b, size_t n)
{
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        return true; /* gzip: Catapult's compressed JSON */
    for (size_t i = 0; i < n; i++) {
        if (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')
            continue;
        return b[i] == '{' || b[i] == '[';
    }
    return false;
}

static int chrome_write_open(tl_output *o, const char *path, const char *name, gt_error *err)
{
    (void)name;
    if (!(o->writer = gt_chrome_writer_open(path, err)))
        return -1;
    o->sink = gt_chrome_writer_sink(o->writer);
    return 0;
}

static int chrome_write_close(tl_output *o, gt_error *err)
{
    (void)err;
    gt_chrome_writer_free(o->writer);
    return 0;
}

static const tl_format chrome = {
    .name = "Chrome JSON", .exts = {".json", ".json.gz"}, .sniff = chrome_sniff,
    .read = gt_chrome_read, .write_open = chrome_write_open, .write_close = chrome_write_close,
};

/* ---- LLVM XRay ---------------------------------------------------------------------- */

/* A 32-byte header, version 1..5 and type 0 (basic) or 1 (FDR), little-endian: a weak
 * test, so a name that says otherwise wins. */
static bool xray_sniff(const unsigned char *b, size_t n)
{
    return n >= 32 && b[1] == 0 && b[0] >= 1 && b[0] <= 5 && b[3] == 0 && b[2] <= 1;
}

static int xray_write_open(tl_output *o, const char *path, const char *name, gt_error *err)
{
    if (!(o->writer = gt_xray_writer_open(path, err)))
        return -1;
    o->sink = gt_xray_writer_sink(o->writer);
    /* the map goes beside the output, through its own temporary file */
    if (gt_xray_writer_set_map_path(o->writer, o->has_map ? o->map.path : NULL) != 0) {
        gt_error_set(err, "%s: out of memory", name);
        return -1;
    }
    return 0;
}

static int xray_write_close(tl_output *o, gt_error *err)
{
    (void)err;
    gt_xray_writer_free(o->writer);
    return 0;
}

static const tl_format xray = {
    .name = "XRay", .exts = {".xray"}, .sniff = xray_sniff, .weak_sniff = true,
    .read = gt_xray_read, .write_open = xray_write_open, .write_close = xray_write_close,
    .sorted = true, .map = true,
};

/* ---- trace-cmd ---------------------------------------------------------------------- */

static bool tracecmd_sniff(const unsigned char *b, size_t n)
{
    static const unsigned char magic[10] = {0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
    return n >= 10 && memcmp(b, magic, 10) == 0;
}

static int tracecmd_write_open(tl_output *o, const char *path, const char *name, gt_error *err)
{
    (void)name;
    if (!(o->writer = gt_tracecmd_writer_open(path, err)))
        return -1;
    o->sink = gt_tracecmd_writer_sink(o->writer);
    return 0;
}

static int tracecmd_write_close(tl_output *o, gt_error *err)
{
    (void)err;
    gt_tracecmd_writer_free(o->writer);
    return 0;
}

static const tl_format tracecmd = {
    .name = "trace-cmd", .exts = {".dat"}, .sniff = tracecmd_sniff, .read = gt_tracecmd_read,
    .write_open = tracecmd_write_open, .write_close = tracecmd_write_close,
};

/* ---- apitrace: a GL trace, replayed with timings by its user ------------------------- */

static bool apitrace_sniff(const unsigned char *b, size_t n)
{
    return n >= 2 && (b[0] == 'a' || b[0] == 'A') && (b[1] == 't' || b[1] == 'T'); /* Snappy */
}

static const tl_format apitrace = {
    .name = "apitrace", .exts = {".trace"}, .sniff = apitrace_sniff, .replayed = true,
};

/* ---- the text form (gt_timeline_text.h), output only --------------------------------- */

static int text_write_open(tl_output *o, const char *path, const char *name, gt_error *err)
{
    o->text.name = name;
    o->text.out = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!o->text.out) {
        gt_error_set(err, "%s: cannot open for writing: %s", name, strerror(errno));
        return -1;
    }
    o->writer = o->text.out;
    o->sink = gt_tl_text_sink(&o->text);
    return 0;
}

static int text_write_close(tl_output *o, gt_error *err)
{
    if (o->text.out != stdout && fclose(o->text.out) != 0) {
        gt_error_set(err, "%s: write error: %s", o->text.name, strerror(errno));
        return -1;
    }
    return 0;
}

const tl_format tl_format_text = {
    .name = "text", .exts = {".txt"}, .write_open = text_write_open,
    .write_close = text_write_close,
};

/* The order first bytes are tried in: the strong tests first, the weak ones last. */
const tl_format *const tl_formats[] = {
    &tl_format_fxt, &tracecmd, &chrome, &apitrace, &xray, &tl_format_text, NULL,
};
