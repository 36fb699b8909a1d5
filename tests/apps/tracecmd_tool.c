/* Test driver for the trace-cmd reader and writer (tests/integration/tracecmd_*.sh):
 *   tracecmd_tool print [--strict] FILE.dat   every timeline event, one text line each
 *   tracecmd_tool write OUT.dat NCALLS        GL-call-like slices on two threads
 *   tracecmd_tool convert IN.dat OUT.dat      our reader into our writer
 * print exits 1 with the reader's error on stderr; warnings go to stderr too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_timeline_text.h"
#include "tc_reader.h"
#include "tc_writer.h"

static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "warning: %s\n", msg);
}

static int print(const char *path, bool strict)
{
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) < 0)
        return 1;
    gt_tl_text text = {.out = stdout, .name = "stdout"};
    gt_tl_sink sink = gt_tl_text_sink(&text);
    gt_tl_read_opts opts = {.strict = strict, .warn = warn};
    int rc = gt_tracecmd_read(path, &tl, &sink, &opts, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    gt_timeline_free(&tl);
    return rc < 0 ? 1 : 0;
}

/* Threads 100 ("main") and 101 ("worker", every third call) of process 100:
 * call N is glCall<N>, N*10 ns long, at 1000000 + N*1000 + (N/1000)*2^28 ns,
 * with the arguments mode="GL_TRIANGLES" count=-N when N % 5 == 4;
 * then, earlier than all of them, a begin "frame" (500 ns), an instant named
 * "abc...xyzabc..." (300 letters, 600 ns) and an end "frame" (700 ns) on the worker. */
static int write(const char *path, unsigned ncalls)
{
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) < 0)
        return 1;
    gt_tracecmd_writer *w = gt_tracecmd_writer_open(path, &err);
    int rc = -1;
    if (!w)
        goto out;
    gt_tl_sink sink = gt_tracecmd_writer_sink(w);
    gt_tl_str s_call = gt_tl_intern_cstr(&tl, "call"), s_gl = gt_tl_intern_cstr(&tl, "gl");
    gt_tl_str s_mode = gt_tl_intern_cstr(&tl, "mode"), s_count = gt_tl_intern_cstr(&tl, "count");
    gt_tl_event meta[] = {
        {.kind = GT_TL_PROCESS_NAME, .pid = 100, .name = gt_tl_intern_cstr(&tl, "demo")},
        {.kind = GT_TL_THREAD_NAME, .pid = 100, .tid = 100, .name = gt_tl_intern_cstr(&tl, "main")},
        {.kind = GT_TL_THREAD_NAME, .pid = 100, .tid = 101, .name = gt_tl_intern_cstr(&tl, "worker")},
    };
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
        if (gt_tl_emit(&sink, &tl, &meta[i], &err) < 0)
            goto out;
    for (unsigned i = 0; i < ncalls; i++) {
        char name[32];
        snprintf(name, sizeof name, "glCall%u", i);
        gt_tl_arg a = {.name = s_call, .kind = GT_TL_ARG_U64, .v.u = i};
        int64_t ts = 1000000 + (int64_t)i * 1000 + (int64_t)(i / 1000) * (1ll << 28); /* time extends */
        gt_tl_arg args[3] = {a, {.name = s_mode, .kind = GT_TL_ARG_STRING, .v.s = {"GL_TRIANGLES", 12}},
                             {.name = s_count, .kind = GT_TL_ARG_I32, .v.i = -(int64_t)i}};
        gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = ts, .dur = (int64_t)i * 10,
                          .pid = 100, .tid = i % 3 == 2 ? 101 : 100, .cat = s_gl,
                          .name = gt_tl_intern_cstr(&tl, name), .nargs = i % 5 == 4 ? 3 : 1, .args = args};
        if (gt_tl_emit(&sink, &tl, &ev, &err) < 0)
            goto out;
    }
    gt_tl_str frame = gt_tl_intern_cstr(&tl, "frame");
    char longname[301]; /* a record beyond 112 bytes: the long event form */
    for (size_t i = 0; i < sizeof longname - 1; i++)
        longname[i] = (char)('a' + i % 26);
    longname[sizeof longname - 1] = 0;
    gt_tl_event extra[] = {
        {.kind = GT_TL_BEGIN, .ts = 500, .pid = 100, .tid = 101, .cat = s_gl, .name = frame},
        {.kind = GT_TL_INSTANT, .ts = 600, .pid = 100, .tid = 101, .cat = s_gl, .name = gt_tl_intern(&tl, longname, sizeof longname - 1)},
        {.kind = GT_TL_END, .ts = 700, .pid = 100, .tid = 101, .cat = s_gl, .name = frame},
    };
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (gt_tl_emit(&sink, &tl, &extra[i], &err) < 0)
            goto out;
    rc = gt_tl_finish(&sink, &tl, &err);
out:
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    gt_tracecmd_writer_free(w);
    gt_timeline_free(&tl);
    return rc < 0 ? 1 : 0;
}

/* IN.dat through our reader into our writer. */
static int convert(const char *in, const char *out)
{
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) < 0)
        return 1;
    gt_tracecmd_writer *w = gt_tracecmd_writer_open(out, &err);
    int rc = -1;
    if (w) {
        gt_tl_sink sink = gt_tracecmd_writer_sink(w);
        gt_tl_read_opts opts = {.warn = warn};
        rc = gt_tracecmd_read(in, &tl, &sink, &opts, &err);
        if (rc == 0)
            rc = gt_tl_finish(&sink, &tl, &err);
    }
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    gt_tracecmd_writer_free(w);
    gt_timeline_free(&tl);
    return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "print") == 0)
        return print(argv[2], false);
    if (argc == 4 && strcmp(argv[1], "print") == 0 && strcmp(argv[2], "--strict") == 0)
        return print(argv[3], true);
    if (argc == 4 && strcmp(argv[1], "convert") == 0)
        return convert(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "write") == 0)
        return write(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
    fprintf(stderr, "usage: %s print [--strict] FILE.dat | write OUT.dat NCALLS | convert IN.dat OUT.dat\n",
            argv[0]);
    return 2;
}
