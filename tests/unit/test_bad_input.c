/* Every class of bad input ends in a clean failure: at_reader_open returns NULL with
 * "FILE: offset N: what", or at_reader_next returns NULL with such an error, after the
 * calls that were intact. A truncated container, or a plausible size running past the
 * end of the data, ends the trace with a warning instead, as apitrace reads such
 * traces. The CMake test sets ASAN_OPTIONS so that one huge allocation fails too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_builder.h"

/* ---- failing at open ---- */

static void expect_open_error(const void *data, size_t n, const char *needle)
{
    char *path = tb_temp_path();
    tb_write_file(path, data, n);
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path, NULL, &err);
    print_message("%s\n", err.msg);
    assert_null(r);
    assert_true(tb_contains(err.msg, path));
    assert_true(tb_contains(err.msg, ": offset "));
    assert_true(tb_contains(err.msg, needle));
    unlink(path);
    free(path);

    r = tb_open_mem(data, n, false, &err); /* the in-memory path says the same */
    assert_null(r);
    assert_true(tb_contains(err.msg, "mem.trace: offset "));
    assert_true(tb_contains(err.msg, needle));
}

static void expect_open_error_stream(const tb_buf *s, const char *needle)
{
    size_t n;
    uint8_t *file = tb_snappy(s->data, s->len, 1u << 20, &n);
    expect_open_error(file, n, needle);
    free(file);
}

/* A file that ends before its first call (a program killed at once): read as
 * an empty trace with a warning, no error, as apitrace dumps it (exit 0). */
static void expect_cut_before_calls(const void *data, size_t n, const char *needle)
{
    char *path = tb_temp_path();
    tb_write_file(path, data, n);
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    assert_null(at_reader_next(r));
    assert_null(at_reader_error(r));
    assert_non_null(at_reader_warning(r));
    print_message("%s\n", at_reader_warning(r));
    assert_true(tb_contains(at_reader_warning(r), path));
    assert_true(tb_contains(at_reader_warning(r), ": offset "));
    assert_true(tb_contains(at_reader_warning(r), needle));
    at_reader_close(r);
    unlink(path);
    free(path);
}

static void expect_cut_before_calls_stream(const tb_buf *s, const char *needle)
{
    size_t n;
    uint8_t *file = tb_snappy(s->data, s->len, 1u << 20, &n);
    expect_cut_before_calls(file, n, needle);
    free(file);
}

static void test_empty_file(void **state)
{
    (void)state;
    expect_cut_before_calls("", 0, "file ends before the trace header");
    expect_cut_before_calls("a", 1, "truncated");        /* half the Snappy magic */
    expect_cut_before_calls("\x1f", 1, "truncated");     /* half the gzip magic */
    expect_cut_before_calls("at", 2, "file ends before the trace header"); /* no chunk at all */
}

static void test_not_a_trace(void **state)
{
    (void)state;
    uint8_t junk[64];
    uint32_t x = 0x12345678;
    for (size_t i = 0; i < sizeof junk; ++i) { /* fixed pseudo-random bytes */
        x = x * 1664525u + 1013904223u;
        junk[i] = (uint8_t)(x >> 24);
    }
    junk[0] = 0xff; /* not 'a', not gzip, not zstd: tried as Brotli, which rejects it */
    expect_open_error(junk, sizeof junk, "not an apitrace trace");
    const char text[] = "This is a text file, not a trace at all.\n";
    expect_open_error(text, sizeof text - 1, "not an apitrace trace");
}

static void test_zstandard(void **state)
{
    (void)state;
    static const uint8_t zstd[] = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, 0x01, 0x00};
    expect_open_error(zstd, sizeof zstd, "Zstandard");
}

static void test_bad_header(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    tb_uint(&s, 7);
    expect_open_error_stream(&s, "unsupported trace version 7");
    tb_free(&s);

    tb_init(&s);
    tb_uint(&s, 1ull << 40);
    expect_open_error_stream(&s, "version");
    tb_free(&s);

    tb_init(&s);
    tb_uint(&s, 6);
    tb_uint(&s, 7);
    tb_uint(&s, 0);
    expect_open_error_stream(&s, "semantic version 7");
    tb_free(&s);

    tb_init(&s);
    tb_uint(&s, 6);
    expect_cut_before_calls_stream(&s, "file ends inside the trace header");
    tb_free(&s);

    tb_init(&s);
    tb_uint(&s, 6);
    tb_uint(&s, 6);
    tb_str(&s, "name");
    expect_cut_before_calls_stream(&s, "file ends inside the trace properties");
    tb_free(&s);

    tb_init(&s);
    tb_uint(&s, 6);
    tb_uint(&s, 6);
    tb_uint(&s, 1ull << 40); /* property name length */
    expect_open_error_stream(&s, "string length");
    tb_free(&s);

    tb_init(&s);
    for (int i = 0; i < 11; ++i)
        tb_byte(&s, 0x80);
    tb_byte(&s, 0x06);
    expect_open_error_stream(&s, "varint longer than 10 bytes");
    tb_free(&s);
}

static void test_corrupt_first_chunk(void **state)
{
    (void)state;
    /* ulen 10, then a copy from offset 5 of an empty output */
    static const uint8_t bad_copy[] = {'a', 't', 3, 0, 0, 0, 0x0a, 0x01, 0x05};
    expect_open_error(bad_copy, sizeof bad_copy, "corrupt Snappy data");
    static const uint8_t zero_len[] = {'a', 't', 0, 0, 0, 0, 0x06};
    expect_open_error(zero_len, sizeof zero_len, "corrupt Snappy chunk header");
    /* 1 GiB claimed by a 6-byte chunk */
    static const uint8_t huge[] = {'a', 't', 6, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x04, 0x00};
    expect_open_error(huge, sizeof huge, "impossible uncompressed size");
}

/* ---- failing while reading ---- */

static const char *x_args[] = {"x"};

/* v6 header and one good call "ok()" (function id 0, enum id 0 and frame id 0 are not
 * yet defined), unless bare. */
static void start(tb_buf *s, bool bare)
{
    tb_init(s);
    tb_header(s, 6);
    if (!bare)
        tb_simple_call(s, 0, 0, "ok");
}

/* Enter of call 1 with function id 1 "f(x)", then detail "arg 0" (the value follows). */
static void enter_arg(tb_buf *s)
{
    tb_enter(s, 6, 0, 1);
    tb_func_sig(s, "f", 1, x_args);
    tb_byte(s, AT_DETAIL_ARG);
    tb_uint(s, 0);
}

/* Appends filler so fast paths that need 10 bytes ahead are taken. */
static void pad(tb_buf *s)
{
    for (int i = 0; i < 16; ++i)
        tb_byte(s, 0);
}

static void check_read_error(const uint8_t *file, size_t n, bool skip_blobs, const char *needle,
                             const char *want_dump)
{
    gt_error err;
    at_reader *r = tb_open_mem(file, n, skip_blobs, &err);
    assert_non_null(r);
    char *error, *warning;
    char *text = tb_dump_all(r, &error, &warning);
    print_message("%s\n", error ? error : "(no error)");
    assert_string_equal(text, want_dump);
    assert_non_null(error);
    assert_true(tb_contains(error, "mem.trace: offset "));
    assert_true(tb_contains(error, needle));
    assert_null(at_reader_next(r)); /* stays stopped */
    assert_string_equal(at_reader_error(r), error);
    at_reader_close(r);
    free(text);
    free(error);
    free(warning);
}

/* The stream in one Snappy chunk and in chunks of 3 bytes (every event straddles),
 * each read with and without blob data. */
static void expect_read_error_ex(tb_buf *s, const char *needle, const char *want_dump)
{
    for (int chunked = 0; chunked < 2; ++chunked) {
        size_t n;
        uint8_t *file = tb_snappy(s->data, s->len, chunked ? 3 : 1u << 20, &n);
        check_read_error(file, n, false, needle, want_dump);
        check_read_error(file, n, true, needle, want_dump);
        free(file);
    }
    tb_free(s);
}

static void expect_read_error(tb_buf *s, const char *needle)
{
    expect_read_error_ex(s, needle, "0 @0 ok()\n");
}

static void test_long_varint(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, false);
    tb_byte(&s, AT_EVENT_LEAVE);
    for (int i = 0; i < 11; ++i)
        tb_byte(&s, 0x80);
    tb_byte(&s, 0x01);
    pad(&s);
    /* in one chunk the 10-bytes-ahead path; in 3-byte chunks the byte-by-byte one */
    expect_read_error(&s, "varint longer than 10 bytes");
}

/* Sizes no trace can hold are corruption, wherever the trace ends. */
static void test_absurd_sizes(void **state)
{
    (void)state;
    static const uint8_t value_types[] = {AT_TYPE_STRING, AT_TYPE_BLOB, AT_TYPE_ARRAY,
                                          AT_TYPE_WSTRING};
    static const char *const what[] = {"string length", "blob length", "array length",
                                       "wide string length"};
    static const uint64_t sizes[] = {1ull << 40, UINT64_MAX >> 1, UINT64_MAX};
    for (size_t t = 0; t < sizeof value_types; ++t) {
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k) {
            tb_buf s;
            start(&s, false);
            enter_arg(&s);
            tb_byte(&s, value_types[t]);
            tb_uint(&s, sizes[k]);
            tb_bytes(&s, "0123456789", 10);
            expect_read_error(&s, what[t]);
        }
    }
}

/* A plausible size that runs past the end of the data is how a trace cut at a chunk
 * boundary looks (a program killed while writing a big blob): it ends the trace like
 * any cut, with the calls still open returned as incomplete and a warning. */
static void test_sizes_past_end(void **state)
{
    (void)state;
    static const uint8_t value_types[] = {AT_TYPE_STRING, AT_TYPE_BLOB, AT_TYPE_ARRAY,
                                          AT_TYPE_WSTRING};
    static const char *const what[] = {"string length 40", "blob length 40", "array length 40",
                                       "wide string length 40"};
    for (size_t t = 0; t < sizeof value_types; ++t) {
        tb_buf s;
        start(&s, false);
        tb_enter(&s, 6, 0, 0); /* call 1: never left */
        tb_byte(&s, AT_DETAIL_END);
        enter_arg(&s);         /* call 2: cut inside its argument */
        tb_byte(&s, value_types[t]);
        tb_uint(&s, 40);
        tb_bytes(&s, "\0\0\0\0\0\0\0\0\0\0", 10); /* 10 bytes, or 10 elements */
        for (int chunked = 0; chunked < 2; ++chunked) {
            size_t n;
            uint8_t *file = tb_snappy(s.data, s.len, chunked ? 3 : 1u << 20, &n);
            for (int skip = 0; skip < 2; ++skip) {
                gt_error err;
                at_reader *r = tb_open_mem(file, n, skip, &err);
                assert_non_null(r);
                char *error, *warning;
                char *text = tb_dump_all(r, &error, &warning);
                assert_string_equal(text, "0 @0 ok()\n1 @0 ok() // incomplete\n");
                assert_null(error);
                assert_true(tb_contains(warning, "mem.trace: offset "));
                assert_true(tb_contains(warning, "1 call(s) left incomplete"));
                if (!chunked) /* the size is known to overrun only once the end is known */
                    assert_true(tb_contains(warning, what[t]));
                at_reader_stats st;
                at_reader_get_stats(r, &st);
                assert_int_equal(st.dropped, 1);
                free(text);
                free(warning);
                at_reader_close(r);
            }
            free(file);
        }
        tb_free(&s);
    }
}

static void test_absurd_counts(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, false); /* function signature with 2^31 argument names */
    tb_enter(&s, 6, 0, 1);
    tb_str(&s, "f");
    tb_uint(&s, 1u << 31);
    pad(&s);
    expect_read_error(&s, "name count");

    start(&s, false);
    tb_enter(&s, 6, 0, 1);
    tb_str(&s, "f");
    tb_uint(&s, 1ull << 40);
    pad(&s);
    expect_read_error(&s, "argument count");

    start(&s, false);
    enter_arg(&s);
    tb_byte(&s, AT_TYPE_ENUM);
    tb_uint(&s, 0);
    tb_uint(&s, 1u << 30);
    pad(&s);
    expect_read_error(&s, "enum value count");

    start(&s, false);
    enter_arg(&s);
    tb_byte(&s, AT_TYPE_BITMASK);
    tb_uint(&s, 0);
    tb_uint(&s, 1u << 30);
    pad(&s);
    expect_read_error(&s, "bitmask flag count");

    start(&s, false);
    enter_arg(&s);
    tb_byte(&s, AT_TYPE_STRUCT);
    tb_uint(&s, 0);
    tb_str(&s, "S");
    tb_uint(&s, 1u << 30);
    pad(&s);
    expect_read_error(&s, "name count");

    start(&s, false);
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_BACKTRACE);
    tb_uint(&s, 1u << 30);
    pad(&s);
    expect_read_error(&s, "backtrace frame count");
}

static void test_unknown_codes(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, false);
    tb_byte(&s, 0x02);
    pad(&s);
    expect_read_error(&s, "unknown event 0x02");

    start(&s, false);
    enter_arg(&s);
    tb_byte(&s, 0x10);
    pad(&s);
    expect_read_error(&s, "unknown value type 0x10");

    start(&s, false);
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, 0x06);
    pad(&s);
    expect_read_error(&s, "unknown call detail 0x06");

    start(&s, false); /* the same in a leave event */
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_END);
    tb_leave(&s, 1);
    tb_byte(&s, 0x7f);
    pad(&s);
    expect_read_error(&s, "unknown call detail 0x7f");

    start(&s, false);
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_BACKTRACE);
    tb_uint(&s, 1);
    tb_uint(&s, 0);
    tb_byte(&s, AT_FRAME_MODULE);
    tb_str(&s, "m");
    tb_byte(&s, 0x06);
    pad(&s);
    expect_read_error(&s, "unknown backtrace frame detail 0x06");

    start(&s, false); /* thread details belong to versions before 4 */
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_THREAD);
    tb_uint(&s, 1);
    pad(&s);
    expect_read_error(&s, "thread detail");

    start(&s, false);
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_ARG);
    tb_uint(&s, 1u << 20);
    tb_byte(&s, AT_TYPE_NULL);
    pad(&s);
    expect_read_error(&s, "argument index 1048576 is out of range");

    start(&s, false); /* enum signature values carry an integer tag */
    enter_arg(&s);
    tb_byte(&s, AT_TYPE_ENUM);
    tb_uint(&s, 0);
    tb_uint(&s, 1);
    tb_str(&s, "E");
    tb_byte(&s, AT_TYPE_STRING);
    tb_str(&s, "1");
    pad(&s);
    expect_read_error(&s, "expected an integer");
}

/* Signature ids index tables: one far beyond those defined would make a huge table. */
static void test_far_signature_ids(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, true);
    tb_enter(&s, 6, 0, 1u << 30);
    tb_func_sig(&s, "f", 0, NULL);
    tb_byte(&s, AT_DETAIL_END);
    pad(&s);
    expect_read_error_ex(&s, "function signature id 1073741824 is far beyond", "");

    static const uint8_t kinds[] = {AT_TYPE_ENUM, AT_TYPE_BITMASK, AT_TYPE_STRUCT};
    static const char *const names[] = {"enum signature id", "bitmask signature id",
                                        "struct signature id"};
    for (size_t k = 0; k < sizeof kinds; ++k) {
        start(&s, false);
        enter_arg(&s);
        tb_byte(&s, kinds[k]);
        tb_uint(&s, 1u << 30);
        if (kinds[k] == AT_TYPE_STRUCT)
            tb_str(&s, "S");
        tb_uint(&s, 0); /* no values, flags or members */
        if (kinds[k] != AT_TYPE_STRUCT)
            tb_sint(&s, 0);
        tb_byte(&s, AT_DETAIL_END);
        pad(&s);
        expect_read_error(&s, names[k]);
    }

    start(&s, false);
    tb_enter(&s, 6, 0, 0);
    tb_byte(&s, AT_DETAIL_BACKTRACE);
    tb_uint(&s, 1);
    tb_uint(&s, 1u << 30);
    tb_byte(&s, AT_FRAME_END);
    tb_byte(&s, AT_DETAIL_END);
    pad(&s);
    expect_read_error(&s, "backtrace frame signature id");
}

/* Ids that skip ahead a little are normal (trimmed traces): accepted. */
static void test_near_signature_id_accepted(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, true);
    tb_simple_call(&s, 0, 1000, "glFinish");
    tb_simple_call(&s, 1, 1000, NULL);
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    char *error;
    char *text = tb_dump_all(r, &error, NULL);
    assert_string_equal(text, "0 @0 glFinish()\n1 @0 glFinish()\n");
    assert_null(error);
    free(text);
    at_reader_close(r);
    free(file);
    tb_free(&s);
}

static void nest(tb_buf *s, unsigned levels, uint8_t type)
{
    for (unsigned i = 1; i < levels; ++i) {
        tb_byte(s, type);
        if (type == AT_TYPE_ARRAY)
            tb_uint(s, 1);
    }
    tb_byte(s, AT_TYPE_UINT);
    tb_uint(s, 1);
    if (type == AT_TYPE_REPR)
        for (unsigned i = 1; i < levels; ++i)
            tb_byte(s, AT_TYPE_NULL); /* the machine halves */
}

static void test_nesting(void **state)
{
    (void)state;
    for (int k = 0; k < 2; ++k) {
        uint8_t type = k ? AT_TYPE_REPR : AT_TYPE_ARRAY;
        tb_buf s;
        start(&s, false); /* 64 levels are fine */
        enter_arg(&s);
        nest(&s, 64, type);
        tb_byte(&s, AT_DETAIL_END);
        tb_leave(&s, 1);
        tb_byte(&s, AT_DETAIL_END);
        uint8_t *file;
        gt_error err;
        at_reader *r = tb_open_stream(&s, &file, &err);
        assert_non_null(r);
        char *error;
        char *text = tb_dump_all(r, &error, NULL);
        assert_null(error);
        assert_true(tb_contains(text, k ? "1 @0 f(x = 1)" : "1 @0 f(x = &&&&&&&&&&&&"));
        free(text);
        at_reader_close(r);
        free(file);
        tb_free(&s);

        start(&s, false);
        enter_arg(&s);
        nest(&s, 65, type);
        tb_byte(&s, AT_DETAIL_END);
        expect_read_error(&s, "nested deeper than 64 levels");
    }
}

/* A Snappy chunk whose declared length runs past the end of the file: the writer was
 * cut off. The calls before it come out, then a warning and no error. */
static void test_truncated_snappy_chunk(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, false);
    tb_simple_call(&s, 1, 0, NULL);
    size_t n;
    uint8_t *file = tb_snappy(s.data, s.len, 1u << 20, &n);
    tb_buf f;
    tb_init(&f);
    tb_bytes(&f, file, n);
    static const uint8_t chunk[] = {0x00, 0x10, 0x00, 0x00, 0x44, 0x01, 0x02}; /* 4096 declared */
    tb_bytes(&f, chunk, sizeof chunk);
    for (size_t cut = n + 1; cut <= f.len; ++cut) { /* also: a partial length field */
        gt_error err;
        at_reader *r = tb_open_mem(f.data, cut, false, &err);
        assert_non_null(r);
        char *error, *warning;
        char *text = tb_dump_all(r, &error, &warning);
        assert_string_equal(text, "0 @0 ok()\n1 @0 ok()\n");
        assert_null(error);
        assert_non_null(warning);
        assert_true(tb_contains(warning, "mem.trace: offset "));
        assert_true(tb_contains(warning, "truncated"));
        free(text);
        free(warning);
        at_reader_close(r);
    }
    tb_free(&f);
    free(file);
    tb_free(&s);
}

/* Corrupt data inside a complete second chunk: the first chunk's calls, then an error. */
static void test_corrupt_later_chunk(void **state)
{
    (void)state;
    tb_buf s;
    start(&s, false);
    size_t n;
    uint8_t *file = tb_snappy(s.data, s.len, 1u << 20, &n);
    tb_buf f;
    tb_init(&f);
    tb_bytes(&f, file, n);
    static const uint8_t chunk[] = {4, 0, 0, 0, 0x0a, 0x00, 0x00, 0x01}; /* literal overruns */
    tb_bytes(&f, chunk, sizeof chunk);
    check_read_error(f.data, f.len, false, "corrupt Snappy data", "0 @0 ok()\n");
    tb_free(&f);
    free(file);
    tb_free(&s);
}

/* Argument indices that grow one by one past the signature's count: each growth must
 * not copy the whole argument array into fresh arena memory, or a few hundred KiB of
 * trace cost tens of GiB. Bound: a generous constant times the final array size. */
static void test_growing_arg_indices_memory(void **state)
{
    (void)state;
    enum { N = 3000 };
    tb_buf s;
    start(&s, true);
    tb_enter(&s, 6, 0, 0);
    tb_func_sig(&s, "f", 0, NULL);
    for (uint32_t i = 0; i < N; ++i) {
        tb_byte(&s, AT_DETAIL_ARG);
        tb_uint(&s, i);
        tb_byte(&s, AT_TYPE_NULL);
    }
    tb_byte(&s, AT_DETAIL_END);
    tb_leave(&s, 0);
    tb_byte(&s, AT_DETAIL_END);
    uint8_t *file;
    gt_error err;
    at_reader *r = tb_open_stream(&s, &file, &err);
    assert_non_null(r);
    gt_call *c = at_reader_next(r);
    assert_non_null(c);
    assert_int_equal(c->num_args, N);
    size_t used = c->arena.used, bound = 16 * N * (sizeof(gt_value) + 1) + 65536;
    at_reader_release(r, c);
    at_reader_close(r);
    free(file);
    tb_free(&s);
    print_message("arena bytes for %d arguments: %zu (bound %zu)\n", N, used, bound);
    assert_true(used <= bound);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_not_a_trace),
        cmocka_unit_test(test_zstandard),
        cmocka_unit_test(test_bad_header),
        cmocka_unit_test(test_corrupt_first_chunk),
        cmocka_unit_test(test_long_varint),
        cmocka_unit_test(test_absurd_sizes),
        cmocka_unit_test(test_sizes_past_end),
        cmocka_unit_test(test_absurd_counts),
        cmocka_unit_test(test_unknown_codes),
        cmocka_unit_test(test_far_signature_ids),
        cmocka_unit_test(test_near_signature_id_accepted),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_truncated_snappy_chunk),
        cmocka_unit_test(test_corrupt_later_chunk),
        cmocka_unit_test(test_growing_arg_indices_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
