/* gltrace check: piglit's `replayer.py compare yaml` for a traces.yml (check_yaml.h),
 * replays in child processes (check_run.h), reports as text, JUnit XML and HTML
 * (check_report.h), and --update rewrites this device's checksums in the file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check_report.h"
#include "check_run.h"
#include "check_yaml.h"
#include "gltrace_cmds.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace check [OPTIONS] TRACES.yml --device-name=NAME\n"
          "Replay (headless) the last frame of each trace TRACES.yml lists for the device and\n"
          "compare the MD5 checksum of its image with the file's, as piglit's `replayer.py\n"
          "compare yaml` does. Prints pass, fail or skip per trace; exits 1 when one failed.\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "  -d, --device-name=NAME the device whose checksums and labels are used\n"
          "  -p, --db-path=DIR      trace paths are relative to DIR (default: .)\n"
          "  -o, --output=DIR       images, logs and index.html go here (default: results)\n"
          "  -j, --jobs=N           N replays at a time, each in a process of its own\n"
          "      --shard=K/N        only the traces K, K+N, K+2N... (from 1) of the device's\n"
          "                         list; default: $CI_NODE_INDEX/$CI_NODE_TOTAL when set\n"
          "      --junit=FILE       write the verdicts as JUnit XML (GitLab's test report)\n"
          "  -k, --keep-images      keep the images and logs of the traces that passed too\n"
          "      --ref-dir=DIR      reference images DIR/CHECKSUM.png for the HTML report\n"
          "      --update           write the checksums computed into TRACES.yml for the\n"
          "                         traces that differ (nothing else in the file changes)\n"
          "      --calls=CALLSET    snapshot these calls instead of the last frame's end (the\n"
          "                         checksum is the last image's)\n"
          "      --profile          frame times instead of checksums: glretrace run as\n"
          "                         piglit's `replayer.py profile` runs it (GPU duration per\n"
          "                         frame): median, mean, min, max of the last N frames\n"
          "      --loop=N           with --profile: N loops of the last frame (default 150)\n"
          "      --timeout=SECS     a replay running longer fails (default: none)\n"
          "\n"
          "Traces labelled skip are skipped (no-perf: skipped by --profile). A missing\n"
          "trace, a replay that fails or crashes, or an unusable entry fails that trace\n"
          "only; a file that is not YAML is an error (exit 2).\n",
          f);
}

enum { OPT_SHARD = 256, OPT_JUNIT, OPT_REF_DIR, OPT_UPDATE, OPT_CALLS, OPT_PROFILE, OPT_LOOP,
       OPT_TIMEOUT };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"device-name", required_argument, 0, 'd'},
    {"db-path", required_argument, 0, 'p'},
    {"output", required_argument, 0, 'o'},
    {"jobs", required_argument, 0, 'j'},
    {"shard", required_argument, 0, OPT_SHARD},
    {"junit", required_argument, 0, OPT_JUNIT},
    {"keep-images", no_argument, 0, 'k'},
    {"keep-image", no_argument, 0, 'k'}, /* piglit's spelling */
    {"ref-dir", required_argument, 0, OPT_REF_DIR},
    {"update", no_argument, 0, OPT_UPDATE},
    {"calls", required_argument, 0, OPT_CALLS},
    {"profile", no_argument, 0, OPT_PROFILE},
    {"loop", required_argument, 0, OPT_LOOP},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {0, 0, 0, 0},
};

typedef struct args {
    check_opts o;
    const char *yml, *junit, *ref_dir;
    unsigned shard_k, shard_n; /* 0/0: every trace */
    bool update;
} args;

static int parse_count(const char *s, long min, long max, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* "K/N", 1 <= K <= N: 0, or -1 */
static int parse_shard(const char *k, const char *n, args *a)
{
    long kv, nv;
    if (parse_count(k, 1, 1000000, &kv) != 0 || parse_count(n, 1, 1000000, &nv) != 0 || kv > nv)
        return -1;
    a->shard_k = (unsigned)kv;
    a->shard_n = (unsigned)nv;
    return 0;
}

static int parse_shard_arg(const char *s, args *a)
{
    char buf[64];
    const char *slash = strchr(s, '/');
    if (!slash || strlen(s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = 0;
    return parse_shard(buf, slash + 1, a);
}

static int bad_value(const char *opt, const char *v)
{
    fprintf(stderr, "gltrace check: %s: bad value \"%s\"\n", opt, v);
    return 2;
}

static int parse_opt(int c, args *a)
{
    long v;
    switch (c) {
    case 'd': a->o.device = optarg; break;
    case 'p': a->o.db_path = optarg; break;
    case 'o': a->o.out_dir = optarg; break;
    case 'j':
        if (parse_count(optarg, 1, 256, &v) != 0)
            return bad_value("--jobs", optarg);
        a->o.jobs = (unsigned)v;
        break;
    case OPT_SHARD:
        if (parse_shard_arg(optarg, a) != 0)
            return bad_value("--shard (K/N, 1 <= K <= N)", optarg);
        break;
    case OPT_JUNIT: a->junit = optarg; break;
    case 'k': a->o.keep_images = true; break;
    case OPT_REF_DIR: a->ref_dir = optarg; break;
    case OPT_UPDATE: a->update = true; break;
    case OPT_CALLS: a->o.calls = optarg; break;
    case OPT_PROFILE: a->o.profile = true; break;
    case OPT_LOOP:
        if (parse_count(optarg, 1, 1000000, &a->o.loops) != 0)
            return bad_value("--loop", optarg);
        break;
    case OPT_TIMEOUT:
        if (parse_count(optarg, 1, 86400 * 7, &v) != 0)
            return bad_value("--timeout", optarg);
        a->o.timeout = (unsigned)v;
        break;
    default: usage(stderr); return 2;
    }
    return -1;
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, args *a)
{
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hd:p:o:j:k", long_options, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        if ((rc = parse_opt(c, a)) >= 0)
            return rc;
    }
    if (optind + 1 != argc || !a->o.device) {
        fprintf(stderr, optind + 1 != argc ? "gltrace check: one traces file, please\n"
                                           : "gltrace check: --device-name is required\n");
        usage(stderr);
        return 2;
    }
    a->yml = argv[optind];
    const char *ck = getenv("CI_NODE_INDEX"), *cn = getenv("CI_NODE_TOTAL");
    if (!a->shard_n && ck && cn && *ck && *cn && parse_shard(ck, cn, a) != 0) {
        fprintf(stderr, "gltrace check: CI_NODE_INDEX=%s CI_NODE_TOTAL=%s is no shard\n", ck, cn);
        return 2;
    }
    if (a->update && a->o.profile) {
        fprintf(stderr, "gltrace check: --update computes checksums, --profile does not\n");
        return 2;
    }
    return -1;
}

/* The traces of this shard: every shard_n-th of the device's list, from shard_k */
static size_t *shard(const check_list *l, const args *a, size_t *n)
{
    size_t *idx = malloc((l->n ? l->n : 1) * sizeof *idx);
    *n = 0;
    for (size_t i = 0; idx && i < l->n; ++i)
        if (!a->shard_n || i % a->shard_n == a->shard_k - 1)
            idx[(*n)++] = i;
    return idx;
}

/* --update: the checksums computed for traces that differ only by their checksum */
static int update(const args *a, const check_list *l, const size_t *idx, const check_result *res,
                  size_t n, int *status)
{
    char **sums = calloc(l->n ? l->n : 1, sizeof *sums);
    if (!sums)
        return -1;
    size_t failed = 0, unplaced = 0, changed = 0;
    for (size_t i = 0; i < n; ++i) {
        if (res[i].verdict != CHECK_FAIL)
            continue;
        if (res[i].sum_differs && l->t[idx[i]].has_sum_pos)
            sums[idx[i]] = res[i].actual;
        else
            failed++, unplaced += res[i].sum_differs;
    }
    gt_error err;
    gt_error_clear(&err);
    int rc = check_yaml_update(a->yml, l, sums, &changed, &err);
    free(sums);
    if (rc != 0) {
        fprintf(stderr, "gltrace check: --update: %s\n", err.msg);
        return -1;
    }
    fprintf(stderr, "gltrace check: %zu checksums of %s updated in %s\n", changed, a->o.device, a->yml);
    if (unplaced)
        fprintf(stderr, "gltrace check: %zu traces have no checksum line to rewrite: add them by hand\n",
                unplaced);
    *status = failed ? 1 : 0; /* what was written is no longer a failure */
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(args *a, const check_list *l)
{
    size_t n;
    size_t *idx = shard(l, a, &n);
    check_result *res = calloc(n ? n : 1, sizeof *res);
    gt_error err;
    gt_error_clear(&err);
    int status = 1;
    if (!idx || !res) {
        fprintf(stderr, "gltrace check: out of memory\n");
        goto out;
    }
    if (a->shard_n)
        fprintf(stderr, "gltrace check: shard %u/%u: %zu of the %zu traces of %s\n", a->shard_k,
                a->shard_n, n, l->n, a->o.device);
    mkdir(a->o.out_dir, 0777); /* its parent is the user's; a failure shows below */
    double t0 = now();
    if (check_run_all(l, idx, n, &a->o, res, &err) != 0) {
        fprintf(stderr, "gltrace check: %s\n", err.msg);
        goto out;
    }
    check_report rep = {.device = a->o.device, .l = l, .idx = idx, .res = res, .n = n,
                        .secs = now() - t0, .profile = a->o.profile};
    check_report_text(stdout, &rep);
    status = 0;
    for (size_t i = 0; i < n; ++i)
        status |= res[i].verdict == CHECK_FAIL;
    int hrc = check_report_html(a->o.out_dir, a->ref_dir, &rep, &err);
    if (hrc > 0)
        fprintf(stderr, "gltrace check: the failures, image by image: %s/index.html\n", a->o.out_dir);
    if (hrc < 0 || (a->junit && check_report_junit(a->junit, &rep, &err) != 0)) {
        fprintf(stderr, "gltrace check: %s\n", err.msg);
        status = 2;
    }
    if (a->update && status != 2 && update(a, l, idx, res, n, &status) != 0)
        status = 2;
out:
    for (size_t i = 0; res && i < n; ++i)
        check_result_free(&res[i]);
    free(res);
    free(idx);
    return status;
}

int cmd_check(int argc, char **argv)
{
    args a = {.o = {.db_path = ".", .out_dir = "results", .jobs = 1, .loops = 150}};
    int status = parse_args(argc, argv, &a);
    if (status >= 0)
        return status;
    a.o.progress = isatty(2);
    check_list l;
    gt_error err;
    gt_error_clear(&err);
    if (check_yaml_load(a.yml, a.o.device, &l, &err) != 0) {
        fprintf(stderr, "gltrace check: %s\n", err.msg);
        check_list_free(&l);
        return 2;
    }
    status = run(&a, &l);
    check_list_free(&l);
    return status;
}
