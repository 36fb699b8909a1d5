/* The runtime of the generated GL replayers (retrace/gl/retrace_values.c and
 * retrace/gl/retrace_memcpy.c), without a GL context: value conversions, scratch, name
 * maps, uniform locations, mapped regions and the fake memcpy into them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gl/retrace_gl.h"

static int warnings;

static void count_warning(const gt_call *call, const char *msg)
{
    (void)call;
    (void)msg;
    warnings++;
}

static gt_value v_sint(int64_t i) { gt_value v = {.kind = GT_SINT}; v.i = i; return v; }
static gt_value v_uint(uint64_t u) { gt_value v = {.kind = GT_UINT}; v.u = u; return v; }
static gt_value v_ptr(uint64_t u) { gt_value v = {.kind = GT_POINTER}; v.u = u; return v; }
static gt_value v_flt(float f) { gt_value v = {.kind = GT_FLOAT}; v.f = f; return v; }
static gt_value v_dbl(double d) { gt_value v = {.kind = GT_DOUBLE}; v.d = d; return v; }
static gt_value v_blob(const void *data, size_t size)
{
    gt_value v = {.kind = GT_BLOB};
    v.blob.data = data;
    v.blob.size = size;
    return v;
}
static gt_value v_array(gt_value *items, size_t n)
{
    gt_value v = {.kind = GT_ARRAY};
    v.arr.items = items;
    v.arr.n = n;
    return v;
}

static void scalars(void **state)
{
    (void)state;
    gt_value e = {.kind = GT_ENUM}, b = {.kind = GT_BITMASK}, t = {.kind = GT_BOOL}, n = {.kind = GT_NULL};
    e.en.v = 0x1405;
    b.bm.v = 0x4100;
    t.b = true;
    gt_value v;
    assert_int_equal(retrace_sint((v = v_sint(-7), &v)), -7);
    assert_int_equal(retrace_uint((v = v_uint(0xffffffffu), &v)), 0xffffffffu);
    assert_int_equal(retrace_uint(&e), 0x1405);
    assert_int_equal(retrace_uint(&b), 0x4100);
    assert_int_equal(retrace_sint(&t), 1);
    assert_int_equal(retrace_sint(&n), 0);
    assert_true(retrace_float((v = v_flt(0.5f), &v)) == 0.5);
    assert_true(retrace_float((v = v_dbl(-2.25), &v)) == -2.25);
    assert_true(retrace_float((v = v_sint(3), &v)) == 3.0);
    gt_value one[1] = {v_sint(42)}; /* single values recorded as arrays of one */
    assert_int_equal(retrace_sint((v = v_array(one, 1), &v)), 42);
}

static void pointers(void **state)
{
    (void)state;
    gt_value v, n = {.kind = GT_NULL}, s = {.kind = GT_STRING};
    s.str.s = "void main() {}";
    s.str.len = strlen(s.str.s);
    assert_null(retrace_pointer(&n, 'u', 1));
    assert_ptr_equal(retrace_pointer((v = v_ptr(64), &v), 'u', 1), (const void *)64); /* an offset */
    assert_ptr_equal(retrace_pointer(&s, 'u', 1), s.str.s);
    static const uint8_t bytes[3] = {1, 2, 3};
    assert_ptr_equal(retrace_pointer((v = v_blob(bytes, 3), &v), 'u', 1), bytes);

    retrace_scratch_reset();
    gt_value f[3] = {v_flt(1.5f), v_dbl(2.5), v_sint(-1)};
    const float *pf = retrace_pointer((v = v_array(f, 3), &v), 'f', sizeof(float));
    assert_true(pf[0] == 1.5f && pf[1] == 2.5f && pf[2] == -1.0f);
    const double *pd = retrace_pointer(&v, 'd', sizeof(double));
    assert_true(pd[0] == 1.5 && pd[1] == 2.5 && pd[2] == -1.0);
    gt_value i[3] = {v_sint(-2), v_uint(65535), v_sint(7)};
    const int16_t *p16 = retrace_pointer((v = v_array(i, 3), &v), 'i', sizeof(int16_t));
    assert_int_equal(p16[0], -2);
    assert_int_equal(p16[2], 7);
    const uint32_t *p32 = retrace_pointer(&v, 'u', sizeof(uint32_t));
    assert_int_equal(p32[1], 65535);
    /* glShaderSource's strings and glMultiDrawElements' offsets */
    gt_value strs[3] = {s, v_ptr(16), n};
    const char *const *pp = retrace_pointer((v = v_array(strs, 3), &v), 'p', sizeof(void *));
    assert_ptr_equal(pp[0], s.str.s);
    assert_ptr_equal(pp[1], (const void *)16);
    assert_null(pp[2]);
}

static void scratch_and_outputs(void **state)
{
    (void)state;
    retrace_scratch_reset();
    char *small = retrace_scratch(10);
    char *big = retrace_scratch(1 << 20); /* past the reused block */
    memset(small, 1, 10);
    memset(big, 2, 1 << 20);
    assert_ptr_not_equal(small, big);
    retrace_scratch_reset();
    gt_value items[4] = {v_uint(1), v_uint(2), v_uint(3), v_uint(4)}, v = v_array(items, 4), n = {.kind = GT_NULL};
    assert_int_equal(retrace_out_count(&v, 2), 4);
    assert_int_equal(retrace_out_count(&v, 9), 9);
    assert_int_equal(retrace_out_count(&v, -1), 4);
    uint32_t *out = retrace_out(&v, 6, sizeof(uint32_t));
    for (int k = 0; k < 6; ++k)
        assert_int_equal(out[k], 0);
    assert_null(retrace_out(&n, 4, 4));
}

static void kept_client_arrays(void **state)
{
    (void)state;
    uint8_t data[16] = {9, 8, 7};
    gt_value v = v_blob(data, sizeof data);
    const uint8_t *copy = retrace_pointer_keep(&v);
    assert_ptr_not_equal(copy, data);
    data[0] = 0; /* the call's memory goes; the copy stays */
    assert_int_equal(copy[0], 9);
    for (int k = 0; k < 100; ++k) /* the newest copies survive later ones */
        assert_non_null(retrace_pointer_keep(&v));
    gt_value off = v_ptr(128);
    assert_ptr_equal(retrace_pointer_keep(&off), (const void *)128);
}

static void name_maps(void **state)
{
    (void)state;
    assert_int_equal(retrace_map_get("texture", 5), 5); /* unknown: itself */
    assert_int_equal(retrace_map_get("texture", 0), 0);
    retrace_map_set("texture", 5, 12);
    assert_int_equal(retrace_map_get("texture", 5), 12);
    assert_int_equal(retrace_map_get("buffer", 5), 5); /* namespaces apart */
    retrace_map_del("texture", 5);
    assert_int_equal(retrace_map_get("texture", 5), 5);
    for (uint64_t k = 1; k <= 20000; ++k) /* growth, with tombstones on the way */
        retrace_map_set("buffer", k, k + 100000);
    for (uint64_t k = 1; k <= 20000; k += 2)
        retrace_map_del("buffer", k);
    for (uint64_t k = 1; k <= 20000; ++k)
        assert_int_equal(retrace_map_get("buffer", k), k & 1 ? k : k + 100000);
    retrace_map_set("my namespace", 3, 4); /* one hand-written code names */
    assert_int_equal(retrace_map_get("my namespace", 3), 4);

    /* glGenTextures(2, [7, 8]) replayed as [1, 2]; glBindTextures; glDeleteTextures */
    gt_value traced[2] = {v_uint(7), v_uint(8)}, v = v_array(traced, 2);
    const uint32_t created[2] = {1, 2};
    retrace_map_set_names("texture", &v, created, sizeof(uint32_t), 2);
    retrace_scratch_reset();
    const uint32_t *mapped = retrace_map_names("texture", &v, sizeof(uint32_t));
    assert_int_equal(mapped[0], 1);
    assert_int_equal(mapped[1], 2);
    retrace_unmap_names("texture", &v);
    assert_int_equal(retrace_map_get("texture", 8), 8);

    /* glGenLists(3) = 10 traced, 40 replayed */
    gt_value ret = v_uint(10);
    retrace_map_range("display list", &ret, 40, 3);
    assert_int_equal(retrace_map_get("display list", 12), 42);
    retrace_unmap_range("display list", 10, 3);
    assert_int_equal(retrace_map_get("display list", 11), 11);
}

static void share_groups_and_contexts(void **state)
{
    (void)state;
    retrace_map_context(0xa1, 0xa1);
    retrace_map_set("buffer", 3, 30);
    retrace_map_set("vertex array", 1, 10);
    retrace_map_context(0xa2, 0xa1); /* created with shareList = 0xa1 */
    assert_int_equal(retrace_map_get("buffer", 3), 30);
    assert_int_equal(retrace_map_get("vertex array", 1), 1); /* VAOs are not shared */
    retrace_map_set("vertex array", 1, 11);
    retrace_map_context(0xb1, 0xb1); /* another group */
    assert_int_equal(retrace_map_get("buffer", 3), 3);
    retrace_map_context(0xa1, 0xa1);
    assert_int_equal(retrace_map_get("vertex array", 1), 10);
    retrace_map_context(0xa2, 0xa1);
    assert_int_equal(retrace_map_get("vertex array", 1), 11);
    retrace_map_context(0, 0);
    assert_int_equal(retrace_map_get("buffer", 3), 3);
}

static void locations(void **state)
{
    (void)state;
    assert_int_equal(retrace_location_get(3, 4), 4);
    retrace_location_set(3, 5, 5);
    assert_int_equal(retrace_location_current(7), 7); /* all alike: no GL query */
    retrace_location_set(3, 4, 9);
    retrace_location_set(5, 4, 1);
    assert_int_equal(retrace_location_get(3, 4), 9);
    assert_int_equal(retrace_location_get(5, 4), 1);
    assert_int_equal(retrace_location_get(3, -1), -1);
    retrace_location_set(3, 6, -1); /* a uniform the replay's compiler dropped */
    assert_int_equal(retrace_location_get(3, 6), -1);
}

static void mapped_regions_and_memcpy(void **state)
{
    (void)state;
    uint8_t mapped[64] = {0};
    retrace_ptr_set_key(0x7000, mapped, sizeof mapped, 3);
    uint64_t room = 0;
    assert_ptr_equal(retrace_ptr_lookup(0x7010, &room), mapped + 16);
    assert_int_equal(room, 48);
    assert_null(retrace_ptr_get(0x7040)); /* one past the end */
    assert_ptr_equal(retrace_ptr_get(0x7000), mapped);

    static const char bytes[] = "0123456789";
    gt_func_sig sig = {0, "memcpy", 3, NULL, 0};
    gt_value args[3] = {v_ptr(0x7004), v_blob(bytes, 10), v_uint(10)};
    gt_call call = {.no = 1, .sig = &sig, .num_args = 3, .args = args};
    warnings = 0;
    retrace_memcpy(&call);
    assert_memory_equal(mapped + 4, bytes, 10);
    assert_int_equal(warnings, 0);

    args[0] = v_ptr(0x703c); /* 4 bytes left: clamped, warned */
    retrace_memcpy(&call);
    assert_memory_equal(mapped + 60, bytes, 4);
    assert_int_equal(warnings, 1);

    retrace_ptr_del_key(3); /* unmapped */
    assert_null(retrace_ptr_get(0x7004));
    args[0] = v_ptr(0x7004);
    retrace_memcpy(&call);
    assert_int_equal(warnings, 2);

    uint8_t older[8], newer[8];
    retrace_ptr_set(0x9000, older, 8);
    retrace_ptr_set_key(0x9000, newer, 8, 4); /* the same address mapped again */
    assert_ptr_equal(retrace_ptr_get(0x9002), newer + 2);
}

static gt_value v_str(const char *s)
{
    gt_value v = {.kind = GT_STRING};
    v.str.s = s;
    v.str.len = strlen(s);
    return v;
}

/* The checks before any replayer runs (retrace_check.c) with the generated shapes: the
 * issue's damaged glUniformMatrix4fv, and each kind of parameter. */
static void calls_fit_their_function(void **state)
{
    (void)state;
    static const char *const names[6] = {"location", "count", "transpose", "value", "a4", "a5"};
    const retrace_entry *e = retrace_gl_entry("glUniformMatrix4fv");
    assert_non_null(e);
    assert_non_null(e->shape);
    assert_int_equal(e->shape->n, 4);
    gt_value en = {.kind = GT_ENUM}, null = {.kind = GT_NULL}, absent = {.kind = GT_ABSENT};
    en.en.v = 0x1406;
    gt_value m[16];
    for (int i = 0; i < 16; ++i)
        m[i] = v_flt(i % 5 == 0);
    gt_value args[6] = {v_sint(0), v_sint(1), v_uint(0), en, v_sint(0), v_sint(0)};
    gt_func_sig six = {7, "glUniformMatrix4fv", 6, (const char **)names, 0};
    gt_call c = {.no = 1, .sig = &six, .num_args = 6, .args = args};
    warnings = 0;
    assert_false(retrace_sig_fits(&c, e->shape, true)); /* six arguments */
    assert_int_equal(warnings, 1);

    gt_func_sig four = {8, "glUniformMatrix4fv", 4, (const char **)names, 0};
    c.sig = &four;
    c.num_args = 4;
    assert_true(retrace_sig_fits(&c, e->shape, true));
    assert_false(retrace_call_fits(&c, e->shape, false)); /* the enum where the matrices belong */
    assert_false(retrace_call_fits(&c, e->shape, true));
    assert_int_equal(warnings, 2); /* only when asked */
    args[3] = v_array(m, 16);
    assert_true(retrace_call_fits(&c, e->shape, true));
    args[3] = null;
    assert_true(retrace_call_fits(&c, e->shape, true));
    args[3] = v_ptr(0); /* a writer's NULL */
    assert_true(retrace_call_fits(&c, e->shape, true));
    args[3] = v_ptr(0x7f0000001000); /* an address of the recording process */
    assert_false(retrace_call_fits(&c, e->shape, false));
    args[3] = absent;
    assert_false(retrace_call_fits(&c, e->shape, false));
    gt_value pair[2] = {v_str("matrix"), v_array(m, 16)}, repr = {.kind = GT_REPR};
    repr.repr.human = &pair[0];
    repr.repr.machine = &pair[1];
    args[3] = repr; /* taken as its machine value */
    assert_true(retrace_call_fits(&c, e->shape, false));
    args[1] = v_str("1"); /* a string where an integer belongs */
    assert_false(retrace_call_fits(&c, e->shape, false));
    args[1] = v_sint(1);
    c.num_args = 3; /* a call built shorter than its function */
    assert_false(retrace_call_fits(&c, e->shape, false));

    /* data or an offset into the element buffer */
    e = retrace_gl_entry("glDrawElements");
    gt_value draw[4] = {v_uint(4), v_sint(6), v_uint(0x1403), v_ptr(0x10)};
    c = (gt_call){.no = 2, .sig = &four, .num_args = 4, .args = draw};
    assert_true(retrace_call_fits(&c, e->shape, false));
    draw[1] = v_str("6");
    assert_false(retrace_call_fits(&c, e->shape, false));

    /* string lists: each item a string (or NULL), never an address */
    e = retrace_gl_entry("glShaderSource");
    gt_value items[2] = {v_str("void main() {}"), null};
    gt_value src[4] = {v_uint(1), v_sint(2), v_array(items, 2), null};
    c = (gt_call){.no = 3, .sig = &four, .num_args = 4, .args = src};
    assert_true(retrace_call_fits(&c, e->shape, false));
    items[1] = v_uint(0x7f0000001000);
    assert_false(retrace_call_fits(&c, e->shape, false));
    gt_value addr = v_uint(0x7f0000001000), wrapped = {.kind = GT_REPR};
    wrapped.repr.human = &pair[0];
    wrapped.repr.machine = &addr;
    items[1] = wrapped; /* an address in a repr: still an address */
    assert_false(retrace_call_fits(&c, e->shape, false));
    items[1] = v_str("");
    gt_value list = v_array(items, 2), outer = {.kind = GT_REPR};
    wrapped.repr.machine = &list;
    src[2] = wrapped; /* a repr's list: its items checked as well */
    assert_true(retrace_call_fits(&c, e->shape, false));
    items[1] = addr;
    assert_false(retrace_call_fits(&c, e->shape, false));
    items[1] = v_str("");
    outer.repr.human = &pair[0];
    outer.repr.machine = &wrapped;
    src[2] = outer; /* a repr of a repr: no kind a parameter takes */
    assert_false(retrace_call_fits(&c, e->shape, false));

    /* outputs are the GL's to write: anything, even absent (a call cut by a crash) */
    e = retrace_gl_entry("glGenBuffers");
    gt_value gen[2] = {v_sint(1), absent};
    c = (gt_call){.no = 4, .sig = &four, .num_args = 2, .args = gen};
    assert_true(retrace_call_fits(&c, e->shape, false));

    /* functions replayed as nothing, the fake memcpy: not checked here */
    assert_null(retrace_gl_entry("glDebugMessageCallback")->shape);
    assert_null(retrace_gl_entry("memcpy")->shape);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalars),
        cmocka_unit_test(pointers),
        cmocka_unit_test(scratch_and_outputs),
        cmocka_unit_test(kept_client_arrays),
        cmocka_unit_test(name_maps),
        cmocka_unit_test(share_groups_and_contexts),
        cmocka_unit_test(locations),
        cmocka_unit_test(mapped_regions_and_memcpy),
        cmocka_unit_test(calls_fit_their_function),
    };
    retrace_set_warn(count_warning);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
