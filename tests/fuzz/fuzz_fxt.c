/* libFuzzer target: any bytes as an FXT file. Reads them strictly and
 * liberally; what the liberal read accepts is written again with our writer
 * (into memory) and must read back strictly with the same event counts.
 * Nothing may crash, leak, hang or allocate far beyond the input's size. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_reader.h"
#include "fxt_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

/* Writes b with the FXT writer into memory; NULL on failure. */
static char *rewrite(const gt_tl_buffer *b, const gt_timeline *tl, size_t *n)
{
    char *p = NULL;
    FILE *f = open_memstream(&p, n);
    if (!f)
        return NULL;
    gt_error err;
    gt_error_clear(&err);
    gt_fxt_writer *w = gt_fxt_writer_open_stream(f, "rewrite.fxt", NULL, &err);
    int rc = -1;
    if (w) {
        gt_tl_sink s = gt_fxt_writer_sink(w);
        rc = gt_tl_buffer_replay(b, tl, &s, &err);
        if (rc == 0)
            rc = gt_tl_finish(&s, tl, &err);
        gt_fxt_writer_free(w);
    }
    fclose(f);
    if (rc != 0) {
        free(p);
        return NULL;
    }
    return p;
}

static void roundtrip(const gt_tl_buffer *b, const gt_timeline *tl, const gt_tl_counts *want)
{
    size_t n = 0;
    char *p = rewrite(b, tl, &n);
    if (!p)
        return; /* out of memory: not a finding */
    gt_timeline tl2;
    if (gt_timeline_init(&tl2) != 0) {
        free(p);
        return;
    }
    gt_tl_counts got = {{0}};
    gt_tl_sink s = gt_tl_counts_sink(&got);
    gt_tl_read_opts strict = {.strict = true};
    gt_error err;
    gt_error_clear(&err);
    int rc = gt_fxt_read_mem((const uint8_t *)p, n, "rewrite.fxt", &tl2, &s, &strict, &err);
    if (rc != 0) {
        fprintf(stderr, "fuzz_fxt: our own output is refused: %s\n", err.msg);
        __builtin_trap();
    }
    if (memcmp(&got, want, sizeof got) != 0) {
        fprintf(stderr, "fuzz_fxt: event counts differ after a rewrite\n");
        __builtin_trap();
    }
    gt_timeline_free(&tl2);
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0)
        return 0;
    gt_error err;
    gt_tl_counts c = {{0}};
    gt_tl_sink counts = gt_tl_counts_sink(&c);
    gt_tl_read_opts strict = {.strict = true};
    gt_error_clear(&err);
    (void)gt_fxt_read_mem(data, size, "fuzz.fxt", &tl, &counts, &strict, &err);

    gt_tl_buffer b;
    gt_tl_buffer_init(&b);
    gt_tl_sink buf = gt_tl_buffer_sink(&b);
    gt_tl_read_opts liberal = {.warn = ignore};
    gt_error_clear(&err);
    if (gt_fxt_read_mem(data, size, "fuzz.fxt", &tl, &buf, &liberal, &err) == 0) {
        gt_tl_counts want = {{0}};
        for (size_t i = 0; i < b.count; i++)
            want.n[b.events[i].kind]++;
        roundtrip(&b, &tl, &want);
    }
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
    return 0;
}
