/* Flight-data-recorder logs (type 1), versions 1 to 5.
 *
 * Version 1: thread buffers of the header's buffer_size follow the header; an
 * EndOfBuffer record ends the used part and the reader skips to the next
 * buffer. Versions 2+: each buffer starts with BufferExtents, the number of
 * bytes of records that follow it; EndOfBuffer is gone. A buffer then holds
 * NewBuffer WallClockTime [PIDEntry] NewCPUId, then function records, TSC
 * wraps, CPU changes, call arguments and custom/typed events (LLVM's
 * BlockVerifier order; deviations are warned). */
#include "xray_read_internal.h"

#include <stdlib.h>

#include "gt_grow.h"

enum { S_UNKNOWN, S_EXTENTS, S_NEWBUF, S_WALL, S_PID, S_BODY, S_FUNC, S_EOB };
enum { T_EXTENTS, T_NEWBUF, T_WALL, T_PID, T_CPU, T_BODY, T_FUNC, T_ARG, T_EOB };

static const char *const t_name[] = {"BufferExtents", "NewBuffer", "WallClockTime", "PIDEntry",
                                     "NewCPUId", "TSCWrap or event", "Function", "CallArgument",
                                     "EndOfBuffer"};

/* One thread buffer being parsed. */
typedef struct fdr_buf {
    size_t start; /* v1: offset of NewBuffer, for the skip after EndOfBuffer */
    int state;
    int warned;   /* one order warning per buffer */
    int have_tid;
    uint64_t pid, tid;
    xr_thread *th; /* resolved at first use: PIDEntry follows NewBuffer */
    uint64_t base_tsc;
    int wall_pending;
    int64_t wall_ns;
} fdr_buf;

static int allowed(int s, int t)
{
    switch (s) {
    case S_UNKNOWN: return t == T_EXTENTS || t == T_NEWBUF;
    case S_EXTENTS: return t == T_NEWBUF;
    case S_NEWBUF: return t == T_WALL;
    case S_WALL: return t == T_PID || t == T_CPU;
    case S_PID: return t == T_CPU;
    case S_BODY: return t == T_CPU || t == T_BODY || t == T_FUNC || t == T_EOB;
    case S_FUNC: return t == T_CPU || t == T_BODY || t == T_FUNC || t == T_ARG || t == T_EOB;
    default: return 0;
    }
}

static int order(xr_reader *r, fdr_buf *b, int t, size_t off)
{
    static const int next[] = {S_EXTENTS, S_NEWBUF, S_WALL, S_PID, S_BODY,
                               S_BODY,    S_FUNC,   S_FUNC, S_EOB};
    if (!allowed(b->state, t) && !b->warned) {
        b->warned = 1;
        if (xr_deviation(r, off, "%s record out of order in a thread buffer", t_name[t]) != 0)
            return -1;
    }
    b->state = next[t];
    return 0;
}

/* The buffer's thread, or NULL (with err set when out of memory, or a warning
 * for records before any NewBuffer: those are skipped). */
static xr_thread *thread_of(xr_reader *r, fdr_buf *b, size_t off, int *rc)
{
    *rc = 0;
    if (!b->have_tid) {
        *rc = xr_bad_record(r, off, "record before the buffer's NewBuffer");
        return NULL;
    }
    if (!b->th && !(b->th = xr_thread_get(r, b->pid, b->tid)))
        *rc = -1;
    return b->th;
}

static int cut(xr_reader *r, size_t off, size_t end, const char *what, size_t need)
{
    return xr_deviation(r, off, "buffer ends inside a %s record (%zu of %zu bytes); rest skipped",
                        what, end - off, need);
}

/* LLVM's runtime stamps each buffer with CLOCK_MONOTONIC (seconds since boot);
 * other writers may use Unix time. Either anchors the log's clock: the first
 * buffer's stamp, taken with the TSC of the NewCPUId record that follows. */
static void wallclock(xr_reader *r, fdr_buf *b, const uint8_t *p, int be)
{
    uint64_t sec = xray_load(p, 8, be), usec = xray_load(p + 8, 4, be);
    bool unix_time = sec >= 946684800u && sec < 4102444800u;
    if (usec >= 1000000u || sec >= 4102444800u || (unix_time ? r->tl->has_wall : r->tl->has_mono))
        return;
    b->wall_pending = unix_time ? 1 : 2;
    b->wall_ns = (int64_t)(sec * 1000000000u + usec * 1000u);
}

static int new_cpu(xr_reader *r, fdr_buf *b, uint64_t tsc, size_t off)
{
    b->base_tsc = tsc;
    if (b->wall_pending) {
        int64_t ns;
        int unix_time = b->wall_pending == 1;
        b->wall_pending = 0;
        if (xr_ts(r, tsc, off, &ns) != 0)
            return -1;
        *(unix_time ? &r->tl->has_wall : &r->tl->has_mono) = true;
        *(unix_time ? &r->tl->wall_offset_ns : &r->tl->mono_offset_ns) = b->wall_ns - ns;
    }
    return 0;
}

/* Custom and typed events: a marker, then size bytes of payload. Returns the
 * record's full length through *len, 0 when it does not fit (cut). */
static int event(xr_reader *r, fdr_buf *b, size_t off, size_t end, int kind, size_t *len)
{
    const uint8_t *p = xr_at(r, off, XRAY_METADATA_SIZE);
    if (!p)
        return -1;
    int be = r->h.big_endian, v = r->h.version;
    int32_t size = (int32_t)(uint32_t)xray_load(p + 1, 4, be);
    if (size <= 0)
        return xr_fail(r, off, "%s event of size %d", kind == XRAY_M_TYPED_EVENT ? "typed" : "custom",
                       size);
    *len = 0;
    if ((size_t)size > end - off - XRAY_METADATA_SIZE)
        return cut(r, off, end, "custom or typed event", XRAY_METADATA_SIZE + (size_t)size);
    *len = XRAY_METADATA_SIZE + (size_t)size;
    if (!(p = xr_at(r, off, *len))) /* the payload too */
        return -1;
    p++;
    uint64_t tsc;
    uint32_t type = 0;
    if (kind == XRAY_M_TYPED_EVENT || v >= 5) {
        /* delta encoding, signed, as LLVM's TraceExpander adds it */
        b->base_tsc += (uint64_t)(int64_t)(int32_t)(uint32_t)xray_load(p + 4, 4, be);
        tsc = b->base_tsc;
        if (kind == XRAY_M_TYPED_EVENT)
            type = (uint32_t)xray_load(p + 8, 2, be);
    } else {
        tsc = xray_load(p + 4, 8, be); /* absolute; v4 adds a CPU id after it */
    }
    if (order(r, b, T_BODY, off) != 0)
        return -1;
    int rc;
    xr_thread *th = thread_of(r, b, off, &rc);
    if (!th)
        return rc;
    return xr_event(r, th, kind == XRAY_M_TYPED_EVENT, type, tsc, p + 15, (uint32_t)size, off);
}

static int function(xr_reader *r, fdr_buf *b, size_t off)
{
    int be = r->h.big_endian;
    const uint8_t *p = xr_at(r, off, XRAY_FUNCTION_SIZE);
    if (!p)
        return -1;
    uint32_t w = (uint32_t)xray_load(p, 4, be);
    unsigned action = xray_fn_action(w, be);
    uint32_t fid = xray_fn_id(w, be);
    if (action > XRAY_ENTRY_ARGS)
        return xr_fail(r, off, "unknown function record type %u", action);
    if (order(r, b, T_FUNC, off) != 0)
        return -1;
    b->base_tsc += xray_load(p + 4, 4, be);
    int rc;
    xr_thread *th = thread_of(r, b, off, &rc);
    if (!th)
        return rc;
    if (action == XRAY_ENTRY || action == XRAY_ENTRY_ARGS)
        return xr_entry(r, th, fid, b->base_tsc, off);
    return xr_exit(r, th, fid, b->base_tsc, off);
}

/* Parses the metadata record at off; *next is where parsing goes on
 * (SIZE_MAX: stop this buffer). */
static int metadata(xr_reader *r, fdr_buf *b, size_t off, size_t end, size_t *next)
{
    int be = r->h.big_endian;
    const uint8_t *p = xr_at(r, off, XRAY_METADATA_SIZE);
    if (!p)
        return -1;
    unsigned kind = xray_meta_kind(*p++, be);
    *next = off + XRAY_METADATA_SIZE;
    if (kind != XRAY_M_CALL_ARGUMENT && xr_flush_pending(r) != 0)
        return -1;
    switch (kind) {
    case XRAY_M_NEW_BUFFER:
        r->nbuffers++;
        b->start = off;
        b->have_tid = 1;
        b->tid = (uint32_t)xray_load(p, 4, be);
        b->pid = r->h.version == 2 ? b->tid : 0; /* v2: llvm-xray's choice */
        b->th = NULL;
        return order(r, b, T_NEWBUF, off);
    case XRAY_M_END_OF_BUFFER:
        if (order(r, b, T_EOB, off) != 0)
            return -1;
        if (r->h.version >= 2 &&
            xr_deviation(r, off, "EndOfBuffer record in a version %u log", r->h.version) != 0)
            return -1;
        *next = SIZE_MAX;
        return 0;
    case XRAY_M_NEW_CPU_ID:
        if (order(r, b, T_CPU, off) != 0)
            return -1;
        return new_cpu(r, b, xray_load(p + 2, 8, be), off);
    case XRAY_M_TSC_WRAP:
        b->base_tsc = xray_load(p, 8, be);
        return order(r, b, T_BODY, off);
    case XRAY_M_WALLCLOCK:
        wallclock(r, b, p, be);
        return order(r, b, T_WALL, off);
    case XRAY_M_CUSTOM_EVENT:
    case XRAY_M_TYPED_EVENT: {
        size_t len = 0;
        int rc = event(r, b, off, end, (int)kind, &len);
        *next = len ? off + len : end; /* cut: the rest of the buffer is dropped */
        return rc;
    }
    case XRAY_M_CALL_ARGUMENT:
        if (order(r, b, T_ARG, off) != 0)
            return -1;
        return xr_arg(r, xray_load(p, 8, be), off);
    case XRAY_M_BUFFER_EXTENTS:
        if (xr_deviation(r, off, "BufferExtents record inside a thread buffer") != 0)
            return -1;
        if (r->h.version >= 2)
            *next = off; /* a new buffer starts here */
        return 0;
    case XRAY_M_PID:
        b->pid = (uint32_t)xray_load(p, 4, be);
        b->th = NULL;
        return order(r, b, T_PID, off);
    default:
        return xr_fail(r, off, "unknown metadata record kind %u", kind);
    }
}

/* Parses records in [off, end); returns where the next buffer starts through
 * *stop (v2+), or handles v1's EndOfBuffer skips itself. */
static int records(xr_reader *r, fdr_buf *b, size_t off, size_t end, size_t *stop)
{
    int be = r->h.big_endian;
    while (off < end) {
        size_t next;
        const uint8_t *first = xr_at(r, off, 1);
        if (!first)
            return -1;
        if (xray_is_metadata(*first, be)) {
            if (end - off < XRAY_METADATA_SIZE) {
                *stop = end;
                return cut(r, off, end, "metadata", XRAY_METADATA_SIZE);
            }
            if (metadata(r, b, off, end, &next) != 0)
                return -1;
        } else {
            if (end - off < XRAY_FUNCTION_SIZE) {
                *stop = end;
                return cut(r, off, end, "function", XRAY_FUNCTION_SIZE);
            }
            if (xr_flush_pending(r) != 0 || function(r, b, off) != 0)
                return -1;
            next = off + XRAY_FUNCTION_SIZE;
        }
        if (next == off) { /* v2+: BufferExtents inside a buffer */
            *stop = off;
            return 0;
        }
        if (next == SIZE_MAX && r->h.version >= 2) { /* cut or EndOfBuffer: drop the rest */
            *stop = end;
            return 0;
        }
        if (next == SIZE_MAX) { /* v1 EndOfBuffer: the next buffer follows this one */
            uint64_t bs = r->h.buffer_size;
            next = off + XRAY_METADATA_SIZE;
            if (b->have_tid && bs > 0 && bs <= end - b->start && b->start + bs >= next)
                next = b->start + (size_t)bs;
            else if (bs > 0 && xr_deviation(r, off, "EndOfBuffer: buffer size %llu does not fit",
                                            (unsigned long long)bs) != 0)
                return -1;
            *b = (fdr_buf){0};
        }
        off = next;
    }
    *stop = end;
    return 0;
}

static int read_v1(xr_reader *r)
{
    fdr_buf b = {0};
    size_t stop;
    return records(r, &b, XRAY_HEADER_SIZE, r->size, &stop);
}

/* v2+: the next BufferExtents at or after off in *at; SIZE_MAX when none.
 * The search gives up after XR_MAX_SKIP bytes: a log with a valid header and
 * zeros or garbage after it is an error, found quickly. */
static int find_extents(xr_reader *r, size_t off, size_t *at)
{
    int be = r->h.big_endian;
    size_t from = off;
    while (off < r->size) {
        if (off - from > XR_MAX_SKIP)
            return xr_fail(r, from, "no BufferExtents record in the %u bytes from here: "
                                    "not FDR version %u records", XR_MAX_SKIP, r->h.version);
        size_t n = r->size - off < 4096 ? r->size - off : 4096;
        const uint8_t *p = xr_at(r, off, n);
        if (!p)
            return -1;
        for (size_t i = 0; i < n; i++)
            if (xray_is_metadata(p[i], be) && xray_meta_kind(p[i], be) == XRAY_M_BUFFER_EXTENTS) {
                *at = off + i;
                return 0;
            }
        off += n;
    }
    *at = SIZE_MAX;
    return 0;
}

/* A v2+ thread buffer: its records' range, and when it starts. */
typedef struct fdr_span {
    size_t start, end;
    uint64_t key; /* TSC of its first NewCPUId */
    size_t ix;    /* file order, for ties */
} fdr_span;

/* The TSC of the NewCPUId in a buffer's preamble; 0 when it has none. */
static int span_key(xr_reader *r, size_t off, size_t end, uint64_t *key)
{
    int be = r->h.big_endian;
    *key = 0;
    for (int i = 0; i < 5 && end - off >= XRAY_METADATA_SIZE; i++, off += XRAY_METADATA_SIZE) {
        const uint8_t *p = xr_at(r, off, XRAY_METADATA_SIZE);
        if (!p)
            return -1;
        if (!xray_is_metadata(p[0], be))
            break;
        if (xray_meta_kind(p[0], be) == XRAY_M_NEW_CPU_ID) {
            *key = xray_load(p + 3, 8, be);
            break;
        }
    }
    return 0;
}

static int span_cmp(const void *a, const void *b)
{
    const fdr_span *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->ix < y->ix ? -1 : x->ix > y->ix;
}

/* The buffers of the file, by their BufferExtents records. */
static int spans(xr_reader *r, fdr_span **out, size_t *n)
{
    size_t off = XRAY_HEADER_SIZE, cap = 0;
    *out = NULL;
    *n = 0;
    while (off < r->size) {
        size_t at;
        if (find_extents(r, off, &at) != 0)
            return -1;
        if (at != off && xr_deviation(r, off, "expected a BufferExtents record; %s",
                                      at == SIZE_MAX ? "trailing bytes ignored"
                                                     : "skipping to the next one") != 0)
            return -1;
        if (at == SIZE_MAX)
            return 0;
        if (r->size - at < XRAY_METADATA_SIZE)
            return xr_deviation(r, at, "file ends inside a BufferExtents record");
        const uint8_t *p = xr_at(r, at, XRAY_METADATA_SIZE);
        if (!p)
            return -1;
        uint64_t len = xray_load(p + 1, 8, r->h.big_endian);
        size_t start = at + XRAY_METADATA_SIZE, end = r->size;
        if (len <= r->size - start)
            end = start + (size_t)len;
        else if (xr_deviation(r, at, "buffer of %llu bytes, only %zu left in the file",
                              (unsigned long long)len, r->size - start) != 0)
            return -1;
        if (GT_GROW(*out, cap, *n + 1, 16) != 0)
            return xr_fail(r, at, "out of memory");
        uint64_t key;
        if (span_key(r, start, end, &key) != 0)
            return -1;
        if (!key && *n)
            key = (*out)[*n - 1].key; /* no preamble: stays after its predecessor */
        (*out)[*n] = (fdr_span){start, end, key, *n};
        ++*n;
        off = end;
    }
    return 0;
}

/* Buffers are parsed in time order: a runtime that recycles buffers (a small
 * buffer_max) writes a thread's later buffers before its earlier ones. llvm-xray
 * sorts them too (by wall clock). A BufferExtents found inside a buffer starts
 * another buffer there, parsed in file order. */
static int read_v2(xr_reader *r)
{
    fdr_span *sp;
    size_t n;
    int rc = spans(r, &sp, &n);
    if (rc == 0 && n > 1)
        qsort(sp, n, sizeof *sp, span_cmp);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t off = sp[i].start, stop;
        for (;;) {
            fdr_buf b = {.state = S_EXTENTS};
            if (records(r, &b, off, sp[i].end, &stop) != 0 || xr_flush_pending(r) != 0) {
                rc = -1;
                break;
            }
            if (stop >= sp[i].end || stop + XRAY_METADATA_SIZE > sp[i].end)
                break;
            off = stop + XRAY_METADATA_SIZE; /* the inner BufferExtents */
        }
    }
    free(sp);
    return rc;
}

int xr_read_fdr(xr_reader *r)
{
    return r->h.version == 1 ? read_v1(r) : read_v2(r);
}
