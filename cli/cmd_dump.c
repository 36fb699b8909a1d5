/* gltrace dump: apitrace's dump, byte for byte, and faster. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "at_dump.h"
#include "at_index.h"
#include "at_reader.h"
#include "dump_lines.h"
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
          "  --frames=N[-[M]]      only the calls of frames N to M (from 0; a frame ends\n"
          "                        with its swap); with a valid TRACE.idx (gltrace index)\n"
          "                        only those frames are read (Snappy traces; gzip and\n"
          "                        Brotli ones are read from the start)\n"
          "  --no-index            never use TRACE.idx\n"
          "  --color[=WHEN]        highlight: auto (default), always or never\n"
          "  --thread-ids[=BOOL]   print thread numbers [no]\n"
          "  --call-nos[=BOOL]     print call numbers [yes]\n"
          "  --arg-names[=BOOL]    print argument names [yes]\n"
          "  --multiline[=BOOL]    print newlines in strings as newlines [yes]\n",
          f);
}

enum { OPT_CALLS = 256, OPT_FRAMES, OPT_NO_INDEX, OPT_COLOR, OPT_THREAD_IDS, OPT_CALL_NOS, OPT_ARG_NAMES, OPT_MULTILINE };

static const struct option long_options[] = {
    {"help", no_argument, 0, 'h'},
    {"verbose", no_argument, 0, 'v'},
    {"calls", required_argument, 0, OPT_CALLS},
    {"frames", required_argument, 0, OPT_FRAMES},
    {"no-index", no_argument, 0, OPT_NO_INDEX},
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
    int frames_on, no_index;
    uint64_t frame_first, frame_last; /* --frames, inclusive */
} dump_job;

/* Where the reading is in frames: frames are counted as the calls come out, each
 * ending with a frame-ending call. After a seek the count starts once the call
 * ending the frame before the first one asked for (after_no) has come out. */
typedef struct frame_pos {
    uint64_t frame;
    uint32_t after_no; /* UINT32_MAX: counting from frame 0 */
} frame_pos;

static int parse_frames(const char *arg, dump_job *job)
{
    char *end;
    errno = 0;
    unsigned long long a = strtoull(arg, &end, 10), b = a;
    if (end == arg || *arg == '-' || errno)
        return 0;
    if (*end == '-') {
        const char *m = end + 1;
        b = *m ? strtoull(m, &end, 10) : UINT64_MAX;
        if (*m && (end == m || *m == '-' || errno))
            return 0;
        if (!*m)
            end = (char *)m;
    }
    if (*end || b < a)
        return 0;
    job->frames_on = 1;
    job->frame_first = a;
    job->frame_last = b;
    return 1;
}

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

/* Moves a fresh reader to the frames asked for when a valid index says where they
 * start; otherwise (no index, a stale or damaged one, a container that cannot seek)
 * the reader stays at the start and the frames are counted from there. A seek that
 * fails leaves the reader unusable: it is reopened. */
static at_reader *seek_frames(at_reader *r, const char *path, const dump_job *job, frame_pos *fp)
{
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = NULL;
    int rc = at_index_load(path, &ix, &err);
    if (rc < 0)
        fprintf(stderr, "warning: %s\n", err.msg);
    at_seek_point p;
    uint32_t after;
    if (rc > 0 && at_index_frames_start(ix, job->frame_first, job->frame_last, &p, &after)) {
        if (at_reader_seek(r, ix->sigs, ix->nsigs, &p, &err)) {
            fp->after_no = after;
        } else {
            fprintf(stderr, "warning: %s; index ignored, reading from the start\n", err.msg);
            at_reader_close(r);
            at_reader_options ropt = {.skip_blob_data = true};
            gt_error_clear(&err);
            if (!(r = at_reader_open(path, &ropt, &err)))
                fprintf(stderr, "error: %s\n", err.msg);
        }
    }
    at_index_free(ix); /* the reader holds its own copies of the signatures */
    return r;
}

static at_reader *open_reader(const char *path, const dump_job *job, frame_pos *fp)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, &err);
    fp->frame = 0;
    fp->after_no = UINT32_MAX;
    if (!r)
        fprintf(stderr, "error: %s\n", err.msg);
    else if (job->frames_on && !job->no_index)
        r = seek_frames(r, path, job, fp);
    return r;
}

/* Whether --frames selects c; counts frames as c comes out. *past: the last frame
 * asked for is done, nothing more will be selected. */
static int in_frames(const dump_job *job, frame_pos *fp, const gt_call *c, int *past)
{
    if (!job->frames_on)
        return 1;
    if (fp->after_no != UINT32_MAX) { /* after a seek, before the first frame asked for */
        if (c->no == fp->after_no) {
            fp->after_no = UINT32_MAX;
            fp->frame = job->frame_first;
        }
        return 0;
    }
    int in = fp->frame >= job->frame_first && fp->frame <= job->frame_last;
    if (c->flags & GT_CALL_FLAG_END_FRAME)
        *past = ++fp->frame > job->frame_last;
    return in;
}

static int dump_file(const char *path, dump_job *job, gt_strbuf *out)
{
    frame_pos fp;
    at_reader *r = open_reader(path, job, &fp);
    if (!r)
        return 1;
    dl_print_properties(r, out, &job->opt);
    gt_call *c;
    int ok = 1;
    gt_progress prog;
    gt_progress_start(&prog, "dump", at_input_file_size(at_reader_input(r)), true);
    uint64_t ncalls = 0;
    int past = 0;
    while (!past && (c = at_reader_next(r))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++ncalls);
        if (in_frames(job, &fp, c, &past) && gt_callset_contains(&job->calls, c->no, c->flags) &&
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
        fprintf(stderr, "error: %s: cannot write the dump to stdout: %s\n", path,
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
        case OPT_FRAMES:
            if (!parse_frames(optarg, job)) {
                fprintf(stderr, "gltrace dump: --frames: expected N, N-M or N-, got \"%s\"\n", optarg);
                return 0;
            }
            break;
        case OPT_NO_INDEX: job->no_index = 1; break;
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
