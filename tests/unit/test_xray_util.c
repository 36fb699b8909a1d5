/* Helpers of the XRay unit tests (test_xray.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_xray.h"
#include "xray_format.h"
#include "xray_reader.h"

void lb_put(lb *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b->d[b->n + i] = (uint8_t)(v >> 8 * (b->be ? n - 1 - i : i));
    b->n += n;
}

void lb_header(lb *b, unsigned version, unsigned type, uint64_t freq, uint64_t bufsize)
{
    lb_put(b, version, 2);
    lb_put(b, type, 2);
    lb_put(b, 3, 4);
    lb_put(b, freq, 8);
    lb_put(b, bufsize, 8);
    lb_put(b, 0, 8);
}

/* A metadata record: kind, then up to 15 bytes of fields (value, size) pairs. */
void lb_meta(lb *b, unsigned kind, uint64_t a, unsigned an, uint64_t c, unsigned cn)
{
    size_t at = b->n;
    b->d[b->n++] = (uint8_t)(b->be ? 0x80 | kind : kind << 1 | 1);
    lb_put(b, a, an);
    lb_put(b, c, cn);
    memset(b->d + b->n, 0, at + 16 - b->n);
    b->n = at + 16;
}

void lb_fn(lb *b, unsigned action, uint32_t id, uint32_t delta)
{
    lb_put(b, b->be ? (uint64_t)action << 28 | id : (uint64_t)id << 4 | action << 1, 4);
    lb_put(b, delta, 4);
}

void lb_bytes(lb *b, const char *s)
{
    memcpy(b->d + b->n, s, strlen(s));
    b->n += strlen(s);
}

/* v2+: opens a buffer (its size is patched by end_buffer) with the preamble. */
void lb_begin_buffer(lb *b, unsigned version, uint32_t tid, uint32_t pid, uint16_t cpu,
                     uint64_t tsc)
{
    b->ext = b->n;
    lb_meta(b, XRAY_M_BUFFER_EXTENTS, 0, 8, 0, 0);
    lb_meta(b, XRAY_M_NEW_BUFFER, tid, 4, 0, 0);
    lb_meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 250000, 4);
    if (version >= 3)
        lb_meta(b, XRAY_M_PID, pid, 4, 0, 0);
    lb_meta(b, XRAY_M_NEW_CPU_ID, cpu, 2, tsc, 8);
}

void lb_end_buffer(lb *b)
{
    size_t n = b->n, len = b->n - b->ext - 16;
    b->n = b->ext + 1;
    lb_put(b, len, 8);
    b->n = n;
}


static void count_warning(void *ctx, const char *msg)
{
    result *r = ctx;
    r->warnings++;
    snprintf(r->last_warning, sizeof r->last_warning, "%s", msg);
}

result *read_log(const uint8_t *d, size_t n, bool strict, const char *instr_map)
{
    result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(gt_timeline_init(&r->tl), 0);
    gt_tl_buffer_init(&r->buf);
    gt_error_clear(&r->err);
    gt_tl_sink s = gt_tl_buffer_sink(&r->buf);
    gt_tl_read_opts o = {.strict = strict, .warn = count_warning, .warn_ctx = r,
                         .instr_map = instr_map};
    r->rc = gt_xray_read_mem(d, n, "t.xray", &r->tl, &s, &o, &r->err);
    return r;
}

void free_result(result *r)
{
    gt_tl_buffer_free(&r->buf);
    gt_timeline_free(&r->tl);
    free(r);
}

const char *name_of(result *r, size_t i)
{
    return gt_tl_str_get(&r->tl, r->buf.events[i].name, NULL);
}
