/* The FXT writer and reader: every record and argument type written and read
 * back field for field, table overflows, FXT -> model -> FXT byte identity,
 * limits, files read in chunks. Bad input: test_fxt_bad.c; corpus:
 * test_fxt_corpus.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fxt_format.h"
#include "fxt_reader.h"
#include "fxt_writer.h"
#include "test_fxt_util.h"

static gt_tl_str S(gt_timeline *tl, const char *s) { return gt_tl_intern_cstr(tl, s); }

static void emit(gt_tl_buffer *b, const gt_timeline *tl, const gt_tl_event *ev)
{
    gt_tl_sink s = gt_tl_buffer_sink(b);
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_tl_emit(&s, tl, ev, &err), 0);
}

/* One event of every kind, every argument type, markers and stacks. */
static void varied_timeline(gt_timeline *tl, gt_tl_buffer *b)
{
    gt_tl_buffer_init(b);
    gt_tl_arg all[] = {
        {.name = S(tl, "null"), .kind = GT_TL_ARG_NULL},
        {.name = S(tl, "i32"), .kind = GT_TL_ARG_I32, .v.i = -123456},
        {.name = S(tl, "u32"), .kind = GT_TL_ARG_U32, .v.u = 4000000000u},
        {.name = S(tl, "i64"), .kind = GT_TL_ARG_I64, .v.i = -5000000000ll},
        {.name = S(tl, "u64"), .kind = GT_TL_ARG_U64, .v.u = 0xfedcba9876543210ull},
        {.name = S(tl, "dbl"), .kind = GT_TL_ARG_DOUBLE, .v.d = -2.5e-300},
        {.name = S(tl, "str"), .kind = GT_TL_ARG_STRING, .v.s = {"hello, world", 12}},
        {.name = S(tl, "empty"), .kind = GT_TL_ARG_STRING, .v.s = {"", 0}},
        {.name = S(tl, "str8"), .kind = GT_TL_ARG_STRING, .v.s = {"8 bytes!", 8}},
        {.name = S(tl, "ptr"), .kind = GT_TL_ARG_POINTER, .v.u = 0x7fff12345678ull},
        {.name = S(tl, "koid"), .kind = GT_TL_ARG_KOID, .v.u = 77},
        {.name = S(tl, "yes"), .kind = GT_TL_ARG_BOOL, .v.b = true},
        {.name = S(tl, "no"), .kind = GT_TL_ARG_BOOL, .v.b = false},
    };
    gt_tl_arg two[] = {{.name = S(tl, "call"), .kind = GT_TL_ARG_U32, .v.u = 42},
                       {.name = S(tl, "value"), .kind = GT_TL_ARG_DOUBLE, .v.d = 1.5}};
    gt_tl_str gl = S(tl, "gl"), draw = S(tl, "glDrawArrays");
    gt_tl_event evs[] = {
        {.kind = GT_TL_PROCESS_NAME, .pid = 100, .name = S(tl, "game")},
        {.kind = GT_TL_THREAD_NAME, .pid = 100, .tid = 101, .name = S(tl, "main")},
        {.kind = GT_TL_THREAD_NAME, .pid = 100, .tid = GT_TL_GPU_TID(100), .name = S(tl, "GPU")},
        {.kind = GT_TL_STACK_FRAME, .id = 1, .parent = 0, .name = S(tl, "main"), .cat = S(tl, "game")},
        {.kind = GT_TL_STACK_FRAME, .id = 2, .parent = 1, .name = S(tl, "draw"), .cat = S(tl, "game")},
        {.kind = GT_TL_COMPLETE, .ts = 1000, .dur = 250, .pid = 100, .tid = 101, .cat = gl,
         .name = draw, .nargs = 13, .args = all, .stack = 2},
        {.kind = GT_TL_COMPLETE, .ts = -50, .dur = 0, .pid = 100, .tid = 101, .cat = gl, .name = draw,
         .nargs = 2, .args = two},
        {.kind = GT_TL_BEGIN, .ts = 2000, .pid = 100, .tid = 101, .cat = gl, .name = S(tl, "frame")},
        {.kind = GT_TL_END, .ts = 3000, .pid = 100, .tid = 101},
        {.kind = GT_TL_INSTANT, .ts = 3100, .pid = 100, .tid = 101, .name = S(tl, "mark")},
        {.kind = GT_TL_INSTANT, .ts = 3101, .pid = 100, .tid = 0, .name = S(tl, "pmark"),
         .scope = GT_TL_SCOPE_PROCESS},
        {.kind = GT_TL_INSTANT, .ts = 3102, .pid = 100, .tid = 101, .name = S(tl, "gmark"),
         .scope = GT_TL_SCOPE_GLOBAL, .stack = 1},
        {.kind = GT_TL_COUNTER, .ts = 3200, .pid = 100, .name = S(tl, "mem"), .id = 9, .nargs = 2,
         .args = two},
        {.kind = GT_TL_ASYNC_BEGIN, .ts = 3300, .pid = 100, .tid = 101, .name = S(tl, "load"), .id = 5},
        {.kind = GT_TL_ASYNC_INSTANT, .ts = 3400, .pid = 100, .tid = 102, .name = S(tl, "load"), .id = 5},
        {.kind = GT_TL_ASYNC_END, .ts = 3500, .pid = 100, .tid = 101, .name = S(tl, "load"), .id = 5},
        {.kind = GT_TL_FLOW_BEGIN, .ts = 3600, .pid = 100, .tid = 101, .name = S(tl, "f"), .id = 7},
        {.kind = GT_TL_FLOW_STEP, .ts = 3700, .pid = 100, .tid = 102, .name = S(tl, "f"), .id = 7},
        {.kind = GT_TL_FLOW_END, .ts = 3800, .pid = 100, .tid = GT_TL_GPU_TID(100), .name = S(tl, "f"),
         .id = 7},
        {.kind = GT_TL_OBJECT, .ts = 3900, .pid = 100, .tid = 101, .name = S(tl, "Tex"), .scope = 'N',
         .id = 0x1234},
        {.kind = GT_TL_OBJECT, .ts = 3901, .pid = 100, .tid = 101, .name = S(tl, "Tex"), .scope = 'O',
         .id = 0x1234, .nargs = 1, .args = two},
        {.kind = GT_TL_OBJECT, .ts = 3902, .pid = 100, .tid = 101, .name = S(tl, "Tex"), .scope = 'D',
         .id = 0x1234},
        {.kind = GT_TL_SAMPLE, .ts = 4000, .pid = 100, .tid = 101, .name = S(tl, "sample"), .stack = 2},
        {.kind = GT_TL_CONTEXT_SWITCH, .ts = 5000,
         .cs = {.cpu = 3, .out_state = 3, .out_pid = 100, .out_tid = 101, .in_pid = 200,
                .in_tid = 201, .out_prio = 20, .in_prio = 120}},
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        emit(b, tl, &evs[i]);
}

static void every_kind_reads_back_exactly(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer in, out;
    varied_timeline(&tl, &in);
    fxt_bytes f = fxt_write_buffer(&in, &tl);
    gt_error err;
    fxt_warns w;
    int rc = fxt_read_into(f.p, f.n, true, &tl, &out, &w, &err);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(w.n, 0);
    assert_int_equal(out.count, in.count);
    for (size_t i = 0; i < in.count; i++)
        fxt_assert_event_equal(&in.events[i], &out.events[i]);
    free(f.p);
    gt_tl_buffer_free(&in);
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
}

/* Writes b, reads it into a fresh timeline, writes that again: same bytes. */
static void assert_rewrite_identical(const gt_tl_buffer *b, const gt_timeline *tl)
{
    fxt_bytes f1 = fxt_write_buffer(b, tl);
    gt_timeline tl2;
    assert_int_equal(gt_timeline_init(&tl2), 0);
    gt_tl_buffer mid;
    gt_error err;
    if (fxt_read_into(f1.p, f1.n, true, &tl2, &mid, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(mid.count, b->count);
    fxt_bytes f2 = fxt_write_buffer(&mid, &tl2);
    assert_int_equal(f1.n, f2.n);
    assert_memory_equal(f1.p, f2.p, f1.n);
    free(f1.p);
    free(f2.p);
    gt_tl_buffer_free(&mid);
    gt_timeline_free(&tl2);
}

static void fxt_model_fxt_is_byte_identical(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer b;
    varied_timeline(&tl, &b);
    assert_rewrite_identical(&b, &tl);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

/* The wall-clock anchor travels as one marker record: read back into the
 * timeline context, not as an event, and rewritten identically. */
static void clock_anchor_round_trip(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer b;
    varied_timeline(&tl, &b);
    tl.has_wall = true;
    tl.wall_offset_ns = -1234567890123456789ll;
    tl.has_mono = true;
    tl.mono_offset_ns = 42;
    fxt_bytes f = fxt_write_buffer(&b, &tl);
    gt_timeline tl2;
    assert_int_equal(gt_timeline_init(&tl2), 0);
    gt_tl_buffer out;
    gt_error err;
    if (fxt_read_into(f.p, f.n, true, &tl2, &out, NULL, &err))
        fail_msg("%s", err.msg);
    assert_true(tl2.has_wall);
    assert_int_equal(tl2.wall_offset_ns, -1234567890123456789ll);
    assert_true(tl2.has_mono);
    assert_int_equal(tl2.mono_offset_ns, 42);
    assert_int_equal(out.count, b.count);
    fxt_bytes f2 = fxt_write_buffer(&out, &tl2);
    assert_int_equal(f.n, f2.n);
    assert_memory_equal(f.p, f2.p, f.n);
    free(f.p);
    free(f2.p);
    gt_tl_buffer_free(&out);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl2);
    gt_timeline_free(&tl);
}

static void header_records_are_exact(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer b;
    gt_tl_buffer_init(&b);
    fxt_bytes f = fxt_write_buffer(&b, &tl);
    /* magic, initialization 1e9, provider info "gltrace" (provider 0) */
    static const uint64_t want[] = {FXT_MAGIC_WORD, 0x21, 1000000000u,
                                    0x0070000000010020ull, 0x0065636172746c67ull};
    assert_int_equal(f.n, sizeof want);
    assert_memory_equal(f.p, want, sizeof want);
    free(f.p);
    gt_tl_buffer_free(&b);
    gt_timeline_free(&tl);
}

/* An event naming string i, on thread i % nthreads. */
static gt_tl_event numbered(gt_timeline *tl, unsigned i, unsigned nthreads, char *name)
{
    snprintf(name, 32, "name-%u", i);
    return (gt_tl_event){.kind = GT_TL_INSTANT, .ts = i, .pid = 1 + (i % nthreads) / 7,
                         .tid = 1000 + i % nthreads, .name = S(tl, name)};
}

static void overflow_roundtrip(unsigned nstrings, unsigned nthreads)
{
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer b;
    gt_tl_buffer_init(&b);
    char name[32];
    for (unsigned i = 0; i < nstrings; i++) {
        gt_tl_event ev = numbered(&tl, i, nthreads, name);
        emit(&b, &tl, &ev);
    }
    for (unsigned i = 0; i < 300; i++) { /* the oldest strings and threads again */
        gt_tl_event ev = numbered(&tl, i, nthreads, name);
        emit(&b, &tl, &ev);
    }
    fxt_bytes f = fxt_write_buffer(&b, &tl);
    gt_tl_buffer out;
    gt_error err;
    if (fxt_read_into(f.p, f.n, true, &tl, &out, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.count, b.count);
    for (size_t i = 0; i < b.count; i++)
        fxt_assert_event_equal(&b.events[i], &out.events[i]);
    assert_rewrite_identical(&b, &tl);
    free(f.p);
    gt_tl_buffer_free(&b);
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
}

static void string_table_overflow(void **state)
{
    (void)state;
    overflow_roundtrip(40000, 3);
}

static void thread_table_overflow(void **state)
{
    (void)state;
    overflow_roundtrip(1000, 300);
}

/* Strings beyond 32000 bytes are cut; a record never exceeds 4095 words. */
static void long_strings_are_cut_to_fit(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    size_t big = 40000;
    char *s = malloc(big);
    assert_non_null(s);
    for (size_t i = 0; i < big; i++)
        s[i] = (char)('a' + i % 26);
    gt_tl_arg args[15];
    for (int i = 0; i < 15; i++) {
        char n[8];
        snprintf(n, sizeof n, "a%d", i);
        args[i] = (gt_tl_arg){.name = S(&tl, n), .kind = GT_TL_ARG_STRING, .v.s = {s, (uint32_t)big}};
    }
    gt_tl_buffer b;
    gt_tl_buffer_init(&b);
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .ts = 1, .dur = 2, .pid = 1, .tid = 1,
                      .name = gt_tl_intern(&tl, s, big), .nargs = 15, .args = args};
    emit(&b, &tl, &ev);
    fxt_bytes f = fxt_write_buffer(&b, &tl);
    gt_tl_buffer out;
    gt_error err;
    if (fxt_read_into(f.p, f.n, true, &tl, &out, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.count, 1);
    const gt_tl_event *r = &out.events[0];
    uint32_t len;
    gt_tl_str_get(&tl, r->name, &len);
    assert_int_equal(len, FXT_MAX_STRING_LEN);
    assert_int_equal(r->nargs, 15);
    assert_int_equal(r->args[0].v.s.len, FXT_MAX_STRING_LEN);
    uint32_t total = 0;
    for (int i = 0; i < 15; i++) {
        assert_memory_equal(r->args[i].v.s.p, s, r->args[i].v.s.len); /* a prefix */
        total += (r->args[i].v.s.len + 7) / 8;
    }
    assert_true(2 + 1 + 15 + total <= FXT_MAX_RECORD_WORDS);
    assert_int_equal(2 + 1 + 15 + total, FXT_MAX_RECORD_WORDS); /* filled exactly */
    free(f.p);
    free(s);
    gt_tl_buffer_free(&b);
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
}

/* Through files: more than one read chunk, and a large record to skip. */
static void file_read_in_chunks(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/test_fxt_%d.fxt", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    gt_error err;
    gt_error_clear(&err);
    gt_fxt_writer *w = gt_fxt_writer_open(path, "unit", &err);
    assert_non_null(w);
    gt_tl_sink sink = gt_fxt_writer_sink(w);
    gt_tl_arg arg = {.name = S(&tl, "n"), .kind = GT_TL_ARG_U64};
    gt_tl_event ev = {.kind = GT_TL_COMPLETE, .pid = 1, .tid = 2, .name = S(&tl, "x"), .nargs = 1,
                      .args = &arg};
    const unsigned n = 200000; /* 5 words each: 8 MB, several chunks and flushes */
    for (unsigned i = 0; i < n; i++) {
        ev.ts = i * 10;
        ev.dur = 5;
        arg.v.u = i;
        assert_int_equal(gt_tl_emit(&sink, &tl, &ev, &err), 0);
    }
    assert_int_equal(gt_fxt_writer_flush(w, &err), 0);
    gt_fxt_writer_free(w);
    /* a large blob record of 2 MiB, then one more event */
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    uint64_t words = (2u << 20) / 8, hdr = FXT_REC_LARGE | words << 4 | 1ull << 40;
    fwrite(&hdr, 8, 1, f);
    uint64_t zero = 0, fmt = 0;
    fwrite(&fmt, 8, 1, f);
    for (uint64_t i = 2; i < words; i++)
        fwrite(&zero, 8, 1, f);
    uint64_t tail[] = {FXT_REC_EVENT | 2u << 4 | 1u << 24, 7};
    fwrite(tail, 8, 2, f);
    fclose(f);
    gt_tl_counts c = {{0}};
    gt_tl_sink cs = gt_tl_counts_sink(&c);
    gt_tl_read_opts opts = {.strict = true};
    if (gt_fxt_read(path, &tl, &cs, &opts, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(c.n[GT_TL_COMPLETE], n);
    assert_int_equal(c.n[GT_TL_INSTANT], 1);
    remove(path);
    gt_timeline_free(&tl);
}

int main(void)
{
    struct CMUnitTest tests[64] = {
        cmocka_unit_test(every_kind_reads_back_exactly),
        cmocka_unit_test(fxt_model_fxt_is_byte_identical),
        cmocka_unit_test(clock_anchor_round_trip),
        cmocka_unit_test(header_records_are_exact),
        cmocka_unit_test(string_table_overflow),
        cmocka_unit_test(thread_table_overflow),
        cmocka_unit_test(long_strings_are_cut_to_fit),
        cmocka_unit_test(file_read_in_chunks),
    };
    size_t n = 7;
    test_fxt_bad_register(tests, &n);
    test_fxt_corpus_register(tests, &n);
    return _cmocka_run_group_tests("fxt", tests, n, NULL, NULL);
}
