/* Reader behaviour beyond single values: calls in leave order, calls never left,
 * leave events without an enter, the event-level API, flags derived from names and
 * return values, and the end of a stream that stops inside an event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"

static const char *x_args[] = {"x"};

/* enter of call with sig 0 "f(x)" (first use when first), arg x = value, end */
static void enter_f(tb_buf *b, uint32_t thread, bool first, uint64_t x)
{
    tb_enter(b, 6, thread, 0);
    if (first)
        tb_func_sig(b, "f", 1, x_args);
    tb_byte(b, AT_DETAIL_ARG);
    tb_uint(b, 0);
    tb_byte(b, AT_TYPE_UINT);
    tb_uint(b, x);
    tb_byte(b, AT_DETAIL_END);
}

static void leave_plain(tb_buf *b, uint32_t no)
{
    tb_leave(b, no);
    tb_byte(b, AT_DETAIL_END);
}

static char *dump_stream(const tb_buf *s, char **warning, char **error)
{
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(s, &file, &err);
    assert_non_null(r);
    char *text = tb_dump_all(r, error, warning);
    at_reader_close(r);
    free(file);
    return text;
}

static void test_leave_order_and_incomplete(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    enter_f(&s, 1, true, 0);
    enter_f(&s, 2, false, 1);
    leave_plain(&s, 1);
    leave_plain(&s, 0);
    enter_f(&s, 1, false, 2);
    enter_f(&s, 3, false, 3); /* 2 and 3 never leave */
    enter_f(&s, 1, false, 4);
    leave_plain(&s, 4);
    char *warning, *error;
    char *text = dump_stream(&s, &warning, &error);
    assert_string_equal(text, "1 @2 f(x = 1)\n"
                              "0 @1 f(x = 0)\n"
                              "4 @1 f(x = 4)\n"
                              "2 @1 f(x = 2) // incomplete\n"
                              "3 @3 f(x = 3) // incomplete\n");
    assert_null(error);
    assert_true(tb_contains(warning, "mem.trace: offset"));
    assert_true(tb_contains(warning, "2 call(s) left incomplete"));
    free(text);
    free(warning);
    tb_free(&s);
}

/* A leave whose enter the trace lacks (trimmed traces, lost chunks) is parsed and
 * dropped, its details included. */
static void test_unknown_leave_skipped(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    tb_leave(&s, 7);
    tb_byte(&s, AT_DETAIL_ARG);
    tb_uint(&s, 2);
    tb_byte(&s, AT_TYPE_STRING);
    tb_str(&s, "out");
    tb_byte(&s, AT_DETAIL_RET);
    tb_byte(&s, AT_TYPE_UINT);
    tb_uint(&s, 5);
    tb_byte(&s, AT_DETAIL_BACKTRACE);
    tb_uint(&s, 1);
    tb_uint(&s, 0);
    tb_byte(&s, AT_FRAME_MODULE);
    tb_str(&s, "m");
    tb_byte(&s, AT_FRAME_END);
    tb_byte(&s, AT_DETAIL_END);
    enter_f(&s, 0, true, 9);
    leave_plain(&s, 0);
    leave_plain(&s, 0); /* a second leave for the same call: unknown by now */
    enter_f(&s, 0, false, 10);
    tb_leave(&s, 1);
    tb_byte(&s, AT_DETAIL_RET);
    tb_byte(&s, AT_TYPE_TRUE);
    tb_byte(&s, AT_DETAIL_END);
    char *warning, *error;
    char *text = dump_stream(&s, &warning, &error);
    /* the skipped leave's return value must not leak into the next calls */
    assert_string_equal(text, "0 @0 f(x = 9)\n1 @0 f(x = 10) = true\n");
    assert_null(error);
    assert_null(warning);
    free(text);
    tb_free(&s);
}

static void test_event_api(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    enter_f(&s, 0, true, 0);
    enter_f(&s, 0, false, 1);
    leave_plain(&s, 1);
    leave_plain(&s, 0);
    enter_f(&s, 0, false, 2);
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    static const struct { at_event_kind kind; uint32_t no; } want[] = {
        {AT_EV_ENTER, 0}, {AT_EV_ENTER, 1}, {AT_EV_LEAVE, 1},
        {AT_EV_LEAVE, 0}, {AT_EV_ENTER, 2}, {AT_EV_INCOMPLETE, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
        at_event_kind kind;
        gt_call *c = at_reader_next_event(r, &kind);
        assert_non_null(c);
        assert_int_equal(kind, want[i].kind);
        assert_int_equal(c->no, want[i].no);
        assert_int_equal(c->args[0].u, want[i].no); /* arguments are there at enter */
        if (kind != AT_EV_ENTER)
            at_reader_release(r, c);
    }
    at_event_kind kind;
    assert_null(at_reader_next_event(r, &kind));
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

/* Flags from the function name, and glGetError() = 0 hidden as verbose. */
static void test_call_flags(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    const char *names[] = {"glGetError", "glXSwapBuffers", "glDrawArrays", "glGetError"};
    const int64_t rets[] = {0, -1, -1, 0x500};
    for (uint32_t i = 0; i < 4; ++i) {
        uint32_t id = i == 3 ? 0 : i;
        tb_enter(&s, 6, 0, id);
        if (i < 3)
            tb_func_sig(&s, names[i], 0, NULL);
        tb_byte(&s, AT_DETAIL_END);
        tb_leave(&s, i);
        if (rets[i] >= 0) {
            tb_byte(&s, AT_DETAIL_RET);
            tb_byte(&s, AT_TYPE_UINT);
            tb_uint(&s, (uint64_t)rets[i]);
        }
        tb_byte(&s, AT_DETAIL_END);
    }
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    gt_call *c[4];
    for (int i = 0; i < 4; ++i)
        assert_non_null(c[i] = at_reader_next(r));
    assert_true(c[0]->flags & GT_CALL_FLAG_VERBOSE);
    assert_true(c[0]->flags & GT_CALL_FLAG_NO_SIDE_EFFECTS);
    assert_true(c[1]->flags & GT_CALL_FLAG_END_FRAME);
    assert_true(c[2]->flags & GT_CALL_FLAG_RENDER);
    assert_false(c[2]->flags & GT_CALL_FLAG_END_FRAME);
    assert_false(c[3]->flags & GT_CALL_FLAG_VERBOSE); /* an error is worth showing */
    for (int i = 0; i < 4; ++i)
        at_reader_release(r, c[i]);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

/* Arguments past the signature's count extend the call; gaps stay absent. */
static void test_args_beyond_signature(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    tb_enter(&s, 6, 0, 0);
    tb_func_sig(&s, "f", 1, x_args);
    tb_byte(&s, AT_DETAIL_ARG);
    tb_uint(&s, 3);
    tb_byte(&s, AT_TYPE_FALSE);
    tb_byte(&s, AT_DETAIL_END);
    leave_plain(&s, 0);
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    gt_call *c = at_reader_next(r);
    assert_non_null(c);
    assert_int_equal(c->sig->num_args, 1);
    assert_int_equal(c->num_args, 4);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(c->args[i].kind, GT_ABSENT);
    assert_int_equal(c->args[3].kind, GT_BOOL);
    at_dump_options o;
    at_dump_default_options(&o);
    char *text = tb_dump_call(c, &o);
    assert_string_equal(text, "0 f(x = ?, arg1 = ?, arg2 = ?, arg3 = false)\n");
    free(text);
    at_reader_release(r, c);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

/* Many calls held at once (beyond the reader's pool of recycled calls) stay intact. */
static void test_many_calls_held(void **state)
{
    (void)state;
    enum { N = 300 };
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    for (uint32_t i = 0; i < N; ++i) {
        enter_f(&s, i % 5, i == 0, i * 3);
        leave_plain(&s, i);
    }
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    for (int round = 0; round < 2; ++round) { /* second round reuses pooled calls */
        gt_call *held[N / 2];
        for (uint32_t i = 0; i < N / 2; ++i) {
            assert_non_null(held[i] = at_reader_next(r));
        }
        for (uint32_t i = 0; i < N / 2; ++i) {
            uint32_t no = round * (N / 2) + i;
            assert_int_equal(held[i]->no, no);
            assert_int_equal(held[i]->thread, no % 5);
            assert_int_equal(held[i]->args[0].u, no * 3);
            at_reader_release(r, held[i]);
        }
    }
    assert_null(at_reader_next(r));
    at_reader_release(r, NULL); /* harmless */
    at_reader_stats st;
    at_reader_get_stats(r, &st);
    assert_int_equal(st.calls, N);
    assert_int_equal(st.threads, 5);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

/* An intact container whose stream stops inside an event: the program died while
 * writing. That call is dropped, as apitrace does; open calls come out incomplete. */
static void test_stream_ends_inside_event(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    enter_f(&s, 0, true, 1);
    leave_plain(&s, 0);
    enter_f(&s, 0, false, 2); /* call 1: open */
    enter_f(&s, 0, false, 3); /* call 2: its leave is cut inside a varint */
    tb_leave(&s, 2);
    tb_byte(&s, AT_DETAIL_RET);
    tb_byte(&s, AT_TYPE_UINT);
    tb_byte(&s, 0x80);
    char *warning, *error;
    char *text = dump_stream(&s, &warning, &error);
    assert_string_equal(text, "0 @0 f(x = 1)\n1 @0 f(x = 2) // incomplete\n");
    assert_null(error);
    assert_true(tb_contains(warning, "trace ends inside an event"));
    assert_true(tb_contains(warning, "1 call(s) left incomplete"));
    free(text);
    free(warning);
    tb_free(&s);
}

static void test_header_only(void **state)
{
    (void)state;
    for (unsigned v = 0; v <= 6; ++v) {
        tb_buf s;
        tb_init(&s);
        tb_header(&s, v);
        char *warning, *error;
        char *text = dump_stream(&s, &warning, &error);
        assert_string_equal(text, "");
        assert_null(warning);
        assert_null(error);
        free(text);
        tb_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leave_order_and_incomplete),
        cmocka_unit_test(test_unknown_leave_skipped),
        cmocka_unit_test(test_event_api),
        cmocka_unit_test(test_call_flags),
        cmocka_unit_test(test_args_beyond_signature),
        cmocka_unit_test(test_many_calls_held),
        cmocka_unit_test(test_stream_ends_inside_event),
        cmocka_unit_test(test_header_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
