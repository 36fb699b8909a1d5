/* Test driver of formats/xray for the integration tests:
 *   xray_tool print [--strict] [--instr-map=BIN] LOG   every event as a text line
 *   xray_tool ids BIN                                  id <TAB> address <TAB> name
 *   xray_tool demo OUT.xray                            writes a known timeline; prints
 *                                                      "name count sum_ns" per function
 *   xray_tool copy IN.xray OUT.xray                    reads IN (liberal), writes OUT
 * Warnings go to stderr as "warning: ...". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_timeline_text.h"
#include "xray_instrmap.h"
#include "xray_reader.h"
#include "xray_writer.h"

static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "warning: %s\n", msg);
}

static int print(int argc, char **argv)
{
    gt_tl_read_opts o = {.warn = warn};
    const char *path = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--strict") == 0)
            o.strict = true;
        else if (strncmp(argv[i], "--instr-map=", 12) == 0)
            o.instr_map = argv[i] + 12;
        else
            path = argv[i];
    }
    if (!path)
        return 2;
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) != 0)
        return 1;
    gt_tl_text text = {.out = stdout, .name = "stdout"};
    gt_tl_sink s = gt_tl_text_sink(&text);
    int rc = gt_xray_read(path, &tl, &s, &o, &err);
    if (rc == 0)
        rc = gt_tl_finish(&s, &tl, &err);
    if (rc != 0)
        fprintf(stderr, "error: %s\n", err.msg);
    gt_timeline_free(&tl);
    return rc ? 1 : 0;
}

static int ids(const char *bin)
{
    gt_error err;
    gt_error_clear(&err);
    gt_xray_instrmap *m = gt_xray_instrmap_load(bin, &err);
    if (!m) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    for (uint32_t id = 1; id <= gt_xray_instrmap_count(m); id++) {
        const char *n = gt_xray_instrmap_name(m, id);
        printf("%u\t%#" PRIx64 "\t%s\n", id, gt_xray_instrmap_addr(m, id), n ? n : "");
    }
    gt_xray_instrmap_free(m);
    return 0;
}

/* Two threads of nested complete slices (sorted by start, as a GL timeline
 * is), BEGIN/END pairs, and one gap longer than 2^32 ns (a TSC wrap). */
static int demo_events(gt_timeline *tl, gt_tl_sink *s, gt_error *err)
{
    static const char *names[] = {"glClear", "glDrawArrays", "glXSwapBuffers", "frame"};
    gt_tl_str n[4];
    for (int i = 0; i < 4; i++)
        n[i] = gt_tl_intern_cstr(tl, names[i]);
    int64_t t = 1000000;
    for (int f = 0; f < 50; f++) {
        for (uint64_t tid = 1; tid <= 2; tid++) {
            int64_t b = t + (int64_t)tid * 7;
            gt_tl_event ev[] = {
                {.kind = GT_TL_COMPLETE, .ts = b, .dur = 9000 + f, .pid = 42, .tid = tid, .name = n[3]},
                {.kind = GT_TL_COMPLETE, .ts = b + 10, .dur = 1234 + f, .pid = 42, .tid = tid, .name = n[0]},
                {.kind = GT_TL_COMPLETE, .ts = b + 2000, .dur = 333, .pid = 42, .tid = tid, .name = n[1]},
                {.kind = GT_TL_COMPLETE, .ts = b + 2400, .dur = 100 * tid, .pid = 42, .tid = tid, .name = n[1]},
                {.kind = GT_TL_BEGIN, .ts = b + 5000, .pid = 42, .tid = tid, .name = n[2]},
                {.kind = GT_TL_END, .ts = b + 8000 + f, .pid = 42, .tid = tid, .name = n[2]},
            };
            for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++)
                if (gt_tl_emit(s, tl, &ev[i], err) != 0)
                    return -1;
        }
        t += f == 25 ? 5000000000 : 20000;
    }
    return 0;
}

static int demo(const char *out)
{
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) != 0)
        return 1;
    gt_xray_writer *w = gt_xray_writer_open(out, &err);
    int rc = -1;
    if (w) {
        gt_tl_sink s = gt_xray_writer_sink(w);
        rc = demo_events(&tl, &s, &err);
        if (rc == 0)
            rc = gt_tl_finish(&s, &tl, &err);
        gt_xray_writer_free(w);
    }
    if (rc != 0)
        fprintf(stderr, "error: %s\n", err.msg);
    /* what was written, for the test to compare with llvm-xray account */
    long long sum[4] = {0};
    for (int f = 0; f < 50; f++)
        for (int tid = 1; tid <= 2; tid++) {
            sum[3] += 9000 + f;
            sum[0] += 1234 + f;
            sum[1] += 333 + 100 * tid;
            sum[2] += 3000 + f;
        }
    printf("frame 100 %lld\nglClear 100 %lld\nglDrawArrays 200 %lld\nglXSwapBuffers 100 %lld\n",
           sum[3], sum[0], sum[1], sum[2]);
    gt_timeline_free(&tl);
    return rc ? 1 : 0;
}

static int copy(const char *in, const char *out)
{
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) != 0)
        return 1;
    gt_xray_writer *w = gt_xray_writer_open(out, &err);
    int rc = -1;
    if (w) {
        gt_tl_sink s = gt_xray_writer_sink(w);
        gt_tl_read_opts o = {.warn = NULL};
        rc = gt_xray_read(in, &tl, &s, &o, &err);
        if (rc == 0)
            rc = gt_tl_finish(&s, &tl, &err);
        gt_xray_writer_free(w);
    }
    if (rc != 0)
        fprintf(stderr, "error: %s\n", err.msg);
    gt_timeline_free(&tl);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "copy") == 0)
        return copy(argv[2], argv[3]);
    if (argc >= 3 && strcmp(argv[1], "print") == 0)
        return print(argc - 2, argv + 2);
    if (argc == 3 && strcmp(argv[1], "ids") == 0)
        return ids(argv[2]);
    if (argc == 3 && strcmp(argv[1], "demo") == 0)
        return demo(argv[2]);
    fprintf(stderr, "usage: xray_tool print [--strict] [--instr-map=BIN] LOG | ids BIN | demo OUT | copy IN OUT\n");
    return 2;
}
