/* The timeline model: string interning, and the buffer, counts, tee, shift and
 * text sinks every conversion is built from. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_timeline.h"
#include "gt_timeline_text.h"

static void intern_dedups_and_survives_growth(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    assert_int_equal(gt_tl_intern(&tl, "", 0), 0);
    gt_tl_str a = gt_tl_intern_cstr(&tl, "glDrawArrays");
    assert_true(a > 0);
    assert_int_equal(gt_tl_intern(&tl, "glDrawArraysXYZ", 12), a); /* a prefix is the same string */
    char name[32];
    gt_tl_str ids[20000];
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "s%d", i);
        ids[i] = gt_tl_intern_cstr(&tl, name);
        assert_true(ids[i] != (gt_tl_str)-1);
    }
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "s%d", i);
        assert_int_equal(gt_tl_intern_cstr(&tl, name), ids[i]);
        uint32_t len;
        assert_string_equal(gt_tl_str_get(&tl, ids[i], &len), name);
        assert_int_equal(len, strlen(name));
    }
    assert_int_equal(gt_tl_str_count(&tl), 20002);
    assert_string_equal(gt_tl_str_get(&tl, 99999999, NULL), ""); /* unknown id */
    /* embedded NUL bytes are part of the string */
    gt_tl_str z1 = gt_tl_intern(&tl, "a\0b", 3), z2 = gt_tl_intern(&tl, "a\0c", 3);
    assert_true(z1 != z2);
    gt_timeline_free(&tl);
}

static gt_tl_event slice(gt_timeline *tl, int64_t ts, const char *name, gt_tl_arg *args, uint32_t n)
{
    return (gt_tl_event){.kind = GT_TL_COMPLETE, .ts = ts, .dur = 5, .pid = 1, .tid = 2,
                         .cat = gt_tl_intern_cstr(tl, "gl"), .name = gt_tl_intern_cstr(tl, name),
                         .nargs = n, .args = args};
}

static void buffer_copies_args_and_strings(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_buffer buf;
    gt_tl_buffer_init(&buf);
    gt_tl_sink sink = gt_tl_buffer_sink(&buf);
    gt_error err;
    gt_error_clear(&err);
    char text[16];
    for (int i = 0; i < 1000; i++) {
        snprintf(text, sizeof text, "v%d", i);
        gt_tl_arg args[2] = {
            {.name = gt_tl_intern_cstr(&tl, "call"), .kind = GT_TL_ARG_U64, .v.u = (uint64_t)i},
            {.name = gt_tl_intern_cstr(&tl, "s"), .kind = GT_TL_ARG_STRING,
             .v.s = {text, (uint32_t)strlen(text)}},
        };
        gt_tl_event ev = slice(&tl, i * 10, "glClear", args, 2);
        assert_int_equal(gt_tl_emit(&sink, &tl, &ev, &err), 0);
        memset(text, 'x', sizeof text); /* the buffer must not point into our stack */
    }
    assert_int_equal(buf.count, 1000);
    assert_int_equal(buf.events[999].ts, 9990);
    assert_int_equal(buf.events[999].args[0].v.u, 999);
    assert_memory_equal(buf.events[999].args[1].v.s.p, "v999", 4);
    assert_non_null(gt_tl_arg_find(&tl, &buf.events[3], "s"));
    assert_null(gt_tl_arg_find(&tl, &buf.events[3], "nope"));

    /* replay through a shift into counts and a second buffer (tee) */
    gt_tl_counts counts = {0};
    gt_tl_sink cs = gt_tl_counts_sink(&counts);
    gt_tl_buffer copy;
    gt_tl_buffer_init(&copy);
    gt_tl_sink bs = gt_tl_buffer_sink(&copy);
    gt_tl_tee tee = {.a = &cs, .b = &bs};
    gt_tl_sink ts = gt_tl_tee_sink(&tee);
    gt_tl_shift sh = {.to = &ts, .ts_offset = -5};
    gt_tl_sink ss = gt_tl_shift_sink(&sh);
    assert_int_equal(gt_tl_buffer_replay(&buf, &tl, &ss, &err), 0);
    assert_int_equal(gt_tl_finish(&ss, &tl, &err), 0);
    assert_int_equal(counts.n[GT_TL_COMPLETE], 1000);
    assert_int_equal(copy.events[0].ts, -5);
    assert_int_equal(copy.events[999].ts, 9985);
    gt_tl_buffer_free(&copy);
    gt_tl_buffer_free(&buf);
    gt_timeline_free(&tl);
}

static int64_t seen_wall;
static int wall_event(void *self, const gt_timeline *tl, const gt_tl_event *ev, gt_error *err)
{
    (void)self, (void)ev, (void)err;
    seen_wall = tl->has_wall ? tl->wall_offset_ns : -1;
    return 0;
}

static void shift_keeps_wall_time(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    tl.has_wall = true;
    tl.wall_offset_ns = 1000000;
    gt_tl_sink probe = {.event = wall_event};
    gt_tl_shift sh = {.to = &probe, .ts_offset = 250};
    gt_tl_sink ss = gt_tl_shift_sink(&sh);
    gt_error err;
    gt_error_clear(&err);
    gt_tl_event ev = slice(&tl, 10, "x", NULL, 0);
    assert_int_equal(gt_tl_emit(&ss, &tl, &ev, &err), 0);
    /* ts 10 + anchor 1000000 = ts 260 + anchor 999750 */
    assert_int_equal(seen_wall, 999750);
    assert_int_equal(tl.wall_offset_ns, 1000000); /* the input's context is untouched */
    gt_timeline_free(&tl);
}

static void text_form(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    char *out = NULL;
    size_t outlen = 0;
    FILE *f = open_memstream(&out, &outlen);
    gt_tl_text text = {.out = f, .name = "mem"};
    gt_tl_sink sink = gt_tl_text_sink(&text);
    gt_error err;
    gt_error_clear(&err);
    gt_tl_arg args[3] = {
        {.name = gt_tl_intern_cstr(&tl, "call"), .kind = GT_TL_ARG_U64, .v.u = 42},
        {.name = gt_tl_intern_cstr(&tl, "msg"), .kind = GT_TL_ARG_STRING, .v.s = {"a \"b\"\t\n", 7}},
        {.name = gt_tl_intern_cstr(&tl, "d"), .kind = GT_TL_ARG_DOUBLE, .v.d = 0.5},
    };
    gt_tl_event ev = slice(&tl, 1000, "glDrawArrays", args, 3);
    assert_int_equal(gt_tl_emit(&sink, &tl, &ev, &err), 0);
    gt_tl_event cs = {.kind = GT_TL_CONTEXT_SWITCH, .ts = 7,
                      .cs = {.cpu = 3, .out_pid = 10, .out_tid = 11, .in_pid = 20, .in_tid = 21,
                             .out_state = 2, .out_prio = 120, .in_prio = 100}};
    assert_int_equal(gt_tl_emit(&sink, &tl, &cs, &err), 0);
    assert_int_equal(gt_tl_finish(&sink, &tl, &err), 0);
    fclose(f);
    assert_string_equal(out,
        "complete\t1000\t5\t1\t2\tgl\tglDrawArrays\t0\t0\tcall=42 msg=\"a \\\"b\\\"\\t\\n\" d=0.5\n"
        "context_switch\t7\t0\t20\t21\t\t\t0\t0\tcpu=3 out_pid=10 out_tid=11 in_pid=20 in_tid=21 "
        "out_state=2 out_prio=120 in_prio=100\n");
    free(out);
    gt_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intern_dedups_and_survives_growth),
        cmocka_unit_test(buffer_copies_args_and_strings),
        cmocka_unit_test(shift_keeps_wall_time),
        cmocka_unit_test(text_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
