/* The FXT reader on hand-built records: inline strings and threads, records
 * only other writers make (logs, blobs, unknown types), and each deviation
 * strict mode must refuse with its offset while liberal mode reads on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxt_format.h"
#include "fxt_reader.h"
#include "test_fxt_util.h"

static fxt_words *new_words(void)
{
    fxt_words *s = calloc(1, sizeof *s);
    assert_non_null(s);
    return s;
}

static uint64_t event_hdr(unsigned size, unsigned type, unsigned nargs, unsigned thr, unsigned cat,
                          unsigned name)
{
    return FXT_REC_EVENT | (uint64_t)size << 4 | (uint64_t)type << 16 | (uint64_t)nargs << 20 |
           (uint64_t)thr << 24 | (uint64_t)cat << 32 | (uint64_t)name << 48;
}

static void inline_strings_and_threads(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_string(s, 1, "count");
    /* complete event, inline thread (7, 8), inline cat "cat", inline name "a name!!" */
    fxt_put(s, event_hdr(11, FXT_EV_COMPLETE, 2, 0, 0x8003, 0x8008));
    fxt_put(s, 2000);
    fxt_put(s, 7);
    fxt_put(s, 8);
    fxt_put_str(s, "cat");
    fxt_put_str(s, "a name!!");
    /* string arg: inline name "k", inline value "value" */
    fxt_put(s, FXT_ARG_STRING | 3u << 4 | 0x8001ull << 16 | 0x8005ull << 32);
    fxt_put_str(s, "k");
    fxt_put_str(s, "value");
    fxt_put(s, FXT_ARG_I32 | 1u << 4 | 1ull << 16 | (uint64_t)(uint32_t)-7 << 32); /* indexed name */
    fxt_put(s, 2500);
    /* kernel object: thread 8 of process 7, inline name "worker" */
    fxt_put(s, FXT_REC_KOBJ | 6u << 4 | (uint64_t)FXT_KOBJ_THREAD << 16 | 0x8006ull << 24 | 1ull << 40);
    fxt_put(s, 8);
    fxt_put_str(s, "worker");
    fxt_put(s, FXT_ARG_KOID | 3u << 4 | 0x8007ull << 16);
    fxt_put_str(s, "process");
    fxt_put(s, 7);
    /* log record on inline thread (7, 9) */
    fxt_put(s, FXT_REC_LOG | 5u << 4 | 5ull << 16);
    fxt_put(s, 3000);
    fxt_put(s, 7);
    fxt_put(s, 9);
    fxt_put_str(s, "hello");
    /* context switch on cpu 2, inline threads out (7, 8) -> in (7, 9) */
    fxt_put(s, FXT_REC_CSWITCH | 6u << 4 | 2ull << 16 | 3ull << 24 | 10ull << 44 | 20ull << 52);
    fxt_put(s, 4000);
    fxt_put(s, 7);
    fxt_put(s, 8);
    fxt_put(s, 7);
    fxt_put(s, 9);

    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer out;
    gt_error err;
    fxt_warns w;
    if (fxt_read_into((const uint8_t *)s->w, s->n * 8, true, &tl, &out, &w, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.count, 4);
    const gt_tl_event *e = &out.events[0];
    assert_int_equal(e->kind, GT_TL_COMPLETE);
    assert_true(e->ts == 2000 && e->dur == 500 && e->pid == 7 && e->tid == 8);
    assert_string_equal(fxt_str(&tl, e->cat), "cat");
    assert_string_equal(fxt_str(&tl, e->name), "a name!!");
    assert_int_equal(e->nargs, 2);
    assert_string_equal(fxt_str(&tl, e->args[0].name), "k");
    assert_int_equal(e->args[0].kind, GT_TL_ARG_STRING);
    assert_int_equal(e->args[0].v.s.len, 5);
    assert_memory_equal(e->args[0].v.s.p, "value", 5);
    assert_string_equal(fxt_str(&tl, e->args[1].name), "count");
    assert_true(e->args[1].kind == GT_TL_ARG_I32 && e->args[1].v.i == -7);
    e = &out.events[1];
    assert_int_equal(e->kind, GT_TL_THREAD_NAME);
    assert_true(e->pid == 7 && e->tid == 8 && e->nargs == 0);
    assert_string_equal(fxt_str(&tl, e->name), "worker");
    e = &out.events[2];
    assert_int_equal(e->kind, GT_TL_INSTANT);
    assert_true(e->ts == 3000 && e->pid == 7 && e->tid == 9 && e->nargs == 1);
    assert_memory_equal(e->args[0].v.s.p, "hello", 5);
    e = &out.events[3];
    assert_int_equal(e->kind, GT_TL_CONTEXT_SWITCH);
    assert_true(e->ts == 4000 && e->cs.cpu == 2 && e->cs.out_state == 3);
    assert_true(e->cs.out_pid == 7 && e->cs.out_tid == 8 && e->cs.in_pid == 7 && e->cs.in_tid == 9);
    assert_true(e->cs.out_prio == 10 && e->cs.in_prio == 20);
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
    free(s);
}

/* Records to skip: blob, userspace object, unknown type, unknown event and
 * argument types, another scheduling record, provider section, a tick rate. */
static void skipped_records_and_tick_rate(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put(s, FXT_MAGIC_WORD);
    fxt_put(s, FXT_REC_INIT | 2u << 4);
    fxt_put(s, 3000000000u); /* 3 GHz: 3 ticks per ns */
    fxt_put(s, FXT_REC_METADATA | 1u << 4 | (uint64_t)FXT_META_PROVIDER_SECTION << 16);
    fxt_put_thread(s, 1, 5, 6);
    fxt_put(s, FXT_REC_BLOB | 2u << 4 | 3ull << 32 | 1ull << 48);
    fxt_put(s, 0x030201);
    fxt_put(s, FXT_REC_USEROBJ | 2u << 4 | 1ull << 16);
    fxt_put(s, 0xdeadbeef);
    fxt_put(s, 12u | 3u << 4); /* unknown record type 12 */
    fxt_put(s, 1);
    fxt_put(s, 2);
    fxt_put(s, event_hdr(2, 13, 0, 1, 0, 0)); /* unknown event type */
    fxt_put(s, 1);
    fxt_put(s, FXT_REC_CSWITCH | 3u << 4 | 2ull << 60); /* a newer scheduling record */
    fxt_put(s, 1);
    fxt_put(s, 2);
    /* instant with an unknown argument type (11, 2 words) then a bool */
    fxt_put(s, event_hdr(5, FXT_EV_INSTANT, 2, 1, 0, 0));
    fxt_put(s, 3000000000ull * 2);
    fxt_put(s, 11u | 2u << 4);
    fxt_put(s, 99);
    fxt_put(s, FXT_ARG_BOOL | 1u << 4 | 1ull << 32);
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer out;
    gt_error err;
    fxt_warns w;
    if (fxt_read_into((const uint8_t *)s->w, s->n * 8, true, &tl, &out, &w, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.count, 1);
    assert_true(out.events[0].ts == 2000000000ll && out.events[0].pid == 5 && out.events[0].tid == 6);
    assert_int_equal(out.events[0].nargs, 1);
    assert_true(out.events[0].args[0].kind == GT_TL_ARG_BOOL && out.events[0].args[0].v.b);
    assert_int_equal(w.n, 3); /* unknown event type, argument type, scheduling record */
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
    free(s);
}

/* An archive of two providers: each has its own string and thread tables,
 * switched by provider info and provider section records; records before the
 * first provider record belong to the first provider. */
static void providers_have_their_own_tables(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_thread(s, 1, 10, 11);
    fxt_put(s, FXT_REC_METADATA | 2u << 4 | (uint64_t)FXT_META_PROVIDER_INFO << 16 | 1ull << 20 |
                   1ull << 52);
    fxt_put_str(s, "A");
    fxt_put_string(s, 1, "from A");
    fxt_put(s, FXT_REC_METADATA | 2u << 4 | (uint64_t)FXT_META_PROVIDER_INFO << 16 | 2ull << 20 |
                   1ull << 52);
    fxt_put_str(s, "B");
    fxt_put_string(s, 1, "from B");
    fxt_put_thread(s, 1, 20, 21);
    fxt_put(s, event_hdr(2, FXT_EV_INSTANT, 0, 1, 0, 1));
    fxt_put(s, 5);
    fxt_put(s, FXT_REC_METADATA | 1u << 4 | (uint64_t)FXT_META_PROVIDER_SECTION << 16 | 1ull << 20);
    fxt_put(s, event_hdr(2, FXT_EV_INSTANT, 0, 1, 0, 1));
    fxt_put(s, 6);
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer out;
    gt_error err;
    if (fxt_read_into((const uint8_t *)s->w, s->n * 8, true, &tl, &out, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(out.count, 2);
    assert_string_equal(fxt_str(&tl, out.events[0].name), "from B");
    assert_true(out.events[0].pid == 20 && out.events[0].tid == 21);
    assert_string_equal(fxt_str(&tl, out.events[1].name), "from A");
    assert_true(out.events[1].pid == 10 && out.events[1].tid == 11);
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
    free(s);
}

/* Strict mode refuses s with a message naming offset `off` and containing
 * `what`; liberal mode reads it with warnings when `liberal_ok`. */
static void check_bad(fxt_words *s, uint64_t off, const char *what, bool liberal_ok)
{
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer out;
    gt_error err;
    fxt_warns w;
    assert_int_equal(fxt_read_into((const uint8_t *)s->w, s->n * 8, true, &tl, &out, &w, &err), -1);
    char want[64];
    snprintf(want, sizeof want, "t.fxt: offset %llu: ", (unsigned long long)off);
    if (strncmp(err.msg, want, strlen(want)) != 0 || !strstr(err.msg, what))
        fail_msg("got \"%s\", want \"%s...%s\"", err.msg, want, what);
    gt_tl_buffer_free(&out);
    int rc = fxt_read_into((const uint8_t *)s->w, s->n * 8, false, &tl, &out, &w, &err);
    if (liberal_ok) {
        if (rc)
            fail_msg("liberal: %s", err.msg);
        assert_true(w.n >= 1);
        assert_non_null(strstr(w.last, "t.fxt: offset "));
    } else {
        assert_int_equal(rc, -1);
    }
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
    free(s);
}

static void bad_magic(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put(s, FXT_REC_INIT | 2u << 4);
    fxt_put(s, 1000000000u);
    check_bad(s, 0, "magic", true);
}

static void reserved_bits(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put(s, FXT_REC_THREAD | 3u << 4 | 1ull << 16 | 1ull << 40);
    fxt_put(s, 1);
    fxt_put(s, 2);
    check_bad(s, 24, "reserved bits", true);
}

static void nonzero_padding(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_string(s, 1, "abc");
    s->w[s->n - 1] |= 0x2aull << 40; /* byte 5 of the stream */
    check_bad(s, 32 + 5, "padding", true);
}

static void truncated_record(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_thread(s, 1, 1, 2);
    fxt_put(s, event_hdr(4, FXT_EV_COMPLETE, 0, 1, 0, 0));
    fxt_put(s, 10);
    check_bad(s, 48, "truncated record", true);
}

static void record_of_size_zero(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put(s, FXT_REC_STRING | 1ull << 16);
    check_bad(s, 24, "size 0", false); /* cannot be skipped: refused in both modes */
}

static void undefined_string_ref(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_thread(s, 1, 1, 2);
    fxt_put(s, event_hdr(2, FXT_EV_INSTANT, 0, 1, 0, 5));
    fxt_put(s, 10);
    check_bad(s, 48, "string ref 5", true);
}

static void undefined_thread_ref(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put(s, event_hdr(2, FXT_EV_INSTANT, 0, 9, 0, 0));
    fxt_put(s, 10);
    check_bad(s, 24, "thread ref 9", true);
}

static void argument_size_overflow(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_thread(s, 1, 1, 2);
    fxt_put(s, event_hdr(4, FXT_EV_INSTANT, 1, 1, 0, 0));
    fxt_put(s, 10);
    fxt_put(s, FXT_ARG_U64 | 9u << 4); /* 9 words, 2 left in the record */
    fxt_put(s, 1);
    check_bad(s, 64, "overruns", true);
}

static void argument_size_zero(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put_thread(s, 1, 1, 2);
    fxt_put(s, event_hdr(4, FXT_EV_INSTANT, 1, 1, 0, 0));
    fxt_put(s, 10);
    fxt_put(s, FXT_ARG_U64); /* size 0, as some writers do */
    fxt_put(s, 1);
    check_bad(s, 64, "size 0", true);
}

static void no_initialization(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put(s, FXT_MAGIC_WORD);
    fxt_put_thread(s, 1, 1, 2);
    fxt_put(s, event_hdr(2, FXT_EV_INSTANT, 0, 1, 0, 0));
    fxt_put(s, 10);
    check_bad(s, 32, "initialization", true);
}

static void words_after_content(void **state)
{
    (void)state;
    fxt_words *s = new_words();
    fxt_put_start(s);
    fxt_put(s, FXT_REC_THREAD | 4u << 4 | 1ull << 16);
    fxt_put(s, 1);
    fxt_put(s, 2);
    fxt_put(s, 0);
    check_bad(s, 48, "after the record", true);
}

static void empty_and_big_endian(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer out;
    gt_error err;
    assert_int_equal(fxt_read_into((const uint8_t *)"", 0, true, &tl, &out, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "empty"));
    gt_tl_buffer_free(&out);
    uint64_t be = __builtin_bswap64(FXT_MAGIC_WORD);
    assert_int_equal(fxt_read_into((const uint8_t *)&be, 8, false, &tl, &out, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "big-endian"));
    gt_tl_buffer_free(&out);
    uint8_t odd[11] = {0x10, 0, 4, 0x46, 0x78, 0x54, 0x16, 0}; /* magic + 3 stray bytes */
    assert_int_equal(fxt_read_into(odd, sizeof odd, true, &tl, &out, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "offset 8: truncated"));
    gt_tl_buffer_free(&out);
    gt_timeline_free(&tl);
}

void test_fxt_bad_register(struct CMUnitTest *t, size_t *n)
{
    const struct CMUnitTest mine[] = {
        cmocka_unit_test(inline_strings_and_threads), cmocka_unit_test(skipped_records_and_tick_rate),
        cmocka_unit_test(bad_magic),                  cmocka_unit_test(reserved_bits),
        cmocka_unit_test(nonzero_padding),            cmocka_unit_test(truncated_record),
        cmocka_unit_test(record_of_size_zero),        cmocka_unit_test(undefined_string_ref),
        cmocka_unit_test(undefined_thread_ref),       cmocka_unit_test(argument_size_overflow),
        cmocka_unit_test(argument_size_zero),         cmocka_unit_test(no_initialization),
        cmocka_unit_test(words_after_content),        cmocka_unit_test(empty_and_big_endian),
        cmocka_unit_test(providers_have_their_own_tables),
    };
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
        t[(*n)++] = mine[i];
}
