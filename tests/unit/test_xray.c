/* formats/xray: hand-built FDR logs of versions 1 to 5 (every record kind),
 * basic mode, big-endian logs, TSC conversion and wraps, CPU changes, early
 * ending buffers, damaged logs (truncation at every byte, flipped bits, absurd
 * sizes), instrumentation maps, and writer -> reader round trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xray_format.h"
#include "xray_instrmap.h"
#include "xray_reader.h"
#include "xray_writer.h"

/* ---- a log builder ----------------------------------------------------------- */
typedef struct lb {
    uint8_t d[8192];
    size_t n;
    int be;
    size_t ext; /* offset of the open BufferExtents, 0 = none */
} lb;

static void put(lb *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b->d[b->n + i] = (uint8_t)(v >> 8 * (b->be ? n - 1 - i : i));
    b->n += n;
}

static void header(lb *b, unsigned version, unsigned type, uint64_t freq, uint64_t bufsize)
{
    put(b, version, 2);
    put(b, type, 2);
    put(b, 3, 4);
    put(b, freq, 8);
    put(b, bufsize, 8);
    put(b, 0, 8);
}

/* A metadata record: kind, then up to 15 bytes of fields (value, size) pairs. */
static void meta(lb *b, unsigned kind, uint64_t a, unsigned an, uint64_t c, unsigned cn)
{
    size_t at = b->n;
    b->d[b->n++] = (uint8_t)(b->be ? 0x80 | kind : kind << 1 | 1);
    put(b, a, an);
    put(b, c, cn);
    memset(b->d + b->n, 0, at + 16 - b->n);
    b->n = at + 16;
}

static void fn(lb *b, unsigned action, uint32_t id, uint32_t delta)
{
    put(b, b->be ? (uint64_t)action << 28 | id : (uint64_t)id << 4 | action << 1, 4);
    put(b, delta, 4);
}

static void bytes(lb *b, const char *s)
{
    memcpy(b->d + b->n, s, strlen(s));
    b->n += strlen(s);
}

/* v2+: opens a buffer (its size is patched by end_buffer) with the preamble. */
static void begin_buffer(lb *b, unsigned version, uint32_t tid, uint32_t pid, uint16_t cpu,
                         uint64_t tsc)
{
    b->ext = b->n;
    meta(b, XRAY_M_BUFFER_EXTENTS, 0, 8, 0, 0);
    meta(b, XRAY_M_NEW_BUFFER, tid, 4, 0, 0);
    meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 250000, 4);
    if (version >= 3)
        meta(b, XRAY_M_PID, pid, 4, 0, 0);
    meta(b, XRAY_M_NEW_CPU_ID, cpu, 2, tsc, 8);
}

static void end_buffer(lb *b)
{
    size_t n = b->n, len = b->n - b->ext - 16;
    b->n = b->ext + 1;
    put(b, len, 8);
    b->n = n;
}

/* ---- reading into a buffer ------------------------------------------------------- */
typedef struct result {
    gt_timeline tl;
    gt_tl_buffer buf;
    gt_error err;
    int rc, warnings;
    char last_warning[600];
} result;

static void count_warning(void *ctx, const char *msg)
{
    result *r = ctx;
    r->warnings++;
    snprintf(r->last_warning, sizeof r->last_warning, "%s", msg);
}

static result *read_log(const uint8_t *d, size_t n, bool strict, const char *instr_map)
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

static void free_result(result *r)
{
    gt_tl_buffer_free(&r->buf);
    gt_timeline_free(&r->tl);
    free(r);
}

static const char *name_of(result *r, size_t i)
{
    return gt_tl_str_get(&r->tl, r->buf.events[i].name, NULL);
}

static void expect(result *r, size_t i, gt_tl_kind kind, int64_t ts, uint64_t tid, const char *name)
{
    assert_true(i < r->buf.count);
    const gt_tl_event *e = &r->buf.events[i];
    assert_int_equal(e->kind, kind);
    assert_int_equal(e->ts, ts);
    assert_int_equal(e->tid, tid);
    assert_string_equal(name_of(r, i), name);
}

/* ---- FDR version 1: every kind of the spec ---------------------------------------- */
static size_t v1_log(lb *b)
{
    memset(b, 0, sizeof *b);
    header(b, 1, 1, 1000000000, 256);
    size_t start = b->n;
    meta(b, XRAY_M_NEW_BUFFER, 7, 2, 0, 0);
    meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 123456, 4);
    meta(b, XRAY_M_NEW_CPU_ID, 3, 2, 1000, 8);
    fn(b, XRAY_ENTRY, 1, 10);               /* 1010 */
    fn(b, XRAY_ENTRY_ARGS, 2, 5);           /* 1015 */
    meta(b, XRAY_M_CALL_ARGUMENT, 42, 8, 0, 0);
    meta(b, XRAY_M_CALL_ARGUMENT, 0xffffffffffffffffull, 8, 0, 0);
    meta(b, XRAY_M_CUSTOM_EVENT, 5, 4, 1017, 8); /* v1-3: absolute TSC */
    bytes(b, "hello");
    fn(b, XRAY_EXIT, 2, 5);                 /* 1020 */
    meta(b, XRAY_M_NEW_CPU_ID, 4, 2, 5000, 8); /* CPU change resets the base */
    fn(b, XRAY_ENTRY, 3, 1);                /* 5001 */
    meta(b, XRAY_M_TSC_WRAP, 0x100000000ull + 5001, 8, 0, 0);
    fn(b, XRAY_TAIL_EXIT, 3, 0);            /* 2^32 + 5001 */
    fn(b, XRAY_EXIT, 1, 9);
    meta(b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
    memset(b->d + b->n, 0xee, start + 256 - b->n); /* garbage after EndOfBuffer is skipped */
    b->n = start + 256;
    start = b->n; /* a second buffer of another thread */
    meta(b, XRAY_M_NEW_BUFFER, 8, 2, 0, 0);
    meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 0, 4);
    meta(b, XRAY_M_NEW_CPU_ID, 0, 2, 2000, 8);
    fn(b, XRAY_ENTRY, 1, 0);
    fn(b, XRAY_EXIT, 1, 100);
    meta(b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
    memset(b->d + b->n, 0, start + 256 - b->n);
    b->n = start + 256;
    return b->n;
}

static void check_v1(result *r)
{
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->warnings, 0);
    assert_int_equal(r->buf.count, 9);
    expect(r, 0, GT_TL_BEGIN, 1010, 7, "fn#1");
    expect(r, 1, GT_TL_BEGIN, 1015, 7, "fn#2");
    assert_int_equal(r->buf.events[1].nargs, 2);
    assert_int_equal(r->buf.events[1].args[0].v.u, 42);
    assert_int_equal(r->buf.events[1].args[1].v.u, 0xffffffffffffffffull);
    assert_string_equal(gt_tl_str_get(&r->tl, r->buf.events[1].args[1].name, NULL), "arg1");
    expect(r, 2, GT_TL_INSTANT, 1017, 7, "xray_custom_event");
    assert_int_equal(r->buf.events[2].args[0].v.s.len, 5);
    assert_memory_equal(r->buf.events[2].args[0].v.s.p, "hello", 5);
    expect(r, 3, GT_TL_END, 1020, 7, "fn#2");
    expect(r, 4, GT_TL_BEGIN, 5001, 7, "fn#3");
    expect(r, 5, GT_TL_END, 0x100000000ll + 5001, 7, "fn#3");
    expect(r, 6, GT_TL_END, 0x100000000ll + 5010, 7, "fn#1");
    expect(r, 7, GT_TL_BEGIN, 2000, 8, "fn#1");
    expect(r, 8, GT_TL_END, 2100, 8, "fn#1");
    assert_int_equal(r->buf.events[0].pid, 0);
    /* the Unix wall clock anchors the timeline at the NewCPUId's TSC */
    assert_true(r->tl.has_wall);
    assert_int_equal(r->tl.wall_offset_ns, 1700000000ll * 1000000000 + 123456000 - 1000);
}

static void fdr_v1_every_kind(void **state)
{
    (void)state;
    lb b;
    size_t n = v1_log(&b);
    result *r = read_log(b.d, n, false, NULL);
    check_v1(r);
    free_result(r);
    r = read_log(b.d, n, true, NULL);
    check_v1(r);
    free_result(r);
}

/* The same log written big-endian, with the spec's big-endian bitfields. */
static void fdr_v1_big_endian(void **state)
{
    (void)state;
    lb b;
    memset(&b, 0, sizeof b);
    b.be = 1;
    header(&b, 1, 1, 2000000000, 0);
    meta(&b, XRAY_M_NEW_BUFFER, 9, 4, 0, 0); /* int32, as LLVM's runtime writes it */
    meta(&b, XRAY_M_WALLCLOCK, 5, 8, 0, 4);
    meta(&b, XRAY_M_NEW_CPU_ID, 1, 2, 4000, 8);
    fn(&b, XRAY_ENTRY_ARGS, 0x0abcdef, 2);
    meta(&b, XRAY_M_CALL_ARGUMENT, 0x0102030405060708ull, 8, 0, 0);
    fn(&b, XRAY_EXIT, 0x0abcdef, 4);
    gt_xray_header h;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_xray_read_header(b.d, b.n, "be", &h, &err), 0);
    assert_int_equal(h.big_endian, 1);
    assert_int_equal(h.cycle_frequency, 2000000000);
    result *r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->buf.count, 2);
    expect(r, 0, GT_TL_BEGIN, 2001, 9, "fn#11259375");
    assert_int_equal(r->buf.events[0].args[0].v.u, 0x0102030405060708ull);
    expect(r, 1, GT_TL_END, 2003, 9, "fn#11259375");
    assert_false(r->tl.has_wall); /* 5 s is no Unix time: CLOCK_MONOTONIC */
    assert_true(r->tl.has_mono);
    assert_int_equal(r->tl.mono_offset_ns, 5000000000ll - 2000);
    free_result(r);
}

/* ---- FDR versions 2 to 5 ---------------------------------------------------------- */
static size_t v5_first_end; /* where v5_log's first buffer ends */

static size_t v5_log(lb *b, unsigned version)
{
    memset(b, 0, sizeof *b);
    header(b, version, 1, 3000000000u, 16384);
    begin_buffer(b, version, 100, 55, 2, 3000);
    fn(b, XRAY_ENTRY, 1, 3);              /* 3003 */
    fn(b, XRAY_ENTRY_ARGS, 2, 3);         /* 3006 */
    meta(b, XRAY_M_CALL_ARGUMENT, 7, 8, 0, 0);
    if (version >= 5) {
        meta(b, XRAY_M_CUSTOM_EVENT, 3, 4, 30, 4); /* delta: 3036 */
        bytes(b, "abc");
        meta(b, XRAY_M_TYPED_EVENT, 2, 4, (uint64_t)-6 & 0xffffffff, 4); /* signed delta: 3030 */
        b->n -= 16 - 9;
        put(b, 7, 2); /* event type */
        memset(b->d + b->n, 0, 5);
        b->n += 5;
        bytes(b, "xy");
    } else {
        meta(b, XRAY_M_CUSTOM_EVENT, 3, 4, 3036, 8); /* absolute (v4: + CPU) */
        bytes(b, "abc");
    }
    fn(b, XRAY_EXIT, 2, 3);
    meta(b, XRAY_M_NEW_CPU_ID, 5, 2, 9000, 8);
    fn(b, XRAY_TAIL_EXIT, 1, 3);          /* 9003 */
    end_buffer(b);
    v5_first_end = b->n;
    begin_buffer(b, version, 101, 55, 0, 6000);
    fn(b, XRAY_ENTRY, 4, 30);             /* 6030, never exited */
    end_buffer(b);
    return b->n;
}

static void fdr_v5_every_kind(void **state)
{
    (void)state;
    lb b;
    size_t n = v5_log(&b, 5);
    result *r = read_log(b.d, n, false, NULL);
    assert_int_equal(r->rc, 0);
    /* buffers are read in time order: thread 101's (TSC 6000) after 100's (3000) */
    assert_int_equal(r->buf.count, 7);
    expect(r, 0, GT_TL_BEGIN, 1001, 100, "fn#1"); /* 3003 ticks at 3 GHz */
    assert_int_equal(r->buf.events[0].pid, 55);
    expect(r, 1, GT_TL_BEGIN, 1002, 100, "fn#2");
    assert_int_equal(r->buf.events[1].nargs, 1);
    expect(r, 2, GT_TL_INSTANT, 1012, 100, "xray_custom_event");
    expect(r, 3, GT_TL_INSTANT, 1010, 100, "xray_typed_event");
    assert_int_equal(r->buf.events[3].args[1].v.u, 7);
    assert_memory_equal(r->buf.events[3].args[0].v.s.p, "xy", 2);
    expect(r, 4, GT_TL_END, 1011, 100, "fn#2"); /* 3030 + 3 */
    expect(r, 5, GT_TL_END, 3001, 100, "fn#1");
    expect(r, 6, GT_TL_BEGIN, 2010, 101, "fn#4");
    /* the entry never exited: left open with one warning; strict refuses it */
    assert_int_equal(r->warnings, 1);
    assert_non_null(strstr(r->last_warning, "never exited"));
    free_result(r);
    r = read_log(b.d, n, true, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "t.xray: offset"));
    free_result(r);
}

static void fdr_v2_to_v4(void **state)
{
    (void)state;
    for (unsigned v = 2; v <= 4; v++) {
        lb b;
        size_t n = v5_log(&b, v);
        result *r = read_log(b.d, n, false, NULL);
        assert_int_equal(r->rc, 0);
        assert_int_equal(r->buf.count, 6);
        expect(r, 2, GT_TL_INSTANT, 1012, 100, "xray_custom_event");
        /* v2: llvm-xray takes the thread id for the pid; v3+: PIDEntry */
        assert_int_equal(r->buf.events[0].pid, v == 2 ? 100 : 55);
        expect(r, 3, GT_TL_END, 1003, 100, "fn#2"); /* v<5 events do not move the base */
        free_result(r);
    }
}

/* A record cut by its buffer's end (the corpus's REFERENCE-CONVERT-FAILS case) and
 * an exit without entry: warnings; strict refuses them. */
static void fdr_buffer_ends_early(void **state)
{
    (void)state;
    lb b;
    memset(&b, 0, sizeof b);
    header(&b, 5, 1, 1000000000, 0);
    begin_buffer(&b, 5, 1, 1, 0, 100);
    fn(&b, XRAY_EXIT, 9, 1); /* no entry before it */
    fn(&b, XRAY_ENTRY, 2, 1);
    meta(&b, XRAY_M_TSC_WRAP, 1 << 20, 8, 0, 0);
    b.n -= 8; /* the extents cover only half of the TSCWrap */
    end_buffer(&b);
    result *r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->buf.count, 2);
    expect(r, 0, GT_TL_END, 101, 1, "fn#9");
    expect(r, 1, GT_TL_BEGIN, 102, 1, "fn#2");
    assert_int_equal(r->warnings, 3); /* exit without entry, cut record, open entry */
    free_result(r);
    r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "without an entry"));
    free_result(r);
}

/* ---- basic mode ------------------------------------------------------------------- */
static void basic_record(lb *b, unsigned type, unsigned action, int32_t fid, uint64_t tsc,
                         uint32_t tid, uint32_t pid, uint64_t arg)
{
    put(b, type, 2);
    if (type == 0) {
        put(b, 3, 1); /* cpu */
        put(b, action, 1);
        put(b, (uint32_t)fid, 4);
        put(b, tsc, 8);
        put(b, tid, 4);
        put(b, pid, 4);
        put(b, 0, 8);
    } else {
        put(b, 0, 2);
        put(b, (uint32_t)fid, 4);
        put(b, tid, 4);
        put(b, pid, 4);
        put(b, arg, 8);
        put(b, 0, 8);
    }
}

static void basic_mode(void **state)
{
    (void)state;
    lb b;
    memset(&b, 0, sizeof b);
    header(&b, 3, 0, 1000000000, 0);
    basic_record(&b, 0, XRAY_ENTRY_ARGS, 5, 100, 11, 22, 0);
    basic_record(&b, 1, 0, 5, 0, 11, 22, 99);
    basic_record(&b, 0, XRAY_ENTRY, 6, 150, 12, 22, 0);
    basic_record(&b, 0, XRAY_EXIT, 5, 200, 11, 22, 0);
    basic_record(&b, 0, XRAY_EXIT, 6, 250, 12, 22, 0);
    result *r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->buf.count, 4);
    expect(r, 0, GT_TL_BEGIN, 100, 11, "fn#5");
    assert_int_equal(r->buf.events[0].pid, 22);
    assert_int_equal(r->buf.events[0].nargs, 1);
    assert_int_equal(r->buf.events[0].args[0].v.u, 99);
    expect(r, 1, GT_TL_BEGIN, 150, 12, "fn#6");
    expect(r, 3, GT_TL_END, 250, 12, "fn#6");
    free_result(r);
    /* a payload of another function is refused in strict mode; a partial record warns */
    b.d[32 + 32 + 4] = 9;
    b.n += 7;
    r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->warnings, 2);
    free_result(r);
    r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "offset 64:"));
    free_result(r);
}

/* ---- time ----------------------------------------------------------------------------- */
static void tsc_conversion_exact(void **state)
{
    (void)state;
    lb b;
    memset(&b, 0, sizeof b);
    header(&b, 5, 1, 2300000001u, 0); /* an odd frequency: 128-bit products */
    begin_buffer(&b, 5, 1, 1, 0, 0x7000000000000000ull);
    fn(&b, XRAY_ENTRY, 1, 0xffffffffu);
    fn(&b, XRAY_EXIT, 1, 1);
    end_buffer(&b);
    result *r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, 0);
    unsigned __int128 t = (unsigned __int128)(0x7000000000000000ull + 0xffffffffu) * 1000000000u;
    assert_int_equal(r->buf.events[0].ts, (int64_t)(t / 2300000001u));
    assert_int_equal(r->buf.events[1].ts, (int64_t)((t + 1000000000u) / 2300000001u));
    free_result(r);
    /* a slow clock whose absolute TSCs pass int64 ns: times count from the first TSC */
    memset(&b, 0, sizeof b);
    header(&b, 5, 1, 1000, 0);
    begin_buffer(&b, 5, 1, 1, 0, 1ull << 60);
    fn(&b, XRAY_ENTRY, 1, 0);
    fn(&b, XRAY_EXIT, 1, 3);
    end_buffer(&b);
    r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, 0);
    assert_int_equal(r->buf.events[0].ts, 0);
    assert_int_equal(r->buf.events[1].ts, 3000000);
    free_result(r);
}

/* ---- damaged logs -------------------------------------------------------------------- */
static void truncation_at_every_byte(void **state)
{
    (void)state;
    lb b;
    size_t n = v5_log(&b, 5);
    for (size_t cut = 0; cut < n; cut++) {
        result *r = read_log(b.d, cut, true, NULL);
        if (cut < 32) {
            assert_int_equal(r->rc, -1);
        } else if (cut > 32 && cut != v5_first_end) {
            /* strict: every cut but one between buffers leaves a buffer shorter
             * than its extents */
            assert_int_equal(r->rc, -1);
            assert_non_null(strstr(r->err.msg, "t.xray: offset "));
        }
        free_result(r);
        r = read_log(b.d, cut, false, NULL); /* liberal: warnings, never a crash */
        assert_true(r->rc == 0 || strstr(r->err.msg, "offset") != NULL);
        free_result(r);
    }
    n = v1_log(&b);
    for (size_t cut = 33; cut < n; cut++) {
        result *r = read_log(b.d, cut, false, NULL);
        free_result(r);
    }
}

static void flipped_bits(void **state)
{
    (void)state;
    lb b;
    size_t n = v5_log(&b, 5);
    for (size_t bit = 0; bit < n * 8; bit++) {
        b.d[bit / 8] ^= (uint8_t)(1u << bit % 8);
        for (int strict = 0; strict < 2; strict++) {
            result *r = read_log(b.d, n, strict, NULL);
            assert_true(r->rc == 0 || strstr(r->err.msg, "t.xray") != NULL);
            free_result(r);
        }
        b.d[bit / 8] ^= (uint8_t)(1u << bit % 8);
    }
}

static void absurd_sizes(void **state)
{
    (void)state;
    lb b;
    /* buffer extents far beyond the file */
    v5_log(&b, 5);
    b.n = 32 + 1;
    put(&b, 0x7fffffffffffffffull, 8);
    result *r = read_log(b.d, v5_log(&(lb){0}, 5), true, NULL);
    free_result(r);
    memcpy(b.d + 33, (uint8_t[8]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, 8);
    size_t n = 400;
    r = read_log(b.d, n, true, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "offset 32: buffer of 9223372036854775807 bytes"));
    free_result(r);
    /* custom events of 2^31-1 bytes and of size 0 / negative */
    const int32_t sizes[] = {0x7fffffff, 0, -5};
    for (int i = 0; i < 3; i++) {
        memset(&b, 0, sizeof b);
        header(&b, 5, 1, 1000000000, 0);
        begin_buffer(&b, 5, 1, 1, 0, 10);
        meta(&b, XRAY_M_CUSTOM_EVENT, (uint32_t)sizes[i], 4, 0, 4);
        end_buffer(&b);
        r = read_log(b.d, b.n, false, NULL);
        if (sizes[i] > 0) {
            assert_int_equal(r->rc, 0);
            assert_int_equal(r->warnings, 1); /* cut: the payload is not there */
        } else {
            assert_int_equal(r->rc, -1);
            assert_non_null(strstr(r->err.msg, "t.xray: offset 112: custom event of size"));
        }
        free_result(r);
    }
    /* v1 buffer size beyond the file; unknown metadata kind; unknown function type */
    memset(&b, 0, sizeof b);
    header(&b, 1, 1, 1000000000, 1ull << 62);
    meta(&b, XRAY_M_NEW_BUFFER, 1, 2, 0, 0);
    meta(&b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
    meta(&b, 77, 0, 0, 0, 0);
    r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "offset 64: unknown metadata record kind 77"));
    free_result(r);
    memset(&b, 0, sizeof b);
    header(&b, 5, 1, 1000000000, 0);
    begin_buffer(&b, 5, 1, 1, 0, 10);
    put(&b, 5u << 1, 4);
    put(&b, 0, 4);
    end_buffer(&b);
    r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "offset 112: unknown function record type 5"));
    free_result(r);
    /* not XRay */
    r = read_log((const uint8_t *)"GARBAGE GARBAGE GARBAGE GARBAGE GARBAGE", 40, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "not an XRay log"));
    free_result(r);
}

/* ---- instrumentation maps ---------------------------------------------------------------- */
static char *tmp_path(const char *suffix)
{
    const char *dir = getenv("TMPDIR");
    char *p = malloc(512);
    assert_non_null(p);
    snprintf(p, 512, "%s/test_xray_%d%s", dir ? dir : "/tmp", (int)getpid(), suffix);
    return p;
}

/* A valid header over zeros (a sparse or wiped file) or nothing usable: an
 * error at once, from memory and from a file read through the reader's
 * window, never an empty timeline. 16 MiB of zeros stands for gigabytes. */
static void header_over_zeros(void **state)
{
    (void)state;
    static const struct { unsigned version, type; const char *needle; } kinds[] = {
        {5, 1, "no BufferExtents record"}, {2, 1, "no BufferExtents record"},
        {1, 1, "records in a row skipped"}, {2, 0, "records in a row skipped"},
        {3, 0, "records in a row skipped"}};
    size_t n = 16u << 20;
    uint8_t *d = calloc(1, n);
    assert_non_null(d);
    char *path = tmp_path("_zeros.xray");
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        lb h = {0};
        header(&h, kinds[k].version, kinds[k].type, 1000000000, 4096);
        memcpy(d, h.d, h.n);
        result *r = read_log(d, n, false, NULL);
        assert_int_equal(r->rc, -1);
        print_message("%s\n", r->err.msg);
        assert_non_null(strstr(r->err.msg, kinds[k].needle));
        free_result(r);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(d, 1, n, f), n);
        fclose(f);
        gt_timeline tl;
        gt_timeline_init(&tl);
        gt_tl_buffer buf;
        gt_tl_buffer_init(&buf);
        gt_tl_sink s = gt_tl_buffer_sink(&buf);
        gt_tl_read_opts o = {0};
        gt_error err;
        gt_error_clear(&err);
        assert_int_equal(gt_xray_read(path, &tl, &s, &o, &err), -1);
        assert_non_null(strstr(err.msg, kinds[k].needle));
        assert_non_null(strstr(err.msg, ": offset "));
        gt_tl_buffer_free(&buf);
        gt_timeline_free(&tl);
    }
    /* a few bytes after the header that hold no record: also an error */
    lb b = {0};
    header(&b, 5, 1, 1000000000, 4096);
    put(&b, 0, 8);
    result *r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "no XRay records"));
    free_result(r);
    unlink(path);
    free(path);
    free(d);
}

static void instrmap_written_and_read(void **state)
{
    (void)state;
    const char *names[] = {"glClear", "glDrawArrays", "glXSwapBuffers"};
    char *path = tmp_path(".map");
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_xray_write_instrmap(path, names, 3, &err), 0);
    gt_xray_instrmap *m = gt_xray_instrmap_load(path, &err);
    assert_non_null(m);
    assert_int_equal(gt_xray_instrmap_count(m), 3);
    for (uint32_t i = 1; i <= 3; i++)
        assert_string_equal(gt_xray_instrmap_name(m, i), names[i - 1]);
    assert_null(gt_xray_instrmap_name(m, 4));
    assert_int_equal(gt_xray_instrmap_addr(m, 2), 0x401010);
    gt_xray_instrmap_free(m);
    /* every truncation of the map: an error or a map, never a crash */
    FILE *f = fopen(path, "rb");
    uint8_t img[4096];
    size_t n = fread(img, 1, sizeof img, f);
    fclose(f);
    for (size_t cut = 0; cut < n; cut++) {
        gt_error_clear(&err);
        m = gt_xray_instrmap_load_mem(img, cut, "cut.map", &err);
        assert_true(m != NULL || err.set);
        gt_xray_instrmap_free(m);
    }
    gt_error_clear(&err);
    assert_null(gt_xray_instrmap_load_mem((const uint8_t *)"\x7f" "ELF", 4, "x", &err));
    assert_non_null(strstr(err.msg, "not an ELF file"));
    unlink(path);
    free(path);
}

/* ---- writer ------------------------------------------------------------------------------ */
static void emit(gt_tl_sink *s, gt_timeline *tl, gt_tl_kind kind, int64_t ts, int64_t dur,
                 uint64_t tid, const char *name, int rc_expected)
{
    gt_error err;
    gt_error_clear(&err);
    gt_tl_event ev = {.kind = kind, .ts = ts, .dur = dur, .pid = 5, .tid = tid,
                      .name = name ? gt_tl_intern_cstr(tl, name) : 0};
    assert_int_equal(gt_tl_emit(s, tl, &ev, &err), rc_expected);
}

static void writer_round_trip(void **state)
{
    (void)state;
    char *path = tmp_path(".xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    tl.has_mono = true; /* written as the WallClockTime stamps, read back as the anchor */
    tl.mono_offset_ns = 123456789900;
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    gt_tl_sink s = gt_xray_writer_sink(w);
    {
        gt_tl_arg args[3] = {
            {.name = gt_tl_intern_cstr(&tl, "n"), .kind = GT_TL_ARG_I64, .v.i = -5},
            {.name = gt_tl_intern_cstr(&tl, "s"), .kind = GT_TL_ARG_STRING, .v.s = {"x", 1}},
            {.name = gt_tl_intern_cstr(&tl, "p"), .kind = GT_TL_ARG_POINTER, .v.u = 0xdead},
        };
        gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = 100, .dur = 50, .pid = 5, .tid = 1,
                          .name = gt_tl_intern_cstr(&tl, "frame"), .nargs = 3, .args = args};
        assert_int_equal(gt_tl_emit(&s, &tl, &ev, &err), 0);
    }
    emit(&s, &tl, GT_TL_COMPLETE, 110, 10, 1, "glClear", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 120, 0, 1, "glFlush", 0);      /* zero length */
    emit(&s, &tl, GT_TL_BEGIN, 130, 0, 1, "swap", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 131, 100, 1, "inner", 0);      /* outlives swap: cut */
    emit(&s, &tl, GT_TL_END, 140, 0, 1, NULL, 0);
    emit(&s, &tl, GT_TL_COMPLETE, 200, 5, 0x6770750000000001ull, "gpu", 0); /* synthetic tid */
    emit(&s, &tl, GT_TL_COMPLETE, 5000000200ll, 7, 1, "glClear", 0); /* past 2^32 ns: TSCWrap */
    emit(&s, &tl, GT_TL_INSTANT, 5000000300ll, 0, 1, "marker", 0); /* a custom event */
    emit(&s, &tl, GT_TL_COUNTER, 5000000300ll, 0, 1, "ignored", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 100, 1, 1, "late", -1);        /* out of order */
    emit(&s, &tl, GT_TL_END, 5000000300ll, 0, 2, NULL, -1);      /* nothing open, no name */
    emit(&s, &tl, GT_TL_COMPLETE, -1, 1, 3, "neg", -1);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);

    char *map = tmp_path(".xray.map");
    result *r;
    {
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static uint8_t d[1 << 16];
        size_t n = fread(d, 1, sizeof d, f);
        fclose(f);
        /* the header llvm-xray needs: v5 FDR, 1 GHz; a TSCWrap record somewhere */
        assert_int_equal(d[0], 5);
        assert_int_equal(d[2], 1);
        assert_int_equal(xray_load(d + 8, 8, 0), 1000000000);
        assert_non_null(memchr(d, XRAY_M_TSC_WRAP << 1 | 1, n));
        r = read_log(d, n, true, map);
    }
    assert_int_equal(r->rc, 0);
    const struct { gt_tl_kind k; int64_t ts; const char *name; } want[] = {
        {GT_TL_BEGIN, 100, "frame"}, {GT_TL_BEGIN, 110, "glClear"}, {GT_TL_END, 120, "glClear"},
        {GT_TL_BEGIN, 120, "glFlush"}, {GT_TL_END, 120, "glFlush"}, {GT_TL_BEGIN, 130, "swap"},
        {GT_TL_BEGIN, 131, "inner"}, {GT_TL_END, 140, "inner"}, {GT_TL_END, 140, "swap"},
        {GT_TL_END, 150, "frame"}, {GT_TL_BEGIN, 5000000200ll, "glClear"},
        {GT_TL_END, 5000000207ll, "glClear"}, {GT_TL_INSTANT, 5000000300ll, "xray_custom_event"},
        {GT_TL_BEGIN, 200, "gpu"}, {GT_TL_END, 205, "gpu"},
    };
    assert_int_equal(r->buf.count, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < r->buf.count; i++) {
        assert_int_equal(r->buf.events[i].kind, want[i].k);
        assert_int_equal(r->buf.events[i].ts, want[i].ts);
        assert_string_equal(name_of(r, i), want[i].name);
    }
    assert_true(r->tl.has_mono);
    assert_int_equal(r->tl.mono_offset_ns, 123456789900);
    assert_int_equal(r->buf.events[0].pid, 5);
    assert_int_equal(r->buf.events[0].nargs, 2); /* the integer arguments */
    assert_int_equal(r->buf.events[0].args[0].v.u, (uint64_t)-5);
    assert_int_equal(r->buf.events[0].args[1].v.u, 0xdead);
    assert_int_equal(r->buf.events[12].args[0].v.s.len, 6);
    assert_memory_equal(r->buf.events[12].args[0].v.s.p, "marker", 6);
    assert_int_equal(r->buf.events[13].tid, 0x7fffffff);
    free_result(r);
    unlink(path);
    unlink(map);
    free(path);
    free(map);
    gt_timeline_free(&tl);
}

/* Many events: several 64 KiB buffers per thread, read back in order. */
static void writer_many_buffers(void **state)
{
    (void)state;
    char *path = tmp_path("_many.xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    gt_tl_sink s = gt_xray_writer_sink(w);
    for (int64_t i = 0; i < 30000; i++)
        for (uint64_t tid = 1; tid <= 2; tid++)
            emit(&s, &tl, GT_TL_COMPLETE, i * 10, 5, tid, i % 2 ? "a" : "b", 0);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    result *r = calloc(1, sizeof *r);
    assert_int_equal(gt_timeline_init(&r->tl), 0);
    gt_tl_buffer_init(&r->buf);
    gt_tl_sink bs = gt_tl_buffer_sink(&r->buf);
    gt_tl_read_opts o = {.strict = true};
    assert_int_equal(gt_xray_read(path, &r->tl, &bs, &o, &r->err), 0);
    assert_int_equal(r->buf.count, 120000);
    int64_t last[3] = {-1, -1, -1};
    for (size_t i = 0; i < r->buf.count; i++) {
        const gt_tl_event *e = &r->buf.events[i];
        assert_true(e->ts >= last[e->tid]);
        last[e->tid] = e->ts;
    }
    assert_int_equal(last[1], 299995);
    free_result(r);
    unlink(path);
    free(path);
    gt_timeline_free(&tl);
}

/* A complete slice still open when a named END with no BEGIN arrives: it is cut
 * there and the END becomes an exit without entry. An empty timeline gives one
 * empty buffer, which llvm-xray-14 reads. */
static void writer_edge_cases(void **state)
{
    (void)state;
    char *path = tmp_path("_edge.xray");
    gt_timeline tl;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_xray_writer *w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    gt_tl_sink s = gt_xray_writer_sink(w);
    emit(&s, &tl, GT_TL_COMPLETE, 10, 100, 4, "c", 0);
    emit(&s, &tl, GT_TL_COMPLETE, 12, 50, 4, "d", 0);
    emit(&s, &tl, GT_TL_END, 20, 0, 4, "x", 0);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    gt_tl_buffer buf;
    gt_tl_buffer_init(&buf);
    gt_tl_sink bs = gt_tl_buffer_sink(&buf);
    gt_tl_read_opts o = {0};
    assert_int_equal(gt_xray_read(path, &tl, &bs, &o, &err), 0);
    const struct { gt_tl_kind k; int64_t ts; } want[] = {
        {GT_TL_BEGIN, 10}, {GT_TL_BEGIN, 12}, {GT_TL_END, 20}, {GT_TL_END, 20}, {GT_TL_END, 20}};
    assert_int_equal(buf.count, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(buf.events[i].kind, want[i].k);
        assert_int_equal(buf.events[i].ts, want[i].ts);
    }
    assert_string_equal(gt_tl_str_get(&tl, buf.events[4].name, NULL), "fn#3"); /* x: id 3 */
    gt_tl_buffer_free(&buf);

    w = gt_xray_writer_open(path, &err);
    assert_non_null(w);
    assert_int_equal(gt_xray_writer_set_map_path(w, NULL), 0);
    s = gt_xray_writer_sink(w);
    assert_int_equal(gt_tl_finish(&s, &tl, &err), 0);
    gt_xray_writer_free(w);
    FILE *f = fopen(path, "rb");
    uint8_t d[256];
    size_t n = fread(d, 1, sizeof d, f);
    fclose(f);
    assert_int_equal(n, 32 + 16 + 64);
    assert_int_equal(d[32], XRAY_M_BUFFER_EXTENTS << 1 | 1);
    gt_tl_buffer_init(&buf);
    bs = gt_tl_buffer_sink(&buf);
    o.strict = true;
    assert_int_equal(gt_xray_read(path, &tl, &bs, &o, &err), 0);
    assert_int_equal(buf.count, 0);
    gt_tl_buffer_free(&buf);
    unlink(path);
    free(path);
    gt_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fdr_v1_every_kind),
        cmocka_unit_test(fdr_v1_big_endian),
        cmocka_unit_test(fdr_v5_every_kind),
        cmocka_unit_test(fdr_v2_to_v4),
        cmocka_unit_test(fdr_buffer_ends_early),
        cmocka_unit_test(basic_mode),
        cmocka_unit_test(tsc_conversion_exact),
        cmocka_unit_test(truncation_at_every_byte),
        cmocka_unit_test(flipped_bits),
        cmocka_unit_test(absurd_sizes),
        cmocka_unit_test(header_over_zeros),
        cmocka_unit_test(instrmap_written_and_read),
        cmocka_unit_test(writer_round_trip),
        cmocka_unit_test(writer_many_buffers),
        cmocka_unit_test(writer_edge_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
