/* The three containers (Snappy, gzip, Brotli) deliver the same stream: across chunk
 * and output-buffer boundaries, from memory and from files, and with their own ways
 * of being truncated or corrupt. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <snappy-c.h>

#include "at_snappy_encode.h"
#include "trace_builder.h"

static const char *args2[] = {"s", "data"};

/* n calls "upload(s = "call N", data = blob(blob_size))"; blob bytes vary per call. */
static void build(tb_buf *b, unsigned n, size_t blob_size)
{
    tb_header(b, 6);
    uint8_t *blob = malloc(blob_size + 1);
    assert_non_null(blob);
    for (unsigned i = 0; i < n; ++i) {
        char text[32];
        snprintf(text, sizeof text, "call %u", i);
        for (size_t k = 0; k < blob_size; ++k)
            blob[k] = (uint8_t)((k * 7 + i * 13) ^ (k >> 3));
        tb_enter(b, 6, i % 3, 0);
        if (i == 0)
            tb_func_sig(b, "upload", 2, args2);
        tb_byte(b, AT_DETAIL_ARG);
        tb_uint(b, 0);
        tb_byte(b, AT_TYPE_STRING);
        tb_str(b, text);
        tb_byte(b, AT_DETAIL_ARG);
        tb_uint(b, 1);
        tb_byte(b, AT_TYPE_BLOB);
        tb_uint(b, blob_size);
        tb_bytes(b, blob, blob_size);
        tb_byte(b, AT_DETAIL_END);
        tb_leave(b, i);
        tb_byte(b, AT_DETAIL_END);
    }
    free(blob);
}

static char *dump_mem(const uint8_t *file, size_t n, const char *container, char **warning,
                      char **error)
{
    gt_error err;
    at_reader *r = tb_open_mem(file, n, false, &err);
    assert_non_null(r);
    assert_string_equal(at_reader_input(r)->container, container);
    char *text = tb_dump_all(r, error, warning);
    at_reader_close(r);
    return text;
}

static void expect_clean_dump(const uint8_t *file, size_t n, const char *container,
                              const char *want)
{
    char *warning, *error;
    char *text = dump_mem(file, n, container, &warning, &error);
    assert_null(error);
    assert_null(warning);
    assert_string_equal(text, want);
    free(text);
}

/* Reference dump: the stream in one Snappy chunk. */
static char *reference(const tb_buf *s)
{
    size_t n;
    uint8_t *file = tb_snappy(s->data, s->len, 1u << 24, &n);
    char *text = dump_mem(file, n, "snappy", NULL, NULL);
    free(file);
    return text;
}

/* 3 MiB of stream: gzip and Brotli refill their 1 MiB output buffer several times. */
static void test_big_stream_all_containers(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 3000, 1000);
    char *want = reference(&s);
    assert_true(tb_contains(want, "2999 @2 upload(s = \"call 2999\", data = blob(1000))\n"));
    size_t n;
    uint8_t *f = tb_snappy(s.data, s.len, 1u << 20, &n);
    expect_clean_dump(f, n, "snappy", want);
    free(f);
    f = tb_snappy(s.data, s.len, 4093, &n); /* odd chunk size: blobs straddle chunks */
    expect_clean_dump(f, n, "snappy", want);
    free(f);
    f = tb_gzip(s.data, s.len, &n);
    expect_clean_dump(f, n, "zlib", want);
    free(f);
    f = tb_brotli(s.data, s.len, &n);
    expect_clean_dump(f, n, "brotli", want);
    free(f);
    free(want);
    tb_free(&s);
}

/* One byte of stream per chunk, and chunks that decompress to nothing. */
static void test_snappy_tiny_and_empty_chunks(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 5, 3);
    char *want = reference(&s);
    size_t n;
    uint8_t *f = tb_snappy(s.data, s.len, 1, &n);
    expect_clean_dump(f, n, "snappy", want);
    free(f);

    /* first half, an empty chunk, second half */
    size_t half = s.len / 2, n1, n2;
    uint8_t *a = tb_snappy(s.data, half, 1u << 20, &n1);
    uint8_t *b = tb_snappy(s.data + half, s.len - half, 1u << 20, &n2);
    tb_buf file;
    tb_init(&file);
    tb_bytes(&file, a, n1);
    uint8_t empty_chunk[5] = {1, 0, 0, 0, 0}; /* length 1: varint 0 = no bytes */
    tb_bytes(&file, empty_chunk, sizeof empty_chunk);
    tb_bytes(&file, b + 2, n2 - 2);
    expect_clean_dump(file.data, file.len, "snappy", want);
    free(a);
    free(b);
    tb_free(&file);
    free(want);
    tb_free(&s);
}

/* A file whose first chunk decompresses to nothing (found by fuzzing: the Snappy input
 * then does arithmetic on its still-NULL chunk buffer, which UBSan reports). */
static void test_snappy_empty_first_chunk(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 2, 3);
    char *want = reference(&s);
    size_t n;
    uint8_t *f = tb_snappy(s.data, s.len, 1u << 20, &n);
    tb_buf file;
    tb_init(&file);
    static const uint8_t empty_first[] = {'a', 't', 1, 0, 0, 0, 0};
    tb_bytes(&file, empty_first, sizeof empty_first);
    tb_bytes(&file, f + 2, n - 2);
    expect_clean_dump(file.data, file.len, "snappy", want);
    gt_error err; /* and a file of nothing but that chunk: an empty trace, warned */
    at_reader *r = tb_open_mem(empty_first, sizeof empty_first, false, &err);
    assert_non_null(r);
    assert_null(at_reader_next(r));
    assert_null(at_reader_error(r));
    assert_true(tb_contains(at_reader_warning(r), "file ends before the trace header"));
    at_reader_close(r);
    /* the same as a cut chunk: 100 bytes declared, an empty block and a literal */
    static const uint8_t cut_empty[] = {'a', 't', 100, 0, 0, 0, 0x00, 0x00, 'x'};
    r = tb_open_mem(cut_empty, sizeof cut_empty, false, &err);
    assert_non_null(r);
    assert_null(at_reader_next(r));
    assert_null(at_reader_error(r));
    assert_non_null(at_reader_warning(r));
    at_reader_close(r);
    free(f);
    tb_free(&file);
    free(want);
    tb_free(&s);
}

/* gzip files may hold several members back to back; they make one stream. */
static void test_gzip_multi_member(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 40, 50);
    char *want = reference(&s);
    size_t third = s.len / 3, n1, n2, n3;
    uint8_t *a = tb_gzip(s.data, third, &n1);
    uint8_t *b = tb_gzip(s.data + third, third, &n2);
    uint8_t *c = tb_gzip(s.data + 2 * third, s.len - 2 * third, &n3);
    tb_buf file;
    tb_init(&file);
    tb_bytes(&file, a, n1);
    tb_bytes(&file, b, n2);
    tb_bytes(&file, c, n3);
    expect_clean_dump(file.data, file.len, "zlib", want);
    free(a);
    free(b);
    free(c);
    tb_free(&file);
    free(want);
    tb_free(&s);
}

/* at_reader_open maps real files; each container opens the same way. */
static void test_files(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 20, 10);
    char *want = reference(&s);
    uint8_t *(*wrappers[])(const uint8_t *, size_t, size_t *) = {tb_gzip, tb_brotli};
    for (int i = 0; i < 3; ++i) {
        size_t n;
        uint8_t *f = i == 2 ? tb_snappy(s.data, s.len, 100, &n) : wrappers[i](s.data, s.len, &n);
        char *path = tb_temp_path();
        tb_write_file(path, f, n);
        gt_error err;
        gt_error_clear(&err);
        at_reader *r = at_reader_open(path, NULL, &err);
        assert_non_null(r);
        assert_int_equal(at_input_file_size(at_reader_input(r)), n);
        char *text = tb_dump_all(r, NULL, NULL);
        assert_string_equal(text, want);
        assert_int_equal(at_input_file_pos(at_reader_input(r)), n); /* all consumed */
        free(text);
        at_reader_close(r);
        unlink(path);
        free(path);
        free(f);
    }
    free(want);
    tb_free(&s);
}

/* A compressed stream cut short is a truncated trace: the complete calls, then a
 * warning and no error. */
static void expect_truncated(const uint8_t *file, size_t n, const char *container)
{
    char *warning, *error;
    char *text = dump_mem(file, n, container, &warning, &error);
    print_message("%s truncated: %s\n", container, warning ? warning : "(no warning)");
    assert_null(error);
    assert_non_null(warning);
    assert_true(tb_contains(warning, "offset"));
    assert_true(tb_contains(text, "0 @0 upload(s = \"call 0\""));
    free(warning);
    free(text);
}

static void test_truncated_streams(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 200, 2000);
    size_t n;
    /* one 400 KB Snappy chunk cut short: its decodable prefix still yields calls */
    uint8_t *f = tb_snappy(s.data, s.len, 1u << 20, &n);
    expect_truncated(f, n * 2 / 3, "snappy");
    free(f);
    f = tb_gzip(s.data, s.len, &n);
    expect_truncated(f, n * 2 / 3, "zlib");
    expect_truncated(f, n - 4, "zlib"); /* only the trailer's length field is missing */
    free(f);
    f = tb_brotli(s.data, s.len, &n);
    expect_truncated(f, n * 2 / 3, "brotli");
    free(f);
    tb_free(&s);
}

/* A bad gzip checksum: the data read so far is used, then the error stops reading. */
/* Our allocation-free Snappy encoder (signal-time flushes): libsnappy decodes what it
 * writes to the same bytes, for empty, tiny, random, repetitive and trace-like input
 * across its 64 KiB blocks, within the bound, and compressing what repeats. */
static void check_encoder(const uint8_t *src, size_t n, size_t *clen_out)
{
    static uint16_t table[AT_SNAPPY_TABLE_SIZE];
    uint8_t *c = malloc(at_snappy_bound(n));
    char *d = malloc(n + 1);
    assert_non_null(c);
    assert_non_null(d);
    size_t clen = at_snappy_encode(src, n, c, table);
    assert_true(clen <= at_snappy_bound(n));
    size_t dlen = 0;
    assert_int_equal(snappy_validate_compressed_buffer((const char *)c, clen), SNAPPY_OK);
    assert_int_equal(snappy_uncompressed_length((const char *)c, clen, &dlen), SNAPPY_OK);
    assert_int_equal(dlen, n);
    dlen = n + 1;
    assert_int_equal(snappy_uncompress((const char *)c, clen, d, &dlen), SNAPPY_OK);
    assert_int_equal(dlen, n);
    assert_memory_equal(d, src, n);
    if (clen_out)
        *clen_out = clen;
    free(c);
    free(d);
}

static void test_snappy_encoder(void **state)
{
    (void)state;
    enum { N = 300000 };
    uint8_t *b = malloc(N);
    assert_non_null(b);
    check_encoder(b, 0, NULL);
    memcpy(b, "abcdabcdabcdabcdabcdabcd", 24);
    for (size_t n = 1; n <= 24; ++n)
        check_encoder(b, n, NULL);
    uint32_t x = 12345;
    for (size_t i = 0; i < N; ++i) { /* random: stored nearly as is */
        x = x * 1103515245u + 12345u;
        b[i] = (uint8_t)(x >> 16);
    }
    size_t clen;
    check_encoder(b, N, &clen);
    memset(b, 7, N); /* one long run, across blocks */
    check_encoder(b, N, &clen);
    assert_true(clen < N / 15);
    tb_buf t; /* a trace's stream: calls repeat with small changes */
    tb_init(&t);
    build(&t, 3000, 40);
    check_encoder(t.data, t.len, &clen);
    assert_true(clen < t.len / 2);
    tb_free(&t);
    free(b);
}

static void test_gzip_bad_checksum(void **state)
{
    (void)state;
    tb_buf s;
    tb_init(&s);
    build(&s, 10, 10);
    size_t n;
    uint8_t *f = tb_gzip(s.data, s.len, &n);
    f[n - 8] ^= 0xff; /* CRC32 in the trailer */
    char *warning, *error;
    char *text = dump_mem(f, n, "zlib", &warning, &error);
    assert_non_null(error);
    assert_true(tb_contains(error, "offset"));
    assert_true(tb_contains(error, "corrupt gzip"));
    assert_true(tb_contains(text, "9 @0 upload(s = \"call 9\", data = blob(10))"));
    free(error);
    free(warning);
    free(text);
    free(f);
    tb_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_stream_all_containers),
        cmocka_unit_test(test_snappy_tiny_and_empty_chunks),
        cmocka_unit_test(test_gzip_multi_member),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_truncated_streams),
        cmocka_unit_test(test_gzip_bad_checksum),
        cmocka_unit_test(test_snappy_encoder),
        /* last: under UBSan it aborts the program until the reader is fixed */
        cmocka_unit_test(test_snappy_empty_first_chunk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
