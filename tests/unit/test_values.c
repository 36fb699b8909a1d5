/* Every value kind goes through at_writer into a file, comes back through at_reader
 * with the same fields, and dumps exactly as `apitrace dump` prints it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "at_writer.h"
#include "trace_builder.h"

/* ---- signatures the values use ---- */

static gt_enum_value en_vals[] = {{"GL_ZERO", 0}, {"GL_ONE", 1}, {"NEG", -5}};
static gt_enum_sig en_sig = {.id = 3, .num_values = 3, .values = en_vals};
static gt_bitmask_flag ab_flags[] = {{"A", 1}, {"B", 2}};
static gt_bitmask_sig ab_sig = {.id = 1, .num_flags = 2, .flags = ab_flags};
/* a zero flag is printed only for the value zero */
static gt_bitmask_flag z_flags[] = {{"NONE", 0}, {"X", 4}};
static gt_bitmask_sig z_sig = {.id = 2, .num_flags = 2, .flags = z_flags};
static const char *s_names[] = {"a", "b"};
static gt_struct_sig s_sig = {.id = 0, .name = "S", .num_members = 2, .member_names = s_names};
static const char *t_names[] = {"s", "c"};
static gt_struct_sig t_sig = {.id = 1, .name = "T", .num_members = 2, .member_names = t_names};
/* an anonymous struct member is flattened into its parent */
static const char *u_names[] = {"", "z"};
static gt_struct_sig u_sig = {.id = 2, .name = "U", .num_members = 2, .member_names = u_names};
static gt_struct_sig e_sig = {.id = 3, .name = "E", .num_members = 0, .member_names = NULL};

static const char *f_args[] = {"x"};
static gt_func_sig f_sig = {.id = 0, .name = "f", .num_args = 1, .arg_names = f_args};

/* ---- writers, one per case ---- */

#define W(fn, ...) static void fn(at_writer *w) { __VA_ARGS__; }
static const uint32_t wide[] = {'h', 'i', 0x263a, '"', '\n'};
static const uint8_t blob3[] = {1, 2, 0xff};

W(w_null, at_writer_null(w))
W(w_false, at_writer_bool(w, false))
W(w_true, at_writer_bool(w, true))
W(w_sint_neg, at_writer_sint(w, -1))
W(w_sint_zero, at_writer_sint(w, 0))
W(w_sint_max, at_writer_sint(w, INT64_MAX))
W(w_sint_min1, at_writer_sint(w, INT64_MIN + 1))
W(w_uint_max, at_writer_uint(w, UINT64_MAX))
W(w_float, at_writer_float(w, 1.5f))
W(w_float_tenth, at_writer_float(w, 0.1f))
W(w_float_whole, at_writer_float(w, 1234567.0f))
W(w_float_1e7, at_writer_float(w, 1e7f))
W(w_float_big, at_writer_float(w, 123456789.0f))
W(w_float_negzero, at_writer_float(w, -0.0f))
W(w_float_inf, at_writer_float(w, -INFINITY))
W(w_float_nan, at_writer_float(w, NAN))
W(w_double_third, at_writer_double(w, 1.0 / 3.0))
W(w_double_tenth, at_writer_double(w, 0.1))
W(w_double_whole, at_writer_double(w, 1e15))
W(w_double_1e16, at_writer_double(w, 1e16))
W(w_double_negzero, at_writer_double(w, -0.0))
W(w_double_inf, at_writer_double(w, INFINITY))
W(w_double_nan, at_writer_double(w, NAN))
W(w_double_tiny, at_writer_double(w, -2.5e-10))
W(w_str, at_writer_cstring(w, "hello"))
W(w_str_empty, at_writer_cstring(w, ""))
W(w_str_utf8, at_writer_cstring(w, "caf\xc3\xa9"))
W(w_str_escapes, at_writer_cstring(w, "a\"b\\c\td\re\nf\x1b\x01\x7f\x80"))
W(w_str_nul, at_writer_string(w, "ab\0cd", 5))
W(w_str_null, at_writer_cstring(w, NULL))
W(w_wstr, at_writer_wstring(w, wide, 5))
W(w_wstr_empty, at_writer_wstring(w, wide, 0))
W(w_blob, at_writer_blob(w, blob3, 3))
W(w_blob_empty, at_writer_blob(w, blob3, 0))
W(w_enum_found, at_writer_enum(w, &en_sig, 1))
W(w_enum_neg, at_writer_enum(w, &en_sig, -5))
W(w_enum_missing, at_writer_enum(w, &en_sig, 42))
W(w_enum_missing_neg, at_writer_enum(w, &en_sig, -7))
W(w_bm_two, at_writer_bitmask(w, &ab_sig, 3))
W(w_bm_left, at_writer_bitmask(w, &ab_sig, 1 | 2 | 8))
W(w_bm_only_left, at_writer_bitmask(w, &ab_sig, 0x10))
W(w_bm_zero, at_writer_bitmask(w, &ab_sig, 0))
W(w_bm_zero_flag, at_writer_bitmask(w, &z_sig, 0))
W(w_bm_x, at_writer_bitmask(w, &z_sig, 4))
W(w_arr0, at_writer_begin_array(w, 0))
W(w_arr1, at_writer_begin_array(w, 1); at_writer_uint(w, 1))
W(w_arr3, at_writer_begin_array(w, 3); at_writer_uint(w, 1); at_writer_sint(w, -2);
  at_writer_cstring(w, "s"))
W(w_arr_nested, at_writer_begin_array(w, 2); at_writer_begin_array(w, 2); at_writer_uint(w, 1);
  at_writer_uint(w, 2); at_writer_begin_array(w, 1); at_writer_uint(w, 3))
W(w_struct, at_writer_begin_struct(w, &s_sig); at_writer_uint(w, 1); at_writer_cstring(w, "x"))
W(w_struct_nested, at_writer_begin_struct(w, &t_sig); at_writer_begin_struct(w, &s_sig);
  at_writer_uint(w, 1); at_writer_cstring(w, "x"); at_writer_double(w, 2.5))
W(w_struct_anon, at_writer_begin_struct(w, &u_sig); at_writer_begin_struct(w, &s_sig);
  at_writer_uint(w, 1); at_writer_cstring(w, "x"); at_writer_bool(w, true))
W(w_struct_empty, at_writer_begin_struct(w, &e_sig))
W(w_ptr, at_writer_pointer(w, 0xDEADBEEFull))
W(w_ptr_max, at_writer_pointer(w, UINT64_MAX))
W(w_ptr_null, at_writer_pointer(w, 0))
W(w_repr, at_writer_begin_repr(w); at_writer_cstring(w, "GL_FOO"); at_writer_uint(w, 7))

/* ---- expected values ---- */

#define V(...) {__VA_ARGS__}
static gt_value one = V(.kind = GT_UINT, .u = 1),
                three = V(.kind = GT_UINT, .u = 3);
static gt_value arr3_items[] = {V(.kind = GT_UINT, .u = 1), V(.kind = GT_SINT, .i = -2),
                                V(.kind = GT_STRING, .str = {"s", 1})};
static gt_value inner12[] = {V(.kind = GT_UINT, .u = 1), V(.kind = GT_UINT, .u = 2)};
static gt_value nested_items[] = {V(.kind = GT_ARRAY, .arr = {inner12, 2}),
                                  V(.kind = GT_ARRAY, .arr = {&three, 1})};
static gt_value s_members[] = {V(.kind = GT_UINT, .u = 1), V(.kind = GT_STRING, .str = {"x", 1})};
static gt_value t_members[] = {V(.kind = GT_STRUCT, .st = {&s_sig, s_members}),
                               V(.kind = GT_DOUBLE, .d = 2.5)};
static gt_value u_members[] = {V(.kind = GT_STRUCT, .st = {&s_sig, s_members}),
                               V(.kind = GT_BOOL, .b = true)};
static gt_value repr_human = V(.kind = GT_STRING, .str = {"GL_FOO", 6}),
                repr_machine = V(.kind = GT_UINT, .u = 7);

typedef struct vcase {
    void (*write)(at_writer *w);
    gt_value expect;
    const char *dump;      /* multiline dump */
    const char *dump_flat; /* multiline off; NULL: same */
} vcase;

static const vcase cases[] = {
    {w_null, V(.kind = GT_NULL), "NULL", NULL},
    {w_false, V(.kind = GT_BOOL, .b = false), "false", NULL},
    {w_true, V(.kind = GT_BOOL, .b = true), "true", NULL},
    {w_sint_neg, V(.kind = GT_SINT, .i = -1), "-1", NULL},
    {w_sint_zero, V(.kind = GT_UINT, .u = 0), "0", NULL}, /* non-negative: the uint tag */
    {w_sint_max, V(.kind = GT_UINT, .u = INT64_MAX), "9223372036854775807", NULL},
    {w_sint_min1, V(.kind = GT_SINT, .i = INT64_MIN + 1), "-9223372036854775807", NULL},
    {w_uint_max, V(.kind = GT_UINT, .u = UINT64_MAX), "18446744073709551615", NULL},
    {w_float, V(.kind = GT_FLOAT, .f = 1.5f), "1.5", NULL},
    {w_float_tenth, V(.kind = GT_FLOAT, .f = 0.1f), "0.1", NULL},
    {w_float_whole, V(.kind = GT_FLOAT, .f = 1234567.0f), "1234567", NULL},
    {w_float_1e7, V(.kind = GT_FLOAT, .f = 1e7f), "1e+07", NULL},
    {w_float_big, V(.kind = GT_FLOAT, .f = 123456789.0f), "1.234568e+08", NULL},
    {w_float_negzero, V(.kind = GT_FLOAT, .f = -0.0f), "-0", NULL},
    {w_float_inf, V(.kind = GT_FLOAT, .f = -INFINITY), "-inf", NULL},
    {w_float_nan, V(.kind = GT_FLOAT, .f = NAN), "nan", NULL},
    {w_double_third, V(.kind = GT_DOUBLE, .d = 1.0 / 3.0), "0.3333333333333333", NULL},
    {w_double_tenth, V(.kind = GT_DOUBLE, .d = 0.1), "0.1", NULL},
    {w_double_whole, V(.kind = GT_DOUBLE, .d = 1e15), "1000000000000000", NULL},
    {w_double_1e16, V(.kind = GT_DOUBLE, .d = 1e16), "1e+16", NULL},
    {w_double_negzero, V(.kind = GT_DOUBLE, .d = -0.0), "-0", NULL},
    {w_double_inf, V(.kind = GT_DOUBLE, .d = INFINITY), "inf", NULL},
    {w_double_nan, V(.kind = GT_DOUBLE, .d = NAN), "nan", NULL},
    {w_double_tiny, V(.kind = GT_DOUBLE, .d = -2.5e-10), "-2.5e-10", NULL},
    {w_str, V(.kind = GT_STRING, .str = {"hello", 5}), "\"hello\"", NULL},
    {w_str_empty, V(.kind = GT_STRING, .str = {"", 0}), "\"\"", NULL},
    /* bytes >= 0x80: backslash, middle octal digit twice, last digit */
    {w_str_utf8, V(.kind = GT_STRING, .str = {"caf\xc3\xa9", 5}), "\"caf\\3\\551\"", NULL},
    {w_str_escapes, V(.kind = GT_STRING, .str = {"a\"b\\c\td\re\nf\x1b\x01\x7f\x80", 15}),
     "\"a\\\"b\\\\c\tde\nf\\333\\1\\777\\0\"", "\"a\\\"b\\\\c\tde\\nf\\333\\1\\777\\0\""},
    /* the bytes survive, the dump stops at the NUL as apitrace's C strings do */
    {w_str_nul, V(.kind = GT_STRING, .str = {"ab\0cd", 5}), "\"ab\"", NULL},
    {w_str_null, V(.kind = GT_NULL), "NULL", NULL},
    {w_wstr, V(.kind = GT_WSTRING, .wstr = {wide, 5}), "L\"hi\\772\\\"\n\"", "L\"hi\\772\\\"\\n\""},
    {w_wstr_empty, V(.kind = GT_WSTRING, .wstr = {NULL, 0}), "L\"\"", NULL},
    {w_blob, V(.kind = GT_BLOB, .blob = {blob3, 3}), "blob(3)", NULL},
    {w_blob_empty, V(.kind = GT_BLOB, .blob = {blob3, 0}), "blob(0)", NULL},
    {w_enum_found, V(.kind = GT_ENUM, .en = {&en_sig, 1}), "GL_ONE", NULL},
    {w_enum_neg, V(.kind = GT_ENUM, .en = {&en_sig, -5}), "NEG", NULL},
    {w_enum_missing, V(.kind = GT_ENUM, .en = {&en_sig, 42}), "42", NULL},
    {w_enum_missing_neg, V(.kind = GT_ENUM, .en = {&en_sig, -7}), "-7", NULL},
    {w_bm_two, V(.kind = GT_BITMASK, .bm = {&ab_sig, 3}), "A | B", NULL},
    {w_bm_left, V(.kind = GT_BITMASK, .bm = {&ab_sig, 11}), "A | B | 0x8", NULL},
    {w_bm_only_left, V(.kind = GT_BITMASK, .bm = {&ab_sig, 0x10}), "0x10", NULL},
    {w_bm_zero, V(.kind = GT_BITMASK, .bm = {&ab_sig, 0}), "0x0", NULL},
    {w_bm_zero_flag, V(.kind = GT_BITMASK, .bm = {&z_sig, 0}), "NONE", NULL},
    {w_bm_x, V(.kind = GT_BITMASK, .bm = {&z_sig, 4}), "X", NULL},
    {w_arr0, V(.kind = GT_ARRAY, .arr = {NULL, 0}), "{}", NULL},
    {w_arr1, V(.kind = GT_ARRAY, .arr = {&one, 1}), "&1", NULL},
    {w_arr3, V(.kind = GT_ARRAY, .arr = {arr3_items, 3}), "{1, -2, \"s\"}", NULL},
    {w_arr_nested, V(.kind = GT_ARRAY, .arr = {nested_items, 2}), "{{1, 2}, &3}", NULL},
    {w_struct, V(.kind = GT_STRUCT, .st = {&s_sig, s_members}), "{a = 1, b = \"x\"}", NULL},
    {w_struct_nested, V(.kind = GT_STRUCT, .st = {&t_sig, t_members}),
     "{s = {a = 1, b = \"x\"}, c = 2.5}", NULL},
    {w_struct_anon, V(.kind = GT_STRUCT, .st = {&u_sig, u_members}),
     "{a = 1, b = \"x\", z = true}", NULL},
    {w_struct_empty, V(.kind = GT_STRUCT, .st = {&e_sig, NULL}), "{}", NULL},
    {w_ptr, V(.kind = GT_POINTER, .u = 0xdeadbeef), "0xdeadbeef", NULL},
    {w_ptr_max, V(.kind = GT_POINTER, .u = UINT64_MAX), "0xffffffffffffffff", NULL},
    {w_ptr_null, V(.kind = GT_NULL), "NULL", NULL},
    {w_repr, V(.kind = GT_REPR, .repr = {&repr_human, &repr_machine}), "\"GL_FOO\"", NULL},
};
#define NCASES (sizeof cases / sizeof *cases)

/* Writes one call per case, the value both as argument and as return value. */
static char *write_cases(const vcase *cs, size_t n)
{
    char *path = tb_temp_path();
    gt_error err;
    gt_error_clear(&err);
    at_writer_property props[] = {{"process.name", "test_values"}, {"", "skipped"}};
    at_writer *w = at_writer_open(path, props, 2, &err);
    assert_non_null(w);
    for (size_t i = 0; i < n; ++i) {
        at_writer_begin_enter(w, &f_sig, 0, 0);
        at_writer_begin_arg(w, 0);
        cs[i].write(w);
        uint32_t no = at_writer_end_enter(w);
        assert_int_equal(no, i);
        at_writer_begin_leave(w, no);
        at_writer_begin_return(w);
        cs[i].write(w);
        at_writer_end_leave(w);
    }
    assert_int_equal(at_writer_close(w, &err), 1);
    return path;
}

static void check_dump(const gt_value *v, const vcase *c)
{
    char *s = tb_dump_value(v, true);
    assert_string_equal(s, c->dump);
    free(s);
    s = tb_dump_value(v, false);
    assert_string_equal(s, c->dump_flat ? c->dump_flat : c->dump);
    free(s);
}

/* Reads the file back and checks every call against its case. */
static void read_cases(const char *path, const vcase *cs, size_t n, bool skip_blobs)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options opt = {.skip_blob_data = skip_blobs};
    at_reader *r = at_reader_open(path, &opt, &err);
    assert_non_null(r);
    for (size_t i = 0; i < n; ++i) {
        gt_call *c = at_reader_next(r);
        assert_non_null(c);
        print_message("case %zu: %s\n", i, cs[i].dump);
        assert_int_equal(c->no, i);
        assert_string_equal(c->sig->name, "f");
        assert_int_equal(c->num_args, 1);
        assert_int_equal(c->arg_at_leave[0], 0);
        assert_non_null(c->ret);
        gt_value want = cs[i].expect;
        if (skip_blobs && want.kind == GT_BLOB)
            want.blob.data = NULL; /* only the size is kept */
        assert_true(tb_value_equal(&c->args[0], &want));
        assert_true(tb_value_equal(c->ret, &want));
        check_dump(&c->args[0], &cs[i]);
        at_reader_release(r, c);
    }
    assert_null(at_reader_next(r));
    assert_null(at_reader_error(r));
    assert_null(at_reader_warning(r));
    at_reader_close(r);
}

static void test_roundtrip_all_kinds(void **state)
{
    (void)state;
    char *path = write_cases(cases, NCASES);
    read_cases(path, cases, NCASES, false);
    unlink(path);
    free(path);
}

static void test_skip_blob_data(void **state)
{
    (void)state;
    char *path = write_cases(cases, NCASES);
    read_cases(path, cases, NCASES, true);
    unlink(path);
    free(path);
}

static void test_properties(void **state)
{
    (void)state;
    char *path = write_cases(cases, 1);
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    assert_int_equal(at_reader_version(r), 6);
    assert_int_equal(at_reader_semantic_version(r), 6);
    /* the property with an empty name would end the list: the writer drops it */
    assert_int_equal(at_reader_num_properties(r), 1);
    assert_string_equal(at_reader_property(r, 0)->name, "process.name");
    assert_string_equal(at_reader_property(r, 0)->value, "test_values");
    assert_null(at_reader_property(r, 1));
    at_reader_close(r);
    unlink(path);
    free(path);
}

/* Dump of values built by hand, for what the writer cannot produce. */
static void test_dump_absent_and_sint_tag(void **state)
{
    (void)state;
    gt_value absent = V(.kind = GT_ABSENT), negzero = V(.kind = GT_SINT, .i = 0);
    char *s = tb_dump_value(&absent, true);
    assert_string_equal(s, "");
    free(s);
    s = tb_dump_value(&negzero, true); /* 0x03 0x00 in a file: "minus zero" prints 0 */
    assert_string_equal(s, "0");
    free(s);
}

/* INT64_MIN is written as tag 0x03 + 2^63; reading it negates 2^63 as a signed
 * number. Kept apart from the other cases because UBSan aborts on it. */
W(w_sint_min, at_writer_sint(w, INT64_MIN))
static const vcase min_case[] = {
    {w_sint_min, V(.kind = GT_SINT, .i = INT64_MIN), "-9223372036854775808", NULL},
};

static void test_sint_min(void **state)
{
    (void)state;
    char *path = write_cases(min_case, 1);
    read_cases(path, min_case, 1, false);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_all_kinds),
        cmocka_unit_test(test_skip_blob_data),
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_dump_absent_and_sint_tag),
        cmocka_unit_test(test_sint_min),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
