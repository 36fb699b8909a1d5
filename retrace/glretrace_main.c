/* glretrace: replays apitrace-format traces of OpenGL programs (GLX and EGL, desktop
 * GL and GLES) on SDL2 windows and contexts, with apitrace glretrace's options. The
 * replay itself is the replayer library's (replay.h); this is its command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

static void usage(FILE *f)
{
    fputs("usage: glretrace [OPTIONS] TRACE\n"
          "Replay an apitrace-format trace of an OpenGL program.\n"
          "\n"
          "  -h, --help                show this help and exit\n"
          "  -b, --benchmark           benchmark mode (no error checking or warning messages)\n"
          "  -s, --snapshot-prefix=PREFIX  take snapshots, written as PREFIX%010u.png\n"
          "                            (the call number; a swap is snapshot before it swaps)\n"
          "  -S, --snapshot=CALLSET    calls to snapshot (default is every frame)\n"
          "      --headless            replay without an X server (SDL's offscreen driver)\n"
          "      --loop[=N]            replay the final frame N more times (N<0: forever)\n"
          "      --call-limit=N        replay no call numbered above N\n"
          "  -v, --verbose             print each call as it is replayed\n"
          "      --pcpu                CPU time of each call (monotonic clock)\n"
          "      --pgpu                GPU time of each call doing GPU work (timer queries)\n"
          "      --fxt=FILE            write the calls' timeline as Fuchsia trace format (FXT)\n"
          "      --chrome=FILE         write the calls' timeline as Chrome trace JSON\n"
          "                            (--fxt and --chrome imply --pcpu)\n"
          "      --min-cpu-time=NS     text profile: leave out calls faster than NS (default 1000)\n"
          "      --text-profile        print apitrace's text profile even with --fxt/--chrome\n"
          "                            (without them --pcpu/--pgpu print it)\n",
          f);
}

enum {
    OPT_HEADLESS = 256,
    OPT_LOOP,
    OPT_CALL_LIMIT,
    OPT_PCPU,
    OPT_PGPU,
    OPT_FXT,
    OPT_CHROME,
    OPT_MIN_CPU_TIME,
    OPT_TEXT_PROFILE,
};

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"benchmark", no_argument, 0, 'b'},
    {"snapshot-prefix", required_argument, 0, 's'},
    {"snapshot", required_argument, 0, 'S'},
    {"headless", no_argument, 0, OPT_HEADLESS},
    {"loop", optional_argument, 0, OPT_LOOP},
    {"call-limit", required_argument, 0, OPT_CALL_LIMIT},
    {"verbose", no_argument, 0, 'v'},
    {"pcpu", no_argument, 0, OPT_PCPU},
    {"pgpu", no_argument, 0, OPT_PGPU},
    {"fxt", required_argument, 0, OPT_FXT},
    {"chrome", required_argument, 0, OPT_CHROME},
    {"min-cpu-time", required_argument, 0, OPT_MIN_CPU_TIME},
    {"text-profile", no_argument, 0, OPT_TEXT_PROFILE},
    {0, 0, 0, 0},
};

static int parse_number(const char *opt, const char *s, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end) {
        fprintf(stderr, "glretrace: %s: expected a number, got \"%s\"\n", opt, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* Reads the options into O (the snapshot call set into CALLS); returns -1 to go on,
 * else the exit status. */
static int parse_args(int argc, char **argv, replay_options *o, gt_callset *calls)
{
    int c;
    bool have_S = false;
    gt_error err;
    gt_error_clear(&err);
    while ((c = getopt_long(argc, argv, "hbs:S:v", long_options, NULL)) != -1) {
        long long n;
        switch (c) {
        case 'h': usage(stdout); return 0;
        case 'b': o->benchmark = true; break;
        case 's': o->snapshot_prefix = optarg; break;
        case 'S':
            if (gt_callset_merge(calls, optarg, &err) < 0) {
                fprintf(stderr, "glretrace: -S: %s\n", err.msg);
                return 2;
            }
            have_S = true;
            break;
        case 'v': o->verbose++; break;
        case OPT_HEADLESS: o->headless = true; break;
        case OPT_LOOP:
            if (!optarg)
                o->loop = 1;
            else if (!parse_number("--loop", optarg, &n))
                return 2;
            else
                o->loop = (long)n;
            break;
        case OPT_CALL_LIMIT:
            if (!parse_number("--call-limit", optarg, &n) || n < 0) {
                if (n < 0)
                    fprintf(stderr, "glretrace: --call-limit: expected N >= 0\n");
                return 2;
            }
            o->call_limit = (uint64_t)n;
            break;
        case OPT_PCPU: o->pcpu = true; break;
        case OPT_PGPU: o->pgpu = true; break;
        case OPT_FXT: o->fxt_path = optarg; break;
        case OPT_CHROME: o->chrome_path = optarg; break;
        case OPT_TEXT_PROFILE: o->text_profile = true; break;
        case OPT_MIN_CPU_TIME:
            if (!parse_number("--min-cpu-time", optarg, &n))
                return 2;
            o->min_cpu_ns = n;
            break;
        default: usage(stderr); return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "glretrace: no trace file given\n");
        usage(stderr);
        return 2;
    }
    if (optind + 1 < argc)
        fprintf(stderr, "glretrace: warning: replaying only the first trace, %s\n", argv[optind]);
    o->trace = argv[optind];
    if (o->snapshot_prefix && !strcmp(o->snapshot_prefix, "-")) {
        fprintf(stderr, "glretrace: -s -: PNM output to stdout is not supported\n");
        return 2;
    }
    if (have_S) {
        o->snapshot_calls = calls;
        if (!o->snapshot_prefix)
            o->snapshot_prefix = "";
    }
    return -1;
}

int main(int argc, char **argv)
{
    replay_options o;
    replay_options_init(&o, NULL);
    gt_callset calls;
    if (gt_callset_init_all(&calls) < 0) {
        fprintf(stderr, "glretrace: out of memory\n");
        return 1;
    }
    int status = parse_args(argc, argv, &o, &calls);
    if (status < 0) {
        gt_error err;
        gt_error_clear(&err);
        replay_result res;
        status = 0;
        if (replay_run(&o, &res, &err) != 0) {
            fprintf(stderr, "glretrace: error: %s\n", err.msg);
            status = 1;
        } else {
            double fps = res.secs > 0 ? (double)res.frames / res.secs : 0.0;
            printf("Rendered %llu frames in %g secs, average of %g fps\n",
                   (unsigned long long)res.frames, res.secs, fps);
        }
        /* the text profile and the summary: a full disk or closed pipe is a failure */
        if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
            fprintf(stderr, "glretrace: error: writing to stdout failed: %s\n", strerror(errno));
            status = 1;
        }
    }
    gt_callset_free(&calls);
    return status;
}
