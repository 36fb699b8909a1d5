/* The writer's thread buffers: the file header, buffer preambles, function,
 * argument, TSC-wrap and event records, and writing a buffer out when full. */
#include "xray_writer_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gt_grow.h"

int xw_oom(gt_xray_writer *w, gt_error *err)
{
    gt_error_set(err, "%s: out of memory", w->path);
    return -1;
}

static int put(gt_xray_writer *w, const void *p, size_t n, gt_error *err)
{
    if (fwrite(p, 1, n, w->f) != n) {
        gt_error_set(err, "%s: write error: %s", w->path, strerror(errno));
        return -1;
    }
    return 0;
}

int xw_header(gt_xray_writer *w, gt_error *err)
{
    uint8_t h[XRAY_HEADER_SIZE] = {0};
    if (w->header_done)
        return 0;
    w->header_done = 1;
    xray_store_le(h, 5, 2);
    xray_store_le(h + 2, XRAY_TYPE_FDR, 2);
    xray_store_le(h + 4, XRAY_CONSTANT_TSC | XRAY_NONSTOP_TSC, 4);
    xray_store_le(h + 8, 1000000000u, 8);
    xray_store_le(h + 16, GT_XRAY_BUFFER_SIZE, 8);
    return put(w, h, sizeof h, err);
}

static void meta(uint8_t *p, unsigned kind, uint64_t a, unsigned an, uint64_t b, unsigned bn)
{
    memset(p, 0, XRAY_METADATA_SIZE);
    p[0] = (uint8_t)(kind << 1 | 1);
    xray_store_le(p + 1, a, an);
    xray_store_le(p + 1 + an, b, bn);
}

int xw_flush_thread(gt_xray_writer *w, xw_thread *t, gt_error *err)
{
    uint8_t ext[XRAY_METADATA_SIZE];
    if (!t->len)
        return 0;
    meta(ext, XRAY_M_BUFFER_EXTENTS, t->len, 8, 0, 0);
    int rc = xw_header(w, err) || put(w, ext, sizeof ext, err) || put(w, t->buf, t->len, err);
    t->len = 0;
    w->buffers++;
    return rc ? -1 : 0;
}

/* Opens a buffer at tsc: NewBuffer, WallClockTime, PIDEntry, NewCPUId. The
 * stamp is on CLOCK_MONOTONIC as LLVM's runtime writes it when the timeline has
 * that anchor, else Unix time, else the timeline's own clock (llvm-xray orders
 * a thread's buffers by it). */
static void preamble(gt_xray_writer *w, xw_thread *t, uint64_t tsc)
{
    const gt_timeline *tl = w->tl;
    int64_t off = !tl ? 0 : tl->has_mono ? tl->mono_offset_ns : tl->has_wall ? tl->wall_offset_ns : 0;
    int64_t wall = (int64_t)tsc + off;
    uint64_t uw = wall > 0 ? (uint64_t)wall : 0;
    meta(t->buf, XRAY_M_NEW_BUFFER, t->xtid, 4, 0, 0);
    meta(t->buf + 16, XRAY_M_WALLCLOCK, uw / 1000000000u, 8, uw % 1000000000u / 1000u, 4);
    meta(t->buf + 32, XRAY_M_PID, t->xpid, 4, 0, 0);
    meta(t->buf + 48, XRAY_M_NEW_CPU_ID, 0, 2, tsc, 8);
    t->len = XW_PREAMBLE;
    t->last_tsc = tsc;
}

int xw_empty_buffer(gt_xray_writer *w, gt_error *err)
{
    uint8_t pre[XW_PREAMBLE];
    xw_thread t = {.buf = pre};
    preamble(w, &t, 0);
    return xw_flush_thread(w, &t, err);
}

/* Room for need bytes of records (and a TSCWrap) in an open buffer at tsc:
 * a full buffer is written out first. need <= XW_MAX_PAYLOAD + 16. */
static int reserve(gt_xray_writer *w, xw_thread *t, uint64_t tsc, size_t need, gt_error *err)
{
    need += XRAY_METADATA_SIZE;
    if (t->len && t->len + need > GT_XRAY_BUFFER_SIZE && xw_flush_thread(w, t, err) != 0)
        return -1;
    size_t want = (t->len ? t->len : XW_PREAMBLE) + need;
    if (GT_GROW(t->buf, t->bufcap, want, 256) != 0)
        return xw_oom(w, err);
    if (!t->len)
        preamble(w, t, tsc);
    return 0;
}

/* The delta from the thread's last record to tsc; past max, a TSCWrap first. */
static uint64_t delta_to(xw_thread *t, uint64_t tsc, uint64_t max)
{
    uint64_t d = tsc - t->last_tsc;
    if (d > max) {
        meta(t->buf + t->len, XRAY_M_TSC_WRAP, tsc, 8, 0, 0);
        t->len += XRAY_METADATA_SIZE;
        d = 0;
    }
    t->last_tsc = tsc;
    t->any = 1;
    return d;
}

int xw_function(gt_xray_writer *w, xw_thread *t, unsigned action, uint32_t fid, uint64_t tsc,
                const uint64_t *args, uint32_t nargs, gt_error *err)
{
    if (nargs > XW_MAX_ARGS)
        nargs = XW_MAX_ARGS;
    if (nargs && action == XRAY_ENTRY)
        action = XRAY_ENTRY_ARGS;
    if (reserve(w, t, tsc, XRAY_FUNCTION_SIZE + (size_t)nargs * XRAY_METADATA_SIZE, err) != 0)
        return -1;
    uint64_t d = delta_to(t, tsc, UINT32_MAX);
    uint8_t *p = t->buf + t->len;
    xray_store_le(p, (uint64_t)fid << 4 | action << 1, 4);
    xray_store_le(p + 4, d, 4);
    t->len += XRAY_FUNCTION_SIZE;
    for (uint32_t i = 0; i < nargs; i++, t->len += XRAY_METADATA_SIZE)
        meta(t->buf + t->len, XRAY_M_CALL_ARGUMENT, args[i], 8, 0, 0);
    return 0;
}

int xw_event(gt_xray_writer *w, xw_thread *t, int typed, uint16_t type, uint64_t tsc,
             const void *data, size_t len, gt_error *err)
{
    if (len > XW_MAX_PAYLOAD)
        len = XW_MAX_PAYLOAD;
    if (!len) /* LLVM refuses empty payloads */
        return 0;
    if (reserve(w, t, tsc, XRAY_METADATA_SIZE + len, err) != 0)
        return -1;
    uint64_t d = delta_to(t, tsc, INT32_MAX); /* v5 event deltas are signed */
    uint8_t *p = t->buf + t->len;
    meta(p, typed ? XRAY_M_TYPED_EVENT : XRAY_M_CUSTOM_EVENT, len, 4, d, 4);
    if (typed)
        xray_store_le(p + 9, type, 2);
    if (len) /* an empty payload may come as NULL */
        memcpy(p + XRAY_METADATA_SIZE, data, len);
    t->len += XRAY_METADATA_SIZE + len;
    return 0;
}
