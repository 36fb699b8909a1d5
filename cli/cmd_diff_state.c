/* gltrace diff-state: what differs between two state dumps (`glretrace -D CALL`, ours
 * or apitrace's), printed as `apitrace diff-state` (scripts/jsondiff.py) prints it. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "json_diff.h"
#include "json_tree.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace diff-state [OPTIONS] REF_JSON SRC_JSON\n"
          "Print what differs between two state dumps (glretrace -D CALL), as\n"
          "`apitrace diff-state` does: only the differing parameters, \"old -> new\".\n"
          "\n"
          "  -h, --help      show this help and exit\n"
          "  --ignore-added  ignore state only SRC_JSON has\n"
          "  --keep-images   compare images (and other objects with a __class__) too\n"
          "  --exit-code     exit with 1 when the dumps differ (apitrace: 0)\n",
          f);
}

enum { OPT_IGNORE_ADDED = 256, OPT_KEEP_IMAGES, OPT_EXIT_CODE };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"ignore-added", no_argument, 0, OPT_IGNORE_ADDED},
    {"keep-images", no_argument, 0, OPT_KEEP_IMAGES},
    {"exit-code", no_argument, 0, OPT_EXIT_CODE},
    {0, 0, 0, 0},
};

int cmd_diff_state(int argc, char **argv)
{
    jd_options o = {0};
    jt_options jo = {.strip_images = 1};
    int exit_code = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_IGNORE_ADDED: o.ignore_added = 1; break;
        case OPT_KEEP_IMAGES: jo.strip_images = 0; break;
        case OPT_EXIT_CODE: exit_code = 1; break;
        default: usage(stderr); return 2;
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "gltrace diff-state: expected two state dumps, REF_JSON and SRC_JSON (--help)\n");
        return 2;
    }
    gt_arena arena;
    gt_arena_init(&arena);
    jt_value a, b;
    gt_error err;
    gt_error_clear(&err);
    int status = 1, differ = 0;
    if (jt_load(argv[optind], &jo, &arena, &a, &err) == 0 && jt_load(argv[optind + 1], &jo, &arena, &b, &err) == 0) {
        gt_strbuf out;
        gt_strbuf_init(&out);
        if (jd_diff(&out, &a, &b, &o, &differ) < 0)
            fprintf(stderr, "gltrace diff-state: out of memory\n");
        else if (gt_strbuf_flush(&out, stdout) < 0 || fflush(stdout) != 0)
            fprintf(stderr, "gltrace diff-state: cannot write to stdout: %s\n", strerror(errno));
        else
            status = exit_code && differ;
        gt_strbuf_free(&out);
    } else {
        fprintf(stderr, "gltrace diff-state: %s\n", err.msg);
    }
    gt_arena_free(&arena);
    return status;
}
