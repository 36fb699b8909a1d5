/* gltrace trim: a new trace of the calls selected by call numbers, frames and threads,
 * renumbered from 0, as `apitrace trim` writes it. By default it also keeps what the
 * selected calls depend on (trim_deps.h), so that the output replays what the full
 * trace drew in them; --exact keeps the selection alone, as apitrace does. Three passes:
 * two read the trace with blobs skipped and decide, the last writes. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "gt_callset.h"
#include "gt_grow.h"
#include "gt_progress.h"
#include "trace_rewrite.h"
#include "trim_deps.h"

typedef struct trim_job {
    gt_callset calls, frames;
    bool have_calls, have_frames;
    uint32_t *threads; /* --thread: only these threads' calls are selected */
    size_t nthreads, capthreads;
    bool exact;
    const char *input, *output;
    char *default_output;
} trim_job;

typedef struct trim_counts {
    uint64_t read, selected; /* calls up to the last selected one; those selected */
} trim_counts;

static void usage(FILE *f)
{
    fputs("usage: gltrace trim [OPTIONS] TRACE\n"
          "Write a new trace of the selected calls (numbered from 0), as `apitrace trim`.\n"
          "By default the calls the selection depends on are kept too (context and window\n"
          "creation, objects and their data, bindings and state, drawing into framebuffer\n"
          "objects; not queries, frame ends and drawing into the window), so that the output\n"
          "replays what the full trace drew in the selection.\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "      --calls=CALLSET    select these calls (1,5-10,20-/2,draw,@file)\n"
          "      --frames=FRAMESET  select the calls of these frames (0 is the first)\n"
          "      --thread=N         select only calls of traced thread N (repeatable)\n"
          "      --exact            keep the selection alone, as apitrace's trim does\n"
          "  -o, --output=FILE      the output (default: TRACE without .trace, plus -trim.trace)\n",
          f);
}

enum { OPT_CALLS = 256, OPT_FRAMES, OPT_THREAD, OPT_EXACT };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},       {"calls", required_argument, 0, OPT_CALLS},
    {"frames", required_argument, 0, OPT_FRAMES}, {"thread", required_argument, 0, OPT_THREAD},
    {"exact", no_argument, 0, OPT_EXACT}, {"output", required_argument, 0, 'o'},
    {0, 0, 0, 0},
};

static int parse_thread(trim_job *j, const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v > UINT32_MAX) {
        fprintf(stderr, "gltrace trim: --thread: expected a thread number, got \"%s\"\n", s);
        return -1;
    }
    if (GT_GROW(j->threads, j->capthreads, j->nthreads + 1, 4) != 0) {
        fprintf(stderr, "gltrace trim: out of memory\n");
        return -1;
    }
    j->threads[j->nthreads++] = (uint32_t)v;
    return 0;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, trim_job *j)
{
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", long_options, NULL)) != -1) {
        gt_error err;
        gt_error_clear(&err);
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_CALLS:
        case OPT_FRAMES: {
            gt_callset *set = c == OPT_CALLS ? &j->calls : &j->frames;
            if (gt_callset_merge(set, optarg, &err) != 0) {
                fprintf(stderr, "gltrace trim: %s: %s\n", c == OPT_CALLS ? "--calls" : "--frames",
                        err.msg);
                return 2;
            }
            *(c == OPT_CALLS ? &j->have_calls : &j->have_frames) = true;
            break;
        }
        case OPT_THREAD:
            if (parse_thread(j, optarg) != 0)
                return 2;
            break;
        case OPT_EXACT: j->exact = true; break;
        case 'o': j->output = optarg; break;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, optind >= argc ? "gltrace trim: no trace file given\n"
                                       : "gltrace trim: one trace at a time\n");
        usage(stderr);
        return 2;
    }
    j->input = argv[optind];
    if (!j->output) {
        if (!(j->default_output = trace_default_output(j->input, "-trim.trace"))) {
            fprintf(stderr, "gltrace trim: out of memory\n");
            return 1;
        }
        j->output = j->default_output;
    }
    return -1;
}

static bool thread_selected(const trim_job *j, uint32_t thread)
{
    if (!j->nthreads)
        return true;
    for (size_t i = 0; i < j->nthreads; ++i)
        if (j->threads[i] == thread)
            return true;
    return false;
}

static bool selected(const trim_job *j, const gt_call *c, uint32_t frame)
{
    if (!thread_selected(j, c->thread))
        return false;
    return (j->have_calls && gt_callset_contains(&j->calls, c->no, c->flags)) ||
           (j->have_frames && gt_callset_contains(&j->frames, frame, c->flags));
}

/* No call can be selected past this one (apitrace stops reading there too). */
static bool past_selection(const trim_job *j, const gt_call *c, uint32_t frame)
{
    return (!j->have_calls || c->no > gt_callset_last(&j->calls)) &&
           (!j->have_frames || frame > gt_callset_last(&j->frames));
}

/* Reads IN (blobs skipped) up to the last selected call: with SCAN, the first pass
 * (trim_deps_scan, up to the first selected call), else the second, which decides which
 * calls to write (trim_deps_add) and counts them in N. 0, or -1 after saying why. */
static int read_pass(const trim_job *j, trim_deps *deps, bool scan, trim_counts *n)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(j->input, &ropt, &err);
    if (!r) {
        fprintf(stderr, "gltrace trim: %s\n", err.msg);
        return -1;
    }
    int rc = 0;
    uint32_t frame = 0;
    uint64_t index = 0;
    gt_progress prog;
    gt_progress_start(&prog, "trim", at_input_file_size(at_reader_input(r)), false);
    gt_call *c;
    while (rc == 0 && (c = at_reader_next(r))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), index + 1);
        bool past = past_selection(j, c, frame), sel = !past && selected(j, c, frame);
        if (c->flags & GT_CALL_FLAG_END_FRAME)
            frame++;
        int got = past ? 1 : scan ? trim_deps_scan(deps, c, index, sel)
                                  : trim_deps_add(deps, c, index, sel);
        if (!past && !scan)
            n->selected += sel;
        index += !past;
        at_reader_release(r, c);
        if (got < 0) {
            fprintf(stderr, "gltrace trim: out of memory\n");
            rc = -1;
        } else if (got > 0) {
            break;
        }
    }
    gt_progress_end(&prog);
    if (!scan)
        n->read = index;
    if (rc == 0 && at_reader_error(r)) /* warnings: once, by the pass that writes */
        rc = gltrace_report_end(r) ? -1 : 0;
    at_reader_close(r);
    return rc;
}

/* Pass 2: writes the chosen calls of T's input to T's output. */
static void write_calls(const trim_deps *deps, trace_rewrite *t, uint64_t ncalls)
{
    gt_call *c;
    for (uint64_t i = 0; i < ncalls && (c = at_reader_next(t->r)); ++i) {
        if (trim_deps_keep(deps, i))
            at_writer_call(t->w, c);
        at_reader_release(t->r, c);
    }
}

static void free_job(trim_job *j)
{
    gt_callset_free(&j->calls);
    gt_callset_free(&j->frames);
    free(j->threads);
    free(j->default_output);
}

int cmd_trim(int argc, char **argv)
{
    trim_job j = {0};
    if (gt_callset_init_all(&j.calls) != 0 || gt_callset_init_all(&j.frames) != 0) {
        fprintf(stderr, "gltrace trim: out of memory\n");
        free_job(&j);
        return 1;
    }
    int status = parse_args(argc, argv, &j);
    if (status >= 0) {
        free_job(&j);
        return status;
    }
    if (!j.have_calls && !j.have_frames) /* apitrace: everything */
        j.have_calls = true;
    trim_counts n = {0};
    trim_deps *deps = trim_deps_new(j.exact);
    if (!deps) {
        fprintf(stderr, "gltrace trim: out of memory\n");
        free_job(&j);
        return 1;
    }
    status = (j.exact || read_pass(&j, deps, true, &n) == 0) && read_pass(&j, deps, false, &n) == 0
                 ? 0 : 1;
    if (status == 0 && n.selected == 0) {
        fprintf(stderr, "gltrace trim: %s: the selection matches none of the %" PRIu64
                        " calls read\n", j.input, n.read);
        status = 1;
    }
    trace_rewrite t;
    if (status == 0 &&
        trace_rewrite_open(&t, "gltrace trim", j.input, j.output, NULL, NULL, 0) == 0) {
        write_calls(deps, &t, n.read);
        status = trace_rewrite_close(&t, gltrace_report_end(t.r));
    } else if (status == 0) {
        status = 1;
    }
    if (status == 0)
        fprintf(stderr, "gltrace trim: %s: %" PRIu64 " calls selected, %" PRIu64
                        " more kept for them (of %" PRIu64 " read); trimmed trace is %s\n",
                j.input, n.selected, trim_deps_kept(deps) - n.selected, n.read, j.output);
    trim_deps_free(deps);
    free_job(&j);
    return status;
}
