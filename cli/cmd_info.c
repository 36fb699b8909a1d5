/* gltrace info: what `apitrace info` prints, plus calls, threads and the header. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "at_reader.h"
#include "gltrace_cmds.h"
#include "gt_json.h"
#include "gt_progress.h"
#include "gt_strbuf.h"

static void usage(FILE *f)
{
    fputs("usage: gltrace info [OPTIONS] TRACE_FILE...\n"
          "Print facts about apitrace-format traces as JSON.\n"
          "\n"
          "  -h, --help       show this help and exit\n"
          "  --dump-frames    add per-frame call ranges and sizes\n",
          f);
}

static void json_string(gt_strbuf *b, const char *s) { gt_json_string(b, s, strlen(s)); }

static const char *api_name(const char *first_function)
{
    const char *n = first_function;
    if (!n)
        return "Unknown";
    if (!strncmp(n, "glX", 3) || !strncmp(n, "CGL", 3) ||
        (!strncmp(n, "wgl", 3) && n[3] >= 'A' && n[3] <= 'Z'))
        return "OpenGL + GLX/WGL/CGL";
    if (!strncmp(n, "egl", 3) && n[3] >= 'A' && n[3] <= 'Z')
        return "OpenGL/GLES1/GLES2/VG + EGL";
    if (!strncmp(n, "Direct", 6) || !strncmp(n, "D3D", 3) || !strncmp(n, "Create", 6))
        return "DirectX";
    return "Unknown";
}

static void frame_json(gt_strbuf *b, int *nframes, uint32_t first, uint32_t last, uint64_t calls,
                       uint64_t size)
{
    gt_strbuf_printf(b, "%s{\n    \"FirstCallId\": %u,\n    \"LastCallId\": %u,\n"
                     "    \"TotalCalls\": %llu,\n    \"SizeInBytes\": %llu\n  }",
                     *nframes ? ", " : "", first, last, (unsigned long long)calls,
                     (unsigned long long)size);
    ++*nframes;
}

static int info_file(const char *path, int dump_frames, gt_strbuf *b)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, &err);
    if (!r) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    const at_input *in = at_reader_input(r);
    const char *api = NULL;
    gt_strbuf frames;
    gt_strbuf_init(&frames);
    int nframes = 0, in_frame = 0;
    uint64_t frame_calls = 0, frame_start = 0, nframe_total = 0;
    uint32_t first = 0, last = 0;
    gt_call *c;
    gt_progress prog;
    gt_progress_start(&prog, "info", at_input_file_size(at_reader_input(r)), false);
    uint64_t ncalls = 0;
    while ((c = at_reader_next(r))) {
        gt_progress_update(&prog, at_input_file_pos(at_reader_input(r)), ++ncalls);
        if (!api && strcmp(api_name(c->sig->name), "Unknown"))
            api = api_name(c->sig->name);
        if (!in_frame) {
            in_frame = 1;
            first = c->no;
            frame_calls = 0;
        }
        last = c->no;
        frame_calls++;
        if (c->flags & GT_CALL_FLAG_END_FRAME) {
            uint64_t here = at_input_offset(in);
            if (dump_frames)
                frame_json(&frames, &nframes, first, last, frame_calls, here - frame_start);
            frame_start = here;
            nframe_total++;
            in_frame = 0;
        }
        at_reader_release(r, c);
    }
    gt_progress_end(&prog);
    uint64_t data_size = at_input_offset(in);
    /* like apitrace, calls after the last swap make no frame */
    at_reader_stats st;
    at_reader_get_stats(r, &st);
    gt_strbuf_puts(b, "{\n  \"FileName\": ");
    json_string(b, path); /* as given, like apitrace */
    const char *container = !strcmp(in->container, "snappy") ? "Snappy"
                            : !strcmp(in->container, "zlib") ? "ZLib" : "Brotli";
    gt_strbuf_printf(b, ",\n  \"ContainerVersion\": %u,\n  \"ContainerType\": \"%s\",\n"
                     "  \"API\": \"%s\",\n  \"FramesCount\": %llu,\n"
                     "  \"ActualDataSize\": %llu,\n  \"ContainerSize\": %zu",
                     at_reader_version(r), container, api ? api : "Unknown",
                     (unsigned long long)nframe_total, (unsigned long long)data_size,
                     at_input_file_size(in));
    gt_strbuf_printf(b, ",\n  \"SemanticVersion\": %u,\n  \"CallsCount\": %llu,\n"
                     "  \"IncompleteCalls\": %llu,\n  \"ThreadsCount\": %u,\n"
                     "  \"FunctionsCount\": %u",
                     at_reader_semantic_version(r), (unsigned long long)st.calls,
                     (unsigned long long)st.incomplete, st.threads, st.functions);
    gt_strbuf_puts(b, ",\n  \"Properties\": {");
    for (unsigned i = 0; i < at_reader_num_properties(r); ++i) {
        const at_property *p = at_reader_property(r, i);
        gt_strbuf_puts(b, i ? ",\n    " : "\n    ");
        json_string(b, p->name);
        gt_strbuf_puts(b, ": ");
        json_string(b, p->value);
    }
    gt_strbuf_puts(b, at_reader_num_properties(r) ? "\n  }" : "}");
    if (dump_frames) {
        gt_strbuf_puts(b, ",\n  \"Frames\": [");
        gt_strbuf_put(b, frames.data, frames.len);
        gt_strbuf_puts(b, "]");
    }
    gt_strbuf_puts(b, "\n}\n");
    gt_strbuf_free(&frames);
    int status = gltrace_report_end(r);
    at_reader_close(r);
    return status;
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, 0, 'h'},
        {"dump-frames", no_argument, 0, 'f'},
        {0, 0, 0, 0},
    };
    int dump_frames = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        } else if (c == 'f') {
            dump_frames = 1;
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
        int s = info_file(argv[i], dump_frames, &b);
        if (!s && (gt_strbuf_flush(&b, stdout) < 0 || fflush(stdout))) {
            fprintf(stderr, "gltrace info: %s: cannot write the result: %s\n", argv[i],
                    strerror(errno));
            s = 1;
        }
        gt_strbuf_free(&b);
        if (s)
            status = s;
    }
    return status;
}
