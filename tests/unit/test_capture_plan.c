/* Frame ranges (`gltrace --frames`) and the decisions at frame boundaries
 * (gt_capture_plan.h), driven frame by frame as the recorder drives them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gt_capture_plan.h"
#include "gt_frameranges.h"
#include "trace_builder.h"

static gt_frameranges parse(const char *text)
{
    gt_frameranges r;
    gt_error err;
    gt_error_clear(&err);
    if (gt_frameranges_parse(text, &r, &err) != 0)
        fail_msg("\"%s\": %s", text, err.msg);
    return r;
}

static void expect_error(const char *text, const char *needle)
{
    gt_frameranges r;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_frameranges_parse(text, &r, &err), -1);
    print_message("%s\n", err.msg);
    assert_true(tb_contains(err.msg, needle));
}

static void test_syntax(void **state)
{
    (void)state;
    gt_frameranges r = parse("5000-5010");
    assert_int_equal(r.n, 1);
    assert_int_equal(r.r[0].first, 5000);
    assert_int_equal(r.r[0].last, 5010);
    r = parse("0-2,7,9-12");
    assert_int_equal(r.n, 3);
    assert_int_equal(r.r[1].first, 7);
    assert_int_equal(r.r[1].last, 7);
    assert_int_equal(r.r[2].last, 12);
    r = parse("+10");
    assert_int_equal(r.n, 0);
    assert_int_equal(r.per_trigger, 10);
    expect_error("", "offset 0: expected a frame number");
    expect_error("5-", "offset 2: expected the range's last frame");
    expect_error("9-5", "offset 0: the range ends before it starts");
    expect_error("0-5,5-6", "offset 4: ranges must ascend");
    expect_error("7,3", "offset 2: ranges must ascend");
    expect_error("1-2;3", "offset 3: expected ','");
    expect_error("+0", "above 0");
    expect_error("+3,4", "stands alone");
    expect_error("99999999999999999999999", "expected a frame number");
}

/* Drives plan over frames 0..frames-1; trig[f] nonzero: a trigger came during frame
 * f. Writes "S<f>" for a start before frame f's first call and "E<f>" for a stop
 * after frame f's swap into out. */
static void drive(gt_capture_plan *c, unsigned frames, const char *trig, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = '\0';
    if (gt_capture_begin(c) & GT_CAPTURE_START)
        k += (size_t)snprintf(out + k, cap - k, "S0 ");
    for (unsigned f = 0; f < frames; f++) {
        unsigned act = gt_capture_frame_end(c, f, trig && trig[f] == 'x');
        if (act & GT_CAPTURE_STOP)
            k += (size_t)snprintf(out + k, cap - k, "E%u ", f);
        if (act & GT_CAPTURE_START)
            k += (size_t)snprintf(out + k, cap - k, "S%u ", f + 1);
    }
}

static void plan(gt_capture_plan *c, const char *text, int by_trigger)
{
    gt_frameranges r = parse(text);
    gt_error err;
    gt_error_clear(&err);
    if (gt_capture_init(c, &r, by_trigger, &err) != 0)
        fail_msg("%s", err.msg);
}

static void test_numbered(void **state)
{
    (void)state;
    gt_capture_plan c;
    char out[256];
    plan(&c, "3-5", 0);
    drive(&c, 10, NULL, out, sizeof out);
    assert_string_equal(out, "S3 E5 ");
    assert_true(gt_capture_done(&c));
    plan(&c, "0-1,2-3,7", 0);
    drive(&c, 10, NULL, out, sizeof out);
    assert_string_equal(out, "S0 E1 S2 E3 S7 E7 ");
    plan(&c, "4-20", 0); /* the program ends first: the range stays open */
    drive(&c, 8, NULL, out, sizeof out);
    assert_string_equal(out, "S4 ");
    assert_false(gt_capture_done(&c));
}

static void test_triggered(void **state)
{
    (void)state;
    gt_capture_plan c;
    char out[256];
    gt_frameranges none = {0};
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(gt_capture_init(&c, &none, 1, &err), 0);
    /* start during frame 2, stop during frame 6, start again during frame 8 */
    drive(&c, 10, "..x...x.x.", out, sizeof out);
    assert_string_equal(out, "S3 E6 S9 ");
    plan(&c, "+2", 1); /* two frames from each trigger; one while they are written is ignored */
    drive(&c, 12, ".x.x...x....", out, sizeof out);
    assert_string_equal(out, "S2 E3 S8 E9 ");
    gt_frameranges r = parse("1-2");
    gt_error_clear(&err);
    assert_int_equal(gt_capture_init(&c, &r, 1, &err), -1);
    assert_true(tb_contains(err.msg, "not frame numbers"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_numbered),
        cmocka_unit_test(test_triggered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
