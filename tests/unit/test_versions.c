/* The grammar of every trace version, 0 to 6, from streams built byte by byte:
 * the same calls are written in each version's dialect (old one-pair enum signatures
 * before 3, the thread as a call detail before 4, backtraces from 5, properties in
 * 6) and must read back the same, in every container. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"

static const char *foo_args[] = {"a", "b"};

static void thread_detail(tb_buf *b, unsigned v, uint32_t thread)
{
    if (v < 4) { /* before version 4 the enter event has no thread number */
        tb_byte(b, AT_DETAIL_THREAD);
        tb_uint(b, thread);
    }
}

static void arg(tb_buf *b, unsigned idx)
{
    tb_byte(b, AT_DETAIL_ARG);
    tb_uint(b, idx);
}

/* Enum value GL_ONE/GL_TWO. Version 3+: id, then on first use count + pairs, then the
 * value. Before 3: one name/value pair per signature and no value after it. */
static void enum_value(tb_buf *b, unsigned v, int64_t value, bool first)
{
    tb_byte(b, AT_TYPE_ENUM);
    if (v >= 3) {
        tb_uint(b, 0);
        if (first) {
            tb_uint(b, 2);
            tb_str(b, "GL_ONE");
            tb_sint(b, 1);
            tb_str(b, "GL_TWO");
            tb_sint(b, 2);
        }
        tb_sint(b, value);
    } else {
        tb_uint(b, value == 1 ? 0 : 1);
        if (first) {
            tb_str(b, value == 1 ? "GL_ONE" : "GL_TWO");
            tb_sint(b, value);
        }
    }
}

static void frame(tb_buf *b, uint32_t id, bool first)
{
    tb_uint(b, id);
    if (!first)
        return;
    tb_byte(b, AT_FRAME_MODULE);
    tb_str(b, id ? "libapp.so" : "libGL.so");
    tb_byte(b, AT_FRAME_FUNCTION);
    tb_str(b, id ? "main" : "glFoo");
    if (id) {
        tb_byte(b, AT_FRAME_FILENAME);
        tb_str(b, "app.c");
        tb_byte(b, AT_FRAME_LINE);
        tb_uint(b, 42);
    }
    tb_byte(b, AT_FRAME_OFFSET);
    tb_uint(b, id ? 0x10 : 0x1f0);
    tb_byte(b, AT_FRAME_END);
}

/* Calls, in file order of their events:
 *   enter 0 glFoo(GL_ONE, 7) thread 5 [backtrace 2 frames], leave 0 = -3
 *   enter 1 glFoo(GL_TWO, GL_ONE) thread 6 [fake in v6], leave 1 [backtrace: frame 1 again]
 *   enter 2, enter 3, leave 3, leave 2 (leave order: 3 before 2), arg b written at leave
 *   a leave for call 99, which was never entered (skipped)
 *   enter 4 glBar() never left (incomplete, last) */
static void build(tb_buf *b, unsigned v)
{
    tb_uint(b, v);
    if (v >= 6) {
        tb_uint(b, 5); /* semantic version may be older than the format */
        tb_str(b, "process.name");
        tb_str(b, "app");
        tb_str(b, "gl.vendor");
        tb_str(b, "me");
        tb_uint(b, 0);
    }
    tb_enter(b, v, 5, 0);
    tb_func_sig(b, "glFoo", 2, foo_args);
    thread_detail(b, v, 5);
    arg(b, 0);
    enum_value(b, v, 1, true);
    arg(b, 1);
    tb_byte(b, AT_TYPE_UINT);
    tb_uint(b, 7);
    if (v >= 5) {
        tb_byte(b, AT_DETAIL_BACKTRACE);
        tb_uint(b, 2);
        frame(b, 0, true);
        frame(b, 1, true);
    }
    tb_byte(b, AT_DETAIL_END);
    tb_leave(b, 0);
    tb_byte(b, AT_DETAIL_RET);
    tb_byte(b, AT_TYPE_SINT);
    tb_uint(b, 3);
    tb_byte(b, AT_DETAIL_END);

    tb_enter(b, v, 6, 0); /* the signature by id alone */
    thread_detail(b, v, 6);
    if (v >= 6) {
        tb_byte(b, AT_DETAIL_FLAGS);
        tb_uint(b, AT_FLAG_FAKE);
    }
    arg(b, 0);
    enum_value(b, v, 2, v < 3); /* v3+: id 0 again; older: a second one-pair signature */
    arg(b, 1);
    enum_value(b, v, 1, false);
    tb_byte(b, AT_DETAIL_END);
    tb_leave(b, 1);
    if (v >= 5) {
        tb_byte(b, AT_DETAIL_BACKTRACE);
        tb_uint(b, 1);
        frame(b, 1, false);
    }
    tb_byte(b, AT_DETAIL_END);

    for (uint32_t no = 2; no <= 3; ++no) {
        tb_enter(b, v, 7, 0);
        thread_detail(b, v, 7);
        arg(b, 0);
        tb_byte(b, AT_TYPE_NULL);
        tb_byte(b, AT_DETAIL_END);
    }
    for (uint32_t no = 3; no >= 2; --no) {
        tb_leave(b, no);
        arg(b, 1); /* output argument */
        tb_byte(b, AT_TYPE_UINT);
        tb_uint(b, no * 10);
        tb_byte(b, AT_DETAIL_END);
    }
    tb_leave(b, 99);
    arg(b, 0);
    tb_byte(b, AT_TYPE_TRUE);
    tb_byte(b, AT_DETAIL_RET);
    tb_byte(b, AT_TYPE_NULL);
    tb_byte(b, AT_DETAIL_END);

    tb_enter(b, v, 8, 1);
    tb_func_sig(b, "glBar", 0, NULL);
    thread_detail(b, v, 8);
    tb_byte(b, AT_DETAIL_END);
}

static const char *expected_dump(unsigned v)
{
    return v >= 6 ? "0 @5 glFoo(a = GL_ONE, b = 7) = -3\n"
                    "1 @6 glFoo(a = GL_TWO, b = GL_ONE) // fake\n"
                    "3 @7 glFoo(a = NULL, b = 30)\n"
                    "2 @7 glFoo(a = NULL, b = 20)\n"
                    "4 @8 glBar() // incomplete\n"
                  : "0 @5 glFoo(a = GL_ONE, b = 7) = -3\n"
                    "1 @6 glFoo(a = GL_TWO, b = GL_ONE)\n"
                    "3 @7 glFoo(a = NULL, b = 30)\n"
                    "2 @7 glFoo(a = NULL, b = 20)\n"
                    "4 @8 glBar() // incomplete\n";
}

static void check_frame(const gt_frame *f, const char *module, const char *function,
                        const char *file, int64_t line, int64_t offset)
{
    assert_string_equal(f->module, module);
    assert_string_equal(f->function, function);
    if (file)
        assert_string_equal(f->filename, file);
    else
        assert_null(f->filename);
    assert_int_equal(f->line, line);
    assert_int_equal(f->offset, offset);
}

/* Field-level checks of the calls, over an opened reader. */
static void check_calls(at_reader *r, unsigned v)
{
    assert_int_equal(at_reader_version(r), v);
    assert_int_equal(at_reader_semantic_version(r), v >= 6 ? 5 : v);
    assert_int_equal(at_reader_num_properties(r), v >= 6 ? 2 : 0);
    if (v >= 6) {
        assert_string_equal(at_reader_property(r, 0)->name, "process.name");
        assert_string_equal(at_reader_property(r, 0)->value, "app");
        assert_string_equal(at_reader_property(r, 1)->name, "gl.vendor");
    }

    gt_call *c0 = at_reader_next(r);
    assert_non_null(c0);
    assert_int_equal(c0->no, 0);
    assert_int_equal(c0->thread, 5);
    assert_int_equal(c0->flags & GT_CALL_FLAG_FAKE, 0);
    assert_int_equal(c0->num_args, 2);
    assert_int_equal(c0->args[0].kind, GT_ENUM);
    assert_int_equal(c0->args[0].en.v, 1);
    assert_int_equal(c0->args[0].en.sig->num_values, v >= 3 ? 2 : 1);
    assert_int_equal(c0->args[1].kind, GT_UINT);
    assert_int_equal(c0->args[1].u, 7);
    assert_non_null(c0->ret);
    assert_int_equal(c0->ret->kind, GT_SINT);
    assert_int_equal(c0->ret->i, -3);
    if (v >= 5) {
        assert_int_equal(c0->num_frames, 2);
        assert_false(c0->frames_at_leave);
        check_frame(c0->frames[0], "libGL.so", "glFoo", NULL, -1, 0x1f0);
        check_frame(c0->frames[1], "libapp.so", "main", "app.c", 42, 0x10);
    } else {
        assert_int_equal(c0->num_frames, 0);
        assert_null(c0->frames);
    }

    gt_call *c1 = at_reader_next(r);
    assert_non_null(c1);
    assert_int_equal(c1->no, 1);
    assert_int_equal(c1->thread, 6);
    assert_ptr_equal(c1->sig, c0->sig); /* reused by id */
    assert_int_equal(c1->flags & GT_CALL_FLAG_FAKE, v >= 6 ? GT_CALL_FLAG_FAKE : 0);
    assert_int_equal(c1->args[0].en.v, 2);
    assert_int_equal(c1->args[1].en.v, 1);
    assert_ptr_equal(c1->args[1].en.sig, c0->args[0].en.sig);
    assert_null(c1->ret);
    if (v >= 5) {
        assert_int_equal(c1->num_frames, 1);
        assert_true(c1->frames_at_leave);
        assert_ptr_equal(c1->frames[0], c0->frames[1]); /* frame reused by id */
    }
    at_reader_release(r, c0);
    at_reader_release(r, c1);

    for (uint32_t no = 3; no >= 2; --no) { /* leave order */
        gt_call *c = at_reader_next(r);
        assert_non_null(c);
        assert_int_equal(c->no, no);
        assert_int_equal(c->thread, 7);
        assert_int_equal(c->arg_at_leave[0], 0);
        assert_int_equal(c->arg_at_leave[1], 1);
        assert_int_equal(c->args[1].u, no * 10);
        assert_int_equal(c->flags & GT_CALL_FLAG_INCOMPLETE, 0);
        at_reader_release(r, c);
    }

    gt_call *c4 = at_reader_next(r); /* the leave for 99 was skipped */
    assert_non_null(c4);
    assert_int_equal(c4->no, 4);
    assert_string_equal(c4->sig->name, "glBar");
    assert_int_equal(c4->thread, 8);
    assert_true(c4->flags & GT_CALL_FLAG_INCOMPLETE);
    at_reader_release(r, c4);
    assert_null(at_reader_next(r));
    assert_null(at_reader_error(r));
    assert_true(tb_contains(at_reader_warning(r), "1 call(s) left incomplete"));

    at_reader_stats st;
    at_reader_get_stats(r, &st);
    assert_int_equal(st.calls, 5);
    assert_int_equal(st.incomplete, 1);
    assert_int_equal(st.threads, 4);
    assert_int_equal(st.functions, 2);
    assert_int_equal(st.enums, v >= 3 ? 1 : 2);
    assert_int_equal(st.frames, v >= 5 ? 2 : 0);
}

typedef enum { C_SNAPPY, C_SNAPPY_TINY, C_GZIP, C_BROTLI } container;

static uint8_t *wrap(const tb_buf *s, container c, size_t *n)
{
    switch (c) {
    case C_SNAPPY: return tb_snappy(s->data, s->len, 1u << 20, n);
    case C_SNAPPY_TINY: return tb_snappy(s->data, s->len, 3, n); /* events straddle chunks */
    case C_GZIP: return tb_gzip(s->data, s->len, n);
    case C_BROTLI: return tb_brotli(s->data, s->len, n);
    }
    return NULL;
}

static void test_version(void **state)
{
    unsigned v = *(const unsigned *)*state;
    tb_buf s;
    tb_init(&s);
    build(&s, v);
    static const char *names[] = {"snappy", "snappy", "zlib", "brotli"};
    for (container c = C_SNAPPY; c <= C_BROTLI; ++c) {
        size_t n;
        uint8_t *file = wrap(&s, c, &n);
        gt_error err;
        at_reader *r = tb_open_mem(file, n, false, &err);
        assert_non_null(r);
        assert_string_equal(at_reader_input(r)->container, names[c]);
        check_calls(r, v);
        at_reader_close(r);

        r = tb_open_mem(file, n, false, &err);
        assert_non_null(r);
        char *text = tb_dump_all(r, NULL, NULL);
        assert_string_equal(text, expected_dump(v));
        free(text);
        at_reader_close(r);
        free(file);
    }
    tb_free(&s);
}

/* Version 6 property list: none at all, and values that are empty strings. */
static void test_v6_properties_edge(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_uint(&s, 6);
    tb_uint(&s, 6);
    tb_str(&s, "empty.value");
    tb_str(&s, "");
    tb_uint(&s, 0);
    tb_simple_call(&s, 0, 0, "glFinish");
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    assert_int_equal(at_reader_num_properties(r), 1);
    assert_string_equal(at_reader_property(r, 0)->value, "");
    gt_call *c = at_reader_next(r);
    assert_non_null(c);
    assert_string_equal(c->sig->name, "glFinish");
    at_reader_release(r, c);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

/* A version 3 enum value may carry either integer tag. */
static void test_enum_value_tags(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_header(&s, 6);
    tb_enter(&s, 6, 0, 0);
    tb_func_sig(&s, "f", 1, foo_args);
    arg(&s, 0);
    tb_byte(&s, AT_TYPE_ENUM);
    tb_uint(&s, 0);
    tb_uint(&s, 1);
    tb_str(&s, "MINUS");
    tb_sint(&s, -9);
    tb_byte(&s, AT_TYPE_SINT);
    tb_uint(&s, 9);
    tb_byte(&s, AT_DETAIL_END);
    tb_leave(&s, 0);
    tb_byte(&s, AT_DETAIL_END);
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    char *text = tb_dump_all(r, NULL, NULL);
    assert_string_equal(text, "0 @0 f(a = MINUS)\n");
    free(text);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

static unsigned versions[] = {0, 1, 2, 3, 4, 5, 6};

int main(void)
{
#define V(i) cmocka_unit_test_prestate(test_version, &versions[i])
    const struct CMUnitTest tests[] = {
        V(0), V(1), V(2), V(3), V(4), V(5), V(6),
        cmocka_unit_test(test_v6_properties_edge),
        cmocka_unit_test(test_enum_value_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
