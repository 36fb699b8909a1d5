/* Call sets as apitrace's --calls/--frames options take them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gt_callset.h"
#include "gt_model.h"
#include "trace_builder.h"

static void parse(gt_callset *s, const char *text)
{
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_callset_init_all(s), 0);
    if (gt_callset_merge(s, text, &err) < 0)
        fail_msg("\"%s\": %s", text, err.msg);
}

static void expect_error(const char *text, const char *needle)
{
    gt_callset s;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_callset_init_all(&s), 0);
    assert_int_equal(gt_callset_merge(&s, text, &err), -1);
    print_message("%s\n", err.msg);
    assert_true(err.set);
    assert_true(tb_contains(err.msg, needle));
    gt_callset_free(&s);
}

#define IN(s, no) assert_true(gt_callset_contains(&(s), (no), 0))
#define OUT(s, no) assert_false(gt_callset_contains(&(s), (no), 0))

static void test_default_is_everything(void **state)
{
    (void)state;
    gt_callset s;
    assert_int_equal(gt_callset_init_all(&s), 0);
    IN(s, 0);
    IN(s, UINT32_MAX);
    assert_int_equal(gt_callset_last(&s), UINT32_MAX);
    gt_callset_free(&s);
}

static void test_numbers_ranges_frames(void **state)
{
    (void)state;
    gt_callset s;
    parse(&s, "1,5-10,frame");
    OUT(s, 0);
    IN(s, 1);
    OUT(s, 2);
    OUT(s, 4);
    for (uint32_t i = 5; i <= 10; ++i)
        IN(s, i);
    OUT(s, 11);
    /* "frame": any call number, only calls that end a frame */
    assert_true(gt_callset_contains(&s, 1000, GT_CALL_FLAG_END_FRAME));
    assert_false(gt_callset_contains(&s, 1000, GT_CALL_FLAG_RENDER));
    assert_int_equal(gt_callset_last(&s), UINT32_MAX);
    gt_callset_free(&s);

    parse(&s, "1,5-10");
    assert_int_equal(gt_callset_last(&s), 10);
    gt_callset_free(&s);
}

static void test_star_and_open_ranges(void **state)
{
    (void)state;
    gt_callset s;
    parse(&s, "*");
    IN(s, 0);
    IN(s, 123456);
    IN(s, UINT32_MAX);
    gt_callset_free(&s);

    parse(&s, "20-/2"); /* from 20 on, every second call */
    OUT(s, 19);
    IN(s, 20);
    OUT(s, 21);
    IN(s, 22);
    IN(s, 1000);
    OUT(s, 1001);
    IN(s, UINT32_MAX - 1);
    gt_callset_free(&s);

    parse(&s, "1-10/3");
    IN(s, 1);
    IN(s, 4);
    IN(s, 7);
    IN(s, 10);
    OUT(s, 2);
    OUT(s, 13);
    gt_callset_free(&s);

    parse(&s, "*/frame");
    assert_true(gt_callset_contains(&s, 77, GT_CALL_FLAG_END_FRAME));
    OUT(s, 77);
    gt_callset_free(&s);

    parse(&s, "10-20/draw");
    assert_true(gt_callset_contains(&s, 15, GT_CALL_FLAG_RENDER));
    assert_false(gt_callset_contains(&s, 25, GT_CALL_FLAG_RENDER));
    OUT(s, 15);
    gt_callset_free(&s);
}

static void test_frequencies(void **state)
{
    (void)state;
    gt_callset s;
    parse(&s, "draw");
    assert_true(gt_callset_contains(&s, 3, GT_CALL_FLAG_RENDER));
    assert_false(gt_callset_contains(&s, 3, GT_CALL_FLAG_END_FRAME));
    gt_callset_free(&s);
    parse(&s, "render");
    assert_true(gt_callset_contains(&s, 3, GT_CALL_FLAG_RENDER | GT_CALL_FLAG_VERBOSE));
    gt_callset_free(&s);

    /* "fbo"/"rendertarget": frame ends and render target switches, as in apitrace */
    parse(&s, "fbo");
    assert_true(gt_callset_contains(&s, 3, GT_CALL_FLAG_SWAP_RENDERTARGET));
    assert_true(gt_callset_contains(&s, 3, GT_CALL_FLAG_END_FRAME));
    assert_false(gt_callset_contains(&s, 3, GT_CALL_FLAG_RENDER));
    gt_callset_free(&s);
    parse(&s, "rendertarget");
    assert_true(gt_callset_contains(&s, 3, GT_CALL_FLAG_SWAP_RENDERTARGET));
    gt_callset_free(&s);

    parse(&s, "frame");
    assert_false(gt_callset_contains(&s, 3, GT_CALL_FLAG_SWAP_RENDERTARGET));
    assert_false(gt_callset_contains(&s, 3, GT_CALL_FLAG_FAKE | GT_CALL_FLAG_INCOMPLETE));
    gt_callset_free(&s);
}

static void test_whitespace_and_merge(void **state)
{
    (void)state;
    gt_callset s;
    parse(&s, " 1 3\t5 - 7\n9 ");
    IN(s, 1);
    OUT(s, 2);
    IN(s, 3);
    IN(s, 5);
    IN(s, 6);
    IN(s, 7);
    OUT(s, 8);
    IN(s, 9);
    OUT(s, 10);
    /* a second merge adds to the set instead of replacing it */
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_callset_merge(&s, "100", &err), 0);
    IN(s, 100);
    IN(s, 1);
    gt_callset_free(&s);

    parse(&s, "7-3"); /* empty range: ignored, as apitrace does */
    OUT(s, 3);
    OUT(s, 5);
    OUT(s, 7);
    gt_callset_free(&s);
}

static void test_file(void **state)
{
    (void)state;
    char *path = tb_temp_path();
    const char text[] = "2\n4-6\n  frame\n";
    tb_write_file(path, text, sizeof text - 1);
    char *arg = malloc(strlen(path) + 2);
    assert_non_null(arg);
    arg[0] = '@';
    strcpy(arg + 1, path);
    gt_callset s;
    parse(&s, arg);
    OUT(s, 1);
    IN(s, 2);
    OUT(s, 3);
    IN(s, 4);
    IN(s, 6);
    OUT(s, 7);
    assert_true(gt_callset_contains(&s, 50, GT_CALL_FLAG_END_FRAME));
    gt_callset_free(&s);
    unlink(path);

    expect_error(arg, "cannot open"); /* gone now */
    free(arg);
    free(path);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("abc", "abc");
    expect_error("5-x", "5-x");
    expect_error("1/0", "step");
    expect_error("99999999999", "too large");
    expect_error("1;2", "1;2");
    expect_error("-", "expected a number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_is_everything),
        cmocka_unit_test(test_numbers_ranges_frames),
        cmocka_unit_test(test_star_and_open_ranges),
        cmocka_unit_test(test_frequencies),
        cmocka_unit_test(test_whitespace_and_merge),
        cmocka_unit_test(test_file),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
