/* glretrace: replays apitrace-format traces of OpenGL programs (GLX and EGL, desktop
 * GL and GLES) on SDL2 windows and contexts, with apitrace glretrace's options. The
 * replay itself is the replayer library's (replay.h); this is its command line. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gt_options.h"
#include "replay.h"

static void usage(FILE *f)
{
    fputs("usage: glretrace [OPTIONS] TRACE\n"
          "Replay an apitrace-format trace of an OpenGL program.\n"
          "\n"
          "  -h, --help                show this help and exit\n"
          "  -b, --benchmark           benchmark mode (no error checking or warning messages)\n"
          "  -s, --snapshot-prefix=PREFIX  take snapshots, written as PREFIX%010u.png\n"
          "                            (the call number; a swap is snapshot before it swaps);\n"
          "                            `-` writes them to stdout (see --snapshot-format)\n"
          "  -S, --snapshot=CALLSET    calls to snapshot (default is every frame)\n"
          "      --snapshot-format=FMT stdout snapshots as PNM (default), RGB or MD5\n"
          "      --snapshot-alpha      PNG snapshots keep the alpha channel\n"
          "      --snapshot-max=PX     PNG snapshots scaled down by a whole factor to at most\n"
          "                            PX wide and high (thumbnails)\n"
          "  -m, --mrt                 PNG snapshots of every colour buffer drawn to (-mrtI),\n"
          "                            depth (-z) and stencil (-s)\n"
          "      --call-nos[=BOOL]     name snapshots by call number (default), else 0, 1, ...\n"
          "      --snapshot-interval=N snapshot the end of every Nth frame only (0, N, 2N, ...)\n"
          "      --headless            replay without an X server (SDL's offscreen driver)\n"
          "      --sb                  single-buffered visuals (snapshots read the front buffer)\n"
          "      --db                  double-buffered visuals (default)\n"
          "  -w, --wait                keep the windows after the last frame until closed\n"
          "      --loop[=N]            replay the final frame N more times (N<0: forever)\n"
          "      --call-limit=N        replay no call numbered above N\n"
          "      --profile-from=N      profile only calls numbered N and above (calls before\n"
          "                            are replayed untimed; frames keep the trace's numbers):\n"
          "                            with --call-limit, the timeline of a range of calls\n"
          "      --ignore-calls=CALLSET  do not replay these calls\n"
          "      --min-frame-duration=US  make each frame last at least US microseconds\n"
          "      --per-frame-delay=US  wait US microseconds more after each frame\n"
          "      --driver=DRIVER       hw (default), sw (Mesa's software rasterizer), dgpu, igpu\n"
          "      --singlethread        replay the calls of all traced threads on one thread,\n"
          "                            binding each one's context at a switch (default)\n"
          "      --threads             replay each traced thread on a thread of its own, its\n"
          "                            context kept current there (as apitrace): faster when\n"
          "                            binding contexts is slow and threads switch often\n"
          "  -D, --dump-state=CALL     write the GL state after CALL as JSON on stdout (apitrace's\n"
          "                            layout: parameters, shaders, uniforms, buffers, textures,\n"
          "                            framebuffer) and stop; `frame`: after the first frame\n"
          "      --dump-format=FORMAT  json (the only format; apitrace's ubjson is not written)\n"
          "      --state-server        -D for each call number read from stdin, one per line,\n"
          "                            answered on stdout (`gltrace view` uses it; see\n"
          "                            retrace/state/state.h)\n"
          "  -v, --verbose             print each call as it is replayed\n"
          "      --pcpu                CPU time of each call (monotonic clock)\n"
          "      --pgpu                GPU time of each call doing GPU work (timer queries)\n"
          "      --pframe-times        when each frame's rendering finished (the text profile's\n"
          "                            rendering_finished lines)\n"
          "      --ppd                 pixels drawn by each draw call (GL_SAMPLES_PASSED; the\n"
          "                            text profile's pixels column, -1 for other calls)\n"
          "      --pmem                memory use of each call (the text profile's vsize and rss\n"
          "                            columns: bytes and pages when it began, and their growth)\n"
          "      --fxt=FILE            write the calls' timeline as Fuchsia trace format (FXT)\n"
          "      --chrome=FILE         write the calls' timeline as Chrome trace JSON\n"
          "                            (--fxt and --chrome imply --pcpu)\n"
          "      --min-cpu-time=NS     text profile: leave out calls faster than NS (default 1000)\n"
          "      --text-profile        print apitrace's text profile even with --fxt/--chrome\n"
          "                            (without them --pcpu/--pgpu print it)\n"
          "      --pframes=METRICS     frame profiling metrics selection (apitrace's: e.g.\n"
          "                            \"opengl:GPU Duration,CPU Duration\", BACKEND:M,M;...)\n"
          "      --pcalls=METRICS      call profiling metrics selection\n"
          "      --pdrawcalls=METRICS  draw call profiling metrics selection\n"
          "      --list-metrics        list the metrics the trace's first context offers\n"
          "      --gen-passes          print the number of passes the metrics need and exit\n"
          "      --markers             insert each GL call's dump text as a debug marker\n"
          "                            (KHR_debug) before it, for GPU debuggers and driver logs\n"
          "      --core                contexts created without a version (glXCreateContext,\n"
          "                            glXCreateNewContext) are 3.2 core profile ones\n"
          "      --samples=N           windows with N samples (GL_ARB_multisample), whatever\n"
          "                            the trace's visuals asked (default: theirs)\n"
          "      --query-handling=MODE glGetQueryObject* with no query buffer bound: skip\n"
          "                            (default), run (waiting for the result) or check (run,\n"
          "                            and warn where the result differs from the trace's)\n"
          "      --query-tolerance=N   the difference check allows; N > 0 implies check\n",
          f);
}

enum {
    OPT_HEADLESS = 256,
    OPT_LOOP,
    OPT_CALL_LIMIT,
    OPT_SNAPSHOT_MAX,
    OPT_PROFILE_FROM,
    OPT_PCPU,
    OPT_PGPU,
    OPT_FXT,
    OPT_CHROME,
    OPT_MIN_CPU_TIME,
    OPT_TEXT_PROFILE,
    OPT_SB,
    OPT_DB,
    OPT_SNAPSHOT_FORMAT,
    OPT_SNAPSHOT_ALPHA,
    OPT_CALL_NOS,
    OPT_IGNORE_CALLS,
    OPT_MIN_FRAME_DURATION,
    OPT_PER_FRAME_DELAY,
    OPT_DRIVER,
    OPT_SINGLETHREAD,
    OPT_THREADS,
    OPT_STATE_SERVER,
    OPT_SNAPSHOT_INTERVAL,
    OPT_DUMP_FORMAT,
    OPT_PFRAME_TIMES,
    OPT_PFRAMES,
    OPT_PCALLS,
    OPT_PDRAWCALLS,
    OPT_LIST_METRICS,
    OPT_GEN_PASSES,
    OPT_PPD,
    OPT_PMEM,
    OPT_MARKERS,
    OPT_CORE,
    OPT_SAMPLES,
    OPT_QUERY_HANDLING,
    OPT_QUERY_TOLERANCE,
};

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"benchmark", no_argument, 0, 'b'},
    {"snapshot-prefix", required_argument, 0, 's'},
    {"snapshot", required_argument, 0, 'S'},
    {"snapshot-format", required_argument, 0, OPT_SNAPSHOT_FORMAT},
    {"snapshot-alpha", no_argument, 0, OPT_SNAPSHOT_ALPHA},
    {"snapshot-max", required_argument, 0, OPT_SNAPSHOT_MAX},
    {"mrt", no_argument, 0, 'm'},
    {"call-nos", optional_argument, 0, OPT_CALL_NOS},
    {"snapshot-interval", required_argument, 0, OPT_SNAPSHOT_INTERVAL},
    {"headless", no_argument, 0, OPT_HEADLESS},
    {"sb", no_argument, 0, OPT_SB},
    {"db", no_argument, 0, OPT_DB},
    {"wait", no_argument, 0, 'w'},
    {"loop", optional_argument, 0, OPT_LOOP},
    {"call-limit", required_argument, 0, OPT_CALL_LIMIT},
    {"profile-from", required_argument, 0, OPT_PROFILE_FROM},
    {"ignore-calls", required_argument, 0, OPT_IGNORE_CALLS},
    {"min-frame-duration", required_argument, 0, OPT_MIN_FRAME_DURATION},
    {"per-frame-delay", required_argument, 0, OPT_PER_FRAME_DELAY},
    {"driver", required_argument, 0, OPT_DRIVER},
    {"singlethread", no_argument, 0, OPT_SINGLETHREAD},
    {"threads", no_argument, 0, OPT_THREADS},
    {"dump-state", required_argument, 0, 'D'},
    {"dump-format", required_argument, 0, OPT_DUMP_FORMAT},
    {"state-server", no_argument, 0, OPT_STATE_SERVER},
    {"verbose", no_argument, 0, 'v'},
    {"pcpu", no_argument, 0, OPT_PCPU},
    {"pgpu", no_argument, 0, OPT_PGPU},
    {"pframe-times", no_argument, 0, OPT_PFRAME_TIMES},
    {"fxt", required_argument, 0, OPT_FXT},
    {"chrome", required_argument, 0, OPT_CHROME},
    {"min-cpu-time", required_argument, 0, OPT_MIN_CPU_TIME},
    {"text-profile", no_argument, 0, OPT_TEXT_PROFILE},
    {"pframes", required_argument, 0, OPT_PFRAMES},
    {"pcalls", required_argument, 0, OPT_PCALLS},
    {"pdrawcalls", required_argument, 0, OPT_PDRAWCALLS},
    {"list-metrics", no_argument, 0, OPT_LIST_METRICS},
    {"gen-passes", no_argument, 0, OPT_GEN_PASSES},
    {"ppd", no_argument, 0, OPT_PPD},
    {"pmem", no_argument, 0, OPT_PMEM},
    {"markers", no_argument, 0, OPT_MARKERS},
    {"core", no_argument, 0, OPT_CORE},
    {"samples", required_argument, 0, OPT_SAMPLES},
    {"query-handling", required_argument, 0, OPT_QUERY_HANDLING},
    {"query-tolerance", required_argument, 0, OPT_QUERY_TOLERANCE},
    {0, 0, 0, 0},
};

/* What the command line fills besides the replay's options. */
typedef struct cli {
    replay_options o;
    gt_callset snapshot_calls, ignore_calls;
    bool have_S;
    metrics *mx; /* made at the first metric option */
} cli;

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

static int parse_count(const char *opt, const char *s, uint64_t *out)
{
    long long n;
    if (!parse_number(opt, s, &n))
        return 0;
    if (n < 0) {
        fprintf(stderr, "glretrace: %s: expected a number >= 0\n", opt);
        return 0;
    }
    *out = (uint64_t)n;
    return 1;
}

static int parse_format(const char *s, snapshot_format *f)
{
    if (!strcasecmp(s, "PNM"))
        *f = SNAPSHOT_PNM;
    else if (!strcasecmp(s, "RGB"))
        *f = SNAPSHOT_RGB;
    else if (!strcasecmp(s, "MD5"))
        *f = SNAPSHOT_MD5;
    else {
        fprintf(stderr, "glretrace: --snapshot-format: PNM, RGB or MD5, not \"%s\"\n", s);
        return 0;
    }
    return 1;
}

/* Mesa and glvnd read the driver choice from the environment, before any context. */
static int set_driver(const char *d)
{
    if (!strcmp(d, "hw"))
        unsetenv("LIBGL_ALWAYS_SOFTWARE");
    else if (!strcmp(d, "sw"))
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
    else if (!strcmp(d, "dgpu") || !strcmp(d, "igpu"))
        setenv("DRI_PRIME", d[0] == 'd' ? "1" : "0", 1);
    else {
        fprintf(stderr, "glretrace: --driver: hw, sw, dgpu or igpu, not \"%s\"\n", d);
        return 0;
    }
    return 1;
}

static int merge_set(const char *opt, gt_callset *set, const char *s)
{
    gt_error err;
    gt_error_clear(&err);
    if (gt_callset_merge(set, s, &err) == 0)
        return 1;
    fprintf(stderr, "glretrace: %s: %s\n", opt, err.msg);
    return 0;
}

/* A metric option: the selection made at the first. */
static int metric_option(cli *c, int opt, const char *arg)
{
    if (!c->mx && !(c->mx = metrics_new())) {
        fprintf(stderr, "glretrace: out of memory\n");
        return 0;
    }
    c->o.metrics = c->mx;
    gt_error err;
    gt_error_clear(&err);
    int rc = 0;
    switch (opt) {
    case OPT_PFRAMES: rc = metrics_add(c->mx, METRICS_FRAME, arg, &err); break;
    case OPT_PCALLS: rc = metrics_add(c->mx, METRICS_CALL, arg, &err); break;
    case OPT_PDRAWCALLS: rc = metrics_add(c->mx, METRICS_DRAWCALL, arg, &err); break;
    case OPT_LIST_METRICS: metrics_set_list(c->mx); break;
    default: metrics_set_gen_passes(c->mx); break;
    }
    if (rc != 0)
        fprintf(stderr, "glretrace: %s\n", err.msg);
    return rc == 0;
}

/* --query-handling, --query-tolerance (a tolerance above 0 means check, as apitrace). */
static int query_option(replay_options *o, int opt, const char *arg)
{
    if (opt == OPT_QUERY_TOLERANCE) {
        if (!parse_count("--query-tolerance", arg, &o->query_tolerance))
            return 0;
        if (o->query_tolerance > 0)
            o->query_handling = REPLAY_QUERY_CHECK;
        return 1;
    }
    if (!strcmp(arg, "skip"))
        o->query_handling = REPLAY_QUERY_SKIP;
    else if (!strcmp(arg, "run"))
        o->query_handling = REPLAY_QUERY_RUN;
    else if (!strcmp(arg, "check"))
        o->query_handling = REPLAY_QUERY_CHECK;
    else {
        fprintf(stderr, "glretrace: --query-handling: skip, run or check, not \"%s\"\n", arg);
        return 0;
    }
    return 1;
}

/* One option into C: 1, or 0 after saying why it is wrong. */
static int parse_option(cli *c, int opt, const char *arg)
{
    replay_options *o = &c->o;
    long long n;
    int b;
    switch (opt) {
    case 'b': o->benchmark = true; return 1;
    case 's': o->snapshot_prefix = arg; return 1;
    case 'S': c->have_S = true; return merge_set("-S", &c->snapshot_calls, arg);
    case OPT_SNAPSHOT_FORMAT: return parse_format(arg, &o->snapshot_format);
    case OPT_SNAPSHOT_ALPHA: o->snapshot_alpha = true; return 1;
    case OPT_SNAPSHOT_MAX: {
        uint64_t n;
        if (!parse_count("--snapshot-max", arg, &n))
            return 0;
        o->snapshot_max = n > 65536 ? 65536 : (uint32_t)n;
        return 1;
    }
    case 'm': o->snapshot_mrt = true; return 1;
    case OPT_SNAPSHOT_INTERVAL: {
        uint64_t n;
        if (!parse_count("--snapshot-interval", arg, &n))
            return 0;
        o->snapshot_interval = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        return 1;
    }
    case OPT_CALL_NOS:
        if ((b = gt_parse_bool(arg)) < 0)
            fprintf(stderr, "glretrace: --call-nos: yes or no, not \"%s\"\n", arg);
        o->snapshot_seq = b == 0;
        return b >= 0;
    case 'D':
        o->dump_state = true;
        if (!strcmp(arg, "frame")) {
            o->dump_state_frame = true;
            return 1;
        }
        return parse_count("-D", arg, &o->dump_state_call);
    case OPT_STATE_SERVER: o->state_server = true; return 1;
    case OPT_DUMP_FORMAT:
        if (strcmp(arg, "json")) {
            fprintf(stderr, "glretrace: --dump-format: only json is written, not \"%s\"\n", arg);
            return 0;
        }
        return 1;
    case 'v': o->verbose++; return 1;
    case 'w': o->wait = true; return 1;
    case OPT_HEADLESS: o->headless = true; return 1;
    case OPT_SB: o->single_buffer = true; return 1;
    case OPT_DB: o->single_buffer = false; return 1;
    case OPT_SINGLETHREAD: o->threads = false; return 1;
    case OPT_THREADS: o->threads = true; return 1;
    case OPT_DRIVER: return set_driver(arg);
    case OPT_LOOP:
        n = 1;
        if (arg && !parse_number("--loop", arg, &n))
            return 0;
        o->loop = (long)n;
        return 1;
    case OPT_CALL_LIMIT: return parse_count("--call-limit", arg, &o->call_limit);
    case OPT_PROFILE_FROM: return parse_count("--profile-from", arg, &o->profile_from);
    case OPT_IGNORE_CALLS:
        o->ignore_calls = &c->ignore_calls;
        return merge_set("--ignore-calls", &c->ignore_calls, arg);
    case OPT_MIN_FRAME_DURATION: return parse_count("--min-frame-duration", arg, &o->min_frame_us);
    case OPT_PER_FRAME_DELAY: return parse_count("--per-frame-delay", arg, &o->per_frame_delay_us);
    case OPT_PCPU: o->pcpu = true; return 1;
    case OPT_PGPU: o->pgpu = true; return 1;
    case OPT_PFRAME_TIMES: o->pframe_times = true; return 1;
    case OPT_PPD: o->ppd = true; return 1;
    case OPT_PMEM: o->pmem = true; return 1;
    case OPT_MARKERS: o->markers = true; return 1;
    case OPT_CORE: o->core = true; return 1;
    case OPT_SAMPLES: {
        uint64_t n;
        if (!parse_count("--samples", arg, &n))
            return 0;
        o->samples = n > 64 ? 64 : (int)n;
        return 1;
    }
    case OPT_QUERY_HANDLING:
    case OPT_QUERY_TOLERANCE: return query_option(o, opt, arg);
    case OPT_FXT: o->fxt_path = arg; return 1;
    case OPT_CHROME: o->chrome_path = arg; return 1;
    case OPT_TEXT_PROFILE: o->text_profile = true; return 1;
    case OPT_PFRAMES:
    case OPT_PCALLS:
    case OPT_PDRAWCALLS:
    case OPT_LIST_METRICS:
    case OPT_GEN_PASSES: return metric_option(c, opt, arg);
    case OPT_MIN_CPU_TIME:
        if (!parse_number("--min-cpu-time", arg, &n))
            return 0;
        o->min_cpu_ns = n;
        return 1;
    default: return 0;
    }
}

/* Reads the options into C; returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, cli *c)
{
    int opt;
    while ((opt = getopt_long(argc, argv, "hbms:S:vwD:", long_options, NULL)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return 0;
        }
        if (!parse_option(c, opt, optarg)) {
            if (opt == '?')
                usage(stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "glretrace: no trace file given\n");
        usage(stderr);
        return 2;
    }
    if (optind + 1 < argc)
        fprintf(stderr, "glretrace: warning: replaying only the first trace, %s\n", argv[optind]);
    c->o.trace = argv[optind];
    if (c->have_S) {
        c->o.snapshot_calls = &c->snapshot_calls;
        if (!c->o.snapshot_prefix)
            c->o.snapshot_prefix = "";
    }
    return -1;
}

/* Replays once; 0, or 1 after saying why. res holds what was replayed. */
static int replay_once(const replay_options *o, replay_result *res)
{
    gt_error err;
    gt_error_clear(&err);
    if (replay_run(o, res, &err) == 0)
        return 0;
    fprintf(stderr, "glretrace: error: %s\n", err.msg);
    return 1;
}

/* With metrics: one replay per pass (the number is known after the first context),
 * then the metrics' blocks, as apitrace prints them before its summary line. */
static int replay_passes(const replay_options *o, replay_result *res)
{
    metrics *mx = o->metrics;
    int status = 0;
    for (unsigned pass = 0; status == 0 && pass < metrics_passes(mx); ++pass) {
        metrics_begin_pass(mx, pass);
        status = replay_once(o, res);
        if (metrics_done(mx)) /* --list-metrics, --gen-passes: printed */
            return 2;
    }
    if (status == 0 && metrics_write(mx, stdout) != 0)
        status = 1; /* reported below with stdout's error */
    return status;
}

/* Replays; the summary line goes to stdout unless the snapshots do. */
static int run(const replay_options *o)
{
    replay_result res;
    int status = o->metrics ? replay_passes(o, &res) : replay_once(o, &res);
    if (status == 2) {
        status = 0; /* no summary after a metrics listing, as apitrace exits there */
    } else if (status == 0 && !o->dump_state && !o->state_server &&
               (!o->snapshot_prefix || strcmp(o->snapshot_prefix, "-") || o->benchmark)) {
        double fps = res.secs > 0 ? (double)res.frames / res.secs : 0.0;
        printf("Rendered %llu frames in %g secs, average of %g fps\n",
               (unsigned long long)res.frames, res.secs, fps);
    }
    /* the snapshots, text profile and summary: a full disk or closed pipe is a failure */
    if ((fflush(stdout) != 0 || ferror(stdout)) && status == 0) {
        fprintf(stderr, "glretrace: error: writing to stdout failed: %s\n", strerror(errno));
        status = 1;
    }
    return status;
}

int main(int argc, char **argv)
{
    cli c;
    memset(&c, 0, sizeof c);
    replay_options_init(&c.o, NULL);
    if (gt_callset_init_all(&c.snapshot_calls) < 0 || gt_callset_init_all(&c.ignore_calls) < 0) {
        fprintf(stderr, "glretrace: out of memory\n");
        return 1;
    }
    int status = parse_args(argc, argv, &c);
    if (status < 0)
        status = run(&c.o);
    gt_callset_free(&c.snapshot_calls);
    gt_callset_free(&c.ignore_calls);
    metrics_free(c.mx);
    return status;
}
