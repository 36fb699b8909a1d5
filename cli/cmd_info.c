/* gltrace info: what `apitrace info` prints, plus calls, threads and the header. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "at_index.h"
#include "at_snapshot.h"
#include "gt_snapshot_marker.h"
#include "gltrace_cmds.h"
#include "gt_json.h"
#include "gt_strbuf.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace info [OPTIONS] TRACE_FILE...\n"
          "Print facts about apitrace-format traces as JSON.\n"
          "\n"
          "  -h, --help       show this help and exit\n"
          "  --dump-frames    add per-frame call ranges and sizes\n"
          "  --no-index       read the trace even when a valid TRACE.idx (gltrace index)\n"
          "                   holds the answer\n",
          f);
}

static void json_string(gt_strbuf *b, const char *s) { gt_json_string(b, s, strlen(s)); }

static void frame_json(gt_strbuf *b, int *nframes, const at_index_frame *f)
{
    gt_strbuf_printf(b, "%s{\n    \"FirstCallId\": %u,\n    \"LastCallId\": %u,\n"
                     "    \"TotalCalls\": %llu,\n    \"SizeInBytes\": %llu\n  }",
                     *nframes ? ", " : "", f->first_no, f->last_no, (unsigned long long)f->calls,
                     (unsigned long long)f->size);
    ++*nframes;
}

/* A frame range's trace: where its state snapshot ends (read up to its marker). */
static void snapshot_json(gt_strbuf *b, const char *path)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path, NULL, &err);
    if (!r)
        return;
    long long first = at_snapshot_first_frame(r);
    uint32_t end = 0;
    if (first >= 0 && at_snapshot_end(r, &end) == 1)
        gt_strbuf_printf(b, ",\n  \"Snapshot\": {\n    \"FirstFrame\": %lld,\n"
                         "    \"EndCall\": %u\n  }", first, end);
    at_reader_close(r);
}

static void print_info(gt_strbuf *b, const char *path, const at_index *ix, int dump_frames)
{
    gt_strbuf_puts(b, "{\n  \"FileName\": ");
    json_string(b, path); /* as given, like apitrace */
    const char *container = !strcmp(ix->container, "snappy") ? "Snappy"
                            : !strcmp(ix->container, "zlib") ? "ZLib" : "Brotli";
    gt_strbuf_printf(b, ",\n  \"ContainerVersion\": %u,\n  \"ContainerType\": \"%s\",\n"
                     "  \"API\": \"%s\",\n  \"FramesCount\": %llu,\n"
                     "  \"ActualDataSize\": %llu,\n  \"ContainerSize\": %llu",
                     ix->version, container, ix->api ? ix->api : "Unknown",
                     (unsigned long long)ix->frames_count, (unsigned long long)ix->data_size,
                     (unsigned long long)ix->container_size);
    gt_strbuf_printf(b, ",\n  \"SemanticVersion\": %u,\n  \"CallsCount\": %llu,\n"
                     "  \"IncompleteCalls\": %llu,\n  \"ThreadsCount\": %u,\n"
                     "  \"FunctionsCount\": %u",
                     ix->semantic_version, (unsigned long long)ix->calls,
                     (unsigned long long)ix->incomplete, ix->threads, ix->functions);
    gt_strbuf_puts(b, ",\n  \"Properties\": {");
    for (unsigned i = 0; i < ix->nprops; ++i) {
        gt_strbuf_puts(b, i ? ",\n    " : "\n    ");
        json_string(b, ix->props[i].name);
        gt_strbuf_puts(b, ": ");
        json_string(b, ix->props[i].value);
    }
    gt_strbuf_puts(b, ix->nprops ? "\n  }" : "}");
    for (unsigned i = 0; i < ix->nprops; ++i)
        if (!strcmp(ix->props[i].name, GT_SNAPSHOT_PROPERTY))
            snapshot_json(b, path);
    if (dump_frames) {
        int n = 0;
        gt_strbuf_puts(b, ",\n  \"Frames\": [");
        for (size_t i = 0; i < ix->nframes; ++i) /* calls after the last swap make no frame */
            if (ix->frames[i].complete)
                frame_json(b, &n, &ix->frames[i]);
        gt_strbuf_puts(b, "]");
    }
    gt_strbuf_puts(b, "\n}\n");
}

/* A valid index answers without reading the trace; a stale or damaged one is
 * reported and ignored. Without one the trace is read once (the same pass that
 * builds an index); the index is not written as a cache: info must not leave files
 * beside traces that may sit on read-only or shared storage (`gltrace index` does). */
static at_index *get_index(const char *path, int use_index)
{
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = NULL;
    if (use_index && at_index_load(path, &ix, &err) < 0)
        fprintf(stderr, "warning: %s\n", err.msg);
    if (ix)
        return ix;
    gt_error_clear(&err);
    if (!(ix = at_index_build(path, "info", &err)))
        fprintf(stderr, "error: %s\n", err.msg);
    return ix;
}

static int info_file(const char *path, int dump_frames, int use_index, gt_strbuf *b)
{
    at_index *ix = get_index(path, use_index);
    if (!ix)
        return 1;
    print_info(b, path, ix, dump_frames);
    char w[GT_ERROR_MAX]; /* as the reader words it: the same length limit */
    if (at_index_warning(ix, path, w, sizeof w))
        fprintf(stderr, "warning: %s\n", w);
    at_index_free(ix);
    return 0;
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'},
        {"dump-frames", no_argument, 0, 'f'},
        {"no-index", no_argument, 0, 'n'},
        {0, 0, 0, 0},
    };
    int dump_frames = 0, use_index = 1, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        } else if (c == 'f') {
            dump_frames = 1;
        } else if (c == 'n') {
            use_index = 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "gltrace info: no trace file given\n");
        return 2;
    }
    int status = 0;
    for (int i = optind; i < argc; ++i) {
        gt_strbuf b;
        gt_strbuf_init(&b);
        int s = info_file(argv[i], dump_frames, use_index, &b);
        if (!s && (gt_strbuf_flush(&b, stdout) < 0 || fflush(stdout))) {
            fprintf(stderr, "gltrace info: %s: cannot write the result to stdout: %s\n", argv[i],
                    strerror(errno));
            s = 1;
        }
        gt_strbuf_free(&b);
        if (s)
            status = s;
    }
    return status;
}
