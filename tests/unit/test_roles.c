/* Function roles (specs/roles.txt through gt_roles.h), the call state they drive
 * (gt_callstate.h) and the frame counter both timelines write (gt_timeline_frame.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gt_callstate.h"
#include "gt_roles.h"
#include "gt_timeline_frame.h"

#define GL_COMPILE 0x1300

static void test_lookup(void **state)
{
    (void)state;
    gt_roles r = gt_roles_lookup("glBegin");
    assert_int_equal(r.bits, GT_ROLE_GL | GT_ROLE_BEGIN | GT_ROLE_GPU);
    r = gt_roles_lookup("glXMakeCurrent");
    assert_int_equal(r.bits, GT_ROLE_WS | GT_ROLE_GLX | GT_ROLE_CURRENT);
    assert_int_equal(r.arg, 2); /* ctx */
    assert_int_equal(r.arg2, 1); /* drawable */
    assert_int_equal(gt_roles_lookup("eglSwapBuffers").bits, GT_ROLE_WS | GT_ROLE_EGL | GT_ROLE_SWAP);
    assert_true(gt_roles_lookup("glGetError").bits & GT_ROLE_GETERROR);
    assert_true(gt_roles_lookup("glDrawElementsInstanced").bits & GT_ROLE_DRAW);
    assert_true(gt_roles_lookup("glStringMarkerGREMEDY").bits & GT_ROLE_UNLISTED);
    /* outside the registry: the family by prefix only */
    assert_int_equal(gt_roles_lookup("glNoSuchFunctionXYZ").bits, GT_ROLE_GL);
    assert_int_equal(gt_roles_lookup("glXNoSuchFunction").bits, GT_ROLE_WS | GT_ROLE_GLX);
    assert_int_equal(gt_roles_lookup("eglNoSuchFunction").bits, GT_ROLE_WS | GT_ROLE_EGL);
    assert_int_equal(gt_roles_lookup("D3D11CreateDevice").bits, GT_ROLE_D3D);
    assert_int_equal(gt_roles_lookup("NoFamily").bits, 0);
    assert_int_equal(gt_roles_lookup("memcpy").bits, 0);
    assert_int_equal(gt_roles_lookup("memcpy").arg, -1);
}

static void test_find_arg(void **state)
{
    (void)state;
    const char *names[] = {"target", "len", "message"};
    gt_func_sig sig = {.id = 0, .name = "glThing", .num_args = 3, .arg_names = names};
    assert_int_equal(gt_roles_find_arg(&sig, gt_roles_marker_text_args), 2);
    assert_int_equal(gt_roles_find_arg(&sig, gt_roles_marker_length_args), 1);
    sig.num_args = 1;
    assert_int_equal(gt_roles_find_arg(&sig, gt_roles_marker_text_args), -1);
}

/* Steps S past a call of NAME with one or two unsigned arguments. */
static void step(gt_callstate *s, const char *name, uint64_t a0, uint64_t a1)
{
    gt_value args[2] = {{.kind = GT_UINT, .u = a0}, {.kind = GT_ENUM, .en = {NULL, (int64_t)a1}}};
    gt_func_sig sig = {.id = 0, .name = name, .num_args = 2};
    gt_call c = {.sig = &sig, .num_args = 2, .args = args};
    gt_callstate_after(s, gt_roles_lookup(name), &c);
}

static void test_callstate(void **state)
{
    (void)state;
    gt_callstate s = {0};
    step(&s, "glBegin", 0, 0);
    assert_true(s.in_begin_end && s.in_block);
    step(&s, "glEnd", 0, 0);
    assert_false(s.in_begin_end || s.in_block);
    /* compiled into a list: inside glBegin/glEnd, but no block runs */
    step(&s, "glNewList", 1, GL_COMPILE);
    assert_true(s.in_list);
    step(&s, "glBegin", 0, 0);
    assert_true(s.in_begin_end);
    assert_false(s.in_block);
    step(&s, "glEnd", 0, 0);
    assert_false(s.in_begin_end);
    step(&s, "glEndList", 0, 0);
    assert_false(s.in_list);
    step(&s, "glUseProgram", 7, 0);
    assert_int_equal(s.program, 7);
    step(&s, "glUseProgramObjectARB", 9, 0);
    assert_int_equal(s.program, 9);
    step(&s, "glClear", 0, 0); /* no role: nothing changes */
    assert_int_equal(s.program, 9);
    assert_false(s.in_list || s.in_begin_end || s.in_block);
}

static void test_frame_counter(void **state)
{
    (void)state;
    gt_timeline tl;
    assert_int_equal(gt_timeline_init(&tl), 0);
    gt_tl_frame_strs s;
    assert_int_equal(gt_tl_frame_strs_init(&tl, &s), 0);
    gt_tl_arg a[2];
    gt_tl_event ev = gt_tl_frame_counter(&s, a, 5, 6, 1000000, 3500000, 42);
    assert_int_equal(ev.kind, GT_TL_COUNTER);
    assert_int_equal(ev.ts, 3500000); /* at the frame's end */
    assert_int_equal(ev.pid, 5);
    assert_int_equal(ev.tid, 6);
    assert_string_equal(gt_tl_str_get(&tl, ev.name, NULL), "frame");
    assert_string_equal(gt_tl_str_get(&tl, ev.cat, NULL), "gl");
    assert_int_equal(ev.nargs, 2);
    assert_ptr_equal(ev.args, a);
    assert_string_equal(gt_tl_str_get(&tl, a[0].name, NULL), "ms");
    assert_true(a[0].kind == GT_TL_ARG_DOUBLE && a[0].v.d == 2.5);
    assert_string_equal(gt_tl_str_get(&tl, a[1].name, NULL), "calls");
    assert_true(a[1].kind == GT_TL_ARG_U64 && a[1].v.u == 42);
    gt_timeline_free(&tl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookup),
        cmocka_unit_test(test_find_arg),
        cmocka_unit_test(test_callstate),
        cmocka_unit_test(test_frame_counter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
