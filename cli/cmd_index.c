/* gltrace index: writes TRACE.idx, the frame index (formats/apitrace/at_index.h), so
 * that info answers without reading the trace and dump --frames reads only the
 * frames asked for. */
#include <getopt.h>
#include <stdio.h>

#include "at_index.h"
#include "gltrace_cmds.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace index [OPTIONS] TRACE_FILE...\n"
          "Write TRACE_FILE.idx beside each trace: its info totals, where each frame starts\n"
          "and the signatures needed to start reading there. The trace is not changed.\n"
          "`gltrace info` then reads no trace data, and `gltrace dump --frames=N-M` reads\n"
          "only those frames (Snappy traces; gzip and Brotli ones have no point to restart\n"
          "from, so dump reads them from the start). An index that no longer matches its\n"
          "trace (size, time or first bytes changed) or is damaged is ignored, with a\n"
          "warning.\n"
          "\n"
          "  -h, --help       show this help and exit\n",
          f);
}

static int index_file(const char *path)
{
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = at_index_build(path, "index", &err);
    if (!ix) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    char w[GT_ERROR_MAX];
    if (at_index_warning(ix, path, w, sizeof w))
        fprintf(stderr, "warning: %s\n", w);
    int rc = at_index_write(ix, path, &err);
    if (rc < 0)
        fprintf(stderr, "error: %s\n", err.msg);
    at_index_free(ix);
    return rc < 0 ? 1 : 0;
}

int cmd_index(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        usage(stderr);
        return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "gltrace index: no trace file given\n");
        return 2;
    }
    int status = 0;
    for (int i = optind; i < argc; ++i)
        if (index_file(argv[i]))
            status = 1;
    return status;
}
