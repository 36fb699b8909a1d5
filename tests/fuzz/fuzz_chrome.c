/* libFuzzer target: any bytes as a Chrome JSON trace. Read liberally and
 * strictly into a counts sink; what reads is written back through the writer
 * into memory and read again: our output must always read, to the same
 * counts. Nothing may crash, leak, hang
 * or allocate far beyond the input's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_reader.h"
#include "chrome_source.h"
#include "chrome_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ignore(void *ctx, const char *msg)
{
    (void)ctx;
    (void)msg;
}

/* Reads data, tees it into counts and the writer; returns the output text. */
static char *read_and_write(const uint8_t *data, size_t size, bool strict, gt_tl_counts *c,
                            size_t *len)
{
    gt_timeline tl;
    if (gt_timeline_init(&tl) != 0)
        return NULL;
    gt_error err;
    gt_error_clear(&err);
    char *text = NULL;
    *len = 0;
    FILE *f = open_memstream(&text, len);
    gt_chrome_writer *w = f ? gt_chrome_writer_open_stream(f, "fuzz.out", &err) : NULL;
    memset(c, 0, sizeof *c);
    gt_tl_sink cs = gt_tl_counts_sink(c);
    gt_tl_sink ws = w ? gt_chrome_writer_sink(w) : cs;
    gt_tl_tee tee = {&cs, &ws};
    gt_tl_sink both = gt_tl_tee_sink(&tee);
    gt_tl_read_opts o = {.strict = strict, .warn = ignore};
    int rc = gt_chrome_read_mem(data, size, "fuzz.json", &tl, w ? &both : &cs, &o, &err);
    if (rc == 0 && w && gt_tl_finish(&ws, &tl, &err) != 0)
        abort(); /* the writer refused what the reader made */
    gt_chrome_writer_free(w);
    if (f)
        fclose(f);
    gt_timeline_free(&tl);
    if (rc != 0 || !w) {
        free(text);
        return NULL;
    }
    return text;
}

/* Through fmemopen and a 7-byte window: 0 or -1 as the memory read. */
static int read_stream(const uint8_t *data, size_t size, gt_tl_counts *c)
{
    if (size == 0)
        return -1; /* fmemopen refuses empty buffers */
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f)
        return -2;
    gt_timeline tl;
    gt_timeline_init(&tl);
    gt_error err;
    gt_error_clear(&err);
    memset(c, 0, sizeof *c);
    gt_tl_sink cs = gt_tl_counts_sink(c);
    gt_tl_read_opts o = {.warn = ignore};
    cr_source_chunk = 7;
    int rc = gt_chrome_read_stream(f, "fuzz.json", &tl, &cs, &o, NULL, &err);
    cr_source_chunk = 256u << 10;
    fclose(f);
    gt_timeline_free(&tl);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_tl_counts c1, c2, c3, c4;
    size_t len, len2;
    free(read_and_write(data, size, true, &c3, &len));
    char *out = read_and_write(data, size, false, &c1, &len);
    int rs = read_stream(data, size, &c4);
    if (rs != -2 && (rs == 0) != (out != NULL))
        abort(); /* stream and memory reads disagree */
    if (!out)
        return 0;
    if (memcmp(&c1, &c4, sizeof c1) != 0)
        abort();
    char *again = read_and_write((const uint8_t *)out, len, false, &c2, &len2);
    if (!again)
        abort(); /* our own output must read back */
    /* to the same events; a frame defined twice is written once */
    if (c2.n[GT_TL_STACK_FRAME] > c1.n[GT_TL_STACK_FRAME])
        abort();
    c1.n[GT_TL_STACK_FRAME] = c2.n[GT_TL_STACK_FRAME];
    if (memcmp(&c1, &c2, sizeof c1) != 0)
        abort();
    free(again);
    free(out);
    return 0;
}
