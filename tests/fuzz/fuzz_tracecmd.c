/* libFuzzer target: any bytes as a trace-cmd .dat file. Reads them liberally
 * and strictly; what the liberal read accepts (small inputs) is written again
 * with our writer and must read back strictly with as many slices, instants and
 * context switches.
 * Nothing may crash, leak, hang or allocate far beyond the input's size. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tc_reader.h"
#include "tc_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

static uint64_t written(const gt_tl_counts *c)
{
    return c->n[GT_TL_COMPLETE] + c->n[GT_TL_BEGIN] + c->n[GT_TL_END] + c->n[GT_TL_INSTANT] +
           c->n[GT_TL_CONTEXT_SWITCH];
}

static void roundtrip(const gt_tl_buffer *b, gt_timeline *tl, const gt_tl_counts *want)
{
    char path[] = "/tmp/fuzz_tracecmd_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return;
    close(fd);
    gt_error err;
    gt_error_clear(&err);
    gt_tracecmd_writer *w = gt_tracecmd_writer_open(path, &err);
    int rc = -1;
    if (w) {
        gt_tl_sink s = gt_tracecmd_writer_sink(w);
        rc = gt_tl_buffer_replay(b, tl, &s, &err);
        if (rc == 0)
            rc = gt_tl_finish(&s, tl, &err);
        gt_tracecmd_writer_free(w);
    }
    if (rc == 0) {
        gt_tl_counts got = {0};
        gt_tl_sink cs = gt_tl_counts_sink(&got);
        gt_tl_read_opts strict = {.strict = true};
        gt_error_clear(&err);
        if (gt_tracecmd_read(path, tl, &cs, &strict, &err) != 0 || written(&got) != written(want)) {
            fprintf(stderr, "fuzz_tracecmd: our own file does not read back: %s\n", err.msg);
            abort();
        }
    }
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0)
        return 0;
    gt_error err;
    gt_error_clear(&err);
    gt_tl_counts counts = {0};
    gt_tl_sink cs = gt_tl_counts_sink(&counts);
    gt_tl_read_opts strict = {.strict = true};
    (void)gt_tracecmd_read_mem(data, size, "fuzz.dat", &tl, &cs, &strict, &err);

    gt_tl_buffer buf;
    gt_tl_buffer_init(&buf);
    gt_tl_sink bs = gt_tl_buffer_sink(&buf);
    gt_tl_read_opts liberal = {.warn = ignore};
    gt_error_clear(&err);
    gt_tl_counts want = {0};
    if (gt_tracecmd_read_mem(data, size, "fuzz.dat", &tl, &bs, &liberal, &err) == 0 && buf.count < 20000) {
        for (size_t i = 0; i < buf.count; i++)
            want.n[buf.events[i].kind]++;
        roundtrip(&buf, &tl, &want);
    }
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
    return 0;
}
