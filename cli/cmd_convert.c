/* gltrace convert: timeline files from one format to another, several inputs
 * merged onto one clock. Every reader feeds the timeline model and every writer
 * takes it (common/model/gt_timeline.h), so no format pair is a special case. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gltrace_cmds.h"
#include "gt_progress.h"
#include "gt_timeline.h"
#include "replay_loader.h"
#include "timeline_io.h"

typedef struct input {
    const char *path;
    const tl_format *fmt;
    int64_t offset;    /* --offset given before it */
    char *replayed;    /* for a .trace: the FXT its replay wrote (a temporary file) */
} input;

typedef struct warn_state {
    const char *path;
    unsigned shown, total;
    bool quiet;
} warn_state;

static void usage(FILE *f)
{
    fputs("usage: gltrace convert [OPTIONS] INPUT... -o OUTPUT\n"
          "Convert and merge timelines. Inputs: FXT (.fxt), Chrome JSON (.json, .json.gz),\n"
          "LLVM XRay logs (.xray), trace-cmd files (.dat), and apitrace traces (.trace),\n"
          "which are replayed (headless) with CPU and GPU timings. The output's format\n"
          "follows its name: .fxt, .json, .xray, .dat, or .txt (one line per event).\n"
          "Several inputs merge onto the first input's clock: by the wall-clock anchors the\n"
          "files carry (XRay, trace-cmd, our own files), else shifted by --offset.\n"
          "\n"
          "  -o, --output=FILE      the output; - prints the text form on stdout\n"
          "      --print            same as -o -\n"
          "      --counts           print the number of events of each kind on stdout\n"
          "      --offset=NS        add NS nanoseconds to the times of the inputs after it\n"
          "      --no-align         ignore wall-clock anchors when merging\n"
          "      --instr-map=BINARY name XRay function ids from BINARY's xray_instr_map\n"
          "      --strict           refuse what real files get away with (for checking\n"
          "                         files written by gltrace)\n"
          "  -q, --quiet            no warnings\n"
          "  -h, --help             show this help and exit\n",
          f);
}

static void on_warning(void *ctx, const char *msg)
{
    warn_state *w = ctx;
    w->total++;
    if (w->quiet || w->shown >= 10)
        return;
    w->shown++;
    fprintf(stderr, "gltrace convert: warning: %s\n", msg); /* msg names the file */
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

/* A .trace is replayed here, headless, by the replayer (retrace/include/replay.h, loaded)
 * with CPU and GPU timings into a temporary FXT file, which is then read as any input. */
static char *replay_trace(const char *trace, gt_error *err)
{
    const char *dir = getenv("TMPDIR");
    dir = dir && *dir ? dir : "/tmp";
    size_t len = strlen(dir) + sizeof "/gltrace-convert-XXXXXX";
    char *tmp = malloc(len);
    if (!tmp) {
        gt_error_set(err, "out of memory");
        return NULL;
    }
    snprintf(tmp, len, "%s/gltrace-convert-XXXXXX", dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        gt_error_set(err, "cannot create a temporary file %s: %s", tmp, strerror(errno));
        free(tmp);
        return NULL;
    }
    close(fd);
    const replay_api *replay = replay_load(err);
    if (!replay) {
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    fprintf(stderr, "gltrace convert: replaying %s with timings\n", trace);
    replay_options o;
    replay->options_init(&o, trace);
    o.headless = true;
    o.pcpu = o.pgpu = true;
    o.fxt_path = tmp;
    gt_error rerr;
    gt_error_clear(&rerr);
    if (replay->run(&o, NULL, &rerr) != 0) {
        gt_error_set(err, "%s: replay with timings failed: %s", trace, rerr.msg);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    return tmp;
}

static const char *source_of(const input *in) { return in->replayed ? in->replayed : in->path; }
/* a replay writes FXT */
static const tl_format *format_of(const input *in)
{
    return in->replayed ? &tl_format_fxt : in->fmt;
}

/* Stops the anchor pass at the first event read after an anchor: FXT, XRay and
 * trace-cmd files carry theirs before their events (Chrome JSON at the end). */
static int stop_at_anchor(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)ev, (void)err;
    *(bool *)self = tl->has_wall || tl->has_mono;
    return *(bool *)self ? -1 : 0;
}

/* Reads an input, as far as needed, to learn its clock anchors. */
static int find_anchor(const input *in, gt_timeline *tl, gt_tl_read_opts *opts, gt_error *err)
{
    bool found = false;
    gt_tl_sink sink = {.self = &found, .event = stop_at_anchor};
    tl->has_wall = tl->has_mono = false;
    tl->wall_offset_ns = tl->mono_offset_ns = 0;
    gt_tl_read_opts quiet = *opts;
    quiet.warn = NULL;
    gt_error scratch;
    gt_error_clear(&scratch);
    if (tl_read(format_of(in), source_of(in), tl, &sink, &quiet, &scratch) == 0 || found)
        return 0;
    gt_error_set(err, "%s", scratch.msg);
    return -1;
}

typedef struct convert {
    input *inputs;
    int ninputs;
    const char *output;
    bool counts, align, strict, quiet;
    const char *instr_map;
} convert;

static void print_counts(const gt_tl_counts *c)
{
    for (int k = 1; k < GT_TL_KIND_COUNT; k++)
        printf("%s %" PRIu64 "\n", gt_tl_kind_name((gt_tl_kind)k), c->n[k]);
}

/* Offsets of each input onto the first one's clock. */
static int plan_offsets(convert *cv, gt_timeline *tl, gt_tl_read_opts *opts, int64_t *shift,
                        gt_error *err)
{
    gt_timeline base = {0};
    for (int i = 0; i < cv->ninputs; i++) {
        shift[i] = cv->inputs[i].offset;
        if (!cv->align || cv->ninputs < 2)
            continue;
        if (find_anchor(&cv->inputs[i], tl, opts, err) != 0)
            return -1;
        if (i == 0) {
            base = *tl;
            continue;
        }
        /* the same CLOCK_MONOTONIC is exact; wall clocks are the fallback */
        const char *by = NULL;
        int64_t d = 0;
        if (base.has_mono && tl->has_mono)
            by = "CLOCK_MONOTONIC", d = tl->mono_offset_ns - base.mono_offset_ns;
        else if (base.has_wall && tl->has_wall)
            by = "wall-clock", d = tl->wall_offset_ns - base.wall_offset_ns;
        shift[i] += d;
        if (!cv->quiet && by)
            fprintf(stderr, "gltrace convert: %s: put on the first input's clock by %s anchors "
                            "(shifted %lld ns)\n", cv->inputs[i].path, by, (long long)shift[i]);
        else if (!cv->quiet)
            fprintf(stderr, "gltrace convert: %s: no clock anchor in common with the first input; "
                            "shifted %lld ns (--offset)\n", cv->inputs[i].path, (long long)shift[i]);
    }
    return 0;
}

/* Events counted on a terminal, on their way to the next sink. */
typedef struct progress_sink {
    gt_tl_sink *to;
    gt_progress p;
    uint64_t n;
} progress_sink;

static int progress_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    progress_sink *ps = self;
    gt_progress_update(&ps->p, 0, ++ps->n);
    return gt_tl_emit(ps->to, tl, ev, err);
}

/* XRay logs are per-thread streams in time order; other inputs (Chrome JSON, FXT)
 * need not be. Order: metadata first, then by time; at one instant ends before
 * starts, and longer slices (the parents) before shorter ones; else input order. */
static const gt_tl_event *g_sort_events;

static int event_rank(const gt_tl_event *e)
{
    if (e->kind == GT_TL_PROCESS_NAME || e->kind == GT_TL_THREAD_NAME || e->kind == GT_TL_STACK_FRAME)
        return 0;
    return e->kind == GT_TL_END ? 1 : 2;
}

static int cmp_events(const void *pa, const void *pb)
{
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const gt_tl_event *a = &g_sort_events[ia], *b = &g_sort_events[ib];
    int ra = event_rank(a), rb = event_rank(b);
    if ((ra == 0) != (rb == 0))
        return ra == 0 ? -1 : 1;
    if (ra != 0 && a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    return ia < ib ? -1 : (ia > ib);
}

/* Sends the kept events to the output in that order. */
static int write_sorted(const gt_tl_buffer *buf, const gt_timeline *tl, gt_tl_sink *to, gt_error *err)
{
    size_t *order = malloc((buf->count ? buf->count : 1) * sizeof *order);
    if (!order) {
        gt_error_set(err, "out of memory sorting %zu events", buf->count);
        return -1;
    }
    for (size_t i = 0; i < buf->count; i++)
        order[i] = i;
    g_sort_events = buf->events;
    qsort(order, buf->count, sizeof *order, cmp_events);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < buf->count; i++)
        rc = gt_tl_emit(to, tl, &buf->events[order[i]], err);
    free(order);
    return rc;
}

static int run(convert *cv, gt_timeline *tl, tl_output *out, gt_tl_counts *counts, gt_error *err)
{
    int64_t *shift = calloc((size_t)cv->ninputs, sizeof *shift);
    if (!shift) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    warn_state ws = {.quiet = cv->quiet};
    gt_tl_read_opts opts = {.strict = cv->strict, .warn = on_warning, .warn_ctx = &ws,
                            .instr_map = cv->instr_map};
    int rc = plan_offsets(cv, tl, &opts, shift, err);
    gt_tl_sink counted = gt_tl_counts_sink(counts);
    progress_sink ps = {.to = &counted};
    gt_progress_start(&ps.p, "convert", 0, out->fmt == &tl_format_text || cv->counts);
    ps.p.unit = "events";
    gt_tl_sink count_sink = {.self = &ps, .event = progress_event};
    /* a format whose writer takes events in time order (XRay) is written from memory,
     * sorted; the rest streams */
    gt_tl_buffer kept;
    gt_tl_buffer_init(&kept);
    gt_tl_sink keep = gt_tl_buffer_sink(&kept);
    bool sorted = out->fmt && out->fmt->sorted;
    gt_tl_tee tee = {.a = sorted ? &keep : &out->sink, .b = &count_sink};
    gt_tl_sink both = gt_tl_tee_sink(&tee);
    gt_timeline first = {0};
    for (int i = 0; rc == 0 && i < cv->ninputs; i++) {
        gt_tl_shift sh = {.to = out->fmt ? &both : &count_sink,
                          .ts_offset = shift[i]};
        gt_tl_sink sink = gt_tl_shift_sink(&sh);
        tl->has_wall = tl->has_mono = false;
        ws.path = cv->inputs[i].path;
        ws.shown = ws.total = 0;
        /* the shift's finish would finish the output: events only here */
        sink.finish = NULL;
        rc = tl_read(format_of(&cv->inputs[i]), source_of(&cv->inputs[i]), tl, &sink, &opts, err);
        if (ws.total > ws.shown && !cv->quiet)
            fprintf(stderr, "gltrace convert: %s: %u more warnings\n", cv->inputs[i].path,
                    ws.total - ws.shown);
        if (i == 0)
            first = *tl;
    }
    /* the output keeps the first input's anchors, moved with its shift */
    tl->has_wall = first.has_wall;
    tl->wall_offset_ns = first.wall_offset_ns - shift[0];
    tl->has_mono = first.has_mono;
    tl->mono_offset_ns = first.mono_offset_ns - shift[0];
    if (rc == 0 && sorted)
        rc = write_sorted(&kept, tl, &out->sink, err);
    if (rc == 0 && out->fmt)
        rc = gt_tl_finish(&out->sink, tl, err);
    gt_progress_end(&ps.p);
    gt_tl_buffer_free(&kept);
    free(shift);
    return rc;
}

static int parse_args(int argc, char **argv, convert *cv)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'}, {"print", no_argument, NULL, 'p'},
        {"counts", no_argument, NULL, 'c'},       {"offset", required_argument, NULL, 'O'},
        {"no-align", no_argument, NULL, 'A'},     {"instr-map", required_argument, NULL, 'm'},
        {"strict", no_argument, NULL, 's'},       {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    int64_t offset = 0;
    cv->inputs = calloc((size_t)argc, sizeof *cv->inputs);
    if (!cv->inputs)
        return 1;
    cv->align = true;
    int c;
    /* "-" first: inputs come back in order, interleaved with --offset */
    while ((c = getopt_long(argc, argv, "-o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 1: cv->inputs[cv->ninputs++] = (input){.path = optarg, .offset = offset}; break;
        case 'o': cv->output = optarg; break;
        case 'p': cv->output = "-"; break;
        case 'c': cv->counts = true; break;
        case 'O':
            if (parse_i64(optarg, &offset) != 0) {
                fprintf(stderr, "gltrace convert: --offset: not a number of nanoseconds: %s\n", optarg);
                return 2;
            }
            break;
        case 'A': cv->align = false; break;
        case 'm': cv->instr_map = optarg; break;
        case 's': cv->strict = true; break;
        case 'q': cv->quiet = true; break;
        case 'h': usage(stdout); return -1;
        default: usage(stderr); return 2;
        }
    }
    if (cv->ninputs == 0 || (!cv->output && !cv->counts)) {
        fprintf(stderr, "gltrace convert: %s\n", cv->ninputs ? "no output (-o FILE, --print or --counts)"
                                                               : "no input file");
        usage(stderr);
        return 2;
    }
    return 0;
}

static int open_inputs(convert *cv, gt_error *err)
{
    for (int i = 0; i < cv->ninputs; i++) {
        input *in = &cv->inputs[i];
        in->fmt = tl_format_of_file(in->path, err);
        if (!in->fmt)
            return -1;
        if (in->fmt->replayed && !(in->replayed = replay_trace(in->path, err)))
            return -1;
    }
    return 0;
}

static void cleanup(convert *cv)
{
    for (int i = 0; i < cv->ninputs; i++)
        if (cv->inputs[i].replayed) {
            unlink(cv->inputs[i].replayed);
            free(cv->inputs[i].replayed);
        }
    free(cv->inputs);
}

/* The output's format by its name; a device or FIFO with no known extension
 * (/dev/stdout, a pipe) gets the text form, as "-" does. */
static const tl_format *output_format(const char *path)
{
    if (!strcmp(path, "-"))
        return &tl_format_text;
    const tl_format *f = tl_format_of_name(path);
    struct stat st;
    if (!f && stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return &tl_format_text;
    return f;
}

/* Opens the output, refusing any input (and the --instr-map binary) as it. */
static int open_output(convert *cv, tl_output *out, gt_error *err)
{
    const char **names = calloc((size_t)cv->ninputs + 1, sizeof *names);
    if (!names) {
        gt_error_set(err, "out of memory");
        return -1;
    }
    for (int i = 0; i < cv->ninputs; i++)
        names[i] = cv->inputs[i].path;
    names[cv->ninputs] = cv->instr_map;
    int rc = tl_output_open(out, cv->output, output_format(cv->output), names,
                            (size_t)cv->ninputs + 1, err);
    free(names);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    convert cv = {0};
    int status = parse_args(argc, argv, &cv);
    if (status) {
        free(cv.inputs);
        return status < 0 ? 0 : status;
    }
    gt_error err;
    gt_error_clear(&err);
    gt_timeline tl;
    tl_output out = {0};
    gt_tl_counts counts = {0};
    if (gt_timeline_init(&tl) != 0) {
        fprintf(stderr, "gltrace convert: out of memory\n");
        cleanup(&cv);
        return 1;
    }
    status = 1;
    const char *left = NULL; /* what a failure leaves at the output */
    /* the output is opened first: a refused output costs no replay */
    if (cv.output && open_output(&cv, &out, &err) != 0)
        goto done;
    left = tl_output_left(&out);
    if (open_inputs(&cv, &err) != 0)
        goto done;
    if (run(&cv, &tl, &out, &counts, &err) == 0 && tl_output_commit(&out, &err) == 0)
        status = 0;
    if (status == 0 && cv.counts)
        print_counts(&counts);
done:
    if (status && left)
        fprintf(stderr, "gltrace convert: %s; %s: %s\n", err.set ? err.msg : "failed",
                cv.output, left);
    else if (status)
        fprintf(stderr, "gltrace convert: %s\n", err.set ? err.msg : "failed");
    /* never unlink the output: only the temporary file it wrote goes */
    tl_output_abort(&out);
    gt_timeline_free(&tl);
    cleanup(&cv);
    return status;
}
