/* gltrace repack: read any trace we can read and write it again as a version 6
 * Snappy trace with our writer. Events keep their order: every call is entered
 * where the original entered it and left where the original left it, so call
 * numbers, thread interleaving and incomplete calls survive. */
#include <stdio.h>
#include <string.h>

#include "at_reader.h"
#include "at_writer.h"
#include "gltrace_cmds.h"
#include "gt_outfile.h"
#include "gt_progress.h"

static void write_details(at_writer *w, const gt_call *c, int at_leave)
{
    for (uint32_t i = 0; i < c->num_args; ++i) {
        if (c->args[i].kind == GT_ABSENT || c->arg_at_leave[i] != at_leave)
            continue;
        at_writer_begin_arg(w, i);
        at_writer_value(w, &c->args[i]);
    }
    if (at_leave && c->ret) {
        at_writer_begin_return(w);
        at_writer_value(w, c->ret);
    }
    if (c->frames && c->frames_at_leave == at_leave)
        at_writer_backtrace(w, c->frames, c->num_frames);
}

/* Copies every event of r to w. */
static void copy_events(at_reader *r, at_writer *w)
{
    at_event_kind kind;
    gt_call *c;
    gt_progress prog;
    gt_progress_start(&prog, "repack", at_input_file_size(at_reader_input(r)), false);
    uint64_t ncalls = 0;
    while ((c = at_reader_next_event(r, &kind))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++ncalls);
        if (kind == AT_EV_ENTER) {
            at_writer_begin_enter(w, c->sig, c->thread,
                                  (c->flags & GT_CALL_FLAG_FAKE) ? AT_WRITER_FAKE : 0);
            write_details(w, c, 0);
            at_writer_end_enter(w);
            continue;
        }
        if (kind == AT_EV_LEAVE) {
            at_writer_begin_leave(w, c->no);
            write_details(w, c, 1);
            at_writer_end_leave(w);
        }
        at_reader_release(r, c);
    }
    gt_progress_end(&prog);
}

static at_writer *open_writer(at_reader *r, const char *path, gt_error *err)
{
    unsigned np = at_reader_num_properties(r);
    at_writer_property props[64];
    if (np > 64)
        np = 64;
    for (unsigned i = 0; i < np; ++i) {
        props[i].name = at_reader_property(r, i)->name;
        props[i].value = at_reader_property(r, i)->value;
    }
    return at_writer_open(path, props, np, err);
}

/* The output goes through a temporary file beside it (gt_outfile.h): a failure
 * leaves OUT as it was, and OUT may never be the input (its mapping would be
 * truncated under the reader: SIGBUS). */
static int repack(const char *in_path, const char *out_path)
{
    gt_error err;
    gt_error_clear(&err);
    gt_outfile out;
    if (gt_outfile_begin(&out, out_path, &in_path, 1, &err) != 0) {
        fprintf(stderr, "gltrace repack: %s\n", err.msg);
        return 1;
    }
    const char *left = gt_outfile_left(&out);
    at_reader *r = at_reader_open(in_path, NULL, &err);
    at_writer *w = r ? open_writer(r, out.path, &err) : NULL;
    int status = 1;
    if (w) {
        copy_events(r, w);
        status = gltrace_report_end(r);
        if (!at_writer_close(w, &err))
            status = 1;
        else if (status == 0 && gt_outfile_commit(&out, &err) != 0)
            status = 1;
    }
    if (r)
        at_reader_close(r);
    if (status && err.set)
        fprintf(stderr, "gltrace repack: %s; %s: %s\n", err.msg, out_path, left);
    else if (status)
        fprintf(stderr, "gltrace repack: %s: %s\n", out_path, left);
    if (status)
        gt_outfile_abort(&out);
    return status;
}

int cmd_repack(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        puts("usage: gltrace repack IN_TRACE OUT_TRACE\n"
             "Rewrite a trace (any version, Snappy, gzip or Brotli) as a version 6 Snappy trace.");
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gltrace repack IN_TRACE OUT_TRACE\n");
        return 2;
    }
    return repack(argv[1], argv[2]);
}
