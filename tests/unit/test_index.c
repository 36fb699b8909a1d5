/* The frame index (at_index.h): built from corpus traces, written and loaded back,
 * reading from a frame's seek point gives exactly the calls a full read gives for that
 * frame (dump text), and stale, damaged or truncated index files are rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "at_dump.h"
#include "at_index.h"

#ifndef AT_CORPUS_DIR
#define AT_CORPUS_DIR "../shared/corpus/apitrace"
#endif

#define NSEL 4

/* Snappy traces with many frames, threads (glthreads) and a frame-less one. */
static const char *const traces[] = {"glxgears.trace", "es2gears_x11.trace", "glmark2_texture.trace",
                                     "glmark2_desktop.trace", "glthreads.trace", "keithel_glxgears.trace",
                                     "glxsimple.trace", "eglinfo.trace"};

static char *copy_trace(const char *name)
{
    char src[1024], *dst = malloc(1024);
    assert_non_null(dst);
    snprintf(src, sizeof src, "%s/%s", AT_CORPUS_DIR, name);
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dst, 1024, "%s/test_index_%d_%s", tmp, (int)getpid(), name);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
    return dst;
}

static void remove_trace(char *path)
{
    char *idx = at_index_path(path);
    unlink(idx);
    unlink(path);
    free(idx);
    free(path);
}

static void dump_one(gt_strbuf *b, const gt_call *c)
{
    at_dump_options o;
    at_dump_default_options(&o);
    o.thread_ids = true;
    o.multiline = false;
    at_dump_call(b, c, &o);
    gt_strbuf_putc(b, '\n');
}

static at_reader *open_trace(const char *path)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options ropt = {.skip_blob_data = true};
    at_reader *r = at_reader_open(path, &ropt, &err);
    assert_non_null(r);
    return r;
}

/* One full read: the dump text of each selected frame. */
static void full_read(const char *path, const uint64_t *sel, gt_strbuf *text)
{
    at_reader *r = open_trace(path);
    uint64_t frame = 0;
    gt_call *c;
    while ((c = at_reader_next(r))) {
        for (int i = 0; i < NSEL; ++i)
            if (sel[i] == frame)
                dump_one(&text[i], c);
        if (c->flags & GT_CALL_FLAG_END_FRAME)
            frame++;
        at_reader_release(r, c);
    }
    assert_null(at_reader_error(r));
    at_reader_close(r);
}

/* Frame f read from its seek point; returns how far into the file reading went. */
static size_t seek_read(const char *path, const at_index *ix, uint64_t f, gt_strbuf *text)
{
    at_seek_point p;
    uint32_t after;
    assert_true(at_index_frames_start(ix, f, f, &p, &after));
    at_reader *r = open_trace(path);
    gt_error err;
    gt_error_clear(&err);
    assert_true(at_reader_seek(r, ix->sigs, ix->nsigs, &p, &err));
    int waiting = after != UINT32_MAX;
    gt_call *c;
    while ((c = at_reader_next(r))) {
        int end = (c->flags & GT_CALL_FLAG_END_FRAME) != 0;
        if (!waiting)
            dump_one(text, c);
        else if (c->no == after)
            waiting = 0;
        at_reader_release(r, c);
        if (end && !waiting && c->no != after)
            break;
    }
    assert_null(at_reader_error(r));
    size_t pos = at_input_file_pos(at_reader_input(r));
    at_reader_close(r);
    return pos;
}

static void check_trace(const char *name)
{
    char *path = copy_trace(name);
    gt_error err;
    gt_error_clear(&err);
    at_index *built = at_index_build(path, NULL, &err);
    assert_non_null(built);
    assert_int_equal(at_index_write(built, path, &err), 0);
    at_index *ix = NULL;
    assert_int_equal(at_index_load(path, &ix, &err), 1);
    assert_int_equal(ix->calls, built->calls);
    assert_int_equal(ix->nframes, built->nframes);
    assert_int_equal(ix->nsigs, built->nsigs);
    at_index_free(built);
    uint64_t n = ix->frames_count;
    if (ix->first_incomplete_frame < n)
        n = ix->first_incomplete_frame; /* the frames a seek may stand in for */
    if (n > 0) {
        uint64_t sel[NSEL] = {0, n / 2, n > 1 ? n - 2 : 0, n - 1};
        gt_strbuf want[NSEL], got[NSEL];
        for (int i = 0; i < NSEL; ++i)
            gt_strbuf_init(&want[i]), gt_strbuf_init(&got[i]);
        full_read(path, sel, want);
        for (int i = 0; i < NSEL; ++i) {
            size_t pos = seek_read(path, ix, sel[i], &got[i]);
            assert_true(want[i].len > 0);
            assert_int_equal(got[i].len, want[i].len);
            assert_memory_equal(got[i].data, want[i].data, want[i].len);
            /* a trace of several chunks: the first frame is read without the last
             * chunks, the last frame without the first chunk */
            if (ix->data_size > (2u << 20) && i == 0)
                assert_true(pos < ix->container_size);
            if (ix->data_size > (2u << 20) && i == NSEL - 1)
                assert_true(ix->frames[sel[i]].start.chunk_pos > 2);
            gt_strbuf_free(&want[i]), gt_strbuf_free(&got[i]);
        }
    }
    at_index_free(ix);
    remove_trace(path);
}

static void test_corpus_seeks(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof traces / sizeof *traces; ++i)
        check_trace(traces[i]);
}

/* ---- rejected index files ------------------------------------------------------------ */

static char *indexed_copy(const char *name)
{
    char *path = copy_trace(name);
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = at_index_build(path, NULL, &err);
    assert_non_null(ix);
    assert_int_equal(at_index_write(ix, path, &err), 0);
    at_index_free(ix);
    return path;
}

static void patch_index(const char *trace, long at, int whence, uint8_t xor_with)
{
    char *idx = at_index_path(trace);
    FILE *f = fopen(idx, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, at, whence), 0);
    long pos = ftell(f);
    int c = fgetc(f);
    assert_true(c != EOF);
    assert_int_equal(fseek(f, pos, SEEK_SET), 0);
    fputc(c ^ xor_with, f);
    assert_int_equal(fclose(f), 0);
    free(idx);
}

static void expect_rejected(const char *trace, const char *why)
{
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = (at_index *)1;
    assert_int_equal(at_index_load(trace, &ix, &err), -1);
    assert_null(ix);
    if (!strstr(err.msg, why))
        fail_msg("expected \"%s\" in \"%s\"", why, err.msg);
    assert_non_null(strstr(err.msg, ".idx: offset "));
}

static void test_missing_index(void **state)
{
    (void)state;
    char *path = copy_trace("tri.trace");
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = (at_index *)1;
    assert_int_equal(at_index_load(path, &ix, &err), 0);
    assert_null(ix);
    remove_trace(path);
}

static void test_damaged_index(void **state)
{
    (void)state;
    char *path = indexed_copy("glxgears.trace");
    patch_index(path, -3, SEEK_END, 0x40); /* in the last signature */
    expect_rejected(path, "damaged");
    patch_index(path, -3, SEEK_END, 0x40); /* restored */
    gt_error err;
    gt_error_clear(&err);
    at_index *ix = NULL;
    assert_int_equal(at_index_load(path, &ix, &err), 1);
    at_index_free(ix);
    patch_index(path, 0, SEEK_SET, 0x01);
    expect_rejected(path, "bad magic");
    patch_index(path, 0, SEEK_SET, 0x01);
    patch_index(path, 8, SEEK_SET, 0x02);
    expect_rejected(path, "format version");
    patch_index(path, 8, SEEK_SET, 0x02);
    /* cut short: the checksum no longer matches, or the head is incomplete */
    char *idx = at_index_path(path);
    assert_int_equal(truncate(idx, 100), 0);
    expect_rejected(path, "damaged");
    assert_int_equal(truncate(idx, 40), 0);
    gt_error_clear(&err);
    assert_int_equal(at_index_load(path, &ix, &err), -1);
    assert_non_null(strstr(err.msg, "too short"));
    free(idx);
    remove_trace(path);
}

static void test_stale_index(void **state)
{
    (void)state;
    char *path = indexed_copy("glxgears.trace");
    struct timeval tv[2] = {{1000000000, 0}, {1000000000, 0}};
    assert_int_equal(utimes(path, tv), 0); /* same bytes, another time */
    expect_rejected(path, "stale");
    remove_trace(path);

    path = indexed_copy("glxgears.trace");
    FILE *f = fopen(path, "ab"); /* grown */
    assert_non_null(f);
    fputc(0, f);
    fclose(f);
    expect_rejected(path, "stale");
    remove_trace(path);
}

/* A signature definition that is not one (a damaged index whose checksum was made to
 * match) fails the seek with the offset; it never crashes. */
static void test_bad_signature_bytes(void **state)
{
    (void)state;
    char *path = indexed_copy("glxgears.trace");
    at_index *ix = NULL;
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(at_index_load(path, &ix, &err), 1);
    at_seek_point p;
    uint32_t after;
    assert_true(at_index_frames_start(ix, 5, 5, &p, &after));
    static const uint8_t junk[] = {0x00, 0x05, 'a', 'b'}; /* a string cut short */
    at_sig_def defs[2] = {ix->sigs[0], {AT_SIG_FUNCTION, ix->sigs[0].off + 1, junk, sizeof junk}};
    at_reader *r = open_trace(path);
    assert_false(at_reader_seek(r, defs, 2, &p, &err));
    assert_non_null(strstr(err.msg, "offset"));
    at_reader_close(r);
    /* a duplicate definition defines nothing */
    defs[1] = ix->sigs[0];
    defs[1].off++;
    r = open_trace(path);
    gt_error_clear(&err);
    assert_false(at_reader_seek(r, defs, 2, &p, &err));
    at_reader_close(r);
    /* a seek point outside the file */
    p.chunk_pos = ix->container_size + 10;
    r = open_trace(path);
    gt_error_clear(&err);
    assert_false(at_reader_seek(r, ix->sigs, ix->nsigs, &p, &err));
    at_reader_close(r);
    at_index_free(ix);
    remove_trace(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_seeks),
        cmocka_unit_test(test_missing_index),
        cmocka_unit_test(test_damaged_index),
        cmocka_unit_test(test_stale_index),
        cmocka_unit_test(test_bad_signature_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
