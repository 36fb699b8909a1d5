/* at_writer: the exact bytes it writes, signatures in full only on first use, the fake
 * flag, flushing mid-way, dying flushes (no half event, with or without the lock),
 * 1 MiB chunking of large blobs, concurrent writers, and rewriting a read trace with
 * at_writer_value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "at_writer.h"
#include "trace_builder.h"

static const char *x_args[] = {"x"};
static gt_func_sig foo = {.id = 2, .name = "glFoo", .num_args = 1, .arg_names = x_args};
static gt_func_sig bar = {.id = 0, .name = "glBar", .num_args = 0, .arg_names = NULL};

static at_writer *open_writer(char **path)
{
    *path = tb_temp_path();
    gt_error err;
    gt_error_clear(&err);
    at_writer_property props[] = {{"a", "b"}};
    at_writer *w = at_writer_open(*path, props, 1, &err);
    assert_non_null(w);
    return w;
}

static void close_writer(at_writer *w)
{
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(at_writer_close(w, &err), 1);
}

/* The decompressed stream of a file the writer made. */
static uint8_t *stream_of(const char *path, size_t *n, unsigned *nchunks, size_t *max_chunk)
{
    size_t fn;
    uint8_t *file = tb_read_file(path, &fn);
    uint8_t *s = tb_unsnappy(file, fn, n, nchunks, max_chunk);
    free(file);
    return s;
}

static void foo_call(at_writer *w, uint32_t thread, unsigned flags, uint64_t x)
{
    at_writer_begin_enter(w, &foo, thread, flags);
    at_writer_begin_arg(w, 0);
    at_writer_uint(w, x);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_begin_return(w);
    at_writer_sint(w, -1);
    at_writer_end_leave(w);
}

static void test_exact_bytes(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    uint64_t after_header = at_writer_stream_bytes(w);
    foo_call(w, 3, 0, 5);
    uint64_t after_first = at_writer_stream_bytes(w);
    foo_call(w, 3, AT_WRITER_FAKE, 5);
    uint64_t after_second = at_writer_stream_bytes(w);
    close_writer(w);

    tb_buf want;
    tb_init(&want);
    tb_uint(&want, 6);
    tb_uint(&want, 6);
    tb_str(&want, "a");
    tb_str(&want, "b");
    tb_uint(&want, 0);
    assert_int_equal(after_header, want.len);
    for (int i = 0; i < 2; ++i) {
        tb_enter(&want, 6, 3, 2);
        if (i == 0)
            tb_func_sig(&want, "glFoo", 1, x_args); /* in full on first use only */
        else {
            tb_byte(&want, AT_DETAIL_FLAGS);
            tb_uint(&want, AT_FLAG_FAKE);
        }
        tb_byte(&want, AT_DETAIL_ARG);
        tb_uint(&want, 0);
        tb_byte(&want, AT_TYPE_UINT);
        tb_uint(&want, 5);
        tb_byte(&want, AT_DETAIL_END);
        tb_leave(&want, (uint32_t)i);
        tb_byte(&want, AT_DETAIL_RET);
        tb_byte(&want, AT_TYPE_SINT);
        tb_uint(&want, 1);
        tb_byte(&want, AT_DETAIL_END);
        if (i == 0)
            assert_int_equal(after_first, want.len);
    }
    assert_int_equal(after_second, want.len);
    size_t n;
    uint8_t *got = stream_of(path, &n, NULL, NULL);
    assert_int_equal(n, want.len);
    assert_memory_equal(got, want.data, n);
    free(got);
    tb_free(&want);
    unlink(path);
    free(path);
}

/* Bytes one value adds to the stream. */
#define COST(w, expr) \
    ({ uint64_t before_ = at_writer_stream_bytes(w); expr; at_writer_stream_bytes(w) - before_; })

/* Around one value of a call to glFoo: 0 begins it (at its argument, 2 without one),
 * 1 ends it. */
static void value_call(at_writer *w, int part)
{
    if (part != 1) {
        at_writer_begin_enter(w, &foo, 0, 0);
        if (part == 0)
            at_writer_begin_arg(w, 0);
        return;
    }
    at_writer_begin_leave(w, at_writer_end_enter(w));
    at_writer_end_leave(w);
}

static void test_signatures_once(void **state)
{
    (void)state;
    static gt_enum_value ev[] = {{"GL_LONG_ENUM_NAME_ONE", 1}, {"GL_LONG_ENUM_NAME_TWO", 2}};
    static gt_enum_sig en = {.id = 4, .num_values = 2, .values = ev};
    static gt_bitmask_flag bf[] = {{"GL_LONG_FLAG_NAME", 1}};
    static gt_bitmask_sig bm = {.id = 5, .num_flags = 1, .flags = bf};
    static const char *members[] = {"first_member", "second_member"};
    static gt_struct_sig st = {.id = 6, .name = "LongStruct", .num_members = 2,
                               .member_names = members};
    static gt_frame fr = {.id = 7, .module = "libmodule.so", .function = "function_name",
                          .filename = "file.c", .line = 10, .offset = 0x20};
    const gt_frame *frames[] = {&fr};
    char *path;
    at_writer *w = open_writer(&path);
    /* Each value in a call of its own, twice; a call's bytes reach the stream when
     * its events are placed (end_enter, end_leave), so whole calls are measured. */
    uint64_t cost[2][4];
    for (int i = 0; i < 2; ++i) {
        cost[i][0] = COST(w, (value_call(w, 0), at_writer_enum(w, &en, 2), value_call(w, 1)));
        cost[i][1] = COST(w, (value_call(w, 0), at_writer_bitmask(w, &bm, 1), value_call(w, 1)));
        cost[i][2] = COST(w, (value_call(w, 0), at_writer_begin_struct(w, &st),
                              at_writer_uint(w, 1), at_writer_uint(w, 2), value_call(w, 1)));
        cost[i][3] = COST(w, (value_call(w, 2), at_writer_backtrace(w, frames, 1), value_call(w, 1)));
    }
    /* by id alone the second time: the call (enter: event, thread, function id, end;
     * leave: event, number, end: 7 bytes), the argument's head (2), tag + id + value(s) */
    assert_int_equal(cost[1][0], 7 + 2 + 1 + 1 + 2);
    assert_int_equal(cost[1][1], 7 + 2 + 1 + 1 + 1);
    assert_int_equal(cost[1][2], 7 + 2 + 1 + 1 + 2 + 2);
    assert_int_equal(cost[1][3], 7 + 1 + 1 + 1);
    for (int k = 0; k < 4; ++k)
        assert_true(cost[0][k] > cost[1][k] + 8);
    close_writer(w);

    gt_error err;
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    char *text = tb_dump_all(r, NULL, NULL);
    assert_string_equal(text,
                        "0 @0 glFoo(x = GL_LONG_ENUM_NAME_TWO)\n"
                        "1 @0 glFoo(x = GL_LONG_FLAG_NAME)\n"
                        "2 @0 glFoo(x = {first_member = 1, second_member = 2})\n"
                        "3 @0 glFoo(x = ?)\n"
                        "4 @0 glFoo(x = GL_LONG_ENUM_NAME_TWO)\n"
                        "5 @0 glFoo(x = GL_LONG_FLAG_NAME)\n"
                        "6 @0 glFoo(x = {first_member = 1, second_member = 2})\n"
                        "7 @0 glFoo(x = ?)\n");
    free(text);
    at_reader_close(r);
    r = at_reader_open(path, NULL, &err);
    for (int i = 0; i < 8; ++i) {
        gt_call *c = at_reader_next(r);
        assert_non_null(c);
        if (i % 4 != 3) {
            at_reader_release(r, c);
            continue;
        }
        assert_int_equal(c->num_frames, 1);
        const gt_frame *f = c->frames[0];
        assert_int_equal(f->id, 7);
        assert_string_equal(f->module, "libmodule.so");
        assert_string_equal(f->function, "function_name");
        assert_string_equal(f->filename, "file.c");
        assert_int_equal(f->line, 10);
        assert_int_equal(f->offset, 0x20);
        at_reader_release(r, c);
    }
    at_reader_close(r);
    unlink(path);
    free(path);
}

static void test_fake_flag(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    foo_call(w, 0, AT_WRITER_FAKE, 2);
    close_writer(w);
    gt_error err;
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    gt_call *c = at_reader_next(r);
    assert_false(c->flags & GT_CALL_FLAG_FAKE);
    at_reader_release(r, c);
    c = at_reader_next(r);
    assert_true(c->flags & GT_CALL_FLAG_FAKE);
    at_reader_release(r, c);
    at_reader_close(r);
    unlink(path);
    free(path);
}

static char *dump_file(const char *path, char **warning);

enum { AT_SCRATCH_TEST = 128 * 1024 }; /* more than a thread's scratch buffer */

/* A finished writer reused for the next file (frame ranges): each file a whole trace
 * with its own header, calls numbered from 0 and signatures defined again; a call a
 * thread was writing when the first file ended (its enter, its leave, a big event
 * written straight into the stream) reaches neither file. */
static void test_reopen(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    at_writer_begin_enter(w, &foo, 0, 0); /* in progress when the file ends */
    at_writer_begin_arg(w, 0);
    at_writer_uint(w, 99);
    gt_error err;
    gt_error_clear(&err);
    assert_int_equal(at_writer_finish(w, &err), 1);
    char *path2 = tb_temp_path();
    at_writer_property props[] = {{"second", "yes"}};
    assert_int_equal(at_writer_reopen(w, path2, props, 1, &err), 1);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_end_leave(w);
    static uint8_t big[AT_SCRATCH_TEST];
    at_writer_begin_enter(w, &foo, 0, 0); /* started in the first file's epoch... */
    gt_error_clear(&err);
    assert_int_equal(at_writer_finish(w, &err), 1);
    assert_int_equal(at_writer_reopen(w, path2, props, 1, &err), 1);
    at_writer_begin_arg(w, 0);
    at_writer_blob(w, big, sizeof big); /* ...goes straight into the stream: dropped */
    no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_end_leave(w);
    foo_call(w, 0, 0, 2);
    foo_call(w, 0, 0, 3);
    close_writer(w);

    char *warning = NULL;
    char *one = dump_file(path, &warning);
    char *two = dump_file(path2, &warning);
    assert_string_equal(one, "0 @0 glFoo(x = 1) = -1\n");
    assert_string_equal(two, "0 @0 glFoo(x = 2) = -1\n1 @0 glFoo(x = 3) = -1\n");
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path2, NULL, &err);
    assert_non_null(r);
    assert_int_equal(at_reader_num_properties(r), 1);
    assert_string_equal(at_reader_property(r, 0)->name, "second");
    at_reader_close(r);
    free(one);
    free(two);
    unlink(path);
    unlink(path2);
    free(path);
    free(path2);
}

static char *dump_file(const char *path, char **warning)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    char *error;
    char *text = tb_dump_all(r, &error, warning);
    assert_null(error);
    at_reader_close(r);
    return text;
}

/* After at_writer_flush the file is a readable trace, while the writer goes on. */
static void test_flush_midway(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    foo_call(w, 0, 0, 2);
    assert_int_equal(at_writer_flush(w), 1);
    char *warning;
    char *text = dump_file(path, &warning);
    assert_string_equal(text, "0 @0 glFoo(x = 1) = -1\n1 @0 glFoo(x = 2) = -1\n");
    assert_null(warning);
    free(text);

    at_writer_begin_enter(w, &bar, 1, 0); /* in flight while flushing */
    uint32_t no = at_writer_end_enter(w);
    assert_int_equal(at_writer_flush(w), 1);
    assert_int_equal(at_writer_flush(w), 1); /* nothing pending: no empty chunk */
    text = dump_file(path, &warning);
    assert_string_equal(text, "0 @0 glFoo(x = 1) = -1\n1 @0 glFoo(x = 2) = -1\n"
                              "2 @1 glBar() // incomplete\n");
    assert_true(tb_contains(warning, "1 call(s) left incomplete"));
    free(warning);
    free(text);

    at_writer_begin_leave(w, no);
    at_writer_end_leave(w);
    close_writer(w);
    text = dump_file(path, &warning);
    assert_string_equal(text, "0 @0 glFoo(x = 1) = -1\n1 @0 glFoo(x = 2) = -1\n2 @1 glBar()\n");
    assert_null(warning);
    free(text);
    size_t n;
    unsigned chunks;
    free(stream_of(path, &n, &chunks, NULL));
    assert_int_equal(chunks, 3);
    unlink(path);
    free(path);
}

/* The signal handler's flush stores its chunk as one Snappy literal (no allocation):
 * the Snappy library decodes it like any other chunk. */
static void test_flush_in_signal(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    for (uint64_t i = 0; i < 2000; i++) /* more than 60 bytes: the long literal form */
        foo_call(w, 0, 0, i);
    assert_int_equal(at_writer_try_flush_in_signal(w), 1);
    foo_call(w, 0, 0, 2000);
    close_writer(w); /* a compressed chunk after the stored one */
    char *warning;
    char *text = dump_file(path, &warning);
    assert_null(warning);
    assert_true(tb_contains(text, "0 @0 glFoo(x = 0) = -1\n1 @0 glFoo(x = 1) = -1\n"));
    assert_true(tb_contains(text, "\n2000 @0 glFoo(x = 2000) = -1\n"));
    free(text);
    size_t n;
    unsigned chunks;
    free(stream_of(path, &n, &chunks, NULL));
    assert_int_equal(chunks, 2);
    unlink(path);
    free(path);
}

/* Lines of a dump and whether it warned: a dying flush leaves whole events only. */
static size_t dump_lines(const char *path, char **warning)
{
    char *text = dump_file(path, warning);
    size_t n = 0;
    for (const char *p = text; *p; ++p)
        n += *p == '\n';
    free(text);
    return n;
}

/* A signal interrupted this thread inside an event (it holds the lock): the dying
 * flush writes the complete events without the lock, not the half one, and seals
 * the file: what the interrupted thread writes afterwards never reaches it. */
static void test_dying_flush_own_event(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    for (uint64_t i = 0; i < 2000; i++)
        foo_call(w, 0, 0, i);
    at_writer_begin_enter(w, &foo, 0, 0); /* the interrupted event */
    at_writer_begin_arg(w, 0);
    assert_int_equal(at_writer_flush_dying(w), 1);
    at_writer_uint(w, 7);
    at_writer_end_enter(w);
    foo_call(w, 0, 0, 9999);
    close_writer(w);
    char *warning;
    assert_int_equal(dump_lines(path, &warning), 2000);
    assert_null(warning);
    unlink(path);
    free(path);
}

/* A full buffer is written up to the last complete event: the one in progress moves
 * to the next chunk, so a crash inside it leaves no half event in the file. */
static void test_spill_keeps_event(void **state)
{
    (void)state;
    static uint8_t blob[600 * 1024];
    char *path;
    at_writer *w = open_writer(&path);
    for (uint64_t i = 0; i < 40000; i++) /* ~0.6 MiB of small events */
        foo_call(w, 0, 0, i);
    at_writer_begin_enter(w, &foo, 0, 0); /* crosses the 1 MiB mark */
    at_writer_begin_arg(w, 0);
    at_writer_blob(w, blob, sizeof blob);
    assert_int_equal(at_writer_flush_dying(w), 1);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_end_leave(w);
    close_writer(w);
    char *warning;
    assert_int_equal(dump_lines(path, &warning), 40000);
    assert_null(warning);
    unlink(path);
    free(path);
}

typedef struct holder {
    at_writer *w;
    int ms;                /* how long the event stays open; 0: until released */
    volatile int inside;   /* set once the lock is held */
    volatile int release;
} holder;

/* An event larger than a thread's scratch buffer is written straight into the stream
 * under the lock (at_writer_internal.h): the holder stays inside it, lock held. */
static uint8_t big_arg[96 * 1024];

static void *hold_event(void *arg)
{
    holder *h = arg;
    at_writer_begin_enter(h->w, &foo, 1, 0);
    at_writer_begin_arg(h->w, 0);
    at_writer_blob(h->w, big_arg, sizeof big_arg);
    h->inside = 1;
    if (h->ms)
        usleep((useconds_t)h->ms * 1000);
    while (!h->ms && !h->release)
        usleep(1000);
    at_writer_end_enter(h->w);
    return NULL;
}

static pthread_t start_holder(holder *h)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, hold_event, h), 0);
    while (!h->inside)
        usleep(1000);
    return t;
}

/* Another thread inside a short event: the dying flush waits for it and writes its
 * event too (then keeps the lock: the process ends). */
static void test_dying_flush_waits(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    holder h = {w, 100, 0, 0};
    pthread_t t = start_holder(&h);
    assert_int_equal(at_writer_flush_dying(w), 1);
    pthread_join(t, NULL);
    char *warning;
    char *text = dump_file(path, &warning);
    assert_string_equal(text, "0 @0 glFoo(x = 1) = -1\n1 @1 glFoo(x = blob(98304)) // incomplete\n");
    free(text);
    free(warning);
    close_writer(w);
    unlink(path);
    free(path);
}

/* Another thread stuck inside an event longer than the wait: the complete events are
 * written without the lock, and its own event, finished later, is dropped. */
static void test_dying_flush_stuck_thread(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    holder h = {w, 0, 0, 0};
    pthread_t t = start_holder(&h);
    assert_int_equal(at_writer_flush_dying(w), 1);
    h.release = 1;
    pthread_join(t, NULL);
    foo_call(w, 0, 0, 2);
    close_writer(w);
    char *warning;
    char *text = dump_file(path, &warning);
    assert_string_equal(text, "0 @0 glFoo(x = 1) = -1\n");
    assert_null(warning);
    free(text);
    unlink(path);
    free(path);
}

/* Chunks still queued for the compressor thread when the process dies: the dying
 * flush writes them, then the events of the buffer being filled, in order. */
static void test_dying_flush_queued(void **state)
{
    (void)state;
    static uint8_t blob[200 * 1024];
    char *path;
    at_writer *w = open_writer(&path);
    enum { CALLS = 40 }; /* ~8 MiB: more chunks than the queue holds */
    for (uint64_t i = 0; i < CALLS; i++) {
        at_writer_begin_enter(w, &foo, 0, 0);
        at_writer_begin_arg(w, 0);
        blob[0] = (uint8_t)i;
        at_writer_blob(w, blob, sizeof blob);
        at_writer_begin_leave(w, at_writer_end_enter(w));
        at_writer_end_leave(w);
    }
    foo_call(w, 0, 0, 7);
    assert_int_equal(at_writer_flush_dying(w), 1);
    char *warning;
    assert_int_equal(dump_lines(path, &warning), CALLS + 1);
    assert_null(warning);
    close_writer(w);
    unlink(path);
    free(path);
}

/* exec: flushed and held; released after a failed exec, the writer goes on. */
static void test_hold_flushed(void **state)
{
    (void)state;
    char *path;
    at_writer *w = open_writer(&path);
    foo_call(w, 0, 0, 1);
    assert_int_equal(at_writer_hold_flushed(w), 1);
    char *warning;
    assert_int_equal(dump_lines(path, &warning), 1);
    assert_null(warning);
    at_writer_release(w);
    foo_call(w, 0, 0, 2);
    close_writer(w);
    assert_int_equal(dump_lines(path, &warning), 2);
    assert_null(warning);
    unlink(path);
    free(path);
}

/* More than 3 MiB of blobs: events straddle the 1 MiB chunks and come back exact. */
static void test_big_blobs(void **state)
{
    (void)state;
    static const size_t sizes[] = {1536 * 1024, 700 * 1024, (1u << 20) + 3, 5, 900 * 1024};
    enum { NB = sizeof sizes / sizeof *sizes };
    uint8_t *blobs[NB];
    uint32_t x = 1;
    size_t total = 0;
    for (int i = 0; i < NB; ++i) {
        blobs[i] = malloc(sizes[i]);
        assert_non_null(blobs[i]);
        for (size_t k = 0; k < sizes[i]; ++k) { /* incompressible-ish */
            x = x * 1103515245u + 12345u;
            blobs[i][k] = (uint8_t)(x >> 16);
        }
        total += sizes[i];
    }
    assert_true(total > 3u << 20);
    char *path;
    at_writer *w = open_writer(&path);
    for (int i = 0; i < NB; ++i) {
        at_writer_begin_enter(w, &foo, 0, 0);
        at_writer_begin_arg(w, 0);
        at_writer_blob(w, blobs[i], sizes[i]);
        uint32_t no = at_writer_end_enter(w);
        at_writer_begin_leave(w, no);
        at_writer_end_leave(w);
    }
    close_writer(w);

    size_t n, max_chunk;
    unsigned chunks;
    free(stream_of(path, &n, &chunks, &max_chunk));
    assert_true(chunks >= 4);
    assert_int_equal(max_chunk, AT_SNAPPY_CHUNK);

    for (int skip = 0; skip < 2; ++skip) {
        gt_error err;
        at_reader_options opt = {.skip_blob_data = skip};
        at_reader *r = at_reader_open(path, &opt, &err);
        assert_non_null(r);
        for (int i = 0; i < NB; ++i) {
            gt_call *c = at_reader_next(r);
            assert_non_null(c);
            assert_int_equal(c->no, i);
            assert_int_equal(c->args[0].kind, GT_BLOB);
            assert_int_equal(c->args[0].blob.size, sizes[i]);
            if (skip)
                assert_null(c->args[0].blob.data);
            else
                assert_memory_equal(c->args[0].blob.data, blobs[i], sizes[i]);
            at_reader_release(r, c);
        }
        assert_null(at_reader_next(r));
        assert_null(at_reader_error(r));
        at_reader_close(r);
    }
    for (int i = 0; i < NB; ++i)
        free(blobs[i]);
    unlink(path);
    free(path);
}

/* ---- rewriting a read trace value by value ---- */

static gt_enum_value ev[] = {{"GL_A", 10}};
static gt_enum_sig en = {.id = 0, .num_values = 1, .values = ev};
static gt_bitmask_flag bf[] = {{"BIT0", 1}};
static gt_bitmask_sig bm = {.id = 0, .num_flags = 1, .flags = bf};
static const char *members[] = {"m"};
static gt_struct_sig st = {.id = 0, .name = "S", .num_members = 1, .member_names = members};
static const char *many_args[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static gt_func_sig many = {.id = 1, .name = "glMany", .num_args = 8, .arg_names = many_args};

static void write_source(at_writer *w, int round)
{
    static const uint32_t wide[] = {'w', 0x100};
    at_writer_begin_enter(w, &many, (uint32_t)round, round ? AT_WRITER_FAKE : 0);
    at_writer_begin_arg(w, 0);
    at_writer_enum(w, &en, round ? 10 : 11);
    at_writer_begin_arg(w, 1);
    at_writer_bitmask(w, &bm, 3);
    at_writer_begin_arg(w, 2);
    at_writer_begin_struct(w, &st);
    at_writer_begin_array(w, 2);
    at_writer_float(w, -0.0f);
    at_writer_double(w, 1e300);
    at_writer_begin_arg(w, 3);
    at_writer_wstring(w, wide, 2);
    at_writer_begin_arg(w, 4);
    at_writer_blob(w, "\0\1\2", 3);
    at_writer_begin_arg(w, 5);
    at_writer_begin_repr(w);
    at_writer_cstring(w, "human");
    at_writer_pointer(w, 0x1234);
    at_writer_begin_arg(w, 6);
    at_writer_sint(w, -77);
    uint32_t no = at_writer_end_enter(w);
    at_writer_begin_leave(w, no);
    at_writer_begin_arg(w, 7); /* an output */
    at_writer_string(w, "a\nb", 3);
    at_writer_begin_return(w);
    at_writer_bool(w, round);
    at_writer_end_leave(w);
}

static void rewrite(const char *from, const char *to, bool skip_blobs)
{
    gt_error err;
    gt_error_clear(&err);
    at_reader_options opt = {.skip_blob_data = skip_blobs};
    at_reader *r = at_reader_open(from, &opt, &err);
    assert_non_null(r);
    at_writer *w = at_writer_open(to, NULL, 0, &err);
    assert_non_null(w);
    gt_call *c;
    while ((c = at_reader_next(r))) {
        unsigned flags = (c->flags & GT_CALL_FLAG_FAKE) ? AT_WRITER_FAKE : 0;
        at_writer_begin_enter(w, c->sig, c->thread, flags);
        for (uint32_t i = 0; i < c->num_args; ++i)
            if (!c->arg_at_leave[i]) {
                at_writer_begin_arg(w, i);
                at_writer_value(w, &c->args[i]);
            }
        uint32_t no = at_writer_end_enter(w);
        assert_int_equal(no, c->no);
        at_writer_begin_leave(w, no);
        for (uint32_t i = 0; i < c->num_args; ++i)
            if (c->arg_at_leave[i]) {
                at_writer_begin_arg(w, i);
                at_writer_value(w, &c->args[i]);
            }
        if (c->ret) {
            at_writer_begin_return(w);
            at_writer_value(w, c->ret);
        }
        at_writer_end_leave(w);
        at_reader_release(r, c);
    }
    assert_null(at_reader_error(r));
    at_reader_close(r);
    assert_int_equal(at_writer_close(w, &err), 1);
}

static void test_rewrite_with_value(void **state)
{
    (void)state;
    char *src;
    at_writer *w = open_writer(&src);
    write_source(w, 0);
    write_source(w, 1);
    close_writer(w);
    char *warning;
    char *want = dump_file(src, &warning);
    assert_string_equal(want,
                        "0 @0 glMany(a = 11, b = BIT0 | 0x2, c = {m = {-0, 1e+300}}, d = L\"w\\0\", "
                        "e = blob(3), f = \"human\", g = -77, h = \"a\\nb\") = false\n"
                        "1 @1 glMany(a = GL_A, b = BIT0 | 0x2, c = {m = {-0, 1e+300}}, d = L\"w\\0\", "
                        "e = blob(3), f = \"human\", g = -77, h = \"a\\nb\") = true // fake\n");
    for (int skip = 0; skip < 2; ++skip) {
        char *dst = tb_temp_path();
        rewrite(src, dst, skip);
        char *got = dump_file(dst, &warning);
        assert_string_equal(got, want);
        assert_null(warning);
        free(got);
        /* without blob data the size survives, the bytes become zeros */
        gt_error err;
        at_reader *r = at_reader_open(dst, NULL, &err);
        gt_call *c = at_reader_next(r);
        assert_non_null(c);
        assert_memory_equal(c->args[4].blob.data, skip ? "\0\0\0" : "\0\1\2", 3);
        assert_int_equal(c->arg_at_leave[7], 1);
        at_reader_release(r, c);
        at_reader_close(r);
        unlink(dst);
        free(dst);
    }
    free(want);
    unlink(src);
    free(src);
}

/* ---- concurrent writers ---- */

enum { THREADS = 4, PER_THREAD = 500 };
static at_writer *shared_writer;

/* Signatures the threads use for the first time at once: each must be written in full
 * once, before any reference to it, whichever thread's event reaches the stream first. */
enum { SIGS = 64 };
static gt_enum_value sig_values[SIGS][1];
static char sig_names[SIGS][16];
static gt_enum_sig sigs[SIGS];

static void make_sigs(void)
{
    for (uint32_t k = 0; k < SIGS; ++k) {
        snprintf(sig_names[k], sizeof sig_names[k], "GL_SIG_%u", k);
        sig_values[k][0] = (gt_enum_value){sig_names[k], k};
        sigs[k] = (gt_enum_sig){.id = 100 + k, .num_values = 1, .values = sig_values[k]};
    }
}

/* Even threads record before their calls would run, odd ones late (after). */
static void *writer_thread(void *arg)
{
    uint32_t t = (uint32_t)(uintptr_t)arg;
    for (uint32_t i = 0; i < PER_THREAD; ++i) {
        at_writer_begin_enter(shared_writer, &many, t, t % 2 ? AT_WRITER_LATE : 0);
        at_writer_begin_arg(shared_writer, 0);
        at_writer_uint(shared_writer, i);
        at_writer_begin_arg(shared_writer, 1);
        uint32_t k = (i * 7 + t) % SIGS;
        at_writer_enum(shared_writer, &sigs[k], k);
        uint32_t no = at_writer_end_enter(shared_writer);
        at_writer_begin_leave(shared_writer, no);
        at_writer_begin_return(shared_writer);
        at_writer_sint(shared_writer, -1);
        at_writer_end_leave(shared_writer);
    }
    return NULL;
}

static void test_concurrent_writers(void **state)
{
    (void)state;
    char *path;
    make_sigs();
    shared_writer = open_writer(&path);
    pthread_t th[THREADS];
    for (uintptr_t t = 0; t < THREADS; ++t)
        assert_int_equal(pthread_create(&th[t], NULL, writer_thread, (void *)t), 0);
    for (int t = 0; t < THREADS; ++t)
        pthread_join(th[t], NULL);
    close_writer(shared_writer);

    gt_error err;
    at_reader *r = at_reader_open(path, NULL, &err);
    assert_non_null(r);
    uint32_t next[THREADS] = {0};
    uint8_t *seen = calloc(THREADS * PER_THREAD, 1);
    gt_call *c;
    unsigned count = 0;
    while ((c = at_reader_next(r))) {
        assert_true(c->thread < THREADS);
        assert_int_equal(c->args[0].u, next[c->thread]++); /* each thread's order kept */
        uint32_t k = (uint32_t)((c->args[0].u * 7 + c->thread) % SIGS);
        assert_int_equal(c->args[1].kind, GT_ENUM);
        assert_string_equal(c->args[1].en.sig->values[0].name, sig_names[k]);
        assert_true(c->no < THREADS * PER_THREAD);
        assert_false(seen[c->no]);
        seen[c->no] = 1;
        count++;
        at_reader_release(r, c);
    }
    assert_int_equal(count, THREADS * PER_THREAD);
    assert_null(at_reader_error(r));
    assert_null(at_reader_warning(r));
    free(seen);
    at_reader_close(r);
    unlink(path);
    free(path);
}

static void test_open_failure(void **state)
{
    (void)state;
    gt_error err;
    gt_error_clear(&err);
    at_writer *w = at_writer_open("/nonexistent-dir/x.trace", NULL, 0, &err);
    assert_null(w);
    assert_true(tb_contains(err.msg, "/nonexistent-dir/x.trace"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_bytes),
        cmocka_unit_test(test_signatures_once),
        cmocka_unit_test(test_fake_flag),
        cmocka_unit_test(test_flush_midway),
        cmocka_unit_test(test_flush_in_signal),
        cmocka_unit_test(test_dying_flush_own_event),
        cmocka_unit_test(test_spill_keeps_event),
        cmocka_unit_test(test_dying_flush_waits),
        cmocka_unit_test(test_dying_flush_stuck_thread),
        cmocka_unit_test(test_dying_flush_queued),
        cmocka_unit_test(test_hold_flushed),
        cmocka_unit_test(test_big_blobs),
        cmocka_unit_test(test_rewrite_with_value),
        cmocka_unit_test(test_concurrent_writers),
        cmocka_unit_test(test_open_failure),
        cmocka_unit_test(test_reopen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
