/* Throughput of the FXT writer's hot path, as the recorder uses it: complete
 * events with two arguments (call number, a value), a few names and threads,
 * written to /dev/null. Prints events per second. Not a ctest: run by hand,
 * in a Release build, on an idle machine:  test_fxt_bench [EVENTS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fxt_writer.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 50000000ul;
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    if (gt_timeline_init(&tl) != 0)
        return 1;
    gt_tl_str names[64];
    char buf[32];
    for (int i = 0; i < 64; i++) {
        snprintf(buf, sizeof buf, "glCall%d", i);
        names[i] = gt_tl_intern_cstr(&tl, buf);
    }
    gt_tl_str cat = gt_tl_intern_cstr(&tl, "gl");
    gt_tl_arg args[2] = {{.name = gt_tl_intern_cstr(&tl, "call"), .kind = GT_TL_ARG_U32},
                         {.name = gt_tl_intern_cstr(&tl, "gpu_ns"), .kind = GT_TL_ARG_I64}};
    gt_fxt_writer *w = gt_fxt_writer_open("/dev/null", NULL, &err);
    if (!w) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    gt_tl_sink s = gt_fxt_writer_sink(w);
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .pid = 4242, .cat = cat, .nargs = 2, .args = args};
    double t0 = now();
    for (unsigned long i = 0; i < n; i++) {
        ev.ts = (int64_t)i * 100;
        ev.dur = 50;
        ev.tid = 4242 + (i >> 12 & 3); /* a thread switch every 4096 calls */
        ev.name = names[i & 63];
        args[0].v.u = (uint32_t)i;
        args[1].v.i = (int64_t)i * 3;
        if (gt_tl_emit(&s, &tl, &ev, &err) != 0) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    }
    if (gt_tl_finish(&s, &tl, &err) != 0)
        return 1;
    double t = now() - t0;
    printf("%lu complete events with 2 args in %.3f s: %.1f M events/s, %.1f ns/event\n", n, t,
           (double)n / t / 1e6, t / (double)n * 1e9);
    gt_fxt_writer_free(w);
    gt_timeline_free(&tl);
    return 0;
}
