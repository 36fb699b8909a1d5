/* retrace/profile/profile_text.c: apitrace's text profile, line for line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile_text.h"

#define HEADER                                                                                     \
    "# call no gpu_start gpu_dura cpu_start cpu_dura vsize_start vsize_dura rss_start rss_dura "   \
    "pixels program name\n"

static char *buf;
static size_t len;
static FILE *out;

static void start(bool cpu, bool gpu, int64_t min_cpu)
{
    out = open_memstream(&buf, &len);
    assert_non_null(out);
    profile_text_init(out, cpu, gpu, min_cpu, 1000000);
}

static const char *finish(void)
{
    profile_text_finish();
    fclose(out);
    return buf;
}

static int teardown(void **state)
{
    (void)state;
    free(buf);
    buf = NULL;
    return 0;
}

static void test_header_only(void **state)
{
    (void)state;
    start(true, false, 1000);
    assert_string_equal(finish(), HEADER);
}

/* times relative to the base; calls under the minimum CPU time left out */
static void test_cpu(void **state)
{
    (void)state;
    start(true, false, 1000);
    profile_text_call(3, "glViewport", 0, 1310800, 4150, false);
    profile_text_call(4, "glScissor", 0, 1320000, 999, false);
    profile_text_call(9, "glDrawArrays", 7, 1330000, 1000, false);
    profile_text_frame_end(0);
    assert_string_equal(finish(), HEADER "call 3 0 0 310800 4150 0 0 0 0 0 0 glViewport\n"
                                         "call 9 0 0 330000 1000 0 0 0 0 0 7 glDrawArrays\n"
                                         "frame_end\n");
}

/* --pgpu alone: CPU columns 0 and no CPU filter; a GPU result printed relative to the base */
static void test_gpu_only(void **state)
{
    (void)state;
    start(false, true, 1000);
    uint64_t a = profile_text_call(5, "glClear", 1, 1100000, 10, true);
    profile_text_call(6, "glUniform1f", 1, 1100100, 10, false);
    profile_text_frame_end(0);
    fflush(out);
    assert_string_equal(buf, HEADER); /* glClear waits for its GPU time, glUniform1f for it */
    profile_text_gpu(a, true, 1200000, 5000);
    assert_string_equal(finish(), HEADER "call 5 200000 5000 0 0 0 0 0 0 0 1 glClear\n"
                                         "call 6 0 0 0 0 0 0 0 0 0 1 glUniform1f\n"
                                         "frame_end\n");
}

/* --pframe-times alone: calls listed with zeros (no CPU filter), each frame end followed
 * by when its rendering finished, an absolute time (not relative to the base) */
static void test_frame_times(void **state)
{
    (void)state;
    start(false, false, 1000);
    profile_text_call(7, "glClear", 0, 1100000, 10, false);
    profile_text_frame_end(987654321);
    assert_string_equal(finish(), HEADER "call 7 0 0 0 0 0 0 0 0 0 0 glClear\n"
                                         "frame_end\n"
                                         "rendering_finished 987654321\n");
}

/* lines wait, in order, for the GPU results of earlier lines */
static void test_gpu_order(void **state)
{
    (void)state;
    start(true, true, 0);
    uint64_t a = profile_text_call(1, "glDrawArrays", 0, 1000010, 5, true);
    uint64_t b = profile_text_call(2, "glDrawElements", 0, 1000020, 5, true);
    profile_text_frame_end(0);
    profile_text_gpu(b, true, 1000100, 7);
    fflush(out);
    assert_string_equal(buf, HEADER);
    profile_text_gpu(a, false, 0, 0); /* lost: zeros */
    assert_string_equal(finish(), HEADER "call 1 0 0 10 5 0 0 0 0 0 0 glDrawArrays\n"
                                         "call 2 100 7 20 5 0 0 0 0 0 0 glDrawElements\n"
                                         "frame_end\n");
}

/* as apitrace: calls after the last frame end or thread switch are never printed */
static void test_uncommitted_dropped(void **state)
{
    (void)state;
    start(true, false, 0);
    profile_text_call(1, "glEnable", 0, 1000001, 1, false);
    profile_text_commit();
    profile_text_call(2, "glDeleteBuffers", 0, 1000002, 1, false);
    assert_string_equal(finish(), HEADER "call 1 0 0 1 1 0 0 0 0 0 0 glEnable\n");
}

/* glBegin's CPU time is known at glEnd */
static void test_set_cpu(void **state)
{
    (void)state;
    start(true, false, 1000);
    uint64_t r = profile_text_call(10, "glBegin", 0, 1000000, 10, false);
    profile_text_set_cpu(r, 2500);
    profile_text_frame_end(0);
    assert_string_equal(finish(), HEADER "call 10 0 0 0 2500 0 0 0 0 0 0 glBegin\nframe_end\n");
}

/* many frames: the FIFO compacts and record ids stay valid */
static void test_many(void **state)
{
    (void)state;
    start(true, true, 0);
    uint64_t held = profile_text_call(0, "glClear", 0, 1000001, 1, true);
    for (uint32_t i = 1; i < 20000; ++i)
        profile_text_call(i, "glColor3f", 0, 1000001 + i, 1, false);
    profile_text_frame_end(0);
    profile_text_gpu(held, true, 1000005, 3);
    const char *s = finish();
    assert_non_null(strstr(s, "call 0 5 3 1 1 0 0 0 0 0 0 glClear\n"));
    assert_non_null(strstr(s, "call 19999 0 0 20000 1 0 0 0 0 0 0 glColor3f\nframe_end\n"));
    size_t lines = 0;
    for (const char *p = s; *p; ++p)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 20000 + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_header_only, teardown),
        cmocka_unit_test_teardown(test_cpu, teardown),
        cmocka_unit_test_teardown(test_gpu_only, teardown),
        cmocka_unit_test_teardown(test_frame_times, teardown),
        cmocka_unit_test_teardown(test_gpu_order, teardown),
        cmocka_unit_test_teardown(test_uncommitted_dropped, teardown),
        cmocka_unit_test_teardown(test_set_cpu, teardown),
        cmocka_unit_test_teardown(test_many, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
