/* Where glretrace's timeline goes (timeline_replay.h): the FXT and/or Chrome JSON
 * writers, each into a temporary file renamed over its target only when the whole
 * timeline is written (gt_outfile.h; "-", stdout, has none), both behind one sink, and,
 * unless one is stdout, on a thread of their own (timeline_async.h). */
#ifndef RETRACE_TIMELINE_REPLAY_OUT_H
#define RETRACE_TIMELINE_REPLAY_OUT_H

#include <stdbool.h>

#include "chrome_writer.h"
#include "fxt_writer.h"
#include "gt_error.h"
#include "gt_outfile.h"
#include "gt_timeline.h"
#include "timeline_async.h"
#include "timeline_replay.h"

typedef struct tlr_out {
    gt_fxt_writer *fxt;
    gt_chrome_writer *chrome;
    gt_outfile fxt_file, chrome_file;
    bool has_fxt_file, has_chrome_file;
    gt_tl_sink fxt_sink, chrome_sink, tee_sink, async_sink;
    gt_tl_tee tee;
    tl_async async; /* the writers' thread, when they have one */
    gt_tl_sink *sink; /* where events go: NULL when no output was asked for */
} tlr_out;

/* Opens the outputs O names into OUT (zeroed), events interned in TL. 0, or -1 with
 * err set (then nothing is left open). */
int tlr_out_open(tlr_out *out, const tlr_options *o, gt_timeline *tl, gt_error *err);
/* Closes the writers; with commit, puts their files in place (-1 with err set when
 * that fails), else removes their temporary files (the targets stay as they were). */
int tlr_out_close(tlr_out *out, bool commit, gt_error *err);

#endif
