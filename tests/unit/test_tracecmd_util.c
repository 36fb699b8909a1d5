/* Helpers of the trace-cmd unit tests (test_tracecmd.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tc_reader.h"
#include "test_tracecmd.h"

bytes slurp(const char *path)
{
    bytes b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(b.p);
    b.n = fread(b.p, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static void collect(void *ctx, const char *msg)
{
    warns *w = ctx;
    w->n++;
    snprintf(w->last, sizeof w->last, "%s", msg);
}

/* Reads data into a buffer; returns the reader's result, err filled. */
int read_mem(const uint8_t *p, size_t n, bool strict, gt_timeline *tl, gt_tl_buffer *buf, gt_error *err,
             warns *w)
{
    gt_tl_sink sink = gt_tl_buffer_sink(buf);
    gt_tl_read_opts o = {.strict = strict, .warn = collect, .warn_ctx = w};
    gt_error_clear(err);
    return gt_tracecmd_read_mem(p, n, "t.dat", tl, &sink, &o, err);
}

const char *str(const gt_timeline *tl, gt_tl_str id)
{
    return gt_tl_str_get(tl, id, NULL);
}

void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
