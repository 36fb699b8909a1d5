/* gltrace dump: apitrace's dump, byte for byte, and faster. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "at_dump.h"
#include "at_reader.h"
#include "gltrace_cmds.h"
#include "gt_options.h"
#include "gt_progress.h"
#include "gt_callset.h"

#define FLUSH_AT (256u * 1024u)

static void usage(FILE *f)
{
    fputs("usage: gltrace dump [OPTIONS] TRACE_FILE...\n"
          "Print the calls of apitrace-format traces as `apitrace dump` does.\n"
          "\n"
          "  -h, --help            show this help and exit\n"
          "  -v, --verbose         also print calls apitrace hides (glGetError, queries, ...)\n"
          "  --calls=CALLSET       only these calls (e.g. 1,5-10,20-/2,frame,@file)\n"
          "  --color[=WHEN]        highlight: auto (default), always or never\n"
          "  --thread-ids[=BOOL]   print thread numbers [no]\n"
          "  --call-nos[=BOOL]     print call numbers [yes]\n"
          "  --arg-names[=BOOL]    print argument names [yes]\n"
          "  --multiline[=BOOL]    print newlines in strings as newlines [yes]\n",
          f);
}

enum { OPT_CALLS = 256, OPT_COLOR, OPT_THREAD_IDS, OPT_CALL_NOS, OPT_ARG_NAMES, OPT_MULTILINE };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"verbose", no_argument, 0, 'v'},
    {"calls", required_argument, 0, OPT_CALLS},
    {"color", optional_argument, 0, OPT_COLOR},
    {"colour", optional_argument, 0, OPT_COLOR},
    {"thread-ids", optional_argument, 0, OPT_THREAD_IDS},
    {"call-nos", optional_argument, 0, OPT_CALL_NOS},
    {"arg-names", optional_argument, 0, OPT_ARG_NAMES},
    {"multiline", optional_argument, 0, OPT_MULTILINE},
    {0, 0, 0, 0},
};

typedef struct dump_job {
    at_dump_options opt;
    gt_callset calls;
    int verbose;
} dump_job;

static int bool_arg(const char *name, const char *arg, bool *out)
{
    int v = gt_parse_bool(arg);
    if (v < 0) {
        fprintf(stderr, "gltrace dump: --%s: expected yes or no, got \"%s\"\n", name, arg);
        return 0;
    }
    *out = v;
    return 1;
}

static int cmp_property(const void *a, const void *b)
{
    return strcmp((*(const at_property *const *)a)->name, (*(const at_property *const *)b)->name);
}

/* apitrace keeps properties in a std::map: printed sorted by name, one per name. */
static void print_properties(const at_reader *r, gt_strbuf *out, const at_dump_options *o)
{
    unsigned n = at_reader_num_properties(r);
    const at_property **sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted)
        return;
    for (unsigned i = 0; i < n; ++i)
        sorted[i] = at_reader_property(r, i);
    qsort(sorted, n, sizeof *sorted, cmp_property);
    for (unsigned i = 0; i < n; ++i) {
        unsigned last = i; /* a repeated name keeps its last value */
        while (last + 1 < n && !strcmp(sorted[last + 1]->name, sorted[i]->name))
            ++last;
        at_dump_property(out, sorted[i]->name, sorted[last]->value, o);
        i = last;
    }
    free(sorted);
}

static int dump_file(const char *path, dump_job *job, gt_strbuf *out)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, &err);
    if (!r) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    print_properties(r, out, &job->opt);
    gt_call *c;
    int ok = 1;
    gt_progress prog;
    gt_progress_start(&prog, "dump", at_input_file_size(at_reader_input(r)), true);
    uint64_t ncalls = 0;
    while ((c = at_reader_next(r))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++ncalls);
        if (gt_callset_contains(&job->calls, c->no, c->flags) &&
            (job->verbose || !(c->flags & GT_CALL_FLAG_VERBOSE))) {
            at_dump_call(out, c, &job->opt);
            if (!job->opt.multiline)
                gt_strbuf_putc(out, '\n');
        }
        at_reader_release(r, c);
        if (out->len >= FLUSH_AT && gt_strbuf_flush(out, stdout) < 0) {
            ok = 0;
            break;
        }
    }
    gt_progress_end(&prog);
    if (gt_strbuf_flush(out, stdout) < 0 || fflush(stdout) != 0 || out->oom)
        ok = 0;
    int status = 0;
    if (!ok) {
        fprintf(stderr, "error: %s: cannot write the dump: %s\n", path,
                out->oom ? "out of memory" : strerror(errno));
        status = 1;
    } else {
        status = gltrace_report_end(r);
    }
    at_reader_close(r);
    return status;
}

static int parse_args(int argc, char **argv, dump_job *job, int *exit_now)
{
    int color = -1, c;
    *exit_now = -1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hv", long_options, NULL)) != -1) {
        gt_error err;
        gt_error_clear(&err);
        switch (c) {
        case 'h': usage(stdout); *exit_now = 0; return 0;
        case 'v': job->verbose = 1; break;
        case OPT_CALLS:
            if (gt_callset_merge(&job->calls, optarg, &err) < 0) {
                fprintf(stderr, "gltrace dump: %s\n", err.msg);
                return 0;
            }
            break;
        case OPT_COLOR:
            if (!optarg || !strcmp(optarg, "always")) color = 1;
            else if (!strcmp(optarg, "auto")) color = -1;
            else if (!strcmp(optarg, "never")) color = 0;
            else {
                fprintf(stderr, "gltrace dump: unknown color argument \"%s\"\n", optarg);
                return 0;
            }
            break;
        case OPT_THREAD_IDS: if (!bool_arg("thread-ids", optarg, &job->opt.thread_ids)) return 0; break;
        case OPT_CALL_NOS: if (!bool_arg("call-nos", optarg, &job->opt.call_nos)) return 0; break;
        case OPT_ARG_NAMES: if (!bool_arg("arg-names", optarg, &job->opt.arg_names)) return 0; break;
        case OPT_MULTILINE: if (!bool_arg("multiline", optarg, &job->opt.multiline)) return 0; break;
        default: usage(stderr); return 0;
        }
    }
    job->opt.color = color < 0 ? isatty(STDOUT_FILENO) : color;
    if (optind >= argc) {
        fprintf(stderr, "gltrace dump: no trace file given\n");
        return 0;
    }
    return 1;
}

int cmd_dump(int argc, char **argv)
{
    dump_job job = {0};
    at_dump_default_options(&job.opt);
    if (gt_callset_init_all(&job.calls) < 0) {
        fprintf(stderr, "gltrace dump: out of memory\n");
        return 1;
    }
    int exit_now, status = 0;
    if (!parse_args(argc, argv, &job, &exit_now)) {
        gt_callset_free(&job.calls);
        return exit_now >= 0 ? exit_now : 2;
    }
    gt_strbuf out;
    gt_strbuf_init(&out);
    for (int i = optind; i < argc && status == 0; ++i)
        status = dump_file(argv[i], &job, &out);
    gt_strbuf_free(&out);
    gt_callset_free(&job.calls);
    return status;
}
