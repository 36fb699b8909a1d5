/* formats/xray: hand-built FDR logs of versions 1 to 5 (every record kind),
 * basic mode, big-endian logs, TSC conversion and wraps, CPU changes, early
 * ending buffers, damaged logs (truncation at every byte, flipped bits, absurd
 * sizes). Runs the cases of test_xray_write.c (instrumentation maps, writer ->
 * reader round trips) too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_xray.h"
#include "xray_format.h"
#include "xray_instrmap.h"
#include "xray_reader.h"
#include "xray_writer.h"

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
    lb_header(b, 1, 1, 1000000000, 256);
    size_t start = b->n;
    lb_meta(b, XRAY_M_NEW_BUFFER, 7, 2, 0, 0);
    lb_meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 123456, 4);
    lb_meta(b, XRAY_M_NEW_CPU_ID, 3, 2, 1000, 8);
    lb_fn(b, XRAY_ENTRY, 1, 10);               /* 1010 */
    lb_fn(b, XRAY_ENTRY_ARGS, 2, 5);           /* 1015 */
    lb_meta(b, XRAY_M_CALL_ARGUMENT, 42, 8, 0, 0);
    lb_meta(b, XRAY_M_CALL_ARGUMENT, 0xffffffffffffffffull, 8, 0, 0);
    lb_meta(b, XRAY_M_CUSTOM_EVENT, 5, 4, 1017, 8); /* v1-3: absolute TSC */
    lb_bytes(b, "hello");
    lb_fn(b, XRAY_EXIT, 2, 5);                 /* 1020 */
    lb_meta(b, XRAY_M_NEW_CPU_ID, 4, 2, 5000, 8); /* CPU change resets the base */
    lb_fn(b, XRAY_ENTRY, 3, 1);                /* 5001 */
    lb_meta(b, XRAY_M_TSC_WRAP, 0x100000000ull + 5001, 8, 0, 0);
    lb_fn(b, XRAY_TAIL_EXIT, 3, 0);            /* 2^32 + 5001 */
    lb_fn(b, XRAY_EXIT, 1, 9);
    lb_meta(b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
    memset(b->d + b->n, 0xee, start + 256 - b->n); /* garbage after EndOfBuffer is skipped */
    b->n = start + 256;
    start = b->n; /* a second buffer of another thread */
    lb_meta(b, XRAY_M_NEW_BUFFER, 8, 2, 0, 0);
    lb_meta(b, XRAY_M_WALLCLOCK, 1700000000, 8, 0, 4);
    lb_meta(b, XRAY_M_NEW_CPU_ID, 0, 2, 2000, 8);
    lb_fn(b, XRAY_ENTRY, 1, 0);
    lb_fn(b, XRAY_EXIT, 1, 100);
    lb_meta(b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
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
    lb_header(&b, 1, 1, 2000000000, 0);
    lb_meta(&b, XRAY_M_NEW_BUFFER, 9, 4, 0, 0); /* int32, as LLVM's runtime writes it */
    lb_meta(&b, XRAY_M_WALLCLOCK, 5, 8, 0, 4);
    lb_meta(&b, XRAY_M_NEW_CPU_ID, 1, 2, 4000, 8);
    lb_fn(&b, XRAY_ENTRY_ARGS, 0x0abcdef, 2);
    lb_meta(&b, XRAY_M_CALL_ARGUMENT, 0x0102030405060708ull, 8, 0, 0);
    lb_fn(&b, XRAY_EXIT, 0x0abcdef, 4);
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
    lb_header(b, version, 1, 3000000000u, 16384);
    lb_begin_buffer(b, version, 100, 55, 2, 3000);
    lb_fn(b, XRAY_ENTRY, 1, 3);              /* 3003 */
    lb_fn(b, XRAY_ENTRY_ARGS, 2, 3);         /* 3006 */
    lb_meta(b, XRAY_M_CALL_ARGUMENT, 7, 8, 0, 0);
    if (version >= 5) {
        lb_meta(b, XRAY_M_CUSTOM_EVENT, 3, 4, 30, 4); /* delta: 3036 */
        lb_bytes(b, "abc");
        lb_meta(b, XRAY_M_TYPED_EVENT, 2, 4, (uint64_t)-6 & 0xffffffff, 4); /* signed delta: 3030 */
        b->n -= 16 - 9;
        lb_put(b, 7, 2); /* event type */
        memset(b->d + b->n, 0, 5);
        b->n += 5;
        lb_bytes(b, "xy");
    } else {
        lb_meta(b, XRAY_M_CUSTOM_EVENT, 3, 4, 3036, 8); /* absolute (v4: + CPU) */
        lb_bytes(b, "abc");
    }
    lb_fn(b, XRAY_EXIT, 2, 3);
    lb_meta(b, XRAY_M_NEW_CPU_ID, 5, 2, 9000, 8);
    lb_fn(b, XRAY_TAIL_EXIT, 1, 3);          /* 9003 */
    lb_end_buffer(b);
    v5_first_end = b->n;
    lb_begin_buffer(b, version, 101, 55, 0, 6000);
    lb_fn(b, XRAY_ENTRY, 4, 30);             /* 6030, never exited */
    lb_end_buffer(b);
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
    lb_header(&b, 5, 1, 1000000000, 0);
    lb_begin_buffer(&b, 5, 1, 1, 0, 100);
    lb_fn(&b, XRAY_EXIT, 9, 1); /* no entry before it */
    lb_fn(&b, XRAY_ENTRY, 2, 1);
    lb_meta(&b, XRAY_M_TSC_WRAP, 1 << 20, 8, 0, 0);
    b.n -= 8; /* the extents cover only half of the TSCWrap */
    lb_end_buffer(&b);
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
    lb_put(b, type, 2);
    if (type == 0) {
        lb_put(b, 3, 1); /* cpu */
        lb_put(b, action, 1);
        lb_put(b, (uint32_t)fid, 4);
        lb_put(b, tsc, 8);
        lb_put(b, tid, 4);
        lb_put(b, pid, 4);
        lb_put(b, 0, 8);
    } else {
        lb_put(b, 0, 2);
        lb_put(b, (uint32_t)fid, 4);
        lb_put(b, tid, 4);
        lb_put(b, pid, 4);
        lb_put(b, arg, 8);
        lb_put(b, 0, 8);
    }
}

static void basic_mode(void **state)
{
    (void)state;
    lb b;
    memset(&b, 0, sizeof b);
    lb_header(&b, 3, 0, 1000000000, 0);
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
    lb_header(&b, 5, 1, 2300000001u, 0); /* an odd frequency: 128-bit products */
    lb_begin_buffer(&b, 5, 1, 1, 0, 0x7000000000000000ull);
    lb_fn(&b, XRAY_ENTRY, 1, 0xffffffffu);
    lb_fn(&b, XRAY_EXIT, 1, 1);
    lb_end_buffer(&b);
    result *r = read_log(b.d, b.n, true, NULL);
    assert_int_equal(r->rc, 0);
    unsigned __int128 t = (unsigned __int128)(0x7000000000000000ull + 0xffffffffu) * 1000000000u;
    assert_int_equal(r->buf.events[0].ts, (int64_t)(t / 2300000001u));
    assert_int_equal(r->buf.events[1].ts, (int64_t)((t + 1000000000u) / 2300000001u));
    free_result(r);
    /* a slow clock whose absolute TSCs pass int64 ns: times count from the first TSC */
    memset(&b, 0, sizeof b);
    lb_header(&b, 5, 1, 1000, 0);
    lb_begin_buffer(&b, 5, 1, 1, 0, 1ull << 60);
    lb_fn(&b, XRAY_ENTRY, 1, 0);
    lb_fn(&b, XRAY_EXIT, 1, 3);
    lb_end_buffer(&b);
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
    lb_put(&b, 0x7fffffffffffffffull, 8);
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
        lb_header(&b, 5, 1, 1000000000, 0);
        lb_begin_buffer(&b, 5, 1, 1, 0, 10);
        lb_meta(&b, XRAY_M_CUSTOM_EVENT, (uint32_t)sizes[i], 4, 0, 4);
        lb_end_buffer(&b);
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
    lb_header(&b, 1, 1, 1000000000, 1ull << 62);
    lb_meta(&b, XRAY_M_NEW_BUFFER, 1, 2, 0, 0);
    lb_meta(&b, XRAY_M_END_OF_BUFFER, 0, 0, 0, 0);
    lb_meta(&b, 77, 0, 0, 0, 0);
    r = read_log(b.d, b.n, false, NULL);
    assert_int_equal(r->rc, -1);
    assert_non_null(strstr(r->err.msg, "offset 64: unknown metadata record kind 77"));
    free_result(r);
    memset(&b, 0, sizeof b);
    lb_header(&b, 5, 1, 1000000000, 0);
    lb_begin_buffer(&b, 5, 1, 1, 0, 10);
    lb_put(&b, 5u << 1, 4);
    lb_put(&b, 0, 4);
    lb_end_buffer(&b);
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
