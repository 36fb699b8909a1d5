/* gltrace diff: the calls of two traces compared line by line, as `apitrace diff`
 * (scripts/tracediff.py) shows them with its diff and sdiff tools: both traces dumped
 * as `apitrace dump --color=never --arg-names=no` prints them, the lines aligned as
 * GNU diff aligns them (myers.h), printed as GNU diff's line formats or as sdiff's two
 * columns (diff_print.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "diff_print.h"
#include "dump_lines.h"
#include "gltrace_cmds.h"
#include "myers.h"

/* Both traces' lines are held in memory, and the search's time grows with the length
 * of the regions that differ times the edits in them: the selection is bounded. */
#define MAX_LINES (4u << 20)

static void usage(FILE *f)
{
    fputs("usage: gltrace diff [OPTIONS] REF_TRACE SRC_TRACE\n"
          "Compare the calls of two traces, as `apitrace diff` does with its diff and\n"
          "sdiff tools (the text of `apitrace dump --arg-names=no`).\n"
          "\n"
          "  -h, --help               show this help and exit\n"
          "  -t, --tool=TOOL          sdiff: two columns (default); diff: one column,\n"
          "                           lines marked '- ' (reference only), '+ ' (source\n"
          "                           only) or '  ' (both)\n"
          "  -c, --calls=CALLSET      calls to compare [default: 0-10000]\n"
          "  --ref-calls=CALLSET      calls to compare from the reference trace\n"
          "  --src-calls=CALLSET      calls to compare from the source trace\n"
          "  --call-nos               print call numbers (then every call differs where\n"
          "                           the numbers do)\n"
          "  --no-call-nos            do not print them (the default)\n"
          "  --suppress-common-lines  print only the lines that differ\n"
          "  -w, --width=NUM          columns of sdiff's output [default: the terminal's,\n"
          "                           else 130]\n"
          "  --exit-code              exit with 1 when the calls differ (apitrace: 0)\n"
          "  -a, --apitrace=PROGRAM   accepted for apitrace's scripts, ignored\n"
          "\n"
          "At most 4194304 lines per trace are compared: choose calls with --calls.\n",
          f);
}

enum { OPT_REF_CALLS = 256, OPT_SRC_CALLS, OPT_CALL_NOS, OPT_NO_CALL_NOS, OPT_SUPPRESS, OPT_EXIT_CODE };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"tool", required_argument, 0, 't'},
    {"calls", required_argument, 0, 'c'},
    {"ref-calls", required_argument, 0, OPT_REF_CALLS},
    {"src-calls", required_argument, 0, OPT_SRC_CALLS},
    {"call-nos", no_argument, 0, OPT_CALL_NOS},
    {"no-call-nos", no_argument, 0, OPT_NO_CALL_NOS},
    {"suppress-common-lines", no_argument, 0, OPT_SUPPRESS},
    {"width", required_argument, 0, 'w'},
    {"exit-code", no_argument, 0, OPT_EXIT_CODE},
    {"apitrace", required_argument, 0, 'a'},
    {0, 0, 0, 0},
};

typedef struct diff_job {
    const char *calls, *ref_calls, *src_calls;
    int sdiff, call_nos, suppress, exit_code;
    long width; /* 0: not given */
} diff_job;

static int parse_width(const char *s, long *w)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v <= 0 || v > 100000) {
        fprintf(stderr, "gltrace diff: --width: expected a number of columns, got \"%s\"\n", s);
        return 0;
    }
    *w = v;
    return 1;
}

/* 1: go on; 0: stop with *status. */
static int parse_args(int argc, char **argv, diff_job *job, int *status)
{
    int c;
    optind = 1;
    *status = 2;
    while ((c = getopt_long(argc, argv, "ht:c:w:a:", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); *status = 0; return 0;
        case 't':
            if (strcmp(optarg, "sdiff") && strcmp(optarg, "diff")) {
                fprintf(stderr, "gltrace diff: --tool: \"%s\" is not one of ours (sdiff, diff); "
                                "apitrace's wdiff and python tools are not provided\n", optarg);
                return 0;
            }
            job->sdiff = !strcmp(optarg, "sdiff");
            break;
        case 'c': job->calls = optarg; break;
        case OPT_REF_CALLS: job->ref_calls = optarg; break;
        case OPT_SRC_CALLS: job->src_calls = optarg; break;
        case OPT_CALL_NOS: job->call_nos = 1; break;
        case OPT_NO_CALL_NOS: job->call_nos = 0; break;
        case OPT_SUPPRESS: job->suppress = 1; break;
        case OPT_EXIT_CODE: job->exit_code = 1; break;
        case 'w': if (!parse_width(optarg, &job->width)) return 0; break;
        case 'a': break;
        default: usage(stderr); return 0;
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "gltrace diff: expected two traces, REF_TRACE and SRC_TRACE (--help)\n");
        return 0;
    }
    return 1;
}

/* sdiff's width when none is given: the terminal's, else COLUMNS, else GNU sdiff's 130. */
static long default_width(void)
{
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    const char *env = getenv("COLUMNS");
    long v = env ? strtol(env, NULL, 10) : 0;
    return v > 0 && v <= 100000 ? v : 130;
}

static int read_side(dl_pool *pool, dl_lines *lines, const char *path, const char *set,
                     const at_dump_options *o)
{
    gt_callset calls;
    gt_error err;
    gt_error_clear(&err);
    if (gt_callset_init_all(&calls) < 0 || gt_callset_merge(&calls, set, &err) < 0) {
        fprintf(stderr, "gltrace diff: %s\n", err.msg[0] ? err.msg : "out of memory");
        gt_callset_free(&calls);
        return -1;
    }
    int rc = dl_read_trace(pool, lines, path, &calls, o, MAX_LINES, &err);
    if (rc < 0)
        fprintf(stderr, "gltrace diff: %s\n", err.msg);
    gt_callset_free(&calls);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    diff_job job = {.calls = "0-10000", .sdiff = 1};
    int status;
    if (!parse_args(argc, argv, &job, &status))
        return status;
    at_dump_options o;
    at_dump_default_options(&o);
    o.color = false;
    o.arg_names = false;
    o.call_nos = job.call_nos;
    dl_pool pool = {0};
    dl_lines ref = {0}, src = {0};
    sm_opcode *ops = NULL;
    size_t nops = 0;
    status = 1;
    if (read_side(&pool, &ref, argv[optind], job.ref_calls ? job.ref_calls : job.calls, &o) == 0 &&
        read_side(&pool, &src, argv[optind + 1], job.src_calls ? job.src_calls : job.calls, &o) == 0) {
        if (myers_opcodes(ref.ids, ref.n, src.ids, src.n, &ops, &nops) < 0) {
            fprintf(stderr, "gltrace diff: out of memory comparing the calls\n");
        } else {
            diff_out d = {.pool = &pool, .a = ref.ids, .b = src.ids, .suppress = job.suppress,
                          .color = !job.sdiff && isatty(STDOUT_FILENO),
                          .width = job.width ? job.width : default_width()};
            int differ = 0;
            status = job.sdiff ? diff_print_sdiff(&d, ops, nops, stdout, &differ)
                               : diff_print_lines(&d, ops, nops, stdout, &differ);
            if (status == 0 && job.exit_code && differ)
                status = 1;
        }
    }
    free(ops);
    dl_lines_free(&ref);
    dl_lines_free(&src);
    dl_pool_free(&pool);
    return status;
}
