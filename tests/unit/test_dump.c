/* at_dump_call's layout, on calls built by hand: call numbers, thread ids, argument
 * names, absent arguments, return values, the fake/incomplete comment, backtraces and
 * the blank line after a frame's last call, exactly as `apitrace dump` prints them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"

static const char *arg_names[] = {"target", "count"};
static gt_func_sig sig = {.id = 0, .name = "glThing", .num_args = 2, .arg_names = arg_names};

/* Call 12 on thread 0x1f: glThing(target = 7, count = ?) = 1 */
static void make_call(gt_call *c, gt_value args[2], gt_value *ret)
{
    memset(c, 0, sizeof *c);
    args[0] = (gt_value){.kind = GT_UINT, .u = 7};
    args[1] = (gt_value){.kind = GT_ABSENT};
    *ret = (gt_value){.kind = GT_SINT, .i = -1};
    c->no = 12;
    c->thread = 0x1f;
    c->sig = &sig;
    c->num_args = 2;
    c->args = args;
    c->ret = ret;
}

static void expect_dump(const gt_call *c, const at_dump_options *o, const char *want)
{
    char *got = tb_dump_call(c, o);
    assert_string_equal(got, want);
    free(got);
}

static void test_basic(void **state)
{
    (void)state;
    gt_call c;
    gt_value args[2], ret;
    make_call(&c, args, &ret);
    at_dump_options o;
    at_dump_default_options(&o);
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1\n");
    o.arg_names = false;
    expect_dump(&c, &o, "12 glThing(7, ?) = -1\n");
    o.call_nos = false;
    expect_dump(&c, &o, "glThing(7, ?) = -1\n");
    o.thread_ids = true;
    expect_dump(&c, &o, "@1f glThing(7, ?) = -1\n");
    o.call_nos = true;
    expect_dump(&c, &o, "12 @1f glThing(7, ?) = -1\n");
    o.multiline = false; /* the caller ends the line */
    expect_dump(&c, &o, "12 @1f glThing(7, ?) = -1");
    c.ret = NULL;
    c.num_args = 0;
    expect_dump(&c, &o, "12 @1f glThing()");
}

static void test_comments(void **state)
{
    (void)state;
    gt_call c;
    gt_value args[2], ret;
    make_call(&c, args, &ret);
    at_dump_options o;
    at_dump_default_options(&o);
    c.flags = GT_CALL_FLAG_FAKE;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1 // fake\n");
    c.flags = GT_CALL_FLAG_INCOMPLETE;
    c.ret = NULL;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) // incomplete\n");
    c.flags = GT_CALL_FLAG_INCOMPLETE | GT_CALL_FLAG_FAKE;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) // fake incomplete\n");
    o.color = true; /* "incomplete" in red, then the name in bold for a call with effects */
    char *got = tb_dump_call(&c, &o);
    assert_true(tb_contains(got, "\33[1mglThing\33[0m("));
    assert_true(tb_contains(got, " // fake \33[31mincomplete\33[0m"));
    free(got);
}

static void test_backtrace(void **state)
{
    (void)state;
    gt_call c;
    gt_value args[2], ret;
    make_call(&c, args, &ret);
    gt_frame full = {.id = 0, .module = "libGL.so.1", .function = "glThing",
                     .filename = "gl.c", .line = 120, .offset = 0x1a0};
    gt_frame no_line = {.id = 1, .module = "app", .function = "main", .filename = "main.c",
                        .line = -1, .offset = -1};
    gt_frame module_only = {.id = 2, .module = "libc.so.6", .function = NULL, .filename = NULL,
                            .line = -1, .offset = 0x29d90};
    gt_frame nothing = {.id = 3, .module = NULL, .function = NULL, .filename = NULL,
                        .line = 7, .offset = -1};
    const gt_frame *frames[] = {&full, &no_line, &module_only, &nothing};
    c.frames = frames;
    c.num_frames = 4;
    at_dump_options o;
    at_dump_default_options(&o);
    expect_dump(&c, &o,
                "12 glThing(target = 7, count = ?) = -1\n"
                "Backtrace:\n"
                "libGL.so.1: glThing+0x1a0: gl.c:120\n"
                "app: main: main.c\n"
                "libc.so.6+0x29d90\n"
                "?\n");
    o.multiline = false; /* single-line dumps leave backtraces out */
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1");
}

static void test_end_frame_blank_line(void **state)
{
    (void)state;
    gt_call c;
    gt_value args[2], ret;
    make_call(&c, args, &ret);
    at_dump_options o;
    at_dump_default_options(&o);
    c.flags = GT_CALL_FLAG_END_FRAME | GT_CALL_FLAG_SWAP_RENDERTARGET;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1\n\n");
    gt_frame f = {.id = 0, .module = "m", .line = -1, .offset = -1};
    const gt_frame *frames[] = {&f};
    c.frames = frames;
    c.num_frames = 1;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1\nBacktrace:\nm\n\n");
    c.flags = GT_CALL_FLAG_RENDER; /* other flags add nothing */
    c.frames = NULL;
    c.num_frames = 0;
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?) = -1\n");
}

/* Arguments beyond the signature (traces that disagree with their own signature). */
static void test_args_beyond_signature(void **state)
{
    (void)state;
    gt_call c;
    gt_value args[4], ret;
    make_call(&c, args, &ret);
    args[2] = (gt_value){.kind = GT_ABSENT};
    args[3] = (gt_value){.kind = GT_BOOL, .b = true};
    c.num_args = 4;
    at_dump_options o;
    at_dump_default_options(&o);
    expect_dump(&c, &o, "12 glThing(target = 7, count = ?, arg2 = ?, arg3 = true) = -1\n");
}

static void test_property(void **state)
{
    (void)state;
    at_dump_options o;
    at_dump_default_options(&o);
    gt_strbuf b;
    gt_strbuf_init(&b);
    at_dump_property(&b, "process.name", "glxgears", &o);
    at_dump_property(&b, "quoted", "a\"b\x01", &o); /* the value is dumped as a string */
    gt_strbuf_putc(&b, '\0');
    assert_string_equal(b.data, "// process.name = \"glxgears\"\n"
                                "// quoted = \"a\\\"b\\1\"\n");
    gt_strbuf_free(&b);
}

static void test_default_options(void **state)
{
    (void)state;
    at_dump_options o;
    memset(&o, 0xff, sizeof o);
    at_dump_default_options(&o);
    assert_false(o.color);
    assert_true(o.call_nos);
    assert_true(o.arg_names);
    assert_false(o.thread_ids);
    assert_true(o.multiline);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_comments),
        cmocka_unit_test(test_backtrace),
        cmocka_unit_test(test_end_frame_blank_line),
        cmocka_unit_test(test_args_beyond_signature),
        cmocka_unit_test(test_property),
        cmocka_unit_test(test_default_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
