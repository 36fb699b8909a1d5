/* gltrace repack: read any trace we can read and write it again as a version 6
 * Snappy trace with our writer. Events keep their order: every call is entered
 * where the original entered it and left where the original left it, so call
 * numbers, thread interleaving and incomplete calls survive. */
#include <stdio.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "gt_progress.h"
#include "trace_rewrite.h"

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
            at_writer_details(w, c, false);
            at_writer_end_enter(w);
            continue;
        }
        if (kind == AT_EV_LEAVE) {
            at_writer_begin_leave(w, c->no);
            at_writer_details(w, c, true);
            at_writer_end_leave(w);
        }
        at_reader_release(r, c);
    }
    gt_progress_end(&prog);
}

static int repack(const char *in_path, const char *out_path)
{
    trace_rewrite t;
    if (trace_rewrite_open(&t, "gltrace repack", in_path, out_path, NULL, NULL, 0) != 0)
        return 1;
    copy_events(t.r, t.w);
    return trace_rewrite_close(&t, gltrace_report_end(t.r));
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
