/* See timeline_replay_out.h. */
#include "timeline_replay_out.h"

#include <string.h>

/* Where a writer writes path: "-" itself, else the file gt_outfile_begin prepares
 * (refusing the trace and the other timeline output as it). NULL with err set. */
static const char *begin_file(const char *path, const char *other, const char *input,
                              gt_outfile *f, bool *has, gt_error *err)
{
    if (!strcmp(path, "-"))
        return path;
    if (other && (!strcmp(path, other) || gt_same_file(path, other))) {
        gt_error_set(err, "%s: --fxt and --chrome name the same file", path);
        return NULL;
    }
    if (gt_outfile_begin(f, path, &input, 1, err) != 0)
        return NULL;
    *has = true;
    return f->path;
}

static int open_writers(tlr_out *out, const tlr_options *o, gt_error *err)
{
    gt_tl_sink *a = NULL, *b = NULL;
    if (o->fxt_path) {
        const char *path = begin_file(o->fxt_path, o->chrome_path, o->input_path,
                                      &out->fxt_file, &out->has_fxt_file, err);
        out->fxt = path ? gt_fxt_writer_open(path, "glretrace", err) : NULL;
        if (!out->fxt)
            return -1;
        out->fxt_sink = gt_fxt_writer_sink(out->fxt);
        a = &out->fxt_sink;
    }
    if (o->chrome_path) {
        const char *path = begin_file(o->chrome_path, NULL, o->input_path, &out->chrome_file,
                                      &out->has_chrome_file, err);
        out->chrome = path ? gt_chrome_writer_open(path, err) : NULL;
        if (!out->chrome)
            return -1;
        out->chrome_sink = gt_chrome_writer_sink(out->chrome);
        b = &out->chrome_sink;
    }
    if (a && b) {
        out->tee = (gt_tl_tee){.a = a, .b = b};
        out->tee_sink = gt_tl_tee_sink(&out->tee);
        out->sink = &out->tee_sink;
    } else {
        out->sink = a ? a : b;
    }
    return 0;
}

int tlr_out_open(tlr_out *out, const tlr_options *o, gt_timeline *tl, gt_error *err)
{
    if (open_writers(out, o, err) != 0) {
        tlr_out_close(out, false, err);
        return -1;
    }
    /* stdout is shared with the text profile and -v: written in order, from here */
    bool std = (o->fxt_path && !strcmp(o->fxt_path, "-")) ||
               (o->chrome_path && !strcmp(o->chrome_path, "-"));
    if (out->sink && !std && tla_start(&out->async, out->sink, tl) == 0) {
        out->async_sink = tla_sink(&out->async);
        out->sink = &out->async_sink;
    } /* else, or when the thread cannot start, the replay writes itself */
    return 0;
}

int tlr_out_close(tlr_out *out, bool commit, gt_error *err)
{
    tla_free(&out->async); /* first: its thread may be writing */
    if (out->fxt)
        gt_fxt_writer_free(out->fxt);
    if (out->chrome)
        gt_chrome_writer_free(out->chrome);
    out->fxt = NULL;
    out->chrome = NULL;
    out->sink = NULL;
    int ok = 1;
    if (out->has_fxt_file && commit)
        ok = gt_outfile_commit(&out->fxt_file, err) == 0;
    else if (out->has_fxt_file)
        gt_outfile_abort(&out->fxt_file);
    if (out->has_chrome_file && commit && ok)
        ok = gt_outfile_commit(&out->chrome_file, err) == 0;
    else if (out->has_chrome_file)
        gt_outfile_abort(&out->chrome_file);
    out->has_fxt_file = out->has_chrome_file = false;
    return ok ? 0 : -1;
}
