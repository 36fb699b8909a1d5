/* gltrace dump-images: apitrace's dump-images. The trace is replayed here, headless, by
 * the replayer (retrace/include/replay.h, loaded: replay_loader.h), which writes a PNG per frame (or per call
 * of --calls) named PREFIX%010u.png (with -m, one per colour buffer, depth and stencil,
 * PREFIX%010u-mrtI.png, -z.png, -s.png) and says "Wrote PATH" for each. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltrace_cmds.h"
#include "gt_options.h"
#include "replay_loader.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace dump-images [OPTIONS] TRACE\n"
          "Replay TRACE (headless) and write an image per frame, as `apitrace dump-images`.\n"
          "\n"
          "  -h, --help            show this help and exit\n"
          "      --calls=CALLSET   the calls to snapshot (default: each frame's end)\n"
          "      --call-nos[=BOOL] name images by call number (default), else 0, 1, ...\n"
          "  -o, --output=PREFIX   images are PREFIX%010u.png (default: TRACE's name without\n"
          "                        its folder and extension, then a dot)\n"
          "  -m, --mrt             every colour buffer drawn to (PREFIXN-mrtI.png), depth\n"
          "                        (-z.png) and stencil (-s.png)\n",
          f);
}

enum { OPT_CALLS = 256, OPT_CALL_NOS };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"calls", required_argument, 0, OPT_CALLS},
    {"call-nos", optional_argument, 0, OPT_CALL_NOS},
    {"output", required_argument, 0, 'o'},
    {"mrt", no_argument, 0, 'm'},
    {0, 0, 0, 0},
};

/* "dir/game.trace" -> "game." (apitrace's default: in the current folder) */
static char *default_prefix(const char *trace)
{
    const char *base = strrchr(trace, '/');
    base = base ? base + 1 : trace;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    char *p = malloc(n + 2);
    if (p) {
        memcpy(p, base, n);
        strcpy(p + n, ".");
    }
    return p;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, replay_options *o, gt_callset *calls)
{
    int c, b;
    gt_error err;
    gt_error_clear(&err);
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:m", long_options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_CALLS:
            if (gt_callset_merge(calls, optarg, &err) != 0) {
                fprintf(stderr, "gltrace dump-images: --calls: %s\n", err.msg);
                return 2;
            }
            o->snapshot_calls = calls;
            break;
        case OPT_CALL_NOS:
            if ((b = gt_parse_bool(optarg)) < 0) {
                fprintf(stderr, "gltrace dump-images: --call-nos: yes or no, not \"%s\"\n", optarg);
                return 2;
            }
            o->snapshot_seq = !b;
            break;
        case 'o': o->snapshot_prefix = optarg; break;
        case 'm': o->snapshot_mrt = true; break;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, optind >= argc ? "gltrace dump-images: no trace file given\n"
                                       : "gltrace dump-images: one trace at a time\n");
        usage(stderr);
        return 2;
    }
    o->trace = argv[optind];
    return -1;
}

int cmd_dump_images(int argc, char **argv)
{
    gt_error err;
    gt_error_clear(&err);
    const replay_api *replay = replay_load(&err);
    if (!replay) {
        fprintf(stderr, "gltrace dump-images: %s\n", err.msg);
        return 1;
    }
    replay_options o;
    replay->options_init(&o, NULL);
    o.headless = true;
    gt_callset calls;
    if (gt_callset_init_all(&calls) != 0) {
        fprintf(stderr, "gltrace dump-images: out of memory\n");
        return 1;
    }
    int status = parse_args(argc, argv, &o, &calls);
    char *prefix = NULL;
    if (status < 0 && !o.snapshot_prefix) {
        if (!(prefix = default_prefix(o.trace))) {
            fprintf(stderr, "gltrace dump-images: out of memory\n");
            status = 1;
        }
        o.snapshot_prefix = prefix;
    }
    if (status < 0) {
        replay_result res;
        status = 0;
        if (replay->run(&o, &res, &err) != 0) {
            fprintf(stderr, "gltrace dump-images: %s\n", err.msg);
            status = 1;
        } else if (res.snapshot_failures) {
            fprintf(stderr, "gltrace dump-images: %llu of %llu images could not be written\n",
                    (unsigned long long)res.snapshot_failures, (unsigned long long)res.snapshots);
            status = 1;
        } else {
            printf("Rendered %llu frames in %g secs, average of %g fps\n",
                   (unsigned long long)res.frames, res.secs,
                   res.secs > 0 ? (double)res.frames / res.secs : 0.0);
        }
    }
    free(prefix);
    gt_callset_free(&calls);
    return status;
}
