/* Opening inputs (common/util/gt_input.c): non-regular files refused without blocking;
 * empty text buffers copied (no memcpy from NULL: UBSan); the backtrace call set
 * syntax (wrappers/backtrace_set.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "backtrace_set.h"
#include "gt_input.h"
#include "gt_strbuf.h"
#include "trace_builder.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void expect_refused(const char *path, const char *kind)
{
    gt_error err;
    gt_error_clear(&err);
    double t0 = now_s();
    assert_int_equal(gt_input_open(path, NULL, &err), -1);
    assert_null(gt_input_fopen(path, NULL, &err));
    assert_true(now_s() - t0 < 2.0); /* never waits for a writer */
    print_message("%s\n", err.msg);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "not a regular file"));
    assert_non_null(strstr(err.msg, kind));
}

static void test_fifo_and_others(void **state)
{
    (void)state;
    char *path = tb_temp_path();
    unlink(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    expect_refused(path, "a FIFO");
    unlink(path);
    assert_int_equal(mkdir(path, 0700), 0);
    expect_refused(path, "a directory");
    rmdir(path);
    expect_refused("/dev/null", "a character device");
    free(path);
}

static void test_regular_file(void **state)
{
    (void)state;
    char *path = tb_temp_path();
    tb_write_file(path, "hello", 5);
    gt_error err;
    gt_error_clear(&err);
    uint64_t size = 0;
    FILE *f = gt_input_fopen(path, &size, &err);
    assert_non_null(f);
    assert_int_equal(size, 5);
    char buf[8];
    assert_int_equal(fread(buf, 1, sizeof buf, f), 5); /* blocking reads again */
    fclose(f);
    unlink(path);
    assert_int_equal(gt_input_open(path, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "cannot open"));
    free(path);
}

/* `gltrace info --dump-frames` of a trace without frames appends an empty
 * buffer (data NULL, length 0): UBSan reported memcpy(NULL, 0) there. */
static void test_empty_strbuf_append(void **state)
{
    (void)state;
    gt_strbuf frames, b;
    gt_strbuf_init(&frames);
    gt_strbuf_init(&b);
    gt_strbuf_put(&b, frames.data, frames.len);
    gt_strbuf_put(&b, NULL, 0);
    assert_int_equal(b.len, 0);
    gt_strbuf_puts(&b, "[");
    gt_strbuf_put(&b, frames.data, frames.len);
    gt_strbuf_puts(&b, "]");
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.data, "[]", 2);
    gt_strbuf_free(&b);
    gt_strbuf_free(&frames);
}

static void test_backtrace_set(void **state)
{
    (void)state;
    char why[256];
    static const char *good[] = {"all", "none", "default", "", "glDraw*,*SwapBuffers",
                                 "glClear glBlit[A-Za-z]*", "gl[!U]*", "gl?raw[_a-z]*",
                                 " , all ,"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_int_equal(gltrace_backtrace_set_check(good[i], why, sizeof why), 0);
    static const char *bad[] = {"[[[", "glDraw[", "glDraw[]", "gl[!]", "gl;rm", "gl/Draw",
                                "all,[", "glDraw*,gl{a,b}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why[0] = 0;
        assert_int_equal(gltrace_backtrace_set_check(bad[i], why, sizeof why), -1);
        print_message("%s -> %s\n", bad[i], why);
        assert_true(why[0] != 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_and_others),
        cmocka_unit_test(test_regular_file),
        cmocka_unit_test(test_empty_strbuf_append),
        cmocka_unit_test(test_backtrace_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
